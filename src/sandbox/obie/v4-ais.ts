/**
 * The v4.0 spelling of the account-information reads only the UK layout has, and the faults that
 * keep a v3.1.11 spelling in one of them or in the CBPII's answers (../../shared/reference/FACTS-v4.md
 * §3.3, §4.2): a standing order's and a direct debit's schedule moves into MandateRelatedInformation,
 * their statuses become ExternalMandateStatus1Code (Active → ACTV), a standing order's Reference
 * becomes structured remittance, and a statement amount's SubType an ISO code. v4.ts calls it on
 * every answer of the v4.0 layout; the other re-spellings (statuses, accounts, balances,
 * transactions, addresses, error codes) are v4.ts's own.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import type { ResourceContext } from './plumbing.ts';

/** Each keeps one v3.1.11 spelling of a kind v4.0 changed in an AIS or CBPII answer. */
export const V4_AIS_FAULTS = [
  { name: 'v4-funds-consent-status-v3-name', rule: 'UKCOF-01', description: 'UK v4.0: funds-confirmation consents answer their v3.1.11 status names (AwaitingAuthorisation, Authorised), not AWAU/AUTH', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-balance-type-v3', rule: 'UKAIS-10', description: 'UK v4.0: balances carry v3.1.11\'s type names (InterimAvailable, ClosingBooked…), not ITAV/CLBD', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-transaction-status-v3', rule: 'UKAIS-10', description: 'UK v4.0: transactions carry v3.1.11\'s statuses (Booked, Pending), not BOOK/PDNG', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-standing-order-v3', rule: 'UKAIS-10', description: 'UK v4.0: standing orders keep v3.1.11\'s Frequency, Reference, FirstPaymentDateTime and Active, not MandateRelatedInformation, RemittanceInformation and ACTV', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-direct-debit-v3', rule: 'UKAIS-10', description: 'UK v4.0: direct debits keep v3.1.11\'s MandateIdentification and Active, not MandateRelatedInformation and ACTV', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-address-type-v3', rule: 'UKAIS-10', description: 'UK v4.0: party addresses carry v3.1.11\'s AddressType names (Residential), not ISO codes (HOME)', kind: 'rule', standard: 'uk-4.0' },
] as const satisfies readonly FaultDeclaration[];

/** v3.1.11's mandate statuses → ExternalMandateStatus1Code (Active → ACTV; Inactive has no one code: the sandbox says suspended [I]). */
const MANDATE_STATUS: Readonly<Record<string, string>> = { Active: 'ACTV', Inactive: 'SUSP' };
const AMOUNT_SUB_TYPE: Readonly<Record<string, string>> = { BaseCurrency: 'BCUR', LocalCurrency: 'LCUR' };

/** A v3.1.11 frequency as v4.0's OBFrequency6: a monthly day becomes MNTH on that day; v4.0 still takes the old grammar otherwise. */
function frequency(v3: unknown): Record<string, string> {
  const monthly = typeof v3 === 'string' ? /^IntrvlMnthDay:01:(0[1-9]|[12][0-9]|3[01])$/.exec(v3) : null;
  if (monthly) return { Type: 'MNTH', PointInTime: monthly[1]! };
  return { Type: typeof v3 === 'string' ? v3 : 'NotKnown' };
}

function standingOrder(o: Record<string, any>): void {
  const { Frequency, Reference, FirstPaymentDateTime, FinalPaymentDateTime, ...rest } = o;
  for (const key of Object.keys(o)) delete o[key];
  Object.assign(o, rest);
  if (typeof o.StandingOrderStatusCode === 'string') o.StandingOrderStatusCode = MANDATE_STATUS[o.StandingOrderStatusCode] ?? o.StandingOrderStatusCode;
  o.MandateRelatedInformation = {
    ...(FirstPaymentDateTime ? { FirstPaymentDateTime } : {}), ...(FinalPaymentDateTime ? { FinalPaymentDateTime } : {}), Frequency: frequency(Frequency),
  };
  // The old Reference has no one counterpart; the suite's v4.0 payloads put it here (FACTS-v4 §4.1).
  if (Reference) o.RemittanceInformation = { Structured: [{ CreditorReferenceInformation: { Reference } }] };
}

function directDebit(o: Record<string, any>): void {
  const { MandateIdentification, Frequency, ...rest } = o;
  for (const key of Object.keys(o)) delete o[key];
  Object.assign(o, rest);
  if (typeof o.DirectDebitStatusCode === 'string') o.DirectDebitStatusCode = MANDATE_STATUS[o.DirectDebitStatusCode] ?? o.DirectDebitStatusCode;
  // The sandbox's direct debits are collected monthly (v3.1.11's Frequency was free text, often absent).
  o.MandateRelatedInformation = { ...(MandateIdentification ? { MandateIdentification } : {}), Frequency: Frequency ? frequency(Frequency) : { Type: 'MNTH' } };
}

/** Re-spells `data` (an answer's Data) of the UK layout's other reads in place. */
export function aisToV4(k: ResourceContext, data: Record<string, any>): void {
  if (!k.faults.has('v4-standing-order-v3')) for (const o of Array.isArray(data.StandingOrder) ? data.StandingOrder : []) if (o && typeof o === 'object') standingOrder(o);
  if (!k.faults.has('v4-direct-debit-v3')) for (const o of Array.isArray(data.DirectDebit) ? data.DirectDebit : []) if (o && typeof o === 'object') directDebit(o);
  for (const s of Array.isArray(data.Statement) ? data.Statement : []) {
    for (const a of Array.isArray(s?.StatementAmount) ? s.StatementAmount : []) {
      for (const m of [a?.Amount, a?.LocalAmount]) if (typeof m?.SubType === 'string') m.SubType = AMOUNT_SUB_TYPE[m.SubType] ?? m.SubType;
    }
  }
}

/** Whether a fault keeps this answer's v3.1.11 spelling of a kind v4.ts re-spells. */
export function keepsV3(k: ResourceContext, operation: string, kind: 'consent-status' | 'balance' | 'transaction' | 'address'): boolean {
  switch (kind) {
    case 'consent-status': return k.faults.has('v4-funds-consent-status-v3-name') && /FundsConsent/.test(operation);
    case 'balance': return k.faults.has('v4-balance-type-v3');
    case 'transaction': return k.faults.has('v4-transaction-status-v3');
    case 'address': return k.faults.has('v4-address-type-v3') && /Part(y|ies)/.test(operation);
  }
}
