// obtpp as a library, tested the way newman tests its `run`: the same scenarios through the CLI and
// through the programmatic API give the same verdict, and once from a tarball made by `npm pack`
// installed into an empty folder. The library is the built entry point (dist/src/index.js), as a
// program that imports 'obtpp' gets it. Real sandbox, real Chromium, real sockets.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'src', 'cli', 'main.js');
const entry = join(root, 'dist', 'src', 'index.js');

interface Run { code: number; stdout: string; stderr: string }

/**
 * The test run's shared browser (test/global-setup.ts), as the file found it: a test that counts the
 * browsers it launches takes it out of process.env for a while, and the processes the tests beside
 * it start still get it.
 */
const sharedBrowser = process.env.OBTPP_BROWSER_WS_ENDPOINT;

function run(file: string, args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, {
      cwd: options.cwd ?? root,
      env: { ...process.env, ...(sharedBrowser ? { OBTPP_BROWSER_WS_ENDPOINT: sharedBrowser } : {}), NO_COLOR: '1', CI: 'true', ...options.env } as NodeJS.ProcessEnv,
      timeout: options.timeoutMs ?? 300_000,
      maxBuffer: 64 * 1024 * 1024,
    }, (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }));
  });
}

/** What must agree between two runs of the same scenarios: verdict, per-rule statuses, scenario counts. */
function verdictOf(summary: any) {
  return {
    verdict: summary.verdict,
    rules: Object.fromEntries(summary.variants.flatMap((v: any) => v.rules.map((r: any) => [`${v.variant} ${r.id}`, r.status]))),
    scenarios: summary.totals.scenarios,
  };
}

const lib = () => import(pathToFileURL(entry).href) as Promise<typeof import('../../src/index.ts')>;

test('package.json exports resolve to the built API, with its types', async () => {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const main = pkg.exports['.'];
  assert.ok(existsSync(join(root, main.default)), `${main.default} exists`);
  assert.ok(existsSync(join(root, main.types)), `${main.types} exists`);
  const m = await lib();
  for (const name of ['runConformance', 'startSandbox', 'loadProfile', 'createClient', 'listFaults']) assert.equal(typeof (m as any)[name], 'function', name);
  assert.equal(m.ExitCode.usage, 2);
  assert.ok(new m.UsageError('x') instanceof m.ObtppError);
});

/** The Chromium processes this process started (their parent is this process), but those in `earlier`. */
async function chromiumChildren(earlier: string[] = []): Promise<string[]> {
  const ps = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]);
  return ps.stdout.split('\n').map((l) => l.trim()).filter((l) => /chrom/i.test(l)).map((l) => l.split(/\s+/)[0]!).filter((pid) => !earlier.includes(pid));
}

// The tests that run obtpp in this program: one at a time (a program runs one conformance run at a
// time; one of them takes the shared browser's endpoint out of the environment while it counts the
// browsers it launches). The packed tarball's test runs beside them (scripts/test-plan.mjs).
describe('in this program', { concurrency: 1 }, () => {
  test('the same scenarios through the CLI and through runConformance give the same verdict; events report progress', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-api-same-'));
    try {
      const cli = await run(process.execPath, [bin, 'conform', '--tags', '@AIS-01 or @COF-04', '--report-dir', join(dir, 'cli'), '--json']);
      assert.ok([0, 1].includes(cli.code), cli.stderr);
      const viaCli = JSON.parse(cli.stdout);

      const m = await lib();
      const events: any[] = [];
      const result = await m.runConformance({
        tags: '@AIS-01 or @COF-04',
        reportDir: join(dir, 'lib'),
        env: { ...process.env, CI: 'true' },
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'scenario' && events.filter((x) => x.type === 'scenario').length === 1) throw new Error('a broken listener does not break the run');
        },
      });
      assert.equal(result.exitCode, cli.code, 'same exit code');
      assert.deepEqual(verdictOf(result.summary), verdictOf(viaCli), 'same verdict, rule by rule');
      assert.deepEqual(JSON.parse(await readFile(join(dir, 'lib', 'summary.json'), 'utf8')), result.summary, 'summary.json is the returned summary');
      assert.equal(result.reportDir, join(dir, 'lib'));

      const scenarios = events.filter((e) => e.type === 'scenario');
      const ran = result.summary.totals.scenarios.passed + result.summary.totals.scenarios.failed;
      assert.equal(scenarios.length, ran, 'one scenario event per finished scenario');
      assert.ok(scenarios.every((e) => ['A', 'B'].includes(e.variant) && /^(AIS-01|COF-04)$/.test(e.rule) && e.name && e.status));
      assert.ok(events.some((e) => e.type === 'note' && /sandbox bank started/.test(e.message)));
      const done = events.at(-1);
      assert.equal(done.type, 'done');
      assert.equal(done.result, result);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('runConformance: an empty selection rejects with a UsageError (exit code 2); an abort gives an interrupted summary', async () => {
    const m = await lib();
    await assert.rejects(m.runConformance({ tags: '@typo' }), (e: any) => e instanceof m.UsageError && e.exitCode === 2 && /@typo/.test(e.message));

    const dir = await mkdtemp(join(tmpdir(), 'obtpp-api-abort-'));
    try {
      const controller = new AbortController();
      let seen = 0;
      const result = await m.runConformance({
        reportDir: dir,
        env: { ...process.env, CI: 'true' },
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'scenario' && ++seen === 2) controller.abort('SIGTERM');
        },
      });
      assert.equal(result.interrupted, 'SIGTERM');
      assert.equal(result.exitCode, 143);
      assert.equal(result.summary.verdict as string, 'interrupted');
      const ran = result.summary.totals.scenarios.passed + result.summary.totals.scenarios.failed;
      assert.ok(ran >= 2 && ran < 20, `what had run (${ran} scenarios)`);
      assert.equal(JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')).verdict, 'interrupted');
      assert.ok(!existsSync(join(dir, 'junit.xml')) || (await readFile(join(dir, 'junit.xml'), 'utf8')).length > 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('runConformance runs after runConformance in one program, one at a time; openBrowser lends them one browser, left open', async () => {
    const m = await lib();
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-api-again-'));
    // Browsers launched here are counted: not the test run's shared one (test/global-setup.ts).
    const shared = process.env.OBTPP_BROWSER_WS_ENDPOINT;
    delete process.env.OBTPP_BROWSER_WS_ENDPOINT;
    const browser = await m.openBrowser();
    const env = { ...process.env, CI: 'true' };
    const ais01 = (r: { summary: any }) => r.summary.variants[0].rules.find((x: any) => x.id === 'AIS-01');
    // An earlier test's interrupted run may still be closing its browser: only browsers started from here on count.
    const earlier = await chromiumChildren();
    try {
      const running = m.runConformance({ variant: 'A', tags: '@AIS-01', reportDir: join(dir, 'first'), browser, env });
      await assert.rejects(m.runConformance({ variant: 'A', tags: '@AIS-01', reportDir: join(dir, 'beside') }),
        (e: any) => e instanceof m.UsageError && e.exitCode === 2 && /already running/.test(e.message), 'a second run at the same time is refused');
      const first = await running;
      assert.equal(first.exitCode, 0);
      assert.equal(ais01(first).status, 'passed');
      const launched = await chromiumChildren(earlier);
      assert.equal(launched.length, 1, 'the lent browser is still running after the run');

      // The second run in the same program finds the step definitions (ES modules run once), and its own bank's fault.
      const second = await m.runConformance({ variant: 'A', tags: '@AIS-01', sandboxFaults: ['consent-status-not-awaiting'], reportDir: join(dir, 'second'), browser, env });
      assert.equal(second.exitCode, 1);
      assert.equal(ais01(second).status, 'failed');
      assert.match(ais01(second).failures[0].message, /expected Data\.Status "AwaitingAuthorisation"/);
      assert.equal(second.summary.totals.scenarios.passed + second.summary.totals.scenarios.failed, 3, 'every scenario ran its steps');
      assert.deepEqual(await chromiumChildren(earlier), launched, 'the same browser served the second run');

      // Without a lent browser the run starts its own and stops it.
      const own = await m.runConformance({ variant: 'A', tags: '@AIS-01', reportDir: join(dir, 'own'), env });
      assert.equal(ais01(own).status, 'passed');
      assert.deepEqual(await chromiumChildren(earlier), launched, 'a run\'s own browser is gone when it ends; the lent one stays');
    } finally {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
      if (shared) process.env.OBTPP_BROWSER_WS_ENDPOINT = shared;
    }
    assert.deepEqual(await chromiumChildren(earlier), [], 'closing the lent browser stops Chromium');
  });

  test('startSandbox + loadProfile + createClient: a consent created, authorised by the PSU in Chromium, and the accounts read', async () => {
    const m = await lib();
    const sb = await m.startSandbox();
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-api-client-'));
    const file = join(dir, 'sandbox.json');
    await writeFile(file, JSON.stringify(sb.profile('all')), { mode: 0o600 });
    const profile = await m.loadProfile(file);
    assert.deepEqual(profile.variants, ['A', 'B']);
    const tpp = await m.createClient(profile, 'B');
    try {
      assert.equal(tpp.variant, 'B');
      await assert.rejects(m.createClient(file, 'C' as never), m.UsageError);
      const cc = await tpp.clientCredentials('ais');
      const body = m.obie.buildAccountAccessConsent({
        permissions: ['ReadAccountsBasic', 'ReadAccountsDetail'],
        expirationDateTime: m.obie.isoDateTime(new Date(Date.now() + 3600_000)),
        transactionFromDateTime: m.obie.isoDateTime(new Date(Date.now() - 90 * 86_400_000)),
        transactionToDateTime: m.obie.isoDateTime(new Date()),
      });
      const created = await tpp.api.createAccountAccessConsent(body, { token: cc.accessToken });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const consentId = m.obie.consentIdOf(created.body)!;
      assert.ok(consentId);
      const authorised = await tpp.authorise(consentId, 'ais');
      assert.equal(authorised.outcome, 'authorised');
      if (authorised.outcome !== 'authorised') return;
      const accounts = await tpp.api.listAccounts({ token: authorised.tokens.accessToken });
      assert.equal(accounts.status, 200);
      assert.ok(m.obie.accountsOf(accounts.body).length > 0);
      // An operation variant B does not list is refused by the client, in the CLI's words.
      await assert.rejects(tpp.api.getPayment('x', { token: cc.accessToken }), m.NotApplicableError);
    } finally {
      await tpp.close();
      await sb.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

test('from an npm pack tarball installed into an empty folder: the library examples (docs/library.md, and the README\'s) compile (skipLibCheck off) and run on the embedded sandbox', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-api-tarball-'));
  try {
    const npm = 'npm';
    // The build is the one under test (dist/): pack it as it is, without re-running `prepare`.
    const pack = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { timeoutMs: 120_000 });
    assert.equal(pack.code, 0, pack.stderr);
    const [{ filename, files }] = JSON.parse(pack.stdout);
    const paths: string[] = files.map((f: { path: string }) => f.path);
    for (const needed of ['dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/src/profile/profile-validator.cjs', 'features/obie/account-information.feature']) {
      assert.ok(paths.includes(needed), `the tarball holds ${needed}`);
    }
    assert.ok(paths.some((p) => p.startsWith('dist/step-definitions/') && p.endsWith('.js')), 'the tarball holds the compiled step definitions');
    assert.ok(!paths.some((p) => p.startsWith('src/') || p.startsWith('test/')), 'no sources or tests in the tarball');

    const app = join(dir, 'app');
    await (await import('node:fs/promises')).mkdir(app);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    const install = await run(npm, ['install', join(dir, filename), '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: app, env: { PUPPETEER_SKIP_DOWNLOAD: 'true' }, timeoutMs: 300_000,
    });
    assert.equal(install.code, 0, install.stderr);
    assert.ok(existsSync(join(app, 'node_modules', 'obtpp', 'dist', 'step-definitions')));

    // The library's examples (docs/library.md, moved there from the README), as a user of the
    // package would copy them: each compiles against the published types with skipLibCheck off (so
    // every .d.ts the package ships is checked too) and runs against the embedded sandbox. The
    // README's library example is one of them, word for word, so it is compiled and run too.
    const page = await readFile(join(root, 'docs', 'library.md'), 'utf8');
    const examples = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.ok(examples.length >= 3, `docs/library.md has its examples (${examples.length})`);
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const readmeExamples = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.ok(readmeExamples.length >= 1, 'the README shows a library example');
    for (const code of readmeExamples) assert.ok(examples.includes(code), `the README's example is one of docs/library.md's, word for word:\n${code}`);
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'es2024', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false, noEmit: true,
        types: ['node'], typeRoots: [join(root, 'node_modules', '@types')],
      },
      include: ['example-*.ts'],
    }));
    for (const [i, code] of examples.entries()) await writeFile(join(app, `example-${i + 1}.ts`), code);
    // The compiler and the examples run at once: each is a process of its own, and the examples
    // share nothing (each its own bank, and reports in a folder of its own).
    const [tsc, ...used] = await Promise.all([
      run(join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: app, timeoutMs: 120_000 }),
      ...examples.map((_, i) => run(process.execPath, [`example-${i + 1}.ts`], { cwd: app, timeoutMs: 300_000 })),
    ]);
    assert.equal(tsc!.code, 0, `the library's examples compile against the published types:\n${tsc!.stdout}${tsc!.stderr}`);
    for (const [i, u] of used.entries()) assert.equal(u.code, 0, `example ${i + 1}: ${u.stderr}`);
    const outputs = used.map((u) => u.stdout);
    // 1: the accounts the PSU's journey granted; 2: a fault makes AIS-01 newly fail in both variants;
    // 3: each fault fails the run through a lent browser.
    assert.match(outputs[0]!, /^200 \[ 'alice-[a-z]+'/);
    assert.equal(outputs[1]!.trim(), "0 1 [ [ 'AIS-01' ], [ 'AIS-01' ] ]");
    assert.equal(outputs[2]!.trim(), 'partial-grant fail\nunselected-accounts fail');
    const summary = JSON.parse(await readFile(join(app, 'reports', 'before', 'summary.json'), 'utf8'));
    assert.equal(summary.tool.name, 'obtpp');
    for (const v of summary.variants) assert.equal(v.rules.find((r: any) => r.id === 'AIS-01').status, 'passed', `variant ${v.variant}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
