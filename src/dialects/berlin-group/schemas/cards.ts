/**
 * Card accounts: GET /v1/card-accounts, …/{account-id}, …/balances and …/transactions (NextGenPSD2
 * 1.3.12, `cardAccountList`, `cardAccountDetails`, `readCardAccountBalanceResponse-200`,
 * `cardAccountsTransactionsResponse200`). A card account is named by its masked PAN, not an IBAN.
 */
import { accountReference, amount, bool, CURRENCY_CODE_PATTERN, dateTime, isoDate, levels, linksObject, patterned, str, text, BG_SHOULD_SOURCES, SHOULD_SOURCE_KEYWORD } from './common.ts';
import type { Level } from './common.ts';
import { ACCOUNT_STATUSES, balanceList } from './accounts.ts';
import { currencyExchange } from './members.ts';
import { address } from './payments.ts';

/** `cardAcceptorPhone`: "+", 1–3 digits of country code, "-", then up to 30 of digits, ( ) + - (the file's pattern, its `\-` written plainly). */
const CARD_ACCEPTOR_PHONE_PATTERN = '\\+[0-9]{1,3}-[0-9()+\\-]{1,30}';

/** `cardAccountDetails`: maskedPan and currency required; the strict level wants resourceId too, as for accounts. */
export const cardAccountDetails = (level: Level) => ({
  type: 'object',
  required: level === 'official' ? ['maskedPan', 'currency'] : ['maskedPan', 'currency', 'resourceId'],
  ...(level === 'strict' ? { [SHOULD_SOURCE_KEYWORD]: BG_SHOULD_SOURCES.resourceId } : {}),
  properties: {
    resourceId: str,
    maskedPan: text(35),
    currency: patterned(CURRENCY_CODE_PATTERN, level),
    ownerName: text(140),
    name: text(70),
    displayName: text(70),
    product: text(35),
    debitAccounting: bool,
    status: { type: 'string', enum: ACCOUNT_STATUSES },
    usage: { type: 'string', maxLength: 4, enum: ['PRIV', 'ORGA'] },
    details: text(1000),
    creditLimit: amount(level),
    balances: balanceList(level),
    _links: linksObject(level, ['balances', 'transactions']),
  },
}) as const;

/** GET /v1/card-accounts (`cardAccountList`). */
export const cardAccountList = levels((level) => ({
  type: 'object',
  required: ['cardAccounts'],
  properties: { cardAccounts: { type: 'array', items: cardAccountDetails(level) } },
}));

/** GET /v1/card-accounts/{account-id}: `{ cardAccount }`. */
export const cardAccountDetailsResponse = levels((level) => ({
  type: 'object',
  required: ['cardAccount'],
  properties: { cardAccount: cardAccountDetails(level) },
}));

/** GET /v1/card-accounts/{account-id}/balances (`readCardAccountBalanceResponse-200`). */
export const readCardAccountBalanceResponse200 = levels((level) => ({
  type: 'object',
  required: ['balances'],
  properties: { cardAccount: accountReference(level), debitAccounting: bool, balances: balanceList(level) },
}));

/** `cardTransaction`: only transactionAmount is required. */
export const cardTransaction = (level: Level) => ({
  type: 'object',
  required: ['transactionAmount'],
  properties: {
    cardTransactionId: text(35),
    terminalId: text(35),
    transactionDate: isoDate,
    acceptorTransactionDateTime: dateTime,
    bookingDate: isoDate,
    valueDate: isoDate,
    transactionAmount: amount(level),
    grandTotalAmount: amount(level),
    currencyExchange: currencyExchange(level),
    originalAmount: amount(level),
    markupFee: amount(level),
    markupFeePercentage: str,
    cardAcceptorId: text(35),
    cardAcceptorAddress: address(level),
    cardAcceptorPhone: patterned(CARD_ACCEPTOR_PHONE_PATTERN, level),
    merchantCategoryCode: { type: 'string', minLength: 4, maxLength: 4 },
    maskedPAN: text(35),
    transactionDetails: text(1000),
    invoiced: bool,
    proprietaryBankTransactionCode: text(35),
  },
}) as const;

const cardTransactionList = (level: Level) => ({ type: 'array', items: cardTransaction(level) }) as const;

/** GET /v1/card-accounts/{account-id}/transactions (`cardAccountsTransactionsResponse200`). */
export const cardAccountsTransactionsResponse200 = levels((level) => ({
  type: 'object',
  properties: {
    cardAccount: accountReference(level),
    debitAccounting: bool,
    cardTransactions: {
      type: 'object',
      required: ['_links'],
      properties: {
        booked: cardTransactionList(level),
        pending: cardTransactionList(level),
        _links: linksObject(level, ['cardAccount', 'card', 'first', 'next', 'previous', 'last']),
      },
    },
    balances: balanceList(level),
    _links: linksObject(level, ['download'], ['download']),
  },
}));
