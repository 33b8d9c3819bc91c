import type { Io } from '../io.ts';
import { runConformance, type ConformanceEvent, type RunConformanceOptions } from '../../conformance/runner.ts';
import { FOREIGN_RULE_REASON, type InternalError, type Summary } from '../../conformance/summary.ts';
import { version } from '../version.ts';
import type { Variant } from '../../profile/types.ts';
import { forTerminal, inline, jsonForTerminal, painter } from '../terminal.ts';
import { WaitProgress } from '../progress.ts';
import { fcsCountsLine, fcsVerdictText, type FcsSection } from '../../conformance/fcs-verdicts.ts';

interface Options {
  profile?: string;
  variant?: 'A' | 'B' | 'all';
  tags?: string;
  reportDir?: string;
  parallel?: number;
  journeys?: number;
  sandboxFault?: string[];
  /** A registered standard's name (the choices come from the registry). */
  dialect?: string;
  /** A published version's name. */
  standard?: string;
  sca?: string[];
  signatures?: boolean;
  security?: string;
  json?: boolean;
  fcs?: boolean;
  verbose?: boolean;
  strict?: boolean;
  attest?: string;
  waivers?: string;
  baseline?: string;
}

/**
 * A spinner only where it can be drawn: a terminal on stderr with columns to draw in, not CI,
 * not TERM=dumb. Elsewhere (pipes, `script` with a 0×0 pty, CI logs) progress is plain lines.
 */
export function canSpin(io: Io): boolean {
  const stderr = io.stderr as { isTTY?: boolean; columns?: number };
  const ci = io.env.CI !== undefined && io.env.CI !== '' && io.env.CI !== '0' && io.env.CI.toLowerCase() !== 'false';
  return io.interactive && stderr.isTTY === true && (stderr.columns ?? 0) > 0 && io.env.TERM !== 'dumb' && !ci;
}

export async function run(io: Io, options: Options): Promise<void> {
  // The key, the waiver file and the baseline are checked before the run (exit 2, nothing run).
  const gates = options.attest || options.waivers || options.baseline
    ? await (await import('../../attest/gates.ts')).prepareGates(options, { env: io.env, cwd: io.cwd })
    : undefined;
  const { Chalk } = await import('chalk');
  // obtpp's colours go through the painter, and everything written through forTerminal: a bank's
  // text (a failure message quoting its answer) is shown escaped, never as a control sequence.
  const c = painter(new Chalk({ level: io.color ? 1 : 0 }), ['bold', 'green', 'red', 'yellow', 'dim', 'cyan']);
  const display = await startDisplay(io, options);
  const onEvent = eventPrinter(io, options, c, display);
  const interrupt = stopOnSignal(io, display);

  // The profile as every other command finds it: the flag, else OBTPP_PROFILE; with neither, the embedded sandbox.
  const profile = options.profile ?? (io.env.OBTPP_PROFILE || undefined);
  if (profile !== undefined && options.profile === undefined && !options.json) io.stderr.write(`profile ${profile} (from OBTPP_PROFILE)\n`);
  const result = await runConformance({
    ...runnerOptions(io, options, profile),
    signal: interrupt.signal,
    onEvent,
    transformSummary: gates?.transformSummary,
    afterReports: gates?.afterReports,
  }).finally(() => {
    interrupt.finished();
    display.progress?.stop();
    display.spinner?.stop();
  });

  io.exitCode = result.exitCode;
  const gated = await gates?.finish(result);
  if (gated) io.exitCode = gated.exitCode;
  // obtpp's own failure is exit 3 whatever a gate decided: the run judged nothing there.
  if (result.internalErrors?.length) io.exitCode = result.exitCode;
  for (const line of gated?.stderr ?? []) io.stderr.write(forTerminal(line) + '\n');
  await ciOutputs(io, result, options.json === true);
  printInternalErrors(io, result.internalErrors ?? []);
  if (options.json) {
    io.stdout.write(jsonForTerminal(result.summary) + '\n');
    for (const line of gated?.stdout ?? []) io.stderr.write(forTerminal(line) + '\n');
    if (result.interrupted) io.stderr.write(interruptedLine(result.interrupted, result.summary, result.reportDir) + '\n');
    return;
  }
  if (result.interrupted) {
    io.stderr.write(interruptedLine(result.interrupted, result.summary, result.reportDir) + '\n');
    return;
  }
  printOutcome(io, options, result, c);
  for (const line of gated?.stdout ?? []) io.stdout.write(forTerminal(line) + '\n');
}

interface Spinner { text: string; start(): unknown; stop(): unknown }

/** What shows the run's progress: a spinner where one can be drawn, and what the run waits for (none with --json). */
interface Display { spinner?: Spinner; progress?: WaitProgress }

async function startDisplay(io: Io, options: Options): Promise<Display> {
  let spinner: Spinner | undefined;
  if (!options.json && canSpin(io)) {
    const { default: ora } = await import('ora');
    spinner = ora({ text: 'starting…', stream: io.stderr as NodeJS.WriteStream, isEnabled: true, discardStdin: false, color: io.color ? 'cyan' : false });
    spinner.start();
  }
  // What the run waits for (a journey, the bank's answer, an expiry): on the spinner, or a plain line when a wait lasts.
  const progress = options.json ? undefined
    : new WaitProgress({ ...(spinner ? { spinner } : { write: (line: string) => io.stderr.write(line + '\n') }), clean: (text) => forTerminal(text, 'inline') }).start();
  return { spinner, progress };
}

/** The run's events on the terminal: notes, each scenario's mark (a line, or the spinner's text), the waits. */
function eventPrinter(io: Io, options: Options, c: any, display: Display): (event: ConformanceEvent) => void {
  let done = 0;
  let failed = 0;
  return (event) => {
    const { spinner, progress } = display;
    if (event.type === 'wait') return progress?.wait(event);
    if (event.type === 'note') {
      if (spinner) spinner.text = forTerminal(event.message, 'inline');
      else if (!options.json && options.verbose) io.stderr.write(forTerminal(event.message, 'inline') + '\n');
      progress?.rebase();
    } else if (event.type === 'scenario') {
      const { variant, rule, name, status, message } = event;
      done++;
      if (status === 'failed') failed++;
      const mark = status === 'passed' ? c.green('✓') : status === 'failed' ? c.red('✗') : (status as string) === 'not-judged' ? c.yellow('?') : c.yellow('-');
      const why = (status === 'failed' || (status as string) === 'not-judged') && message ? `\n    ${forTerminal(`${(status as string) === 'not-judged' ? 'not judged: ' : ''}${message.split('\n')[0]}`, 'inline')}` : '';
      if (spinner) spinner.text = forTerminal(`${done} scenarios, ${failed} failed — ${variant} ${rule} ${name}`, 'inline');
      else if (!options.json) io.stderr.write(`${forTerminal(`${mark} [${variant}] ${rule} ${name}`, 'inline')}${why}\n`);
      progress?.scenario();
    }
  };
}

/** SIGINT / SIGTERM stop the run cleanly; a second one ends the process at once (the default). */
function stopOnSignal(io: Io, display: Display): { signal: AbortSignal; finished(): void } {
  const controller = new AbortController();
  let finished = false;
  const ended = new AbortController();
  void io.waitForSignal?.(ended.signal).then((signal) => {
    if (finished) return;
    display.progress?.stop();
    display.spinner?.stop();
    display.spinner = undefined;
    controller.abort(signal);
  });
  return {
    signal: controller.signal,
    finished: () => {
      finished = true;
      ended.abort();
    },
  };
}

/** The runner's options from the command's flags (the events, the signal and the gates aside). */
function runnerOptions(io: Io, options: Options, profile: string | undefined): RunConformanceOptions {
  return {
    profile,
    variant: options.variant ?? 'all',
    tags: options.tags,
    reportDir: options.reportDir,
    parallel: options.parallel ?? 1,
    journeys: options.journeys,
    sandboxFaults: options.sandboxFault ?? [],
    ...(options.dialect ? { dialect: options.dialect } : {}),
    ...(options.standard ? { standard: options.standard } : {}),
    ...(options.sca ? { sandboxSca: options.sca } : {}),
    ...(options.security ? { sandboxSecurity: options.security } : {}),
    ...(options.signatures ? { sandboxSignatures: true } : {}),
    strict: options.strict,
    cwd: io.cwd,
    env: io.env,
    version: version(),
    ...(io.browser ? { browser: io.browser } : {}),
  };
}

/** obtpp's own failures, at most five of them: a bug of obtpp, never a finding about the bank. */
function printInternalErrors(io: Io, errors: InternalError[]): void {
  for (const e of errors.slice(0, 5)) {
    io.stderr.write(forTerminal(`obtpp: internal error (a bug of obtpp, not a finding about the bank): ${e.message}, in step "${e.step}" of [${e.variant}] ${e.rule} "${e.scenario}"; the rule is not judged and the run exits 3 (the stack is in messages.ndjson)`, 'inline') + '\n');
  }
  if (errors.length > 5) io.stderr.write(`obtpp: … and ${errors.length - 5} more internal errors\n`);
}

/** A finished run on stdout: the table, the official tests (with --fcs), the verdict line, the security profile, where the reports are. */
function printOutcome(io: Io, options: Options, result: { summary: Summary; reportDir: string }, c: any): void {
  const s = result.summary;
  io.stdout.write(forTerminal(renderTable(s, c)) + '\n');
  const verdict = s.verdict === 'pass' ? c.bold(c.green('CONFORMANT')) : (s.verdict as string) === 'incomplete' ? c.bold(c.yellow('INCOMPLETE')) : c.bold(c.red('NOT CONFORMANT'));
  const sc = s.totals.scenarios as Record<string, number>;
  const ran = (sc.passed ?? 0) + (sc.failed ?? 0) + (sc.notJudged ?? 0) + (sc.notApplicable ?? 0);
  if (s.fcs && options.fcs) io.stdout.write(forTerminal(`\n${fcsList(s.fcs, c)}`) + '\n');
  io.stdout.write(forTerminal(`\n${verdict}: ${totalsLine(s)} — ${ran} scenarios (${sc.notJudged ?? 0} not judged) in ${(s.durationMs / 1000).toFixed(1)} s`) + '\n');
  if (s.fcs) io.stdout.write(forTerminal(`${fcsCountsLine(s.fcs)}${options.fcs ? '' : ' (--fcs lists each)'}`) + '\n');
  // The security profile the bank's authorisation server was judged under (docs/security.md).
  const security = (s.security as { description?: unknown } | undefined)?.description;
  if (typeof security === 'string') io.stdout.write(forTerminal(`authorisation server: ${security}`, 'inline') + '\n');
  io.stdout.write(`reports: ${result.reportDir}/{summary.json,summary.md,junit.xml,report.html,messages.ndjson}\n`);
}

/**
 * The counts of the verdict line. The waived results and the SHOULD warnings are always named,
 * also at 0, so that a reader of a CI log knows they were counted; the rules a scoped run did not
 * select are left out (the table says how many in one line).
 */
function totalsLine(s: Summary): string {
  const rules = s.totals.rules as Record<string, number>;
  const outOfScope = notInScope(s);
  const notApplicable = (rules['not-applicable'] ?? 0) - outOfScope.notApplicable;
  const warnings = s.totals.warnings ?? 0;
  return `${rules.passed ?? 0} rule results passed, ${rules.failed ?? 0} failed, ${rules.waived ?? 0} waived, ${rules['not-judged'] ?? 0} not judged, ${notApplicable} not applicable`
    + `; ${warnings} SHOULD warning${warnings === 1 ? '' : 's'}`;
}

/**
 * The rules a scoped run (--tags, --variant) did not select: no scenario of theirs ran in any
 * variant, and at least one variant has them as not selected. A rule of the whole catalogue that
 * does not apply (another variant's, a service the bank does not offer) is still shown in a full run.
 */
function notInScope(s: Summary): { ids: Set<string>; notApplicable: number } {
  const ids = new Set<string>();
  let notApplicable = 0;
  const all = [...new Set(s.variants.flatMap((v) => v.rules.map((r) => r.id)))];
  for (const id of all) {
    const results = s.variants.map((v) => v.rules.find((r) => r.id === id)).filter((r): r is NonNullable<typeof r> => Boolean(r));
    if (results.some((r) => r.status === 'skipped') && results.every((r) => r.status === 'skipped' || (r.status === 'not-applicable' && r.scenarios === 0))) {
      ids.add(id);
      notApplicable += results.filter((r) => r.status === 'not-applicable').length;
    }
  }
  return { ids, notApplicable };
}

/**
 * In GitHub Actions (GITHUB_ACTIONS=true): one `::error title=RULE::…` line per failed rule and one
 * `::warning` per SHOULD warning, on stdout (stderr with --json, whose stdout is one document);
 * with GITHUB_STEP_SUMMARY naming a file, summary.md appended to it. Both come from the run's
 * redacted summary. A step summary that cannot be written is a warning, not a failed run.
 */
async function ciOutputs(io: Io, result: { summary: Summary; reportDir: string; internalErrors?: InternalError[] }, json: boolean): Promise<void> {
  if (io.env.GITHUB_ACTIONS === 'true') {
    const { githubAnnotations, escapeData, escapeProperty } = await import('../../conformance/ci-report.ts');
    const stream = json ? io.stderr : io.stdout;
    for (const line of githubAnnotations(result.summary)) stream.write(forTerminal(line, 'inline') + '\n');
    for (const e of result.internalErrors ?? []) {
      stream.write(forTerminal(`::error title=${escapeProperty('obtpp internal error')}::${escapeData(`${e.message} in step "${e.step}" of [${e.variant}] ${e.rule} "${e.scenario}" (a bug of obtpp, not a finding about the bank)`)}`, 'inline') + '\n');
    }
  }
  const target = io.env.GITHUB_STEP_SUMMARY;
  if (target) {
    const { appendFile, readFile } = await import('node:fs/promises');
    const { resolve, join } = await import('node:path');
    try {
      await appendFile(resolve(io.cwd, target), await readFile(join(result.reportDir, 'summary.md'), 'utf8'));
    } catch (error) {
      io.stderr.write(forTerminal(`warning: GITHUB_STEP_SUMMARY ${target}: summary.md not appended: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'inline') + '\n');
    }
  }
}

/** Every official test of the run's version with its verdict, in the suite's order: one line each. */
function fcsList(fcs: FcsSection, c: any): string {
  const width = Math.max(...fcs.tests.map((t) => t.id.length)) + 2;
  const mark = (t: FcsSection['tests'][number]) => (t.status === 'passed' ? c.green('pass') : t.status === 'failed' ? c.red('FAIL') : t.status === 'not-judged' ? c.yellow('not judged') : c.dim('n/a'));
  const lines = [c.bold(`The official suite's tests (FCS v${fcs.version}), in its order:`)];
  for (const t of fcs.tests) {
    const text = fcsVerdictText(t).replace(/^(pass|FAIL|not judged|not applicable)(: )?/, '');
    lines.push(`${t.id.padEnd(width)}${mark(t)}${text ? `  ${inline(text.length > 160 ? `${text.slice(0, 159)}…` : text)}` : ''}`);
  }
  return lines.join('\n');
}

/** The one line an interrupted run leaves on stderr. */
function interruptedLine(signal: string, s: Summary, reportDir: string): string {
  const sc = s.totals.scenarios as Record<string, number>;
  const ran = (sc.passed ?? 0) + (sc.failed ?? 0) + (sc.notJudged ?? 0) + (sc.notApplicable ?? 0);
  return `obtpp: interrupted by ${signal}: ${ran} scenario${ran === 1 ? '' : 's'} had finished (${sc.failed ?? 0} failed); partial reports in ${reportDir}/{summary.json,summary.md,junit.xml} (the scenarios not run marked so)`;
}

type RuleResult = Summary['variants'][number]['rules'][number];

/** A rule passed on only some of its scenarios (the others not judged): it says how many, never a plain "pass". */
const passedInPart = (r: RuleResult | undefined) => r?.status === 'passed' && r.counts && r.counts.passed < r.scenarios;

/** The run on the terminal: a row per rule and variant, then the sections under it (failures, not applicable, passed in part, not judged). */
function renderTable(summary: Summary, c: any): string {
  return [
    ...ruleRows(summary, c),
    ...failureLines(summary, c),
    ...notApplicableLines(summary, c),
    ...partlyPassedLines(summary, c),
    ...notJudgedLines(summary, c),
  ].join('\n');
}

/** The table: a column per variant, a row per rule the run selected; the rules it did not select are one line. */
function ruleRows(summary: Summary, c: any): string[] {
  const variants = summary.variants.map((v) => v.variant);
  const ids = [...new Set(summary.variants.flatMap((v) => v.rules.map((r) => r.id)))].sort();
  const titles = new Map(summary.variants.flatMap((v) => v.rules.map((r) => [r.id, r.title] as const)));
  // Columns widen to hold "not judged" only when a rule was not judged.
  const wide = summary.variants.some((v) => v.rules.some((r) => r.status === 'not-judged' || (r.status as string) === 'waived' || passedInPart(r)));
  const pad = (text: string) => text + ' '.repeat((wide ? 12 : 6) - text.length);
  const cell = (r: RuleResult | undefined) => {
    const s = r?.status;
    // A rule passed on only some of its scenarios says how many, never a plain "pass".
    if (passedInPart(r)) {
      const label = `pass (${r!.counts.passed}/${r!.scenarios})`;
      return c.green(label) + pad(label).slice(label.length);
    }
    return s === 'passed' ? c.green('pass') + pad('pass').slice(4) : s === 'failed' ? c.red('FAIL') + pad('FAIL').slice(4) : s === 'not-applicable' ? c.dim('n/a') + pad('n/a').slice(3)
      : s === 'skipped' ? c.yellow('skip') + pad('skip').slice(4) : s === 'not-judged' ? c.yellow('not judged') + pad('not judged').slice(10)
      : (s as string | undefined) === 'waived' ? c.cyan('waived') + pad('waived').slice(6) : pad('');
  };
  // As wide as the longest rule id and a space (UKAIS-01 is longer than AIS-01).
  const idWidth = Math.max(8, ...ids.map((id) => id.length + 1));
  const lines = [`${'rule'.padEnd(idWidth)}${variants.map((v: Variant) => pad(v)).join('')}title`];
  // A scoped run lists the rules it judged; those it did not select are one line, not a row each.
  const outOfScope = notInScope(summary).ids;
  for (const id of ids.filter((x) => !outOfScope.has(x))) {
    const statuses = variants.map((v) => summary.variants.find((x) => x.variant === v)!.rules.find((r) => r.id === id));
    const title = titles.get(id) ?? '';
    lines.push(`${id.padEnd(idWidth)}${statuses.map(cell).join('')}${title.length > 90 ? title.slice(0, 87) + '…' : title}`);
  }
  if (outOfScope.size) lines.push(c.dim(`${outOfScope.size} rules not in scope (not selected by this run's --tags or --variant)`));
  return lines;
}

/** The failures, the first 20 with their step and message. */
function failureLines(summary: Summary, c: any): string[] {
  const failures = summary.variants.flatMap((v) => v.rules.flatMap((r) => r.failures.map((f) => ({ v: v.variant, r, f }))));
  if (!failures.length) return [];
  const lines = ['', c.bold('Failures:')];
  for (const { v, f } of failures.slice(0, 20)) lines.push(`  [${v}] ${f.scenario}\n    step: ${f.step}\n    ${f.message.split('\n').map((l) => inline(l)).join('\n    ')}`);
  if (failures.length > 20) lines.push(`  … and ${failures.length - 20} more in summary.json`);
  return lines;
}

/** The rules that do not apply: another dialect's (once), then those the profile says the bank does not offer. */
function notApplicableLines(summary: Summary, c: any): string[] {
  const lines: string[] = [];
  // Rules the profile says the bank does not offer (a variant's own gaps are plain from the table).
  const otherDialect = (reason: string | undefined) => FOREIGN_RULE_REASON.test(reason ?? '');
  const offered = summary.variants.flatMap((v) => v.rules.filter((r) => r.status === 'not-applicable' && r.reason && !/^not part of variant /.test(r.reason) && !otherDialect(r.reason)).map((r) => ({ v: v.variant, r })));
  // Rules of another dialect, once: the reason is the same in every variant.
  const foreign = [...new Map(summary.variants.flatMap((v) => v.rules.filter((r) => r.status === 'not-applicable' && otherDialect(r.reason)).map((r) => [r.id, r.reason!] as const)))];
  if (foreign.length) {
    lines.push('', c.bold('Not applicable (another dialect\'s rules):'));
    lines.push(`  ${foreign.map(([id]) => id).join(', ')}: ${foreign[0]![1].replace(/ \(a rule of .*\)$/, '')}`);
  }
  if (offered.length) {
    lines.push('', c.bold('Not applicable:'));
    for (const { v, r } of offered) lines.push(`  [${v}] ${r.id} ${r.reason}`);
  }
  return lines;
}

/** The rules passed on part of their scenarios, with their verdict. */
function partlyPassedLines(summary: Summary, c: any): string[] {
  const partly = summary.variants.flatMap((v) => v.rules.filter(passedInPart).map((r) => ({ v: v.variant, r })));
  if (!partly.length) return [];
  const lines = ['', c.bold('Passed on part of their scenarios:')];
  for (const { v, r } of partly) lines.push(`  [${v}] ${r.id} ${r.verdict}`);
  return lines;
}

/** The scenarios not judged, the first 20, under their rule and its verdict. */
function notJudgedLines(summary: Summary, c: any): string[] {
  const unjudged = summary.variants.flatMap((v) => v.rules.flatMap((r) => (r.notJudged ?? []).map((f) => ({ v: v.variant, r, f }))));
  if (!unjudged.length) return [];
  const lines = ['', c.bold('Not judged:')];
  let heading = '';
  for (const { v, r, f } of unjudged.slice(0, 20)) {
    // Each rule once, with its verdict (how many scenarios passed, failed, were not judged), then its scenarios.
    if (heading !== `${v} ${r.id}`) {
      heading = `${v} ${r.id}`;
      lines.push(`  [${v}] ${r.id} ${r.verdict ?? r.status}`);
    }
    lines.push(`    ${f.scenario}: ${f.message.split('\n')[0]}${f.blockedBy && !f.message.startsWith('blocked by') ? ` (blocked by ${f.blockedBy})` : ''}`);
  }
  if (unjudged.length > 20) lines.push(`  … and ${unjudged.length - 20} more in summary.json`);
  return lines;
}
