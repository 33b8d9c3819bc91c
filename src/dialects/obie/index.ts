/**
 * The obie dialect: UK Open Banking Read/Write v3.1.x as docs/wire.md reads it. Schemas and their
 * validator (the examiner's eyes: judgeBody gives MUST failures and SHOULD warnings), request builders and tolerant accessors (the TPP's hands).
 */
export { judgeBody, validate, formatProblems, formatProblem, compileAll, schemaOf, dottedPath, hasSchema, versionOf } from './validate.ts';
export type { SchemaName, SchemaProblem, Problem, ProblemLevel, Judgement, ObieVersion } from './validate.ts';
export { V4_SCHEMA_LEVELS, V4_COMPLETENESS } from './schemas/v4.ts';
export { statusIn, v4ErrorCodeOf } from './versions.ts';
export { SCHEMAS, OFFICIAL_SCHEMAS, SCHEMA_LEVELS, SCHEMA_NAMES, MUST_SOURCES, SHOULD_SOURCES } from './schemas/index.ts';
export type { Levels } from './schemas/index.ts';
export { AMOUNT_PATTERN, CURRENCY_PATTERN } from './schemas/common.ts';
export { ERROR_CODE_PATTERN } from './schemas/error.ts';
export {
  buildAccountAccessConsent, buildFundsConsent, buildFundsConfirmation, buildPaymentConsent, buildPaymentOrder, paymentOrderIdOf,
  consentIdOf, statusOf, permissionsOf, accountsOf, balancesOf, transactionsOf, fundsAvailableOf, errorCodesOf,
  PERMISSIONS, CONSENT_STATUSES, PAYMENT_CONSENT_STATUSES, PAYMENT_ORDER_STATUSES, PAYMENT_STATUSES,
  ACCOUNT_SUB_TYPES, BALANCE_TYPES, TRANSACTION_STATUSES,
  DETAIL_ONLY_ACCOUNT_FIELDS, DETAIL_ONLY_TRANSACTION_FIELDS, permissionRules, isoDateTime,
} from './builders.ts';
export type {
  Permission, PermissionRules, AccountRef, WireAccount, WireAmount, WireObject,
  AccountAccessConsentBody, FundsConsentBody, FundsConfirmationBody, PaymentConsentBody, PaymentOrderBody,
} from './builders.ts';
