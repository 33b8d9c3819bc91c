// Waivers: expected failures with an owner and an expiry. The pure part works on the summary of a
// real run with a sandbox fault; the CLI part runs `obtpp conform --waivers` for real.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { applyWaivers, loadWaivers, waiverLines, exitCodeWithWaivers, type Waiver } from '../../src/conformance/waivers.ts';
import { obtpp, show, workDir } from './helpers.ts';

const FAULT = 'funds-balance-disclosed';
let work: string;
let faultRun: any;
let cleanRun: any;

before(async () => {
  work = await workDir('waivers');
  const [f, c] = await Promise.all([
    obtpp(['conform', '--tags', '@COF-04', '--sandbox-fault', FAULT, '--report-dir', join(work, 'fault')]),
    obtpp(['conform', '--tags', '@COF-04', '--report-dir', join(work, 'clean')]),
  ]);
  assert.equal(f.code, 1, show(f));
  assert.equal(c.code, 0, show(c));
  faultRun = JSON.parse(await readFile(join(work, 'fault', 'summary.json'), 'utf8'));
  cleanRun = JSON.parse(await readFile(join(work, 'clean', 'summary.json'), 'utf8'));
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

const now = new Date('2026-06-15T12:00:00Z');
const waiver = (w: Partial<Waiver> = {}): Waiver => ({ rule: 'COF-04', reason: 'balance leak fixed in release 42', owner: 'payments-team', expires: '2026-06-30', ...w });
const rule = (s: any, variant: string, id: string) => s.variants.find((v: any) => v.variant === variant).rules.find((r: any) => r.id === id);

test('a waived failure is marked waived, keeps its evidence, and the verdict passes', () => {
  const out = applyWaivers(faultRun, [waiver()], now);
  assert.equal(faultRun.verdict, 'fail', 'the input is not changed');
  assert.equal(out.verdict, 'pass');
  for (const v of ['A', 'B']) {
    const r = rule(out, v, 'COF-04');
    assert.equal(r.status, 'waived');
    assert.equal(r.failures.length, rule(faultRun, v, 'COF-04').failures.length);
    assert.ok(r.failures[0].evidence, 'the evidence stays');
    assert.deepEqual(r.failures[0].waived, { reason: 'balance leak fixed in release 42', owner: 'payments-team', expires: '2026-06-30' });
  }
  assert.equal(out.totals.rules.failed, 0);
  assert.equal(out.totals.rules.waived, 2);
  assert.equal(exitCodeWithWaivers(1, out, out.waivers), 0);
  assert.deepEqual(waiverLines(out.waivers).errors, []);
  assert.equal(waiverLines(out.waivers).notes.length, 2);
});

test('a waiver for one variant, or for another scenario, leaves the rest failing', () => {
  const onlyA = applyWaivers(faultRun, [waiver({ variant: 'A' })], now);
  assert.equal(rule(onlyA, 'A', 'COF-04').status, 'waived');
  assert.equal(rule(onlyA, 'B', 'COF-04').status, 'failed');
  assert.equal(onlyA.verdict, 'fail');
  assert.equal(exitCodeWithWaivers(1, onlyA, onlyA.waivers), 1);

  const scenario = rule(faultRun, 'A', 'COF-04').failures[0].scenario;
  assert.equal(applyWaivers(faultRun, [waiver({ scenario })], now).verdict, 'pass');
  const other = applyWaivers(faultRun, [waiver({ scenario: 'some other scenario' })], now);
  assert.equal(other.verdict, 'fail');
  assert.equal(rule(other, 'A', 'COF-04').failures[0].waived, undefined);
});

test('an expired waiver is not applied and fails the run, named', () => {
  const out = applyWaivers(faultRun, [waiver({ expires: '2026-06-14' })], now);
  assert.equal(out.verdict, 'fail');
  assert.equal(rule(out, 'A', 'COF-04').status, 'failed');
  assert.deepEqual(out.waivers.expired.map((w) => w.expires), ['2026-06-14']);
  const lines = waiverLines(out.waivers);
  assert.deepEqual(lines.errors, ['waiver expired: COF-04 (owner payments-team, expired after 2026-06-14): balance leak fixed in release 42 — renew or remove it']);
  // Expiring today still holds; on a passing run an expired waiver still fails the gate.
  assert.equal(applyWaivers(faultRun, [waiver({ expires: '2026-06-15' })], now).verdict, 'pass');
  const passing = applyWaivers(cleanRun, [waiver({ expires: '2026-01-01' })], now);
  assert.equal(passing.verdict, 'pass');
  assert.equal(exitCodeWithWaivers(0, passing, passing.waivers), 1);
});

test('a waived rule that now passes warns that the waiver can go (fails with strict)', () => {
  const out = applyWaivers(cleanRun, [waiver()], now);
  assert.equal(out.verdict, 'pass');
  assert.deepEqual(out.waivers.canGo.map((c) => c.variants), [['A', 'B']]);
  const lines = waiverLines(out.waivers);
  assert.deepEqual(lines.warnings, ['waiver can go: COF-04 now passes in variant A and B (owner payments-team): remove it from the waiver file']);
  assert.equal(exitCodeWithWaivers(0, out, out.waivers), 0);
  assert.equal(exitCodeWithWaivers(0, out, out.waivers, true), 1);
  assert.equal(waiverLines(out.waivers, true).errors.length, 1);
  // A waiver for a rule that did not run says nothing.
  assert.deepEqual(applyWaivers(cleanRun, [waiver({ rule: 'AIS-04' })], now).waivers.canGo, []);
  // Exit codes that are not verdicts stand.
  assert.equal(exitCodeWithWaivers(3, out, out.waivers, true), 3);
});

test('a waiver file is validated like a profile: one line per problem, with its JSON path', async () => {
  const good = join(work, 'good.yaml');
  await writeFile(good, stringify([{ rule: 'COF-04', variant: 'A', reason: 'r', owner: 'o', expires: '2026-12-31' }]));
  assert.deepEqual(await loadWaivers(good), [{ rule: 'COF-04', variant: 'A', reason: 'r', owner: 'o', expires: '2026-12-31' }]);
  const wrapped = join(work, 'wrapped.json');
  await writeFile(wrapped, JSON.stringify({ waivers: [{ rule: 'AIS-04', reason: 'r', owner: 'o', expires: '2027-01-01' }] }));
  assert.equal((await loadWaivers(wrapped)).length, 1);

  const bad = join(work, 'bad.yaml');
  await writeFile(bad, 'waivers:\n  - rule: cof4\n    variant: C\n    owner: ""\n    expires: 31/12/2026\n    colour: red\n  - rule: AIS-04\n    reason: r\n    owner: o\n    expires: 2026-02-30\n');
  await assert.rejects(loadWaivers(bad), (error: any) => {
    assert.equal(error.exitCode, 2);
    assert.equal(error.code, 'waivers_invalid');
    const lines = error.message.split('\n');
    for (const expected of [
      `waivers ${bad}: $.waivers[0].reason: is required but missing`,
      `waivers ${bad}: $.waivers[0].colour: unknown field (not allowed here)`,
      `waivers ${bad}: $.waivers[0].rule: expected a rule id such as AIS-04`,
      `waivers ${bad}: $.waivers[0].variant: expected one of "A", "B"`,
      `waivers ${bad}: $.waivers[0].owner: expected a non-empty string`,
      `waivers ${bad}: $.waivers[0].expires: expected a date YYYY-MM-DD`,
    ]) assert.ok(lines.includes(expected), `${expected}\nin:\n${error.message}`);
    return true;
  });
  const badDate = join(work, 'bad-date.yaml');
  await writeFile(badDate, stringify([{ rule: 'AIS-04', reason: 'r', owner: 'o', expires: '2026-02-30' }]));
  await assert.rejects(loadWaivers(badDate), (e: Error) => e.message === `waivers ${badDate}: $[0].expires: expected a real date YYYY-MM-DD, not 2026-02-30`);
  await assert.rejects(loadWaivers(join(work, 'none.yaml')), (e: Error) => /^waivers .*none\.yaml: cannot be read \(ENOENT\)$/.test(e.message));
});
