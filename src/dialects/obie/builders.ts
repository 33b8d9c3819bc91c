/**
 * Request bodies the TPP sends in the obie dialect, tolerant accessors for the answers, and the
 * standard's constant lists (docs/wire.md; FACTS §2–4).
 */
import { PERMISSIONS } from './schemas/account-info.ts';

export { PERMISSIONS, CONSENT_STATUSES, ACCOUNT_SUB_TYPES, BALANCE_TYPES, TRANSACTION_STATUSES } from './schemas/account-info.ts';
export { PAYMENT_CONSENT_STATUSES, PAYMENT_ORDER_STATUSES, PAYMENT_STATUSES } from './schemas/payment-initiation.ts';

/** One of the 21 permission codes. */
export type Permission = (typeof PERMISSIONS)[number];

/** Fields of `Data.Account[]` that only `ReadAccountsDetail` unlocks (FACTS §2.3). */
export const DETAIL_ONLY_ACCOUNT_FIELDS = ['Account', 'Servicer'] as const;

/** Fields of `Data.Transaction[]` that only `ReadTransactionsDetail` unlocks (FACTS §2.3). */
export const DETAIL_ONLY_TRANSACTION_FIELDS = [
  'TransactionInformation', 'Balance', 'MerchantDetails', 'CreditorAgent', 'CreditorAccount', 'DebtorAgent', 'DebtorAccount',
] as const;

/** What a permission set grants, cluster by cluster (FACTS §2.3; Detail implies Basic). */
export interface PermissionRules {
  accounts: 'basic' | 'detail' | false;
  balances: boolean;
  transactions: 'basic' | 'detail' | false;
  /** Credit transactions are returned (ReadTransactionsCredits). */
  credits: boolean;
  /** Debit transactions are returned (ReadTransactionsDebits). */
  debits: boolean;
}

export function permissionRules(permissions: readonly string[]): PermissionRules {
  const has = (p: Permission) => permissions.includes(p);
  return {
    accounts: has('ReadAccountsDetail') ? 'detail' : has('ReadAccountsBasic') ? 'basic' : false,
    balances: has('ReadBalances'),
    transactions: has('ReadTransactionsDetail') ? 'detail' : has('ReadTransactionsBasic') ? 'basic' : false,
    credits: has('ReadTransactionsCredits'),
    debits: has('ReadTransactionsDebits'),
  };
}

/** A date-time as the TPP writes it: `YYYY-MM-DDTHH:mm:ss+00:00` (UTC, whole seconds). */
export function isoDateTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

// ---------------------------------------------------------------------------------------------
// Request bodies

/** An account identification as the TPP's options carry it. */
export interface AccountRef {
  schemeName: string;
  identification: string;
  name?: string;
  secondaryIdentification?: string;
}

/** `{ SchemeName, Identification, Name?, SecondaryIdentification? }` on the wire. */
export interface WireAccount {
  SchemeName: string;
  Identification: string;
  Name?: string;
  SecondaryIdentification?: string;
}

export interface WireAmount {
  Amount: string;
  Currency: string;
}

export interface AccountAccessConsentBody {
  Data: {
    Permissions: string[];
    ExpirationDateTime?: string;
    TransactionFromDateTime?: string;
    TransactionToDateTime?: string;
  };
  Risk: Record<string, never>;
}

export interface FundsConsentBody {
  Data: { DebtorAccount?: WireAccount; ExpirationDateTime?: string };
}

export interface FundsConfirmationBody {
  Data: { ConsentId: string; Reference: string; InstructedAmount: WireAmount };
}

export interface PaymentConsentBody {
  Data: {
    Initiation: {
      InstructionIdentification: string;
      EndToEndIdentification: string;
      LocalInstrument?: string;
      InstructedAmount: WireAmount;
      DebtorAccount?: WireAccount;
      CreditorAccount: WireAccount & { Name: string };
      RemittanceInformation?: Remittance;
    };
  };
  Risk: Record<string, unknown>;
}

/**
 * A payment's remittance information: v3.1.11's `{ Unstructured, Reference }` (two strings), or
 * v4.0's `OBRemittanceInformation2` (FACTS-v4 §4.1): Unstructured an array, the reference in
 * `Structured[].CreditorReferenceInformation.Reference`, where the FCS suite's v4.0 payloads put it.
 */
export type Remittance =
  | { Unstructured?: string; Reference?: string }
  | { Unstructured?: string[]; Structured?: Array<{ CreditorReferenceInformation: { Reference: string } }> };

/** The remittance information of a payment in the version's shape; undefined when there is none. */
export function remittanceOf(version: 'v3.1' | 'v4.0', o: { unstructured?: string; reference?: string }): Remittance | undefined {
  if (o.unstructured === undefined && o.reference === undefined) return undefined;
  if (version === 'v4.0') {
    return {
      ...(o.unstructured !== undefined ? { Unstructured: [o.unstructured] } : {}),
      ...(o.reference !== undefined ? { Structured: [{ CreditorReferenceInformation: { Reference: o.reference } }] } : {}),
    };
  }
  return { ...(o.unstructured !== undefined ? { Unstructured: o.unstructured } : {}), ...(o.reference !== undefined ? { Reference: o.reference } : {}) };
}

function wireAccount(a: AccountRef): WireAccount {
  const out: WireAccount = { SchemeName: a.schemeName, Identification: a.identification };
  if (a.name !== undefined) out.Name = a.name;
  if (a.secondaryIdentification !== undefined) out.SecondaryIdentification = a.secondaryIdentification;
  return out;
}

/** POST /account-access-consents (`OBReadConsent1`). Absent options stay absent (negative tests need that). */
export function buildAccountAccessConsent(o: {
  permissions: readonly string[];
  expirationDateTime?: string;
  transactionFromDateTime?: string;
  transactionToDateTime?: string;
}): AccountAccessConsentBody {
  const data: AccountAccessConsentBody['Data'] = { Permissions: [...o.permissions] };
  if (o.expirationDateTime !== undefined) data.ExpirationDateTime = o.expirationDateTime;
  if (o.transactionFromDateTime !== undefined) data.TransactionFromDateTime = o.transactionFromDateTime;
  if (o.transactionToDateTime !== undefined) data.TransactionToDateTime = o.transactionToDateTime;
  return { Data: data, Risk: {} };
}

/** POST /funds-confirmation-consents (`OBFundsConfirmationConsent1`); no debtorAccount → Data without DebtorAccount. */
export function buildFundsConsent(o: { debtorAccount?: AccountRef; expirationDateTime?: string }): FundsConsentBody {
  const data: FundsConsentBody['Data'] = {};
  if (o.debtorAccount) data.DebtorAccount = wireAccount(o.debtorAccount);
  if (o.expirationDateTime !== undefined) data.ExpirationDateTime = o.expirationDateTime;
  return { Data: data };
}

/** POST /funds-confirmations (`OBFundsConfirmation1`). */
export function buildFundsConfirmation(o: { consentId: string; reference: string; amount: string; currency: string }): FundsConfirmationBody {
  return { Data: { ConsentId: o.consentId, Reference: o.reference, InstructedAmount: { Amount: o.amount, Currency: o.currency } } };
}

/** POST /{payment-product} (`OBWriteDomesticConsent4` shape). No debtor → the PSU chooses it. */
export function buildPaymentConsent(o: {
  instructionIdentification: string;
  endToEndIdentification: string;
  amount: string;
  currency: string;
  creditor: AccountRef & { name: string };
  debtor?: AccountRef;
  remittance?: { unstructured?: string; reference?: string };
  localInstrument?: string;
  risk?: Record<string, unknown>;
  /** The UK Read/Write version whose body to build (v4.0: structured remittance); default v3.1.11. */
  version?: 'v3.1' | 'v4.0';
}): PaymentConsentBody {
  const remittance = o.remittance ? remittanceOf(o.version ?? 'v3.1', o.remittance) : undefined;
  // Key order as the standard writes it; optional members are left out, never sent as {} (FACTS §1.2).
  const initiation: PaymentConsentBody['Data']['Initiation'] = {
    InstructionIdentification: o.instructionIdentification,
    EndToEndIdentification: o.endToEndIdentification,
    ...(o.localInstrument !== undefined ? { LocalInstrument: o.localInstrument } : {}),
    InstructedAmount: { Amount: o.amount, Currency: o.currency },
    ...(o.debtor ? { DebtorAccount: wireAccount(o.debtor) } : {}),
    CreditorAccount: { ...wireAccount(o.creditor), Name: o.creditor.name },
    ...(remittance ? { RemittanceInformation: remittance } : {}),
  };
  return { Data: { Initiation: initiation }, Risk: { ...(o.risk ?? {}) } };
}

/** POST /domestic-payments (`OBWriteDomestic2`): the order, with the consent's Initiation and Risk unchanged. */
export interface PaymentOrderBody {
  Data: { ConsentId: string; Initiation: PaymentConsentBody['Data']['Initiation'] };
  Risk: Record<string, unknown>;
}

/** The payment order of an authorised consent: its ConsentId, and the Initiation and Risk as the consent was created. */
export function buildPaymentOrder(consentId: string, consent: PaymentConsentBody): PaymentOrderBody {
  return { Data: { ConsentId: consentId, Initiation: structuredClone(consent.Data.Initiation) }, Risk: structuredClone(consent.Risk) };
}

// ---------------------------------------------------------------------------------------------
// Accessors: tolerant of any shape, never throw.

/** `Data.DomesticPaymentId` of a payment order answer. */
export function paymentOrderIdOf(body: unknown): string | undefined {
  const id = (body as { Data?: { DomesticPaymentId?: unknown } } | undefined)?.Data?.DomesticPaymentId;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/** A JSON object from an answer, fields unknown. */
export type WireObject = Record<string, unknown>;

function isObject(v: unknown): v is WireObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function dataOf(body: unknown): WireObject | undefined {
  return isObject(body) && isObject(body.Data) ? body.Data : undefined;
}

function stringAt(o: WireObject | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === 'string' ? v : undefined;
}

function objectsAt(o: WireObject | undefined, key: string): WireObject[] {
  const v = o?.[key];
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** `Data.ConsentId`, when a string. */
export function consentIdOf(body: unknown): string | undefined {
  return stringAt(dataOf(body), 'ConsentId');
}

/** `Data.Status`, when a string. */
export function statusOf(body: unknown): string | undefined {
  return stringAt(dataOf(body), 'Status');
}

/** `Data.Permissions` (the string members), `[]` when absent or not a list. */
export function permissionsOf(body: unknown): string[] {
  const v = dataOf(body)?.Permissions;
  return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : [];
}

/** `Data.Account[]` (the object members). */
export function accountsOf(body: unknown): WireObject[] {
  return objectsAt(dataOf(body), 'Account');
}

/** `Data.Balance[]` (the object members). */
export function balancesOf(body: unknown): WireObject[] {
  return objectsAt(dataOf(body), 'Balance');
}

/** `Data.Transaction[]` (the object members). */
export function transactionsOf(body: unknown): WireObject[] {
  return objectsAt(dataOf(body), 'Transaction');
}

/** `Data.FundsAvailable`, only when it is a real boolean (a string "true" is not an answer). */
export function fundsAvailableOf(body: unknown): boolean | undefined {
  const v = dataOf(body)?.FundsAvailable;
  return typeof v === 'boolean' ? v : undefined;
}

/** `Errors[].ErrorCode` of an `OBErrorResponse1` (the string ones). */
export { errorCodesOf } from './errors.ts';

// Variable Recurring Payments (VRP, UK Read/Write v3.1.11).
export * from './vrp-builders.ts';
// The payment families beyond the domestic payment (UK Read/Write v3.1.11).
export * from './payment-family-builders.ts';
