/**
 * The berlin-group scenarios of payment initiation and confirmation of funds
 * (features/berlin-group): POST /v1/payments/{payment-product}, its SCA, GET and /status; POST
 * /v1/funds-confirmations.
 */
import { randomUUID } from 'node:crypto';
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import {
  bgHeaders, buildFundsConfirmation, buildPaymentInitiation, fundsAvailableOf, FINAL_TRANSACTION_STATUSES, paymentIdOf,
  TRANSACTION_STATUSES, transactionStatusOf,
} from '../../src/dialects/berlin-group/index.ts';
import { approachOf, bg, expectBgSchema, expectScaLink, fullConsent, plain, psuIp, sca, scaHeaders } from './support.ts';

/** A SEPA account of another bank to pay (a valid German IBAN no PSU of any bank here holds). */
const CREDITOR_IBAN = 'DE02120300000000202051';

/** POST /v1/payments/{payment-product} of 1.00 from the PSU's first account (`extra`: more members, a requestedExecutionDate …). */
export async function initiate(world: ConformanceWorld, withAmount: boolean, extra: Record<string, unknown> = {}): Promise<void> {
  const full = await fullConsent(world, { accountsOnly: true });
  const debtor = full.accounts.find((a) => a.iban);
  if (!debtor?.iban) throw world.blocked('AIS-11', 'the PSU\'s accounts carry no IBAN to pay from');
  const approach = approachOf(world);
  const body: Record<string, unknown> = { ...buildPaymentInitiation({
    debtor: { iban: debtor.iban }, amount: '1.00', currency: debtor.currency ?? 'EUR',
    creditor: { iban: CREDITOR_IBAN }, creditorName: 'obtpp test creditor', endToEndIdentification: world.uniqueRef('obtpp'),
  }), ...extra };
  if (!withAmount) delete body.instructedAmount;
  const headers = { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...scaHeaders(world, approach) };
  const r = await world.call('initiating the payment', (c) => c.createPaymentConsent(body, plain(world, headers)));
  const id = paymentIdOf(r.body);
  if (id) bg(world).payment = { id, created: r, approach };
}

export function thePayment(world: ConformanceWorld) {
  const payment = bg(world).payment;
  if (!payment) throw world.blocked('PIS-01', `the bank did not initiate the payment: ${world.last ? describeAnswer(world.last) : 'no answer'}`);
  return payment;
}

When('the TPP initiates a NextGenPSD2 payment from the PSU\'s first account', async function (this: ConformanceWorld) {
  await initiate(this, true);
});

When('the TPP initiates a NextGenPSD2 payment without instructedAmount', async function (this: ConformanceWorld) {
  await initiate(this, false);
});

for (const [text, reject] of [['authorises', false], ['rejects', true]] as const) {
  When(`the PSU ${text} the NextGenPSD2 payment`, async function (this: ConformanceWorld) {
    const payment = thePayment(this);
    await sca(this, payment, { reject, fn: 'pis' });
  });
}

Then('the answer gives a way to start the PSU\'s SCA of the payment', function (this: ConformanceWorld) {
  const payment = thePayment(this);
  expectScaLink(this, payment.created, payment.approach, 'payment');
});

When('the TPP reads the NextGenPSD2 payment', async function (this: ConformanceWorld) {
  const payment = thePayment(this);
  await this.call('reading the payment', (c) => c.getPayment(payment.id, plain(this, bgHeaders())));
});

When('the TPP reads the NextGenPSD2 payment\'s status', async function (this: ConformanceWorld) {
  const payment = thePayment(this);
  await this.call('reading the payment\'s status', (c) => c.getPaymentStatus(payment.id, plain(this, bgHeaders())));
});

When('the TPP reads a NextGenPSD2 payment the bank never created', async function (this: ConformanceWorld) {
  await this.call('reading the payment', (c) => c.getPayment(`obtpp-unknown-${randomUUID()}`, plain(this, bgHeaders())));
});

Then(/^the bank answers (\d{3}) with a valid "([\w.-]+)"$/, function (this: ConformanceWorld, status: string, schema: string) {
  const r = this.answer();
  expectStatus(this, r, [Number(status)]);
  expectBgSchema(this, r, schema as never);
});

Then(/^the bank answers (\d{3}) with a valid "([\w.-]+)" for that account$/, function (this: ConformanceWorld, status: string, schema: string) {
  const r = this.answer();
  expectStatus(this, r, [Number(status)]);
  expectBgSchema(this, r, schema as never);
  const asked = decodeURIComponent(new URL(r.exchange.url).pathname.split('/').pop() ?? '');
  const got = (r.body as { account?: { resourceId?: unknown } })?.account?.resourceId;
  if (got !== undefined && got !== asked) throw this.violation(`GET …/accounts/${asked} answered the account ${quote(got)}`);
});

/** The transaction status of the last answer, which must be one of ISO 20022's. */
function transactionStatus(world: ConformanceWorld): string {
  const r = world.answer();
  expectStatus(world, r, [200, 201]);
  const got = transactionStatusOf(r.body);
  if (!got || !(TRANSACTION_STATUSES as readonly string[]).includes(got)) {
    throw world.violation(`${describeAnswer(r)} carries transactionStatus ${quote(got)}, not an ISO 20022 code (${TRANSACTION_STATUSES.join(', ')})`);
  }
  return got;
}

Then('the NextGenPSD2 payment\'s transaction status is an ISO 20022 code', function (this: ConformanceWorld) {
  transactionStatus(this);
});

Then('the NextGenPSD2 payment\'s transaction status is not yet final', function (this: ConformanceWorld) {
  const got = transactionStatus(this);
  if ((FINAL_TRANSACTION_STATUSES as readonly string[]).includes(got)) throw this.violation(`a payment the PSU has not authorised yet is already ${got}, a final status`);
});

/** Statuses of a payment the bank has accepted (ISO 20022): anything past RCVD but a rejection or cancellation. */
const ACCEPTED = TRANSACTION_STATUSES.filter((s) => !['RCVD', 'RJCT', 'CANC'].includes(s));

Then('the NextGenPSD2 payment\'s transaction status is an accepted one', function (this: ConformanceWorld) {
  const got = transactionStatus(this);
  if (!(ACCEPTED as readonly string[]).includes(got)) throw this.violation(`the payment the PSU authorised reads transactionStatus ${got}, expected one of ${ACCEPTED.join(', ')}`);
});

Then('the NextGenPSD2 payment\'s transaction status is {string}', function (this: ConformanceWorld, status: string) {
  const got = transactionStatus(this);
  if (got !== status) throw this.violation(`expected transactionStatus ${status}, got ${got}`);
});

// ---------------------------------------------------------------------------------------------
// Confirmation of funds

When('the TPP asks whether the PSU\'s first account holds {word}', async function (this: ConformanceWorld, amount: string) {
  const full = bg(this).full ?? await fullConsent(this);
  const account = full.accounts.find((a) => a.iban);
  if (!account?.iban) throw this.blocked('AIS-11', 'the PSU\'s accounts carry no IBAN to confirm funds on');
  const body = buildFundsConfirmation({ account: { iban: account.iban }, amount, currency: account.currency ?? 'EUR' });
  await this.call('confirming funds', (c) => c.confirmFunds(body, plain(this, bgHeaders())));
});

Then('the funds-confirmation answer holds fundsAvailable alone', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const extra = Object.keys((r.body ?? {}) as object).filter((k) => k !== 'fundsAvailable');
  if (extra.length) throw this.violation(`the funds confirmation discloses more than whether funds are available: ${extra.join(', ')} (${describeAnswer(r)})`);
});

Then(/^the funds-confirmation answer says fundsAvailable (true|false)$/, function (this: ConformanceWorld, expected: string) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'fundsConfirmationResponse200');
  const got = fundsAvailableOf(r.body);
  const asked = (r.exchange.request.body as { instructedAmount?: unknown } | undefined)?.instructedAmount;
  if (String(got) !== expected) throw this.violation(`expected fundsAvailable ${expected} for ${quote(asked)}, got ${quote(got)}`);
});
