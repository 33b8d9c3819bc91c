// Issue 28, multilevel SCA of a consent (SCA-03): a one-off consent naming the berlin-group
// sandbox's joint account needs alice's and bob's SCA; after alice's it reads partiallyAuthorised
// and opens no data, after bob's valid. Scoped `obtpp conform --tags @SCA-03 --sca embedded` runs
// through runObtpp (build first; no browser): the consent's scenario passes, every call the rule
// stands on in its evidence; a bank whose consent reads valid after the first PSU fails SCA-03 in
// that scenario alone. The redirect and decoupled walks and the other SCA-03 faults: bg-multilevel.test.ts
// and test/conformance/conform.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObtpp } from '../helpers/obtpp.ts';

const SCENARIO = 'Both PSUs authorise a consent to their joint account';
let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-ml-consent-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Item = { kind: string; method?: string; path?: string; status?: number; body?: unknown; response?: { body?: unknown } };
async function conform(name: string, faults: string[] = []) {
  const reportDir = join(dir, name);
  const run = await runObtpp(['conform', '--dialect', 'berlin-group', '--sca', 'embedded', '--variant', 'A', '--tags', '@SCA-03', '--report-dir', reportDir, ...faults.flatMap((f) => ['--sandbox-fault', f])]);
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  const rule = summary.variants[0].rules.find((r: { id: string }) => r.id === 'SCA-03');
  const sequence = rule.sequences.find((s: { scenario: string }) => s.scenario === SCENARIO) as { status: string; items: Item[] };
  return { run, rule, sequence };
}

test('embedded: both PSUs authorise the joint consent; partiallyAuthorised and no data in between, valid and the joint account after', async () => {
  const { run, rule, sequence } = await conform('clean');
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(rule.status, 'passed', JSON.stringify(rule.failures));
  assert.equal(sequence?.status, 'passed');
  const calls = sequence.items.filter((i) => i.kind === 'http').map((i) => `${i.method} ${String(i.path).replace(/consent-[\w-]+/, '{consentId}').replace(/auth-[\w-]+/, '{authorisationId}')} ${i.status}`);
  // One authorisation the TPP starts per PSU (the sandbox asks for the explicit start), walked by PUTs.
  assert.equal(calls.filter((c) => c === 'POST /A/xs2a/v1/consents/{consentId}/authorisations 201').length, 2, calls.join('\n'));
  assert.ok(calls.filter((c) => c === 'PUT /A/xs2a/v1/consents/{consentId}/authorisations/{authorisationId} 200').length >= 6, calls.join('\n'));
  // The data refused while partiallyAuthorised, then opened; the list of its authorisations asked.
  assert.deepEqual(calls.filter((c) => c.startsWith('GET /A/xs2a/v1/accounts')), ['GET /A/xs2a/v1/accounts 401', 'GET /A/xs2a/v1/accounts 200']);
  assert.ok(calls.includes('GET /A/xs2a/v1/consents/{consentId}/authorisations 200'), calls.join('\n'));
});

test('a consent that reads valid after the first PSU fails SCA-03 in the consent\'s scenario alone (the payment\'s and the cancellation\'s pass)', async () => {
  const { run, rule, sequence } = await conform('fault', ['bg-multilevel-consent-valid-after-first']);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(rule.status, 'failed');
  assert.equal(sequence.status, 'failed');
  assert.deepEqual(rule.counts, { passed: 2, failed: 1, notApplicable: 0, notJudged: 0 });
  assert.match(JSON.stringify(rule.failures), /the consent reads consentStatus \\"valid\\", not \\"partiallyAuthorised\\"/);
});
