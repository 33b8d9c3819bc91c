/** Single payments: POST /v1/payments/{payment-product}, GET, /status (FACTS §6.5). */
import { accountReference, amount, BIC_PATTERN, bool, closedEnum, COUNTRY_CODE_PATTERN, dateTime, isoDate, levels, linksObject, patterned, psuMessage, str, text, tppMessage } from './common.ts';
import type { Level } from './common.ts';
import { createLinks, SCA_STATUSES } from './consents.ts';
import {
  chargeBearer, EXECUTION_RULES, FREQUENCY_CODES, ownerNames, PAYMENT_201_MESSAGE_CODES, purposeCode, remittanceStructured, remittanceStructuredArray, remittanceUnstructuredArray, scaMembers,
} from './members.ts';

/** ISO 20022 transaction statuses (`transactionStatus`). */
export const TRANSACTION_STATUSES = ['ACCC', 'ACCP', 'ACSC', 'ACSP', 'ACTC', 'ACWC', 'ACWP', 'RCVD', 'PDNG', 'RJCT', 'CANC', 'ACFC', 'PATC', 'PART'] as const;
/** Statuses after which a payment does not change any more. */
export const FINAL_TRANSACTION_STATUSES = ['ACCC', 'ACSC', 'RJCT', 'CANC'] as const;
export const PAYMENT_SERVICES = ['payments', 'bulk-payments', 'periodic-payments'] as const;
/** The JSON payment products; the `pain.001-*` ones take XML and are not built here. */
export const PAYMENT_PRODUCTS = ['sepa-credit-transfers', 'instant-sepa-credit-transfers', 'target-2-payments', 'cross-border-credit-transfers'] as const;

export const address = (level: Level) => ({
  type: 'object',
  required: ['country'],
  properties: { streetName: text(70), buildingNumber: str, townName: str, postCode: str, country: patterned(COUNTRY_CODE_PATTERN, level) },
}) as const;

const paymentProperties = (level: Level) => ({
  endToEndIdentification: text(35),
  instructionIdentification: text(35),
  debtorName: text(70),
  debtorAccount: accountReference(level),
  ultimateDebtor: text(70),
  instructedAmount: amount(level),
  creditorAccount: accountReference(level),
  creditorAgent: patterned(BIC_PATTERN, level),
  creditorName: text(70),
  creditorAddress: address(level),
  creditorId: text(35),
  ultimateCreditor: text(70),
  purposeCode,
  chargeBearer,
  remittanceInformationUnstructured: text(140),
  remittanceInformationStructured: remittanceStructured(140),
  remittanceInformationStructuredArray: remittanceStructuredArray,
  requestedExecutionDate: isoDate,
});

const PAYMENT_REQUIRED = ['debtorAccount', 'instructedAmount', 'creditorAccount', 'creditorName'] as const;

/** The body of a JSON single payment (`paymentInitiation_json`). */
export const paymentInitiation = levels((level) => ({
  type: 'object',
  required: [...PAYMENT_REQUIRED],
  // Only the request has these two; the file's GET answer (paymentInitiationWithStatusResponse) has neither.
  properties: { ...paymentProperties(level), creditorAgentName: text(140), remittanceInformationUnstructuredArray: remittanceUnstructuredArray },
}));

/** The 201 answer (`paymentInitiationRequestResponse-201`). */
export const paymentInitiationRequestResponse201 = levels((level) => ({
  type: 'object',
  required: ['transactionStatus', 'paymentId', '_links'],
  properties: {
    transactionStatus: closedEnum(TRANSACTION_STATUSES),
    paymentId: str,
    transactionFees: amount(level),
    currencyConversionFee: amount(level),
    estimatedTotalAmount: amount(level),
    estimatedInterbankSettlementAmount: amount(level),
    transactionFeeIndicator: bool,
    ...scaMembers,
    _links: createLinks(level),
    psuMessage,
    tppMessages: { type: 'array', items: { ...tppMessage, properties: { ...tppMessage.properties, code: closedEnum(PAYMENT_201_MESSAGE_CODES) } } },
    scaStatus: closedEnum(SCA_STATUSES),
  },
}));

/** GET /v1/payments/{product}/{paymentId} (`paymentInitiationWithStatusResponse`). */
export const paymentInitiationWithStatusResponse = levels((level) => ({
  type: 'object',
  required: [...PAYMENT_REQUIRED],
  properties: { ...paymentProperties(level), transactionStatus: closedEnum(TRANSACTION_STATUSES), tppMessages: { type: 'array', items: tppMessage } },
}));

/** GET …/status (`paymentInitiationStatusResponse-200_json`). */
export const paymentInitiationStatusResponse200 = levels((level) => ({
  type: 'object',
  required: ['transactionStatus'],
  properties: {
    transactionStatus: closedEnum(TRANSACTION_STATUSES),
    fundsAvailable: bool,
    psuMessage,
    ownerNames,
    psuName: text(140),
    _links: linksObject(level, []),
    tppMessages: { type: 'array', items: tppMessage },
  },
}));

/** The links of DELETE …/{paymentId}'s 202 (`_linksPaymentInitiationCancel`): where the cancellation's authorisation starts. */
export const CANCEL_LINKS = [
  'startAuthorisation', 'startAuthorisationWithPsuIdentification', 'startAuthorisationWithPsuAuthentication',
  'startAuthorisationWithEncryptedPsuAuthentication', 'startAuthorisationWithAuthenticationMethodSelection',
] as const;

/** DELETE /v1/{payment-service}/{payment-product}/{paymentId} when the cancellation needs the PSU's authorisation (`paymentInitiationCancelResponse-202`). */
export const paymentInitiationCancelResponse202 = levels((level) => ({
  type: 'object',
  required: ['transactionStatus'],
  properties: {
    transactionStatus: closedEnum(TRANSACTION_STATUSES),
    ...scaMembers,
    _links: linksObject(level, CANCEL_LINKS),
    tppMessages: { type: 'array', items: tppMessage },
    scaStatus: closedEnum(SCA_STATUSES),
    psuMessage,
  },
}));

// ---- periodic-payments (standing orders) and bulk-payments, JSON products ------------------

/** `dayOfExecution`: "1" … "31", no leading zero (31 is the month's last day). */
export const DAYS_OF_EXECUTION = Array.from({ length: 31 }, (_, i) => String(i + 1));
const dayOfExecution = { type: 'string', maxLength: 2, enum: DAYS_OF_EXECUTION } as const;
/** `monthsOfExecution` (frequency MonthlyVariable only): up to 11 different months, "1" … "12". */
const monthsOfExecution = { type: 'array', maxItems: 11, items: { type: 'string', maxLength: 2, enum: DAYS_OF_EXECUTION.slice(0, 12) } } as const;

/** What a periodic payment adds to a single one (`startDate`, `endDate`, `executionRule`, `frequency`, `dayOfExecution`). */
const periodicMembers = { startDate: isoDate, endDate: isoDate, executionRule: closedEnum(EXECUTION_RULES), frequency: closedEnum(FREQUENCY_CODES), dayOfExecution } as const;
const PERIODIC_REQUIRED = [...PAYMENT_REQUIRED, 'startDate', 'frequency'] as const;

/** The body of a JSON periodic payment (`periodicPaymentInitiation_json`): a single payment's members but chargeBearer and requestedExecutionDate, with the standing order's. */
export const periodicPaymentInitiation = levels((level) => {
  const { chargeBearer: _c, requestedExecutionDate: _r, ...single } = paymentProperties(level);
  return {
    type: 'object',
    required: [...PERIODIC_REQUIRED],
    properties: { ...single, remittanceInformationUnstructuredArray: remittanceUnstructuredArray, ...periodicMembers, monthsOfExecution },
  };
});

/** GET /v1/periodic-payments/{product}/{paymentId} (`periodicPaymentInitiationWithStatusResponse`). */
export const periodicPaymentInitiationWithStatusResponse = levels((level) => {
  const { chargeBearer: _c, requestedExecutionDate: _r, instructionIdentification: _i, remittanceInformationStructuredArray: _a, ...single } = paymentProperties(level);
  return {
    type: 'object',
    required: [...PERIODIC_REQUIRED],
    properties: { ...single, ...periodicMembers, transactionStatus: closedEnum(TRANSACTION_STATUSES), tppMessages: { type: 'array', items: tppMessage } },
  };
});

/** One payment of a bulk (`paymentInitiationBulkElement_json`): no debtorAccount, requestedExecutionDate or creditorId of its own. */
export const bulkElement = (level: Level) => {
  const { debtorAccount: _d, requestedExecutionDate: _r, creditorId: _c, ...single } = paymentProperties(level);
  return {
    type: 'object',
    required: ['instructedAmount', 'creditorAccount', 'creditorName'],
    properties: { ...single, creditorAgentName: text(140), remittanceInformationUnstructuredArray: remittanceUnstructuredArray },
  } as const;
};

/** The body of a JSON bulk payment (`bulkPaymentInitiation_json`). */
export const bulkPaymentInitiation = levels((level) => ({
  type: 'object',
  required: ['payments', 'debtorAccount'],
  properties: {
    batchBookingPreferred: bool, debtorAccount: accountReference(level), requestedExecutionDate: isoDate, requestedExecutionTime: dateTime,
    payments: { type: 'array', items: bulkElement(level) }, debtorName: text(70),
  },
}));

/** GET /v1/bulk-payments/{product}/{paymentId} (`bulkPaymentInitiationWithStatusResponse`). */
export const bulkPaymentInitiationWithStatusResponse = levels((level) => ({
  type: 'object',
  required: ['payments', 'debtorAccount'],
  properties: {
    batchBookingPreferred: bool, requestedExecutionDate: isoDate, acceptorTransactionDateTime: dateTime, debtorAccount: accountReference(level),
    paymentInformationId: text(35), payments: { type: 'array', items: bulkElement(level) },
    transactionStatus: closedEnum(TRANSACTION_STATUSES), tppMessages: { type: 'array', items: tppMessage },
  },
}));
