/**
 * UK Read/Write v4.0's schemas of the payment families beyond the domestic payment (domestic
 * scheduled, domestic standing order, international, international scheduled, international
 * standing order, file): each consent, its order and their answers, written from
 * ../shared/reference/FACTS-v4.md (§3.1, §3.2, §3.4, §4.1, §4.4) as what v4.0 changed from our
 * v3.1.11 schemas (payment-families.ts), and cross-checked against the official v4.0
 * payment-initiation file by test/dialects/obie-v4-crosscheck.test.ts (every schema named here is
 * one of v4.ts's table).
 *
 * Each is member for member (`purpose-lists` or `exact`, see v4.ts): the v4.0 status lists of its
 * own resource (they differ from family to family: no RCVD for international payments, no CANC
 * for international scheduled ones), the schedule of a standing order in
 * MandateRelatedInformation, structured remittance, the Ultimate parties and RegulatoryReporting,
 * Proxy and LEI, v4.0's Risk, objects closed where the file closes them (schemas/v4-blocks.ts has
 * the blocks as payment-initiation spells them).
 */
import { closedEnum, dateTime, text } from './common.ts';
import type { Levels } from './common.ts';
import { FREQUENCY_PATTERN } from './payment-families.ts';
import { SCHEMA_LEVELS, type SchemaName } from './index.ts';
import { lei, postalAddress7, proxy, regulatoryReporting, remittance, risk, statusReason, ultimateParty } from './v4-blocks.ts';

type Json = Record<string, any>;

// ---- v4.0 code values (FACTS-v4 §3.1, §3.2, §3.4) ------------------------------------------

/** Payment-order consent statuses (§3.1): no CANC, no EXPD. */
const CONSENT_STATUSES = ['AWAU', 'RJCT', 'AUTH', 'COND'] as const;
/** File-payment consent statuses (§3.1): AWUP while the file is awaited. */
const FILE_CONSENT_STATUSES = ['AWAU', 'AWUP', 'RJCT', 'AUTH', 'COND'] as const;

/** Each family's order statuses (§3.2): the lists are not interchangeable. */
export const V4_FAMILY_ORDER_STATUSES = {
  'domestic-scheduled': ['RCVD', 'CANC', 'PDNG', 'ACTC', 'PATC', 'ACCP', 'ACFC', 'ACSP', 'ACWC', 'ACSC', 'ACWP', 'BLCK', 'RJCT'],
  'domestic-standing-order': ['RCVD', 'CANC', 'ACTC', 'PATC', 'PDNG', 'INFA', 'INCO', 'RJCT'],
  international: ['PDNG', 'ACTC', 'PATC', 'ACCP', 'ACFC', 'ACSP', 'ACWC', 'ACSC', 'ACWP', 'ACCC', 'BLCK', 'RJCT'],
  'international-scheduled': ['PDNG', 'ACTC', 'PATC', 'ACCP', 'ACFC', 'ACSP', 'ACWC', 'ACSC', 'ACWP', 'ACCC', 'BLCK', 'RJCT'],
  'international-standing-order': ['RCVD', 'CANC', 'ACTC', 'PATC', 'PDNG', 'INFA', 'INCO', 'RJCT'],
  file: ['INFA', 'INCO', 'PDNG'],
} as const;

/** `OBFrequency6Code` (§3.4; the file lists WEEK twice, written once here). */
export const V4_FREQUENCY_CODES = ['ADHO', 'YEAR', 'DAIL', 'FRTN', 'INDA', 'MNTH', 'QURT', 'MIAN', 'WEEK', 'WODL', 'FOWK', 'TWMH', 'FOMH', 'FIMH', 'ALMH', 'NONE'] as const;


// ---- v4.0 building blocks of PIS (§3.6, §4.1): schemas/v4-blocks.ts, as payment-initiation spells them

const LEI = lei('payment-initiation');

/** A standing order's Frequency at v4.0: Type an ISO code or the v3.1.11 grammar (v4.0 adds NotKnown). */
const frequency6 = {
  type: 'object',
  required: ['Type'],
  properties: {
    Type: { oneOf: [closedEnum(V4_FREQUENCY_CODES), { type: 'string', pattern: `${FREQUENCY_PATTERN}|^(NotKnown)$` }] },
    CountPerPeriod: { type: 'integer', format: 'int32' },
    PointInTime: { type: 'string', maxLength: 2 },
  },
} as const;

/** `OBMandateRelatedInformation1`: only the Frequency is required (§4.1). */
const mandateRelatedInformation = {
  type: 'object',
  required: ['Frequency'],
  properties: {
    MandateIdentification: text(1, 35),
    Classification: closedEnum(['FIXE', 'USGB', 'VARI']),
    CategoryPurposeCode: { type: 'string' },
    FirstPaymentDateTime: dateTime,
    RecurringPaymentDateTime: dateTime,
    FinalPaymentDateTime: dateTime,
    Frequency: frequency6,
    Reason: text(1, 256),
  },
} as const;

// ---- the changes, applied to a copy of each v3.1.11 schema ---------------------------------

const copy = (x: object): Json => JSON.parse(JSON.stringify(x));

function walk(node: unknown, visit: (n: Json) => void): void {
  if (!node || typeof node !== 'object') return;
  const n = node as Json;
  visit(n);
  for (const key of ['items', 'if', 'then', 'else']) walk(n[key], visit);
  for (const child of Object.values(n.properties ?? {})) walk(child, visit);
}

/** The object schema of the answer's or request's Data. */
const dataOf = (s: Json): Json => s.properties.Data;

/**
 * Every postal address below `node` becomes OBPostalAddress7 (closed, as payment-initiation closes
 * it); with `proxies`, every cash account (SchemeName and Identification) gains its Proxy (the
 * Initiation's accounts: a Refund's do not).
 */
function accountsAndAddresses(node: Json, proxies = true): void {
  walk(node, (n) => {
    for (const [key, child] of Object.entries((n.properties ?? {}) as Record<string, Json>)) {
      if (!child || typeof child !== 'object') continue;
      if (child.properties?.TownName && child.properties?.AddressLine) n.properties[key] = postalAddress7(true);
      else if (proxies && child.properties?.SchemeName && child.properties?.Identification && !child.properties?.LEI && key !== 'CreditorAgent') child.properties.Proxy = proxy;
    }
  });
}

type Family = keyof typeof V4_FAMILY_ORDER_STATUSES;
const STANDING_ORDERS: readonly Family[] = ['domestic-standing-order', 'international-standing-order'];
const INTERNATIONAL: readonly Family[] = ['international', 'international-scheduled', 'international-standing-order'];

/** A family's Initiation, v4.0 (§4.4); `order`: the international payment's order keeps a Creditor Name of 140 (§8). */
function initiation4(init: Json, family: Family, order = false): void {
  const p = init.properties;
  if (family === 'file') {
    p.UltimateDebtor = ultimateParty('payment-initiation');
    p.CreditorAgent = {
      type: 'object', properties: { SchemeName: { type: 'string' }, Identification: text(1, 35), Name: text(1, 140), LEI, PostalAddress: postalAddress7(true) }, additionalProperties: false,
    };
  } else {
    p.UltimateCreditor = ultimateParty('payment-initiation');
    p.UltimateDebtor = ultimateParty('payment-initiation');
    p.RegulatoryReporting = regulatoryReporting('payment-initiation');
  }
  p.RemittanceInformation = remittance('payment-initiation');
  if (STANDING_ORDERS.includes(family)) {
    // The schedule moved into MandateRelatedInformation; the plain Reference became remittance.
    for (const gone of ['Frequency', 'Reference', 'FirstPaymentDateTime', 'RecurringPaymentDateTime', 'FinalPaymentDateTime']) delete p[gone];
    p.MandateRelatedInformation = mandateRelatedInformation;
    init.required = ['MandateRelatedInformation', ...init.required.filter((r: string) => !['Frequency', 'FirstPaymentDateTime'].includes(r))];
  }
  if (INTERNATIONAL.includes(family)) {
    delete p.Purpose;
    if (p.Creditor) p.Creditor.properties = { ...p.Creditor.properties, Name: text(1, order && family === 'international' ? 140 : 350), LEI };
  }
  if (p.CreditorAgent) p.CreditorAgent.properties = { ...p.CreditorAgent.properties, LEI };
  accountsAndAddresses(init);
}

/** Applies `change` to both levels of a v3.1.11 schema. */
function v4(levels: Levels, change: (schema: Json) => void): Levels {
  const official = copy(levels.official);
  const strict = copy(levels.strict);
  for (const s of [official, strict]) change(s);
  return { official, strict };
}

function request(family: Family, order = false) {
  return (s: Json) => {
    initiation4(dataOf(s).properties.Initiation, family, order);
    if (s.properties.Risk) s.properties.Risk = risk;
  };
}

function consentAnswer(family: Family) {
  return (s: Json) => {
    const data = dataOf(s);
    data.properties.Status = closedEnum(family === 'file' ? FILE_CONSENT_STATUSES : CONSENT_STATUSES);
    data.properties.StatusReason = statusReason;
    if (data.properties.Debtor) data.properties.Debtor.properties = { ...data.properties.Debtor.properties, LEI };
    initiation4(data.properties.Initiation, family);
    accountsAndAddresses(data, false);
    if (s.properties.Risk) s.properties.Risk = risk;
  };
}

function orderAnswer(family: Family) {
  return (s: Json) => {
    const data = dataOf(s);
    data.properties.Status = closedEnum(V4_FAMILY_ORDER_STATUSES[family]);
    data.properties.StatusReason = statusReason;
    if (data.properties.MultiAuthorisation) data.properties.MultiAuthorisation.properties.Status = closedEnum(['AUTH', 'AWAF', 'RJCT']);
    if (data.properties.Debtor) data.properties.Debtor.properties = { ...data.properties.Debtor.properties, LEI };
    initiation4(data.properties.Initiation, family);
    accountsAndAddresses(data, false);
    const refund = data.properties.Refund?.properties;
    if (refund?.Creditor) refund.Creditor.properties.LEI = LEI;
    // Of the refund accounts, the file gives only the international payment's a Proxy.
    if (refund?.Account && family === 'international') refund.Account.properties.Proxy = proxy;
  };
}

const FAMILY_SCHEMAS: ReadonlyArray<[Family, SchemaName, SchemaName, SchemaName, SchemaName]> = [
  // family, consent, consent's answer, order, order's answer
  ['domestic-scheduled', 'OBWriteDomesticScheduledConsent4', 'OBWriteDomesticScheduledConsentResponse5', 'OBWriteDomesticScheduled2', 'OBWriteDomesticScheduledResponse5'],
  ['domestic-standing-order', 'OBWriteDomesticStandingOrderConsent5', 'OBWriteDomesticStandingOrderConsentResponse6', 'OBWriteDomesticStandingOrder3', 'OBWriteDomesticStandingOrderResponse6'],
  ['international', 'OBWriteInternationalConsent5', 'OBWriteInternationalConsentResponse6', 'OBWriteInternational3', 'OBWriteInternationalResponse5'],
  ['international-scheduled', 'OBWriteInternationalScheduledConsent5', 'OBWriteInternationalScheduledConsentResponse6', 'OBWriteInternationalScheduled3', 'OBWriteInternationalScheduledResponse6'],
  ['international-standing-order', 'OBWriteInternationalStandingOrderConsent6', 'OBWriteInternationalStandingOrderConsentResponse7', 'OBWriteInternationalStandingOrder4', 'OBWriteInternationalStandingOrderResponse7'],
  ['file', 'OBWriteFileConsent3', 'OBWriteFileConsentResponse4', 'OBWriteFile2', 'OBWriteFileResponse3'],
];

/** The v4.0 schemas of the payment families, by name (merged into v4.ts's table). */
export const V4_PIS_SCHEMA_LEVELS: Readonly<Partial<Record<SchemaName, Levels>>> = Object.fromEntries(FAMILY_SCHEMAS.flatMap(([family, consent, consentResponse, order, orderResponse]) => [
  [consent, v4(SCHEMA_LEVELS[consent], request(family))],
  [consentResponse, v4(SCHEMA_LEVELS[consentResponse], consentAnswer(family))],
  [order, v4(SCHEMA_LEVELS[order], request(family, true))],
  [orderResponse, v4(SCHEMA_LEVELS[orderResponse], orderAnswer(family))],
]));
