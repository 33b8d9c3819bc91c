/**
 * UK Open Banking Read/Write v4.0's schemas of the operations obtpp has, written from
 * ../shared/reference/FACTS-v4.md as what changed from our v3.1.11 schemas (the names are the same
 * in both versions, the content is not: FACTS-v4 §1.1), and checked against the official v4.0
 * OpenAPI files by test/dialects/obie-v4-crosscheck.test.ts.
 *
 * Three kinds, said per schema in `V4_COMPLETENESS`:
 * - `exact`: the v4.0 schema member for member (required lists, closed objects, code lists,
 *   lengths), as our v3.1.11 schemas are.
 * - `purpose-lists`: member for member too, but for the two external ISO purpose lists it carries
 *   (PaymentPurposeCode: ExternalPurpose1Code, 328 values; CategoryPurposeCode:
 *   ExternalCategoryPurpose1Code, 44), which obtpp does not restate and judges by their length.
 * - `open`: the v4.0 code values, required members, types and lengths of every member obtpp
 *   spells out, with objects left open to those it does not: only the product catalogue
 *   (OBReadProduct2, whose BCA, PCA and OtherProductType detail is about a thousand members;
 *   v3.1.11's is open alike). Such a schema never fails a correct v4.0 body; it misses a wrong
 *   value inside the members it does not spell out.
 */
import { closedEnum, SHOULD_SOURCE_KEYWORD, SHOULD_SOURCES, text } from './common.ts';
import type { Levels } from './common.ts';
import { SCHEMA_LEVELS, type SchemaName } from './index.ts';
import { v4AisSchemas } from './v4-ais.ts';
import { lei, postalAddress7, proxy, regulatoryReporting, remittance, risk, statusReason, ultimateParty, type V4File } from './v4-blocks.ts';
import { V4_PIS_SCHEMA_LEVELS } from './v4-pis.ts';

type Json = Record<string, any>;

// ---- v4.0 code values (FACTS-v4 §3) -------------------------------------------------------

/** Account-access consent statuses (§3.1). */
export const V4_AIS_CONSENT_STATUSES = ['AWAU', 'RJCT', 'AUTH', 'EXPD', 'CANC'] as const;
/** Funds-confirmation consent statuses (§3.1). */
export const V4_CBPII_CONSENT_STATUSES = ['AWAU', 'RJCT', 'AUTH', 'CANC', 'EXPD'] as const;
/** Domestic payment-order consent statuses (§3.1): no CANC, no EXPD. */
export const V4_PAYMENT_CONSENT_STATUSES = ['AWAU', 'RJCT', 'AUTH', 'COND'] as const;
/** Domestic VRP consent statuses (§3.1). */
export const V4_VRP_CONSENT_STATUSES = ['AWAU', 'RJCT', 'AUTH', 'CANC', 'EXPD'] as const;
/** Domestic payment statuses (§3.2). */
export const V4_PAYMENT_ORDER_STATUSES = ['RCVD', 'PDNG', 'ACTC', 'PATC', 'ACCP', 'ACFC', 'ACSP', 'ACWC', 'ACSC', 'ACWP', 'ACCC', 'BLCK', 'RJCT'] as const;
/** Payment-details statuses of a domestic payment (§3.2): no RCVD. */
export const V4_PAYMENT_DETAIL_STATUSES = ['PDNG', 'ACTC', 'PATC', 'ACCP', 'ACFC', 'ACSP', 'ACWC', 'ACSC', 'ACWP', 'ACCC', 'BLCK', 'RJCT'] as const;
/** Domestic VRP statuses, also its payment details (§3.2): no PATC. */
export const V4_VRP_STATUSES = ['RCVD', 'RJCT', 'CANC', 'PDNG', 'ACTC', 'ACCP', 'ACFC', 'ACSP', 'ACWC', 'ACSC', 'ACWP', 'ACCC', 'BLCK'] as const;
/** `AccountTypeCode`, the former AccountSubType (§3.3). */
export const V4_ACCOUNT_TYPE_CODES = [
  'CACC', 'CARD', 'CASH', 'CHAR', 'CISH', 'COMM', 'CPAC', 'LLSV', 'LOAN', 'MGLD', 'MOMA', 'NREX', 'ODFT', 'ONDP', 'OTHR', 'SACC',
  'SLRY', 'SVGS', 'TAXE', 'TRAN', 'TRAS', 'VACC', 'NFCA', 'MORT', 'WALT',
] as const;
export const V4_BALANCE_TYPES = ['CLAV', 'CLBD', 'FWAV', 'INFO', 'ITAV', 'ITBD', 'OPAV', 'OPBD', 'PRCD', 'XPCD'] as const;
export const V4_TRANSACTION_STATUSES = ['BOOK', 'FUTR', 'INFO', 'PDNG', 'RJCT'] as const;

// ---- v4.0 building blocks (§3.6, §4.1): schemas/v4-blocks.ts, made per file --------------

const AIS_LEI = lei('account-info');

/**
 * `OBUltimateCreditor1` / `OBUltimateDebtor1` of a v4.0 transaction (§4.1): nothing required; its
 * SchemeName an external namespaced list (a string), its address OBPostalAddress7.
 */
const ultimateParty4 = ultimateParty('account-info');

// ---- the changes, applied to a copy of each v3.1.11 schema ---------------------------------

/** A deep copy that shares nothing (structuredClone keeps shared sub-objects shared). */
const copy = (x: object): Json => JSON.parse(JSON.stringify(x));

/** The node at a dotted path of properties (`Data.Account[]`: the array's items). */
function at(schema: Json, path: string): Json {
  let cur = schema;
  for (const part of path.split('.')) {
    const name = part.replace(/\[\]$/, '');
    cur = name === '' ? cur : cur.properties?.[name];
    if (cur && part.endsWith('[]')) cur = cur.items;
    if (!cur) throw new TypeError(`v4 schema: no node ${path} (at ${part})`);
  }
  return cur;
}

/** Sets (or, with undefined, removes) property `name` of the object at `path`. */
function put(schema: Json, path: string, name: string, value: object | undefined): void {
  const node = path ? at(schema, path) : schema;
  node.properties ??= {};
  if (value === undefined) delete node.properties[name];
  else node.properties[name] = value;
}

/** Every object node below `node`, with a visitor (arrays, properties, if/then/else). */
function walk(node: unknown, visit: (n: Json) => void): void {
  if (!node || typeof node !== 'object') return;
  const n = node as Json;
  visit(n);
  for (const key of ['items', 'if', 'then', 'else']) walk(n[key], visit);
  for (const child of Object.values(n.properties ?? {})) walk(child, visit);
}

/** Replaces every postal address below `node` with OBPostalAddress7, keeping its closedness unless `open`. */
function addresses(node: Json, open: boolean): void {
  walk(node, (n) => {
    for (const [key, child] of Object.entries((n.properties ?? {}) as Record<string, Json>)) {
      if (child && typeof child === 'object' && child.properties?.TownName && child.properties?.AddressLine) n.properties[key] = postalAddress7(!open && child.additionalProperties === false);
    }
  });
}

/** Applies `change` to both levels of a v3.1.11 schema. */
function v4(levels: Levels, change: (schema: Json, level: keyof Levels) => void): Levels {
  const official = copy(levels.official);
  const strict = copy(levels.strict);
  change(official, 'official');
  change(strict, 'strict');
  return { official, strict };
}

const consentStatus = (values: readonly string[]) => (s: Json) => {
  put(s, 'Data', 'Status', closedEnum(values));
  put(s, 'Data', 'StatusReason', statusReason);
};

/** Every postal address below `node` becomes the file's OBPostalAddress7 (closed in the payment files). */
function addressesOf(node: Json, file: V4File): void {
  walk(node, (n) => {
    for (const [key, child] of Object.entries((n.properties ?? {}) as Record<string, Json>)) {
      if (child && typeof child === 'object' && child.properties?.TownName && child.properties?.AddressLine) n.properties[key] = postalAddress7(file !== 'account-info');
    }
  });
}

/**
 * The payment initiation of PIS and VRP, v4.0: structured remittance, addresses, the Proxy of its
 * accounts, the Ultimate parties; `full`: an Initiation (UltimateDebtor and RegulatoryReporting
 * too), not a VRP's Instruction, which names only its UltimateCreditor.
 */
function initiation4(s: Json, path: string, file: 'payment-initiation' | 'vrp', full = true): void {
  const node = at(s, path);
  put(s, path, 'RemittanceInformation', remittance(file));
  addressesOf(node, file);
  for (const account of ['DebtorAccount', 'CreditorAccount']) if (node.properties[account]) put(s, `${path}.${account}`, 'Proxy', proxy);
  put(s, path, 'UltimateCreditor', ultimateParty(file));
  if (full) {
    put(s, path, 'UltimateDebtor', ultimateParty(file));
    put(s, path, 'RegulatoryReporting', regulatoryReporting(file));
  }
}

/**
 * A domestic payment's Initiation, v4.0: the creditor's agent is new (closed, as its address);
 * and the PSU's Debtor of an answer gains its LEI.
 */
function domestic4(s: Json): void {
  initiation4(s, 'Data.Initiation', 'payment-initiation');
  put(s, 'Data.Initiation', 'CreditorAgent', {
    type: 'object',
    properties: { SchemeName: { type: 'string' }, Identification: text(1, 35), Name: text(1, 140), LEI: lei('payment-initiation'), PostalAddress: postalAddress7(true) },
    additionalProperties: false,
  });
  if (hasPath(s, 'Data.Debtor')) put(s, 'Data.Debtor', 'LEI', lei('payment-initiation'));
  if (s.properties?.Risk) put(s, '', 'Risk', risk);
}

/** The VRP schemas' Initiation, Instruction, accounts and Risk, v4.0. */
function vrp4(s: Json): void {
  // Every VRP v4.0 cash account's Name is at most 70 characters (v3.1.11: 350; PIS v4.0 keeps 350).
  walk(s, (n) => {
    if (n.properties?.SchemeName && n.properties?.Identification && n.properties?.Name?.maxLength === 350) n.properties.Name = text(1, 70);
  });
  if (hasPath(s, 'Data.Initiation')) initiation4(s, 'Data.Initiation', 'vrp');
  if (hasPath(s, 'Data.Instruction')) initiation4(s, 'Data.Instruction', 'vrp', false);
  // The answer's debtor account and refund account have their Proxy too.
  for (const account of ['DebtorAccount', 'Refund']) if (hasPath(s, `Data.${account}`)) put(s, `Data.${account}`, 'Proxy', proxy);
  if (s.properties?.Risk) put(s, '', 'Risk', risk);
}

function hasPath(s: Json, path: string): boolean {
  try {
    at(s, path);
    return true;
  } catch {
    return false;
  }
}

/** What each v4.0 schema is (module comment): `exact`, `purpose-lists` or `open`. */
export type V4Completeness = 'exact' | 'purpose-lists' | 'open';
export const V4_COMPLETENESS: Readonly<Partial<Record<SchemaName, V4Completeness>>> = {};
const completeness = V4_COMPLETENESS as Partial<Record<SchemaName, V4Completeness>>;

function exact(levels: Levels): Levels {
  return levels;
}

// The account-information reads only the UK layout has: schemas/v4-ais.ts, with this module's tools.
const AIS = v4AisSchemas({ v4, at, put, postalAddress7, proxy, lei: AIS_LEI, remittance: remittance('account-info') }, SCHEMA_LEVELS);

/**
 * Every v4.0 schema obtpp judges by, by name. The schemas of operations v4.0 did not change
 * (§4.3: OBFundsConfirmation1 and its response; §6.3: the VRP funds confirmation; the PIS funds
 * check) are the v3.1.11 ones: the cross-check proves them equal to the v4.0 file.
 */
export const V4_SCHEMA_LEVELS: Readonly<Partial<Record<SchemaName, Levels>>> = {
  ...AIS.levels,
  // The request is the same, but v4.0 no longer closes its top level.
  OBReadConsent1: exact(v4(SCHEMA_LEVELS.OBReadConsent1, (s) => { delete s.additionalProperties; })),
  OBReadConsentResponse1: exact(v4(SCHEMA_LEVELS.OBReadConsentResponse1, consentStatus(V4_AIS_CONSENT_STATUSES))),
  OBReadAccount6: exact(v4(SCHEMA_LEVELS.OBReadAccount6, (s, level) => {
    const account = at(s, 'Data.Account[]');
    const { properties } = account;
    // AccountType/AccountSubType → AccountCategory/AccountTypeCode, in their place (§3.3).
    account.properties = Object.fromEntries(Object.entries(properties as Json).flatMap(([k, v]) => (
      k === 'AccountType' ? [['AccountCategory', v]] : k === 'AccountSubType' ? [['AccountTypeCode', closedEnum(V4_ACCOUNT_TYPE_CODES)]] : [[k, v]])));
    account.properties.StatementFrequencyAndFormat = {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          Frequency: closedEnum(['YEAR', 'DAIL', 'INDA', 'MNTH', 'QURT', 'MIAN', 'TEND', 'MOVE', 'WEEK']),
          CommunicationMethod: closedEnum(['EMAL', 'FAXI', 'FILE', 'ONLI', 'POST']),
          Format: closedEnum(['DPDF', 'DXML', 'SDSH', 'WORD', 'XSLT']),
          DeliveryAddress: postalAddress7(false),
        },
      },
    };
    put(s, 'Data.Account[].Account[]', 'LEI', AIS_LEI);
    put(s, 'Data.Account[].Servicer', 'Name', text(1, 140));
    if (level === 'strict') {
      account.else = {
        properties: { Currency: true, AccountCategory: true, AccountTypeCode: true },
        required: ['Currency', 'AccountCategory', 'AccountTypeCode'],
        [SHOULD_SOURCE_KEYWORD]: SHOULD_SOURCES.switchedAccount.replace('v3.1.11', 'v4.0').replace('AccountType and AccountSubType', 'AccountCategory and AccountTypeCode'),
      };
    }
  })),
  OBReadBalance1: exact(v4(SCHEMA_LEVELS.OBReadBalance1, (s) => {
    put(s, 'Data.Balance[]', 'Type', closedEnum(V4_BALANCE_TYPES));
    for (const amount of ['Amount', 'LocalAmount']) put(s, `Data.Balance[].${amount}`, 'SubType', closedEnum(['BCUR', 'LCUR']));
  })),
  // Every member v4.0 added is spelt out (closed where the file closes it); only the two external
  // ISO purpose lists are checked by length (the module comment's `purpose-lists`).
  OBReadTransaction6: v4(SCHEMA_LEVELS.OBReadTransaction6, (s) => {
    const txn = 'Data.Transaction[]';
    put(s, txn, 'Status', closedEnum(V4_TRANSACTION_STATUSES));
    put(s, `${txn}.Balance`, 'Type', closedEnum(V4_BALANCE_TYPES));
    put(s, txn, 'ExtendedProprietaryBankTransactionCodes', {
      type: 'array',
      items: { type: 'object', required: ['Code'], properties: { Code: text(1, 35), Issuer: text(1, 35), Description: text(1, 500) } },
    });
    put(s, txn, 'CategoryPurposeCode', { type: 'string' });
    put(s, txn, 'PaymentPurposeCode', text(1, 4));
    put(s, txn, 'UltimateCreditor', ultimateParty4);
    put(s, txn, 'UltimateDebtor', ultimateParty4);
    for (const side of ['Creditor', 'Debtor']) {
      put(s, `${txn}.${side}Agent`, 'LEI', AIS_LEI);
      put(s, `${txn}.${side}Account`, 'Proxy', proxy);
    }
    addresses(s, false);
  }),
  OBReadBeneficiary5: v4(SCHEMA_LEVELS.OBReadBeneficiary5, (s) => {
    // v4.0 no longer closes the top level.
    delete s.additionalProperties;
    put(s, 'Data.Beneficiary[].CreditorAgent', 'LEI', AIS_LEI);
    put(s, 'Data.Beneficiary[].CreditorAccount', 'Proxy', proxy);
    addresses(s, false);
  }),
  OBFundsConfirmationConsent1: exact(v4(SCHEMA_LEVELS.OBFundsConfirmationConsent1, (s) => put(s, 'Data.DebtorAccount', 'Proxy', proxy))),
  OBFundsConfirmationConsentResponse1: exact(v4(SCHEMA_LEVELS.OBFundsConfirmationConsentResponse1, (s) => {
    consentStatus(V4_CBPII_CONSENT_STATUSES)(s);
    put(s, 'Data.DebtorAccount', 'Proxy', proxy);
  })),
  OBFundsConfirmation1: SCHEMA_LEVELS.OBFundsConfirmation1,
  OBFundsConfirmationResponse1: SCHEMA_LEVELS.OBFundsConfirmationResponse1,
  OBWriteDomesticConsent4: v4(SCHEMA_LEVELS.OBWriteDomesticConsent4, domestic4),
  OBWriteDomesticConsentResponse5: v4(SCHEMA_LEVELS.OBWriteDomesticConsentResponse5, (s) => {
    consentStatus(V4_PAYMENT_CONSENT_STATUSES)(s);
    domestic4(s);
  }),
  OBWriteDomestic2: v4(SCHEMA_LEVELS.OBWriteDomestic2, domestic4),
  OBWriteDomesticResponse5: v4(SCHEMA_LEVELS.OBWriteDomesticResponse5, (s) => {
    put(s, 'Data', 'Status', closedEnum(V4_PAYMENT_ORDER_STATUSES));
    put(s, 'Data', 'StatusReason', statusReason);
    if (hasPath(s, 'Data.MultiAuthorisation')) put(s, 'Data.MultiAuthorisation', 'Status', closedEnum(['AUTH', 'AWAF', 'RJCT']));
    domestic4(s);
  }),
  OBWritePaymentDetailsResponse1: v4(SCHEMA_LEVELS.OBWritePaymentDetailsResponse1, (s) => {
    put(s, 'Data.PaymentStatus[]', 'Status', closedEnum(V4_PAYMENT_DETAIL_STATUSES));
    // StatusDetail.Status is the same code list; StatusReason a free 1..4 string (§3.2).
    put(s, 'Data.PaymentStatus[].StatusDetail', 'Status', { ...closedEnum(V4_PAYMENT_DETAIL_STATUSES), minLength: 1, maxLength: 4 });
    put(s, 'Data.PaymentStatus[].StatusDetail', 'StatusReason', text(1, 4));
    // v4.0 closes Data, Links and Meta, but neither the top level nor a status (v3.1.11 the reverse).
    for (const node of [s, at(s, 'Data.PaymentStatus[]'), at(s, 'Data.PaymentStatus[].StatusDetail')]) delete node.additionalProperties;
    for (const node of ['Data', 'Links', 'Meta']) at(s, node).additionalProperties = false;
  }),
  OBWriteFundsConfirmationResponse1: SCHEMA_LEVELS.OBWriteFundsConfirmationResponse1,
  OBErrorResponse1: exact(v4OfErrorResponse()),
  OBDomesticVRPConsentRequest: v4(SCHEMA_LEVELS.OBDomesticVRPConsentRequest, (s) => {
    vrp4(s);
  }),
  OBDomesticVRPConsentResponse: v4(SCHEMA_LEVELS.OBDomesticVRPConsentResponse, (s) => {
    consentStatus(V4_VRP_CONSENT_STATUSES)(s);
    vrp4(s);
  }),
  OBDomesticVRPRequest: v4(SCHEMA_LEVELS.OBDomesticVRPRequest, (s) => {
    vrp4(s);
  }),
  OBDomesticVRPResponse: v4(SCHEMA_LEVELS.OBDomesticVRPResponse, (s) => {
    put(s, 'Data', 'Status', closedEnum(V4_VRP_STATUSES));
    // v3's StatusReason (a code) and StatusReasonDescription became one StatusReason[] (§6.2).
    put(s, 'Data', 'StatusReasonDescription', undefined);
    put(s, 'Data', 'StatusReason', statusReason);
    vrp4(s);
  }),
  OBDomesticVRPDetails: v4(SCHEMA_LEVELS.OBDomesticVRPDetails, (s) => {
    put(s, 'Data.PaymentStatus[]', 'Status', closedEnum(V4_VRP_STATUSES));
    put(s, 'Data.PaymentStatus[].StatusDetail', 'StatusReason', { type: 'string' });
    put(s, 'Data.PaymentStatus[].StatusDetail', 'StatusReasonDescription', text(1, 256));
    // v4.0 makes Data required (§6.2).
    s.required = [...new Set([...(s.required ?? []), 'Data'])];
  }),
  OBVRPFundsConfirmationRequest: SCHEMA_LEVELS.OBVRPFundsConfirmationRequest,
  OBVRPFundsConfirmationResponse: SCHEMA_LEVELS.OBVRPFundsConfirmationResponse,
  // The payment families beyond the domestic payment (v4-pis.ts).
  ...V4_PIS_SCHEMA_LEVELS,
};

/** Whether a schema has a member judged by an external purpose list's length (a property of that name). */
function carriesPurposeList(schema: Json): boolean {
  let found = false;
  walk(schema, (n) => {
    if (n.properties?.PaymentPurposeCode || n.properties?.CategoryPurposeCode) found = true;
  });
  return found;
}
for (const [name, levels] of Object.entries(V4_SCHEMA_LEVELS) as Array<[SchemaName, Levels]>) completeness[name] = carriesPurposeList(levels.official) ? 'purpose-lists' : 'exact';
for (const name of AIS.open) completeness[name] = 'open';

/**
 * `OBErrorResponse1` v4.0 (§3.5): only Errors required (Code and Message deprecated and optional);
 * each error requires only its ErrorCode, exactly four characters from an external list.
 */
function v4OfErrorResponse(): Levels {
  const schema = {
    type: 'object',
    required: ['Errors'],
    properties: {
      Code: text(1, 40),
      Id: text(1, 40),
      Message: text(1, 500),
      Errors: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['ErrorCode'],
          properties: { ErrorCode: text(4, 4), Message: text(1, 500), Path: text(1, 500), Url: { type: 'string' } },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  };
  return { official: schema, strict: schema };
}
