// Variable Recurring Payments from the terminal, through the REAL binary against the sandbox in the
// UK Read/Write v3.1.11 layout: one consent, authorised once by the PSU (Chromium), then payments
// without the PSU, chained by the session state; the bank's refusals with its own error code; the
// VRP consent kept apart from the payment-order consent; usage errors in one line.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, profileEntry, readState, type Harness } from './helpers.ts';

describe('obtpp vrp (real binary, UK sandbox, Chromium)', { timeout: 300_000 }, () => {
  let h: Harness;
  before(async () => {
    h = await harness({ standard: 'uk-3.1' });
  });
  after(async () => h?.stop());

  const oneLine = (run: { code: number; stderr: string; args: string[] }, code: number, line: RegExp) => {
    assert.equal(run.code, code, `obtpp ${run.args.join(' ')}: exit ${run.code}\n${run.stderr}`);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line on stderr, got:\n${run.stderr}`);
    assert.match(lines[0]!, line);
  };

  test('create, authorise once, pay twice within the limits, a refusal beyond them, funds, read back, revoke', async () => {
    const created = await h.json(['vrp', 'consent', 'create', '--creditor-id', '08080021325698', '--creditor-name', 'My savings', '--max', '10.00', '--limit', 'Day=25.00:Calendar', '--reference', 'sweep']);
    assert.equal(created.code, 0, created.stderr);
    const id = created.doc.Data.ConsentId as string;
    assert.equal(created.doc.Data.Status, 'AwaitingAuthorisation');
    assert.deepEqual(created.doc.Data.ControlParameters.PeriodicLimits, [{ PeriodType: 'Day', PeriodAlignment: 'Calendar', Amount: '25.00', Currency: 'GBP' }]);
    let entry = profileEntry(await readState(h.stateFile));
    assert.equal(entry.current.vrp, id);
    assert.equal(entry.current.pis, undefined, 'a VRP consent is not the current payment-order consent');

    const auth = await h.json(['consent', 'authorise']);
    assert.equal(auth.code, 0, auth.stderr);
    assert.equal(auth.doc.consentId, id);
    entry = profileEntry(await readState(h.stateFile));
    assert.equal(entry.current.vrp, id);
    assert.equal(entry.current.pis, undefined);

    const first = await h.json(['vrp', 'pay', '--amount', '8.00']);
    assert.equal(first.code, 0, first.stderr);
    const second = await h.json(['vrp', 'pay', '--amount', '8.00']);
    assert.equal(second.code, 0, second.stderr);
    assert.notEqual(first.doc.Data.DomesticVRPId, second.doc.Data.DomesticVRPId);
    assert.equal(second.doc.Data.Instruction.RemittanceInformation.Reference, 'sweep');

    // Above the maximum individual amount; then past the day's limit (16.00 paid of 25.00).
    oneLine(await h.obtpp(['vrp', 'pay', '--amount', '11.00']), 1, /400 UK\.OBIE\.Rules\.FailsControlParameters: .*MaximumIndividualAmount/);
    oneLine(await h.obtpp(['vrp', 'pay', '--amount', '10.00']), 1, /400 UK\.OBIE\.Rules\.FailsControlParameters: .*Day limit/);

    const funds = await h.json(['vrp', 'funds', '--amount', '5.00']);
    assert.equal(funds.code, 0, funds.stderr);
    assert.equal(funds.doc.Data.FundsAvailableResult.FundsAvailable, 'Available');

    const read = await h.json(['vrp', 'get']);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.doc.Data.DomesticVRPId, second.doc.Data.DomesticVRPId);
    const details = await h.json(['vrp', 'get', '--details']);
    assert.equal(details.code, 0, details.stderr);
    assert.equal(details.doc.Data.PaymentStatus[0].Status, 'AcceptedSettlementInProcess');

    const revoked = await h.obtpp(['vrp', 'consent', 'delete']);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(revoked.stdout, /revoked: it pays no more/);
    oneLine(await h.obtpp(['vrp', 'pay', '--consent', id, '--amount', '1.00']), 1, /refused .*domestic-vrp-consents|400 UK\.OBIE\.Resource\.NotFound/);
  });

  test('bad input is one line with exit 2; a profile in the spec\'s layout is told VRP needs the UK standard', async () => {
    oneLine(await h.obtpp(['vrp', 'consent', 'create', '--creditor-id', '1', '--creditor-name', 'x', '--limit', 'Day=5']), 2, /--max is required/);
    oneLine(await h.obtpp(['vrp', 'consent', 'create', '--creditor-id', '1', '--creditor-name', 'x', '--max', '5']), 2, /--limit is required/);
    oneLine(await h.obtpp(['vrp', 'consent', 'create', '--creditor-id', '1', '--creditor-name', 'x', '--max', '5', '--limit', 'Moon=5']), 2, /--limit Moon=5: expected PERIOD=AMOUNT/);
    oneLine(await h.obtpp(['vrp', 'consent', 'create', '--creditor-id', '1', '--creditor-name', 'x', '--max', '5', '--limit', 'Day=5', '--type', 'gift']), 2, /--type gift: expected sweeping or other/);
    const spec = join(h.dir, 'spec.json');
    await writeFile(spec, JSON.stringify(h.sb.profile('all')), { mode: 0o600 });
    oneLine(await h.obtpp(['vrp', 'pay', '--amount', '1.00', '--profile', spec]), 2, /is not an operation of the spec's layout/);
  });
});
