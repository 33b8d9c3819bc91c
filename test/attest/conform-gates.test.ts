// The gates through `obtpp conform`, for real (embedded sandbox, one rule, both variants):
// --attest signs the run, --waivers turns an owned failure into `waived` (exit 0), an expired
// waiver fails the run, a waiver whose rule passes warns (with --strict fails), --baseline names
// the regression. Bad keys, waiver files and baselines are exit 2 before anything runs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { obtpp, show, workDir, keyPair } from './helpers.ts';

const FAULT = ['--sandbox-fault', 'funds-balance-disclosed'];
const ONE_RULE = ['--tags', '@COF-04'];
let work: string;
let keys: Awaited<ReturnType<typeof keyPair>>;
let live: string;
let expired: string;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const summaryOf = async (dir: string) => JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
const cof04 = (s: any) => s.variants.map((v: any) => `${v.variant}:${v.rules.find((r: any) => r.id === 'COF-04').status}`);

before(async () => {
  work = await workDir('gates');
  keys = await keyPair(work, 'attest', 'ec');
  live = join(work, 'waivers.yaml');
  expired = join(work, 'expired.yaml');
  await writeFile(live, stringify([{ rule: 'COF-04', reason: 'balance shown to the TPP; fix in release 42', owner: 'payments-team', expires: day(30) }]));
  await writeFile(expired, stringify({ waivers: [{ rule: 'COF-04', variant: 'A', reason: 'old promise', owner: 'payments-team', expires: day(-2) }] }));
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

test('conform --attest signs the run; verify accepts it; a waived failure exits 0 and is attested as waived', async () => {
  const clean = join(work, 'clean');
  const waived = join(work, 'waived');
  const [a, b] = await Promise.all([
    obtpp(['conform', ...ONE_RULE, '--report-dir', clean, '--attest', keys.privateFile]),
    obtpp(['conform', ...ONE_RULE, ...FAULT, '--report-dir', waived, '--waivers', live, '--attest', '${env:GATES_ATTEST_KEY}'], { GATES_ATTEST_KEY: keys.privatePem }),
  ]);
  assert.equal(a.code, 0, show(a));
  assert.match(a.stderr, /^attested: .*attestation\.jws \(ES256, kid \S+, \d+ files\)$/m);
  const va = await obtpp(['verify', clean, '--key', keys.publicFile]);
  assert.equal(va.code, 0, show(va));
  assert.match(va.stdout, /attests: CONFORMANT \(verdict pass\)/);

  assert.equal(b.code, 0, show(b));
  assert.match(b.stderr, /^waived: COF-04 \[A\] — 1 failure\(s\), owner payments-team/m);
  assert.match(b.stdout, /CONFORMANT/);
  const s = await summaryOf(waived);
  assert.equal(s.verdict, 'pass');
  assert.deepEqual(cof04(s), ['A:waived', 'B:waived']);
  assert.ok(s.variants[0].rules.find((r: any) => r.id === 'COF-04').failures[0].evidence, 'the failure keeps its evidence');
  assert.equal(s.waivers.applied.length, 2);
  const vb = await obtpp(['verify', waived, '--key', keys.publicFile, '--json']);
  assert.equal(vb.code, 0, show(vb));
  const doc = JSON.parse(vb.stdout);
  assert.equal(doc.verdict, 'pass');
  assert.deepEqual(doc.rules.filter((r: any) => r.id === 'COF-04').map((r: any) => r.status), ['waived', 'waived']);
});

test('an expired waiver fails the run with a line naming it; a fault with a baseline names the regression', async () => {
  const clean = join(work, 'base');
  const c = await obtpp(['conform', ...ONE_RULE, '--report-dir', clean]);
  assert.equal(c.code, 0, show(c));
  const [e, r] = await Promise.all([
    obtpp(['conform', ...ONE_RULE, ...FAULT, '--report-dir', join(work, 'expired'), '--waivers', expired]),
    obtpp(['conform', ...ONE_RULE, ...FAULT, '--report-dir', join(work, 'regressed'), '--baseline', clean]),
  ]);
  assert.equal(e.code, 1, show(e));
  assert.match(e.stderr, new RegExp(`^obtpp: waiver expired: COF-04 \\[A\\] \\(owner payments-team, expired after ${day(-2)}\\): old promise`, 'm'));
  assert.deepEqual(cof04(await summaryOf(join(work, 'expired'))), ['A:failed', 'B:failed']);

  assert.equal(r.code, 1, show(r));
  assert.match(r.stdout, /\[A\] newly failing\s+COF-04\s+passed → failed/);
  assert.match(r.stdout, /\[B\] newly failing\s+COF-04\s+passed → failed/);
  assert.match(r.stdout, /^REGRESSED: 2 rule result\(s\) newly failing, 0 newly not judged$/m);

  // The baseline may be the report dir the run overwrites: it was read before the run.
  const again = await obtpp(['conform', ...ONE_RULE, '--report-dir', clean, '--baseline', clean]);
  assert.equal(again.code, 0, show(again));
  assert.match(again.stdout, /no rule changed its verdict/);
});

test('a waiver whose rule now passes warns that it can go; with --strict the run fails', async () => {
  const [w, s] = await Promise.all([
    obtpp(['conform', ...ONE_RULE, '--report-dir', join(work, 'can-go'), '--waivers', live]),
    obtpp(['conform', ...ONE_RULE, '--report-dir', join(work, 'can-go-strict'), '--waivers', live, '--strict']),
  ]);
  assert.equal(w.code, 0, show(w));
  assert.match(w.stderr, /^warning: waiver can go: COF-04 now passes in variant A and B \(owner payments-team\): remove it from the waiver file$/m);
  assert.equal(s.code, 1, show(s));
  assert.match(s.stderr, /^obtpp: waiver can go: COF-04/m);
});

test('a bad waiver file, key or baseline is exit 2 before the run', async () => {
  const bad = join(work, 'bad.yaml');
  await writeFile(bad, stringify([{ rule: 'COF-04', variant: 'C', owner: 'o', expires: 'soon' }]));
  const cases: Array<[string[], RegExp, Record<string, string>?]> = [
    [['--waivers', bad], new RegExp(`^waivers ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\$\\[0\\]\\.reason: is required but missing$`, 'm')],
    [['--attest', '${env:GATES_NO_SUCH_KEY}'], /^obtpp: --attest: environment variable GATES_NO_SUCH_KEY is not set/m],
    [['--attest', keys.publicFile], /^obtpp: the attestation key is not a private key in PEM or JWK form/m],
    [['--attest', join(work, 'missing.key')], /^obtpp: --attest: cannot read the key file/m],
    [['--baseline', join(work, 'no-such-run')], /^obtpp: .*no-such-run: no such report dir/m],
  ];
  for (const [args, expected, env] of cases) {
    const dir = join(work, `never-${Math.random().toString(36).slice(2)}`);
    const r = await obtpp(['conform', ...ONE_RULE, '--report-dir', dir, ...args], env);
    assert.equal(r.code, 2, show(r));
    assert.match(r.stderr, expected);
    assert.ok(!existsSync(join(dir, 'summary.json')), 'nothing ran');
  }
});
