// The payment families of UK Read/Write v3.1.11 from the terminal (obtpp pay), through the REAL
// binary against the sandbox in the UK layout (one sandbox for the file): a scheduled payment
// created, authorised by the PSU (Chromium), submitted and read back, chained by the session
// state; a file payment with its file uploaded and paid; the fields of the other families reach
// the bank as given; bad input is one line with exit 2; the bank's refusal is exit 1 in its words.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliHere, harness, profileEntry, readState, type Harness } from './helpers.ts';

describe('obtpp pay (real binary, UK sandbox, Chromium)', { timeout: 300_000 }, () => {
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
  /** The same CLI in this process (no spawn: the cheap way for the creates and the usage errors), on the harness's profile and state. */
  const cli = async (given: string[]) => {
    const args = given[0] === '--json' ? [...given.slice(1), '--json'] : given;
    const run = await cliHere(args, { env: { HOME: h.dir, NO_COLOR: '1', CI: '1', OBTPP_PROFILE: h.profileFile, OBTPP_STATE: h.stateFile }, cwd: h.dir });
    let doc: any;
    if (run.code === 0 && args.includes('--json')) doc = JSON.parse(run.stdout);
    return { ...run, doc };
  };
  const creditor = ['--creditor-id', '08080021325698', '--creditor-name', 'Bob Baker'];

  test('a domestic scheduled payment: create, authorise, submit, read the order and its details; the consent is then Consumed', async () => {
    const when = '2031-05-04T15:04:00-07:00';
    const created = await h.json(['pay', 'create', '--type', 'domestic-scheduled', '--amount', '12.50', ...creditor, '--execution-date', when, '--reference', 'rent']);
    assert.equal(created.code, 0, created.stderr);
    const id = created.doc.Data.ConsentId as string;
    assert.equal(created.doc.Data.Status, 'AwaitingAuthorisation');
    assert.equal(Date.parse(created.doc.Data.Initiation.RequestedExecutionDateTime), Date.parse(when));
    assert.deepEqual(created.doc.Data.Initiation.InstructedAmount, { Amount: '12.50', Currency: 'GBP' });
    let entry = profileEntry(await readState(h.stateFile));
    assert.equal(entry.current.pay, id);
    assert.equal(entry.current.pis, undefined, 'a family consent is not obtpp payment\'s current payment-order consent');

    const auth = await h.json(['consent', 'authorise']);
    assert.equal(auth.code, 0, auth.stderr);
    assert.equal(auth.doc.consentId, id);
    const read = await cli(['--json', 'pay', 'get']);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.doc.Data.Status, 'Authorised');

    const order = await cli(['--json', 'pay', 'submit']);
    assert.equal(order.code, 0, order.stderr);
    const orderId = order.doc.Data.DomesticScheduledPaymentId as string;
    assert.ok(orderId, JSON.stringify(order.doc));
    assert.equal(order.doc.Data.ConsentId, id);
    entry = profileEntry(await readState(h.stateFile));
    assert.equal(entry.consents[id].family.orderId, orderId);
    const back = await cli(['--json', 'pay', 'get', '--order']);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(back.doc.Data.DomesticScheduledPaymentId, orderId);
    const details = await cli(['--json', 'pay', 'get', '--details']);
    assert.equal(details.code, 0, details.stderr);
    assert.ok(Array.isArray(details.doc.Data.PaymentStatus));
    const consumed = await cli(['--json', 'pay', 'get', id]);
    assert.equal(consumed.doc.Data.Status, 'Consumed');
    // A second order on the consumed consent: the bank refuses it, exit 1 in one line.
    oneLine(await cli(['pay', 'submit']), 1, /40[03]/);
  });

  test('a file payment: its file uploaded with the consent (hash, count and sum computed), authorised and paid', async () => {
    const file = join(h.dir, 'payments.json');
    const payment = (n: number, amount: string) => ({
      InstructionIdentification: `INSTR-${n}`, EndToEndIdentification: `E2E-${n}`, InstructedAmount: { Amount: amount, Currency: 'GBP' },
      CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: `0808002132569${n}`, Name: 'Bob Baker' },
    });
    await writeFile(file, JSON.stringify({ Data: { DomesticPayments: [payment(1, '1.25'), payment(2, '2.50')] } }));
    const created = await cli(['--json', 'pay', 'create', '--type', 'file', '--file', file, '--reference', 'run-1']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.doc.Data.Initiation.NumberOfTransactions, '2');
    assert.equal(created.doc.Data.Initiation.ControlSum, 3.75);
    const read = await cli(['--json', 'pay', 'get']);
    assert.equal(read.doc.Data.Status, 'AwaitingAuthorisation', 'the file was uploaded: the consent awaits authorisation, not the upload');
    const auth = await h.obtpp(['consent', 'authorise']);
    assert.equal(auth.code, 0, auth.stderr);
    const order = await cli(['--json', 'pay', 'submit']);
    assert.equal(order.code, 0, order.stderr);
    assert.ok(order.doc.Data.FilePaymentId);
    // A ControlSum the file does not add up to: the bank refuses the upload, exit 1.
    const wrong = await cli(['pay', 'create', '--type', 'file', '--file', file, '--control-sum', '9.99']);
    assert.equal(wrong.code, 1, wrong.stderr);
    assert.match(wrong.stderr, /upload|file/i);
  });

  test('the other families\' fields reach the bank as given: standing orders, international with an agreed rate', async () => {
    const so = await cli(['--json', 'pay', 'create', '--type', 'domestic-standing-order', '--amount', '50.00', ...creditor, '--frequency', 'IntrvlMnthDay:01:-01', '--first-payment-date', '2031-01-31T09:00:00+00:00', '--payments', '12', '--recurring-amount', '50.00']);
    assert.equal(so.code, 0, so.stderr);
    assert.equal(so.doc.Data.Initiation.Frequency, 'IntrvlMnthDay:01:-01');
    assert.equal(so.doc.Data.Initiation.NumberOfPayments, '12');
    assert.deepEqual(so.doc.Data.Initiation.RecurringPaymentAmount, { Amount: '50.00', Currency: 'GBP' });
    const abroad = ['--creditor-scheme', 'UK.OBIE.IBAN', '--creditor-id', 'DE89370400440532013000', '--creditor-name', 'Baeckerei Schmidt'];
    const intl = await cli(['--json', 'pay', 'create', '--type', 'international', '--amount', '100.00', '--currency-of-transfer', 'EUR', ...abroad, '--rate-type', 'Agreed', '--rate', '1.1634', '--contract', 'FX-1', '--charge-bearer', 'Shared']);
    assert.equal(intl.code, 0, intl.stderr);
    assert.equal(intl.doc.Data.Initiation.CurrencyOfTransfer, 'EUR');
    assert.equal(intl.doc.Data.Initiation.ChargeBearer, 'Shared');
    assert.deepEqual(intl.doc.Data.Initiation.ExchangeRateInformation, { UnitCurrency: 'GBP', ExchangeRate: 1.1634, RateType: 'Agreed', ContractIdentification: 'FX-1' });
    const iso = await cli(['--json', 'pay', 'create', '--type', 'international-standing-order', '--amount', '20.00', '--currency-of-transfer', 'EUR', ...abroad, '--frequency', 'EvryWorkgDay', '--first-payment-date', '+1d']);
    assert.equal(iso.code, 0, iso.stderr);
    assert.equal(iso.doc.Data.Initiation.Frequency, 'EvryWorkgDay');
    const sched = await cli(['--json', 'pay', 'create', '--type', 'international-scheduled', '--amount', '20.00', '--currency-of-transfer', 'USD', ...abroad, '--execution-date', '+2d']);
    assert.equal(sched.code, 0, sched.stderr);
    assert.equal(sched.doc.Data.Initiation.CurrencyOfTransfer, 'USD');
    const domestic = await cli(['--json', 'pay', 'create', '--type', 'domestic', '--amount', '3.00', ...creditor, '--reference', 'lunch']);
    assert.equal(domestic.code, 0, domestic.stderr);
    assert.equal(domestic.doc.Data.Initiation.RemittanceInformation.Reference, 'lunch');
    // The last created is current, as the family consent; obtpp payment's current consent is left alone.
    assert.equal(profileEntry(await readState(h.stateFile)).current.pay, domestic.doc.Data.ConsentId);
    assert.notEqual(profileEntry(await readState(h.stateFile)).current.pis, domestic.doc.Data.ConsentId);
  });

  test('bad input is one line with exit 2; a profile in the spec\'s layout is told the families need the UK standard', async () => {
    oneLine(await cli(['pay', 'create', ...creditor, '--amount', '1.00']), 2, /--type is required/);
    oneLine(await cli(['pay', 'create', '--type', 'cheque', ...creditor, '--amount', '1.00']), 2, /--type cheque: expected one of domestic, /);
    oneLine(await cli(['pay', 'create', '--type', 'domestic-scheduled', ...creditor, '--amount', '1.00']), 2, /--execution-date is required/);
    oneLine(await cli(['pay', 'create', '--type', 'domestic-standing-order', ...creditor, '--amount', '1.00', '--frequency', 'EvryMonth', '--first-payment-date', '+1d']), 2, /--frequency EvryMonth: not of the standard's grammar/);
    oneLine(await cli(['pay', 'create', '--type', 'international', ...creditor, '--amount', '1.00']), 2, /--currency-of-transfer is required/);
    oneLine(await cli(['pay', 'create', '--type', 'international', ...creditor, '--amount', '1.00', '--currency-of-transfer', 'EUR', '--rate-type', 'Actual', '--rate', '1.2']), 2, /--rate and --contract go with --rate-type Agreed/);
    oneLine(await cli(['pay', 'create', '--type', 'domestic', ...creditor, '--amount', '1.00', '--frequency', 'EvryDay']), 2, /--frequency does not apply to --type domestic/);
    oneLine(await cli(['pay', 'create', '--type', 'file', '--file', join(h.dir, 'nope.json')]), 2, /--file .*nope\.json: no such file/);
    const spec = join(h.dir, 'spec.json');
    await writeFile(spec, JSON.stringify(h.sb.profile('all')), { mode: 0o600 });
    oneLine(await cli(['pay', 'create', '--type', 'domestic-scheduled', ...creditor, '--amount', '1.00', '--execution-date', '+1d', '--profile', spec]), 2, /is not an operation of the spec's layout/);
  });
});
