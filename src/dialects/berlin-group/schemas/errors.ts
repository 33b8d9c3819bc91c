/**
 * Error bodies (FACTS §6.6): the NextGenPSD2 style (`application/json`, `{ tppMessages, _links }`)
 * and RFC 7807 (`application/problem+json`, `{ type, title, detail, code, additionalErrors }`).
 * Error codes are plain strings in 1.3.11/1.3.12 (the lists by HTTP status are in ERROR_CODES).
 */
import { BG_SHOULD_SOURCES, levels, linksObject, SHOULD_SOURCE_KEYWORD, str, text, tppMessage } from './common.ts';

/** The codes the standard names, by HTTP status (1.3.x; open lists: a bank may not invent others, but the file does not close them). */
export const ERROR_CODES: Readonly<Record<number, readonly string[]>> = {
  400: ['FORMAT_ERROR', 'PARAMETER_NOT_CONSISTENT', 'PARAMETER_NOT_SUPPORTED', 'SERVICE_INVALID', 'RESOURCE_UNKNOWN', 'RESOURCE_EXPIRED',
    'RESOURCE_BLOCKED', 'TIMESTAMP_INVALID', 'PERIOD_INVALID', 'SCA_METHOD_UNKNOWN', 'SCA_INVALID', 'CONSENT_UNKNOWN',
    'SESSIONS_NOT_SUPPORTED', 'PAYMENT_FAILED', 'EXECUTION_DATE_INVALID', 'CARD_INVALID', 'NO_PIIS_ACTIVATION',
    // Signing baskets: a mix of members the bank does not take in one basket.
    'REFERENCE_MIX_INVALID'],
  401: ['CERTIFICATE_INVALID', 'CERTIFICATE_EXPIRED', 'CERTIFICATE_BLOCKED', 'CERTIFICATE_REVOKED', 'CERTIFICATE_MISSING', 'ROLE_INVALID',
    'SIGNATURE_INVALID', 'SIGNATURE_MISSING', 'CORPORATE_ID_INVALID', 'PSU_CREDENTIALS_INVALID', 'CONSENT_INVALID', 'CONSENT_EXPIRED',
    'TOKEN_UNKNOWN', 'TOKEN_INVALID', 'TOKEN_EXPIRED'],
  403: ['CONSENT_UNKNOWN', 'SERVICE_BLOCKED', 'RESOURCE_UNKNOWN', 'RESOURCE_EXPIRED', 'PRODUCT_INVALID'],
  404: ['RESOURCE_UNKNOWN', 'PRODUCT_UNKNOWN'],
  405: ['SERVICE_INVALID', 'CANCELLATION_INVALID'],
  406: ['REQUESTED_FORMATS_INVALID'],
  // REFERENCE_STATUS_INVALID: a signing basket names a member already authorised.
  409: ['STATUS_INVALID', 'REFERENCE_STATUS_INVALID'],
  429: ['ACCESS_EXCEEDED'],
};

/** `application/json` error (`Error400_NG_AIS` and siblings): the file requires nothing; the strict level a non-empty tppMessages. */
export const errorNG = levels((level) => ({
  type: 'object',
  ...(level === 'strict' ? { required: ['tppMessages'], [SHOULD_SOURCE_KEYWORD]: BG_SHOULD_SOURCES.tppMessages } : {}),
  properties: {
    tppMessages: { type: 'array', items: tppMessage, ...(level === 'strict' ? { minItems: 1 } : {}) },
    _links: linksObject(level, []),
  },
}));

/** `application/problem+json` error (`Error400_AIS` and siblings, RFC 7807). */
export const errorProblem = levels((level) => ({
  type: 'object',
  required: ['type', 'code'],
  properties: {
    type: { type: 'string', format: 'uri', maxLength: 70 },
    title: text(70),
    detail: text(500),
    code: str,
    additionalErrors: {
      type: 'array',
      items: { type: 'object', required: ['code'], properties: { title: text(70), detail: text(500), code: str } },
    },
    _links: linksObject(level, []),
  },
}));
