// Variable Recurring Payments (features/obie/uk-vrp.feature): a VRP consent with control
// parameters, authorised once by the PSU, then payments without the PSU, each judged against the
// consent's limits. Consents are shared by name within a run, like the payment-order consents.
import { Given, When, Then, statusKind } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { authoriseConsent, CREDITOR, currencyOf, debtorAccount, newIdempotencyKey, sharedSetup, SHARED_GIVENS, sleepUntil, tokenOf, withinWindows } from '../support/setups.ts';
import { describeAnswer, expectRefusal, expectStatus, expectedStatus, parseStatuses, quote, sameJson, versionOfWorld, warn } from '../support/judge.ts';
import type { ApiResult } from '../support/setups.ts';
import { buildVrp, buildVrpConsent, buildVrpFundsConfirmation, isoDateTime, type VrpBody, type VrpConsentBody } from '../../src/dialects/obie/builders.ts';
import { errorCodesOf } from '../../src/dialects/obie/index.ts';
import { signDetached } from '../../src/client/jws.ts';
import { outlived } from '../../src/conformance/context.ts';
import { SigningOffError } from '../../src/client/operations.ts';

/** What a scenario did with VRP so far: its consent and the payments it made. */
interface VrpState {
  consent?: ConsentRecord;
  payments: ApiResult[];
  /** The last payment request and the key it went with (idempotency). */
  lastBody?: VrpBody;
  lastKey?: string;
}

const states = new WeakMap<ConformanceWorld, VrpState>();
function state(world: ConformanceWorld): VrpState {
  let s = states.get(world);
  if (!s) states.set(world, (s = { payments: [] }));
  return s;
}

const FAILS_CONTROL_PARAMETERS = 'UK.OBIE.Rules.FailsControlParameters';
const DAY = 86_400_000;

/** A VRP consent body: sweeping between the PSU's own accounts' creditor, from the PSU's first account. */
async function consentBody(world: ConformanceWorld, perPayment: string, perDay: string, o: { validFrom?: string } = {}): Promise<VrpConsentBody> {
  const first = await debtorAccount(world);
  const currency = currencyOf(world, first);
  return buildVrpConsent({
    creditor: CREDITOR,
    debtor: { schemeName: first.schemeName!, identification: first.identification!, name: first.name ?? 'PSU account' },
    reference: 'obtpp VRP',
    maximumIndividualAmount: { amount: perPayment, currency },
    periodicLimits: [{ periodType: 'Day', periodAlignment: 'Calendar', amount: perDay, currency }],
    ...(o.validFrom ? { validFrom: o.validFrom } : {}),
    version: versionOfWorld(world),
  });
}

async function createVrpConsent(world: ConformanceWorld, body: unknown): Promise<ApiResult> {
  const token = await world.ccToken('pis');
  const r = await world.call('creating the VRP consent', (c) => c.createVrpConsent(body, { token }));
  state(world).consent = { fn: 'pis', id: (r.body as any)?.Data?.ConsentId ?? '', created: r, request: body };
  return r;
}

/** A VRP consent authorised by the PSU, shared by the scenarios that name it alike. */
function authorisedVrp(world: ConformanceWorld, key: string, make: () => Promise<VrpConsentBody>): Promise<ConsentRecord> {
  return sharedSetup(world, `${world.variant}:vrp:${key}`, async () => {
    const body = await make();
    const token = await world.ccToken('pis');
    const created = await world.call('creating the VRP consent', (c) => c.createVrpConsent(body, { token }));
    const id = (created.body as any)?.Data?.ConsentId;
    if (created.status !== 201 || typeof id !== 'string') throw world.blocked('VRP-01', `creating the VRP consent (a set-up of this scenario) failed: ${describeAnswer(created)}`);
    return authoriseConsent(world, { fn: 'pis', id, created, request: body });
  });
}

// ── The consent ──────────────────────────────────────────────────────────────────────────────

When(/^the PISP creates a VRP consent with at most ([\d.]+) per payment and ([\d.]+) per day$/, async function (this: ConformanceWorld, perPayment: string, perDay: string) {
  await createVrpConsent(this, await consentBody(this, perPayment, perDay));
});

When('the PISP creates a VRP consent without periodic limits', async function (this: ConformanceWorld) {
  const body: any = await consentBody(this, '5.00', '20.00');
  delete body.Data.ControlParameters.PeriodicLimits;
  await createVrpConsent(this, body);
});

When('the PISP creates a VRP consent without control parameters', async function (this: ConformanceWorld) {
  const body: any = await consentBody(this, '5.00', '20.00');
  delete body.Data.ControlParameters;
  await createVrpConsent(this, body);
});

Given(/^the PSU has authorised the VRP consent "([^"]+)" with at most ([\d.]+) per payment and ([\d.]+) per day$/, async function (this: ConformanceWorld, name: string, perPayment: string, perDay: string) {
  state(this).consent = await authorisedVrp(this, `${name}:${perPayment}:${perDay}`, () => consentBody(this, perPayment, perDay));
});

Given(/^the PSU has authorised a VRP consent valid only from tomorrow, with at most ([\d.]+) per payment and ([\d.]+) per day$/, async function (this: ConformanceWorld, perPayment: string, perDay: string) {
  const validFrom = `${new Date(Date.now() + DAY).toISOString().slice(0, 19)}+00:00`;
  state(this).consent = await authorisedVrp(this, `from-tomorrow:${perPayment}:${perDay}`, () => consentBody(this, perPayment, perDay, { validFrom }));
});

When('the PISP reads the VRP consent', async function (this: ConformanceWorld) {
  const id = state(this).consent!.id;
  await this.call('reading the VRP consent', async (c) => c.getVrpConsent(id, { token: await this.ccToken('pis') }));
});

When('the PISP deletes the VRP consent', async function (this: ConformanceWorld) {
  const id = state(this).consent!.id;
  await this.call('deleting the VRP consent', async (c) => c.deleteVrpConsent(id, { token: await this.ccToken('pis') }));
});

Then('the VRP consent\'s status is {string}', function (this: ConformanceWorld, expected: string) {
  const r = this.answer();
  const got = (r.body as any)?.Data?.Status;
  const want = expectedStatus(this, expected);
  if (got !== want.value) throw this.violation(`expected the VRP consent's Data.Status ${want.words}, got ${quote(got)} in ${describeAnswer(r)}`);
}, (s) => [`field:Data.Status=${s}`]);

Then('the VRP consent\'s control parameters are exactly those requested', function (this: ConformanceWorld) {
  const r = this.answer();
  const asked = state(this).consent!.request.Data.ControlParameters;
  const got = (r.body as any)?.Data?.ControlParameters;
  if (!sameJson(got, asked)) throw this.violation(`the bank changed the control parameters: asked ${JSON.stringify(asked)}, got ${quote(got)} in ${describeAnswer(r)}`);
});

// ── Payments ─────────────────────────────────────────────────────────────────────────────────

async function pay(world: ConformanceWorld, amount: string, o: { key?: string; unsigned?: boolean; body?: VrpBody } = {}): Promise<ApiResult> {
  const s = state(world);
  const consent = s.consent!;
  const currency = consent.request.Data.ControlParameters.MaximumIndividualAmount.Currency as string;
  const body = o.body ?? buildVrp(consent.id, consent.request, {
    instructionIdentification: world.uniqueRef('VRP').slice(0, 35), endToEndIdentification: world.uniqueRef('E2E').slice(0, 35), amount, currency,
  });
  s.lastBody = body;
  s.lastKey = o.key;
  const r = await world.call('making a VRP payment', (c) => c.createVrp(body, {
    token: tokenOf(consent), ...(o.key ? { idempotencyKey: o.key } : {}), ...(o.unsigned ? { signature: false } : {}),
  }));
  s.payments.push(r);
  return r;
}

When(/^the PISP pays ([\d.]+) under the VRP consent$/, async function (this: ConformanceWorld, amount: string) {
  await pay(this, amount);
});

/**
 * The first or second payment under the scenario's VRP consent, made once for the run: each
 * judged by a scenario of its own, then read back by others (the second waits for the first).
 */
function sharedPayment(world: ConformanceWorld, nth: string, amount: string): Promise<{ result: ApiResult }> {
  const consent = state(world).consent!;
  return sharedSetup(world, `${world.variant}:vrp-payment:${consent.id}:${nth}`, async () => {
    if (nth === 'second') await sharedPayment(world, 'first', amount);
    return { result: await pay(world, amount) };
  });
}

function remember(world: ConformanceWorld, result: ApiResult): void {
  const s = state(world);
  if (!s.payments.includes(result)) s.payments.push(result);
  world.last = result;
}

When(/^the PISP makes the (first|second) payment of ([\d.]+) under the VRP consent$/, async function (this: ConformanceWorld, nth: string, amount: string) {
  remember(this, (await sharedPayment(this, nth, amount)).result);
});

Given(/^the (first|second) payment of ([\d.]+) under the VRP consent was accepted$/, async function (this: ConformanceWorld, nth: string, amount: string) {
  const { result } = await sharedPayment(this, nth, amount);
  if (result.status !== 201) throw this.blocked('VRP-02', `the ${nth} payment under the VRP consent (a set-up of this scenario) was not accepted: ${describeAnswer(result)}`);
  remember(this, result);
});

/** The scenario's VRP consent deleted once for the run, after a first payment under it (which shows the consent paid before). */
function deletedVrp(world: ConformanceWorld): Promise<{ before: ApiResult; deleted: ApiResult }> {
  const consent = state(world).consent!;
  return sharedSetup(world, `${world.variant}:vrp-deleted:${consent.id}`, async () => {
    const before = await pay(world, '1.00');
    const deleted = await world.call('deleting the VRP consent', async (c) => c.deleteVrpConsent(consent.id, { token: await world.ccToken('pis') }));
    return { before, deleted };
  });
}

When('the PISP deletes the VRP consent after a first payment under it', async function (this: ConformanceWorld) {
  this.last = (await deletedVrp(this)).deleted;
});

Given('the PISP has deleted the VRP consent after a first payment under it', async function (this: ConformanceWorld) {
  const { deleted } = await deletedVrp(this);
  if (deleted.status !== 204) throw this.blocked('VRP-06', `deleting the VRP consent (a set-up of this scenario) failed: ${describeAnswer(deleted)}`);
});

Then('the payment made before the deletion was accepted', async function (this: ConformanceWorld) {
  const { before } = await deletedVrp(this);
  // The refusals after the deletion say something only if the consent paid before it.
  if (before.status !== 201) throw this.blocked('VRP-02', `the payment before the deletion was not accepted, so the refusals after it prove nothing: ${describeAnswer(before)}`);
});

When(/^the PISP pays ([\d.]+) under the VRP consent without an x-jws-signature$/, async function (this: ConformanceWorld, amount: string) {
  await pay(this, amount, { unsigned: true });
});

When(/^the PISP pays ([\d.]+) under the VRP consent with a fresh idempotency key$/, async function (this: ConformanceWorld, amount: string) {
  await pay(this, amount, { key: newIdempotencyKey() });
});

When('the PISP sends the same VRP payment again with the same idempotency key', async function (this: ConformanceWorld) {
  const s = state(this);
  await pay(this, '', { key: s.lastKey, body: s.lastBody });
});

When(/^the PISP pays ([\d.]+) under the VRP consent to another creditor than the consent's$/, async function (this: ConformanceWorld, amount: string) {
  const consent = state(this).consent!;
  const currency = consent.request.Data.ControlParameters.MaximumIndividualAmount.Currency as string;
  const body = buildVrp(consent.id, consent.request, { instructionIdentification: this.uniqueRef('VRP').slice(0, 35), endToEndIdentification: this.uniqueRef('E2E').slice(0, 35), amount, currency });
  const other = { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400411290127', Name: 'Someone Else Ltd' };
  body.Data.Initiation.CreditorAccount = other;
  body.Data.Instruction.CreditorAccount = other;
  await pay(this, amount, { body });
});

When(/^the PISP confirms funds of ([\d.]+) under the VRP consent$/, async function (this: ConformanceWorld, amount: string) {
  const consent = state(this).consent!;
  const currency = consent.request.Data.ControlParameters.MaximumIndividualAmount.Currency as string;
  const body = buildVrpFundsConfirmation({ consentId: consent.id, amount, currency, reference: 'obtpp VRP' });
  await this.call('the funds check of the VRP consent', (c) => c.confirmVrpFunds(consent.id, body, { token: tokenOf(consent) }));
});

When('the PISP reads the last VRP payment', async function (this: ConformanceWorld) {
  const id = lastPaymentId(this);
  await this.call('reading the VRP payment', async (c) => c.getVrp(id, { token: await this.ccToken('pis') }));
});

When('the PISP reads the details of the last VRP payment', async function (this: ConformanceWorld) {
  const id = lastPaymentId(this);
  await this.call('reading the VRP payment\'s details', async (c) => c.getVrpDetails(id, { token: await this.ccToken('pis') }));
});

function lastPaymentId(world: ConformanceWorld): string {
  const made = state(world).payments.filter((p) => p.status === 201);
  const id = (made.at(-1)?.body as any)?.Data?.DomesticVRPId;
  if (typeof id !== 'string') throw world.violation(`no VRP payment of this scenario named its DomesticVRPId: ${made.length ? describeAnswer(made.at(-1)!) : 'none was created'}`);
  return id;
}

Then('the two VRP payments are distinct', function (this: ConformanceWorld) {
  const ids = state(this).payments.slice(-2).map((p) => (p.body as any)?.Data?.DomesticVRPId);
  if (!ids[0] || ids[0] === ids[1]) throw this.violation(`two payments under one consent (each with its own x-idempotency-key) must be two payments, got DomesticVRPIds ${quote(ids[0])} and ${quote(ids[1])}`);
});

Then('both VRP answers name the same payment', function (this: ConformanceWorld) {
  const [first, second] = state(this).payments.slice(-2);
  if (first?.status !== 201) throw this.violation(`the first VRP payment was not created: ${first ? describeAnswer(first) : 'no answer'}`);
  if (second?.status !== 201) throw this.violation(`the same VRP payment repeated under its x-idempotency-key must answer 201 with the same payment, got ${describeAnswer(second!)}`);
  const a = (first.body as any)?.Data?.DomesticVRPId;
  const b = (second.body as any)?.Data?.DomesticVRPId;
  if (!a || a !== b) throw this.violation(`the same request under one x-idempotency-key made two payments: ${quote(a)} and ${quote(b)}`);
});

// Where the standard (or its conformance suite) allows one of several answers, e.g. a second DELETE: 400 or 204.
Then(/^the bank answers (\d{3}(?:(?:, | or )\d{3})+)$/, function (this: ConformanceWorld, list: string) {
  expectStatus(this, this.answer(), parseStatuses(list));
}, (list) => [statusKind(parseStatuses(list!))]);

Then('the bank refuses the payment for failing the control parameters', function (this: ConformanceWorld) {
  const r = this.answer();
  expectRefusal(this, r, [400, 403], 'a payment outside the consent\'s control parameters');
  // The standard names the code; a bank that refuses with another says less, but still refuses.
  const codes = errorCodesOf(r.body);
  // v4.0's codes are four characters from an external list that pairs none with this refusal: the
  // error body's schema judges them (SEC-06); only v3.1.11 names the code.
  if (versionOfWorld(this) === 'v3.1' && !codes.includes(FAILS_CONTROL_PARAMETERS)) {
    warn(this, `the refusal ${describeAnswer(r)}`, [{ text: `the error code should be ${FAILS_CONTROL_PARAMETERS}, got ${codes.length ? codes.join(', ') : 'none'}`, source: 'OBIE v3.1.11 VRP: error codes' }]);
  }
});

Then('the funds check answers {string}', function (this: ConformanceWorld, expected: string) {
  const r = this.answer();
  const got = (r.body as any)?.Data?.FundsAvailableResult?.FundsAvailable;
  if (got !== expected) throw this.violation(`expected Data.FundsAvailableResult.FundsAvailable "${expected}" (a VRP funds check answers Available or NotAvailable), got ${quote(got)} in ${describeAnswer(r)}`);
});


// ── v4.0: a VRP consent updated by PUT or PATCH, for migrating it between versions (VRP-11) ────

/** The scenario's VRP consent, created by an earlier step (a set-up of the update). */
function createdVrpConsent(world: ConformanceWorld): ConsentRecord {
  const consent = state(world).consent;
  if (!consent || consent.created.status !== 201 || !consent.id) throw world.blocked('VRP-01', `creating the VRP consent (a set-up of this scenario) failed: ${consent ? describeAnswer(consent.created) : 'no consent was created'}`);
  return consent;
}

When('the PISP updates the VRP consent by PUT with its request in this version\'s shape', async function (this: ConformanceWorld) {
  const consent = createdVrpConsent(this);
  const token = await this.ccToken('pis');
  await this.call('updating the VRP consent by PUT', (c) => c.updateVrpConsent(consent.id, consent.request, { token }));
});

When('the PISP patches the VRP consent\'s remittance information by JSON Patch', async function (this: ConformanceWorld) {
  const consent = createdVrpConsent(this);
  // A migration's kind of change: the remittance in the version's structured shape, with a line of text.
  const remittance = { Unstructured: ['migrated by obtpp'], Structured: [{ CreditorReferenceInformation: { Reference: 'obtpp VRP' } }] };
  const patch = [{ op: 'replace', path: '/Data/Initiation/RemittanceInformation', value: remittance }];
  const request = structuredClone(consent.request);
  request.Data.Initiation.RemittanceInformation = remittance;
  consent.request = request;
  const token = await this.ccToken('pis');
  await this.call('updating the VRP consent by JSON Patch', (c) => c.patchVrpConsent(consent.id, patch, { token }));
});

Then('the answer is the same VRP consent', function (this: ConformanceWorld) {
  const r = this.answer();
  const consent = state(this).consent!;
  const got = (r.body as any)?.Data?.ConsentId;
  if (got !== consent.id) throw this.violation(`an update of the VRP consent ${consent.id} (PUT or PATCH at its path) answered with the consent ${quote(got)}: the consent it names must be the one updated (${describeAnswer(r)})`);
});

Then('the VRP consent\'s Initiation is the one sent', function (this: ConformanceWorld) {
  const r = this.answer();
  const asked = state(this).consent!.request.Data.Initiation;
  const got = (r.body as any)?.Data?.Initiation;
  if (!sameJson(got, asked)) throw this.violation(`the updated VRP consent's Initiation is not the one sent: sent ${JSON.stringify(asked)}, got ${quote(got)} in ${describeAnswer(r)}`);
});

// ── VRP-05's other bound: a payment after ValidToDateTime ───────────────────────────────────────

/** A VRP consent valid a few seconds only, authorised and paid under once while valid. */
interface ClosingVrp { record: ConsentRecord; before: ApiResult; validToMs: number; closedAfterMs: number }

/**
 * Prepared in the background when a run includes the scenario (SHARED_GIVENS), so that by the time it
 * comes the consent's ValidToDateTime has passed and nobody waits. The bank's clock may be behind
 * ours by what its Date header shows, and a bank that compares whole seconds has one more. The
 * window is the expiry's (withinWindows: 3 s first, then sized to what an attempt took), so that
 * a run scoped to VRP-05 waits a few seconds, not ten; where the journey and the payment did not fit
 * in it (a slow bank or a busy machine), one more consent is made, so that the end is judged, not
 * left unjudged.
 */
function closingVrp(world: ConformanceWorld): Promise<ClosingVrp> {
  return sharedSetup(world, `${world.variant}:vrp:closing`, () => withinWindows(
    async (validForMs) => {
      const tried = await closingAttempt(world, validForMs);
      return 'closing' in tried ? { done: tried.closing } : tried;
    },
    (validForMs) => world.blocked(undefined, `the VRP consent valid for ${Math.round(validForMs / 1000)} s could not be authorised and paid under before its ValidToDateTime, so its end cannot be judged`),
  ), 'VRP-01');
}

/** One consent valid `validForMs` from its creation, authorised and paid under once; or how long that took when it did not fit. */
async function closingAttempt(world: ConformanceWorld, validForMs: number): Promise<{ closing: ClosingVrp } | { tookMs: number }> {
  const body = await consentBody(world, '5.00', '100.00');
  const token = await world.ccToken('pis');
  // Created, authorised and used in one go, holding a journey slot, so the window is not spent queueing.
  return world.ctx.withJourneySlot(async () => {
    const sentAt = Date.now();
    body.Data.ControlParameters.ValidToDateTime = isoDateTime(new Date(sentAt + validForMs));
    const created = await world.call('creating the VRP consent', (c) => c.createVrpConsent(body, { token }));
    const receivedAt = Date.now();
    const id = (created.body as any)?.Data?.ConsentId;
    if (created.status !== 201 || typeof id !== 'string') throw world.blocked('VRP-01', `creating the VRP consent (a set-up of this scenario) failed: ${describeAnswer(created)}`);
    let record: ConsentRecord;
    try {
      record = await authoriseConsent(world, { fn: 'pis', id, created, request: body }, { slotHeld: true, expiresAtMs: Date.parse(body.Data.ControlParameters.ValidToDateTime) });
    } catch (error) {
      // A journey that outlasted the window: the bank rightly refuses to authorise a consent past
      // its ValidToDateTime, which says nothing about the rule; the next attempt's window is wider.
      if (outlived(Date.parse(body.Data.ControlParameters.ValidToDateTime))) return { tookMs: Date.now() - sentAt };
      throw error;
    }
    state(world).consent = record;
    const before = await pay(world, '1.00');
    const validToMs = Date.parse(body.Data.ControlParameters.ValidToDateTime);
    if (Date.now() >= validToMs - 500) return { tookMs: Date.now() - sentAt };
    const bankDate = Date.parse(created.headers.date ?? '');
    const behind = Number.isFinite(bankDate) ? Math.max(0, receivedAt - bankDate) : 1_000;
    return { closing: { record, before, validToMs, closedAfterMs: validToMs + behind + 1_500 } };
  });
}

const CLOSING = /^the PSU has authorised a VRP consent valid for a few seconds only, and the PISP has paid 1\.00 under it while it was valid$/;
SHARED_GIVENS.push([CLOSING, (w) => closingVrp(w)]);

Given(CLOSING, async function (this: ConformanceWorld) {
  const closing = await closingVrp(this);
  // The payment inside the window shows the consent pays: without it, a refusal after says nothing.
  if (closing.before.status !== 201) throw this.blocked('VRP-02', `the payment made while the consent was valid was not accepted: ${describeAnswer(closing.before)}`);
  state(this).consent = closing.record;
  this.notes.push(String(closing.closedAfterMs));
});

When('the PISP pays 1.00 under the VRP consent once its ValidToDateTime has passed', async function (this: ConformanceWorld) {
  const closedAfterMs = Number(this.notes.at(-1));
  const started = Date.now();
  const waited = this.ctx.waitFor('expiry', 'the VRP consent\'s ValidToDateTime to pass');
  try {
    await sleepUntil(closedAfterMs);
  } finally {
    waited();
    if (Date.now() - started > 50) this.pauses.push({ what: 'waits for the VRP consent\'s ValidToDateTime to pass', startedAt: new Date(started).toISOString(), durationMs: Date.now() - started });
  }
  await pay(this, '1.00');
});

// VRP-08: a signature that is there but does not hold (made over another body) is refused too.
When(/^the PISP pays ([\d.]+) under the VRP consent with an x-jws-signature over another body$/, async function (this: ConformanceWorld, amount: string) {
  if (!this.client.signs) throw new SigningOffError(this.variant, this.client.profile);
  const consent = state(this).consent!;
  const currency = consent.request.Data.ControlParameters.MaximumIndividualAmount.Currency as string;
  const body = buildVrp(consent.id, consent.request, { instructionIdentification: this.uniqueRef('VRP').slice(0, 35), endToEndIdentification: this.uniqueRef('E2E').slice(0, 35), amount, currency });
  const other = structuredClone(body);
  other.Data.Instruction.InstructedAmount.Amount = (Number(amount) + 1).toFixed(2);
  const signature = await signDetached(JSON.stringify(other), await this.client.messageSigner());
  const r = await this.call('making a VRP payment', (c) => c.createVrp(body, { token: tokenOf(consent), signature }));
  state(this).payments.push(r);
});
