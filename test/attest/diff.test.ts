// What changed: a clean run and a run with one sandbox fault (same scenarios) differ by exactly the
// fault's rule, newly failing in both variants; `obtpp diff` says so and exits 1, and 0 the other way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { diffSummaries } from '../../src/conformance/diff.ts';
import { obtpp, show, workDir } from './helpers.ts';

const TAGS = '@cof and not @waits';
let work: string;
let clean: string;
let fault: string;

before(async () => {
  work = await workDir('diff');
  clean = join(work, 'clean');
  fault = join(work, 'fault');
  const [a, b] = await Promise.all([
    obtpp(['conform', '--tags', TAGS, '--report-dir', clean]),
    obtpp(['conform', '--tags', TAGS, '--sandbox-fault', 'funds-balance-disclosed', '--report-dir', fault]),
  ]);
  assert.equal(a.code, 0, show(a));
  assert.equal(b.code, 1, show(b));
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

test('diff between a clean run and a run with a sandbox fault names exactly the fault\'s rule as newly failing', async () => {
  const r = await obtpp(['diff', clean, fault, '--json']);
  assert.equal(r.code, 1, show(r));
  const d = JSON.parse(r.stdout);
  assert.equal(d.regressed, true);
  assert.deepEqual(d.variants.map((v: any) => [v.variant, v.newlyFailing.map((c: any) => `${c.id} ${c.from}→${c.to}`)]), [['A', ['COF-04 passed→failed']], ['B', ['COF-04 passed→failed']]]);
  for (const v of d.variants) {
    assert.deepEqual([v.fixed, v.newlyNotJudged, v.other], [[], [], []], `nothing else changed in ${v.variant}`);
  }

  const text = await obtpp(['diff', clean, fault]);
  assert.equal(text.code, 1, show(text));
  const changed = text.stdout.split('\n').filter((l) => /^\s+\[[AB]\]/.test(l));
  assert.equal(changed.length, 2, text.stdout);
  assert.ok(changed.every((l) => /newly failing\s+COF-04\s+passed → failed/.test(l)), text.stdout);
  assert.match(text.stdout, /^REGRESSED: 2 rule result\(s\) newly failing, 0 newly not judged$/m);

  const back = await obtpp(['diff', fault, clean]);
  assert.equal(back.code, 0, show(back));
  assert.match(back.stdout, /\[A\] fixed\s+COF-04\s+failed → passed/);
  assert.match(back.stdout, /^no regression \(2 rule result\(s\) fixed\)$/m);

  const same = await obtpp(['diff', clean, join(clean, 'summary.json')]);
  assert.equal(same.code, 0, show(same));
  assert.match(same.stdout, /no rule changed its verdict/);
});

test('diff: a folder without summary.json, or a missing argument, is exit 2', async () => {
  for (const args of [['diff', clean, work], ['diff', clean], ['diff', join(work, 'nope'), clean]]) {
    const r = await obtpp(args);
    assert.equal(r.code, 2, show(r));
  }
});

test('diffSummaries classifies every kind of change, per variant', () => {
  const s = (rules: Record<string, string>, variant = 'A') => ({ variants: [{ variant, rules: Object.entries(rules).map(([id, status]) => ({ id, status })) }] });
  const d = diffSummaries(
    s({ 'R-01': 'passed', 'R-02': 'failed', 'R-03': 'passed', 'R-04': 'skipped', 'R-05': 'waived', 'R-06': 'failed', 'R-07': 'waived', 'R-08': 'passed', 'R-09': 'skipped' }),
    s({ 'R-01': 'failed', 'R-02': 'passed', 'R-03': 'not-judged', 'R-04': 'passed', 'R-05': 'failed', 'R-06': 'waived', 'R-07': 'passed', 'R-08': 'passed', 'R-09': 'not-judged', 'R-10': 'failed' }),
  );
  const v = d.variants[0]!;
  assert.deepEqual(v.newlyFailing.map((c) => c.id), ['R-01', 'R-05', 'R-10']);
  assert.deepEqual(v.fixed.map((c) => c.id), ['R-02', 'R-07']);
  assert.deepEqual(v.newlyNotJudged.map((c) => c.id), ['R-03']);
  assert.deepEqual(v.other.map((c) => `${c.id} ${c.from}→${c.to}`), ['R-04 skipped→passed', 'R-06 failed→waived', 'R-09 skipped→not-judged']);
  assert.equal(d.regressed, true);
  const onlyFixed = diffSummaries(s({ 'R-01': 'failed' }), s({ 'R-01': 'passed' }));
  assert.equal(onlyFixed.regressed, false);
  const notJudged = diffSummaries(s({ 'R-01': 'passed' }), s({ 'R-01': 'not-judged' }));
  assert.equal(notJudged.regressed, true);
  // A variant only one run has: its rules are absent on the other side.
  const newVariant = diffSummaries(s({ 'R-01': 'passed' }), { variants: [...s({ 'R-01': 'passed' }).variants, ...s({ 'R-01': 'failed' }, 'B').variants] });
  assert.deepEqual(newVariant.variants.map((x) => [x.variant, x.newlyFailing.map((c) => `${c.from}→${c.to}`)]), [['A', []], ['B', ['absent→failed']]]);
});
