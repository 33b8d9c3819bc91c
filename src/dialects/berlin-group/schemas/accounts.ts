/** Accounts, balances, transactions and transaction details (FACTS §6.4). */
import {
  accountReference, amount, BG_SHOULD_SOURCES, BIC_PATTERN, bool, BBAN_PATTERN, closedEnum, CURRENCY_CODE_PATTERN, dateTime,
  IBAN_PATTERN, isoDate, levels, linksObject, patterned, SHOULD_SOURCE_KEYWORD, str, text,
} from './common.ts';
import type { Level } from './common.ts';
import {
  additionalInformationStructured, currencyExchange, ownerNames, purposeCode, remittanceStructured, remittanceStructuredArray, remittanceUnstructuredArray,
} from './members.ts';

export const BALANCE_TYPES = ['closingBooked', 'expected', 'openingBooked', 'interimAvailable', 'interimBooked', 'forwardAvailable', 'nonInvoiced'] as const;
/** The `bookingStatus` query parameter of a transaction list; only `booked` is mandatory for a bank. */
export const BOOKING_STATUSES = ['booked', 'pending', 'both', 'information', 'all'] as const;
export const ACCOUNT_STATUSES = ['enabled', 'deleted', 'blocked'] as const;

export const balance = (level: Level) => ({
  type: 'object',
  required: ['balanceAmount', 'balanceType'],
  properties: {
    balanceAmount: amount(level),
    balanceType: closedEnum(BALANCE_TYPES),
    creditLimitIncluded: bool,
    lastChangeDateTime: dateTime,
    referenceDate: isoDate,
    lastCommittedTransaction: text(35),
  },
}) as const;

export const balanceList = (level: Level) => ({ type: 'array', items: balance(level) }) as const;

/** `accountDetails`: only currency is required by the file; the strict level wants resourceId too. */
export const accountDetails = (level: Level) => ({
  type: 'object',
  required: level === 'official' ? ['currency'] : ['currency', 'resourceId'],
  ...(level === 'strict' ? { [SHOULD_SOURCE_KEYWORD]: BG_SHOULD_SOURCES.resourceId } : {}),
  properties: {
    resourceId: str,
    iban: patterned(IBAN_PATTERN, level),
    bban: patterned(BBAN_PATTERN, level),
    msisdn: text(35),
    currency: patterned(CURRENCY_CODE_PATTERN, level),
    ownerName: text(140),
    ownerNames,
    psuName: text(140),
    name: text(70),
    displayName: text(70),
    product: text(35),
    cashAccountType: str,
    status: closedEnum(ACCOUNT_STATUSES),
    bic: patterned(BIC_PATTERN, level),
    linkedAccounts: text(70),
    usage: { type: 'string', maxLength: 4, enum: ['PRIV', 'ORGA'] },
    details: text(500),
    balances: balanceList(level),
    _links: linksObject(level, ['balances', 'transactions']),
  },
}) as const;

/** GET /v1/accounts (`accountList`). */
export const accountList = levels((level) => ({
  type: 'object',
  required: ['accounts'],
  properties: { accounts: { type: 'array', items: accountDetails(level) } },
}));

/** GET /v1/accounts/{account-id}: `{ account }`. */
export const accountDetailsResponse = levels((level) => ({
  type: 'object',
  required: ['account'],
  properties: { account: accountDetails(level) },
}));

/** GET /v1/accounts/{account-id}/balances (`readAccountBalanceResponse-200`). */
export const readAccountBalanceResponse200 = levels((level) => ({
  type: 'object',
  required: ['balances'],
  properties: { account: accountReference(level), balances: balanceList(level) },
}));

/** The counterparties, amounts and remittance of a booking, as a transaction and its entry details share them. */
const bookingMembers = (level: Level, structured: 35 | 140) => ({
  endToEndId: text(35),
  mandateId: text(35),
  checkId: text(35),
  creditorId: text(35),
  transactionAmount: amount(level),
  currencyExchange: currencyExchange(level),
  creditorName: text(70),
  creditorAccount: accountReference(level),
  creditorAgent: patterned(BIC_PATTERN, level),
  ultimateCreditor: text(70),
  debtorName: text(70),
  debtorAccount: accountReference(level),
  debtorAgent: patterned(BIC_PATTERN, level),
  ultimateDebtor: text(70),
  remittanceInformationUnstructured: text(140),
  remittanceInformationUnstructuredArray: remittanceUnstructuredArray,
  remittanceInformationStructured: remittanceStructured(structured),
  remittanceInformationStructuredArray: remittanceStructuredArray,
  purposeCode,
});

/** `EntryDetailsElement`: one entry of a batch booking. */
const entryDetails = (level: Level) => ({
  type: 'object',
  required: ['transactionAmount'],
  properties: bookingMembers(level, 35),
}) as const;

/** One transaction (`transactions`): only transactionAmount is required. */
export const transaction = (level: Level) => ({
  type: 'object',
  required: ['transactionAmount'],
  properties: {
    ...bookingMembers(level, 140),
    transactionId: str,
    entryReference: text(35),
    batchIndicator: bool,
    batchNumberOfTransactions: { type: 'integer' },
    bookingDate: isoDate,
    valueDate: isoDate,
    entryDetails: { type: 'array', items: entryDetails(level) },
    additionalInformation: text(500),
    additionalInformationStructured: additionalInformationStructured(level),
    bankTransactionCode: str,
    proprietaryBankTransactionCode: text(35),
    balanceAfterTransaction: balance(level),
    _links: linksObject(level, ['transactionDetails'], ['transactionDetails']),
  },
}) as const;

const transactionList = (level: Level) => ({ type: 'array', items: transaction(level) }) as const;

/** GET /v1/accounts/{account-id}/transactions (`transactionsResponse-200_json`). */
export const transactionsResponse200 = levels((level) => ({
  type: 'object',
  properties: {
    account: accountReference(level),
    transactions: {
      type: 'object',
      required: ['_links'],
      properties: {
        booked: transactionList(level),
        pending: transactionList(level),
        information: transactionList(level),
        _links: linksObject(level, ['account', 'first', 'next', 'previous', 'last'], ['account']),
      },
    },
    balances: balanceList(level),
    _links: linksObject(level, ['download'], ['download']),
  },
}));

/** GET /v1/accounts/{account-id}/transactions/{transactionId}: `{ transactionsDetails }`. */
export const transactionDetailsResponse = levels((level) => ({
  type: 'object',
  required: ['transactionsDetails'],
  properties: { transactionsDetails: transaction(level) },
}));
