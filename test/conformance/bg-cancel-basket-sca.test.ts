// Issue 28: the SCA of a payment's cancellation (BG-41) and of a signing basket (BG-60) by the
// embedded and decoupled approaches. The berlin-group sandbox serves PUT
// …/cancellation-authorisations/{authorisationId} and PUT /v1/signing-baskets/{basketId}/
// authorisations/{authorisationId} under `--sca embedded`, its app page under `--sca decoupled`;
// the harness walks them as it walks a payment's. Scoped `obtpp conform` runs through runObtpp
// (build first): both rules pass under each approach, and a fault of each rule is caught so.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertNoSecret, runObtpp, reportText } from '../helpers/obtpp.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-cancel-basket-sca-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An exchange of the run's messages (its method and path), whatever the JSON's escaping. */
const exchange = (method: string, path: string) => new RegExp(`"method\\\\?":\\\\?"${method}\\\\?",\\\\?"path\\\\?":\\\\?"[^"\\\\]*${path}`);

/** A scoped conform run against the embedded sandbox: exit code, each rule's status, the report files' text. */
async function conform(name: string, args: string[]) {
  const reportDir = join(dir, name);
  const run = await runObtpp(['conform', '--dialect', 'berlin-group', '--variant', 'A', '--tags', '@BG-41 or @BG-60', '--report-dir', reportDir, ...args]);
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  const rules = new Map<string, { status: string; failures?: Array<{ message: string }> }>(summary.variants[0].rules.map((r: { id: string }) => [r.id, r]));
  const text = await reportText(reportDir);
  return { run, rules, text };
}

describe('a cancellation\'s and a signing basket\'s SCA by the embedded and decoupled approaches', () => {
  test('embedded: BG-41 and BG-60 pass through PUT …/cancellation-authorisations/{id} and PUT …/signing-baskets/{id}/authorisations/{id}, no password or OTP in any report', async () => {
    const { run, rules, text } = await conform('embedded', ['--sca', 'embedded']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const id of ['BG-41', 'BG-60']) assert.equal(rules.get(id)?.status, 'passed', `${id}: ${JSON.stringify(rules.get(id))}`);
    assert.match(text, exchange('PUT', '/cancellation-authorisations/auth-'), 'the cancellation\'s embedded PUTs are in the evidence');
    assert.match(text, exchange('PUT', '/signing-baskets/[^/"\\\\]+/authorisations/auth-'), 'the basket\'s embedded PUTs are in the evidence');
    assertNoSecret(text, ['alice-pass-1', '123456']);
  });

  test('decoupled: BG-41 and BG-60 pass, the TPP polling the cancellation\'s and the basket\'s scaStatus while the PSU approves in the app', async () => {
    const { run, rules, text } = await conform('decoupled', ['--sca', 'decoupled']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    for (const id of ['BG-41', 'BG-60']) assert.equal(rules.get(id)?.status, 'passed', `${id}: ${JSON.stringify(rules.get(id))}`);
    assert.match(text, exchange('GET', '/cancellation-authorisations/auth-'));
    assert.match(text, exchange('GET', '/signing-baskets/[^/"\\\\]+/authorisations/auth-'));
  });

  test('embedded, a cancellation the PSU authorised left as it was: BG-41 fails; decoupled, a basket\'s payments not reached: BG-60 fails', async () => {
    const cancel = await conform('embedded-fault', ['--sca', 'embedded', '--sandbox-fault', 'bg-cancellation-authorised-not-canc']);
    assert.equal(cancel.run.code, 1, cancel.run.stdout + cancel.run.stderr);
    assert.equal(cancel.rules.get('BG-41')?.status, 'failed');
    assert.match(cancel.rules.get('BG-41')!.failures![0]!.message, /not CANC/);
    assert.equal(cancel.rules.get('BG-60')?.status, 'passed');
    const basket = await conform('decoupled-fault', ['--sca', 'decoupled', '--sandbox-fault', 'bg-basket-members-not-authorised']);
    assert.equal(basket.run.code, 1, basket.run.stdout + basket.run.stderr);
    assert.equal(basket.rules.get('BG-60')?.status, 'failed');
    assert.equal(basket.rules.get('BG-41')?.status, 'passed');
  });
});
