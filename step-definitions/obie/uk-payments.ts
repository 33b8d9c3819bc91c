/**
 * Steps of features/obie/uk-payments.feature: every payment family of UK Read/Write v3.1.11 at its
 * official paths, with the inputs of the Functional Conformance Suite's v3.1 payment scripts (the
 * minimal consents: no debtor account, the PSU chooses it; Risk {}), and the rules beyond them.
 * Each family's authorised consent is one PSU journey, shared by the family's scenarios in file
 * order: the orders its Initiation must refuse first, then its order (which consumes it), then
 * what a consumed consent must refuse.
 */
import { FlattenedSign } from 'jose';
import { Given, When, Then, errorCodeKind } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { authoriseConsent, CREDITOR, DEFAULT_CURRENCY, newIdempotencyKey, precondition, sharedSetup, SHARED_GIVENS, tokenOf } from '../support/setups.ts';
import { describeAnswer, expectedStatus, expectRefusal, expectStatus, quote, versionOfWorld, warn } from '../support/judge.ts';
import {
  buildDomesticScheduledConsent, buildDomesticStandingOrderConsent, buildFamilyOrder, buildFileConsent, buildInternationalConsent,
  buildInternationalScheduledConsent, buildInternationalStandingOrderConsent, buildPaymentConsent, buildPaymentFile, buildRisk, fileHashOf,
  familyOrderIdOf, isoDateTime, ORDER_ID_FIELDS, type FamilyConsentBody, type PaymentFamily, type PaymentFile,
} from '../../src/dialects/obie/builders.ts';
import { consentIdOf, errorCodesOf, statusOf } from '../../src/dialects/obie/index.ts';
import { v4ErrorCodeOf } from '../../src/dialects/obie/versions.ts';
import { NotApplicableError, SigningOffError, type ApiResult, type Operation } from '../../src/client/operations.ts';
import type { TppClient } from '../../src/client/operations.ts';
import { OBIE_OPERATIONS } from '../../src/dialects/obie/catalogue.ts';
import { groupOf } from '../../src/dialects/operation-spec.ts';

const DAY = 86_400_000;

/** The families as the feature names them. */
const WORDS: Readonly<Record<string, PaymentFamily>> = {
  'domestic payment': 'domestic',
  'domestic scheduled payment': 'domestic-scheduled',
  'domestic standing order': 'domestic-standing-order',
  'international payment': 'international',
  'international scheduled payment': 'international-scheduled',
  'international standing order': 'international-standing-order',
  'file payment': 'file',
};
const FAMILY = `(${Object.keys(WORDS).join('|')})`;

/** Each family's operations: the catalogue's payment-family groups (`group: { kind: 'payment-family', of: family, … }`). */
interface FamilyOps { create: Operation; get: Operation; funds?: Operation; submit: Operation; order: Operation; details: Operation }
const OPS = Object.fromEntries(Object.values(WORDS).map((family) => [family, groupOf(OBIE_OPERATIONS, 'payment-family', family)])) as unknown as Readonly<Record<PaymentFamily, FamilyOps>>;

/** The creditor abroad of the international families (FCS: an IBAN, its own scheme). */
const CREDITOR_ABROAD = { schemeName: 'UK.OBIE.IBAN', identification: 'DE89370400440532013000', name: 'Baeckerei Schmidt GmbH' };
const CURRENCY_OF_TRANSFER = 'EUR';
const FREQUENCY = 'EvryDay';

const call = (c: TppClient, op: Operation, args: unknown[]): Promise<ApiResult> => c.invoke(op, args);
const tomorrow = () => isoDateTime(new Date(Date.now() + DAY));
const ids = (world: ConformanceWorld) => ({ instructionIdentification: world.uniqueRef('INSTR').slice(0, 35), endToEndIdentification: world.uniqueRef('E2E').slice(0, 35) });

/**
 * The family's minimal consent, as the suite's payload templates shape it (no debtor account, Risk {}), or a file payment's.
 * At v4.0 in v4.0's shape (the schedule of a standing order in MandateRelatedInformation, the file
 * type 4.0), with a reference in v4.0's structured remittance, so that every answer's Initiation
 * shows the bank keeps it (FACTS-v4 §4.1, §4.4); the international payment also names its ultimate
 * creditor and a regulatory report, the scheduled one a Risk in v4.0's words.
 */
function minimalConsent(world: ConformanceWorld, family: PaymentFamily, o: { requestedExecutionDateTime?: string; file?: PaymentFile } = {}): FamilyConsentBody {
  const version = versionOfWorld(world);
  const v4 = version === 'v4.0' ? { version, reference: world.uniqueRef('REF').slice(0, 35) } : {};
  const domestic = { ...ids(world), amount: '1.00', currency: DEFAULT_CURRENCY, creditor: CREDITOR, ...v4 };
  const abroad = { ...ids(world), amount: '1.00', currency: DEFAULT_CURRENCY, creditor: CREDITOR_ABROAD, currencyOfTransfer: CURRENCY_OF_TRANSFER, ...v4 };
  const when = o.requestedExecutionDateTime ?? tomorrow();
  switch (family) {
    case 'domestic': return buildPaymentConsent({ ...domestic, ...('reference' in v4 ? { remittance: { reference: v4.reference } } : {}) }) as unknown as FamilyConsentBody;
    case 'domestic-scheduled':
      return buildDomesticScheduledConsent({ ...domestic, requestedExecutionDateTime: when, ...(version === 'v4.0' ? { risk: buildRisk(version, { paymentContextCode: 'TransferToThirdParty', contractPresent: false }) } : {}) });
    case 'domestic-standing-order':
      return buildDomesticStandingOrderConsent({ frequency: FREQUENCY, firstPaymentDateTime: when, firstAmount: '1.00', currency: DEFAULT_CURRENCY, creditor: CREDITOR, ...v4 });
    case 'international':
      return buildInternationalConsent({
        ...abroad,
        ...(version === 'v4.0' ? { ultimateCreditor: { name: 'Schmidt Holding AG' }, regulatoryReporting: [{ indicator: 'DEBT' as const, authority: { name: 'Bank of England', countryCode: 'GB' } }] } : {}),
      });
    case 'international-scheduled': return buildInternationalScheduledConsent({ ...abroad, requestedExecutionDateTime: when });
    case 'international-standing-order':
      return buildInternationalStandingOrderConsent({ frequency: FREQUENCY, firstPaymentDateTime: when, amount: '1.00', currency: DEFAULT_CURRENCY, currencyOfTransfer: CURRENCY_OF_TRANSFER, creditor: CREDITOR_ABROAD, ...v4 });
    case 'file': return buildFileConsent({ file: o.file ?? paymentFile(world), fileReference: world.uniqueRef('FILE').slice(0, 40) });
  }
}

/** A JSON payment file of two domestic payments. */
function paymentFile(world: ConformanceWorld): PaymentFile {
  return buildPaymentFile([
    { ...ids(world), amount: '1.25', currency: DEFAULT_CURRENCY, creditor: CREDITOR },
    { ...ids(world), amount: '2.50', currency: DEFAULT_CURRENCY, creditor: { ...CREDITOR, identification: '08080021325699' } },
  ], versionOfWorld(world));
}

/** What a scenario holds of a family: the consent it judges, the file it uploads, the order. */
interface FamilyRecord extends ConsentRecord {
  family: PaymentFamily;
  file?: PaymentFile;
  order?: { result: ApiResult; body: unknown; key: string };
}
const current = new WeakMap<ConformanceWorld, FamilyRecord>();
const recordOf = (world: ConformanceWorld): FamilyRecord => {
  const r = current.get(world);
  if (!r) throw new Error('no payment-family consent was created before this step');
  return r;
};

async function createFamilyConsent(world: ConformanceWorld, family: PaymentFamily, body: FamilyConsentBody, o: { idempotencyKey?: string; signature?: string | false; omitHeaders?: string[] } = {}): Promise<FamilyRecord> {
  const token = await world.ccToken('pis');
  const created = await world.call(`creating the ${family} consent`, (c) => call(c, OPS[family].create, [body, { token, ...o }]));
  const record: FamilyRecord = { fn: 'pis', family, id: consentIdOf(created.body) ?? '', created, request: body };
  current.set(world, record);
  world.payment = record;
  world.batch.push(created);
  return record;
}

async function upload(world: ConformanceWorld, record: FamilyRecord, text: string): Promise<ApiResult> {
  const token = await world.ccToken('pis');
  return world.call('uploading the payment file', (c) => c.uploadPaymentFile(record.id, JSON.parse(text), { token, bodyText: text }));
}

/**
 * The family's consent, created with the suite's minimal inputs (a file payment's with its file
 * uploaded) and authorised by the PSU choosing the debtor account: one journey per family and run.
 */
function sharedFamilyConsent(world: ConformanceWorld, family: PaymentFamily): Promise<FamilyRecord> {
  return sharedSetup(world, `${world.variant}:uk-pis:${family}`, async () => {
    const file = family === 'file' ? paymentFile(world) : undefined;
    const body = minimalConsent(world, family, { file });
    const token = await world.ccToken('pis');
    const created = await world.call(`creating the ${family} consent`, (c) => call(c, OPS[family].create, [body, { token }]));
    const id = consentIdOf(created.body);
    if (created.status !== 201 || !id) throw world.blocked('UKPIS-01', `creating the ${family} consent (a set-up of this scenario) failed: ${describeAnswer(created)}`);
    const record: FamilyRecord = { fn: 'pis', family, id, created, request: body, ...(file ? { file } : {}) };
    if (file) {
      const up = await upload(world, record, file.text);
      if (up.status !== 200) throw world.blocked('UKPIS-06', `uploading the payment file (a set-up of this scenario) failed: ${describeAnswer(up)}`);
    }
    return authoriseConsent(world, record) as Promise<FamilyRecord>;
  }, 'UKPIS-01');
}

// The families' shared consents are prepared in the background at the start of a run, like the
// other shared set-ups (step-definitions/support/hooks.ts reads this list).
SHARED_GIVENS.push([new RegExp(`^the PSU has authorised the shared ${FAMILY} consent$`), (w, words) => sharedFamilyConsent(w, WORDS[words!]!)]);

// ---- consents ----------------------------------------------------------------------------------

When(new RegExp(`^the PISP creates an? ${FAMILY} consent(, without x-fapi-financial-id)?$`), async function (this: ConformanceWorld, words: string, noFinancialId?: string) {
  // The suite's removeHeaders (OB-313-DOP-100100): a header the standard dropped, left out whatever the profile adds.
  await createFamilyConsent(this, WORDS[words]!, minimalConsent(this, WORDS[words]!), noFinancialId ? { omitHeaders: ['x-fapi-financial-id'] } : {});
});

When(new RegExp(`^the PISP creates an? ${FAMILY} consent under a fresh idempotency key, then sends it again under the same key$`), async function (this: ConformanceWorld, words: string) {
  const family = WORDS[words]!;
  const key = newIdempotencyKey();
  const body = minimalConsent(this, family);
  this.batch = [];
  const first = await createFamilyConsent(this, family, body, { idempotencyKey: key });
  if (first.created.status !== 201) throw this.blocked('UKPIS-01', `creating the ${family} consent failed: ${describeAnswer(first.created)}`);
  await createFamilyConsent(this, family, body, { idempotencyKey: key });
});

Then('both answers name the same consent', function (this: ConformanceWorld) {
  const [first, second] = this.batch;
  expectStatus(this, second!, [201], 'the repeated create under the same x-idempotency-key answers 201 with the original consent');
  const a = consentIdOf(first?.body);
  const b = consentIdOf(second?.body);
  if (!a || a !== b) throw this.violation(`the same consent under one x-idempotency-key created two: ${quote(a)} and ${quote(b)} (${describeAnswer(second!)})`);
});

Then('the payment consent has a ConsentId and the status {string}', function (this: ConformanceWorld, expected: string) {
  const r = this.answer();
  const id = consentIdOf(r.body);
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) throw this.violation(`expected Data.ConsentId (1 to 128 characters) in ${describeAnswer(r)}`);
  const want = expectedStatus(this, expected);
  if (statusOf(r.body) !== want.value) throw this.violation(`expected Data.Status ${want.words}, got ${quote((r.body as any)?.Data?.Status)} in ${describeAnswer(r)}`);
}, (s) => ['field:Data.ConsentId', `field:Data.Status=${s}`]);

Given(new RegExp(`^the PSU has authorised the shared ${FAMILY} consent$`), async function (this: ConformanceWorld, words: string) {
  const record = await sharedFamilyConsent(this, WORDS[words]!);
  current.set(this, record);
  this.payment = record;
});

Given('its order has not been submitted yet', function (this: ConformanceWorld) {
  // The family's scenarios share its consent in file order; out of order, this one has nothing to judge.
  if (recordOf(this).order) throw this.blocked(undefined, 'the shared consent was already used by its order (the scenarios ran out of the feature\'s order), so what it must refuse before cannot be judged');
});

When(new RegExp(`^the PISP reads the ${FAMILY} consent$`), async function (this: ConformanceWorld, words: string) {
  const family = WORDS[words]!;
  const token = await this.ccToken('pis');
  await this.call(`reading the ${family} consent`, (c) => call(c, OPS[family].get, [recordOf(this).id, { token }]));
});

When(new RegExp(`^the PISP checks the funds of the ${FAMILY} consent with the PSU's token$`), async function (this: ConformanceWorld, words: string) {
  const family = WORDS[words]!;
  await this.call(`the funds check of the ${family} consent`, (c) => call(c, OPS[family].funds!, [recordOf(this).id, { token: tokenOf(recordOf(this)) }]));
});

Then('funds are available for the payment', function (this: ConformanceWorld) {
  const result = (this.answer().body as any)?.Data?.FundsAvailableResult;
  if (typeof result?.FundsAvailable !== 'boolean') throw this.violation(`expected Data.FundsAvailableResult.FundsAvailable, a boolean, in ${describeAnswer(this.answer())}`);
  // The suite's OB3DOPFundsAvailable: a payment of 1.00 from the PSU's account is covered.
  if (result.FundsAvailable !== true) throw this.violation(`a payment of 1.00 from the account the PSU chose is not covered: FundsAvailable ${quote(result.FundsAvailable)} (${describeAnswer(this.answer())})`);
}, ['field:Data.FundsAvailableResult.FundsAvailable=true']);

// ---- orders ------------------------------------------------------------------------------------

async function submit(world: ConformanceWorld, record: FamilyRecord, body: unknown, key: string, token = tokenOf(record)): Promise<ApiResult> {
  const r = await world.call(`submitting the ${record.family} order`, (c) => call(c, OPS[record.family].submit, [body, { token, idempotencyKey: key }]));
  world.batch.push(r);
  return r;
}

const orderOf = (record: FamilyRecord) => buildFamilyOrder(record.id, record.request as FamilyConsentBody);

When(new RegExp(`^the PISP submits the order of the ${FAMILY} consent with the consent's Initiation and Risk$`), async function (this: ConformanceWorld, words: string) {
  const record = recordOf(this);
  if (record.family !== WORDS[words]) throw new Error(`the scenario's consent is a ${record.family} consent`);
  const body = orderOf(record);
  const key = newIdempotencyKey();
  this.batch = [];
  const result = await submit(this, record, body, key);
  record.order = { result, body, key };
});

Then('the order names its consent and carries its own id', function (this: ConformanceWorld) {
  const record = recordOf(this);
  const r = this.answer();
  const field = ORDER_ID_FIELDS[record.family];
  if (!familyOrderIdOf(record.family, r.body)) throw this.violation(`expected the order's id in Data.${field} in ${describeAnswer(r)}`);
  if (consentIdOf(r.body) !== record.id) throw this.violation(`the order names the consent ${quote((r.body as any)?.Data?.ConsentId)}, not ${record.id}`);
});

Then(/^the answer names the order's id in Data\.(\w+)$/, function (this: ConformanceWorld, field: string) {
  const record = recordOf(this);
  const r = this.answer();
  if (ORDER_ID_FIELDS[record.family] !== field) throw new Error(`a ${record.family} order's id is Data.${ORDER_ID_FIELDS[record.family]}, not Data.${field}`);
  if (!familyOrderIdOf(record.family, r.body)) throw this.violation(`expected the order's id in Data.${field} in ${describeAnswer(r)}`);
}, (field) => [`field:Data.${field}`]);

Then('the order\'s answer named its consent and carried its own id', function (this: ConformanceWorld) {
  const record = recordOf(this);
  const r = record.order?.result;
  if (!r) throw new Error('no order was submitted before this step');
  const field = ORDER_ID_FIELDS[record.family];
  if (!familyOrderIdOf(record.family, r.body)) throw this.violation(`expected the order's id in Data.${field} in ${describeAnswer(r)}`);
  if (consentIdOf(r.body) !== record.id) throw this.violation(`the order names the consent ${quote((r.body as any)?.Data?.ConsentId)}, not ${record.id} (${describeAnswer(r)})`);
});

// The suite's OB-301-DOP-1015001: a standing order names how it ends by NumberOfPayments or by
// FinalPaymentDateTime, never both; one that names both is refused (403), never read back.
const BOTH_ENDS = 'if(field:Data.Initiation.NumberOfPayments & field:Data.Initiation.FinalPaymentDateTime) status:403';
Then('the standing order ends by NumberOfPayments or by FinalPaymentDateTime, never both, unless the bank refuses it with 403', function (this: ConformanceWorld) {
  const r = this.answer();
  const initiation = (r.body as any)?.Data?.Initiation;
  if (r.status === 403 || !initiation || typeof initiation !== 'object') return;
  if (initiation.NumberOfPayments !== undefined && initiation.FinalPaymentDateTime !== undefined) {
    throw this.violation(`the standing order names both NumberOfPayments ${quote(initiation.NumberOfPayments)} and FinalPaymentDateTime ${quote(initiation.FinalPaymentDateTime)}: only one says how it ends (${describeAnswer(r)})`);
  }
}, [BOTH_ENDS]);

/** The order the family's consent paid, submitted by the scenario that judges it (or here, as a set-up). */
async function submittedOrder(world: ConformanceWorld, record: FamilyRecord): Promise<NonNullable<FamilyRecord['order']>> {
  if (!record.order) {
    const body = orderOf(record);
    const key = newIdempotencyKey();
    record.order = { result: await submit(world, record, body, key), body, key };
  }
  const id = familyOrderIdOf(record.family, record.order.result.body);
  if (record.order.result.status !== 201 || !id) throw world.blocked('UKPIS-01', `the ${record.family} order on the consent (a set-up of this scenario) was not accepted: ${describeAnswer(record.order.result)}`);
  return record.order;
}

Given('its order has been submitted', async function (this: ConformanceWorld) {
  await submittedOrder(this, recordOf(this));
  this.batch = [];
});

When(new RegExp(`^the PISP reads the order of the ${FAMILY} consent$`), async function (this: ConformanceWorld, words: string) {
  const family = WORDS[words]!;
  const order = await precondition('UKPIS-01', () => submittedOrder(this, recordOf(this)));
  const token = await this.ccToken('pis');
  await this.call(`reading the ${family} order`, (c) => call(c, OPS[family].order, [familyOrderIdOf(family, order.result.body)!, { token }]));
});

When(new RegExp(`^the PISP reads the details of the order of the ${FAMILY} consent$`), async function (this: ConformanceWorld, words: string) {
  const family = WORDS[words]!;
  const order = await precondition('UKPIS-01', () => submittedOrder(this, recordOf(this)));
  const token = await this.ccToken('pis');
  await this.call(`reading the ${family} order's details`, (c) => call(c, OPS[family].details, [familyOrderIdOf(family, order.result.body)!, { token }]));
});

When('the PISP reads the report file of the file payment', async function (this: ConformanceWorld) {
  const order = await precondition('UKPIS-01', () => submittedOrder(this, recordOf(this)));
  const token = await this.ccToken('pis');
  await this.call('reading the report file', (c) => c.getFilePaymentReport(familyOrderIdOf('file', order.result.body)!, { token }));
});

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sorted(x)]));
  return v;
}
const same = (a: unknown, b: unknown) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

Then('the answer carries the consent\'s Initiation unchanged', function (this: ConformanceWorld) {
  const r = this.answer();
  const asked = (recordOf(this).request as FamilyConsentBody).Data.Initiation;
  const got = (r.body as any)?.Data?.Initiation;
  if (!same(got, asked)) throw this.violation(`the Initiation differs from the consent's as created: sent ${JSON.stringify(asked)}, got ${quote(got)} (${describeAnswer(r)})`);
});

const CHANGES: Readonly<Record<string, (order: { Data: { Initiation: Record<string, any> }; Risk?: Record<string, unknown> }) => void>> = {
  'a different amount': (o) => {
    const i = o.Data.Initiation;
    const money = i.InstructedAmount ?? i.FirstPaymentAmount;
    money.Amount = (Number(money.Amount) + 1).toFixed(2);
  },
  'a different creditor account': (o) => void (o.Data.Initiation.CreditorAccount = { ...o.Data.Initiation.CreditorAccount, Identification: '08080021325700' }),
  // A code of both versions' lists (v4.0 dropped PartyToParty: FACTS-v4 §3.4).
  'a different Risk': (o) => void (o.Risk = { ...(o.Risk ?? {}), PaymentContextCode: o.Risk?.PaymentContextCode === 'TransferToThirdParty' ? 'TransferToSelf' : 'TransferToThirdParty' }),
  // The suite's minimalDomesticStandingOrderInvalid(V4): the consent's order with Frequency (v4.0: Frequency.Type) "foobar".
  'the Frequency "foobar"': (o) => setFrequency(o.Data.Initiation, 'foobar'),
};

/** A standing order's Frequency, where its version keeps it: v3.1.11's Initiation.Frequency, v4.0's MandateRelatedInformation.Frequency.Type. */
function setFrequency(initiation: Record<string, any>, frequency: string): void {
  if (initiation.MandateRelatedInformation) initiation.MandateRelatedInformation.Frequency = { ...initiation.MandateRelatedInformation.Frequency, Type: frequency };
  else initiation.Frequency = frequency;
}

When(/^the PISP submits the order with (a different amount|a different creditor account|a different Risk|the Frequency "foobar") instead of the consent's$/, async function (this: ConformanceWorld, change: string) {
  const record = recordOf(this);
  const body = orderOf(record) as Parameters<(typeof CHANGES)[string]>[0];
  CHANGES[change]!(body);
  await submit(this, record, body, newIdempotencyKey());
});

Then('the bank refuses it with 400 or 403 and an OBIE error body', function (this: ConformanceWorld) {
  const r = this.answer();
  expectRefusal(this, r, [400, 403], 'an order that is not its consent\'s');
  if (!errorCodesOf(r.body).length) throw this.violation(`the refusal carries no OBErrorResponse1 with an ErrorCode: ${describeAnswer(r)}`);
});

When('the PISP submits the same order again under the same x-idempotency-key', async function (this: ConformanceWorld) {
  const record = recordOf(this);
  const order = await submittedOrder(this, record);
  this.batch = [order.result];
  await submit(this, record, order.body, order.key);
});

Then('both answers carry the same order', function (this: ConformanceWorld) {
  const record = recordOf(this);
  const [first, second] = this.batch;
  expectStatus(this, second!, [201], 'the repeated order under the same x-idempotency-key answers 201 with the original order');
  const a = familyOrderIdOf(record.family, first?.body);
  const b = familyOrderIdOf(record.family, second?.body);
  if (!a || a !== b) throw this.violation(`the same order under one x-idempotency-key gave ${quote(a)} and ${quote(b)}: a second order (${describeAnswer(second!)})`);
});

When('the PISP submits the order again under a new x-idempotency-key', async function (this: ConformanceWorld) {
  const record = recordOf(this);
  const order = await submittedOrder(this, record);
  await submit(this, record, order.body, newIdempotencyKey());
});

// ---- schedules, standing orders, exchange rates ------------------------------------------------

When(new RegExp(`^the PISP creates an? ${FAMILY} consent to be executed tomorrow at (\\d{2}:\\d{2}) (UTC|[+-]\\d{2}:\\d{2})$`), async function (this: ConformanceWorld, words: string, time: string, zone: string) {
  const day = new Date(Date.now() + DAY).toISOString().slice(0, 10);
  const at = `${day}T${time}:00${zone === 'UTC' ? 'Z' : zone}`;
  this.notes.push(at);
  await createFamilyConsent(this, WORDS[words]!, minimalConsent(this, WORDS[words]!, { requestedExecutionDateTime: at }));
});

Then('the consent keeps that RequestedExecutionDateTime', function (this: ConformanceWorld) {
  const r = this.answer();
  const sent = this.notes.at(-1)!;
  const got = (r.body as any)?.Data?.Initiation?.RequestedExecutionDateTime;
  if (typeof got !== 'string' || Date.parse(got) !== Date.parse(sent)) throw this.violation(`the consent was asked for RequestedExecutionDateTime ${sent}, the answer says ${quote(got)}: another instant (${describeAnswer(r)})`);
  if (got !== sent) warn(this, `the answer's RequestedExecutionDateTime ${got}`, [{ text: `the same instant as ${sent}, written otherwise: the Initiation is echoed changed`, source: 'harness good practice' }]);
});

When(new RegExp(`^the PISP creates an? ${FAMILY} consent with the Frequency "([^"]*)"$`), async function (this: ConformanceWorld, words: string, frequency: string) {
  const family = WORDS[words]!;
  const body = minimalConsent(this, family);
  setFrequency(body.Data.Initiation, frequency);
  await createFamilyConsent(this, family, body);
});

When(new RegExp(`^the PISP creates an? ${FAMILY} consent with the ISO 20022 frequency "([A-Z]{4})" at point "(\\d{2})"$`), async function (this: ConformanceWorld, words: string, code: string, point: string) {
  const family = WORDS[words]!;
  if (versionOfWorld(this) !== 'v4.0') throw new NotApplicableError(OPS[family].create, this.variant, 'an ISO 20022 frequency code is UK v4.0\'s form of a standing order\'s Frequency: v3.1.11 has only its grammar');
  const body = minimalConsent(this, family);
  const initiation = body.Data.Initiation as Record<string, any>;
  initiation.MandateRelatedInformation = { ...initiation.MandateRelatedInformation, Frequency: { Type: code, CountPerPeriod: 1, PointInTime: point } };
  await createFamilyConsent(this, family, body);
});

Then('the bank accepts the ISO 20022 frequency, keeping the consent\'s Initiation unchanged', function (this: ConformanceWorld) {
  const r = this.answer();
  if (r.status === 400 || r.status === 403) {
    // A bank may refuse a frequency it does not offer (v3.1.11 named UK.OBIE.Unsupported.Frequency;
    // v4.0's codes are an external list): expecting ISO codes accepted is the harness's, not the file's.
    if (!errorCodesOf(r.body).length) throw this.violation(`the refusal carries no OBErrorResponse1 with an ErrorCode: ${describeAnswer(r)}`);
    return warn(this, 'an ISO 20022 frequency code refused', [{ text: `v4.0's Frequency.Type takes the ISO 20022 codes (OBFrequency6Code) first; the bank refused ${((recordOf(this).request as FamilyConsentBody).Data.Initiation as Record<string, any>).MandateRelatedInformation?.Frequency?.Type} (${describeAnswer(r)})`, source: 'harness expectation' }]);
  }
  expectStatus(this, r, [201], 'a standing order consent whose Frequency.Type is an ISO 20022 code the v4.0 file lists');
  const asked = (recordOf(this).request as FamilyConsentBody).Data.Initiation;
  const got = (r.body as any)?.Data?.Initiation;
  if (!same(got, asked)) throw this.violation(`the Initiation differs from the consent's as created: sent ${JSON.stringify(asked)}, got ${quote(got)} (${describeAnswer(r)})`);
});

When(/^the PISP creates an international payment consent with an? (Agreed|Actual|Indicative) exchange rate$/, async function (this: ConformanceWorld, rateType: 'Agreed' | 'Actual' | 'Indicative') {
  const body = buildInternationalConsent({
    ...ids(this), amount: '10.00', currency: DEFAULT_CURRENCY, creditor: CREDITOR_ABROAD, currencyOfTransfer: CURRENCY_OF_TRANSFER,
    exchangeRate: rateType === 'Agreed'
      ? { unitCurrency: DEFAULT_CURRENCY, rateType, exchangeRate: 1.1523, contractIdentification: this.uniqueRef('FX').slice(0, 40) }
      : { unitCurrency: DEFAULT_CURRENCY, rateType },
  });
  await createFamilyConsent(this, 'international', body);
});

const rateAsked = (world: ConformanceWorld) => (recordOf(world).request as FamilyConsentBody).Data.Initiation.ExchangeRateInformation as Record<string, unknown>;

Then('the answer keeps the CurrencyOfTransfer', function (this: ConformanceWorld) {
  const got = (this.answer().body as any)?.Data?.Initiation?.CurrencyOfTransfer;
  if (got !== CURRENCY_OF_TRANSFER) throw this.violation(`the consent asked for CurrencyOfTransfer ${CURRENCY_OF_TRANSFER}, the answer's Initiation says ${quote(got)} (${describeAnswer(this.answer())})`);
});

Then('the answer gives the agreed rate under its contract', function (this: ConformanceWorld) {
  const asked = rateAsked(this);
  const got = (this.answer().body as any)?.Data?.ExchangeRateInformation;
  for (const field of ['UnitCurrency', 'ExchangeRate', 'RateType', 'ContractIdentification']) {
    if (got?.[field] !== asked[field]) throw this.violation(`an Agreed rate is the payment's rate: Data.ExchangeRateInformation.${field} must be ${JSON.stringify(asked[field])}, got ${quote(got?.[field])} (${describeAnswer(this.answer())})`);
  }
});

Then(/^the answer's rate, where it gives one, is (Actual|Indicative)(, with the bank's quoted rate)?$/, function (this: ConformanceWorld, rateType: string, quoted: string | undefined) {
  const got = (this.answer().body as any)?.Data?.ExchangeRateInformation;
  if (got !== undefined && got?.RateType !== rateType) throw this.violation(`the consent asked for an ${rateType} rate, the answer's Data.ExchangeRateInformation.RateType is ${quote(got?.RateType)} (${describeAnswer(this.answer())})`);
  // The standard's prose has the bank quote an indicative rate; its schema leaves it optional.
  if (quoted && typeof got?.ExchangeRate !== 'number') {
    warn(this, 'an Indicative rate', [{ text: 'the answer quotes no Data.ExchangeRateInformation.ExchangeRate for the Indicative rate asked', source: 'OBIE v3.1 prose: International Payment Consents, Exchange Rate Information' }]);
  }
});

// ---- file payments ------------------------------------------------------------------------------

When('the PISP creates a file payment consent for a file of two payments', async function (this: ConformanceWorld) {
  const file = paymentFile(this);
  const record = await createFamilyConsent(this, 'file', minimalConsent(this, 'file', { file }));
  record.file = file;
});

When('the PISP creates a file payment consent whose NumberOfTransactions and ControlSum are not its file\'s', async function (this: ConformanceWorld) {
  const file = paymentFile(this);
  const wrong = { ...file, numberOfTransactions: '3', controlSum: file.controlSum + 10 };
  const record = await createFamilyConsent(this, 'file', minimalConsent(this, 'file', { file: wrong }));
  if (record.created.status !== 201) throw this.blocked('UKPIS-01', `creating the file payment consent failed: ${describeAnswer(record.created)}`);
  record.file = file;
});

When(/^the PISP uploads (its file|another file than the one its FileHash names)$/, async function (this: ConformanceWorld, which: string) {
  const record = recordOf(this);
  if (record.created.status !== 201 || !record.id) throw this.blocked('UKPIS-01', `creating the file payment consent failed: ${describeAnswer(record.created)}`);
  const text = which === 'its file' ? record.file!.text : paymentFile(this).text;
  await upload(this, record, text);
});

When('the PISP reads the file back', async function (this: ConformanceWorld) {
  const token = await this.ccToken('pis');
  await this.call('reading back the payment file', (c) => c.downloadPaymentFile(recordOf(this).id, { token }));
});

Then('it is the file uploaded, byte for byte', function (this: ConformanceWorld) {
  const r = this.answer();
  const file = recordOf(this).file!;
  if (fileHashOf(r.text) !== file.fileHash) throw this.violation(`the file read back is not the one uploaded (its SHA-256 is not the consent's FileHash ${file.fileHash}): ${describeAnswer(r)}`);
});

// ---- a rejected consent --------------------------------------------------------------------------

When(new RegExp(`^the PSU rejects the ${FAMILY} consent$`), async function (this: ConformanceWorld, _words: string) {
  const record = recordOf(this);
  if (record.created.status !== 201 || !record.id) throw this.blocked('UKPIS-01', `creating the consent failed: ${describeAnswer(record.created)}`);
  this.outcome = await this.ctx.authorise(this.lane, record.id, 'pis', { reject: true });
  if (this.outcome.outcome !== 'denied') throw this.violation(`the PSU rejected the consent ${record.id}, but the bank ${this.outcome.outcome === 'authorised' ? 'authorised it' : 'redirected back with an authorisation code'}`);
});

When('the PISP submits its order under its client-credentials token', async function (this: ConformanceWorld) {
  const record = recordOf(this);
  await submit(this, record, orderOf(record), newIdempotencyKey(), await this.ccToken('pis'));
});

When('the PISP checks the funds of the international payment consent with its client-credentials token', async function (this: ConformanceWorld) {
  const token = await this.ccToken('pis');
  await this.call('the funds check of the international payment consent', (c) => c.getInternationalPaymentFunds(recordOf(this).id, { token }));
});

// ---- signatures ---------------------------------------------------------------------------------

When(new RegExp(`^the PISP creates an? ${FAMILY} consent without an x-jws-signature$`), async function (this: ConformanceWorld, words: string) {
  if (!this.client.signs) throw new SigningOffError(this.variant, this.client.profile);
  await createFamilyConsent(this, WORDS[words]!, minimalConsent(this, WORDS[words]!), { signature: false });
}, ['sent-without:x-jws-signature']);

When(new RegExp(`^the PISP creates an? ${FAMILY} consent with an x-jws-signature whose header lacks the claim http://openbanking.org.uk/(iat|iss|tan)$`), async function (this: ConformanceWorld, words: string, left: string) {
  if (!this.client.signs) throw new SigningOffError(this.variant, this.client.profile);
  const family = WORDS[words]!;
  const body = minimalConsent(this, family);
  const signer = await this.client.messageSigner();
  const ob = 'http://openbanking.org.uk/';
  // The suite's removeSignatureClaims (OB-301-DOP-100110 strips iss): a well-formed JWS, signed with
  // the TPP's key, with every critical claim of the standard but that one (and crit naming the rest).
  const claims: Record<string, unknown> = { [`${ob}iat`]: Math.floor(Date.now() / 1000), [`${ob}iss`]: signer.issuer, [`${ob}tan`]: signer.trustAnchor };
  delete claims[`${ob}${left}`];
  const crit = Object.keys(claims);
  const jws = await new FlattenedSign(new TextEncoder().encode(JSON.stringify(body)))
    .setProtectedHeader({ alg: 'PS256', kid: signer.kid, typ: 'JOSE', cty: 'application/json', ...claims, crit })
    .sign(signer.key, { crit: Object.fromEntries(crit.map((c) => [c, true])) });
  await createFamilyConsent(this, family, body, { signature: `${jws.protected}..${jws.signature}` });
}, (_words, claim) => [`jws-without:${claim}`]);

Then(/^the refusal's error code is (UK\.OBIE\.Signature\.\w+(?:, UK\.OBIE\.Signature\.\w+)*(?: or UK\.OBIE\.Signature\.\w+)?)$/, function (this: ConformanceWorld, list: string) {
  // At v4.0 the codes the FCS suite pairs with these (U016–U019: FACTS-v4 §3.5).
  const named = list.split(/, | or /);
  const allowed = versionOfWorld(this) === 'v4.0' ? named.map((c) => v4ErrorCodeOf(c) ?? c) : named;
  const codes = errorCodesOf(this.answer().body);
  if (!codes.some((c) => allowed.includes(c))) throw this.violation(`expected the error code ${allowed.join(' or ')}, got ${codes.length ? codes.join(', ') : 'none'} (${describeAnswer(this.answer())})`);
}, (list) => [errorCodeKind(list!.split(/, | or /))]);

// ---- refusals the rules name: a rate the PISP may not name, a file that is not its consent's ------

// v3.1.11 International Payment Consents, Exchange Rate Information: with an Actual or an Indicative
// RateType the PISP must specify neither ExchangeRate nor ContractIdentification (the rate is the
// bank's); a request that does is invalid, and the bank refuses it (UKPIS-05).
When(/^the PISP creates an international payment consent with an? (Actual|Indicative) exchange rate naming (a ContractIdentification|an ExchangeRate)$/, async function (this: ConformanceWorld, rateType: 'Actual' | 'Indicative', what: string) {
  const named = what.endsWith('ContractIdentification') ? { contractIdentification: this.uniqueRef('FX').slice(0, 40) } : { exchangeRate: 1.1523 };
  const body = buildInternationalConsent({
    ...ids(this), amount: '10.00', currency: DEFAULT_CURRENCY, creditor: CREDITOR_ABROAD, currencyOfTransfer: CURRENCY_OF_TRANSFER,
    exchangeRate: { unitCurrency: DEFAULT_CURRENCY, rateType, ...named },
  });
  await createFamilyConsent(this, 'international', body);
});

// One total wrong at a time, so that a bank checking only one of them is seen (UKPIS-06).
When(/^the PISP creates a file payment consent whose (NumberOfTransactions|ControlSum) is not its file's$/, async function (this: ConformanceWorld, total: 'NumberOfTransactions' | 'ControlSum') {
  const file = paymentFile(this);
  const wrong = total === 'NumberOfTransactions' ? { ...file, numberOfTransactions: String(Number(file.numberOfTransactions) + 1) } : { ...file, controlSum: file.controlSum + 10 };
  const record = await createFamilyConsent(this, 'file', minimalConsent(this, 'file', { file: wrong }));
  if (record.created.status !== 201) throw this.blocked('UKPIS-01', `creating the file payment consent failed: ${describeAnswer(record.created)}`);
  record.file = file;
});

// An order of any family without its signature (UKPIS-10), on the family's shared consent before its
// order: a bank that refuses it leaves the consent unconsumed for the order the other rules judge.
When('the PISP submits the order without an x-jws-signature', async function (this: ConformanceWorld) {
  if (!this.client.signs) throw new SigningOffError(this.variant, this.client.profile);
  const record = recordOf(this);
  await this.call(`submitting the ${record.family} order without a signature`, (c) => call(c, OPS[record.family].submit, [orderOf(record), { token: tokenOf(record), idempotencyKey: newIdempotencyKey(), signature: false }]));
});
