// Issue 28, multilevel SCA of a cancellation (SCA-03): a payment from the berlin-group sandbox's
// joint account, due in 7 days and authorised by alice and bob, is cancelled only once both have
// authorised the cancellation. The profile says so with sca.multilevel.cancellation (the sandbox's
// written profile where it walks the embedded approach first: four PSU journeys are too many for
// the default redirect run). Scoped `obtpp conform --tags @SCA-03 --sca embedded` runs through
// runObtpp (build first; no browser).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileFromObject, startSandbox } from '../../src/index.ts';
import { ProfileError } from '../../src/errors.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const SCENARIO = 'Both PSUs authorise the cancellation of a scheduled payment from their joint account';
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-ml-cancel-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Item = { kind: string; method?: string; path?: string; status?: number };
async function conform(name: string, args: string[]) {
  const reportDir = join(dir, name);
  const dialect = args.includes('--profile') ? [] : ['--dialect', 'berlin-group'];
  const run = await runObtpp(['conform', ...dialect, '--variant', 'A', '--tags', '@SCA-03', '--report-dir', reportDir, ...args]);
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  const rule = summary.variants[0].rules.find((r: { id: string }) => r.id === 'SCA-03');
  const sequence = rule.sequences.find((s: { scenario: string }) => s.scenario === SCENARIO) as { status: string; items: Item[] } | undefined;
  return { run, rule, sequence };
}

test('sca.multilevel.cancellation: a boolean, kept by the loader; the sandbox says it where it walks embedded first', async () => {
  const sb = await startSandbox({ dialect: 'berlin-group', sca: ['embedded'] });
  try {
    const raw = sb.profile('A') as { sca: { multilevel: Record<string, unknown> } };
    assert.equal(raw.sca.multilevel.cancellation, true);
    const p = await profileFromObject(raw, { source: 'test' });
    assert.equal(p.sca?.multilevel?.cancellation, true);
    await assert.rejects(profileFromObject({ ...raw, sca: { ...raw.sca, multilevel: { ...raw.sca.multilevel, cancellation: 'yes' } } }, { source: 'test' }), (e: Error) => e instanceof ProfileError && /multilevel/.test(e.message));
  } finally {
    await sb.stop();
  }
});

test('embedded: both PSUs authorise the cancellation; not cancelled after the first, CANC after the second', async () => {
  const { run, rule, sequence } = await conform('clean', ['--sca', 'embedded']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(rule.status, 'passed', JSON.stringify(rule.failures));
  assert.equal(sequence?.status, 'passed');
  // The evidence keeps the scenario's last calls: from the DELETE on, every one of them.
  const calls = sequence.items.filter((i) => i.kind === 'http').map((i) => `${i.method} ${String(i.path).replace(/^.*\/sepa-credit-transfers\/[^/]+/, '{payment}').replace(/(cancellation-authorisations)\/.*$/, '$1/{id}')} ${i.status}`);
  const cancelled = calls.slice(calls.indexOf('DELETE {payment} 202'));
  assert.ok(cancelled.length > 1, calls.join('\n'));
  assert.equal(cancelled.filter((c) => c === 'POST {payment}/cancellation-authorisations 201').length, 2, calls.join('\n'));
  // Each PSU's cancellation walked through the TPP (password, method, OTP), the status read after each.
  assert.equal(cancelled.filter((c) => c === 'PUT {payment}/cancellation-authorisations/{id} 200').length, 6, calls.join('\n'));
  assert.ok(cancelled.indexOf('GET {payment}/status 200') < cancelled.lastIndexOf('POST {payment}/cancellation-authorisations 201'), calls.join('\n'));
  assert.equal(cancelled.at(-1), 'GET {payment}/cancellation-authorisations 200');
});

test('a payment cancelled on the first PSU\'s authorisation fails SCA-03 in the cancellation\'s scenario alone', async () => {
  const { run, rule, sequence } = await conform('fault', ['--sca', 'embedded', '--sandbox-fault', 'bg-multilevel-cancelled-after-first']);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(sequence?.status, 'failed');
  assert.deepEqual(rule.counts, { passed: 2, failed: 1, notApplicable: 0, notJudged: 0 });
  assert.match(JSON.stringify(rule.failures), /after the first of the two PSUs authorised the cancellation, the payment reads CANC/);
});

test('without sca.multilevel.cancellation the scenario is not applicable, naming why; the default sandbox\'s profile leaves it out (no journeys spent on it)', async () => {
  const redirect = await startSandbox({ dialect: 'berlin-group' });
  const embedded = await startSandbox({ dialect: 'berlin-group', sca: ['embedded'] });
  try {
    const multilevel = (redirect.profile('A') as { sca: { multilevel: Record<string, unknown> } }).sca.multilevel;
    assert.equal(typeof multilevel.iban, 'string');
    assert.equal(multilevel.cancellation, undefined);
    const raw = embedded.profile('A') as { sca: { multilevel: Record<string, unknown> } };
    const { cancellation: _c, ...without } = raw.sca.multilevel;
    const file = join(dir, 'no-cancellation.json');
    await writeFile(file, JSON.stringify({ ...raw, sca: { ...raw.sca, multilevel: without } }));
    const { run, rule, sequence } = await conform('none', ['--profile', file]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(sequence, undefined, 'no evidence: the scenario did not run');
    assert.deepEqual(rule.counts, { passed: 2, failed: 0, notApplicable: 1, notJudged: 0 });
    assert.match(JSON.stringify(rule), /sca\.multilevel\.cancellation does not say the bank needs both PSUs' SCA/);
  } finally {
    await Promise.all([redirect.stop(), embedded.stop()]);
  }
});
