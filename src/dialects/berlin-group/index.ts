/**
 * The berlin-group dialect: NextGenPSD2 XS2A 1.3.x (FACTS §6). Schemas at two levels and their
 * judge (MUST failures, SHOULD warnings), request builders and headers, and tolerant accessors for
 * statuses, `_links` and both error shapes.
 */
export { judgeBg, validateBg, judgeBgError, judgeScaApproachHeader, SCA_APPROACH_HEADER_VALUES, ERROR_CODES_SOURCE, bgSchemaOf, compileAllBg } from './validate.ts';
export { BG_SCHEMA_LEVELS, BG_SCHEMA_NAMES, BG_SHOULD_SOURCES, mustSourceOf } from './schemas/index.ts';
export type { BgSchemaName } from './schemas/index.ts';
export { CONSENT_STATUSES, SCA_STATUSES, ACCOUNT_ACCESS_TYPES } from './schemas/consents.ts';
export { BALANCE_TYPES, BOOKING_STATUSES, ACCOUNT_STATUSES } from './schemas/accounts.ts';
export { TRANSACTION_STATUSES, FINAL_TRANSACTION_STATUSES, PAYMENT_PRODUCTS, PAYMENT_SERVICES, CANCEL_LINKS, DAYS_OF_EXECUTION } from './schemas/payments.ts';
export { PURPOSE_CODES, CHARGE_BEARERS, FREQUENCY_CODES, EXECUTION_RULES, PAYMENT_201_MESSAGE_CODES } from './schemas/members.ts';
export { ERROR_CODES } from './schemas/errors.ts';
export { XML_PAYMENT_PRODUCTS, PAIN_001_NAMESPACE, buildPain001, controlSum, readXml, xmlChild, readPain001, pain001Differences, XmlReadError, standingOrderMultipart, readMultipart } from './pain001.ts';
export { PAIN_002_NAMESPACE, readPain002 } from './pain002.ts';
export type { Pain002Summary } from './pain002.ts';
export type { XmlPaymentProduct, Pain001Options, Pain001Transaction, Pain001Summary, XmlElement, StandingOrderTerms } from './pain001.ts';
export { BASKET_TRANSACTION_STATUSES, BASKET_AUTHORISED_STATUSES } from './schemas/baskets.ts';
export { SCA_CONFIRMATION_STATUSES, updateAnswerSchemaOf } from './schemas/sca-updates.ts';
export { AMOUNT_VALUE_PATTERN, CURRENCY_CODE_PATTERN, IBAN_PATTERN, BIC_PATTERN, SCA_LINKS } from './schemas/common.ts';
export {
  buildConsent, detailedAccess, buildFundsConfirmation, buildPaymentInitiation, buildPeriodicPayment, buildBulkPayment, buildSigningBasket, transactionsQuery, bgHeaders, isoDate, VALID_UNTIL_MAX,
  linksOf, linkOf, scaApproachOf, consentIdOf, consentStatusOf, paymentIdOf, basketIdOf, transactionStatusOf, scaStatusOf, authorisationIdOf,
  accountsOf, cardAccountsOf, cardTransactionsOf, balancesOf, transactionsOf, fundsAvailableOf, errorMessagesOf, errorCodesOf,
} from './builders.ts';
export type {
  ConsentStatus, ScaStatus, TransactionStatus, BookingStatus, BalanceType, PaymentProduct, AccountAccessType,
  AccountReference, Amount, AccountAccess, ConsentRequestBody, FundsConfirmationRequestBody, PaymentInitiationBody,
  BgHeaderOptions, LinkName, WireObject, BgErrorMessage,
} from './builders.ts';
