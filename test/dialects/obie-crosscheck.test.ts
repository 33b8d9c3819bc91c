/**
 * Cross-checks our hand-written obie schemas against the official UK Open Banking v3.1.11
 * OpenAPI files (../shared/reference/obie, loaded at run time, skipped when absent):
 * required lists, closed objects, enums, patterns and lengths agree, every field we allow
 * exists in the standard (we never invent one) and every field of the standard is allowed
 * (a correct bank's optional fields validate). Our samples also pass the official schemas.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import {
  SCHEMAS, OFFICIAL_SCHEMAS, validate, judgeBody, formatProblems, PAYMENT_ORDER_STATUSES, PAYMENT_CONSENT_STATUSES, CONSENT_STATUSES,
  DETAIL_ONLY_TRANSACTION_FIELDS, DETAIL_ONLY_ACCOUNT_FIELDS, PERMISSIONS,
} from '../../src/dialects/obie/index.ts';
import type { SchemaName } from '../../src/dialects/obie/index.ts';
import { sample } from './obie-samples.ts';

const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

const DIR = fileURLToPath(new URL('../../../shared/reference/obie/', import.meta.url));
const present = existsSync(`${DIR}account-info-openapi.json`);
const skip = present ? false : `official OpenAPI files not found in ${DIR}`;

type Json = Record<string, any>;
type File = 'account-info' | 'confirmation-funds' | 'payment-initiation' | 'vrp';

const docs = new Map<File, Json>();
function doc(file: File): Json {
  let d = docs.get(file);
  if (!d) {
    d = JSON.parse(readFileSync(`${DIR}${file}-openapi.json`, 'utf8')) as Json;
    docs.set(file, d);
  }
  return d;
}

/** Our schema → its official counterpart. PaymentStatusResponse is our own and has none. */
const COUNTERPART: Partial<Record<SchemaName, [File, string]>> = {
  OBReadConsent1: ['account-info', 'OBReadConsent1'],
  OBReadConsentResponse1: ['account-info', 'OBReadConsentResponse1'],
  OBReadAccount6: ['account-info', 'OBReadAccount6'],
  OBReadBalance1: ['account-info', 'OBReadBalance1'],
  OBReadTransaction6: ['account-info', 'OBReadTransaction6'],
  OBReadBeneficiary5: ['account-info', 'OBReadBeneficiary5'],
  OBReadDirectDebit2: ['account-info', 'OBReadDirectDebit2'],
  OBReadStandingOrder6: ['account-info', 'OBReadStandingOrder6'],
  OBReadScheduledPayment3: ['account-info', 'OBReadScheduledPayment3'],
  OBReadOffer1: ['account-info', 'OBReadOffer1'],
  OBReadParty2: ['account-info', 'OBReadParty2'],
  OBReadParty3: ['account-info', 'OBReadParty3'],
  OBReadStatement2: ['account-info', 'OBReadStatement2'],
  OBFundsConfirmationConsent1: ['confirmation-funds', 'OBFundsConfirmationConsent1'],
  OBFundsConfirmationConsentResponse1: ['confirmation-funds', 'OBFundsConfirmationConsentResponse1'],
  OBFundsConfirmation1: ['confirmation-funds', 'OBFundsConfirmation1'],
  OBFundsConfirmationResponse1: ['confirmation-funds', 'OBFundsConfirmationResponse1'],
  OBWriteDomesticConsent4: ['payment-initiation', 'OBWriteDomesticConsent4'],
  OBWriteDomesticConsentResponse5: ['payment-initiation', 'OBWriteDomesticConsentResponse5'],
  OBWriteDomestic2: ['payment-initiation', 'OBWriteDomestic2'],
  OBWriteDomesticResponse5: ['payment-initiation', 'OBWriteDomesticResponse5'],
  OBWritePaymentDetailsResponse1: ['payment-initiation', 'OBWritePaymentDetailsResponse1'],
  OBWriteFundsConfirmationResponse1: ['payment-initiation', 'OBWriteFundsConfirmationResponse1'],
  OBErrorResponse1: ['confirmation-funds', 'OBErrorResponse1'],
  OBDomesticVRPConsentRequest: ['vrp', 'OBDomesticVRPConsentRequest'],
  OBDomesticVRPConsentResponse: ['vrp', 'OBDomesticVRPConsentResponse'],
  OBDomesticVRPRequest: ['vrp', 'OBDomesticVRPRequest'],
  OBDomesticVRPResponse: ['vrp', 'OBDomesticVRPResponse'],
  OBDomesticVRPDetails: ['vrp', 'OBDomesticVRPDetails'],
  OBVRPFundsConfirmationRequest: ['vrp', 'OBVRPFundsConfirmationRequest'],
  OBVRPFundsConfirmationResponse: ['vrp', 'OBVRPFundsConfirmationResponse'],
  OBWriteDomesticScheduledConsent4: ['payment-initiation', 'OBWriteDomesticScheduledConsent4'],
  OBWriteDomesticStandingOrderConsent5: ['payment-initiation', 'OBWriteDomesticStandingOrderConsent5'],
  OBWriteInternationalConsent5: ['payment-initiation', 'OBWriteInternationalConsent5'],
  OBWriteInternationalScheduledConsent5: ['payment-initiation', 'OBWriteInternationalScheduledConsent5'],
  OBWriteInternationalStandingOrderConsent6: ['payment-initiation', 'OBWriteInternationalStandingOrderConsent6'],
  OBWriteFileConsent3: ['payment-initiation', 'OBWriteFileConsent3'],
  OBWriteDomesticScheduled2: ['payment-initiation', 'OBWriteDomesticScheduled2'],
  OBWriteDomesticStandingOrder3: ['payment-initiation', 'OBWriteDomesticStandingOrder3'],
  OBWriteInternational3: ['payment-initiation', 'OBWriteInternational3'],
  OBWriteInternationalScheduled3: ['payment-initiation', 'OBWriteInternationalScheduled3'],
  OBWriteInternationalStandingOrder4: ['payment-initiation', 'OBWriteInternationalStandingOrder4'],
  OBWriteFile2: ['payment-initiation', 'OBWriteFile2'],
  OBWriteDomesticScheduledConsentResponse5: ['payment-initiation', 'OBWriteDomesticScheduledConsentResponse5'],
  OBWriteDomesticStandingOrderConsentResponse6: ['payment-initiation', 'OBWriteDomesticStandingOrderConsentResponse6'],
  OBWriteInternationalConsentResponse6: ['payment-initiation', 'OBWriteInternationalConsentResponse6'],
  OBWriteInternationalScheduledConsentResponse6: ['payment-initiation', 'OBWriteInternationalScheduledConsentResponse6'],
  OBWriteInternationalStandingOrderConsentResponse7: ['payment-initiation', 'OBWriteInternationalStandingOrderConsentResponse7'],
  OBWriteFileConsentResponse4: ['payment-initiation', 'OBWriteFileConsentResponse4'],
  OBWriteDomesticScheduledResponse5: ['payment-initiation', 'OBWriteDomesticScheduledResponse5'],
  OBWriteDomesticStandingOrderResponse6: ['payment-initiation', 'OBWriteDomesticStandingOrderResponse6'],
  OBWriteInternationalResponse5: ['payment-initiation', 'OBWriteInternationalResponse5'],
  OBWriteInternationalScheduledResponse6: ['payment-initiation', 'OBWriteInternationalScheduledResponse6'],
  OBWriteInternationalStandingOrderResponse7: ['payment-initiation', 'OBWriteInternationalStandingOrderResponse7'],
  OBWriteFileResponse3: ['payment-initiation', 'OBWriteFileResponse3'],
};

/**
 * Where the strict level is deliberately stricter than the OpenAPI file, and why (SHOULD warnings;
 * the official level has none of them). Anything else that differs fails.
 * - Links and Meta: mandatory by the Read/Write profile prose (FACTS §1.3; docs/wire.md "Envelope").
 * - ErrorCode: a namespaced-code pattern instead of any string (docs/wire.md "Error body").
 */
const EXTRA_REQUIRED_AT_ROOT = ['Links', 'Meta'];
const EXTRA_PATTERN: Record<string, string> = { 'OBErrorResponse1.Errors[].ErrorCode': '^[A-Z][A-Za-z0-9]*(\\.[A-Za-z0-9]+)+$' };

function deref(s: Json | undefined, components: Json): Json | undefined {
  let cur = s;
  for (;;) {
    if (cur && typeof cur.$ref === 'string') cur = components.schemas[cur.$ref.split('/').pop() as string];
    // The VRP file writes a described reference as allOf [the reference, { description }]: the reference.
    else if (cur && Array.isArray(cur.allOf) && cur.allOf.filter((x: Json) => x.$ref).length === 1 && cur.allOf.every((x: Json) => x.$ref || !Object.keys(x).some((k) => k !== 'description'))) cur = cur.allOf.find((x: Json) => x.$ref);
    else return cur;
  }
}

const sorted = (a: readonly unknown[] | undefined) => [...(a ?? [])].map(String).sort();

function compare(ours: Json, official: Json | undefined, path: string, components: Json, out: string[], isRoot: boolean, exact = false): void {
  const off = deref(official, components);
  if (!off) {
    out.push(`${path}: no official counterpart`);
    return;
  }
  if (ours.type && off.type && ours.type !== off.type) out.push(`${path}: type ${ours.type} vs official ${off.type}`);
  if (ours.type === 'array') {
    for (const k of ['minItems', 'maxItems']) if (ours[k] !== off[k]) out.push(`${path}: ${k} ${ours[k]} vs official ${off[k]}`);
    compare(ours.items, off.items, `${path}[]`, components, out, false, exact);
    return;
  }
  if (ours.type === 'object') {
    const ourProps = Object.keys(ours.properties ?? {});
    const offProps = Object.keys(off.properties ?? {});
    for (const p of ourProps) if (!offProps.includes(p)) out.push(`${path}.${p}: we allow a field the standard does not have`);
    for (const p of offProps) if (!ourProps.includes(p)) out.push(`${path}.${p}: the standard has a field we do not allow`);
    let ourRequired = sorted(ours.required);
    if (!exact && isRoot && EXTRA_REQUIRED_AT_ROOT.every((r) => ourRequired.includes(r)) && !EXTRA_REQUIRED_AT_ROOT.every((r) => (off.required ?? []).includes(r))) ourRequired = ourRequired.filter((r) => !EXTRA_REQUIRED_AT_ROOT.includes(r));
    if (JSON.stringify(ourRequired) !== JSON.stringify(sorted(off.required))) {
      out.push(`${path}: required ${JSON.stringify(ourRequired)} vs official ${JSON.stringify(sorted(off.required))}`);
    }
    if ((ours.additionalProperties === false) !== (off.additionalProperties === false)) {
      out.push(`${path}: additionalProperties ${ours.additionalProperties} vs official ${off.additionalProperties}`);
    }
    if (exact && (ours.if || ours.then || ours.else)) out.push(`${path}: a condition (if/then/else) the standard does not have`);
    for (const p of ourProps) if (offProps.includes(p)) compare(ours.properties[p], off.properties[p], `${path}.${p}`, components, out, false, exact);
    return;
  }
  if (JSON.stringify(sorted(ours.enum)) !== JSON.stringify(sorted(off.enum))) out.push(`${path}: enum ${ours.enum} vs official ${off.enum}`);
  const expectedPattern = off.pattern ?? (exact ? undefined : EXTRA_PATTERN[path]);
  if (ours.pattern !== expectedPattern) out.push(`${path}: pattern ${ours.pattern} vs official ${off.pattern}`);
  for (const k of ['minLength', 'maxLength', 'format']) if (ours[k] !== off[k]) out.push(`${path}: ${k} ${ours[k]} vs official ${off[k]}`);
}

describe('our schemas agree with the official OpenAPI files', { skip }, () => {
  for (const [name, [file, component]] of Object.entries(COUNTERPART) as [SchemaName, [File, string]][]) {
    test(`MUST level: ${name} = ${file}#/components/schemas/${component}, no exception`, () => {
      const d = doc(file);
      const out: string[] = [];
      compare(OFFICIAL_SCHEMAS[name] as Json, d.components.schemas[component], name, d.components, out, true, true);
      assert.deepEqual(out, []);
    });
    test(`strict level: ${name} ↔ ${file}#/components/schemas/${component}, only the documented strictness`, () => {
      const d = doc(file);
      const out: string[] = [];
      compare(SCHEMAS[name] as Json, d.components.schemas[component], name, d.components, out, true);
      assert.deepEqual(out, []);
    });
  }

  test('the walker notices a difference (it can fail)', () => {
    const d = doc('account-info');
    const tampered = structuredClone(SCHEMAS.OBReadBalance1) as Json;
    tampered.properties.Data.properties.Balance.items.properties.Invented = { type: 'string' };
    tampered.properties.Data.properties.Balance.items.required = ['AccountId'];
    delete tampered.properties.Data.properties.Balance.items.properties.LocalAmount;
    // structuredClone keeps shared sub-objects shared: replace the Amount object rather than edit it.
    const creditLine = tampered.properties.Data.properties.Balance.items.properties.CreditLine.items;
    creditLine.properties.Amount = {
      ...creditLine.properties.Amount,
      properties: { ...creditLine.properties.Amount.properties, Currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
    };
    const out: string[] = [];
    compare(tampered, d.components.schemas.OBReadBalance1, 'OBReadBalance1', d.components, out, true);
    assert.deepEqual(out, [
      'OBReadBalance1.Data.Balance[].Invented: we allow a field the standard does not have',
      'OBReadBalance1.Data.Balance[].LocalAmount: the standard has a field we do not allow',
      'OBReadBalance1.Data.Balance[]: required ["AccountId"] vs official ["AccountId","Amount","CreditDebitIndicator","DateTime","Type"]',
      'OBReadBalance1.Data.Balance[].CreditLine[].Amount.Currency: pattern ^[A-Z]{3}$ vs official ^[A-Z]{3,3}$',
    ]);
  });

  test('constant lists equal the standard enums', () => {
    const ais = doc('account-info').components.schemas;
    const pis = doc('payment-initiation').components.schemas;
    const cbpii = doc('confirmation-funds').components.schemas;
    const comps = (f: File) => doc(f).components;
    assert.deepEqual(sorted(PERMISSIONS), sorted(deref(ais.OBReadConsent1.properties.Data.properties.Permissions.items, comps('account-info'))?.enum));
    assert.deepEqual(sorted(CONSENT_STATUSES), sorted(deref(ais.OBReadConsentResponse1.properties.Data.properties.Status, comps('account-info'))?.enum));
    assert.deepEqual(sorted(CONSENT_STATUSES), sorted(deref(cbpii.OBFundsConfirmationConsentResponse1.properties.Data.properties.Status, comps('confirmation-funds'))?.enum));
    assert.deepEqual(sorted(PAYMENT_CONSENT_STATUSES), sorted(deref(pis.OBWriteDomesticConsentResponse5.properties.Data.properties.Status, comps('payment-initiation'))?.enum));
    assert.deepEqual(sorted(PAYMENT_ORDER_STATUSES), sorted(deref(pis.OBWriteDomesticResponse5.properties.Data.properties.Status, comps('payment-initiation'))?.enum));
    const txn = deref(ais.OBTransaction6, comps('account-info')) as Json;
    for (const f of DETAIL_ONLY_TRANSACTION_FIELDS) assert.ok(f in txn.properties, f);
    const acc = deref(ais.OBAccount6, comps('account-info')) as Json;
    for (const f of DETAIL_ONLY_ACCOUNT_FIELDS) assert.ok(f in acc.properties, f);
  });
});

describe('our samples pass the official schemas too', { skip }, () => {
  const ajvs = new Map<File, Ajv>();
  function officialValidator(file: File, component: string) {
    let ajv = ajvs.get(file);
    if (!ajv) {
      // The OpenAPI files carry vendor keywords (x-namespaced-enum, example): strict off.
      ajv = new Ajv({ allErrors: true, strict: false });
      addFormats(ajv);
      ajv.addSchema({ $id: `https://obtpp.test/${file}.json`, components: doc(file).components });
      ajvs.set(file, ajv);
    }
    const fn = ajv.getSchema(`https://obtpp.test/${file}.json#/components/schemas/${component}`);
    assert.ok(fn, `${file}#/components/schemas/${component}`);
    return fn;
  }

  for (const [name, [file, component]] of Object.entries(COUNTERPART) as [SchemaName, [File, string]][]) {
    test(`${name} sample is valid against the official ${component}`, () => {
      const fn = officialValidator(file, component);
      const ok = fn(sample(name));
      assert.ok(ok, JSON.stringify(fn.errors, null, 1));
    });
  }

  test('the official validator is really checking (a bad currency fails it, and ours)', () => {
    const fn = officialValidator('account-info', 'OBReadAccount6');
    const body = sample('OBReadAccount6');
    body.Data.Account[0].Currency = 'gbp';
    assert.equal(fn(body), false);
    assert.match(formatProblems(validate('OBReadAccount6', body)), /Currency: expected a string matching/);
  });

  test('what the official schema accepts, our MUST level accepts (the samples stripped of the strict extras)', () => {
    for (const [name, [file, component]] of Object.entries(COUNTERPART) as [SchemaName, [File, string]][]) {
      const body = sample(name) as Json;
      // Links and Meta are strict extras, except where the official file requires them itself (VRP).
      const official = doc(file).components.schemas[component];
      if (!official.required?.includes('Links')) delete body.Links;
      if (!official.required?.includes('Meta')) delete body.Meta;
      for (const a of body.Data?.Account ?? []) for (const f of ['Currency', 'AccountType', 'AccountSubType']) delete a[f];
      for (const e of body.Errors ?? []) e.ErrorCode = 'Bank-specific code';
      const fn = officialValidator(file, component);
      assert.ok(fn(body), `${name}: ${JSON.stringify(fn.errors)}`);
      assert.deepEqual(judgeBody(name, body).must, [], name);
    }
  });
});

describe('the account-access consent read and delete agree with the official file', { skip }, () => {
  const official = () => doc('account-info').paths['/account-access-consents/{ConsentId}'];
  const feature = () => readFileSync(fileURLToPath(new URL('../../features/obie/account-information.feature', import.meta.url)), 'utf8');

  test('GET answers 200 with OBReadConsentResponse1, which is what AIS-02\'s read-back judges it by', () => {
    const ref: string = official().get.responses['200'].$ref;
    const response = doc('account-info').components.responses[ref.split('/').at(-1)!];
    const schemas = Object.values(response.content as Record<string, { schema: { $ref: string } }>).map((c) => c.schema.$ref);
    assert.ok(schemas.length > 0 && schemas.every((s) => s === '#/components/schemas/OBReadConsentResponse1'), JSON.stringify(schemas));
    assert.deepEqual(COUNTERPART.OBReadConsentResponse1, ['account-info', 'OBReadConsentResponse1']);
    assert.match(feature(), /When the AISP reads that account-access consent\n\s+Then the bank answers 200 OK\n\s+And the body is a valid "OBReadConsentResponse1"/);
  });

  test('DELETE answers 204 with no body, which is what AIS-12 demands; both take the ConsentId in the path', async () => {
    const ref: string = official().delete.responses['204'].$ref;
    const response = doc('account-info').components.responses[ref.split('/').at(-1)!];
    assert.equal(response.content, undefined, 'the official 204 has no body');
    assert.deepEqual(Object.keys(official().delete.responses).filter((c) => c.startsWith('2')), ['204']);
    assert.match(feature(), /When the AISP deletes that account-access consent\n\s+Then the bank answers 204 No Content/);
    // obtpp's client sends both to the official path (the profile's accountAccessConsents + /{ConsentId}).
    const { profileFromObject } = await import('../../src/profile/load.ts');
    const { TppClient } = await import('../../src/client/operations.ts');
    const { httpFromProfile } = await import('../../src/client/factory.ts');
    const p = await profileFromObject({
      name: 'uk bank', variants: ['A', 'B'], baseUrl: 'https://ob.bank.example/open-banking/v3.1',
      auth: { issuer: 'https://auth.bank.example', clientId: 'c', clientAuth: { method: 'client_secret_post', secret: 's3cret-value' }, redirectUri: 'https://tpp.example/cb' },
      psu: { username: 'u', password: 'p4ssword', driver: { kind: 'sandbox' } },
    }, { source: 'test.yaml', env: {} });
    const http = httpFromProfile(p);
    try {
      for (const variant of ['A', 'B'] as const) {
        const c = new TppClient(p, variant, http);
        for (const op of ['getAccountAccessConsent', 'deleteAccountAccessConsent'] as const) {
          assert.equal(c.pathOf(op, { consentId: 'aac-1' }).replace('aac-1', '{ConsentId}'), '/account-access-consents/{ConsentId}', `${variant} ${op}`);
        }
      }
    } finally {
      await http.close();
    }
  });
});
