/**
 * The NextGenPSD2 sandbox's other payment services and products (issue 28): standing orders
 * (POST /v1/periodic-payments/{product}: startDate, endDate, frequency, executionRule,
 * dayOfExecution, monthsOfExecution checked; GET reads back what was sent) and bulks (POST
 * /v1/bulk-payments/{product}: each payment checked, none with a debtor of its own), the four JSON
 * products, every answer valid against the OFFICIAL 1.3.12 file and clean for the dialect's judge;
 * and the faults of BG-42, BG-43 and BG-44. No browser, no PSU.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { buildBulkPayment, buildPeriodicPayment } from '../../src/dialects/berlin-group/index.ts';
import { bgSkip, officialValidator } from '../dialects/berlin-group-official.ts';
import { assertValid } from '../helpers/bg-sandbox.ts';

type Json = any;
let sb: Sandbox;
let faulty: Sandbox;

before(async () => {
  // Compiled first: compiling the official file takes seconds, in which the sandbox would close the idle keep-alive socket the next request reuses.
  if (!bgSkip) for (const name of ['paymentInitiationRequestResponse-201', 'periodicPaymentInitiationWithStatusResponse', 'bulkPaymentInitiationWithStatusResponse', 'paymentInitiationWithStatusResponse'] as const) officialValidator(name);
  [sb, faulty] = await Promise.all([
    startSandbox({ dialect: 'berlin-group', quiet: true }),
    startSandbox({ dialect: 'berlin-group', quiet: true, faults: ['bg-periodic-read-back-changed', 'bg-periodic-frequency-unchecked', 'bg-bulk-payments-dropped', 'bg-product-not-kept'] }),
  ]);
});
after(async () => {
  await Promise.all([sb?.stop(), faulty?.stop()]);
});

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, {
    method,
    headers: { 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': 'https://tpp.example.org/back', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const valid = assertValid;

const iban = (bank: Sandbox) => (bank.psus[0]!.accounts[0] as { iban?: string }).iban!;
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const standingOrder = (bank: Sandbox, o: Partial<Parameters<typeof buildPeriodicPayment>[0]> = {}) => buildPeriodicPayment({
  debtor: { iban: iban(bank) }, amount: '12.50', currency: 'EUR', creditor: { iban: 'DE02120300000000202051' }, creditorName: 'Landlord',
  startDate: day(10), endDate: day(375), frequency: 'Monthly', executionRule: 'preceding', dayOfExecution: '31', ...o,
});
const bulk = (bank: Sandbox) => buildBulkPayment({
  debtor: { iban: iban(bank) }, batchBookingPreferred: false,
  payments: [{ amount: '1.00', currency: 'EUR', creditor: { iban: 'DE02120300000000202051' }, creditorName: 'A', endToEndIdentification: 'e1' }, { amount: '2.00', currency: 'EUR', creditor: { iban: 'FR7630006000011234567890189' }, creditorName: 'B' }],
});

test('a standing order is created, read back as sent (dates, frequency, rule, day) and has an ISO 20022 status', async () => {
  const sent = standingOrder(sb);
  const created = await call('POST', `${sb.baseUrls.A}/v1/periodic-payments/sepa-credit-transfers`, sent);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  valid('paymentInitiationRequestResponse-201', created.body);
  const self = `${sb.baseUrls.A}/v1/periodic-payments/sepa-credit-transfers/${created.body.paymentId}`;
  const read = await call('GET', self);
  valid('periodicPaymentInitiationWithStatusResponse', read.body);
  for (const k of ['startDate', 'endDate', 'frequency', 'executionRule', 'dayOfExecution']) assert.equal(read.body[k], sent[k], k);
  assert.equal((await call('GET', `${self}/status`)).body.transactionStatus, 'RCVD');
  // Not a single payment: the services are apart.
  assert.equal((await call('GET', `${sb.baseUrls.A}/v1/payments/sepa-credit-transfers/${created.body.paymentId}`)).status, 404);
  // A standing order starting in ten days is cancelled only with the PSU's authorisation.
  assert.equal((await call('DELETE', self)).status, 202);
});

test('a standing order off the standard is refused 400: frequency, dayOfExecution, dates, monthsOfExecution', async () => {
  const at = `${sb.baseUrls.A}/v1/periodic-payments/sepa-credit-transfers`;
  for (const bad of [{ frequency: 'Fortnightly' }, { dayOfExecution: '05' }, { dayOfExecution: '32' }, { startDate: day(-1) }, { endDate: day(5) }, { frequency: 'MonthlyVariable' }]) {
    const r = await call('POST', at, standingOrder(sb, bad as never));
    assert.equal(r.status, 400, JSON.stringify(bad));
  }
  const variable = { ...standingOrder(sb, { frequency: 'MonthlyVariable' }), monthsOfExecution: ['1', '4', '10'] };
  assert.equal((await call('POST', at, variable)).status, 201);
  assert.equal((await call('POST', at, { ...standingOrder(sb), monthsOfExecution: ['1'] })).status, 400, 'monthsOfExecution only with MonthlyVariable');
});

test('a bulk is created and read back with each of its payments; a payment with a debtor of its own is refused', async () => {
  const sent = bulk(sb);
  const created = await call('POST', `${sb.baseUrls.A}/v1/bulk-payments/instant-sepa-credit-transfers`, sent);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  valid('paymentInitiationRequestResponse-201', created.body);
  const read = await call('GET', `${sb.baseUrls.A}/v1/bulk-payments/instant-sepa-credit-transfers/${created.body.paymentId}`);
  valid('bulkPaymentInitiationWithStatusResponse', read.body);
  assert.deepEqual(read.body.payments, sent.payments);
  assert.equal(read.body.batchBookingPreferred, false);
  const own = { ...sent, payments: [{ ...(sent.payments as Json[])[0], debtorAccount: { iban: iban(sb) } }] };
  assert.equal((await call('POST', `${sb.baseUrls.A}/v1/bulk-payments/instant-sepa-credit-transfers`, own)).status, 400);
  assert.equal((await call('POST', `${sb.baseUrls.A}/v1/bulk-payments/instant-sepa-credit-transfers`, { ...sent, payments: [] })).status, 400);
});

test('each of the four JSON products takes a single payment, read under its product', async () => {
  for (const product of ['sepa-credit-transfers', 'instant-sepa-credit-transfers', 'target-2-payments', 'cross-border-credit-transfers']) {
    const created = await call('POST', `${sb.baseUrls.A}/v1/payments/${product}`, { debtorAccount: { iban: iban(sb) }, instructedAmount: { currency: 'EUR', amount: '1.00' }, creditorAccount: { iban: 'DE02120300000000202051' }, creditorName: 'C' });
    assert.equal(created.status, 201, product);
    const read = await call('GET', `${sb.baseUrls.A}/v1/payments/${product}/${created.body.paymentId}`);
    assert.equal(read.status, 200, product);
    valid('paymentInitiationWithStatusResponse', read.body);
  }
  // A product the bank does not offer (its pain.001 products take XML: test/sandbox/bg-pain001.test.ts).
  assert.equal((await call('POST', `${sb.baseUrls.A}/v1/payments/sepa-direct-debits`, {})).status, 404);
});

test('the faults of BG-42, BG-43 and BG-44', async () => {
  const at = `${faulty.baseUrls.A}/v1`;
  const created = await call('POST', `${at}/periodic-payments/sepa-credit-transfers`, standingOrder(faulty));
  assert.equal((await call('GET', `${at}/periodic-payments/sepa-credit-transfers/${created.body.paymentId}`)).body.frequency, 'Weekly');
  assert.equal((await call('POST', `${at}/periodic-payments/sepa-credit-transfers`, standingOrder(faulty, { frequency: 'Fortnightly' }))).status, 201);
  const b = await call('POST', `${at}/bulk-payments/sepa-credit-transfers`, bulk(faulty));
  assert.equal((await call('GET', `${at}/bulk-payments/sepa-credit-transfers/${b.body.paymentId}`)).body.payments.length, 1);
  const t2 = await call('POST', `${at}/payments/target-2-payments`, { debtorAccount: { iban: iban(faulty) }, instructedAmount: { currency: 'EUR', amount: '1.00' }, creditorAccount: { iban: 'DE02120300000000202051' }, creditorName: 'C' });
  assert.equal((await call('GET', `${at}/payments/target-2-payments/${t2.body.paymentId}`)).status, 404);
});
