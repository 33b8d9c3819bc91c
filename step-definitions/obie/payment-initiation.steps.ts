import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { paymentBody, debtorAccounts, authoriseConsent, newIdempotencyKey, sharedPayment } from '../support/setups.ts';
import { describeAnswer, expectStatus, expectedStatus, quote, sameJson } from '../support/judge.ts';
import { consentIdOf, statusOf } from '../../src/dialects/obie/index.ts';

async function createPayment(world: ConformanceWorld, body: unknown, idempotencyKey?: string) {
  const token = await world.ccToken('pis');
  const r = await world.call('creating the payment-order consent', (c) => c.createPaymentConsent(body, { token, idempotencyKey }));
  const record: ConsentRecord = { fn: 'pis', id: consentIdOf(r.body) ?? '', created: r, request: body };
  world.payment = record;
  world.batch.push(r);
  return r;
}

When(/^the PISP creates a payment-order consent for ([\d.]+) in the account's currency to a creditor, from the PSU's first account$/, async function (this: ConformanceWorld, amount: string) {
  await createPayment(this, await paymentBody(this, amount, true));
});

When(/^the PISP creates a payment-order consent for ([\d.]+) in the account's currency to a creditor, from the PSU's first account, with a fresh idempotency key$/, async function (this: ConformanceWorld, amount: string) {
  const key = newIdempotencyKey();
  this.notes.push(key);
  this.batch = [];
  await createPayment(this, await paymentBody(this, amount, true), key);
});

When('the PISP sends the same request again with the same idempotency key', async function (this: ConformanceWorld) {
  await createPayment(this, this.payment!.request, this.notes.at(-1));
});

Then('both answers carry the same PaymentId', function (this: ConformanceWorld) {
  const [first, second] = this.batch;
  const a = consentIdOf(first?.body);
  const b = consentIdOf(second?.body);
  if (!a || a !== b) throw this.violation(`the same request under one x-idempotency-key created two resources: ${quote((first?.body as any)?.Data?.ConsentId)} and ${quote((second?.body as any)?.Data?.ConsentId)} (${describeAnswer(second!)})`);
});

When('the PISP creates a payment-order consent without an instructed amount', async function (this: ConformanceWorld) {
  const body: any = await paymentBody(this, '1.00', true);
  delete body.Data.Initiation.InstructedAmount;
  await createPayment(this, body);
});

Given(/^the PISP has created a payment-order consent for ([\d.]+) in the account's currency to a creditor, (from the PSU's first account|without a debtor account)$/, async function (this: ConformanceWorld, amount: string, debtor: string) {
  const r = await createPayment(this, await paymentBody(this, amount, debtor.startsWith('from')));
  // Creating the consent is PIS-01's to judge; here it is a precondition.
  if (r.status >= 300 || !this.payment?.id) throw this.blocked('PIS-01', `creating the payment-order consent (a set-up of this scenario) failed: ${describeAnswer(r)}`);
});

Then('the payment has a PaymentId', function (this: ConformanceWorld) {
  const id = consentIdOf(this.answer().body);
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) throw this.violation(`expected the PaymentId in Data.ConsentId, got ${quote((this.answer().body as any)?.Data?.ConsentId)} in ${describeAnswer(this.answer())}`);
});

Then('the payment\'s status is {string}', function (this: ConformanceWorld, expected: string) {
  const r = this.answer();
  expectStatus(this, r, [200, 201]);
  const status = statusOf(r.body);
  const want = expectedStatus(this, expected);
  if (status !== want.value) throw this.violation(`expected the payment's Data.Status ${want.words}, got ${quote((r.body as any)?.Data?.Status)} in ${describeAnswer(r)}`);
}, (s) => [`field:Data.Status=${s}`]);

When('the PISP reads the payment by its PaymentId', async function (this: ConformanceWorld) {
  const id = this.payment!.id;
  await this.call('reading the payment', async (c) => c.getPayment(id, { token: await this.ccToken('pis') }));
});

When('the PISP reads the payment {string}', async function (this: ConformanceWorld, id: string) {
  await this.call('reading the payment', async (c) => c.getPayment(id, { token: await this.ccToken('pis') }));
});

When('the PISP reads the status of the payment', async function (this: ConformanceWorld) {
  const id = this.payment!.id;
  await this.call('reading the payment status', async (c) => c.getPaymentStatus(id, { token: await this.ccToken('pis') }));
});

Then('the body is the same payment', function (this: ConformanceWorld) {
  const r = this.answer();
  const got = (r.body as any)?.Data;
  const asked = this.payment!.request.Data.Initiation;
  if (got?.ConsentId !== this.payment!.id) throw this.violation(`expected the payment ${this.payment!.id}, got ${quote(got?.ConsentId)} in ${describeAnswer(r)}`);
  if (!sameJson(got?.Initiation, asked)) throw this.violation(`the payment read back differs from the one created: asked ${JSON.stringify(asked)}, got ${quote(got?.Initiation)}`);
});


Given(/^the PSU has authorised a payment-order consent for ([\d.]+) in the account's currency to a creditor, from the PSU's first account$/, async function (this: ConformanceWorld, amount: string) {
  await sharedPayment(this, amount);
});

When(/^the PSU authorises the payment( choosing their second account as the debtor)?$/, async function (this: ConformanceWorld, choice: string | undefined) {
  const accounts = await debtorAccounts(this);
  const choose = accounts[1] ?? accounts[0]!;
  const choosing = Boolean(choice);
  if (choosing) this.payment!.debtorChosen = choose;
  await authoriseConsent(this, this.payment!, choosing ? { debtor: choose.accountId } : {});
});

Then('the bank asked the PSU to choose the debtor account', function (this: ConformanceWorld) {
  const journey = this.payment!.journey?.journey;
  if (!journey?.debtorOffered) throw this.violation('the payment-order consent has no debtor account, but the bank never asked the PSU to choose one');
});

Then('the bank did not ask the PSU to choose a debtor account', function (this: ConformanceWorld) {
  const journey = this.payment!.journey?.journey;
  if (journey?.debtorOffered) throw this.violation('the payment-order consent names its debtor account, but the bank asked the PSU to choose one (the consent must not change during authorisation)');
});

Then('the payment\'s debtor is the account the PSU chose', function (this: ConformanceWorld) {
  const chosen = this.payment!.debtorChosen!;
  const data = (this.answer().body as any)?.Data ?? {};
  const debtor = data.Debtor ?? data.Initiation?.DebtorAccount;
  if (!debtor || debtor.Identification !== chosen.identification) {
    throw this.violation(`the PSU chose the account ${chosen.identification} as debtor, but the payment carries ${debtor ? JSON.stringify(debtor) : 'no debtor'}`);
  }
});
