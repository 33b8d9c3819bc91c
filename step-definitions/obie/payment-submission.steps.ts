import { generateKeyPair } from 'jose';
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { paymentBody, freshPayment, newIdempotencyKey, tokenOf } from '../support/setups.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { buildPaymentOrder, consentIdOf, paymentOrderIdOf } from '../../src/dialects/obie/index.ts';
import type { PaymentConsentBody } from '../../src/dialects/obie/index.ts';
import { NotApplicableError, SigningOffError, type ApiResult } from '../../src/client/operations.ts';
import type { Variant } from '../../src/profile/types.ts';
import { signDetached } from '../../src/client/jws.ts';

async function submit(world: ConformanceWorld, body: unknown, key?: string): Promise<ApiResult> {
  const token = tokenOf(world.payment!);
  const r = await world.call('submitting the payment order', (c) => c.submitPayment(body, { token, idempotencyKey: key }));
  world.batch.push(r);
  return r;
}

const orderOf = (world: ConformanceWorld) => buildPaymentOrder(world.payment!.id, world.payment!.request as PaymentConsentBody);

Given(/^the PSU has authorised a fresh payment-order consent for ([\d.]+) in the account's currency to a creditor, from the PSU's first account$/, async function (this: ConformanceWorld, amount: string) {
  await freshPayment(this, amount);
});

When(/^the PISP submits the payment order with the consent's Initiation and Risk( again, with a new idempotency key| with a fresh idempotency key)?$/, async function (this: ConformanceWorld, how: string | undefined) {
  const key = how ? newIdempotencyKey() : undefined;
  if (key) this.notes.push(key);
  await submit(this, orderOf(this), key);
});

When('the PISP submits the same payment order again with the same idempotency key', async function (this: ConformanceWorld) {
  await submit(this, orderOf(this), this.notes.at(-1));
});

When('the PISP submits the payment order with a different instructed amount', async function (this: ConformanceWorld) {
  const order = orderOf(this);
  const amount = Number(order.Data.Initiation.InstructedAmount.Amount);
  order.Data.Initiation.InstructedAmount.Amount = (amount + 1).toFixed(2);
  await submit(this, order);
});

When('the PISP submits the payment order for the rejected consent', async function (this: ConformanceWorld) {
  // The PSU rejected it: the PISP holds no PSU token for it, only its client-credentials token.
  const token = await this.ccToken('pis');
  await this.call('submitting the payment order', (c) => c.submitPayment(orderOf(this), { token }));
});

Then('the first submission was accepted', function (this: ConformanceWorld) {
  const first = this.batch[0];
  if (!first || first.status !== 201 || !paymentOrderIdOf(first.body)) throw this.blocked('PIS-04', `the first payment order on the consent was not accepted: ${first ? describeAnswer(first) : 'no answer'}`);
});

Then('the payment order has a DomesticPaymentId and names the consent', function (this: ConformanceWorld) {
  const r = this.answer();
  const id = paymentOrderIdOf(r.body);
  if (!id) throw this.violation(`expected Data.DomesticPaymentId in ${describeAnswer(r)}`);
  if (consentIdOf(r.body) !== this.payment!.id) throw this.violation(`the payment order names the consent ${quote((r.body as any)?.Data?.ConsentId)}, not ${this.payment!.id}`);
  this.notes.push(`order:${id}`);
});

const lastOrderId = (world: ConformanceWorld) => world.notes.filter((n) => n.startsWith('order:')).at(-1)?.slice('order:'.length) ?? '';

When('the PISP reads the payment order', async function (this: ConformanceWorld) {
  const id = lastOrderId(this);
  await this.call('reading the payment order', async (c) => c.getPaymentOrder(id, { token: await this.ccToken('pis') }));
});

When('the PISP reads the details of the payment order', async function (this: ConformanceWorld) {
  const id = lastOrderId(this);
  await this.call('reading the payment order\'s details', async (c) => c.getPaymentDetails(id, { token: await this.ccToken('pis') }));
});

Given('the PISP has submitted the payment order of a fresh authorised consent for {float}', async function (this: ConformanceWorld, amount: number) {
  await freshPayment(this, amount.toFixed(2));
  const r = await submit(this, orderOf(this));
  const id = paymentOrderIdOf(r.body);
  if (r.status !== 201 || !id) throw this.blocked('PIS-04', `submitting the payment order (a set-up of this scenario) failed: ${describeAnswer(r)}`);
  this.notes.push(`order:${id}`);
});

Then('the body is the same payment order', function (this: ConformanceWorld) {
  const r = this.answer();
  const data = (r.body as any)?.Data;
  if (data?.DomesticPaymentId !== lastOrderId(this)) throw this.violation(`expected the payment order ${lastOrderId(this)}, got ${quote(data?.DomesticPaymentId)}`);
  const asked = (this.payment!.request as PaymentConsentBody).Data.Initiation;
  if (JSON.stringify(sorted(data?.Initiation)) !== JSON.stringify(sorted(asked))) throw this.violation(`the payment order's Initiation differs from the consent's: asked ${JSON.stringify(asked)}, got ${quote(data?.Initiation)}`);
});

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sorted(x)]));
  return v;
}

Then('both answers carry the same DomesticPaymentId', function (this: ConformanceWorld) {
  const [first, second] = this.batch;
  expectStatus(this, second!, [201], 'the repeated submission under the same x-idempotency-key answers 201 with the original payment order');
  const a = paymentOrderIdOf(first?.body);
  const b = paymentOrderIdOf(second?.body);
  if (!a || a !== b) throw this.violation(`the same payment order under one x-idempotency-key gave ${quote(a)} and ${quote(b)}: a second payment order (${describeAnswer(second!)})`);
});

When('the PISP checks the funds of the payment consent with the PSU\'s token', async function (this: ConformanceWorld) {
  const token = tokenOf(this.payment!);
  await this.call('the funds check of the payment consent', (c) => c.getPaymentFunds(this.payment!.id, { token }));
});

When('the PISP checks the funds of the payment consent with its client-credentials token', async function (this: ConformanceWorld) {
  const token = await this.ccToken('pis');
  await this.call('the funds check of the payment consent', (c) => c.getPaymentFunds(this.payment!.id, { token }));
});

Then('the answer says whether funds are available', function (this: ConformanceWorld) {
  const result = (this.answer().body as any)?.Data?.FundsAvailableResult;
  if (typeof result?.FundsAvailable !== 'boolean') throw this.violation(`expected Data.FundsAvailableResult.FundsAvailable, a boolean, in ${describeAnswer(this.answer())}`);
});

// ---- x-jws-signature ---------------------------------------------------------------------------

/** The profile says the bank does not sign its answers, under a waiver (bank.signsAnswers: false). */
class BankSignsNothing extends NotApplicableError {
  constructor(variant: Variant, waiver: string) {
    super('createPaymentConsent', variant);
    this.message = `the profile says the bank does not sign its answers (bank.signsAnswers: false), under the waiver ${JSON.stringify(waiver)}`;
  }
}

Given('the profile signs payment messages', function (this: ConformanceWorld) {
  if (!this.client.signs) throw new SigningOffError(this.variant, this.client.profile);
});

Then('the answer carries an x-jws-signature that verifies with the bank\'s keys', function (this: ConformanceWorld) {
  const r = this.answer();
  const bank = this.client.profile.bank;
  // A bank that says it does not sign, under a waiver, is not judged on signing: the waiver is named.
  if (bank.signsAnswers === false) throw new BankSignsNothing(this.variant, bank.signingWaiver ?? '');
  if (!r.signature) {
    // What can be judged without the bank's keys is judged: an absent or malformed signature fails.
    const header = r.headers['x-jws-signature'];
    if (typeof header !== 'string' || header.trim() === '') throw this.violation(`the answer carries no x-jws-signature header (UK.OBIE.Signature.Missing): ${describeAnswer(r)}`);
    const parts = header.trim().split('.');
    if (parts.length !== 3 || parts[1] !== '' || !parts[0] || !parts[2]) throw this.violation(`the bank's x-jws-signature is not a detached JWS (protected..signature) (UK.OBIE.Signature.Malformed): ${describeAnswer(r)}`);
    throw this.blocked(undefined, 'the answer carries an x-jws-signature, but the profile names no bank.jwks: whether it verifies cannot be checked without the bank\'s keys');
  }
  if (!r.signature.valid) throw this.violation(`the bank's x-jws-signature does not hold (UK.OBIE.Signature.${r.signature.code}): ${r.signature.problem} (${describeAnswer(r)})`);
}, ['signature']);

When(/^the PISP creates a payment-order consent for ([\d.]+) in the account's currency to a creditor, from the PSU's first account, (without an x-jws-signature|with an x-jws-signature over another body|with an x-jws-signature made with a key the TPP never registered)$/, async function (this: ConformanceWorld, amount: string, how: string) {
  const body = await paymentBody(this, amount, true);
  let signature: string | false = false;
  if (how.includes('another body')) {
    const other = structuredClone(body);
    other.Data.Initiation.InstructedAmount.Amount = (Number(amount) + 100).toFixed(2);
    signature = await signDetached(JSON.stringify(other), await this.client.messageSigner());
  } else if (how.includes('never registered')) {
    const own = await this.client.messageSigner();
    const { privateKey } = await generateKeyPair('PS256');
    signature = await signDetached(JSON.stringify(body), { ...own, key: privateKey });
  }
  const token = await this.ccToken('pis');
  await this.call('creating the payment-order consent', (c) => c.createPaymentConsent(body, { token, signature }));
});
