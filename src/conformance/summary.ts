import type { Variant } from '../profile/types.ts';
import { ruleIdOf } from './rule-id.ts';

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
}

export interface Summary {
  tool: { name: string; version: string };
  profile: string;
  startedAt: string;
  durationMs: number;
  /** `incomplete`: no rule failed, but some rule could not be judged. */
  verdict: 'pass' | 'fail' | 'incomplete' | 'interrupted';
  variants: Array<{ variant: Variant; rules: RuleResult[] }>;
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
  pickleId: string;
  name: string;
  status: ScenarioStatus;
  notApplicable?: string;
  failure?: Finding;
  notJudged?: Finding;
  warnings: Finding[];
}

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
}

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
  private readonly started = new Map<string, { testCaseId: string }>();
  private readonly results = new Map<string, CaseState>();
  /** Called with each finished scenario (for progress). */
  onScenario?: (info: { variant: Variant; rule: string; name: string; status: ScenarioStatus; message?: string; blockedBy?: string }) => void;

  add(envelope: any): void {
    if (envelope.gherkinDocument) this.docs.push(envelope.gherkinDocument);
    else if (envelope.pickle) this.pickles.set(envelope.pickle.id, envelope.pickle);
    else if (envelope.testCase) this.testCases.set(envelope.testCase.id, envelope.testCase);
    else if (envelope.testCaseStarted) {
      this.started.set(envelope.testCaseStarted.id, { testCaseId: envelope.testCaseStarted.testCaseId });
      this.results.set(envelope.testCaseStarted.id, { worst: 'PASSED', warnings: [] });
    } else if (envelope.testStepFinished) this.stepFinished(envelope.testStepFinished);
    else if (envelope.attachment) this.attachment(envelope.attachment);
    else if (envelope.testCaseFinished) this.caseFinished(envelope.testCaseFinished);
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
    const rank = (s: string) => ['PASSED', 'SKIPPED', 'PENDING', 'UNKNOWN', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'].indexOf(s);
    if (rank(status) > rank(r.worst)) r.worst = status;
    const step = this.stepOf(f.testCaseStartedId, f.testStepId);
    if (status === 'SKIPPED' && !r.firstSkippedStep) r.firstSkippedStep = step?.text;
    if ((status === 'FAILED' || status === 'UNDEFINED' || status === 'AMBIGUOUS') && !r.failure && step) {
      const message = (f.testStepResult.message ?? f.testStepResult.exception?.message ?? status.toLowerCase())
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
    else if (a.mediaType === NOT_JUDGED) {
      const cause = parse(a.body) as { message?: string; blockedBy?: string } | string;
      r.notJudged = typeof cause === 'string'
        ? { message: cause }
        : { message: String(cause?.message ?? 'not judged'), blockedBy: cause?.blockedBy, step: this.stepOf(a.testCaseStartedId, a.testStepId)?.text };
    } else if (a.mediaType === PROBLEMS) {
      const p = parse(a.body) as { summary?: string; problems?: unknown };
      if (p && typeof p === 'object' && Array.isArray(p.problems)) r.problems = { summary: p.summary, problems: p.problems.map(String) };
    } else if (a.mediaType === WARNING) {
      const w = parse(a.body) as { level?: Level; source?: string; message?: string; problems?: unknown };
      const step = this.stepOf(a.testCaseStartedId, a.testStepId);
      if (w && typeof w === 'object') {
        r.warnings.push({
          scenario: step?.pickle?.name ?? '',
          step: step?.text ?? '(unknown step)',
          message: String(w.message ?? 'warning'),
          level: w.level ?? 'SHOULD',
          ...(w.source ? { source: w.source } : {}),
          problems: Array.isArray(w.problems) ? w.problems.map(String) : [],
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
  build(meta: { version: string; profile: string; startedAt: Date; variants: Variant[]; dialect?: string; standard?: string }): Summary {
    const runs: Array<PickleRun & { tags: string[] }> = [];
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
      runs.push({ pickleId: pickle.id, name: pickle.name, status, ...(status === 'not-applicable' ? { notApplicable: r.notApplicable } : {}), failure: r.failure, notJudged, warnings: r.warnings, tags: pickle.tags.map((t: any) => t.name) });
    }
    let warningCount = 0;
    const variants = meta.variants.map((variant) => {
      const rules = this.rulesOf(variant, meta.dialect ?? 'obie', meta.standard).map(({ id, title, applicable, otherDialect, otherStandard, level, source }): RuleResult => {
        const mine = runs.filter((x) => x.tags.includes(`@variant-${variant}`) && x.tags.includes(`@${id}`));
        const stamp = (f: Finding): Finding => ({ ...f, ...(level && !f.level ? { level } : {}), ...(source && !f.source ? { source } : {}) });
        const failures = mine.filter((x) => x.status === 'failed').map((x) => x.failure!).filter(Boolean).map(stamp);
        const notJudged = mine.map((x) => x.notJudged).filter((x): x is Finding => Boolean(x)).map(stamp);
        const warnings = dedupe(mine.flatMap((x) => x.warnings));
        warningCount += warnings.length;
        const judged = mine.filter((x) => x.status !== 'not-applicable');
        let status: RuleStatus;
        if (!applicable) status = 'not-applicable';
        else if (failures.length) status = 'failed';
        else if (mine.length && !judged.length) status = 'not-applicable';
        else if (judged.some((x) => x.status !== 'passed')) status = 'not-judged';
        else if (judged.length) status = 'passed';
        else status = 'skipped';
        const reason = status !== 'not-applicable' ? undefined
          : otherDialect ? `not part of the ${meta.dialect ?? 'obie'} dialect (a rule of ${otherDialect} only)`
          : otherStandard ? `not part of the spec's layout: judged for a bank that serves ${otherStandard} (a profile with standard: ${otherStandard.split(' or ')[0]}, or obtpp conform --standard ${otherStandard.split(' or ')[0]})`
          : !applicable ? `not part of variant ${variant}`
          : [...new Set(mine.map((x) => x.notApplicable).filter(Boolean))].join('; ') || 'not applicable';
        const counts: ScenarioCounts = {
          passed: mine.filter((x) => x.status === 'passed').length,
          failed: mine.filter((x) => x.status === 'failed').length,
          notApplicable: mine.filter((x) => x.status === 'not-applicable').length,
          notJudged: mine.filter((x) => x.status === 'not-judged' || x.status === 'skipped').length,
        };
        const notApplicable = mine.filter((x) => x.status === 'not-applicable').map((x) => ({ scenario: x.name, reason: x.notApplicable ?? 'not applicable' }));
        return {
          id, title, ...(level ? { level } : {}), ...(source ? { source } : {}), status,
          verdict: ruleVerdict(status, counts, reason, notJudged, notApplicable),
          scenarios: mine.length, counts, failures,
          ...(reason ? { reason } : {}),
          ...(warnings.length ? { warnings } : {}),
          ...(notJudged.length ? { notJudged } : {}),
          ...(notApplicable.length ? { notApplicable } : {}),
        };
      });
      return { variant, rules };
    });
    const totals: Summary['totals'] = {
      rules: { passed: 0, failed: 0, 'not-judged': 0, 'not-applicable': 0, skipped: 0 },
      scenarios: { passed: 0, failed: 0, notJudged: 0, notApplicable: 0, skipped: 0 },
      warnings: warningCount,
    };
    for (const v of variants) for (const r of v.rules) totals.rules[r.status]++;
    for (const x of runs) {
      if (x.status === 'not-applicable') totals.scenarios.notApplicable++;
      else if (x.status === 'not-judged') totals.scenarios.notJudged++;
      else totals.scenarios[x.status]++;
    }
    return {
      tool: { name: 'obtpp', version: meta.version },
      profile: meta.profile,
      startedAt: meta.startedAt.toISOString(),
      durationMs: Date.now() - meta.startedAt.getTime(),
      verdict: totals.rules.failed > 0 ? 'fail' : totals.rules['not-judged'] > 0 ? 'incomplete' : 'pass',
      variants,
      totals,
    };
  }

  /**
   * Why each scenario that neither passed nor failed was skipped (not applicable, or not judged and
   * blocked by what), keyed as cucumber's JUnit report names its test cases: the feature's name and
   * `<rule name> - <scenario name>`, joined by a NUL.
   */
  skippedCauses(): Map<string, string> {
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
    const causes = new Map<string, string>();
    for (const [startedId, r] of this.results) {
      const testCase = this.testCases.get(this.started.get(startedId)?.testCaseId ?? '');
      const pickle = testCase && this.pickles.get(testCase.pickleId);
      if (!pickle) continue;
      const status = statusOf(r);
      if (status !== 'not-applicable' && status !== 'not-judged') continue;
      const at = where.get(pickle.astNodeIds?.[0]);
      if (!at) continue;
      const row = rows.get(pickle.astNodeIds?.[1]);
      const scenarioName = at.scenario || pickle.name;
      const name = [at.rule, scenarioName, row?.examples, row ? (scenarioName !== pickle.name ? `${row.number}: ${pickle.name}` : row.number) : undefined]
        .filter(Boolean).join(' - ');
      causes.set(`${at.feature}\u0000${name}`, status === 'not-applicable' ? `not applicable: ${r.notApplicable}` : `not judged: ${notJudgedText(r.notJudged)}`);
    }
    return causes;
  }

  /**
   * Every rule of the features instantiated for a variant, whether any scenario applies there, and
   * its level and source. A rule id with scenarios in several dialects is one rule, described in the
   * run's dialect's words; a rule with none in the run's dialect names the dialect it belongs to.
   */
  private rulesOf(variant: Variant, dialect: string, standard?: string): Array<{ id: string; title: string; applicable: boolean; otherDialect?: string; otherStandard?: string; level?: Level; source?: string }> {
    type Row = { id: string; title: string; applicable: boolean; otherDialect?: string; otherStandard?: string; level?: Level; source?: string };
    const byId = new Map<string, Row>();
    for (const doc of this.docs) {
      const feature = doc.feature;
      if (!feature || !feature.tags.some((t: any) => t.name === `@variant-${variant}`)) continue;
      const docDialect = feature.tags.map((t: any) => /^@dialect-(.+)$/.exec(t.name)?.[1]).find(Boolean) ?? 'obie';
      const mine = docDialect === dialect;
      // A feature of a published standard's operations (@uk-3.1) is judged only for a bank that serves it.
      const docStandards: string[] = feature.tags.map((t: any) => /^@(uk-\d+\.\d+)$/.exec(t.name)?.[1]).filter(Boolean);
      const otherStandard = docStandards.length && !docStandards.includes(standard ?? '') ? docStandards.join(' or ') : undefined;
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
        const row: Row = {
          id, title, applicable: mine && applicable && !otherStandard, ...(mine ? {} : { otherDialect: docDialect }), ...(mine && otherStandard ? { otherStandard } : {}),
          ...(level ? { level } : {}), ...(source ? { source } : {}),
        };
        const known = byId.get(id);
        // The run's dialect's own rule wins; another dialect's stands in only where the run's has none.
        if (!known || (mine && known.otherDialect)) byId.set(id, row);
      }
    }
    return [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  }
}

/** The reason of a rule that belongs to another dialect, or to a published standard the run does not judge. */
export const FOREIGN_RULE_REASON = /^not part of the (\S+ dialect|spec's layout)\b/;

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
  if (r.worst === 'FAILED' || r.worst === 'UNDEFINED' || r.worst === 'AMBIGUOUS') return 'failed';
  if (r.notApplicable) return 'not-applicable';
  if (r.worst === 'PASSED') return 'passed';
  // A scenario that ran and was neither passed nor failed was not judged (cucumber's skipped or pending).
  return 'not-judged';
}
