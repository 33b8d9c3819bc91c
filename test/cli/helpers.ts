// Runs the CLI (dist/src/cli; build first: npm run build), in a warm worker (test/helpers/warm-cli.ts)
// or, with OBTPP_TEST_REAL_CLI=1, as the real binary, against a sandbox started in the test
// process, and records every run for the secrets test.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runWarm, warmWanted } from '../helpers/warm-cli.ts';
import type { Io } from '../../src/cli/io.ts';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = join(root, 'dist/src/cli/main.js');

export interface Run {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}

export interface Harness {
  sb: Sandbox;
  dir: string;
  profileFile: string;
  stateFile: string;
  runs: Run[];
  /** Every token that was ever in a state file of this harness (read after each run). */
  tokens: Set<string>;
  /** Runs `obtpp …` with the harness's profile and state (unless `env` overrides them). */
  obtpp(args: string[], env?: Record<string, string | undefined>): Promise<Run>;
  /** Same, with --json; asserts nothing, parses stdout when the command succeeded. */
  json<T = any>(args: string[], env?: Record<string, string | undefined>): Promise<Run & { doc: T }>;
  stop(): Promise<void>;
}

/** `standard`: the profile of the same sandbox at a published standard's paths (`uk-3.1`); `security`: the sandbox's security profile (`fapi2-dpop`). */
export async function harness(options: { standard?: 'uk-3.1' | 'uk-4.0'; security?: string } = {}): Promise<Harness> {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build first (npx tsc -p tsconfig.json)`);
  const sb = await startSandbox({ quiet: true, ...(options.security ? { security: options.security as never } : {}) });
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-cli-'));
  const profileFile = join(dir, 'sandbox.json');
  await writeFile(profileFile, JSON.stringify(sb.profile(options.standard ?? 'all'), null, 2), { mode: 0o600 });
  await chmod(profileFile, 0o600);
  // A state directory that does not exist yet: the CLI must create it 0700.
  const stateFile = join(dir, 'config', 'obtpp', 'state.json');
  const runs: Run[] = [];
  const tokens = new Set<string>();
  const collect = async () => {
    for (const file of [stateFile, `${stateFile}.flow`]) {
      if (!existsSync(file)) continue;
      const state = JSON.parse(await readFile(file, 'utf8'));
      for (const entry of Object.values(state.profiles) as any[]) {
        for (const t of [...Object.values(entry.tokens), ...Object.values(entry.clientCredentials)] as any[]) {
          tokens.add(t.accessToken);
          if (t.refreshToken) tokens.add(t.refreshToken);
        }
      }
    }
  };
  const obtpp = (args: string[], env: Record<string, string | undefined> = {}) =>
    new Promise<Run>((done) => {
      const base: Record<string, string | undefined> = {
        PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', CI: '1',
        OBTPP_PROFILE: profileFile, OBTPP_STATE: stateFile,
        ...(process.env.PUPPETEER_EXECUTABLE_PATH ? { PUPPETEER_EXECUTABLE_PATH: process.env.PUPPETEER_EXECUTABLE_PATH } : {}), ...(process.env.OBTPP_BROWSER_WS_ENDPOINT ? { OBTPP_BROWSER_WS_ENDPOINT: process.env.OBTPP_BROWSER_WS_ENDPOINT } : {}),
      };
      const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
      if (warmWanted()) {
        void runWarm(args, { env: merged, cwd: dir, timeoutMs: 120_000 }).then((r) => {
          const run = { args, code: r.code === -1 ? 99 : r.code, stdout: r.stdout, stderr: r.stderr };
          runs.push(run);
          collect().then(() => done(run), () => done(run));
        });
        return;
      }
      execFile(process.execPath, [bin, ...args], { cwd: dir, env: merged, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 99) : 0;
        const run = { args, code, stdout: String(stdout), stderr: String(stderr) };
        runs.push(run);
        collect().then(() => done(run), () => done(run));
      });
    });
  const json = async <T>(args: string[], env?: Record<string, string | undefined>) => {
    const run = await obtpp([...args, '--json'], env);
    let doc: T = undefined as T;
    if (run.code === 0) {
      try {
        doc = JSON.parse(run.stdout) as T;
      } catch (error) {
        throw new Error(`obtpp ${args.join(' ')} --json: stdout is not one JSON document: ${(error as Error).message}\n${run.stdout}\n${run.stderr}`);
      }
    }
    return { ...run, doc };
  };
  return {
    sb, dir, profileFile, stateFile, runs, tokens, obtpp, json,
    stop: async () => {
      await sb.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function readState(file: string): Promise<any> {
  return JSON.parse(await readFile(file, 'utf8'));
}

/** The one profile entry of a state file for the given variant. */
export function profileEntry(state: any, variant = 'A'): any {
  const entries = Object.values(state.profiles) as any[];
  const entry = entries.find((p) => p.variant === variant);
  if (!entry) throw new Error(`no state for variant ${variant}`);
  return entry;
}

/**
 * `obtpp …args` through runCli in this process (no worker, no spawn), with the given environment,
 * folder and (optionally) a lent PSU browser: its exit code, and what it wrote on stdout and stderr.
 */
export async function cliHere(args: string[], o: { env: Record<string, string | undefined>; cwd: string; browser?: Io['browser'] }): Promise<Run> {
  const [{ PassThrough }, { runCli }] = await Promise.all([import('node:stream'), import('../../src/cli/program.ts')]);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += String(c)));
  stderr.on('data', (c) => (err += String(c)));
  const io: Io = { stdout, stderr, env: o.env, cwd: o.cwd, color: false, interactive: false, exitCode: 0, ...(o.browser ? { browser: o.browser } : {}) };
  const code = await runCli(args, io);
  // The streams deliver what was written before the end on the next ticks.
  await new Promise((r) => setImmediate(r));
  return { args, code, stdout: out, stderr: err };
}
