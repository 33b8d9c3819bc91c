import type { Variant } from '../profile/types.ts';

export type RuleStatus = 'passed' | 'failed' | 'skipped' | 'not-applicable';

export interface Failure {
  scenario: string;
  step: string;
  message: string;
  evidence?: unknown;
}

export interface RuleResult {
  id: string;
  title: string;
  status: RuleStatus;
  scenarios: number;
  failures: Failure[];
}

export interface Summary {
  tool: { name: string; version: string };
  profile: string;
  startedAt: string;
  durationMs: number;
  verdict: 'pass' | 'fail';
  variants: Array<{ variant: Variant; rules: RuleResult[] }>;
  totals: {
    rules: Record<RuleStatus, number>;
    scenarios: { passed: number; failed: number; skipped: number; notApplicable: number };
  };
}

const EVIDENCE = 'application/vnd.obtpp.evidence+json';
const NOT_APPLICABLE = 'text/x.obtpp.not-applicable';

interface PickleRun {
  pickleId: string;
  status: 'passed' | 'failed' | 'skipped' | 'not-applicable';
  failure?: Failure;
}

/**
 * Builds summary.json from the Cucumber Messages of a run: rules come from the Gherkin documents
 * (one `Rule:` per rule, tagged with its id), verdicts from the test-step results, evidence from
 * the attachments the hooks made.
 */
export class SummaryBuilder {
  private readonly docs: any[] = [];
  private readonly pickles = new Map<string, any>();
  private readonly testCases = new Map<string, any>();
  private readonly started = new Map<string, { testCaseId: string }>();
  private readonly results = new Map<string, { worst: string; failure?: Failure; notApplicable?: boolean; evidence?: unknown }>();
  /** Called with each finished scenario (for progress). */
  onScenario?: (info: { variant: Variant; rule: string; name: string; status: PickleRun['status']; message?: string }) => void;

  add(envelope: any): void {
    if (envelope.gherkinDocument) this.docs.push(envelope.gherkinDocument);
    else if (envelope.pickle) this.pickles.set(envelope.pickle.id, envelope.pickle);
    else if (envelope.testCase) this.testCases.set(envelope.testCase.id, envelope.testCase);
    else if (envelope.testCaseStarted) {
      this.started.set(envelope.testCaseStarted.id, { testCaseId: envelope.testCaseStarted.testCaseId });
      this.results.set(envelope.testCaseStarted.id, { worst: 'PASSED' });
    } else if (envelope.testStepFinished) this.stepFinished(envelope.testStepFinished);
    else if (envelope.attachment) this.attachment(envelope.attachment);
    else if (envelope.testCaseFinished) this.caseFinished(envelope.testCaseFinished);
  }

  private stepFinished(f: any): void {
    const r = this.results.get(f.testCaseStartedId);
    if (!r) return;
    const status: string = f.testStepResult.status;
    const rank = (s: string) => ['PASSED', 'SKIPPED', 'PENDING', 'UNKNOWN', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'].indexOf(s);
    if (rank(status) > rank(r.worst)) r.worst = status;
    if ((status === 'FAILED' || status === 'UNDEFINED' || status === 'AMBIGUOUS') && !r.failure) {
      const testCase = this.testCases.get(this.started.get(f.testCaseStartedId)!.testCaseId);
      const pickle = this.pickles.get(testCase.pickleId);
      const testStep = testCase.testSteps.find((s: any) => s.id === f.testStepId);
      const pickleStep = pickle.steps.find((s: any) => s.id === testStep?.pickleStepId);
      const message = (f.testStepResult.message ?? f.testStepResult.exception?.message ?? status.toLowerCase())
        .split('\n').filter((l: string) => !/^\s+at /.test(l)).join('\n').replace(/^(RuleViolation|Error): /, '').trim();
      r.failure = {
        scenario: pickle.name,
        step: pickleStep ? pickleStep.text : testStep?.hookId ? '(hook)' : '(unknown step)',
        message: status === 'UNDEFINED' ? `step not implemented: ${pickleStep?.text}` : message,
      };
    }
  }

  private attachment(a: any): void {
    const r = this.results.get(a.testCaseStartedId);
    if (!r) return;
    if (a.mediaType === NOT_APPLICABLE) r.notApplicable = true;
    if (a.mediaType === EVIDENCE) {
      try {
        r.evidence = JSON.parse(a.body);
      } catch {
        r.evidence = a.body;
      }
    }
  }

  private caseFinished(f: any): void {
    const r = this.results.get(f.testCaseStartedId);
    const testCase = this.testCases.get(this.started.get(f.testCaseStartedId)?.testCaseId ?? '');
    if (!r || !testCase) return;
    if (r.failure && r.evidence) r.failure.evidence = r.evidence;
    const pickle = this.pickles.get(testCase.pickleId);
    const tags: string[] = pickle.tags.map((t: any) => t.name);
    this.onScenario?.({
      variant: tags.includes('@variant-B') ? 'B' : 'A',
      rule: ruleTag(tags) ?? '?',
      name: pickle.name,
      status: statusOf(r),
      message: r.failure?.message,
    });
  }

  build(meta: { version: string; profile: string; startedAt: Date; variants: Variant[] }): Summary {
    const runs: Array<PickleRun & { tags: string[] }> = [];
    for (const [startedId, r] of this.results) {
      const testCase = this.testCases.get(this.started.get(startedId)!.testCaseId);
      const pickle = this.pickles.get(testCase.pickleId);
      runs.push({ pickleId: pickle.id, status: statusOf(r), failure: r.failure, tags: pickle.tags.map((t: any) => t.name) });
    }
    const variants = meta.variants.map((variant) => {
      const rules = this.rulesOf(variant).map(({ id, title, applicable }): RuleResult => {
        const mine = runs.filter((x) => x.tags.includes(`@variant-${variant}`) && x.tags.includes(`@${id}`));
        const failures = mine.filter((x) => x.status === 'failed').map((x) => x.failure!).filter(Boolean);
        let status: RuleStatus;
        if (!applicable) status = 'not-applicable';
        else if (failures.length) status = 'failed';
        else if (mine.some((x) => x.status === 'passed')) status = 'passed';
        else if (mine.length && mine.every((x) => x.status === 'not-applicable')) status = 'not-applicable';
        else status = 'skipped';
        return { id, title, status, scenarios: mine.length, failures };
      });
      return { variant, rules };
    });
    const totals: Summary['totals'] = {
      rules: { passed: 0, failed: 0, skipped: 0, 'not-applicable': 0 },
      scenarios: { passed: 0, failed: 0, skipped: 0, notApplicable: 0 },
    };
    for (const v of variants) for (const r of v.rules) totals.rules[r.status]++;
    for (const x of runs) {
      if (x.status === 'not-applicable') totals.scenarios.notApplicable++;
      else totals.scenarios[x.status]++;
    }
    return {
      tool: { name: 'obtpp', version: meta.version },
      profile: meta.profile,
      startedAt: meta.startedAt.toISOString(),
      durationMs: Date.now() - meta.startedAt.getTime(),
      verdict: totals.rules.failed > 0 ? 'fail' : 'pass',
      variants,
      totals,
    };
  }

  /** Every rule of the features instantiated for a variant, and whether any scenario applies there. */
  private rulesOf(variant: Variant): Array<{ id: string; title: string; applicable: boolean }> {
    const out: Array<{ id: string; title: string; applicable: boolean }> = [];
    for (const doc of this.docs) {
      const feature = doc.feature;
      if (!feature || !feature.tags.some((t: any) => t.name === `@variant-${variant}`)) continue;
      for (const child of feature.children) {
        const rule = child.rule;
        if (!rule) continue;
        const id = ruleTag(rule.tags.map((t: any) => t.name));
        if (!id) continue;
        const applicable = rule.children.some((c: any) => c.scenario?.tags.some((t: any) => t.name === `@${variant}`));
        const title = rule.name.replace(/^[A-Z]{3}-\d{2}\s*[—–-]\s*/, '');
        out.push({ id, title, applicable });
      }
    }
    return out.sort((a, b) => a.id.localeCompare(b.id));
  }
}

function ruleTag(tags: string[]): string | undefined {
  return tags.map((t) => /^@((?:AIS|COF|PIS|SEC)-\d{2})$/.exec(t)?.[1]).find(Boolean);
}

function statusOf(r: { worst: string; notApplicable?: boolean }): PickleRun['status'] {
  if (r.worst === 'FAILED' || r.worst === 'UNDEFINED' || r.worst === 'AMBIGUOUS') return 'failed';
  if (r.notApplicable) return 'not-applicable';
  if (r.worst === 'PASSED') return 'passed';
  return 'skipped';
}
