/**
 * What the TPP sends in the berlin-group dialect (NextGenPSD2 XS2A 1.3.x) — request bodies and
 * headers — and tolerant accessors for what the bank answers: statuses, ids, `_links`, the data,
 * and both error shapes. Accessors never throw.
 */
import { randomUUID } from 'node:crypto';
import type { ACCOUNT_ACCESS_TYPES, CONSENT_STATUSES, SCA_STATUSES } from './schemas/consents.ts';
import type { BALANCE_TYPES, BOOKING_STATUSES } from './schemas/accounts.ts';
import type { PAYMENT_PRODUCTS, TRANSACTION_STATUSES } from './schemas/payments.ts';
import { errorMessagesOf, isObject, objectsAt, stringAt, type WireObject } from './errors.ts';

export type ConsentStatus = (typeof CONSENT_STATUSES)[number];
export type ScaStatus = (typeof SCA_STATUSES)[number];
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export type BalanceType = (typeof BALANCE_TYPES)[number];
export type PaymentProduct = (typeof PAYMENT_PRODUCTS)[number];
export type AccountAccessType = (typeof ACCOUNT_ACCESS_TYPES)[number];

/** `accountReference`: one identifier, and the currency when the PSU has sub-accounts in several. */
export interface AccountReference {
  iban?: string;
  bban?: string;
  pan?: string;
  maskedPan?: string;
  msisdn?: string;
  other?: { identification: string; schemeNameCode?: string; schemeNameProprietary?: string; issuer?: string };
  currency?: string;
  cashAccountType?: string;
}

export interface Amount {
  currency: string;
  amount: string;
}

/**
 * `access` of an account-information consent: either detailed lists (balances and transactions
 * imply access to the account itself), or one of the global forms.
 */
export type AccountAccess =
  | { accounts?: AccountReference[]; balances?: AccountReference[]; transactions?: AccountReference[] }
  | { availableAccounts: AccountAccessType }
  | { availableAccountsWithBalance: AccountAccessType }
  | { allPsd2: AccountAccessType };

/** The body of POST /v1/consents. */
export interface ConsentRequestBody {
  access: AccountAccess;
  recurringIndicator: boolean;
  validUntil: string;
  frequencyPerDay: number;
  combinedServiceIndicator: boolean;
}

export interface FundsConfirmationRequestBody {
  cardNumber?: string;
  account: AccountReference;
  payee?: string;
  instructedAmount: Amount;
}

/** The body of a JSON single payment (`paymentInitiation_json`). */
export interface PaymentInitiationBody {
  endToEndIdentification?: string;
  instructionIdentification?: string;
  debtorAccount: AccountReference;
  instructedAmount: Amount;
  creditorAccount: AccountReference;
  creditorAgent?: string;
  creditorName: string;
  remittanceInformationUnstructured?: string;
  requestedExecutionDate?: string;
}

/** The date part of a date: `YYYY-MM-DD` (UTC), as `validUntil`, `dateFrom` and `dateTo` want it. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The `validUntil` that means "as long as the bank allows" (the bank may shorten it). */
export const VALID_UNTIL_MAX = '9999-12-31';

/**
 * POST /v1/consents. `access` as given (detailed lists, availableAccounts, allPsd2 …); a one-off
 * consent (`recurringIndicator: false`) has `frequencyPerDay: 1`. Every field the standard requires
 * is always present; the caller chooses their values.
 */
export function buildConsent(o: {
  access: AccountAccess;
  recurringIndicator?: boolean;
  validUntil: string | Date;
  frequencyPerDay?: number;
  combinedServiceIndicator?: boolean;
}): ConsentRequestBody {
  const recurringIndicator = o.recurringIndicator ?? true;
  return {
    access: structuredClone(o.access),
    recurringIndicator,
    validUntil: typeof o.validUntil === 'string' ? o.validUntil : isoDate(o.validUntil),
    frequencyPerDay: o.frequencyPerDay ?? (recurringIndicator ? 4 : 1),
    combinedServiceIndicator: o.combinedServiceIndicator ?? false,
  };
}

/** Detailed access to the same accounts for accounts, balances and transactions (a common shape). */
export function detailedAccess(accounts: readonly AccountReference[], what: { balances?: boolean; transactions?: boolean } = { balances: true, transactions: true }): AccountAccess {
  const list = () => accounts.map((a) => ({ ...a }));
  return {
    accounts: list(),
    ...(what.balances ? { balances: list() } : {}),
    ...(what.transactions ? { transactions: list() } : {}),
  };
}

/** POST /v1/funds-confirmations. */
export function buildFundsConfirmation(o: { account: AccountReference; amount: string; currency: string; payee?: string; cardNumber?: string }): FundsConfirmationRequestBody {
  return {
    ...(o.cardNumber !== undefined ? { cardNumber: o.cardNumber } : {}),
    account: { ...o.account },
    ...(o.payee !== undefined ? { payee: o.payee } : {}),
    instructedAmount: { currency: o.currency, amount: o.amount },
  };
}

/** POST /v1/payments/{payment-product} for the JSON products (sepa-credit-transfers, instant-sepa-credit-transfers …). */
export function buildPaymentInitiation(o: {
  debtor: AccountReference;
  amount: string;
  currency: string;
  creditor: AccountReference;
  creditorName: string;
  creditorAgent?: string;
  endToEndIdentification?: string;
  remittance?: string;
  requestedExecutionDate?: string;
}): PaymentInitiationBody {
  return {
    ...(o.endToEndIdentification !== undefined ? { endToEndIdentification: o.endToEndIdentification } : {}),
    debtorAccount: { ...o.debtor },
    instructedAmount: { currency: o.currency, amount: o.amount },
    creditorAccount: { ...o.creditor },
    ...(o.creditorAgent !== undefined ? { creditorAgent: o.creditorAgent } : {}),
    creditorName: o.creditorName,
    ...(o.remittance !== undefined ? { remittanceInformationUnstructured: o.remittance } : {}),
    ...(o.requestedExecutionDate !== undefined ? { requestedExecutionDate: o.requestedExecutionDate } : {}),
  };
}

/** POST /v1/periodic-payments/{payment-product}: a standing order (startDate and frequency required; endDate absent: until revoked). */
export function buildPeriodicPayment(o: Parameters<typeof buildPaymentInitiation>[0] & {
  startDate: string;
  endDate?: string;
  frequency: string;
  executionRule?: 'following' | 'preceding';
  dayOfExecution?: string;
}): Record<string, unknown> {
  const { requestedExecutionDate: _ignored, ...single } = buildPaymentInitiation({ ...o, requestedExecutionDate: undefined });
  return {
    ...single,
    startDate: o.startDate,
    ...(o.endDate !== undefined ? { endDate: o.endDate } : {}),
    ...(o.executionRule !== undefined ? { executionRule: o.executionRule } : {}),
    frequency: o.frequency,
    ...(o.dayOfExecution !== undefined ? { dayOfExecution: o.dayOfExecution } : {}),
  };
}

/** POST /v1/bulk-payments/{payment-product}: one debtor account, several payments (no debtorAccount of their own). */
/** The body of POST /v1/signing-baskets (`signingBasket`): the consents and payments one SCA shall authorise (an empty list is left out: the file's lists have at least one id). */
export function buildSigningBasket(o: { consentIds?: readonly string[]; paymentIds?: readonly string[] }): Record<string, unknown> {
  return { ...(o.paymentIds?.length ? { paymentIds: [...o.paymentIds] } : {}), ...(o.consentIds?.length ? { consentIds: [...o.consentIds] } : {}) };
}

export function buildBulkPayment(o: {
  debtor: AccountReference;
  batchBookingPreferred?: boolean;
  payments: Array<{ amount: string; currency: string; creditor: AccountReference; creditorName: string; endToEndIdentification?: string; remittance?: string }>;
}): Record<string, unknown> {
  return {
    ...(o.batchBookingPreferred !== undefined ? { batchBookingPreferred: o.batchBookingPreferred } : {}),
    debtorAccount: { ...o.debtor },
    payments: o.payments.map((p) => ({
      ...(p.endToEndIdentification !== undefined ? { endToEndIdentification: p.endToEndIdentification } : {}),
      instructedAmount: { currency: p.currency, amount: p.amount },
      creditorAccount: { ...p.creditor },
      creditorName: p.creditorName,
      ...(p.remittance !== undefined ? { remittanceInformationUnstructured: p.remittance } : {}),
    })),
  };
}

/** The query of GET /v1/accounts/{account-id}/transactions: bookingStatus is required by the standard. */
export function transactionsQuery(o: { bookingStatus?: BookingStatus; dateFrom?: string | Date; dateTo?: string | Date; withBalance?: boolean; entryReferenceFrom?: string; deltaList?: boolean }): URLSearchParams {
  const q = new URLSearchParams({ bookingStatus: o.bookingStatus ?? 'booked' });
  const date = (d: string | Date) => (typeof d === 'string' ? d : isoDate(d));
  if (o.dateFrom !== undefined) q.set('dateFrom', date(o.dateFrom));
  if (o.dateTo !== undefined) q.set('dateTo', date(o.dateTo));
  // The delta reports: dateFrom is "mandated if no delta access is required".
  if (o.entryReferenceFrom !== undefined) q.set('entryReferenceFrom', o.entryReferenceFrom);
  if (o.deltaList) q.set('deltaList', 'true');
  if (o.withBalance) q.set('withBalance', 'true');
  return q;
}

// ---------------------------------------------------------------------------------------------
// Headers

/** Request headers the standard defines, as the TPP's options name them. */
export interface BgHeaderOptions {
  /** `X-Request-ID` (a UUID, required on every request): a fresh one unless given. */
  requestId?: string;
  /** `Consent-ID`: required on every /v1/accounts… read. */
  consentId?: string;
  /** `PSU-IP-Address`: required on POST /v1/consents and payment initiation. */
  psuIpAddress?: string;
  /** `TPP-Redirect-URI`: where the bank sends the PSU back after a redirect SCA. */
  tppRedirectUri?: string;
  /** `TPP-Nok-Redirect-URI`: where the PSU goes back when the SCA failed. */
  tppNokRedirectUri?: string;
  /** `TPP-Redirect-Preferred`: true asks for the redirect approach, false for another (embedded/decoupled). */
  tppRedirectPreferred?: boolean;
  /** `Authorization: Bearer …` under the OAuth SCA approach. */
  accessToken?: string;
}

/** The headers of one request; header names as the standard spells them. */
export function bgHeaders(o: BgHeaderOptions = {}): Record<string, string> {
  const h: Record<string, string> = { 'X-Request-ID': o.requestId ?? randomUUID() };
  if (o.consentId !== undefined) h['Consent-ID'] = o.consentId;
  if (o.psuIpAddress !== undefined) h['PSU-IP-Address'] = o.psuIpAddress;
  if (o.tppRedirectPreferred !== undefined) h['TPP-Redirect-Preferred'] = String(o.tppRedirectPreferred);
  if (o.tppRedirectUri !== undefined) h['TPP-Redirect-URI'] = o.tppRedirectUri;
  if (o.tppNokRedirectUri !== undefined) h['TPP-Nok-Redirect-URI'] = o.tppNokRedirectUri;
  if (o.accessToken !== undefined) h.Authorization = `Bearer ${o.accessToken}`;
  return h;
}

// ---------------------------------------------------------------------------------------------
// Accessors: tolerant of any shape, never throw.

export type { WireObject } from './errors.ts';

/** The links an answer may carry. */
export type LinkName = 'scaRedirect' | 'scaOAuth' | 'scaStatus' | 'self' | 'status' | 'startAuthorisation' | 'account' | 'balances' | 'transactions' | 'transactionDetails' | 'next' | (string & {});

/**
 * Every `_links` member with a string href, as `{ name: href }`. A relative href is resolved
 * against `base` when given (banks write both `/v1/consents/…` and absolute URLs).
 */
export function linksOf(body: unknown, base?: string): Record<string, string> {
  const links = isObject(body) ? body._links : undefined;
  if (!isObject(links)) return {};
  const out: Record<string, string> = {};
  for (const [name, link] of Object.entries(links)) {
    const href = stringAt(link, 'href');
    if (href === undefined) continue;
    try {
      out[name] = base ? new URL(href, base).href : href;
    } catch {
      out[name] = href;
    }
  }
  return out;
}

/** One link's href (see linksOf), or undefined. */
export function linkOf(body: unknown, name: LinkName, base?: string): string | undefined {
  return linksOf(body, base)[name];
}

/** Which SCA approach the 201 answer offers, judging by its links (the ASPSP-SCA-Approach header says it too). */
export function scaApproachOf(body: unknown): 'redirect' | 'oauth' | 'explicit' | undefined {
  const links = linksOf(body);
  if (links.scaRedirect) return 'redirect';
  if (links.scaOAuth) return 'oauth';
  if (Object.keys(links).some((l) => l.startsWith('startAuthorisation'))) return 'explicit';
  return undefined;
}

export const consentIdOf = (body: unknown) => stringAt(body, 'consentId');
export const consentStatusOf = (body: unknown) => stringAt(body, 'consentStatus');
export const paymentIdOf = (body: unknown) => stringAt(body, 'paymentId');
export const basketIdOf = (body: unknown) => stringAt(body, 'basketId');
export const transactionStatusOf = (body: unknown) => stringAt(body, 'transactionStatus');
export const scaStatusOf = (body: unknown) => stringAt(body, 'scaStatus');
export const authorisationIdOf = (body: unknown) => stringAt(body, 'authorisationId');

/** `accounts[]` of GET /v1/accounts. */
export const accountsOf = (body: unknown) => objectsAt(body, 'accounts');
/** `cardAccounts[]` of GET /v1/card-accounts. */
export const cardAccountsOf = (body: unknown) => objectsAt(body, 'cardAccounts');
/** `cardTransactions.booked|pending[]` of a card account's transaction list; `all` concatenates them. */
export function cardTransactionsOf(body: unknown, which: 'booked' | 'pending' | 'all' = 'all'): WireObject[] {
  const report = isObject(body) ? body.cardTransactions : undefined;
  if (which !== 'all') return objectsAt(report, which);
  return [...objectsAt(report, 'booked'), ...objectsAt(report, 'pending')];
}
/** `balances[]` of a balances answer (or of an account read withBalance). */
export const balancesOf = (body: unknown) => objectsAt(body, 'balances');

/** `transactions.booked|pending|information[]` of a transaction list; `all` concatenates them. */
export function transactionsOf(body: unknown, which: 'booked' | 'pending' | 'information' | 'all' = 'all'): WireObject[] {
  const report = isObject(body) ? body.transactions : undefined;
  if (which !== 'all') return objectsAt(report, which);
  return [...objectsAt(report, 'booked'), ...objectsAt(report, 'pending'), ...objectsAt(report, 'information')];
}

/** `fundsAvailable`, only when a real boolean. */
export function fundsAvailableOf(body: unknown): boolean | undefined {
  const v = isObject(body) ? body.fundsAvailable : undefined;
  return typeof v === 'boolean' ? v : undefined;
}

/** One error message, from either shape; the messages of an error answer (errors.ts). */
export { errorMessagesOf, type BgErrorMessage } from './errors.ts';

/** The error codes of an error answer, either shape. */
export function errorCodesOf(body: unknown): string[] {
  return errorMessagesOf(body).map((m) => m.code);
}
