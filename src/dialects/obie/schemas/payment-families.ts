/**
 * The payment families of UK Read/Write v3.1.11 beyond the domestic payment: domestic scheduled
 * payments, domestic standing orders, international (scheduled, standing order) payments and file
 * payments — each consent, its order, and their answers. Written from the facts of the official
 * payment-initiation file and checked against it by test/dialects/obie-crosscheck.test.ts.
 */
import {
  amountAndCurrencyClosed, cashAccountCreditorClosed, cashAccountDebtorClosed, closedEnum, consentId, currency, dateTime,
  debtorIdentification, namespacedCode, postalAddressClosed, responseEnvelope, supplementaryData, text,
} from './common.ts';
import { authorisation, charges, PAYMENT_CONSENT_STATUSES, PAYMENT_ORDER_STATUSES, riskPayment, scaSupportData } from './payment-initiation.ts';

/**
 * `Frequency` of a standing order: the standard's grammar (every day, every working day, an
 * interval of days, a weekday of every n weeks, a weekday of a week of the month, a day of every n
 * months, a quarter day).
 */
export const FREQUENCY_PATTERN =
  '^(EvryDay)$|^(EvryWorkgDay)$|^(IntrvlDay:((0[2-9])|([1-2][0-9])|3[0-1]))$|^(IntrvlWkDay:0[1-9]:0[1-7])$|^(WkInMnthDay:0[1-5]:0[1-7])$|^(IntrvlMnthDay:(0[1-6]|12|24):(-0[1-5]|0[1-9]|[12][0-9]|3[01]))$|^(QtrDay:(ENGLISH|SCOTTISH|RECEIVED))$';

/** `Data.Status` of a scheduled payment or standing order (the order is an instruction, not a transfer yet). */
export const INITIATION_STATUSES = ['Cancelled', 'InitiationCompleted', 'InitiationFailed', 'InitiationPending'] as const;
/** `Data.Status` of a file-payment consent: it waits for its file before the PSU can authorise it. */
export const FILE_CONSENT_STATUSES = ['Authorised', 'AwaitingAuthorisation', 'AwaitingUpload', 'Consumed', 'Rejected'] as const;
/** `Data.Status` of a file payment. */
export const FILE_PAYMENT_STATUSES = ['InitiationCompleted', 'InitiationFailed', 'InitiationPending'] as const;
/** `ExchangeRateInformation.RateType`. */
export const RATE_TYPES = ['Actual', 'Agreed', 'Indicative'] as const;

const CHARGE_BEARERS = ['BorneByCreditor', 'BorneByDebtor', 'FollowingServiceLevel', 'Shared'] as const;
const remittance = {
  type: 'object',
  properties: { Unstructured: text(1, 140), Reference: text(1, 35) },
  additionalProperties: false,
} as const;
const multiAuthorisation = {
  type: 'object',
  required: ['Status'],
  properties: {
    Status: closedEnum(['Authorised', 'AwaitingFurtherAuthorisation', 'Rejected']),
    NumberRequired: { type: 'integer' },
    NumberReceived: { type: 'integer' },
    LastUpdateDateTime: dateTime,
    ExpirationDateTime: dateTime,
  },
  additionalProperties: false,
} as const;
const refundDomestic = { type: 'object', required: ['Account'], properties: { Account: cashAccountCreditorClosed }, additionalProperties: false } as const;

/** `Creditor` of an international payment: its Name is 140 characters long here, 350 in the scheduled and standing-order forms. */
const creditor = (nameLength: number) => ({
  type: 'object',
  properties: { Name: text(1, nameLength), PostalAddress: postalAddressClosed },
  additionalProperties: false,
}) as const;
const creditorAgent = {
  type: 'object',
  properties: { SchemeName: namespacedCode, Identification: text(1, 35), Name: text(1, 140), PostalAddress: postalAddressClosed },
  additionalProperties: false,
} as const;
const refundInternational = {
  type: 'object',
  required: ['Account'],
  properties: { Creditor: creditor(140), Agent: creditorAgent, Account: cashAccountCreditorClosed },
  additionalProperties: false,
} as const;

/** The exchange rate the PISP asks for: a RateType, and for Agreed the rate and its contract. */
const exchangeRateRequest = {
  type: 'object',
  required: ['UnitCurrency', 'RateType'],
  properties: { UnitCurrency: currency, ExchangeRate: { type: 'number' }, RateType: closedEnum(RATE_TYPES), ContractIdentification: text(1, 256) },
  additionalProperties: false,
} as const;
/** The exchange rate the bank answers: always a rate; an Indicative one may expire. */
const exchangeRateAnswer = {
  type: 'object',
  required: ['UnitCurrency', 'ExchangeRate', 'RateType'],
  properties: { ...exchangeRateRequest.properties, ExpirationDateTime: dateTime },
  additionalProperties: false,
} as const;

// ---- Initiations -----------------------------------------------------------------------------

const domesticScheduledInitiation = {
  type: 'object',
  required: ['InstructionIdentification', 'RequestedExecutionDateTime', 'InstructedAmount', 'CreditorAccount'],
  properties: {
    InstructionIdentification: text(1, 35),
    EndToEndIdentification: text(1, 35),
    LocalInstrument: namespacedCode,
    RequestedExecutionDateTime: dateTime,
    InstructedAmount: amountAndCurrencyClosed,
    DebtorAccount: cashAccountDebtorClosed,
    CreditorAccount: cashAccountCreditorClosed,
    CreditorPostalAddress: postalAddressClosed,
    RemittanceInformation: remittance,
    SupplementaryData: supplementaryData,
  },
  additionalProperties: false,
} as const;

const domesticStandingOrderInitiation = {
  type: 'object',
  required: ['Frequency', 'FirstPaymentDateTime', 'FirstPaymentAmount', 'CreditorAccount'],
  properties: {
    Frequency: { type: 'string', pattern: FREQUENCY_PATTERN },
    Reference: text(1, 35),
    NumberOfPayments: text(1, 35),
    FirstPaymentDateTime: dateTime,
    RecurringPaymentDateTime: dateTime,
    FinalPaymentDateTime: dateTime,
    FirstPaymentAmount: amountAndCurrencyClosed,
    RecurringPaymentAmount: amountAndCurrencyClosed,
    FinalPaymentAmount: amountAndCurrencyClosed,
    DebtorAccount: cashAccountDebtorClosed,
    CreditorAccount: cashAccountCreditorClosed,
    SupplementaryData: supplementaryData,
  },
  additionalProperties: false,
} as const;

const internationalCore = {
  LocalInstrument: namespacedCode,
  InstructionPriority: closedEnum(['Normal', 'Urgent']),
  Purpose: text(1, 4),
  ExtendedPurpose: text(1, 140),
  ChargeBearer: closedEnum(CHARGE_BEARERS),
  CurrencyOfTransfer: currency,
  // [sic] unanchored in the standard.
  DestinationCountryCode: { type: 'string', pattern: '[A-Z]{2,2}' },
  InstructedAmount: amountAndCurrencyClosed,
  ExchangeRateInformation: exchangeRateRequest,
  DebtorAccount: cashAccountDebtorClosed,
  CreditorAgent: creditorAgent,
  CreditorAccount: cashAccountCreditorClosed,
  RemittanceInformation: remittance,
  SupplementaryData: supplementaryData,
} as const;

const internationalInitiation = {
  type: 'object',
  required: ['InstructionIdentification', 'EndToEndIdentification', 'CurrencyOfTransfer', 'InstructedAmount', 'CreditorAccount'],
  properties: { InstructionIdentification: text(1, 35), EndToEndIdentification: text(1, 35), ...internationalCore, Creditor: creditor(140) },
  additionalProperties: false,
} as const;

/** The standard gives the Creditor's Name 350 characters in the consent's answer, 140 everywhere else. */
const internationalScheduledInitiationOf = (creditorNameLength: number) => ({
  type: 'object',
  required: ['InstructionIdentification', 'RequestedExecutionDateTime', 'CurrencyOfTransfer', 'InstructedAmount', 'CreditorAccount'],
  properties: {
    InstructionIdentification: text(1, 35), EndToEndIdentification: text(1, 35), RequestedExecutionDateTime: dateTime,
    ...internationalCore, Creditor: creditor(creditorNameLength),
  },
  additionalProperties: false,
}) as const;
const internationalScheduledInitiation = internationalScheduledInitiationOf(140);

const internationalStandingOrderInitiation = {
  type: 'object',
  required: ['Frequency', 'FirstPaymentDateTime', 'CurrencyOfTransfer', 'InstructedAmount', 'CreditorAccount'],
  properties: {
    Frequency: { type: 'string', pattern: FREQUENCY_PATTERN },
    Reference: text(1, 35),
    NumberOfPayments: text(1, 35),
    FirstPaymentDateTime: dateTime,
    FinalPaymentDateTime: dateTime,
    Purpose: text(1, 4),
    ExtendedPurpose: text(1, 140),
    ChargeBearer: closedEnum(CHARGE_BEARERS),
    CurrencyOfTransfer: currency,
    DestinationCountryCode: { type: 'string', pattern: '[A-Z]{2,2}' },
    InstructedAmount: amountAndCurrencyClosed,
    DebtorAccount: cashAccountDebtorClosed,
    Creditor: creditor(350),
    CreditorAgent: creditorAgent,
    CreditorAccount: cashAccountCreditorClosed,
    SupplementaryData: supplementaryData,
  },
  additionalProperties: false,
} as const;

const fileInitiation = {
  type: 'object',
  required: ['FileType', 'FileHash'],
  properties: {
    FileType: namespacedCode,
    FileHash: text(1, 44),
    FileReference: text(1, 40),
    // [sic] unanchored in the standard.
    NumberOfTransactions: { type: 'string', pattern: '[0-9]{1,15}' },
    ControlSum: { type: 'number' },
    RequestedExecutionDateTime: dateTime,
    LocalInstrument: namespacedCode,
    DebtorAccount: cashAccountDebtorClosed,
    RemittanceInformation: remittance,
    SupplementaryData: supplementaryData,
  },
  additionalProperties: false,
} as const;

// ---- Requests: consents and orders ------------------------------------------------------------

const consentRequest = (init: object, o: { permission?: boolean; refund?: boolean; risk?: boolean } = {}) => ({
  type: 'object',
  required: o.risk === false ? ['Data'] : ['Data', 'Risk'],
  properties: {
    Data: {
      type: 'object',
      required: o.permission ? ['Permission', 'Initiation'] : ['Initiation'],
      properties: {
        ...(o.permission ? { Permission: closedEnum(['Create']) } : {}),
        ...(o.refund === false ? {} : { ReadRefundAccount: closedEnum(['No', 'Yes']) }),
        Initiation: init,
        Authorisation: authorisation,
        SCASupportData: scaSupportData,
      },
      additionalProperties: false,
    },
    ...(o.risk === false ? {} : { Risk: riskPayment }),
  },
  additionalProperties: false,
});

const orderRequest = (init: object, risk = true) => ({
  type: 'object',
  required: risk ? ['Data', 'Risk'] : ['Data'],
  properties: {
    Data: { type: 'object', required: ['ConsentId', 'Initiation'], properties: { ConsentId: consentId, Initiation: init }, additionalProperties: false },
    ...(risk ? { Risk: riskPayment } : {}),
  },
  additionalProperties: false,
});

export const OBWriteDomesticScheduledConsent4 = consentRequest(domesticScheduledInitiation, { permission: true });
export const OBWriteDomesticStandingOrderConsent5 = consentRequest(domesticStandingOrderInitiation, { permission: true });
export const OBWriteInternationalConsent5 = consentRequest(internationalInitiation);
export const OBWriteInternationalScheduledConsent5 = consentRequest(internationalScheduledInitiation, { permission: true });
export const OBWriteInternationalStandingOrderConsent6 = consentRequest(internationalStandingOrderInitiation, { permission: true });
export const OBWriteFileConsent3 = consentRequest(fileInitiation, { refund: false, risk: false });
export const OBWriteDomesticScheduled2 = orderRequest(domesticScheduledInitiation);
export const OBWriteDomesticStandingOrder3 = orderRequest(domesticStandingOrderInitiation);
export const OBWriteInternational3 = orderRequest(internationalInitiation);
export const OBWriteInternationalScheduled3 = orderRequest(internationalScheduledInitiation);
export const OBWriteInternationalStandingOrder4 = orderRequest(internationalStandingOrderInitiation);
export const OBWriteFile2 = orderRequest(fileInitiation, false);

// ---- Answers: consents --------------------------------------------------------------------------

const consentAnswer = (init: object, o: { permission?: boolean; execution?: boolean; exchange?: boolean; statuses?: readonly string[]; refund?: boolean; risk?: boolean }) => responseEnvelope(
  {
    type: 'object',
    required: ['ConsentId', 'CreationDateTime', 'Status', 'StatusUpdateDateTime', ...(o.permission ? ['Permission'] : []), 'Initiation'],
    properties: {
      ConsentId: consentId,
      CreationDateTime: dateTime,
      Status: closedEnum(o.statuses ?? PAYMENT_CONSENT_STATUSES),
      StatusUpdateDateTime: dateTime,
      ...(o.permission ? { Permission: closedEnum(['Create']) } : {}),
      ...(o.refund === false ? {} : { ReadRefundAccount: closedEnum(['No', 'Yes']) }),
      CutOffDateTime: dateTime,
      ...(o.execution ? { ExpectedExecutionDateTime: dateTime, ExpectedSettlementDateTime: dateTime } : {}),
      Charges: charges,
      ...(o.exchange ? { ExchangeRateInformation: exchangeRateAnswer } : {}),
      Initiation: init,
      Authorisation: authorisation,
      SCASupportData: scaSupportData,
      Debtor: debtorIdentification,
    },
    additionalProperties: false,
  },
  o.risk === false ? undefined : riskPayment,
);

export const OBWriteDomesticScheduledConsentResponse5 = consentAnswer(domesticScheduledInitiation, { permission: true, execution: true });
export const OBWriteDomesticStandingOrderConsentResponse6 = consentAnswer(domesticStandingOrderInitiation, { permission: true });
export const OBWriteInternationalConsentResponse6 = consentAnswer(internationalInitiation, { execution: true, exchange: true });
export const OBWriteInternationalScheduledConsentResponse6 = consentAnswer(internationalScheduledInitiationOf(350), { permission: true, execution: true, exchange: true });
export const OBWriteInternationalStandingOrderConsentResponse7 = consentAnswer(internationalStandingOrderInitiation, { permission: true });
export const OBWriteFileConsentResponse4 = consentAnswer(fileInitiation, { statuses: FILE_CONSENT_STATUSES, refund: false, risk: false });

// ---- Answers: orders ------------------------------------------------------------------------------

const orderAnswer = (idField: string, init: object, o: { statuses: readonly string[]; execution?: boolean; exchange?: boolean; refund?: object | false }) => responseEnvelope({
  type: 'object',
  required: [idField, 'ConsentId', 'CreationDateTime', 'Status', 'StatusUpdateDateTime', 'Initiation'],
  properties: {
    [idField]: text(1, 40),
    ConsentId: consentId,
    CreationDateTime: dateTime,
    Status: closedEnum(o.statuses),
    StatusUpdateDateTime: dateTime,
    ...(o.execution ? { ExpectedExecutionDateTime: dateTime, ExpectedSettlementDateTime: dateTime } : {}),
    ...(o.refund === false ? {} : { Refund: o.refund ?? refundDomestic }),
    Charges: charges,
    ...(o.exchange ? { ExchangeRateInformation: exchangeRateAnswer } : {}),
    Initiation: init,
    MultiAuthorisation: multiAuthorisation,
    Debtor: debtorIdentification,
  },
  additionalProperties: false,
});

export const OBWriteDomesticScheduledResponse5 = orderAnswer('DomesticScheduledPaymentId', domesticScheduledInitiation, { statuses: INITIATION_STATUSES, execution: true });
export const OBWriteDomesticStandingOrderResponse6 = orderAnswer('DomesticStandingOrderId', domesticStandingOrderInitiation, { statuses: INITIATION_STATUSES });
export const OBWriteInternationalResponse5 = orderAnswer('InternationalPaymentId', internationalInitiation, { statuses: PAYMENT_ORDER_STATUSES, execution: true, exchange: true, refund: refundInternational });
export const OBWriteInternationalScheduledResponse6 = orderAnswer('InternationalScheduledPaymentId', internationalScheduledInitiation, { statuses: INITIATION_STATUSES, execution: true, exchange: true, refund: refundInternational });
export const OBWriteInternationalStandingOrderResponse7 = orderAnswer('InternationalStandingOrderId', internationalStandingOrderInitiation, {
  statuses: INITIATION_STATUSES,
  refund: { ...refundInternational, properties: { ...refundInternational.properties, Creditor: creditor(350) } },
});
export const OBWriteFileResponse3 = orderAnswer('FilePaymentId', fileInitiation, { statuses: FILE_PAYMENT_STATUSES, refund: false });

