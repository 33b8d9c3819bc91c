/**
 * What happens to the PSU's consents when the PSU authorises one, whichever way the SCA went (the
 * bank's pages, the decoupled app, the embedded PUTs). Apart from consents.ts, whose routes start
 * the SCA (sca.ts), so that the approval paths (pages.ts) can reach it without an import circle.
 */
import type { FaultDeclaration, SwitchedFaults } from '../fault-declaration.ts';
import type { BgConsent, BgStore } from './store.ts';

/** The fault of this side effect (docs/rules.md, BG-20). */
export const LIFECYCLE_FAULTS = [
  { name: 'bg-former-recurring-stays-valid', rule: 'BG-20', description: 'authorising a new recurring consent leaves the PSU\'s former recurring consent valid (it should expire)', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

/**
 * A consent the PSU has just authorised: as POST /v1/consents's "Side Effects" say, a recurring
 * one makes the PSU's former recurring consent expire (the fault leaves it valid).
 */
export function consentAuthorised(k: { store: BgStore; faults: SwitchedFaults }, consent: BgConsent): void {
  k.store.authorised(consent, k.faults.has('bg-former-recurring-stays-valid'));
}
