/**
 * The berlin-group scenarios of the periodic and bulk payment services
 * (features/berlin-group/payment-services.feature): POST /v1/periodic-payments/{payment-product}
 * and /v1/bulk-payments/{payment-product}, their GET and /status. No PSU journey: the debtor is the
 * PSU's first account (read once under the run's full consent), the SCA link is judged, not walked.
 */
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { TppClient } from '../../src/client/operations.ts';
import { bgHeaders, buildBulkPayment, buildPaymentInitiation, buildPeriodicPayment, isoDate, paymentIdOf } from '../../src/dialects/berlin-group/index.ts';
import { approachOf, bg, BgNotApplicable, fullConsent, plain, psuIp, scaHeaders } from './support.ts';
import { thePayment } from './payments.steps.ts';

/** SEPA accounts of another bank to pay (valid German and French IBANs no PSU here holds). */
export const CREDITORS = ['DE02120300000000202051', 'FR7630006000011234567890189'];

/** What the TPP sent, to compare the read-back with. */
const sent = new WeakMap<ConformanceWorld, Record<string, any>>();

export async function debtor(world: ConformanceWorld): Promise<{ iban: string; currency: string }> {
  const full = await fullConsent(world, { accountsOnly: true });
  const account = full.accounts.find((a) => a.iban);
  if (!account?.iban) throw world.blocked('AIS-11', 'the PSU\'s accounts carry no IBAN to pay from');
  return { iban: account.iban, currency: account.currency ?? 'EUR' };
}

/** POSTs the body to the service; keeps the payment (its id, the 201, the approach) as the scenario's. */
async function initiate(world: ConformanceWorld, what: string, body: Record<string, any>, post: 'createPeriodicPayment' | 'createBulkPayment'): Promise<void> {
  const approach = approachOf(world);
  const headers = { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...scaHeaders(world, approach) };
  sent.set(world, body);
  const r = await world.call(what, (c) => c[post](body, plain(world, headers)));
  const id = paymentIdOf(r.body);
  if (id) bg(world).payment = { id, created: r, approach };
}

When('the TPP initiates a NextGenPSD2 standing order from the PSU\'s first account, {string}, {string}, on day {int}', async function (this: ConformanceWorld, frequency: string, executionRule: string, day: number) {
  const from = await debtor(this);
  // From next month's day `day` for a year: a start the bank cannot find past, whatever its clock.
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day));
  const end = new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), day - 1));
  const body = buildPeriodicPayment({
    debtor: { iban: from.iban }, amount: '1.00', currency: from.currency, creditor: { iban: CREDITORS[0]! }, creditorName: 'obtpp test landlord',
    endToEndIdentification: this.uniqueRef('obtpp'), startDate: isoDate(start), endDate: isoDate(end), frequency,
    executionRule: executionRule as 'following', dayOfExecution: String(day),
  });
  await initiate(this, 'initiating the standing order', body, 'createPeriodicPayment');
});

When('the TPP initiates a NextGenPSD2 bulk of {int} payments from the PSU\'s first account', async function (this: ConformanceWorld, n: number) {
  const from = await debtor(this);
  const body = buildBulkPayment({
    debtor: { iban: from.iban }, batchBookingPreferred: true,
    payments: Array.from({ length: n }, (_, i) => ({
      amount: `${i + 1}.00`, currency: from.currency, creditor: { iban: CREDITORS[i % CREDITORS.length]! }, creditorName: `obtpp test payee ${i + 1}`,
      endToEndIdentification: this.uniqueRef(`obtpp${i}`), remittance: `obtpp bulk item ${i + 1}`,
    })),
  });
  await initiate(this, 'initiating the bulk payment', body, 'createBulkPayment');
});

for (const [words, get, status] of [
  ['standing order', 'getPeriodicPayment', 'getPeriodicPaymentStatus'],
  ['bulk payment', 'getBulkPayment', 'getBulkPaymentStatus'],
] as const) {
  When(`the TPP reads the NextGenPSD2 ${words}`, async function (this: ConformanceWorld) {
    const payment = thePayment(this);
    await this.call(`reading the ${words}`, (c) => c[get](payment.id, plain(this, bgHeaders())));
  });
  When(`the TPP reads the NextGenPSD2 ${words}'s status`, async function (this: ConformanceWorld) {
    const payment = thePayment(this);
    await this.call(`reading the ${words}'s status`, (c) => c[status](payment.id, plain(this, bgHeaders())));
  });
}

/**
 * Whether a member reads back as sent: an account by the identifiers the TPP gave (the bank may
 * add its currency), an amount by its currency and value ("1.00" and "1" are one amount), the
 * rest as sent.
 */
function same(asked: any, got: any): boolean {
  if (asked && typeof asked === 'object' && 'amount' in asked && 'currency' in asked) {
    return got?.currency === asked.currency && Number(got?.amount) === Number(asked.amount);
  }
  if (asked && typeof asked === 'object') return Object.keys(asked).every((k) => String(got?.[k] ?? '').replace(/\s/g, '') === String(asked[k]).replace(/\s/g, ''));
  return JSON.stringify(got) === JSON.stringify(asked);
}

/** The members a read-back must keep as the TPP sent them (the GET is "the corresponding … payment initiation JSON body"). */
function differences(asked: Record<string, any>, got: Record<string, any>, members: readonly string[], where = ''): string[] {
  const out: string[] = [];
  for (const m of members) {
    if (asked[m] === undefined) continue;
    if (!same(asked[m], got?.[m])) out.push(`${where}${m}: sent ${quote(asked[m])}, read back ${quote(got?.[m])}`);
  }
  return out;
}

Then('the standing order reads back its startDate, endDate, frequency, executionRule and dayOfExecution as initiated', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const asked = sent.get(this)!;
  const wrong = differences(asked, r.body as Record<string, any>, ['startDate', 'endDate', 'frequency', 'executionRule', 'dayOfExecution', 'instructedAmount', 'creditorAccount', 'debtorAccount']);
  if (wrong.length) throw this.violation(`the standing order reads back otherwise than initiated: ${wrong.join('; ')} (${describeAnswer(r)})`);
});

Then('the bulk payment reads back each of its payments as initiated', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const asked = sent.get(this)!;
  const got = (r.body ?? {}) as { payments?: unknown };
  const payments = Array.isArray(got.payments) ? got.payments as Array<Record<string, any>> : [];
  const wanted = asked.payments as Array<Record<string, any>>;
  if (payments.length !== wanted.length) throw this.violation(`the bulk of ${wanted.length} payments reads back ${payments.length} (${describeAnswer(r)})`);
  // Each payment sent is read back (by its endToEndIdentification, else in the order sent).
  const wrong = wanted.flatMap((w, i) => {
    const match = payments.find((p) => p.endToEndIdentification === w.endToEndIdentification) ?? payments[i]!;
    return differences(w, match, ['instructedAmount', 'creditorAccount', 'creditorName'], `payments[${i}].`);
  });
  wrong.push(...differences(asked, got as Record<string, any>, ['debtorAccount']));
  if (wrong.length) throw this.violation(`the bulk payment reads back otherwise than initiated: ${wrong.join('; ')}`);
});

// ---------------------------------------------------------------------------------------------
// The payment products (BG-44)

/** The scenario's product, and the tpp client whose paths name it ({payment-product}). */
const products = new WeakMap<ConformanceWorld, TppClient>();

When('the TPP initiates a NextGenPSD2 payment of the product {string} from the PSU\'s first account', async function (this: ConformanceWorld, product: string) {
  const offered = this.ctx.profile.paymentProducts ?? [this.ctx.profile.paths.paymentProduct];
  if (!offered.includes(product)) throw new BgNotApplicable('createPaymentConsent', this.variant, `the profile's paymentProducts does not offer ${product} (${offered.join(', ')})`);
  const client = new TppClient({ ...this.ctx.profile, paths: { ...this.ctx.profile.paths, paymentProduct: product } }, this.variant, this.lane.http);
  products.set(this, client);
  const from = await debtor(this);
  const body = buildPaymentInitiation({
    debtor: { iban: from.iban }, amount: '1.00', currency: from.currency, creditor: { iban: CREDITORS[1]! }, creditorName: 'obtpp test creditor',
    endToEndIdentification: this.uniqueRef('obtpp'),
  }) as unknown as Record<string, any>;
  const approach = approachOf(this);
  sent.set(this, body);
  const r = await this.call(`initiating a payment of ${product}`, () => client.createPaymentConsent(body as never, plain(this, { ...bgHeaders({ psuIpAddress: psuIp(this) }), ...scaHeaders(this, approach) })));
  const id = paymentIdOf(r.body);
  if (id) bg(this).payment = { id, created: r, approach };
});

When('the TPP reads the NextGenPSD2 payment under its product', async function (this: ConformanceWorld) {
  const payment = thePayment(this);
  const client = products.get(this) ?? this.client;
  await this.call('reading the payment', () => client.getPayment(payment.id, plain(this, bgHeaders())));
});

Then('the payment reads back its amount and accounts as initiated', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const wrong = differences(sent.get(this)!, r.body as Record<string, any>, ['instructedAmount', 'debtorAccount', 'creditorAccount', 'creditorName']);
  if (wrong.length) throw this.violation(`the payment reads back otherwise than initiated: ${wrong.join('; ')} (${describeAnswer(r)})`);
});
