/**
 * Building blocks of the berlin-group schemas: amounts, currency and account identifiers, account
 * references, `_links`, at the two levels the harness judges by (see ../../obie/schemas/common.ts).
 *
 * Written by hand from ../shared/reference/FACTS.md §6 (NextGenPSD2 XS2A 1.3.11/1.3.12) and
 * checked against the official OpenAPI file by test/dialects/berlin-group-crosscheck.test.ts.
 * The official file's patterns are unanchored (`[A-Z]{3}` accepts "EURO"): the official level
 * keeps them so; the strict level anchors them, and a value only the anchors refuse is a SHOULD.
 * BG objects are open (no `additionalProperties: false`), and so are ours.
 */
import { SHOULD_SOURCE_KEYWORD } from '../../obie/schemas/common.ts';
import type { Levels } from '../../obie/schemas/common.ts';

export type { Levels } from '../../obie/schemas/common.ts';
export { SHOULD_SOURCE_KEYWORD } from '../../obie/schemas/common.ts';

/** Where each strictness beyond the official file comes from. */
export const BG_SHOULD_SOURCES = {
  anchoredPatterns: 'NextGenPSD2 1.3.x data types: ISO 4217 / ISO 13616 / ISO 9362 codes are whole values (the file\'s patterns are unanchored)',
  resourceId: 'NextGenPSD2 Implementation Guidelines: resourceId is given when the account is addressable by the API',
  href: 'NextGenPSD2 Implementation Guidelines: a link is an object with its href',
  tppMessages: 'NextGenPSD2 Implementation Guidelines: an error answer carries tppMessages naming the error',
  scaLink: 'NextGenPSD2 Implementation Guidelines: the answer to a create carries the link that starts the SCA (scaRedirect, scaOAuth or startAuthorisation*)',
  practice: 'harness good practice',
} as const;

/** The official `amountValue`: up to 14 digits, optional 1–3 decimals, a sign allowed; unanchored. */
export const AMOUNT_VALUE_PATTERN = '-?[0-9]{1,14}(\\.[0-9]{1,3})?';
export const CURRENCY_CODE_PATTERN = '[A-Z]{3}';
export const IBAN_PATTERN = '[A-Z]{2,2}[0-9]{2,2}[a-zA-Z0-9]{1,30}';
export const BBAN_PATTERN = '[a-zA-Z0-9]{1,30}';
export const BIC_PATTERN = '[A-Z]{6,6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3,3}){0,1}';
export const COUNTRY_CODE_PATTERN = '[A-Z]{2}';

export const anchored = (pattern: string) => `^${pattern}$`;

/** One level of a schema tree: `official` keeps the file's patterns, `strict` anchors them. */
export type Level = keyof Levels;

export function patterned(pattern: string, level: Level) {
  return level === 'official'
    ? { type: 'string', pattern } as const
    : { type: 'string', pattern: anchored(pattern), [SHOULD_SOURCE_KEYWORD]: BG_SHOULD_SOURCES.anchoredPatterns } as const;
}

export const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
export const isoDate = { type: 'string', format: 'date' } as const;
export const dateTime = { type: 'string', format: 'date-time' } as const;
export const closedEnum = <const T extends readonly string[]>(values: T) => ({ type: 'string', enum: values }) as const;

export const amount = (level: Level) => ({
  type: 'object',
  required: ['currency', 'amount'],
  properties: { currency: patterned(CURRENCY_CODE_PATTERN, level), amount: patterned(AMOUNT_VALUE_PATTERN, level) },
}) as const;

/** `otherType`: a proprietary account identification. */
const otherType = {
  type: 'object',
  required: ['identification'],
  properties: { identification: text(35), schemeNameCode: text(35), schemeNameProprietary: text(35), issuer: text(35) },
} as const;

/** `accountReference`: one of iban/bban/pan/maskedPan/msisdn/other, with an optional currency. */
export const accountReference = (level: Level) => ({
  type: 'object',
  properties: {
    iban: patterned(IBAN_PATTERN, level),
    bban: patterned(BBAN_PATTERN, level),
    pan: text(35),
    maskedPan: text(35),
    msisdn: text(35),
    other: otherType,
    currency: patterned(CURRENCY_CODE_PATTERN, level),
    cashAccountType: str,
  },
}) as const;

/** `hrefType`: `{ href }`; the official file requires nothing in it, the strict level the href. */
export const hrefType = (level: Level) => (level === 'official'
  ? { type: 'object', properties: { href: str } }
  : { type: 'object', required: ['href'], properties: { href: str }, [SHOULD_SOURCE_KEYWORD]: BG_SHOULD_SOURCES.href }) as object;

/** A `_links` object whose every member is an hrefType (named members and any other). */
export function linksObject(level: Level, names: readonly string[], required: readonly string[] = []): object {
  const href = hrefType(level);
  return {
    type: 'object',
    ...(required.length ? { required } : {}),
    properties: Object.fromEntries(names.map((n) => [n, href])),
    additionalProperties: href,
  };
}

/** The SCA links of a create's answer (FACTS §6.3). */
export const SCA_LINKS = [
  'scaRedirect', 'scaOAuth', 'confirmation', 'startAuthorisation', 'startAuthorisationWithPsuIdentification',
  'startAuthorisationWithPsuAuthentication', 'startAuthorisationWithEncryptedPsuAuthentication',
  'startAuthorisationWithAuthenticationMethodSelection', 'startAuthorisationWithTransactionAuthorisation',
] as const;

/** Both levels from one builder of a level. */
export function levels(build: (level: Level) => object): Levels {
  return { official: build('official'), strict: build('strict') };
}

/** `tppMessageGeneric`: category and code required. */
export const tppMessage = {
  type: 'object',
  required: ['category', 'code'],
  properties: { category: closedEnum(['ERROR', 'WARNING'] as const), code: str, path: str, text: text(500) },
} as const;

export const psuMessage = text(500);
