/**
 * What each fault of the payment families (src/sandbox/obie/pis-families.ts, UK layout only) must
 * visibly change, for test/sandbox/faults.test.ts: the sandbox under the fault, called at the
 * standard's paths (below {issuer}/open-banking/v3.1/pisp) as a TPP would.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { fetch as undiciFetch } from 'undici';
import type { Browser } from 'puppeteer';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { tppSignature, type Tpp } from './tpp.ts';

interface ProofWorld { sb: Sandbox; tpp: Tpp; browser: Browser }

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 19) + '+00:00';
const creditor = { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc' };
const abroad = { SchemeName: 'UK.OBIE.IBAN', Identification: 'DE89370400440532013000', Name: 'Baeckerei Schmidt GmbH' };
const amount = { Amount: '1.00', Currency: 'GBP' };

const scheduled = (when = tomorrow()) => ({
  Data: { Permission: 'Create', Initiation: { InstructionIdentification: 'I-1', EndToEndIdentification: 'E-1', RequestedExecutionDateTime: when, InstructedAmount: amount, CreditorAccount: creditor } },
  Risk: {},
});
const international = (rate?: Record<string, unknown>) => ({
  Data: { Initiation: { InstructionIdentification: 'I-2', EndToEndIdentification: 'E-2', CurrencyOfTransfer: 'EUR', InstructedAmount: amount, ...(rate ? { ExchangeRateInformation: rate } : {}), CreditorAccount: abroad } },
  Risk: {},
});

/** One call at the standard's PIS paths; POSTs signed with the key the sandbox trusts unless `sign: false`. */
async function pisp(w: ProofWorld, method: string, path: string, o: { token: string; body?: unknown; text?: string; key?: string; sign?: boolean }) {
  const text = o.text ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  const headers: Record<string, string> = { authorization: `Bearer ${o.token}`, accept: 'application/json' };
  if (text !== undefined) {
    headers['content-type'] = 'application/json';
    headers['x-idempotency-key'] = o.key ?? `k-${Math.random().toString(36).slice(2)}`;
    if (o.sign !== false) headers['x-jws-signature'] = await tppSignature(w.sb, text);
  }
  const res = await undiciFetch(`${w.sb.issuer}/open-banking/v3.1/pisp${path}`, { method, headers, body: text, dispatcher: w.tpp.dispatcher });
  const raw = await res.text();
  return { status: res.status, body: raw ? JSON.parse(raw) : undefined };
}

/** A scheduled payment consent the PSU authorised, its PSU token and its order. */
async function authorisedScheduled(w: ProofWorld) {
  const body = scheduled();
  const created = await pisp(w, 'POST', '/domestic-scheduled-payment-consents', { token: await w.tpp.cc('payments'), body });
  assert.equal(created.status, 201);
  const id = created.body.Data.ConsentId as string;
  // The consent names no debtor account (as the suite's minimal consents): the PSU chooses one.
  const debtor = w.sb.psus.find((p) => p.username === 'alice')!.accounts[0]!.AccountId;
  const result = await w.tpp.authorise(w.browser, id, 'payments', { debtor });
  return { id, token: result.tokens!.access_token, order: { Data: { ConsentId: id, Initiation: body.Data.Initiation }, Risk: body.Risk } };
}

/** A file payment consent for a file of one payment of 1.00, its totals as given. */
async function fileConsent(w: ProofWorld, cc: string, totals: { NumberOfTransactions: string; ControlSum: number }) {
  const file = JSON.stringify({ Data: { DomesticPayments: [{ InstructionIdentification: 'I-4', EndToEndIdentification: 'E-4', InstructedAmount: amount, CreditorAccount: creditor }] } });
  const initiation = { FileType: 'UK.OBIE.PaymentInitiation.3.1', FileHash: createHash('sha256').update(file).digest('base64'), ...totals };
  const created = await pisp(w, 'POST', '/file-payment-consents', { token: cc, body: { Data: { Initiation: initiation } } });
  assert.equal(created.status, 201);
  return { id: created.body.Data.ConsentId as string, file, initiation };
}

export const PIS_FAMILY_PROOFS: Record<string, (w: ProofWorld) => Promise<void>> = {
  'family-order-id-missing': async (w) => {
    const { token, order } = await authorisedScheduled(w);
    const placed = await pisp(w, 'POST', '/domestic-scheduled-payments', { token, body: order });
    assert.equal(placed.status, 201);
    assert.equal(placed.body.Data.DomesticScheduledPaymentId, undefined);
  },
  'scheduled-offset-refused': async (w) => {
    const created = await pisp(w, 'POST', '/domestic-scheduled-payment-consents', { token: await w.tpp.cc('payments'), body: scheduled(tomorrow().replace('+00:00', '-07:00')) });
    assert.equal(created.status, 400);
  },
  'order-initiation-unchecked': async (w) => {
    const { token, order } = await authorisedScheduled(w);
    const other = structuredClone(order);
    other.Data.Initiation.InstructedAmount = { Amount: '99.00', Currency: 'GBP' };
    assert.equal((await pisp(w, 'POST', '/domestic-scheduled-payments', { token, body: other })).status, 201);
  },
  'frequency-unchecked': async (w) => {
    const body = { Data: { Permission: 'Create', Initiation: { Frequency: 'EvryMonth', FirstPaymentDateTime: tomorrow(), FirstPaymentAmount: amount, CreditorAccount: creditor } }, Risk: {} };
    assert.equal((await pisp(w, 'POST', '/domestic-standing-order-consents', { token: await w.tpp.cc('payments'), body })).status, 201);
  },
  'agreed-rate-ignored': async (w) => {
    const rate = { UnitCurrency: 'GBP', ExchangeRate: 1.2, RateType: 'Agreed', ContractIdentification: 'FX-1' };
    const created = await pisp(w, 'POST', '/international-payment-consents', { token: await w.tpp.cc('payments'), body: international(rate) });
    assert.equal(created.status, 201);
    assert.notEqual(created.body.Data.ExchangeRateInformation.ExchangeRate, 1.2);
    assert.equal(created.body.Data.ExchangeRateInformation.ContractIdentification, undefined);
  },
  'file-hash-unchecked': async (w) => {
    const file = JSON.stringify({ Data: { DomesticPayments: [{ InstructionIdentification: 'I-3', EndToEndIdentification: 'E-3', InstructedAmount: amount, CreditorAccount: creditor }] } });
    const hash = createHash('sha256').update(file).digest('base64');
    const cc = await w.tpp.cc('payments');
    const created = await pisp(w, 'POST', '/file-payment-consents', { token: cc, body: { Data: { Initiation: { FileType: 'UK.OBIE.PaymentInitiation.3.1', FileHash: hash, NumberOfTransactions: '1', ControlSum: 1 } } } });
    assert.equal(created.status, 201);
    const other = file.replace('1.00', '7.00');
    assert.equal((await pisp(w, 'POST', `/file-payment-consents/${created.body.Data.ConsentId}/file`, { token: cc, text: other })).status, 200);
  },
  'unagreed-rate-contract-accepted': async (w) => {
    const rate = { UnitCurrency: 'GBP', RateType: 'Indicative', ContractIdentification: 'FX-1' };
    assert.equal((await pisp(w, 'POST', '/international-payment-consents', { token: await w.tpp.cc('payments'), body: international(rate) })).status, 201);
  },
  'file-count-unchecked': async (w) => {
    const cc = await w.tpp.cc('payments');
    const { id, file } = await fileConsent(w, cc, { NumberOfTransactions: '2', ControlSum: 1 });
    assert.equal((await pisp(w, 'POST', `/file-payment-consents/${id}/file`, { token: cc, text: file })).status, 200);
  },
  'file-control-sum-unchecked': async (w) => {
    const cc = await w.tpp.cc('payments');
    const { id, file } = await fileConsent(w, cc, { NumberOfTransactions: '1', ControlSum: 5 });
    assert.equal((await pisp(w, 'POST', `/file-payment-consents/${id}/file`, { token: cc, text: file })).status, 200);
  },
  'family-order-signature-unchecked': async (w) => {
    const { token, order } = await authorisedScheduled(w);
    assert.equal((await pisp(w, 'POST', '/domestic-scheduled-payments', { token, body: order, sign: false })).status, 201);
    assert.equal((await pisp(w, 'POST', '/domestic-scheduled-payment-consents', { token: await w.tpp.cc('payments'), body: scheduled(), sign: false })).status, 400, 'a consent\'s signature is still checked');
  },
  'file-report-empty': async (w) => {
    const cc = await w.tpp.cc('payments');
    const { id, file, initiation } = await fileConsent(w, cc, { NumberOfTransactions: '1', ControlSum: 1 });
    assert.equal((await pisp(w, 'POST', `/file-payment-consents/${id}/file`, { token: cc, text: file })).status, 200);
    const debtor = w.sb.psus.find((p) => p.username === 'alice')!.accounts[0]!.AccountId;
    const token = (await w.tpp.authorise(w.browser, id, 'payments', { debtor })).tokens!.access_token;
    const placed = await pisp(w, 'POST', '/file-payments', { token, body: { Data: { ConsentId: id, Initiation: initiation } } });
    assert.equal(placed.status, 201);
    const report = await pisp(w, 'GET', `/file-payments/${placed.body.Data.FilePaymentId}/report-file`, { token: cc });
    assert.equal(report.status, 200);
    assert.equal(report.body, undefined, 'no body');
  },
  'payment-details-empty': async (w) => {
    const { token, order } = await authorisedScheduled(w);
    const placed = await pisp(w, 'POST', '/domestic-scheduled-payments', { token, body: order });
    assert.equal(placed.status, 201);
    const details = await pisp(w, 'GET', `/domestic-scheduled-payments/${placed.body.Data.DomesticScheduledPaymentId}/payment-details`, { token: await w.tpp.cc('payments') });
    assert.equal(details.status, 200);
    assert.deepEqual(details.body.Data, {});
  },
  'family-consent-not-idempotent': async (w) => {
    const cc = await w.tpp.cc('payments');
    const body = scheduled();
    const a = await pisp(w, 'POST', '/domestic-scheduled-payment-consents', { token: cc, body, key: 'same-key' });
    const b = await pisp(w, 'POST', '/domestic-scheduled-payment-consents', { token: cc, body, key: 'same-key' });
    assert.equal(b.status, 201);
    assert.notEqual(a.body.Data.ConsentId, b.body.Data.ConsentId);
  },
  'family-order-twice': async (w) => {
    const { token, order } = await authorisedScheduled(w);
    const first = await pisp(w, 'POST', '/domestic-scheduled-payments', { token, body: order, key: 'o1' });
    const second = await pisp(w, 'POST', '/domestic-scheduled-payments', { token, body: order, key: 'o2' });
    assert.equal(second.status, 201);
    assert.notEqual(second.body.Data.DomesticScheduledPaymentId, first.body.Data.DomesticScheduledPaymentId);
  },
  'rejected-family-consent-accepts-orders': async (w) => {
    const cc = await w.tpp.cc('payments');
    const body = international();
    const created = await pisp(w, 'POST', '/international-payment-consents', { token: cc, body });
    const id = created.body.Data.ConsentId as string;
    const result = await w.tpp.authorise(w.browser, id, 'payments', { decision: 'reject' });
    assert.equal(result.error, 'access_denied');
    const placed = await pisp(w, 'POST', '/international-payments', { token: cc, body: { Data: { ConsentId: id, Initiation: body.Data.Initiation }, Risk: body.Risk } });
    assert.equal(placed.status, 201);
  },
  'family-signature-unchecked': async (w) => {
    const created = await pisp(w, 'POST', '/domestic-scheduled-payment-consents', { token: await w.tpp.cc('payments'), body: scheduled(), sign: false });
    assert.equal(created.status, 201);
  },
};
