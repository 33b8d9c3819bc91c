// Issue 28: the answers of PUT …/authorisations/{authorisationId} (consents', payments',
// cancellations' and signing baskets' alike) judged by the official schema of what the TPP sent
// (the file's OK_200_UpdatePsuData is a oneOf of one body per kind of update). The schemas
// themselves are proven by test/dialects/berlin-group-mutations.test.ts (official-valid bodies
// pass, single-field violations fail); here: which schema judges which answer, and scoped
// `obtpp conform --sca embedded` runs through runObtpp (build first) — every embedded walk of the
// sandbox passes, and a malformed chosenScaMethod fails SCA-01 naming the schema and the field.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { judgeBg, SCA_CONFIRMATION_STATUSES, updateAnswerSchemaOf } from '../../src/dialects/berlin-group/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';
import { bgDoc, bgSkip } from '../dialects/berlin-group-official.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-sca-bodies-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('each kind of update is judged by its own answer schema', () => {
  assert.equal(updateAnswerSchemaOf({}), 'updatePsuIdentificationResponse');
  assert.equal(updateAnswerSchemaOf(undefined), 'updatePsuIdentificationResponse');
  assert.equal(updateAnswerSchemaOf({ psuData: { password: 'x' } }), 'updatePsuAuthenticationResponse');
  assert.equal(updateAnswerSchemaOf({ authenticationMethodId: 'sms' }), 'selectPsuAuthenticationMethodResponse');
  assert.equal(updateAnswerSchemaOf({ scaAuthenticationData: '123456' }), 'scaStatusResponse');
  assert.equal(updateAnswerSchemaOf({ confirmationCode: 'c' }), 'authorisationConfirmationResponse');
  // What tells them apart: an identification answer needs its links, a confirmation only two statuses.
  assert.deepEqual(judgeBg('updatePsuIdentificationResponse', { scaStatus: 'psuIdentified' }).must.map((p) => p.message), ['(root): missing required field _links']);
  assert.equal(judgeBg('updatePsuAuthenticationResponse', { scaStatus: 'psuIdentified' }).must.length, 0);
  assert.equal(judgeBg('authorisationConfirmationResponse', { scaStatus: 'psuAuthenticated', _links: {} }).must[0]?.path, 'scaStatus');
  assert.equal(judgeBg('selectPsuAuthenticationMethodResponse', { scaStatus: 'scaMethodSelected', chosenScaMethod: { authenticationMethodId: 'sms' } }).must[0]?.message, 'chosenScaMethod: missing required field authenticationType');
});

test('the confirmation\'s two statuses are the file\'s', { skip: bgSkip }, () => {
  assert.deepEqual([...SCA_CONFIRMATION_STATUSES].sort(), [...bgDoc().components.schemas.scaStatusAuthorisationConfirmation.enum].sort());
});

/** A scoped conform run against the embedded-only sandbox: exit code and summary.json's rows of variant A. */
async function conform(name: string, tags: string, faults: string[] = []) {
  const reportDir = join(dir, name);
  const run = await runObtpp(['conform', '--dialect', 'berlin-group', '--sca', 'embedded', '--variant', 'A', '--tags', tags, '--report-dir', reportDir, ...faults.flatMap((f) => ['--sandbox-fault', f])]);
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  const rules = summary.variants[0].rules as Array<{ id: string; status: string }>;
  return { run, rules, json: JSON.stringify(summary) };
}

test('every embedded walk of the sandbox (consents, the TPP\'s start, a rejection, a cancellation, a basket, two PSUs) passes with its PUT answers judged', async () => {
  const { run, rules } = await conform('clean', '@SCA-01 or @SCA-02 or @SCA-03 or @BG-41 or @BG-60');
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const judged = rules.filter((r) => r.status !== 'not-applicable' && r.status !== 'skipped');
  assert.deepEqual(judged.map((r) => `${r.id} ${r.status}`).sort(), ['BG-41 passed', 'BG-60 passed', 'SCA-01 passed', 'SCA-02 passed', 'SCA-03 passed']);
});

test('a chosenScaMethod without authenticationType in the answer to the SCA method\'s selection fails SCA-01, naming the schema and the field', async () => {
  const { run, rules, json } = await conform('fault', '@SCA-01', ['bg-embedded-chosen-method-malformed']);
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.equal(rules.find((r) => r.id === 'SCA-01')?.status, 'failed');
  assert.match(json, /PUT [^ ]*\/authorisations\/[^ ]* → 200 OK as selectPsuAuthenticationMethodResponse: chosenScaMethod: missing required field authenticationType/);
});
