// The embedded sandbox passes `obtpp conform` through the real binary, and every sandbox fault is
// caught by the rule it breaks, each in its own conformance run (runConformance, the function the
// binary calls, several runs per worker process: test/conformance/fault-runs.ts). These runs use
// real sockets, the real sandbox and real Chromium.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFaults, type FaultOutcome, type FaultRow } from './fault-runs.ts';
import { obtpp, root } from '../helpers/obtpp.ts';

/**
 * Rules judged only where the bank runs a FAPI security profile (SEC-14; SEC-16 … SEC-24, the
 * OpenID Foundation's FAPI modules) or binds tokens by DPoP (SEC-15).
 */
const SECURITY_PROFILE_RULES = ['SEC-14', 'SEC-15', 'SEC-16', 'SEC-17', 'SEC-18', 'SEC-19', 'SEC-20', 'SEC-21', 'SEC-22', 'SEC-23', 'SEC-24'];

/** The rule catalogue: id → variants it applies to (from docs/rules.md). */
async function catalogue(): Promise<Map<string, string[]>> {
  const text = await readFile(join(root, 'docs', 'rules.md'), 'utf8');
  const rules = new Map<string, string[]>();
  for (const m of text.matchAll(/^\| ((?:AIS|COF|PIS|SEC|DCR)-\d\d) \| .*? \| (.*?) \|$/gm)) rules.set(m[1]!, m[2]!.includes('B') ? ['A', 'B'] : ['A']);
  return rules;
}

test('obtpp conform certifies the embedded sandbox: both variants, exit 0, every rule covered, reports written', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-conform-'));
  try {
    const run = await obtpp(['conform', '--report-dir', dir, '--json']);
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    const failures = summary.variants.flatMap((v: any) => v.rules.filter((r: any) => r.status === 'failed').map((r: any) => `${v.variant} ${r.id}: ${r.failures[0]?.message}`));
    assert.deepEqual(failures, [], 'no rule may fail against the reference bank');
    assert.equal(run.code, 0, run.stderr);
    const unjudged = summary.variants.flatMap((v: any) => v.rules.flatMap((r: any) => (r.notJudged ?? []).map((f: any) => `${v.variant} ${r.id} ${f.scenario}: ${f.message}`)));
    assert.equal(summary.verdict, 'pass', `not judged:\n${unjudged.join('\n')}`);
    assert.deepEqual(JSON.parse(run.stdout), summary, '--json prints summary.json');
    for (const [id, variants] of await catalogue()) {
      for (const v of ['A', 'B']) {
        const rule = summary.variants.find((x: any) => x.variant === v).rules.find((r: any) => r.id === id);
        assert.ok(rule, `rule ${id} is encoded for variant ${v}`);
        // The security profiles' own rules are judged under a FAPI profile (test/conformance/security-profiles.test.ts); the default sandbox runs none.
        if (SECURITY_PROFILE_RULES.includes(id)) assert.equal(rule.status, 'not-applicable', `${v} ${id}`);
        else if (variants.includes(v) && !(id === 'AIS-10' && v === 'B')) assert.equal(rule.status, 'passed', `${v} ${id}`);
        else if (!variants.includes(v)) assert.equal(rule.status, 'not-applicable', `${v} ${id}`);
      }
    }
    // The rules of UK Read/Write v3.1.11's layout (@uk-3.1 features) are not this run's: not listed, as no berlin-group rule is.
    assert.deepEqual(summary.variants.flatMap((v: any) => v.rules.filter((r: any) => /^(UK[A-Z]+|VRP)-/.test(r.id)).map((r: any) => r.id)), []);
    for (const file of ['junit.xml', 'report.html', 'messages.ndjson']) assert.ok((await stat(join(dir, file))).size > 0, file);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuite[^>]+tests="\d+"/);
    assert.match(junit, /failures="0"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** One bank's faults: where the list comes from and the run that must catch each fault. */
interface FaultSuite {
  /** The test's name says which bank. */
  bank: string;
  /** Printed before each fault's name. */
  label: string;
  /** The `obtpp` command that lists the bank's faults as JSON. */
  list: string[];
  /** At least this many rule faults (the issues' count). */
  minimum: number;
  /** The run for one fault: only it switched on, scoped to the scenarios of its rule (its tag). */
  options: (fault: { name: string; rule: string; standard?: 'uk-3.1' | 'uk-4.0'; sca?: string[]; signatures?: boolean; security?: string }) => FaultRow['options'];
}

/**
 * The rules whose faults only a scenario that waits out the bank's clock (@waits) can catch: an
 * expired consent used (AIS-08, COF-06). Every other fault's run leaves those scenarios out — the
 * FAPI 2.0 expiries of SEC-20 and SEC-22 wait 60 seconds each, and no fault of theirs is an
 * expiry; a clean run judges those scenarios (oidf-runs.test.ts).
 */
const RULES_CAUGHT_AFTER_A_WAIT = new Set(['AIS-08', 'COF-06']);
const ruleTags = (rule: string) => (RULES_CAUGHT_AFTER_A_WAIT.has(rule) ? `@${rule}` : `@${rule} and not @waits`);
/**
 * The rules whose runs wait out a consent's clock, mostly idle: AIS-08 and COF-06 (an expired
 * consent used) and VRP-05 (a payment after the consent's ValidToDateTime, which the run waits for).
 * Their runs go to a lane of their own beside the two that compute (fault-runs.ts).
 */
const RULES_THAT_WAIT = new Set([...RULES_CAUGHT_AFTER_A_WAIT, 'VRP-05']);

// Each fault's run is scoped to the scenarios of the rule it breaks (its tag): a scenario brings
// its own set-ups (consents, authorisations) through its Given steps, so nothing else need run.
// The full clean run above proves the other rules pass; here only detection is in question.
// Chaos faults break no rule of the spec (the bank misbehaves below it): test/conformance/chaos.test.ts
// judges those. Data faults break nothing (test/conformance/verdicts.test.ts judges those).
// A bank's faults are one row here.
const FAULT_SUITES: FaultSuite[] = [
  {
    bank: 'sandbox',
    label: '',
    list: ['sandbox', '--list-faults', '--json'],
    minimum: 24,
    // A rule of a published standard's operations (UKAIS-, UKCOF-, UKPIS-, VRP-) is judged in a run of that standard's layout.
    options: (f) => {
      const standard = f.standard ?? (/^(UK|VRP-)/.test(f.rule) ? 'uk-3.1' as const : undefined);
      // A fault of a security profile's flow runs against the sandbox set-up it bends (--security).
      return { ...(standard ? { standard } : { variant: 'A' as const }), parallel: 1, sandboxFaults: [f.name], tags: ruleTags(f.rule), ...(f.security ? { sandboxSecurity: f.security } : {}) };
    },
  },
  {
    // The Berlin Group bank: each fault caught by its rule in a berlin-group run scoped to that rule.
    bank: 'berlin-group sandbox',
    label: 'berlin-group ',
    list: ['sandbox', '--dialect', 'berlin-group', '--list-faults', '--json'],
    minimum: 20,
    // A fault of the decoupled or embedded SCA shows only where the bank offers that approach; one of message signing only in a bank that signs.
    options: (f) => ({ dialect: 'berlin-group', variant: 'A', parallel: 1, sandboxFaults: [f.name], tags: ruleTags(f.rule), ...(f.sca ? { sandboxSca: f.sca } : {}), ...(f.signatures ? { sandboxSignatures: true } : {}) }),
  },
];

/** Every suite's rule faults, each with its run. */
async function faultRows(suite: FaultSuite): Promise<FaultRow[]> {
  const list = await obtpp(suite.list);
  assert.equal(list.code, 0, list.stderr);
  const faults: Array<{ name: string; rule: string; level?: 'SHOULD'; kind?: string; standard?: 'uk-3.1' | 'uk-4.0'; sca?: string[]; signatures?: boolean; security?: string }> = JSON.parse(list.stdout).filter((f: { kind?: string }) => f.kind === 'rule');
  assert.ok(faults.length >= suite.minimum, `at least the ${suite.minimum} faults of the issues, got ${faults.length}`);
  return faults.map((f) => ({ label: suite.label, name: f.name, rule: f.rule, ...(f.level ? { level: f.level } : {}), ...(RULES_THAT_WAIT.has(f.rule) ? { waits: true } : {}), options: suite.options(f) }));
}

describe('every sandbox fault makes the conformance run exit 1 with the fault\'s rule failed', () => {
  // All suites' runs go through one pool: two worker processes (the machine has two cores), each
  // running one fault's conformance run at a time in-process, every run with its own sandbox; the
  // runs that wait out a clock in one more, beside them.
  let outcomes: Promise<Map<FaultSuite, FaultOutcome[]>> | undefined;
  const all = () => (outcomes ??= (async () => {
    const rows = new Map<FaultSuite, FaultRow[]>();
    for (const suite of FAULT_SUITES) rows.set(suite, await faultRows(suite));
    const done = await checkFaults([...rows.values()].flat(), 2, (o) => process.stdout.write(`${o.line}\n`));
    return new Map([...rows].map(([suite, list]) => [suite, done.filter((o) => list.includes(o.row))]));
  })());

  for (const suite of FAULT_SUITES) {
    test(`${suite.bank}: each fault is caught by its own rule in a run scoped to that rule`, async () => {
      const mine = (await all()).get(suite)!;
      const missed = mine.flatMap((o) => o.problems);
      process.stdout.write(`# ${suite.label}sandbox faults detected: ${mine.filter((o) => o.caught).length} of ${mine.length}\n`);
      assert.deepEqual(missed, []);
    });
  }
});
