import { mkdir, readdir, readFile, writeFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Variant } from '../profile/types.ts';
import { loadProfile } from '../profile/load.ts';
import { ObtppError, ExitCode, UsageError, BrowserUnavailableError } from '../errors.ts';
import { SummaryBuilder, type Summary } from './summary.ts';
import type { RunParameters } from './context.ts';

export interface ConformOptions {
  /** A profile file or built-in name; absent: the embedded sandbox, both variants. */
  profile?: string;
  variant?: Variant | 'all';
  /** A cucumber tag expression, and-ed with the variant's. */
  tags?: string;
  reportDir?: string;
  parallel?: number;
  /** PSU journeys at once in the one browser (default 2). */
  journeys?: number;
  /** Faults to switch on in the embedded sandbox. */
  sandboxFaults?: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** Progress lines (one per finished scenario) and notes. */
  onScenario?: SummaryBuilder['onScenario'];
  onNote?: (line: string) => void;
  version: string;
}

export interface ConformResult {
  summary: Summary;
  reportDir: string;
  exitCode: number;
}

/** The package root (features/, dist/step-definitions/), from src/ or dist/src/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'features'))) return dir;
    dir = dirname(dir);
  }
  throw new ObtppError('install_broken', 'cannot find the features/ folder of the obtpp package');
}

/**
 * Runs the conformance suite through cucumber's programmatic API and writes junit.xml,
 * report.html, messages.ndjson (cucumber's own formatters) and summary.json to the report dir.
 */
export async function conform(options: ConformOptions): Promise<ConformResult> {
  const startedAt = new Date();
  const root = packageRoot();
  const reportDir = resolve(options.cwd, options.reportDir ?? join('reports', startedAt.toISOString().replace(/[:.]/g, '-')));
  await mkdir(reportDir, { recursive: true });
  const work = join(tmpdir(), `obtpp-run-${randomUUID()}`);
  await mkdir(work, { recursive: true, mode: 0o700 });

  let sandbox: { stop(): Promise<void> } | undefined;
  try {
    let profilePath: string;
    let variants: Variant[];
    let profileName: string;
    if (!options.profile) {
      await requireBrowser(options.env);
      const { startSandbox } = await import('../sandbox/index.ts');
      const sb = await startSandbox({ faults: options.sandboxFaults ?? [], quiet: true });
      sandbox = sb;
      profilePath = join(work, 'sandbox-profile.json');
      await writeFile(profilePath, JSON.stringify(sb.profile('all')), { mode: 0o600 });
      // The embedded bank is checked like any other: a bank nobody can talk to is exit 3, in one line.
      await preflight(await loadProfile(profilePath, { env: options.env, cwd: options.cwd }), options.env);
      variants = options.variant && options.variant !== 'all' ? [options.variant] : ['A', 'B'];
      profileName = `embedded sandbox${options.sandboxFaults?.length ? ` (faults: ${options.sandboxFaults.join(', ')})` : ''}`;
      options.onNote?.(`sandbox bank started at ${sb.issuer} (variants A and B)${options.sandboxFaults?.length ? `, faults on: ${options.sandboxFaults.join(', ')}` : ''}`);
    } else {
      if (options.sandboxFaults?.length) throw new UsageError('--sandbox-fault works only with the embedded sandbox (run without --profile)');
      const profile = await loadProfile(options.profile, { env: options.env, cwd: options.cwd });
      profilePath = profile.source;
      profileName = profile.name;
      variants = options.variant && options.variant !== 'all' ? [options.variant] : profile.variants;
      const unsupported = variants.filter((v) => !profile.variants.includes(v));
      if (unsupported.length) throw new UsageError(`profile ${profile.name} does not implement variant ${unsupported.join(', ')} (its variants: ${profile.variants.join(', ')})`);
      await preflight(profile, options.env);
    }

    // The same Gherkin, instantiated once per variant: each copy carries @variant-X and its name says so.
    const featureDir = join(reportDir, 'features');
    await rm(featureDir, { recursive: true, force: true });
    const featureFiles: string[] = [];
    for (const v of variants) {
      await mkdir(join(featureDir, v), { recursive: true });
      for (const file of (await readdir(join(root, 'features'))).filter((f) => f.endsWith('.feature'))) {
        const text = await readFile(join(root, 'features', file), 'utf8');
        const instantiated = `@variant-${v}\n` + text.replace(/^(\s*Feature:\s*)(.*)$/m, `$1$2 (variant ${v})`);
        await writeFile(join(featureDir, v, file), instantiated);
        featureFiles.push(join(featureDir, v, file));
      }
    }

    const variantTags = variants.map((v) => `(@${v} and @variant-${v})`).join(' or ');
    const tags = options.tags ? `(${variantTags}) and (${options.tags})` : variantTags;
    // Set-ups the selected scenarios will ask for start together with the first scenario.
    const { planPickles } = await import('./plan.ts');
    const planned = await planPickles(featureFiles, tags);
    const prewarm = [...new Set(planned.flatMap((p) => p.steps.map((s) => `${p.tags.includes('@variant-B') ? 'B' : 'A'}|${s}`)))];
    const parameters: RunParameters = {
      profilePath,
      evidenceDir: join(reportDir, 'evidence'),
      variants,
      prewarm,
      journeys: options.journeys ?? 2,
    };
    await mkdir(parameters.evidenceDir, { recursive: true });

    const { loadConfiguration, runCucumber } = await import('@cucumber/cucumber/api');
    // Cucumber runs in the report dir, so the reports name the features as features/A/….
    const rel = (p: string) => relative(reportDir, p).split('\\').join('/');
    const { runConfiguration } = await loadConfiguration({
      file: false,
      provided: {
        paths: variants.map((v) => `${rel(join(featureDir, v))}/*.feature`),
        import: [join(root, 'dist', 'step-definitions', '**', '*.js').split('\\').join('/')],
        tags,
        // One worker means cucumber's own thread: one browser and one consent pool for the whole run.
        parallel: (options.parallel ?? 1) > 1 ? options.parallel : 0,
        worldParameters: parameters as never,
        format: [
          ['junit', rel(join(reportDir, 'junit.xml'))],
          ['html', rel(join(reportDir, 'report.html'))],
          ['message', rel(join(reportDir, 'messages.ndjson'))],
        ],
        formatOptions: { junit: { suiteName: 'obtpp conformance' } },
      },
    }, { cwd: reportDir, env: options.env as NodeJS.ProcessEnv });

    // Step definitions and the ordering plugin run compiled (dist/), so they also work from node_modules.
    runConfiguration.plugins = { specifiers: [pathToFileURL(join(root, 'dist', 'src', 'conformance', 'order-plugin.js')).href], options: {} };
    // Warming shares the context with the step definitions only when this is the compiled runner.
    if ((options.parallel ?? 1) <= 1 && import.meta.url.endsWith('.js')) {
      const { RunContext } = await import('./context.ts');
      RunContext.warm(parameters);
    }
    const builder = new SummaryBuilder();
    builder.onScenario = options.onScenario;
    const sink = new (await import('node:stream')).Writable({ write: (_c, _e, cb) => cb() });
    await runCucumber(runConfiguration, { cwd: reportDir, stdout: sink, stderr: sink, env: options.env as NodeJS.ProcessEnv }, (envelope) => builder.add(envelope));

    const summary = builder.build({ version: options.version, profile: profileName, startedAt, variants });
    await writeFile(join(reportDir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
    const exitCode = nothingRan(summary) ? ExitCode.cannotRun : summary.verdict === 'pass' ? ExitCode.ok : ExitCode.nonConformant;
    return { summary, reportDir, exitCode };
  } finally {
    await sandbox?.stop().catch(() => undefined);
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The PSU journeys need a browser: without one the run cannot happen (exit 3), said up front. */
async function requireBrowser(env: Record<string, string | undefined>): Promise<void> {
  const { PsuBrowser } = await import('../psu/index.ts');
  if (!PsuBrowser.executablePath(env)) throw new BrowserUnavailableError('no Chromium or Chrome found for the PSU journeys');
}

/** Before a run against a real bank: the browser exists and the authorisation server answers. */
async function preflight(profile: Awaited<ReturnType<typeof loadProfile>>, env: Record<string, string | undefined>): Promise<void> {
  if (profile.psu.driver.kind !== 'manual') await requireBrowser(env);
  const { httpFromProfile } = await import('../client/factory.ts');
  const { Auth } = await import('../auth/index.ts');
  const http = httpFromProfile(profile);
  try {
    await Auth.create(profile, http);
  } catch (error) {
    if (error instanceof ObtppError && error.exitCode !== ExitCode.cannotRun) throw error;
    throw new ObtppError('bank_unreachable', `the bank's authorisation server cannot be used: ${(error as Error).message}`, {
      cause: error, exitCode: ExitCode.cannotRun, hint: 'check auth.issuer / auth.discoveryUrl, the network and the TLS settings of the profile',
    });
  } finally {
    await http.close();
  }
}

/** True when not one scenario could be judged: every failure is a bank that gave no answer. */
function nothingRan(summary: Summary): boolean {
  if (summary.totals.scenarios.passed > 0) return false;
  const failures = summary.variants.flatMap((v) => v.rules.flatMap((r) => r.failures));
  return failures.length > 0 && failures.every((f) => /gave no usable answer|cannot be used|browser|Chromium/i.test(f.message));
}
