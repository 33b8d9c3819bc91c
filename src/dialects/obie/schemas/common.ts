/**
 * Building blocks shared by the obie schemas: the standard's simple types (amount, currency,
 * date-time, ids), the account and agent identifications, addresses, and the Links/Meta envelope.
 *
 * Written by hand from ../shared/reference/FACTS.md (UK Open Banking Read/Write v3.1.x) and
 * checked against the official OpenAPI files by test/dialects/obie-crosscheck.test.ts.
 * `x-namespaced-enum` lists (SchemeName, LocalInstrument, ErrorCode, …) are open in the
 * standard, so they are plain strings here, never `enum`.
 */

/** `OBActiveCurrencyAndAmount_SimpleType`: no sign, 1–13 integer digits, up to 5 decimals. */
export const AMOUNT_PATTERN = '^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$';
/** `ActiveOrHistoricCurrencyCode`. */
export const CURRENCY_PATTERN = '^[A-Z]{3,3}$';
/** `CountryCode`. */
export const COUNTRY_PATTERN = '^[A-Z]{2,2}$';

export function text(minLength: number, maxLength: number) {
  return { type: 'string', minLength, maxLength } as const;
}

export function closedEnum<const T extends readonly string[]>(values: T) {
  return { type: 'string', enum: values } as const;
}

/** ISODateTime. ajv-formats' `date-time` (RFC 3339) requires a timezone: `Z` or an offset. */
export const dateTime = { type: 'string', format: 'date-time' } as const;
export const amountValue = { type: 'string', pattern: AMOUNT_PATTERN } as const;
export const currency = { type: 'string', pattern: CURRENCY_PATTERN } as const;
export const country = { type: 'string', pattern: COUNTRY_PATTERN } as const;
/** A namespaced (open) code such as `UK.OBIE.SortCodeAccountNumber`: any string. */
export const namespacedCode = { type: 'string' } as const;

export const accountId = text(1, 40);
export const consentId = text(1, 128);

export const CREDIT_DEBIT = ['Credit', 'Debit'] as const;

/** `{ Amount, Currency }` as the AIS and CBPII files write it (not closed there). */
export const amountAndCurrency = {
  type: 'object',
  required: ['Amount', 'Currency'],
  properties: { Amount: amountValue, Currency: currency },
} as const;

/** The same, closed, as the PIS file writes it (`OBActiveOrHistoricCurrencyAndAmount` in PIS). */
export const amountAndCurrencyClosed = { ...amountAndCurrency, additionalProperties: false } as const;

const accountProperties = {
  SchemeName: namespacedCode,
  Identification: text(1, 256),
  Name: text(1, 350),
  SecondaryIdentification: text(1, 34),
} as const;

/** `OBCashAccount5`-like account identification: SchemeName and Identification required, open object. */
export const cashAccount = {
  type: 'object',
  required: ['SchemeName', 'Identification'],
  properties: accountProperties,
} as const;

/** Debtor account of a payment initiation (`OBCashAccountDebtor4` in the request): closed. */
export const cashAccountDebtorClosed = { ...cashAccount, additionalProperties: false } as const;

/** Creditor account of a payment initiation: Name is required too, closed. */
export const cashAccountCreditorClosed = {
  type: 'object',
  required: ['SchemeName', 'Identification', 'Name'],
  properties: accountProperties,
  additionalProperties: false,
} as const;

/** `Data.Debtor` of a payment-order consent response: four plain strings, no constraint in the standard. */
export const debtorIdentification = {
  type: 'object',
  properties: {
    SchemeName: { type: 'string' },
    Identification: { type: 'string' },
    Name: { type: 'string' },
    SecondaryIdentification: { type: 'string' },
  },
} as const;

const ADDRESS_TYPES = ['Business', 'Correspondence', 'DeliveryTo', 'MailTo', 'POBox', 'Postal', 'Residential', 'Statement'] as const;

const postalAddressProperties = {
  AddressType: closedEnum(ADDRESS_TYPES),
  Department: text(1, 70),
  SubDepartment: text(1, 70),
  StreetName: text(1, 70),
  BuildingNumber: text(1, 16),
  PostCode: text(1, 16),
  TownName: text(1, 35),
  CountrySubDivision: text(1, 35),
  Country: country,
  AddressLine: { type: 'array', items: text(1, 70), minItems: 0, maxItems: 7 },
} as const;

/** `OBPostalAddress6`, open (as in the AIS agents). */
export const postalAddress = { type: 'object', properties: postalAddressProperties } as const;
/** `OBPostalAddress6`, closed (as the PIS `CreditorPostalAddress`). */
export const postalAddressClosed = { ...postalAddress, additionalProperties: false } as const;

/** A financial institution in AIS transactions (CreditorAgent/DebtorAgent): all optional. */
export const agent = {
  type: 'object',
  properties: {
    SchemeName: namespacedCode,
    Identification: text(1, 35),
    Name: text(1, 140),
    PostalAddress: postalAddress,
  },
} as const;

/** Free-form ASPSP extension object. */
export const supplementaryData = { type: 'object' } as const;

const uri = { type: 'string', format: 'uri' } as const;

/** `Links`: Self required, every member an absolute URI, closed. */
export const links = {
  type: 'object',
  required: ['Self'],
  properties: { Self: uri, First: uri, Prev: uri, Next: uri, Last: uri },
  additionalProperties: false,
} as const;

/** `Meta`: no required member, closed. */
export const meta = {
  type: 'object',
  properties: {
    TotalPages: { type: 'integer', format: 'int32' },
    FirstAvailableDateTime: dateTime,
    LastAvailableDateTime: dateTime,
  },
  additionalProperties: false,
} as const;

/**
 * A schema at the two levels the harness judges by: `official` is what the v3.1.11 OpenAPI file
 * demands (a violation is a MUST failure); `strict` adds what the standard's prose or good practice
 * asks beyond the file (a violation the official level does not share is a SHOULD warning).
 */
export interface Levels {
  readonly official: object;
  readonly strict: object;
}

/**
 * Annotation on a strict-only schema node: why it is there. The judge reads it on the node that
 * holds a failing keyword to name the warning's source; ajv ignores it (registered as annotation).
 */
export const SHOULD_SOURCE_KEYWORD = 'x-should-source';

/** Where each strictness beyond the official files comes from. */
export const SHOULD_SOURCES = {
  linksAndMeta: 'OBIE v3.1 prose: Links and Meta (Read/Write profile, Common Payload Structure)',
  switchedAccount: 'OBIE v3.1.11 OBAccount6 description: Currency, AccountType and AccountSubType on every account not switched',
  namespacedErrorCode: 'OBIE v3.1 prose: namespaced enumerations (ErrorCode)',
  practice: 'harness good practice',
} as const;

/** A schema the official file and the harness read alike (request bodies, sub-objects). */
export function bothLevels(schema: object): Levels {
  return { official: schema, strict: schema };
}

function isLevels(x: object): x is Levels {
  return 'official' in x && 'strict' in x;
}

/**
 * The response envelope. The OpenAPI files require only `Data` (and `Risk` on consents): that is
 * the official level. The Read/Write profile prose makes `Links` (with `Self`) and `Meta` (possibly
 * `{}`) mandatory, and docs/wire.md reads it that way: the strict level requires them too.
 */
export function responseEnvelope(data: object | Levels, risk?: object): Levels {
  const d = isLevels(data) ? data : bothLevels(data);
  const level = (dataSchema: object) => ({
    type: 'object',
    required: risk ? ['Data', 'Risk'] : ['Data'],
    properties: risk ? { Data: dataSchema, Risk: risk, Links: links, Meta: meta } : { Data: dataSchema, Links: links, Meta: meta },
    additionalProperties: false,
  });
  const official = level(d.official);
  const strict = {
    ...level(d.strict),
    required: [...official.required, 'Links', 'Meta'],
    [SHOULD_SOURCE_KEYWORD]: SHOULD_SOURCES.linksAndMeta,
  };
  return { official, strict };
}
