/**
 * Multilevel SCA (NextGenPSD2 1.3.12, "Single and multilevel SCA Processes"): a payment from an
 * account several PSUs hold together needs the SCA of each. The create's answer then carries only
 * `startAuthorisation` (the file: no scaRedirect or scaOAuth where multiple authorisations are
 * needed); the TPP starts one authorisation per PSU (POST …/authorisations with that PSU's PSU-ID).
 * Until every holder has authorised, the payment reads PATC ("some but not yet all have been
 * performed") and is not executed. With the faults that bend it.
 */
import type { FaultDeclaration, SwitchedFaults } from '../fault-declaration.ts';
import type { FixturePsu } from '../fixtures.ts';
import type { BgAuthorisation, BgConsent, BgPayment, BgStore } from './store.ts';

/** The faults of multilevel SCA, in the order of docs/rules.md (the registry sorts by rule). */
export const MULTILEVEL_FAULTS = [
  { name: 'bg-multilevel-implicit-start', rule: 'SCA-03', description: 'a payment from the joint account (two PSUs must authorise it) is answered with an scaRedirect (an implicit start for one PSU) instead of the startAuthorisation link the file requires for multilevel SCA', kind: 'rule' },
  { name: 'bg-multilevel-executed-after-first', rule: 'SCA-03', description: 'a payment from the joint account is executed (ACTC) once the first of its two PSUs has authorised it: the second PSU\'s SCA is not awaited (no PATC)', kind: 'rule' },
  { name: 'bg-multilevel-stays-patc', rule: 'SCA-03', description: 'a payment from the joint account still reads PATC after its second PSU has authorised it: it never moves on', kind: 'rule' },
  { name: 'bg-multilevel-authorisations-unlisted', rule: 'SCA-03', description: 'GET …/{paymentId}/authorisations of a joint-account payment lists only its latest authorisation, not the first PSU\'s', kind: 'rule' },
  { name: 'bg-multilevel-consent-valid-after-first', rule: 'SCA-03', description: 'a consent naming the joint account reads "valid" and opens its data once the first of its two PSUs has authorised it (not "partiallyAuthorised" until the second has)', kind: 'rule' },
  { name: 'bg-multilevel-cancelled-after-first', rule: 'SCA-03', description: 'a scheduled payment from the joint account reads CANC once the first of its two PSUs has authorised its cancellation: the second PSU\'s authorisation of the cancellation is not awaited', kind: 'rule', sca: ['embedded'] },
  { name: 'bg-multilevel-second-sca-not-final', rule: 'SCA-03', description: 'GET …/authorisations/{authorisationId} of the second PSU\'s finalised authorisation of a joint-account payment reads "psuAuthenticated"', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

/**
 * The accounts several PSUs hold together, and who must authorise a payment from them: the
 * fixtures' joint account of alice is held with bob in this bank (both must authorise).
 */
const JOINT_HOLDERS: Record<string, readonly string[]> = { 'alice-joint': ['alice', 'bob'] };

/** The PSUs who must each authorise a payment (the holders of its debtor account), or undefined for one PSU's SCA. */
export function holdersOf(store: BgStore, payment: Pick<BgPayment, 'body'>): readonly string[] | undefined {
  const owner = store.byIban((payment.body.debtorAccount as { iban?: unknown } | undefined)?.iban);
  return owner ? JOINT_HOLDERS[owner.account.AccountId] : undefined;
}

/**
 * The PSUs who must each authorise a consent: the holders of a joint account its access lists
 * name (the bank's own rule: reading a joint account's data needs every holder's consent), or
 * undefined for one PSU's SCA.
 */
export function consentHoldersOf(store: BgStore, consent: Pick<BgConsent, 'access'>): readonly string[] | undefined {
  const refs = ['accounts', 'balances', 'transactions'].flatMap((l) => ((consent.access as Record<string, unknown>)[l] as Array<{ iban?: unknown }> | undefined) ?? []);
  const holders = new Set<string>();
  for (const ref of refs) {
    const owner = store.byIban(ref?.iban);
    for (const h of (owner ? JOINT_HOLDERS[owner.account.AccountId] : undefined) ?? []) holders.add(h);
  }
  return holders.size ? [...holders] : undefined;
}

/**
 * A PSU approved a consent that needs several PSUs' SCA: `pending` (partiallyAuthorised: others
 * must still authorise it), `complete`, or why this PSU cannot approve it. Undefined for one PSU's
 * consent.
 */
export function multilevelConsentApproval(k: { store: BgStore; faults: SwitchedFaults }, consent: BgConsent, psu: FixturePsu): 'pending' | 'complete' | { problem: string } | undefined {
  const holders = consentHoldersOf(k.store, consent);
  if (!holders) return undefined;
  const approved = approveAsHolder(holders, (consent.approvals ??= []), psu, 'This consent names an account that is not yours.', 'You have authorised this consent already; it awaits the other account holder.');
  return approved === 'pending' && k.faults.has('bg-multilevel-consent-valid-after-first') ? 'complete' : approved;
}

/**
 * One holder's approval of what every holder must approve, noted in `approvals`: `complete` once
 * all have approved, else `pending`; or why this PSU cannot approve it (not a holder, or again).
 */
function approveAsHolder(holders: readonly string[], approvals: string[], psu: FixturePsu, notTheirs: string, again: string): 'pending' | 'complete' | { problem: string } {
  if (!holders.includes(psu.username)) return { problem: notTheirs };
  if (approvals.includes(psu.username)) return { problem: again };
  approvals.push(psu.username);
  return holders.every((h) => approvals.includes(h)) ? 'complete' : 'pending';
}

/** Whether a payment's create answers with the explicit start (multilevel; the fault: an implicit start as for one PSU). */
export const multilevelStart = (k: { store: BgStore; faults: SwitchedFaults }, payment: Pick<BgPayment, 'body'>): boolean =>
  holdersOf(k.store, payment) !== undefined && !k.faults.has('bg-multilevel-implicit-start');

/**
 * A PSU approved a payment that needs several PSUs' SCA: answers `pending` (PATC: others must
 * still authorise it), `complete` (every holder has: the payment goes on), or why this PSU cannot
 * approve it. Undefined for a payment of one PSU.
 */
export function multilevelApproval(k: { store: BgStore; faults: SwitchedFaults }, payment: BgPayment, psu: FixturePsu): 'pending' | 'complete' | { problem: string } | undefined {
  const holders = holdersOf(k.store, payment);
  if (!holders) return undefined;
  const approved = approveAsHolder(holders, (payment.approvals ??= []), psu, 'The account to pay from is not one of yours.', 'You have authorised this payment already; it awaits the other account holder.');
  if (approved === 'complete') return k.faults.has('bg-multilevel-stays-patc') ? 'pending' : 'complete';
  return approved === 'pending' && k.faults.has('bg-multilevel-executed-after-first') ? 'complete' : approved;
}

/**
 * A PSU approved the cancellation of a payment that needs several PSUs' SCA: `pending` (the
 * payment stays as it was until the others have authorised the cancellation too), `complete`, or
 * why this PSU cannot approve it. Undefined for a payment of one PSU.
 */
export function multilevelCancellationApproval(k: { store: BgStore; faults: SwitchedFaults }, payment: BgPayment, psu: FixturePsu): 'pending' | 'complete' | { problem: string } | undefined {
  const holders = holdersOf(k.store, payment);
  if (!holders) return undefined;
  const approved = approveAsHolder(holders, (payment.cancelApprovals ??= []), psu, 'This payment is another customer\'s.', 'You have authorised this cancellation already; it awaits the other account holder.');
  return approved === 'pending' && k.faults.has('bg-multilevel-cancelled-after-first') ? 'complete' : approved;
}

/** The scaStatus shown for an authorisation (the fault: the second PSU's finalised one reads psuAuthenticated). */
export function shownScaStatus(k: { faults: SwitchedFaults }, resource: { kind: string; approvals?: string[] }, a: BgAuthorisation, status: string): string {
  const second = resource.kind === 'pis' && (resource.approvals?.length ?? 0) > 1 && a.psu !== undefined && resource.approvals!.indexOf(a.psu) > 0;
  return second && status === 'finalised' && k.faults.has('bg-multilevel-second-sca-not-final') ? 'psuAuthenticated' : status;
}

/** GET …/{paymentId}/authorisations: every authorisation of the payment (the fault: a joint-account payment's latest alone). */
export function listedAuthorisations(k: { store: BgStore; faults: SwitchedFaults }, payment: BgPayment): string[] {
  const ids = payment.authorisations.map((a) => a.authorisationId);
  return k.faults.has('bg-multilevel-authorisations-unlisted') && holdersOf(k.store, payment) ? ids.slice(-1) : ids;
}
