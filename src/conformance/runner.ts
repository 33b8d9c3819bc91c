import { mkdir, readFile, writeFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Profile, Standard, Variant } from '../profile/types.ts';

/** The standards a run can judge, by name: each scenario belongs to one (a feature tagged `@dialect-<name>`, else the base standard). */
export type Dialect = string;
import { loadProfile, baseUrlFor } from '../profile/load.ts';
import { catalogueOf } from '../dialects/catalogue.ts';
import { ObtppError, ExitCode, UsageError } from '../errors.ts';
import { baseStandard, dialectNames, findStandard, orList, standardOf, standards, versionNames, versionOf } from '../standards/registry.ts';
import { lockReportDir } from './report-lock.ts';
import { checkReportDir, clearOutputs, prepareReportDir } from './report-dir.ts';
import { preflight, requireBrowser } from './preflight.ts';
import { instantiateFeatures, select, servesStandard } from './selection.ts';
import { FOREIGN_RULE_REASON, judgedStandard, SummaryBuilder, type BankLocation, type InternalError, type Summary } from './summary.ts';
import { writeHtmlReport } from './html-report.ts';
import { annotateJunitFile } from './junit.ts';
import { summaryMarkdown } from './ci-report.ts';
import { Redactor } from '../client/redact.ts';
import type { RunParameters } from './context.ts';
import { gherkinDocumentOf, splitSources, type FeatureSource } from './plan.ts';
import { runOrder } from './order-plugin.ts';
import type { PsuBrowser } from '../psu/index.ts';
import type { FcsMap, FcsVersion } from './fcs-map.ts';

export { REPORT_OUTPUTS } from './report-dir.ts';

/** Options of {@link runConformance}. Every one has a default. */
export interface RunConformanceOptions {
  /** A profile file or built-in name. Default: the embedded sandbox bank, both variants. */
  profile?: string;
  /** Which variant to certify: 'A', 'B' or 'all' (the default: every variant of the profile). */
  variant?: Variant | 'all';
  /** A cucumber tag expression (e.g. `@ais and not @AIS-08`), and-ed with the variant's. Default: every scenario. */
  tags?: string;
  /** Where the reports go, relative to `cwd`. Default: `reports/<timestamp>/`. */
  reportDir?: string;
  /** Cucumber worker threads, each with its own browser and consent pool. Default 1. */
  parallel?: number;
  /** PSU journeys at once in the one browser. Default 2. */
  journeys?: number;
  /**
   * The dialect of the embedded sandbox bank: a registered standard's name (default the base
   * standard's, obie; berlin-group); only without `profile` (a profile names its own dialect).
   */
  dialect?: Dialect;
  /**
   * The embedded sandbox serves a published standard at its official paths (uk-3.1) instead of
   * the spec's layout; only without `profile` (a profile names its own standard).
   */
  standard?: Standard;
  /** Faults to switch on in the embedded sandbox (see `listFaults()`); only without `profile`. */
  sandboxFaults?: string[];
  /**
   * The security profile the embedded sandbox's authorisation server runs (`SANDBOX_SECURITY`:
   * fapi1-advanced, fapi1-advanced-par-jarm, fapi2-dpop, fapi2-mtls, fapi2-message-signing); its
   * profile says it. Only without `profile` (a profile says its bank's `security`).
   */
  sandboxSecurity?: string;
  /**
   * The SCA approaches the embedded berlin-group sandbox offers (`redirect`, `oauth`, `decoupled`,
   * `embedded`; default redirect and oauth); without oauth its profile has no auth block. Only
   * with the dialect whose sandbox takes them (berlin-group) and without `profile`.
   */
  sandboxSca?: string[];
  /**
   * The embedded berlin-group sandbox requires the NextGenPSD2 HTTP signature on requests and signs
   * its answers (BG-50, BG-51 judged). Only with the dialect whose sandbox takes it (berlin-group) and without `profile`.
   */
  sandboxSignatures?: boolean;
  /**
   * A PSU browser from `openBrowser()` to use instead of starting one, so that several runs one
   * after another in one program start Chromium once. Every journey still gets a context wiped of
   * the previous journey's cookies and storage, as within a run. The run leaves the browser open
   * (its owner closes it), also when interrupted. With `parallel` above 1 each worker thread
   * starts its own browser (a browser cannot cross threads).
   */
  browser?: PsuBrowser;
  /** With `strict`, an `incomplete` verdict (a rule that could not be judged) exits 1. Default false. */
  strict?: boolean;
  /** Working directory for relative paths. Default: `process.cwd()`. */
  cwd?: string;
  /** Environment for `${env:VAR}` in profiles and for the browser. Default: `process.env`. */
  env?: Record<string, string | undefined>;
  /**
   * Stops the run when aborted: the browser and the sandbox stop, summary.json and summary.md are
   * written with verdict `interrupted` and the scenarios that had finished, junit.xml with every
   * selected scenario (those that had not finished skipped as not run), and the result's exit code is 143
   * when the abort reason is `'SIGTERM'`, else 130.
   */
  signal?: AbortSignal;
  /** Progress: a note (the sandbox started…), each finished scenario, and the end. A throwing listener is ignored. */
  onEvent?: (event: ConformanceEvent) => void;
  /** The tool version written to summary.json. Default: the package's. */
  version?: string;
  /** Changes the summary before summary.json and the reports are written, and before the exit code is taken (e.g. waivers). */
  transformSummary?: (summary: Summary) => Summary;
  /** Runs once the reports are written (e.g. to sign them); gets the bank's loaded profile, the embedded sandbox's too. */
  afterReports?: (run: { summary: Summary; reportDir: string; profile?: Profile }) => Promise<void>;
  /**
   * The reports written beside summary.json and summary.md (always written): `junit` (junit.xml),
   * `messages` (cucumber's messages.ndjson) and `html` (report.html). Default: all three. A caller
   * that reads only the summary (a script, a sweep of many runs) saves each one's work.
   */
  reports?: ReportKind[];
}

/** The reports a run can write beside its summary. */
export type ReportKind = 'junit' | 'messages' | 'html';
const REPORT_KINDS: readonly ReportKind[] = ['junit', 'messages', 'html'];

/** What {@link runConformance} reports while it runs. */
export type ConformanceEvent =
  | { type: 'note'; message: string }
  | {
    type: 'scenario';
    variant: Variant;
    /** The rule id, e.g. `AIS-01`. */
    rule: string;
    name: string;
    status: string;
    /** The first failure's message, for a failed scenario. */
    message?: string;
  }
  | {
    /**
     * What the run waits for (a PSU journey, the bank's answer, a consent's expiry), as it starts
     * and ends; `id` pairs the two. Only from a run in one thread (`parallel` 1).
     */
    type: 'wait';
    id: number;
    state: 'start' | 'end';
    kind: 'journey' | 'answer' | 'expiry';
    what: string;
  }
  | { type: 'done'; result: ConformanceResult };

/** The outcome of one conformance run. */
export interface ConformanceResult {
  /** What summary.json holds. */
  summary: Summary;
  /** The absolute report directory. */
  reportDir: string;
  /** 0 conformant, 1 non-conformant, 3 nothing could be judged or obtpp itself failed, 130/143 interrupted. */
  exitCode: number;
  /** Set when the run was stopped by its signal: the abort reason (e.g. `'SIGTERM'`). */
  interrupted?: string;
  /**
   * Set when obtpp's own code failed in a step (a TypeError…, a bug of obtpp): the scenario is not
   * judged, JUnit has an `<error>` for it, and the exit code is 3 whatever the bank did.
   */
  internalErrors?: InternalError[];
}

/** @deprecated the old name of {@link RunConformanceOptions}. */
export type ConformOptions = RunConformanceOptions;

/** Cucumber's own formatters' files: half-written when a run is interrupted, so removed then. */
const CUCUMBER_OUTPUTS = ['junit.xml', 'report.html', 'messages.ndjson'];

/** The package root (features/, dist/step-definitions/), from src/ or dist/src/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'features'))) return dir;
    dir = dirname(dir);
  }
  throw new ObtppError('install_broken', 'cannot find the features/ folder of the obtpp package');
}

/** The run was stopped by its AbortSignal; caught inside runConformance. */
class Interrupted extends Error {}

/** True while a run is going on in this thread (the step definitions' run context is one per thread). */
let active = false;

/**
 * Runs the conformance suite through cucumber's programmatic API and writes junit.xml,
 * messages.ndjson (cucumber's own formatters), summary.json, summary.md and report.html to the
 * report dir.
 *
 * Usage errors (a bad profile, a tag expression that is not one, a selection of no scenario, a
 * report dir that cannot be used) throw an ObtppError with exit code 2 before anything starts;
 * a bank or browser that cannot be used throws one with exit code 3. A failed rule does not
 * throw: it is in the summary, and the result's exit code is 1.
 */
export async function runConformance(options: RunConformanceOptions = {}): Promise<ConformanceResult> {
  if (active) {
    throw new UsageError('runConformance is already running in this thread: runs in one thread go one after another', {
      hint: 'await the first run; for runs side by side use another process or worker thread',
    });
  }
  active = true;
  try {
    return await runOnce(options);
  } finally {
    active = false;
  }
}

async function runOnce(options: RunConformanceOptions): Promise<ConformanceResult> {
  const plan = await planRun(options);
  return new ConformanceRun(plan).execute();
}

/** What a run will do, decided before anything starts: every check that needs no bank and no browser. */
interface RunPlan {
  options: RunConformanceOptions;
  startedAt: Date;
  cwd: string;
  env: Record<string, string | undefined>;
  root: string;
  version: string;
  faults: string[];
  /** The bank's profile; absent: the embedded sandbox. */
  profile?: Profile;
  variants: Variant[];
  dialect: Dialect;
  /** The published standard judged (the profile's, or --standard for the sandbox); absent: the spec's layout. */
  standard?: Standard;
  sources: Array<FeatureSource & { variant: Variant; file: string }>;
  /** The run's variants' sources that hold a selected scenario (cucumber's), and the rest (their documents go to the reports only). */
  selected: Array<FeatureSource & { variant: Variant; file: string }>;
  others: Array<FeatureSource & { variant: Variant; file: string }>;
  tags: string;
  planned: Awaited<ReturnType<typeof select>>['planned'];
  reportDir: string;
  profileName: string;
}

/** Step 1: the options, the profile, the variants and the selection checked; usage and profile errors thrown here. */
async function planRun(options: RunConformanceOptions): Promise<RunPlan> {
  const startedAt = new Date();
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  checkCounts(options);
  const faults = options.sandboxFaults ?? [];
  if (options.dialect !== undefined && !findStandard(options.dialect)) throw new UsageError(`--dialect ${options.dialect}: expected ${orList(dialectNames())}`);
  const version = options.version ?? (await packageVersion());
  const root = packageRoot();
  let profile: Profile | undefined;
  let variants: Variant[];
  let dialect: Dialect = options.dialect ?? baseStandard().name;
  await checkSandboxOptions(options, dialect);
  if (!options.profile) {
    if (faults.length) await parseSandboxFaults(dialect, faults);
    variants = options.variant && options.variant !== 'all' ? [options.variant] : ['A', 'B'];
  } else {
    if (faults.length) throw new UsageError('--sandbox-fault works only with the embedded sandbox (run without --profile)');
    const loaded = await loadProfile(options.profile, { env, cwd });
    profile = loaded;
    if (options.dialect && options.dialect !== loaded.dialect) throw new UsageError(`--dialect ${options.dialect}, but profile ${loaded.name} speaks ${loaded.dialect}: leave --dialect out (the profile's dialect decides)`);
    dialect = loaded.dialect;
    variants = options.variant && options.variant !== 'all' ? [options.variant] : loaded.variants;
    const unsupported = variants.filter((v) => !loaded.variants.includes(v));
    if (unsupported.length) throw new UsageError(`profile ${loaded.name} does not implement variant ${unsupported.join(', ')} (its variants: ${loaded.variants.join(', ')})`);
  }
  const standard = await checkStandard(options, dialect, profile, faults);
  if (standard && !profile) {
    if (options.variant === 'B') throw new UsageError(`--standard ${standard} is judged by variant A's rules; leave --variant out (or pass --variant A)`);
    variants = ['A'];
  }
  const all = await instantiateFeatures(root, ['A', 'B'], dialect);
  const { tags, planned } = await select(all, variants, options.tags, profile ? `profile ${profile.name}` : 'the run', dialect, standard);
  // A feature of published standards the run does not judge (uk-*.feature in a spec-layout run)
  // has no rule in its report and no scenario it selects: cucumber and the reports do without it.
  const sources = all.filter((s) => servesStandard(s.data, standard));
  const { selected, others } = splitSources(sources.filter((s) => variants.includes(s.variant)), tags);
  const reportDir = resolve(cwd, options.reportDir ?? join('reports', startedAt.toISOString().replace(/[:.]/g, '-')));
  await checkReportDir(reportDir, options.reportDir);
  const named = dialect === baseStandard().name ? '' : ` (${dialect})`;
  const profileName = profile?.name ?? `embedded sandbox${named}${options.sandboxSecurity ? ` (security ${options.sandboxSecurity})` : ''}${faults.length ? ` (faults: ${faults.join(', ')})` : ''}`;
  return { options, startedAt, cwd, env, root, version, faults, profile, variants, dialect, standard, sources, selected, others, tags, planned, reportDir, profileName };
}

/** The run's counts: threads, journeys, the variant. */
function checkCounts(options: RunConformanceOptions): void {
  if (options.parallel !== undefined && (!Number.isInteger(options.parallel) || options.parallel < 1 || options.parallel > 8)) {
    throw new UsageError(`parallel takes a whole number from 1 to 8, not ${options.parallel}`);
  }
  if (options.journeys !== undefined && (!Number.isInteger(options.journeys) || options.journeys < 1 || options.journeys > 16)) {
    throw new UsageError(`journeys takes a whole number from 1 to 16, not ${options.journeys}`);
  }
  if (options.variant !== undefined && !['A', 'B', 'all'].includes(options.variant)) throw new UsageError(`--variant ${options.variant}: expected A, B or all`);
}

/** The options only one standard's sandbox takes (`--signatures`, `--sca`), and `--security`: only for the embedded sandbox. */
async function checkSandboxOptions(options: RunConformanceOptions, dialect: string): Promise<void> {
  for (const [key, given] of [['signatures', options.sandboxSignatures], ['sca', options.sandboxSca !== undefined]] as const) {
    if (!given) continue;
    const owner = standards().find((s) => s.sandbox?.options?.[key]);
    const option = owner?.sandbox?.options?.[key];
    if (owner && option && (options.profile || dialect !== owner.name)) {
      throw new UsageError(`${option.flag} works only with the embedded ${owner.name} sandbox (--dialect ${owner.name}, without --profile; a profile says ${option.profileSays})`);
    }
  }
  if (options.sandboxSecurity !== undefined) {
    if (options.profile) throw new UsageError('--security works only with the embedded sandbox (run without --profile; a profile says its bank\'s security)');
    (await import('../sandbox/security.ts')).sandboxSecurity(options.sandboxSecurity);
  }
}

/** The published version judged: the profile's, or `--standard` for the sandbox (one of the dialect's, and its faults' own). */
async function checkStandard(options: RunConformanceOptions, dialect: string, profile: Profile | undefined, faults: string[]): Promise<Standard | undefined> {
  if (options.standard !== undefined && !versionOf(options.standard)) throw new UsageError(`--standard ${options.standard}: expected ${versionNames().join(' or ')}`);
  const owner = versionOf(options.standard)?.standard;
  if (owner && dialect !== owner.name) throw new UsageError(`--standard ${options.standard} is ${owner.words.versions ?? `a ${owner.name} standard`}; the ${dialect} dialect has none (leave --standard out)`);
  if (options.standard !== undefined && profile && profile.standard !== options.standard) {
    throw new UsageError(`--standard ${options.standard}, but profile ${profile.name} ${profile.standard ? `says standard ${profile.standard}` : "follows the spec's layout"}: leave --standard out (the profile decides)`);
  }
  const standard = profile ? profile.standard : options.standard;
  if (!profile && faults.length) {
    const misfit = await standardOf(dialect).sandbox?.misfit?.(faults, { version: standard, security: options.sandboxSecurity });
    if (misfit) throw new UsageError(misfit);
  }
  return standard;
}

/** The fault names of the embedded sandbox of a dialect, checked (an unknown one is a usage error naming the valid ones). */
async function parseSandboxFaults(dialect: string, faults: string[]): Promise<void> {
  const sandbox = standardOf(dialect).sandbox;
  if (!sandbox) throw new UsageError(`the ${dialect} standard has no embedded sandbox bank: pass --profile`);
  await sandbox.parseFaults(faults);
}

/**
 * One run, from its plan: the bank started and pre-flighted, the report dir prepared, cucumber
 * driven, the summary built and the reports written — or, when interrupted, what had finished.
 * Whatever happens, what it started is stopped and a report dir without a verdict is left clean.
 */
class ConformanceRun {
  private readonly plan: RunPlan;
  private readonly options: RunConformanceOptions;
  private readonly signal?: AbortSignal;
  /**
   * The last line of redaction, where the reports are written: the profile's secrets (client secret,
   * keys, PSU password, software statement, every `${env:…}` value), private-key PEM and JWTs, in
   * every form. The step definitions scrub with the run's own redactor first (it also knows the
   * tokens issued); this one holds whatever reaches a report by another way.
   */
  private readonly redactor = new Redactor();
  private readonly builder = new SummaryBuilder();
  private readonly work = join(tmpdir(), `obtpp-run-${randomUUID()}`);
  /** The bank's loaded profile (the embedded sandbox's too, once it started). */
  private bankProfile?: Profile;
  private sandbox?: { stop(): Promise<void> };
  /** The security profile the bank's authorisation server was found to run (preflight), for the report. */
  private security?: Record<string, unknown>;
  /** Takes a lent browser back from the registry the step definitions find it in. */
  private unlend?: () => void;
  private unplan?: () => void;
  /** The step definitions' run context (browser, lanes), when it lives in this thread. */
  private context?: { closeCurrent(): Promise<void> };
  /** The first folder this run created (removed again when the run ends without a summary). */
  private created?: string;
  private dirReady = false;
  private summaryWritten = false;

  constructor(plan: RunPlan) {
    this.plan = plan;
    this.options = plan.options;
    this.signal = plan.options.signal;
    this.bankProfile = plan.profile;
    for (const secret of plan.profile?.secrets ?? []) this.redactor.add(secret);
  }

  private emit(event: ConformanceEvent): void {
    try {
      if (event.type === 'scenario' && event.message) event = { ...event, message: this.redactor.text(event.message) };
      this.options.onEvent?.(event);
    } catch {
      // A broken listener must not break the run.
    }
  }

  /** Whether the run writes this report (RunConformanceOptions.reports). */
  private wants(kind: ReportKind): boolean {
    return (this.options.reports ?? REPORT_KINDS).includes(kind);
  }

  private checkAbort(): void {
    if (this.signal?.aborted) throw new Interrupted();
  }

  async execute(): Promise<ConformanceResult> {
    // Before anything starts: a second run on the same folder is refused, not interleaved.
    const unlockReportDir = await lockReportDir(this.plan.reportDir, this.options.reportDir);
    try {
      this.checkAbort();
      await mkdir(this.work, { recursive: true, mode: 0o700 });
      const profilePath = await this.startBank();
      this.checkAbort();
      // The report dir: created, or cleared of an earlier run's outputs.
      this.created = await prepareReportDir(this.plan.reportDir, this.options.reportDir);
      this.dirReady = true;
      await this.writeFeatures();
      const parameters = await this.parameters(profilePath);
      await this.drive(parameters);
      return await this.judged(parameters);
    } catch (error) {
      if (!(error instanceof Interrupted) && !this.signal?.aborted) throw error;
      return await this.interrupted();
    } finally {
      this.unlend?.();
      this.unplan?.();
      await this.sandbox?.stop().catch(() => undefined);
      await rm(this.work, { recursive: true, force: true }).catch(() => undefined);
      if (this.dirReady && !this.summaryWritten) {
        // A run that ended without a verdict leaves no half-filled report dir behind.
        if (this.created) await rm(this.created, { recursive: true, force: true }).catch(() => undefined);
        else await clearOutputs(this.plan.reportDir).catch(() => undefined);
      }
      await unlockReportDir();
    }
  }

  /** Step 2: the bank, the embedded sandbox or the profile's, pre-flighted alike. Returns the profile's path for the step definitions. */
  private async startBank(): Promise<string> {
    const { env, cwd, faults, dialect, profile } = this.plan;
    if (profile) {
      this.noteSecurity(await abortable(preflight(profile, env), this.signal));
      return profile.source;
    }
    await requireBrowser(env);
    this.checkAbort();
    const { startSandbox } = await import('../sandbox/index.ts');
    const sb = await startSandbox({ faults, quiet: true, dialect, ...(this.plan.options.sandboxSecurity ? { security: this.plan.options.sandboxSecurity as never } : {}), ...(this.plan.options.sandboxSca ? { sca: this.plan.options.sandboxSca as never } : {}), ...(this.plan.options.sandboxSignatures ? { signatures: true } : {}) });
    this.sandbox = sb;
    this.checkAbort();
    const profilePath = join(this.work, 'sandbox-profile.json');
    await writeFile(profilePath, JSON.stringify(sb.profile(this.plan.standard ?? 'all')), { mode: 0o600 });
    // The embedded bank is checked like any other: a bank nobody can talk to is exit 3, in one line.
    this.bankProfile = await loadProfile(profilePath, { env, cwd });
    for (const secret of this.bankProfile.secrets) this.redactor.add(secret);
    const security = await abortable(preflight(this.bankProfile, env), this.signal);
    this.emit({ type: 'note', message: `sandbox bank started at ${sb.issuer} (variants A and B)${sb.security ? `, security ${sb.security.name}` : ''}${faults.length ? `, faults on: ${faults.join(', ')}` : ''}` });
    this.noteSecurity(security);
    return profilePath;
  }

  /** Names the security profile judged, on the console and (summary.json) in the report. */
  private noteSecurity(security: { summary: Record<string, unknown>; line: string } | undefined): void {
    if (!security) return;
    this.security = security.summary;
    this.emit({ type: 'note', message: `authorisation server: ${security.line}` });
  }

  /** Step 3: the same Gherkin, instantiated once per variant: each copy carries @variant-X and its name says so. */
  private async writeFeatures(): Promise<void> {
    const featureDir = join(this.plan.reportDir, 'features');
    for (const v of this.plan.variants) {
      await mkdir(join(featureDir, v), { recursive: true });
      // Every feature, also those the run selects nothing from: the report lists every rule of a variant (not applicable, not in scope) from them.
      for (const s of this.plan.sources.filter((x) => x.variant === v)) await writeFile(join(featureDir, v, s.file), s.data);
    }
  }

  /** What the step definitions get: the profile, the evidence folder, the set-ups to start early, a lent browser. */
  private async parameters(profilePath: string): Promise<RunParameters> {
    const { reportDir, variants, planned } = this.plan;
    // Set-ups the selected scenarios will ask for start together with the first scenario.
    const prewarm = [...new Set(planned.flatMap((p) => p.steps.map((s) => `${p.tags.includes('@variant-B') ? 'B' : 'A'}|${s}`)))];
    // The scenarios in the order they will run (the order plugin's), for set-ups prepared one per scenario.
    const scenarios = runOrder(planned, (p) => p.tags, (p) => p.steps[0]).map((p) => ({ tags: p.tags, steps: p.steps }));
    const parameters: RunParameters = { profilePath, evidenceDir: join(reportDir, 'evidence'), variants, journeys: this.options.journeys ?? 2 };
    // In this process the plan is kept aside, its key in the parameters (each world gets a clone of them); worker threads get it inline.
    if ((this.options.parallel ?? 1) > 1) parameters.plan = { prewarm, scenarios };
    else {
      parameters.planKey = `plan-${randomUUID()}`;
      this.unplan = (await import('./context.ts')).registerPlan(parameters.planKey, { prewarm, scenarios });
    }
    if (this.options.browser) {
      parameters.browserKey = `browser-${randomUUID()}`;
      this.unlend = (await import('./context.ts')).lendBrowser(parameters.browserKey, this.options.browser);
    }
    await mkdir(parameters.evidenceDir, { recursive: true });
    return parameters;
  }

  /** Step 4: cucumber, configured and run, until it ends or the signal stops it. */
  private async drive(parameters: RunParameters): Promise<void> {
    const { reportDir, root, env } = this.plan;
    // Before cucumber loads: step matches take their argument positions from the engine (match-indices.ts).
    (await import('./match-indices.ts')).useNativeMatchIndices();
    const { runCucumber } = await import('@cucumber/cucumber/api');
    const runConfiguration = await this.cucumberConfiguration(parameters);

    // Step definitions and the ordering plugin run compiled (dist/), so they also work from node_modules.
    runConfiguration.plugins = { specifiers: [pathToFileURL(join(root, 'dist', 'src', 'conformance', 'order-plugin.js')).href], options: {} };
    // The step definitions, loaded once per process (ES modules run once): support-library.ts.
    const loading = (await import('./support-library.ts')).supportLibrary(runConfiguration.support, root);
    loading.catch(() => undefined);
    // Warming and stopping share the context with the step definitions only when this is the compiled runner.
    const sameThread = (this.options.parallel ?? 1) <= 1 && import.meta.url.endsWith('.js');
    const RunContext = sameThread ? (await import('./context.ts')).RunContext : undefined;
    this.context = RunContext;
    RunContext?.warm(parameters);
    this.builder.onScenario = (info) => this.emit({ type: 'scenario', ...info });
    const sink = new (await import('node:stream')).Writable({ write: (_c, _e, cb) => cb() });
    this.checkAbort();

    const recorder = this.recorder();
    // The features cucumber is not given (no scenario selected there) still list their rules.
    for (const source of this.plan.others) this.builder.add({ gherkinDocument: gherkinDocumentOf(source) });
    const { waitListeners } = await import('./context.ts');
    waitListeners().set(parameters.evidenceDir, (note) => this.emit({ type: 'wait', ...note, what: this.redactor.text(note.what) }));
    // In this thread the library is all cucumber needs of the support code: without its coordinates
    // cucumber does not walk dist/step-definitions again at every run (cucumber's workers need them).
    const library = await loading;
    const support = (this.options.parallel ?? 1) <= 1 ? { ...library, originalCoordinates: { requireModules: [], requirePaths: [], importPaths: [], loaders: [] } } : library;
    const running = runCucumber({ ...runConfiguration, support }, { cwd: reportDir, stdout: sink, stderr: sink, env: env as NodeJS.ProcessEnv }, recorder.onMessage);
    const stop = async () => {
      recorder.stop();
      // Every scenario not yet started is skipped at once (the in-process runtime reads this per scenario)…
      (runConfiguration.runtime as { dryRun: boolean }).dryRun = true;
      // …and the one running loses its browser and its bank, so it ends quickly.
      await this.context?.closeCurrent().catch(() => undefined);
      await this.sandbox?.stop().catch(() => undefined);
      this.sandbox = undefined;
    };
    try {
      await this.awaitOrAbort(running, stop);
    } finally {
      waitListeners().delete(parameters.evidenceDir);
    }
  }

  /** Cucumber's configuration of this run: its features, step definitions, tags, workers, world parameters and formatters. */
  private async cucumberConfiguration(parameters: RunParameters) {
    const { reportDir, root, variants, tags, env } = this.plan;
    const { loadConfiguration } = await import('@cucumber/cucumber/api');
    // Cucumber runs in the report dir, so the reports name the features as features/A/….
    const rel = (p: string) => relative(reportDir, p).split('\\').join('/');
    const featureDir = join(reportDir, 'features');
    const { runConfiguration } = await loadConfiguration({
      file: false,
      provided: {
        // Only the files the tags select a scenario of: cucumber parses and compiles every file it is given.
        paths: this.plan.selected.map((s) => rel(join(featureDir, s.variant, s.file))),
        // The package's compiled step definitions, and those a registered standard brings of its own.
        import: [join(root, 'dist', 'step-definitions', '**', '*.js').split('\\').join('/'), ...standards().flatMap((st) => st.stepDefinitions ?? [])],
        tags,
        // One worker means cucumber's own thread: one browser and one consent pool for the whole run.
        parallel: (this.options.parallel ?? 1) > 1 ? this.options.parallel : 0,
        worldParameters: parameters as never,
        format: [
          // cucumber's stdout goes nowhere: a formatter that writes nothing, not its default `progress` (silent-formatter.ts).
          [pathToFileURL(join(root, 'dist', 'src', 'conformance', 'silent-formatter.js')).href] as [string, string?],
          // cucumber's JUnit formatter with every `]]>` of a CDATA section handled (junit-formatter.ts).
          ...(this.wants('junit') ? [[pathToFileURL(join(root, 'dist', 'src', 'conformance', 'junit-formatter.js')).href, rel(join(reportDir, 'junit.xml'))] as [string, string]] : []),
          ...(this.wants('messages') ? [['message', rel(join(reportDir, 'messages.ndjson'))] as [string, string]] : []),
        ],
        formatOptions: { junit: { suiteName: 'obtpp conformance' } },
      },
    }, { cwd: reportDir, env: env as NodeJS.ProcessEnv });
    return runConfiguration;
  }

  /**
   * A scenario counts once it has finished: its messages wait until then, and after an
   * interruption the scenario that was cut short (browser and bank stopped under it) is left out.
   */
  private recorder(): { onMessage: (envelope: any) => void; stop(): void } {
    const pending = new Map<string, unknown[]>();
    let stopped = false;
    const onMessage = (envelope: any) => {
      const id: string | undefined = envelope.testCaseStarted?.id ?? envelope.testStepStarted?.testCaseStartedId
        ?? envelope.testStepFinished?.testCaseStartedId ?? envelope.attachment?.testCaseStartedId ?? envelope.testCaseFinished?.testCaseStartedId;
      if (!id) return void this.builder.add(envelope);
      if (stopped) return;
      let list = pending.get(id);
      if (!list) pending.set(id, (list = []));
      list.push(envelope);
      if (envelope.testCaseFinished) {
        pending.delete(id);
        for (const e of list) this.builder.add(e);
      }
    };
    return { onMessage, stop: () => void (stopped = true) };
  }

  /** Waits for cucumber; on the signal, stops the run and gives cucumber a moment to wind down (a step sleeping on a timer is not waited for). */
  private async awaitOrAbort(running: Promise<unknown>, stop: () => Promise<void>): Promise<void> {
    const signal = this.signal;
    const onAbort = () => void stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal) {
        const aborted = new Promise<'aborted'>((r) => (signal.aborted ? r('aborted') : signal.addEventListener('abort', () => r('aborted'), { once: true })));
        const outcome = await Promise.race([running.then(() => 'done' as const), aborted]);
        if (outcome === 'aborted') {
          await Promise.race([running.catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())]);
          throw new Interrupted();
        }
      } else await running;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    if (signal?.aborted) throw new Interrupted();
  }

  /** Step 5: the verdict — the summary built, JUnit annotated, every report redacted and written. */
  private async judged(parameters: RunParameters): Promise<ConformanceResult> {
    const { reportDir, version, profileName, startedAt, variants, dialect, standard } = this.plan;
    // The profile kept the authorisation from starting: no verdict of the bank stands (exit 3, one line).
    const { setupProblems } = await import('./context.ts');
    const setupProblem = setupProblems().get(parameters.evidenceDir);
    if (setupProblem) {
      setupProblems().delete(parameters.evidenceDir);
      throw setupProblem;
    }
    const built = this.builder.build({ version, profile: profileName, startedAt, variants, dialect, standard: this.plan.standard, fcs: await this.fcsInput() });
    const transformed = this.options.transformSummary ? this.options.transformSummary(built) : built;
    const foreign = transformed.variants.flatMap((v) => v.rules.filter((r) => r.status === 'not-applicable' && r.scenarios === 0 && FOREIGN_RULE_REASON.test(r.reason ?? ''))
      .map((r) => ({ variant: v.variant, id: r.id, title: r.title, reason: r.reason! })));
    if (this.wants('junit')) await annotateJunitFile(join(reportDir, 'junit.xml'), this.builder.skippedCauses(), foreign, { texts: this.builder.failureTexts(), localPaths: [this.plan.root], errors: this.builder.internalErrorTexts() }, transformed.fcs);
    // The last line of redaction: cucumber's own reports, rewritten through the run's redactor.
    for (const f of [...(this.wants('junit') ? ['junit.xml'] : []), ...(this.wants('messages') ? ['messages.ndjson'] : [])]) await redactFile(join(reportDir, f), this.redactor);
    // The summary as written (redacted) is the one returned, printed (--json) and judged.
    const summary = await this.finish(transformed);
    // obtpp itself failed somewhere: whatever the bank did, the run is not a verdict (exit 3).
    const internalErrors = this.builder.internalErrors().map((e) => ({ ...e, message: this.redactor.text(e.message) }));
    const exitCode = nothingRan(summary) || internalErrors.length ? ExitCode.cannotRun : exitCodeOf(summary, this.options.strict);
    const result: ConformanceResult = { summary, reportDir, exitCode, ...(internalErrors.length ? { internalErrors } : {}) };
    this.emit({ type: 'done', result });
    return result;
  }

  /** A run of a UK standard lists every FCS test of its version: the suite's files where they lie (fcs-map.ts), else the scenarios' tags. */
  private async fcsInput(): Promise<{ version: FcsVersion; map?: FcsMap } | undefined> {
    const { fcsVersionOf, fcsMap, fcsDir } = await import('./fcs-map.ts');
    const version = fcsVersionOf(this.plan.standard);
    if (!version) return undefined;
    // What each @fcs: scenario judges is the map test's to prove; a run needs what a partial one misses.
    const map = await fcsMap(this.plan.root, fcsDir(this.plan.root, this.plan.env, this.plan.cwd), version, { judges: 'partial' }).catch(() => undefined);
    return { version, ...(map ? { map } : {}) };
  }

  /** Interrupted: what had finished, verdict `interrupted`, and no half-written cucumber report. */
  private async interrupted(): Promise<ConformanceResult> {
    const { reportDir, version, profileName, startedAt, variants, dialect, standard } = this.plan;
    const reason = this.signal?.reason === 'SIGTERM' || this.signal?.reason === 'SIGINT' ? (this.signal.reason as string) : 'abort';
    // A step cut short may have asked for a new browser: the context is closed once more.
    await this.context?.closeCurrent().catch(() => undefined);
    await this.sandbox?.stop().catch(() => undefined);
    this.sandbox = undefined;
    if (!this.dirReady) {
      this.created = await prepareReportDir(reportDir, this.options.reportDir);
      this.dirReady = true;
    }
    for (const f of CUCUMBER_OUTPUTS) await rm(join(reportDir, f), { force: true }).catch(() => undefined);
    // cucumber's half-written JUnit is replaced by one of our own: every selected scenario, those
    // that had not finished skipped as not run, so that a CI server shows what was and was not judged.
    const notRun = this.builder.notRun(this.plan.planned.length);
    const junit = this.builder.partialJunit(`not run: the run was interrupted by ${reason}`, this.plan.planned);
    if (this.wants('junit')) await writeFile(join(reportDir, 'junit.xml'), this.redactor.text(junit)).catch(() => undefined);
    const built = this.builder.build({ version, profile: profileName, startedAt, variants, dialect, standard: this.plan.standard, fcs: await this.fcsInput() });
    (built as { verdict: string }).verdict = 'interrupted';
    const summary = await this.finish(this.options.transformSummary ? this.options.transformSummary(built) : built, { notRun });
    const result: ConformanceResult = { summary, reportDir, exitCode: reason === 'SIGTERM' ? 143 : 130, interrupted: reason };
    this.emit({ type: 'done', result });
    return result;
  }

  /** summary.json and report.html written, redacted; then the after-report hook (signing). */
  private async finish(summary: Summary, extra: { notRun?: number } = {}): Promise<Summary> {
    for (const s of this.bankProfile?.secrets ?? []) this.redactor.add(s);
    // What was judged, and where: the standard of the profile's dialect and the bank's URLs as configured.
    summary.standard ??= judgedStandard(this.plan.dialect, this.plan.standard);
    if (this.security) summary.security ??= this.security;
    if (this.bankProfile) summary.bank ??= bankLocation(this.bankProfile, this.plan.variants, this.plan.dialect, this.redactor);
    const redacted = JSON.parse(this.redactor.text(JSON.stringify(summary))) as Summary;
    await writeReports(this.plan.reportDir, redacted, (text) => this.redactor.text(text), { ...extra, html: this.wants('html') });
    this.summaryWritten = true;
    await this.options.afterReports?.({ summary: redacted, reportDir: this.plan.reportDir, profile: this.bankProfile });
    return redacted;
  }
}

/**
 * The bank's base URL for each variant and API the standard has there (an API the profile does not
 * offer left out), with credentials and query tokens masked; one line per variant where every API
 * shares a base URL.
 */
export function bankLocation(profile: Profile, variants: Variant[], dialect: Dialect, redactor: Redactor): BankLocation {
  const catalogue = catalogueOf(dialect);
  const baseUrls: BankLocation['baseUrls'] = [];
  for (const variant of variants) {
    const apis = [...new Set(Object.values(catalogue).filter((op) => op.variants.includes(variant)).map((op) => op.api))]
      .filter((fn) => !profile.absentApis?.includes(fn));
    const urls = apis.map((api) => ({ variant, api: api as string, url: redactor.url(baseUrlFor(profile, variant, api)) }));
    if (urls.length > 1 && urls.every((u) => u.url === urls[0]!.url)) baseUrls.push({ variant, api: apis.join(', '), url: urls[0]!.url });
    else baseUrls.push(...urls);
  }
  const issuer = profile.auth.issuer ?? profile.auth.discoveryUrl;
  return { ...(issuer ? { issuer: redactor.url(issuer) } : {}), baseUrls };
}

/** Rewrites a report file through the redactor (a missing file is left missing). */
async function redactFile(file: string, redactor: Redactor): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return;
  }
  const clean = redactor.text(text);
  if (clean !== text) await writeFile(file, clean);
}

/** `work`, or Interrupted as soon as `signal` aborts (the work itself is left to finish on its own). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** @deprecated the old name of {@link runConformance}. */
export const conform = runConformance;

/**
 * Writes summary.json and the reports made from it. Every report of a finished or interrupted run
 * comes from here, so a run never ends with a summary but without its reports.
 */
async function writeReports(reportDir: string, summary: Summary, redact: (text: string) => string, extra: { notRun?: number; html?: boolean } = {}): Promise<void> {
  await writeFile(join(reportDir, 'summary.json'), JSON.stringify(summary, null, 2) + '\n');
  // For GitHub's step summary and GitLab's job reports; made from the redacted summary, and redacted once more.
  await writeFile(join(reportDir, 'summary.md'), redact(summaryMarkdown(summary, extra)));
  if (extra.html !== false) await writeHtmlReport(reportDir, summary, { localPaths: [packageRoot()] });
}

function exitCodeOf(summary: Summary, strict: boolean | undefined): number {
  const verdict = summary.verdict as string;
  if (verdict === 'fail') return ExitCode.nonConformant;
  if (verdict === 'incomplete' && strict) return ExitCode.nonConformant;
  return ExitCode.ok;
}

async function packageVersion(): Promise<string> {
  try {
    return JSON.parse(await readFile(join(packageRoot(), 'package.json'), 'utf8')).version;
  } catch {
    return '0.0.0';
  }
}

/** True when not one scenario could be judged: every failure is a bank that gave no answer. */
function nothingRan(summary: Summary): boolean {
  if (summary.totals.scenarios.passed > 0) return false;
  const failures = summary.variants.flatMap((v) => v.rules.flatMap((r) => r.failures));
  return failures.length > 0 && failures.every((f) => /gave no usable answer|cannot be used|browser|Chromium/i.test(f.message));
}
