import type { Variant } from '../profile/types.ts';
import { baseStandard, findStandard, standards, versionNames, versionOf } from '../standards/registry.ts';
import { ruleIdOf } from './rule-id.ts';
import { keepOnLine } from '../outside-text.ts';
import { SEQUENCE_MEDIA_TYPE, placeSequence, timeSplit, type ScenarioSequence, type SequenceItem } from './sequence.ts';
import { fcsVerdicts, type FcsSection } from './fcs-verdicts.ts';
import type { FcsMap, FcsVersion } from './fcs-map.ts';

/**
 * A rule's verdict in one variant. `not-judged`: no scenario failed, but at least one applicable
 * scenario could not be judged (its preconditions were missing); a rule passes only when every
 * applicable scenario that ran was judged and passed. `skipped`: not selected in this run.
 */
export type RuleStatus = 'passed' | 'failed' | 'not-judged' | 'not-applicable' | 'skipped';
/** A scenario's verdict (`skipped`: it ran but neither passed, failed nor was marked). */
export type ScenarioStatus = 'passed' | 'failed' | 'not-judged' | 'not-applicable' | 'skipped';
/** MUST: the official schema and the spec's rules; SHOULD: stricter than official (prose, good practice). */
export type Level = 'MUST' | 'SHOULD';

/** One finding: a failure, a warning (SHOULD) or the cause a scenario was not judged. */
export interface Finding {
  scenario: string;
  step: string;
  /** May summarise a long list of problems ("… and 7 more"); `problems` then holds every one. */
  message: string;
  level?: Level;
  source?: string;
  /** Every validation problem behind the finding, never cut. */
  problems?: string[];
  /** For a scenario not judged: the rule whose failure blocked it (e.g. `AIS-11`). */
  blockedBy?: string;
  evidence?: unknown;
}

/** @deprecated the name before findings had levels: a failure is a Finding. */
export type Failure = Finding;

/** How a rule's scenarios in one variant came out (each scenario counted once). */
export interface ScenarioCounts {
  passed: number;
  failed: number;
  notApplicable: number;
  notJudged: number;
}

/** A scenario of the rule that did not apply, and why (the profile's `implements`, the variant…). */
export interface NotApplicableScenario {
  scenario: string;
  reason: string;
}

export interface RuleResult {
  id: string;
  title: string;
  level?: Level;
  source?: string;
  status: RuleStatus;
  /**
   * What the user reads for this rule in this variant, the same words in the console, HTML and
   * attestation: `pass` only when every scenario passed; otherwise how many scenarios passed of how
   * many and why the others were not judged or do not apply, e.g. `pass (3 of 5 scenarios; 2 not
   * applicable: the profile says the bank does not offer getTransaction (variant A))`.
   */
  verdict: string;
  /** How many scenarios ran for this rule and variant (all of them, whatever their outcome). */
  scenarios: number;
  counts: ScenarioCounts;
  failures: Finding[];
  warnings?: Finding[];
  /** Each not-judged scenario with its cause and, where another rule's failure blocked it, `blockedBy`. */
  notJudged?: Finding[];
  /** Each not-applicable scenario with its reason. */
  notApplicable?: NotApplicableScenario[];
  /** Why a `not-applicable` rule does not apply: the variant has no such rule, or what the bank does not offer. */
  reason?: string;
  /** Each scenario that talked to the bank, as a sequence of its exchanges and journeys (the report's pictures). */
  sequences?: ScenarioSequence[];
}

/** The standard a run judged, in words: the profile's dialect, and the version its schemas are written from. */
export interface JudgedStandard {
  dialect: string;
  name: string;
  version: string;
  /** A published standard at its official paths (a profile's `standard`), in words; absent: the spec's layout. */
  layout?: string;
}

/** The standards a run can judge, by dialect (the spec's two variants differ only in the endpoints listed): the registry's words. */
export function judgedStandards(): Record<string, JudgedStandard> {
  return Object.fromEntries(standards().map((s) => [s.name, { dialect: s.name, ...s.judged }]));
}

/** The standard a run judged: the profile's published version where it names one, else its dialect's (the registry's words). */
export function judgedStandard(dialect: string, standard?: string): JudgedStandard | undefined {
  const version = versionOf(standard);
  if (version) return { dialect: version.standard.name, ...version.judged };
  const s = findStandard(dialect);
  return s ? { dialect: s.name, ...s.judged } : undefined;
}

/** Where the bank was reached, as the profile configured it (credentials and query tokens masked). */
export interface BankLocation {
  /** The authorisation server's issuer. */
  issuer?: string;
  /** The resource base URL of each variant and API the run used. */
  baseUrls: Array<{ variant: Variant; api: string; url: string }>;
}

/** How the run's wall time was spent (see timeSplit in summary.ts): each millisecond counted once. */
export interface TimeSplit {
  /** Inside a PSU journey (the browser and the authorisation server around it). */
  authorisationsMs: number;
  /** Waiting for the bank's or the authorisation server's answers, outside journeys. */
  httpMs: number;
  /** Waiting on purpose, outside both (a consent's expiry before its probe). */
  waitingMs: number;
  /** Everything else: starting the bank and browser, judging the answers, writing the reports. */
  judgingMs: number;
}

export interface Summary {
  tool: { name: string; version: string };
  profile: string;
  /** Which standard and version was judged (absent in older summaries). */
  standard?: JudgedStandard;
  /** The bank's base URLs as configured, masked (absent in older summaries). */
  bank?: BankLocation;
  /** The security profile the bank's authorisation server was judged under, resolved (src/auth/security.ts; absent without an authorisation server, and in older summaries). */
  security?: Record<string, unknown>;
  /** The run's wall time split by what it waited for (absent in older summaries). */
  timeSplit?: TimeSplit;
  startedAt: string;
  durationMs: number;
  /** `incomplete`: no rule failed, but some rule could not be judged. */
  verdict: 'pass' | 'fail' | 'incomplete' | 'interrupted';
  variants: Array<{ variant: Variant; rules: RuleResult[] }>;
  /** A run of a UK standard: one verdict per official FCS test of its version, in the suite's order (docs/summary.md). */
  fcs?: FcsSection;
  totals: {
    rules: Record<RuleStatus, number>;
    scenarios: { passed: number; failed: number; notJudged: number; notApplicable: number; skipped: number };
    warnings?: number;
  };
}

const EVIDENCE = 'application/vnd.obtpp.evidence+json';
const NOT_APPLICABLE = 'text/x.obtpp.not-applicable';
const NOT_JUDGED = 'application/vnd.obtpp.not-judged+json';
const PROBLEMS = 'application/vnd.obtpp.problems+json';
const WARNING = 'application/vnd.obtpp.warning+json';

interface PickleRun {
  sequence?: ScenarioSequence;
  pickleId: string;
  name: string;
  status: ScenarioStatus;
  notApplicable?: string;
  failure?: Finding;
  notJudged?: Finding;
  warnings: Finding[];
}

/** A scenario's run with its pickle's tags (a rule's id, a variant, a standard). */
type TaggedRun = PickleRun & { tags: string[] };

interface CaseState {
  worst: string;
  failure?: Finding;
  /** Why the scenario does not apply (the step's message), when it does not. */
  notApplicable?: string;
  notJudged?: { message: string; blockedBy?: string; step?: string };
  problems?: { summary?: string; problems: string[] };
  warnings: Finding[];
  evidence?: unknown;
  firstSkippedStep?: string;
  /** obtpp's own code threw (a TypeError, a ReferenceError…): no finding about the bank, and the run exits 3. */
  crash?: InternalError;
  /** Each test step's times and outcome, by test step id. */
  steps: Map<string, { startedMs?: number; finishedMs?: number; status?: string }>;
  sequence?: SequenceItem[];
}

/** A step in which obtpp itself failed: a bug of obtpp, never a verdict on the bank. */
export interface InternalError {
  variant: Variant;
  rule: string;
  scenario: string;
  step: string;
  /** `TypeError: …`, first line only (the stack is in messages.ndjson). */
  message: string;
}

/**
 * What obtpp's own code throws when it is wrong: the built-in errors of a programming mistake. A
 * rule's violation is a RuleViolation, a bank that cannot be reached an ObtppError, a page that
 * misbehaves an Error or puppeteer's: those stay findings.
 */
const CRASH_TYPES = new Set(['TypeError', 'ReferenceError', 'RangeError', 'EvalError', 'URIError']);

/**
 * Builds summary.json from the Cucumber Messages of a run: rules come from the Gherkin documents
 * (one `Rule:` per rule, tagged with its id, `@level-MUST|SHOULD` and `@source-…`), verdicts from
 * the test-step results, evidence, problems, warnings and not-judged causes from the attachments
 * the steps and hooks made.
 */
export class SummaryBuilder {
  private readonly docs: any[] = [];
  private readonly pickles = new Map<string, any>();
  private readonly testCases = new Map<string, any>();
  private readonly started = new Map<string, { testCaseId: string; at?: number; seconds?: number }>();
  private readonly results = new Map<string, CaseState>();
  /** Called with each finished scenario (for progress). */
  onScenario?: (info: { variant: Variant; rule: string; name: string; status: ScenarioStatus; message?: string; blockedBy?: string }) => void;

  add(envelope: any): void {
    if (envelope.gherkinDocument) this.docs.push(envelope.gherkinDocument);
    else if (envelope.pickle) this.pickles.set(envelope.pickle.id, envelope.pickle);
    else if (envelope.testCase) this.testCases.set(envelope.testCase.id, envelope.testCase);
    else if (envelope.testCaseStarted) {
      this.started.set(envelope.testCaseStarted.id, { testCaseId: envelope.testCaseStarted.testCaseId, at: seconds(envelope.testCaseStarted.timestamp) });
      this.results.set(envelope.testCaseStarted.id, { worst: 'PASSED', warnings: [], steps: new Map() });
    } else if (envelope.testStepStarted) {
      const started = envelope.testStepStarted;
      this.results.get(started.testCaseStartedId)?.steps.set(started.testStepId, { startedMs: millis(started.timestamp) });
    } else if (envelope.testStepFinished) this.stepFinished(envelope.testStepFinished);
    else if (envelope.attachment) this.attachment(envelope.attachment);
    else if (envelope.testCaseFinished) {
      const started = this.started.get(envelope.testCaseFinished.testCaseStartedId);
      const end = seconds(envelope.testCaseFinished.timestamp);
      if (started && started.at !== undefined && end !== undefined) started.seconds = Math.max(0, end - started.at);
      this.caseFinished(envelope.testCaseFinished);
    }
  }

  /** The pickle and the text of a step of a started test case. */
  private stepOf(testCaseStartedId: string, testStepId: string | undefined): { pickle: any; text: string } | undefined {
    const testCase = this.testCases.get(this.started.get(testCaseStartedId)?.testCaseId ?? '');
    if (!testCase) return undefined;
    const pickle = this.pickles.get(testCase.pickleId);
    const testStep = testCase.testSteps.find((s: any) => s.id === testStepId);
    const pickleStep = pickle?.steps.find((s: any) => s.id === testStep?.pickleStepId);
    return { pickle, text: pickleStep ? pickleStep.text : testStep?.hookId ? '(hook)' : '(unknown step)' };
  }

  private stepFinished(f: any): void {
    const r = this.results.get(f.testCaseStartedId);
    if (!r) return;
    const status: string = f.testStepResult.status;
    const times = r.steps.get(f.testStepId) ?? {};
    r.steps.set(f.testStepId, { ...times, finishedMs: millis(f.timestamp), status });
    const rank = (s: string) => ['PASSED', 'SKIPPED', 'PENDING', 'UNKNOWN', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'].indexOf(s);
    if (rank(status) > rank(r.worst)) r.worst = status;
    const step = this.stepOf(f.testCaseStartedId, f.testStepId);
    if (status === 'SKIPPED' && !r.firstSkippedStep) r.firstSkippedStep = step?.text;
    const type: string | undefined = f.testStepResult.exception?.type;
    if (status === 'FAILED' && type && CRASH_TYPES.has(type) && !r.failure && !r.crash && step) {
      const tags: string[] = step.pickle.tags.map((t: any) => t.name);
      const first = String(f.testStepResult.exception?.message ?? f.testStepResult.message ?? '').split('\n')[0]!.replace(new RegExp(`^${type}: `), '');
      r.crash = { variant: tags.includes('@variant-B') ? 'B' : 'A', rule: ruleTag(tags) ?? '?', scenario: step.pickle.name, step: step.text, message: `${type}: ${first}` };
      r.notJudged = { message: `obtpp itself failed in this step (a bug of obtpp, not a finding about the bank): ${type}: ${first}`, step: step.text };
      return;
    }
    if ((status === 'FAILED' || status === 'UNDEFINED' || status === 'AMBIGUOUS') && !r.failure && !r.crash && step) {
      // A finding's line breaks are obtpp's own (RuleViolation keeps the bank's text on its line);
      // the message of any other error may quote a bank's text raw, so it is shown on one line.
      const other = type !== undefined && type !== 'RuleViolation' && typeof f.testStepResult.exception?.message === 'string';
      const message = other
        ? `${type === 'Error' ? '' : `${type}: `}${keepOnLine(String(f.testStepResult.exception.message).trim())}`
        : (f.testStepResult.message ?? f.testStepResult.exception?.message ?? status.toLowerCase())
          .split('\n').filter((l: string) => !/^\s+at /.test(l)).join('\n').replace(/^(RuleViolation|Error): /, '').trim();
      r.failure = {
        scenario: step.pickle.name,
        step: step.text,
        message: status === 'UNDEFINED' ? `step not implemented: ${step.text}` : message,
      };
    }
  }

  private attachment(a: any): void {
    const r = this.results.get(a.testCaseStartedId);
    if (!r) return;
    if (a.mediaType === NOT_APPLICABLE) r.notApplicable = String(a.body || 'not applicable');
    else if (a.mediaType === EVIDENCE) r.evidence = parse(a.body);
    else if (a.mediaType === SEQUENCE_MEDIA_TYPE) {
      const items = (parse(a.body) as { items?: unknown })?.items;
      if (Array.isArray(items)) r.sequence = items.filter((i): i is SequenceItem => !!i && typeof i === 'object' && typeof i.at === 'string' && typeof i.ms === 'number');
    }
    else if (a.mediaType === NOT_JUDGED) {
      const cause = parse(a.body) as { message?: string; blockedBy?: string } | string;
      r.notJudged = typeof cause === 'string'
        ? { message: cause }
        : { message: String(cause?.message ?? 'not judged'), blockedBy: cause?.blockedBy, step: this.stepOf(a.testCaseStartedId, a.testStepId)?.text };
    } else if (a.mediaType === PROBLEMS) {
      const p = parse(a.body) as { summary?: string; problems?: unknown };
      // Each problem one line, as each warning below: whatever of the bank's they quote stays on it.
      if (p && typeof p === 'object' && Array.isArray(p.problems)) r.problems = { summary: p.summary, problems: p.problems.map((x) => keepOnLine(String(x))) };
    } else if (a.mediaType === WARNING) {
      const w = parse(a.body) as { level?: Level; source?: string; message?: string; problems?: unknown };
      const step = this.stepOf(a.testCaseStartedId, a.testStepId);
      if (w && typeof w === 'object') {
        r.warnings.push({
          scenario: step?.pickle?.name ?? '',
          step: step?.text ?? '(unknown step)',
          message: keepOnLine(String(w.message ?? 'warning')),
          level: w.level ?? 'SHOULD',
          ...(w.source ? { source: w.source } : {}),
          problems: Array.isArray(w.problems) ? w.problems.map((x) => keepOnLine(String(x))) : [],
        });
      }
    }
  }

  private caseFinished(f: any): void {
    const r = this.results.get(f.testCaseStartedId);
    const testCase = this.testCases.get(this.started.get(f.testCaseStartedId)?.testCaseId ?? '');
    if (!r || !testCase) return;
    if (r.failure) {
      if (r.problems) {
        r.failure.problems = r.problems.problems;
        if (r.problems.summary) r.failure.message = r.problems.summary;
      }
      if (r.evidence) r.failure.evidence = r.evidence;
    }
    const pickle = this.pickles.get(testCase.pickleId);
    const tags: string[] = pickle.tags.map((t: any) => t.name);
    const status = statusOf(r);
    this.onScenario?.({
      variant: tags.includes('@variant-B') ? 'B' : 'A',
      rule: ruleTag(tags) ?? '?',
      name: pickle.name,
      status,
      message: status === 'failed' ? r.failure?.message : status === 'not-judged' ? notJudgedText(r.notJudged) : undefined,
      ...(status === 'not-judged' && r.notJudged?.blockedBy ? { blockedBy: r.notJudged.blockedBy } : {}),
    });
  }

  /**
   * `dialect`: the standard the bank speaks (default obie). A rule whose scenarios are all of
   * another dialect (features tagged `@dialect-…`) is not-applicable, with the reason.
   */
  build(meta: { version: string; profile: string; startedAt: Date; variants: Variant[]; dialect?: string; standard?: string; fcs?: { version: FcsVersion; map?: FcsMap } }): Summary {
    const { runs, allItems } = this.pickleRuns();
    const dialect = meta.dialect ?? baseStandard().name;
    const variants = meta.variants.map((variant) => ({
      variant,
      rules: this.rulesOf(variant, dialect, meta.standard).map((rule) => ruleResult(rule, variant, dialect, runs)),
    }));
    const totals = totalsOf(variants, runs);
    const durationMs = Date.now() - meta.startedAt.getTime();
    return {
      tool: { name: 'obtpp', version: meta.version },
      profile: meta.profile,
      startedAt: meta.startedAt.toISOString(),
      durationMs,
      ...(allItems.length ? { timeSplit: timeSplit(allItems, durationMs) } : {}),
      verdict: totals.rules.failed > 0 ? 'fail' : totals.rules['not-judged'] > 0 ? 'incomplete' : 'pass',
      variants,
      ...(meta.fcs ? { fcs: this.fcsSection(meta.fcs.version, runs, meta.fcs.map) } : {}),
      totals,
    };
  }

  /** Every scenario that ran, with its outcome, findings and tags; and every timed step of the run (for its time split). */
  private pickleRuns(): { runs: TaggedRun[]; allItems: SequenceItem[] } {
    const runs: TaggedRun[] = [];
    const allItems: SequenceItem[] = [];
    for (const [startedId, r] of this.results) {
      const testCase = this.testCases.get(this.started.get(startedId)!.testCaseId);
      const pickle = this.pickles.get(testCase.pickleId);
      const status = statusOf(r);
      const notJudged: Finding | undefined = status === 'not-judged'
        ? {
            scenario: pickle.name,
            step: r.notJudged?.step ?? r.firstSkippedStep ?? '(unknown step)',
            message: notJudgedText(r.notJudged),
            ...(r.notJudged?.blockedBy ? { blockedBy: r.notJudged.blockedBy } : {}),
            ...(r.evidence ? { evidence: r.evidence } : {}),
          }
        : undefined;
      const sequence = r.sequence ? this.sequenceOf(testCase, pickle, r, status) : undefined;
      if (r.sequence) allItems.push(...r.sequence);
      runs.push({ sequence, pickleId: pickle.id, name: pickle.name, status, ...(status === 'not-applicable' ? { notApplicable: r.notApplicable } : {}), failure: r.failure, notJudged, warnings: r.warnings, tags: pickle.tags.map((t: any) => t.name) });
    }
    return { runs, allItems };
  }

  /** One verdict per FCS test of the run's version, from the scenarios tagged with it (fcs-verdicts.ts). */
  private fcsSection(version: FcsVersion, runs: ReadonlyArray<TaggedRun>, map?: FcsMap): FcsSection {
    const blocks = this.examplesNames();
    return fcsVerdicts(version, runs.map((x) => {
      const pickle = this.pickles.get(x.pickleId);
      const block = blocks.get(pickle?.astNodeIds?.[1] ?? '');
      const rule = ruleTag(x.tags);
      return {
        tags: x.tags,
        name: `${rule ? `${rule}: ` : ''}${x.name}${block ? ` (${block})` : ''}`,
        status: x.status,
        reason: x.status === 'failed' ? x.failure?.message : x.status === 'not-judged' ? x.notJudged?.message : x.status === 'not-applicable' ? x.notApplicable : undefined,
      };
    }), map);
  }

  /** The name of each outline row's Examples block, where it has one (by the row's id). */
  private examplesNames(): Map<string, string> {
    const names = new Map<string, string>();
    const note = (scenario: any) => (scenario?.examples ?? []).forEach((ex: any) => (ex.tableBody ?? []).forEach((row: any) => ex.name && names.set(row.id, ex.name)));
    for (const doc of this.docs) {
      for (const child of doc.feature?.children ?? []) {
        note(child.scenario);
        for (const c of child.rule?.children ?? []) note(c.scenario);
      }
    }
    return names;
  }

  /** A scenario's picture: its steps (hooks left out) with their times, its items placed under them. */
  private sequenceOf(testCase: any, pickle: any, r: CaseState, status: ScenarioStatus): ScenarioSequence {
    const steps: Array<{ text: string; status: string; startedMs?: number; finishedMs?: number }> = [];
    for (const ts of testCase.testSteps ?? []) {
      if (!ts.pickleStepId) continue;
      const text = pickle.steps.find((p: any) => p.id === ts.pickleStepId)?.text ?? '(unknown step)';
      const t = r.steps.get(ts.id);
      steps.push({ text, status: (t?.status ?? 'SKIPPED').toLowerCase(), startedMs: t?.startedMs, finishedMs: t?.finishedMs });
    }
    return placeSequence(pickle.name, status, steps, r.sequence ?? []);
  }

  /**
   * Why each scenario that neither passed nor failed was skipped (not applicable, or not judged and
   * blocked by what), keyed as cucumber's JUnit report names its test cases: the feature's name and
   * `<rule name> - <scenario name>`, joined by a NUL.
   */
  skippedCauses(): Map<string, string> {
    const causes = new Map<string, string>();
    for (const { key, r } of this.junitCases()) {
      const status = statusOf(r);
      if (status === 'not-applicable') causes.set(key, `not applicable: ${r.notApplicable}`);
      else if (status === 'not-judged') causes.set(key, `not judged: ${notJudgedText(r.notJudged)}`);
    }
    return causes;
  }

  /**
   * The text of each failed scenario's JUnit failure, keyed like {@link skippedCauses}: the rule
   * (id, level, title), the scenario and variant, the step, the finding (what was expected, what came
   * back), its problems, and the evidence as one line per exchange with its interaction id. What a CI
   * server shows is about the bank: never a stack trace or a path of the machine that ran obtpp.
   */
  failureTexts(): Map<string, string> {
    const texts = new Map<string, string>();
    for (const { key, r, rule, pickle } of this.junitCases()) {
      if (statusOf(r) !== 'failed' || !r.failure) continue;
      const tags: string[] = pickle.tags.map((t: any) => t.name);
      const f = r.failure;
      const lines = [
        `rule: ${rule ?? ruleTag(tags) ?? '?'}${ruleLevel(this.ruleTagsOf(rule)) ? ` (${ruleLevel(this.ruleTagsOf(rule))})` : ''}`,
        `scenario: ${pickle.name} (variant ${tags.includes('@variant-B') ? 'B' : 'A'})`,
        `step: ${f.step}`,
        `finding: ${r.problems?.summary ?? f.message}`,
        ...(r.problems?.problems.length ? ['problems:', ...r.problems.problems.map((p) => `  - ${p}`)] : []),
        ...evidenceLines(r.evidence),
      ];
      texts.set(key, lines.join('\n'));
    }
    return texts;
  }

  /** Every step in which obtpp itself failed (the run then exits 3). */
  internalErrors(): InternalError[] {
    return [...this.results.values()].map((r) => r.crash).filter((c): c is InternalError => Boolean(c));
  }

  /**
   * The JUnit text of each scenario in which obtpp itself failed, keyed like {@link skippedCauses}:
   * written as an `<error>` (the harness broke), not a `<failure>` (the bank broke a rule).
   */
  internalErrorTexts(): Map<string, string> {
    const texts = new Map<string, string>();
    for (const { key, r } of this.junitCases()) {
      if (!r.crash) continue;
      texts.set(key, `obtpp itself failed (a bug of obtpp, not a finding about the bank; the rule is not judged)\nstep: ${r.crash.step}\nerror: ${r.crash.message}`);
    }
    return texts;
  }

  /** The tags of the rule of that name (its id, level and source are tags). */
  private ruleTagsOf(ruleName: string | undefined): string[] {
    for (const doc of this.docs) for (const child of doc.feature?.children ?? []) if (child.rule && child.rule.name === ruleName) return child.rule.tags.map((t: any) => t.name);
    return [];
  }

  /**
   * Every finished scenario with the key cucumber's JUnit report names its test case by: the
   * feature's name and `<rule name> - <scenario name>`, joined by a NUL.
   */
  private junitCases(): Array<{ key: string; r: CaseState; rule?: string; pickle: any }> {
    return this.everyCase().filter((c): c is typeof c & { r: CaseState } => c.r !== undefined);
  }

  /**
   * Every selected scenario (cucumber announces them all before the first starts), with its JUnit
   * key and, once it finished, its result and duration.
   */
  private everyCase(): Array<{ key: string; feature: string; name: string; r?: CaseState; seconds?: number; rule?: string; pickle: any }> {
    const where = new Map<string, { feature: string; rule?: string; scenario?: string }>();
    // An outline's example rows: cucumber's JUnit names their test cases `… - <examples> - #i.j: <pickle>`.
    const rows = new Map<string, { examples?: string; number: string }>();
    const note = (scenario: any, at: { feature: string; rule?: string }) => {
      where.set(scenario.id, { ...at, scenario: scenario.name });
      (scenario.examples ?? []).forEach((ex: any, i: number) => (ex.tableBody ?? []).forEach((row: any, j: number) => rows.set(row.id, { examples: ex.name, number: `#${i + 1}.${j + 1}` })));
    };
    for (const doc of this.docs) {
      const feature = doc.feature;
      if (!feature) continue;
      for (const child of feature.children) {
        if (child.scenario) note(child.scenario, { feature: feature.name });
        for (const c of child.rule?.children ?? []) if (c.scenario) note(c.scenario, { feature: feature.name, rule: child.rule.name });
      }
    }
    const finished = new Map<string, { r: CaseState; seconds?: number }>();
    for (const [startedId, r] of this.results) {
      const started = this.started.get(startedId);
      if (started) finished.set(started.testCaseId, { r, seconds: started.seconds });
    }
    const out: Array<{ key: string; feature: string; name: string; r?: CaseState; seconds?: number; rule?: string; pickle: any }> = [];
    for (const [testCaseId, testCase] of this.testCases) {
      const pickle = this.pickles.get(testCase.pickleId);
      if (!pickle) continue;
      const at = where.get(pickle.astNodeIds?.[0]);
      if (!at) continue;
      const row = rows.get(pickle.astNodeIds?.[1]);
      const scenarioName = at.scenario || pickle.name;
      const name = [at.rule, scenarioName, row?.examples, row ? (scenarioName !== pickle.name ? `${row.number}: ${pickle.name}` : row.number) : undefined]
        .filter(Boolean).join(' - ');
      out.push({ key: `${at.feature}\u0000${name}`, feature: at.feature, name, ...finished.get(testCaseId), rule: at.rule, pickle });
    }
    return out;
  }

  /** How many selected scenarios did not finish (`planned`: the selection, when cucumber had not announced it yet). */
  notRun(planned: number): number {
    return Math.max(0, (this.testCases.size || planned) - this.results.size);
  }

  /**
   * A JUnit report of its own, for a run cucumber did not finish (interrupted): every selected
   * scenario, the finished ones with their outcome (failures as {@link failureTexts} words them,
   * causes as {@link skippedCauses}), the others skipped with `notRun` as the reason. `planned`
   * stands in when the run stopped before cucumber announced its scenarios.
   */
  partialJunit(notRun: string, planned: ReadonlyArray<{ feature?: string; rule?: string; name: string }> = [], suiteName = 'obtpp conformance'): string {
    const texts = this.failureTexts();
    const causes = this.skippedCauses();
    const known = this.everyCase();
    const cases = known.length
      ? known.map((c) => ({ feature: c.feature, name: c.name, key: c.key, r: c.r, seconds: c.seconds }))
      : planned.map((p) => ({ feature: p.feature ?? '', name: [p.rule, p.name].filter(Boolean).join(' - '), key: '', r: undefined, seconds: undefined }));
    let failures = 0;
    let skipped = 0;
    let total = 0;
    const body = cases.map((c) => {
      const status = c.r ? statusOf(c.r) : undefined;
      total += c.seconds ?? 0;
      const head = `  <testcase classname="${xmlEscape(c.feature)}" name="${xmlEscape(c.name)}" time="${(c.seconds ?? 0).toFixed(3)}">`;
      if (status === 'passed') return `${head}\n  </testcase>\n`;
      if (status === 'failed') {
        failures++;
        const text = texts.get(c.key) ?? c.r?.failure?.message ?? 'failed';
        const message = /^finding: (.*)$/m.exec(text)?.[1] ?? text.split('\n')[0]!;
        return `${head}\n    <failure type="RuleViolation" message="${xmlEscape(message)}"><![CDATA[${text.split(']]>').join(']]]]><![CDATA[>')}]]></failure>\n  </testcase>\n`;
      }
      skipped++;
      return `${head}\n    <skipped message="${xmlEscape(status ? (causes.get(c.key) ?? status) : notRun)}"/>\n  </testcase>\n`;
    }).join('');
    return `<?xml version="1.0"?>\n<testsuite name="${xmlEscape(suiteName)}" time="${total.toFixed(3)}" tests="${cases.length}" skipped="${skipped}" failures="${failures}" errors="0" timestamp="${new Date().toISOString()}">\n${body}</testsuite>\n`;
  }

  /**
   * Every rule of the features instantiated for a variant, whether any scenario applies there, and
   * its level and source. A rule id with scenarios in several dialects is one rule, described in the
   * run's dialect's words; a rule with none in the run's dialect names the dialect it belongs to.
   */
  private rulesOf(variant: Variant, dialect: string, standard?: string): RuleRow[] {
    // A feature or rule tagged with a published version (@uk-3.1) is that version's only: a run
    // of another layout does not list it (as a run of one standard lists no rule of another).
    // A feature may serve several versions (@uk-3.1 @uk-4.0): listed when the run's is one of them.
    const published = versionNames();
    const standardsOf = (tags: string[]) => published.filter((s) => tags.includes(`@${s}`));
    const byId = new Map<string, RuleRow>();
    for (const doc of this.docs) {
      const feature = doc.feature;
      if (!feature || !feature.tags.some((t: any) => t.name === `@variant-${variant}`)) continue;
      const docDialect = feature.tags.map((t: any) => /^@dialect-(.+)$/.exec(t.name)?.[1]).find(Boolean) ?? baseStandard().name;
      const mine = docDialect === dialect;
      for (const child of feature.children) {
        const rule = child.rule;
        if (!rule) continue;
        const tags: string[] = rule.tags.map((t: any) => t.name);
        const id = ruleTag(tags);
        if (!id) continue;
        const applicable = rule.children.some((c: any) => c.scenario?.tags.some((t: any) => t.name === `@${variant}`));
        const title = rule.name.replace(/^[A-Z]{2,5}-\d{2,3}\s*[—–-]\s*/, '');
        const level = tags.map((t) => /^@level-(MUST|SHOULD)$/.exec(t)?.[1]).find(Boolean) as Level | undefined;
        const source = tags.map((t) => /^@source-(.+)$/.exec(t)?.[1]).find(Boolean);
        const ruleStandards: readonly string[] = standardsOf([...feature.tags.map((t: any) => t.name), ...tags]);
        if (ruleStandards.length && !ruleStandards.includes(standard ?? '')) continue;
        const row: RuleRow = { id, title, applicable: mine && applicable, ...(mine ? {} : { otherDialect: docDialect }), ...(level ? { level } : {}), ...(source ? { source } : {}) };
        const known = byId.get(id);
        // The run's dialect's own rule wins; another dialect's stands in only where the run's has none.
        if (!known || (mine && known.otherDialect)) byId.set(id, row);
      }
    }
    return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}

/** The reason of a rule that belongs to another dialect. */
export const FOREIGN_RULE_REASON = /^not part of the \S+ dialect\b/;

/** A rule of the run's catalogue (rulesOf), as the summary lists it. */
type RuleRow = { id: string; title: string; applicable: boolean; otherDialect?: string; level?: Level; source?: string };

/** One rule's verdict in one variant, from its scenarios there: its status, the reason it does not apply, its counts and findings. */
function ruleResult({ id, title, applicable, otherDialect, level, source }: RuleRow, variant: Variant, dialect: string, runs: TaggedRun[]): RuleResult {
  const mine = runs.filter((x) => x.tags.includes(`@variant-${variant}`) && x.tags.includes(`@${id}`));
  const stamp = (f: Finding): Finding => ({ ...f, ...(level && !f.level ? { level } : {}), ...(source && !f.source ? { source } : {}) });
  const failures = mine.filter((x) => x.status === 'failed').map((x) => x.failure!).filter(Boolean).map(stamp);
  const notJudged = mine.map((x) => x.notJudged).filter((x): x is Finding => Boolean(x)).map(stamp);
  const warnings = dedupe(mine.flatMap((x) => x.warnings));
  const status = ruleStatus(applicable, failures.length > 0, mine);
  const reason = status !== 'not-applicable' ? undefined
    : otherDialect ? `not part of the ${dialect} dialect (a rule of ${otherDialect} only)`
    : !applicable ? `not part of variant ${variant}`
    : [...new Set(mine.map((x) => x.notApplicable).filter(Boolean))].join('; ') || 'not applicable';
  const counts: ScenarioCounts = {
    passed: mine.filter((x) => x.status === 'passed').length,
    failed: mine.filter((x) => x.status === 'failed').length,
    notApplicable: mine.filter((x) => x.status === 'not-applicable').length,
    notJudged: mine.filter((x) => x.status === 'not-judged' || x.status === 'skipped').length,
  };
  const notApplicable = mine.filter((x) => x.status === 'not-applicable').map((x) => ({ scenario: x.name, reason: x.notApplicable ?? 'not applicable' }));
  const sequences = mine.map((x) => x.sequence).filter((x): x is ScenarioSequence => Boolean(x));
  return {
    id, title, ...(level ? { level } : {}), ...(source ? { source } : {}), status,
    verdict: ruleVerdict(status, counts, reason, notJudged, notApplicable),
    scenarios: mine.length, counts, failures,
    ...(reason ? { reason } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(notJudged.length ? { notJudged } : {}),
    ...(notApplicable.length ? { notApplicable } : {}),
    ...(sequences.length ? { sequences } : {}),
  };
}

/** A rule's status from its scenarios: a failure fails it; it passes only when every scenario judged passed. */
function ruleStatus(applicable: boolean, failed: boolean, mine: PickleRun[]): RuleStatus {
  const judged = mine.filter((x) => x.status !== 'not-applicable');
  if (!applicable) return 'not-applicable';
  if (failed) return 'failed';
  if (mine.length && !judged.length) return 'not-applicable';
  if (judged.some((x) => x.status !== 'passed')) return 'not-judged';
  if (judged.length) return 'passed';
  return 'skipped';
}

/** The run's counts: rule results by status, scenarios by outcome, SHOULD warnings. */
function totalsOf(variants: Summary['variants'], runs: PickleRun[]): Summary['totals'] {
  const totals: Summary['totals'] = {
    rules: { passed: 0, failed: 0, 'not-judged': 0, 'not-applicable': 0, skipped: 0 },
    scenarios: { passed: 0, failed: 0, notJudged: 0, notApplicable: 0, skipped: 0 },
    warnings: variants.reduce((n, v) => v.rules.reduce((m, r) => m + (r.warnings?.length ?? 0), n), 0),
  };
  for (const v of variants) for (const r of v.rules) totals.rules[r.status]++;
  for (const x of runs) {
    if (x.status === 'not-applicable') totals.scenarios.notApplicable++;
    else if (x.status === 'not-judged') totals.scenarios.notJudged++;
    else totals.scenarios[x.status]++;
  }
  return totals;
}

/** The distinct causes of a list, each once, with how many scenarios share it when more than one. */
function causes(texts: string[]): string {
  const counted = new Map<string, number>();
  for (const t of texts) counted.set(t, (counted.get(t) ?? 0) + 1);
  return [...counted].map(([t, n]) => (n > 1 && counted.size > 1 ? `${t} (${n} scenarios)` : t)).join('; ');
}

/**
 * A rule's verdict in words. Plain `pass` only when every one of its scenarios passed; a rule
 * that passed some and had others not applicable or not judged says how many and why, so that a
 * partly judged rule never reads as a plain pass.
 */
export function ruleVerdict(status: RuleStatus | string, counts: ScenarioCounts, reason: string | undefined, notJudged: Finding[], notApplicable: NotApplicableScenario[]): string {
  const total = counts.passed + counts.failed + counts.notApplicable + counts.notJudged;
  const parts: string[] = [];
  const naText = () => `${counts.notApplicable} not applicable: ${causes(notApplicable.map((x) => x.reason))}`;
  const njText = () => `${counts.notJudged} not judged: ${causes(notJudged.map((f) => (f.blockedBy && !f.message.startsWith('blocked by') ? `blocked by ${f.blockedBy}: ${f.message}` : f.message)))}`;
  if (status === 'not-applicable') return `not applicable${reason ? `: ${reason}` : ''}`;
  if (status === 'skipped') return 'not selected';
  if (status === 'passed') {
    if (counts.passed === total) return 'pass';
    parts.push(`${counts.passed} of ${total} scenarios`);
    if (counts.notJudged) parts.push(njText());
    if (counts.notApplicable) parts.push(naText());
    return `pass (${parts.join('; ')})`;
  }
  if (status === 'failed') {
    parts.push(`${counts.failed} of ${total} scenarios failed`);
    if (counts.passed) parts.push(`${counts.passed} passed`);
  } else {
    parts.push(`${counts.passed} of ${total} scenarios passed`);
  }
  if (counts.notJudged) parts.push(njText());
  if (counts.notApplicable) parts.push(naText());
  const word = status === 'failed' ? 'FAIL' : status === 'not-judged' ? 'not judged' : String(status);
  return `${word} (${parts.join('; ')})`;
}

/** A Cucumber Messages timestamp in seconds. */
function seconds(t: { seconds?: number; nanos?: number } | undefined): number | undefined {
  return t && typeof t.seconds === 'number' ? t.seconds + (t.nanos ?? 0) / 1e9 : undefined;
}

/** Text for an XML attribute (XML 1.0 allows no control characters there). */
function xmlEscape(text: string): string {
  // eslint-disable-next-line no-control-regex
  return String(text).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}

function ruleLevel(tags: string[]): string | undefined {
  return tags.map((t) => /^@level-(MUST|SHOULD)$/.exec(t)?.[1]).find(Boolean);
}

/** The evidence of a finding as a CI server can show it: one line per exchange (already redacted). */
function evidenceLines(evidence: unknown): string[] {
  const exchanges = (evidence as { exchanges?: unknown })?.exchanges;
  if (!Array.isArray(exchanges) || !exchanges.length) return [];
  const line = (ex: any) => {
    const outcome = ex?.response ? String(ex.response.status) : `no answer: ${ex?.error?.message ?? 'no response'}`;
    const id = ex?.interactionId?.received ?? ex?.interactionId?.sent ?? ex?.response?.headers?.['x-fapi-interaction-id'] ?? ex?.request?.headers?.['x-fapi-interaction-id'];
    return `  ${ex?.method ?? '?'} ${ex?.url ?? '?'} → ${outcome}${id ? ` [x-fapi-interaction-id ${id}]` : ''}`;
  };
  return ['evidence (every exchange in full in summary.json and report.html):', ...exchanges.map(line)];
}

/** A Cucumber Messages timestamp in milliseconds. */
function millis(t: { seconds?: number | string; nanos?: number } | undefined): number | undefined {
  if (!t) return undefined;
  return Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function notJudgedText(cause: CaseState['notJudged']): string {
  if (!cause) return 'not judged: the scenario was skipped before it could be judged';
  return cause.blockedBy ? `blocked by ${cause.blockedBy}: ${cause.message}` : cause.message;
}

/** The same warning from several scenarios of a rule (a shared answer) is listed once. */
function dedupe(warnings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.message.replace(/ \[x-fapi-interaction-id [^\]]+\]/, '')}\u0000${(w.problems ?? []).join('\n')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function ruleTag(tags: string[]): string | undefined {
  return ruleIdOf(tags);
}

function statusOf(r: CaseState): ScenarioStatus {
  // obtpp's own failure judges nothing: the rule is not judged, and the run exits 3.
  if (r.crash && !r.failure) return 'not-judged';
  if (r.worst === 'FAILED' || r.worst === 'UNDEFINED' || r.worst === 'AMBIGUOUS') return 'failed';
  if (r.notApplicable) return 'not-applicable';
  if (r.worst === 'PASSED') return 'passed';
  // A scenario that ran and was neither passed nor failed was not judged (cucumber's skipped or pending).
  return 'not-judged';
}
