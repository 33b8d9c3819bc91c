/**
 * The same bank as UK Read/Write v4.0 publishes it (under /open-banking/v4.0): the v3.1.11 routes,
 * whose answers are re-spelt in v4.0's ISO 20022 code values on their way out, before they are
 * signed (../../shared/reference/FACTS-v4.md §3): consent and payment statuses (AWAU, AUTH, RJCT,
 * CANC, COND; ACSP, ACSC…), AccountType/AccountSubType renamed AccountCategory/AccountTypeCode,
 * balance, amount and transaction codes, address types, and 4-character error codes. The bank keeps
 * its state in one spelling (the store's); v4.0 requests need no translation in, since the routes
 * keep a payment's Initiation and Risk as sent (structured remittance, ContractPresentIndicator…).
 *
 * The pairs marked [I] in FACTS-v4 are the sandbox's reading (an ASPSP's own choice); the error
 * codes paired by the FCS suite (U002, U011, U016–U019) are facts, the others the sandbox's picks
 * from the same 4-character range. A fault here keeps one v3.1 spelling in the v4.0 layout.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import type { Reply, ResourceContext } from './plumbing.ts';
import { aisToV4, keepsV3, V4_AIS_FAULTS } from './v4-ais.ts';
import { familyOrderFaultsV4, keepsV3OrderStatus } from './v4-pis.ts';

/** The faults of the v4.0 layout: each answers one v3.1.11 spelling where v4.0 changed it. */
export const V4_FAULTS = [
  { name: 'v4-consent-status-v3-name', rule: 'AIS-01', description: 'UK v4.0: account-access consents answer their v3.1.11 status names (AwaitingAuthorisation, Authorised…), not AWAU/AUTH', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-payment-status-v3-name', rule: 'PIS-01', description: 'UK v4.0: payment-order consents answer their v3.1.11 status names (AwaitingAuthorisation, Authorised, Consumed), not AWAU/AUTH/COND', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-vrp-status-v3-name', rule: 'VRP-01', description: 'UK v4.0: VRP consents answer their v3.1.11 status names, not AWAU/AUTH', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-account-type-v3', rule: 'AIS-10', description: 'UK v4.0: accounts carry v3.1.11\'s AccountType/AccountSubType (CurrentAccount), not AccountCategory/AccountTypeCode (CACC)', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-error-code-v3', rule: 'SEC-06', description: 'UK v4.0: error bodies carry v3.1.11\'s namespaced codes (UK.OBIE.Field.Missing), not v4.0\'s 4-character codes', kind: 'rule', standard: 'uk-4.0' },
  ...V4_AIS_FAULTS,
] as const satisfies readonly FaultDeclaration[];

/** Consent statuses (§3.1; Revoked → CANC, Consumed → COND [I]) and payment-order statuses (§3.2 [I]). */
const STATUS: Readonly<Record<string, string>> = {
  AwaitingAuthorisation: 'AWAU', Authorised: 'AUTH', Rejected: 'RJCT', Revoked: 'CANC', Consumed: 'COND', AwaitingUpload: 'AWUP',
  Pending: 'PDNG', AcceptedSettlementInProcess: 'ACSP', AcceptedSettlementCompleted: 'ACSC', AcceptedWithoutPosting: 'ACWP',
  AcceptedCreditSettlementCompleted: 'ACCC', Received: 'RCVD', AcceptedTechnicalValidation: 'ACTC', AcceptedCustomerProfile: 'ACCP',
  AcceptedFundsChecked: 'ACFC', AcceptedWithChange: 'ACWC', PartiallyAcceptedTechnicalCorrect: 'PATC',
  InitiationPending: 'PDNG', InitiationCompleted: 'INCO', InitiationFailed: 'INFA', Cancelled: 'CANC',
};
const CONSENT_NAMES = new Set(['AwaitingAuthorisation', 'Authorised', 'Rejected', 'Revoked', 'Consumed', 'AwaitingUpload']);
/** AccountSubType → AccountTypeCode (§3.3 [I]). */
const ACCOUNT_TYPE_CODE: Readonly<Record<string, string>> = {
  CurrentAccount: 'CACC', Savings: 'SVGS', Loan: 'LOAN', Mortgage: 'MORT', Wallet: 'WALT', CreditCard: 'CARD', ChargeCard: 'CHAR', PrePaidCard: 'CARD', EMoney: 'OTHR',
};
/** Balance types (§3.3 [I]). */
const BALANCE_TYPE: Readonly<Record<string, string>> = {
  ClosingAvailable: 'CLAV', ClosingBooked: 'CLBD', ForwardAvailable: 'FWAV', Information: 'INFO', InterimAvailable: 'ITAV', InterimBooked: 'ITBD',
  OpeningAvailable: 'OPAV', OpeningBooked: 'OPBD', PreviouslyClosedBooked: 'PRCD', Expected: 'XPCD', ClosingCleared: 'CLBD', InterimCleared: 'ITBD', OpeningCleared: 'OPBD',
};
const TRANSACTION_STATUS: Readonly<Record<string, string>> = { Booked: 'BOOK', Pending: 'PDNG', Rejected: 'RJCT' };
const AMOUNT_SUB_TYPE: Readonly<Record<string, string>> = { BaseCurrency: 'BCUR', LocalCurrency: 'LCUR' };
const ADDRESS_TYPE: Readonly<Record<string, string>> = {
  Business: 'BIZZ', Correspondence: 'CORR', DeliveryTo: 'DLVY', MailTo: 'MLTO', POBox: 'PBOX', Postal: 'ADDR', Residential: 'HOME', Statement: 'STAT',
};
/** Error codes: the FCS suite pairs U002, U011 and U016–U019; the rest are the sandbox's own 4-character picks. */
const ERROR_CODE: Readonly<Record<string, string>> = {
  'UK.OBIE.Field.Expected': 'U001', 'UK.OBIE.Field.Invalid': 'U002', 'UK.OBIE.Field.InvalidDate': 'U003', 'UK.OBIE.Field.Missing': 'U004',
  'UK.OBIE.Field.Unexpected': 'U005', 'UK.OBIE.Header.Invalid': 'U006', 'UK.OBIE.Header.Missing': 'U007', 'UK.OBIE.Reauthenticate': 'U008',
  'UK.OBIE.Resource.ConsentMismatch': 'U009', 'UK.OBIE.Resource.InvalidConsentStatus': 'U010', 'UK.OBIE.Resource.NotFound': 'U011',
  'UK.OBIE.Rules.AfterCutOffDateTime': 'U012', 'UK.OBIE.Rules.DuplicateReference': 'U013', 'UK.OBIE.Resource.InvalidFormat': 'U014',
  'UK.OBIE.Signature.Invalid': 'U015', 'UK.OBIE.Signature.InvalidClaim': 'U016', 'UK.OBIE.Signature.MissingClaim': 'U017',
  'UK.OBIE.Signature.Malformed': 'U018', 'UK.OBIE.Signature.Missing': 'U019', 'UK.OBIE.Signature.Unexpected': 'U020',
  'UK.OBIE.Rules.FailsControlParameters': 'U021', 'UK.OBIE.Rules.ResourceAlreadyExists': 'U022', 'UK.OBIE.UnexpectedError': 'U000',
};

/** The v4.0 spelling of one reply of `operation` (a route's name), in place; called before the reply is signed. */
export function toV4(k: ResourceContext, operation: string, reply: Reply): void {
  if (reply.body === undefined || typeof reply.body !== 'object' || reply.body === null) return;
  const body = reply.body as Record<string, any>;
  if (Array.isArray(body.Errors)) {
    if (!k.faults.has('v4-error-code-v3')) for (const e of body.Errors) if (e && typeof e.ErrorCode === 'string') e.ErrorCode = ERROR_CODE[e.ErrorCode] ?? 'U000';
    return;
  }
  const data = body.Data;
  if (!data || typeof data !== 'object') return;
  const keepConsentName = (k.faults.has('v4-consent-status-v3-name') && /AccountAccessConsent/i.test(operation))
    || (k.faults.has('v4-payment-status-v3-name') && /^(createPayment|getPayment)$/.test(operation))
    || (k.faults.has('v4-vrp-status-v3-name') && /VrpConsent/i.test(operation)) || keepsV3(k, operation, 'consent-status');
  if (typeof data.Status === 'string' && !(keepConsentName && CONSENT_NAMES.has(data.Status)) && !keepsV3OrderStatus(k, data)) data.Status = STATUS[data.Status] ?? data.Status;
  familyOrderFaultsV4(k, data);
  for (const p of Array.isArray(data.PaymentStatus) ? data.PaymentStatus : []) if (typeof p?.Status === 'string') p.Status = STATUS[p.Status] ?? p.Status;
  if (!k.faults.has('v4-account-type-v3')) for (const a of Array.isArray(data.Account) ? data.Account : []) renameAccount(a);
  if (!keepsV3(k, operation, 'balance')) for (const b of Array.isArray(data.Balance) ? data.Balance : []) balance(b);
  for (const t of Array.isArray(data.Transaction) ? data.Transaction : []) {
    if (typeof t.Status === 'string' && !keepsV3(k, operation, 'transaction')) t.Status = TRANSACTION_STATUS[t.Status] ?? t.Status;
    if (t.Balance) balance(t.Balance);
  }
  aisToV4(k, data);
  if (!keepsV3(k, operation, 'address')) addressTypes(data);
}

function renameAccount(a: Record<string, any>): void {
  if (!a || typeof a !== 'object') return;
  const { AccountType, AccountSubType, ...rest } = a;
  for (const key of Object.keys(a)) delete a[key];
  // Member order kept close to the file's: the category and type code where the old pair stood.
  for (const [key, value] of Object.entries(rest)) {
    a[key] = value;
    if (key === 'Currency') {
      if (AccountType !== undefined) a.AccountCategory = AccountType;
      if (AccountSubType !== undefined) a.AccountTypeCode = ACCOUNT_TYPE_CODE[AccountSubType] ?? 'OTHR';
    }
  }
  if (AccountType !== undefined && !('AccountCategory' in a)) a.AccountCategory = AccountType;
  if (AccountSubType !== undefined && !('AccountTypeCode' in a)) a.AccountTypeCode = ACCOUNT_TYPE_CODE[AccountSubType] ?? 'OTHR';
}

function balance(b: Record<string, any>): void {
  if (typeof b?.Type === 'string') b.Type = BALANCE_TYPE[b.Type] ?? b.Type;
  for (const amount of [b?.Amount, b?.LocalAmount]) if (typeof amount?.SubType === 'string') amount.SubType = AMOUNT_SUB_TYPE[amount.SubType] ?? amount.SubType;
}

/** Every AddressType below `node` (party, agent and creditor addresses). */
function addressTypes(node: unknown, depth = 0): void {
  if (depth > 12 || !node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) addressTypes(n, depth + 1);
    return;
  }
  const o = node as Record<string, unknown>;
  if (typeof o.AddressType === 'string') o.AddressType = ADDRESS_TYPE[o.AddressType] ?? o.AddressType;
  for (const v of Object.values(o)) addressTypes(v, depth + 1);
}
