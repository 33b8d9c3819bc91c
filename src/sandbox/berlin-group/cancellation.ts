/**
 * What the PSU's authorisation of a payment's cancellation does (the bank's pages call it once the
 * PSU approved): the payment is cancelled. Its own module, so that the pages need not import the
 * payment routes (which import the SCA routes, which import the pages).
 */
import type { FaultDeclaration, SwitchedFaults } from '../fault-declaration.ts';
import type { BgPayment } from './store.ts';

/** The faults of this step. */
export const CANCELLATION_FAULTS = [
  { name: 'bg-cancellation-authorised-not-canc', rule: 'BG-41', description: 'a cancellation the PSU authorised (…/cancellation-authorisations, finalised) leaves the payment as it was: it never reads CANC', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

/** The PSU authorised the payment's cancellation: the payment reads CANC. */
export function cancellationAuthorised(faults: SwitchedFaults, payment: BgPayment): void {
  if (!faults.has('bg-cancellation-authorised-not-canc')) payment.transactionStatus = 'CANC';
}
