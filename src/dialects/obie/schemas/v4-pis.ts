/**
 * UK Read/Write v4.0's schemas of the payment families beyond the domestic payment (domestic
 * scheduled, domestic standing order, international, international scheduled, international
 * standing order, file): each consent, its order and their answers, written from
 * ../shared/reference/FACTS-v4.md (§3.1, §3.2, §3.4, §4.1, §4.4) as what v4.0 changed from our
 * v3.1.11 schemas (payment-families.ts), and cross-checked against the official v4.0
 * payment-initiation file by test/dialects/obie-v4-crosscheck.test.ts (every schema named here is
 * one of v4.ts's table).
 *
 * Each is `open` (see v4.ts): the v4.0 status lists of its own resource (they differ from family
 * to family: no RCVD for international payments, no CANC for international scheduled ones), the
 * schedule of a standing order in MandateRelatedInformation, structured remittance, the new
 * parties and reporting, v4.0's Risk; its objects are not closed, so that a member of v4.0 obtpp
 * does not spell out never fails a correct bank.
 */
import { closedEnum, country, dateTime, text } from './common.ts';
import type { Levels } from './common.ts';
import { FREQUENCY_PATTERN } from './payment-families.ts';
import { SCHEMA_LEVELS, type SchemaName } from './index.ts';

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

const ADDRESS_TYPES = ['BIZZ', 'CORR', 'DLVY', 'MLTO', 'PBOX', 'ADDR', 'HOME', 'STAT'] as const;
const PROXY_CODES = ['TELE', 'EMAL', 'DNAM', 'CINC', 'COTX', 'COID', 'CUST', 'DRLC', 'EIDN', 'EWAL', 'PVTX', 'LEIC', 'MBNO', 'NIDN', 'CCPT', 'SHID', 'SOSE', 'TOKN', 'UBIL', 'VIPN', 'BIID'] as const;
const PAYMENT_CONTEXT_CODES = [
  'BillingGoodsAndServicesInAdvance', 'BillingGoodsAndServicesInArrears', 'EcommerceMerchantInitiatedPayment', 'FaceToFacePointOfSale',
  'TransferToSelf', 'TransferToThirdParty',
] as const;
const CREDITOR_REFERENCE_CODES = ['DISP', 'FXDR', 'PUOR', 'RPIN', 'RADM', 'SCOR'] as const;

// ---- v4.0 building blocks of PIS (§3.6, §4.1) ---------------------------------------------

const statusReason = {
  type: 'array',
  items: { type: 'object', properties: { StatusReasonCode: text(1, 4), StatusReasonDescription: text(1, 500), Path: text(1, 500) } },
} as const;

/** `OBPostalAddress7`: nothing required, longer street and town, ISO address types. */
const postalAddress7 = {
  type: 'object',
  properties: {
    AddressType: closedEnum(ADDRESS_TYPES),
    Department: text(1, 70), SubDepartment: text(1, 70),
    StreetName: text(1, 140), BuildingNumber: text(1, 16), BuildingName: text(1, 140), Floor: text(1, 70), UnitNumber: text(1, 16),
    Room: text(1, 70), PostBox: text(1, 16), TownLocationName: text(1, 140), DistrictName: text(1, 140), CareOf: text(1, 140),
    PostCode: text(1, 16), TownName: text(1, 140), CountrySubDivision: text(1, 35), Country: country,
    AddressLine: { type: 'array', items: text(1, 70), minItems: 0, maxItems: 7 },
  },
} as const;

/** PIS's LEI: no `$` anchor in the file, the first four digits, then 00 (§4.1, §8). */
const LEI = { type: 'string', minLength: 1, maxLength: 20, pattern: '^[0-9]{4}[0]{2}[A-Z0-9]{12}[0-9]{2}' } as const;

const proxy = { type: 'object', required: ['Identification', 'Code'], properties: { Identification: text(1, 2048), Code: closedEnum(PROXY_CODES), Type: text(1, 35) } } as const;

/** `OBRemittanceInformation2`: Unstructured an array; the old Reference in Structured[].CreditorReferenceInformation. */
const remittance2 = {
  type: 'object',
  properties: {
    Unstructured: { type: 'array', items: text(1, 140) },
    Structured: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          ReferredDocumentInformation: { type: 'array', items: { type: 'object', properties: { Issuer: text(1, 35), Number: text(1, 35), RelatedDate: dateTime } } },
          // int32 in the file (§8), not an amount object.
          ReferredDocumentAmount: { type: 'integer', format: 'int32' },
          CreditorReferenceInformation: { type: 'object', properties: { Code: { ...closedEnum(CREDITOR_REFERENCE_CODES), minLength: 1, maxLength: 4 }, Issuer: text(1, 35), Reference: text(1, 35) } },
          Invoicer: text(1, 256),
          Invoicee: text(1, 256),
          TaxRemittance: text(1, 140),
          AdditionalRemittanceInformation: { type: 'array', items: text(1, 140), maxItems: 3 },
        },
      },
    },
  },
} as const;

/** `OBUltimateCreditor1` / `OBUltimateDebtor1`: nothing required. */
const ultimateParty = {
  type: 'object',
  properties: { Name: text(1, 140), Identification: text(1, 256), LEI, SchemeName: { type: 'string' }, PostalAddress: postalAddress7 },
} as const;

/** `OBRegulatoryReporting1`, at most ten. */
const regulatoryReporting = {
  type: 'array',
  maxItems: 10,
  items: {
    type: 'object',
    properties: {
      DebitCreditReportingIndicator: closedEnum(['CRED', 'DEBT', 'BOTH']),
      Authority: { type: 'object', properties: { Name: text(1, 140), CountryCode: country } },
      Details: { type: 'array', items: { type: 'object' } },
    },
  },
} as const;

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

/** `OBRisk1` of PIS v4.0: ContractPresentIndicator spelt right at last, six context codes, purpose lists by length. */
const risk4 = {
  type: 'object',
  properties: {
    PaymentContextCode: closedEnum(PAYMENT_CONTEXT_CODES),
    MerchantCategoryCode: text(3, 4),
    MerchantCustomerIdentification: text(1, 70),
    ContractPresentIndicator: { type: 'boolean' },
    BeneficiaryPrepopulatedIndicator: { type: 'boolean' },
    PaymentPurposeCode: text(1, 4),
    CategoryPurposeCode: { type: 'string' },
    DeliveryAddress: postalAddress7,
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
 * Every postal address below `node` becomes OBPostalAddress7; with `proxies`, every cash account
 * (SchemeName and Identification) gains its Proxy (the Initiation's accounts: a Refund's do not).
 */
function accountsAndAddresses(node: Json, proxies = true): void {
  walk(node, (n) => {
    for (const [key, child] of Object.entries((n.properties ?? {}) as Record<string, Json>)) {
      if (!child || typeof child !== 'object') continue;
      if (child.properties?.TownName && child.properties?.AddressLine) n.properties[key] = postalAddress7;
      else if (proxies && child.properties?.SchemeName && child.properties?.Identification && !child.properties?.LEI && key !== 'CreditorAgent') child.properties.Proxy = proxy;
    }
  });
}

function opened(node: Json): Json {
  walk(node, (n) => {
    if (n.additionalProperties === false) delete n.additionalProperties;
  });
  return node;
}

type Family = keyof typeof V4_FAMILY_ORDER_STATUSES;
const STANDING_ORDERS: readonly Family[] = ['domestic-standing-order', 'international-standing-order'];
const INTERNATIONAL: readonly Family[] = ['international', 'international-scheduled', 'international-standing-order'];

/** A family's Initiation, v4.0 (§4.4); `order`: the international payment's order keeps a Creditor Name of 140 (§8). */
function initiation4(init: Json, family: Family, order = false): void {
  const p = init.properties;
  if (family === 'file') {
    p.UltimateDebtor = ultimateParty;
    p.CreditorAgent = { type: 'object', properties: { SchemeName: { type: 'string' }, Identification: text(1, 35), Name: text(1, 140), LEI, PostalAddress: postalAddress7 } };
  } else {
    p.UltimateCreditor = ultimateParty;
    p.UltimateDebtor = ultimateParty;
    p.RegulatoryReporting = regulatoryReporting;
  }
  p.RemittanceInformation = remittance2;
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

/** Applies `change` to both levels of a v3.1.11 schema, then opens it. */
function v4(levels: Levels, change: (schema: Json) => void): Levels {
  const official = copy(levels.official);
  const strict = copy(levels.strict);
  for (const s of [official, strict]) {
    change(s);
    opened(s);
  }
  return { official, strict };
}

function request(family: Family, order = false) {
  return (s: Json) => {
    initiation4(dataOf(s).properties.Initiation, family, order);
    if (s.properties.Risk) s.properties.Risk = risk4;
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
    if (s.properties.Risk) s.properties.Risk = risk4;
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
