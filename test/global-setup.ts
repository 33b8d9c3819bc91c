// `npm test`'s global set-up (node --test --test-global-setup), for the whole test run:
//
// - **One headless Chromium**, on a DevTools port of 127.0.0.1 chosen by the OS. Its endpoint goes
//   to every test file and every `obtpp` they start as OBTPP_BROWSER_WS_ENDPOINT, so a run's PSU
//   journeys open their contexts in it instead of each process launching its own Chromium (a
//   launch costs about two seconds of CPU here; the suite starts well over a hundred). Journeys
//   stay apart as in one run: each has its own context, wiped between journeys, closed when its
//   browser object closes. A journey that needs a browser of its own (a bank on a private CA: the
//   trust is a launch switch) still launches one; the tests of launching itself give an
//   environment without the endpoint.
// - **Node's compile cache** (NODE_COMPILE_CACHE) for every process the run starts.
// - **The build's validators** (OBTPP_PREBUILT_DIST) for the tests that load the sources, when dist/
//   is a build of the sources as they are.
// - **One pool of warm obtpp workers** (test/helpers/warm-cli.ts), served on a Unix socket in a
//   folder of its own (mode 0700) whose path goes to every test file as OBTPP_TEST_POOL: the test
//   files' `obtpp …` commands and conformance runs go to workers that have run others before,
//   instead of each test file warming its own.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'puppeteer';
import type { Server } from 'node:net';
import type { Outcome, Task, WorkerPool } from './helpers/warm-cli.ts';

let browser: Browser | undefined;
let pool: WorkerPool | undefined;
let server: Server | undefined;
let poolDir: string | undefined;

export async function globalSetup(): Promise<void> {
  useCompileCache();
  usePrebuiltValidators();
  await startBrowser();
  if (!process.env.OBTPP_TEST_POOL && !process.env.OBTPP_TEST_REAL_CLI) await startPool();
}

/**
 * Node's compile cache for every process the test run starts (each test file is one, as is each
 * warm worker and each binary a test starts): the modules they all load — oidc-provider, cucumber,
 * puppeteer, the project's own — are compiled once and read back by the others (about 0.4 s of CPU
 * less per test file here: `NODE_COMPILE_CACHE=DIR /usr/bin/time node --test FILE`, run twice).
 * Kept in node_modules/.cache, where a next run finds it; a cache that cannot be written is only slower.
 */
function useCompileCache(): void {
  if (process.env.NODE_COMPILE_CACHE) return;
  process.env.NODE_COMPILE_CACHE = new URL('../node_modules/.cache/obtpp-test-compile', import.meta.url).pathname;
}

/**
 * The validators the build emitted, for the tests that load the sources: OBTPP_PREBUILT_DIST
 * (src/dialects/prebuilt.ts), set only when dist/ is a build of the sources as they are
 * (`scripts/build.mjs --check`; npm test builds first when it is not). Each test process then
 * loads a schema's standalone validator instead of compiling it with ajv;
 * test/dialects/prebuilt-validators.test.ts proves the two judge alike.
 */
function usePrebuiltValidators(): void {
  if (process.env.OBTPP_PREBUILT_DIST !== undefined) return;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const check = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--check'], { cwd: root, stdio: 'ignore' });
  if (check.status === 0) process.env.OBTPP_PREBUILT_DIST = join(root, 'dist', 'src');
}

async function startBrowser(): Promise<void> {
  if (process.env.OBTPP_BROWSER_WS_ENDPOINT) return;
  const [{ launchInFolder }, { CHROMIUM_ARGS }, { findExecutable }] = await Promise.all([
    import('./helpers/own-chromium.ts'), import('../src/psu/index.ts'), import('../src/psu/executable.ts'),
  ]);
  const executablePath = findExecutable(process.env);
  // No Chromium: every test that needs one says so itself (exit 3 with what to install).
  if (!executablePath) return;
  // Its profile and temporary files in a folder of its own, gone when it closes (helpers/own-chromium.ts).
  browser = await launchInFolder({
    executablePath,
    headless: true,
    // puppeteer adds --remote-debugging-port=0: Chromium binds it to 127.0.0.1 (its default) on a port the OS picks.
    args: [...CHROMIUM_ARGS, '--headless'],
    networkEnabled: false,
    // This process opens no page: it attaches to none of the files' and workers' (each journey's
    // tab would wait for it to let it run, and every event of it would come here too).
    targetFilter: () => false,
    waitForInitialPage: false,
  });
  process.env.OBTPP_BROWSER_WS_ENDPOINT = browser.wsEndpoint();
}

async function startPool(): Promise<void> {
  const [{ WorkerPool }, { createServer }, { mkdtemp }, { tmpdir }, { join }] = await Promise.all([
    import('./helpers/warm-cli.ts'), import('node:net'), import('node:fs/promises'), import('node:os'), import('node:path'),
  ]);
  // The workers get the environment as it is now: the browser's endpoint included.
  const workers = new WorkerPool({ ...process.env });
  poolDir = await mkdtemp(join(tmpdir(), 'obtpp-test-pool-'));
  const path = join(poolDir, 'pool.sock');
  const srv = createServer((socket) => {
    socket.setEncoding('utf8');
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const { id, task, timeoutMs, killSignal } = JSON.parse(buffer.slice(0, nl)) as { id: number; task: Task; timeoutMs: number; killSignal?: NodeJS.Signals };
        buffer = buffer.slice(nl + 1);
        void workers.dispatch(task, { timeoutMs, killSignal }).then((outcome: Outcome) => {
          if (!socket.destroyed) socket.write(`${JSON.stringify({ id, outcome })}\n`);
        });
      }
    });
    // A test file that ended (or crashed) mid-command: its command still ends on its own or by its time-out.
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(path, () => resolve());
  });
  pool = workers;
  server = srv;
  process.env.OBTPP_TEST_POOL = path;
}

export async function globalTeardown(): Promise<void> {
  await pool?.close();
  pool = undefined;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  if (poolDir) await (await import('node:fs/promises')).rm(poolDir, { recursive: true, force: true });
  poolDir = undefined;
  await browser?.close();
  browser = undefined;
}
