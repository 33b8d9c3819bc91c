/**
 * The NextGenPSD2 bank's fault switches: each breaks exactly one rule of docs/rules.md as the
 * berlin-group scenarios judge it, so that the harness can prove it catches that rule
 * (`obtpp conform --dialect berlin-group --sandbox-fault NAME`). Kept free of heavy imports, like
 * ../faults.ts; the UK bank's faults are there.
 *
 * Each fault is declared next to the routes it bends, in its API's module (consents.ts,
 * accounts.ts, cards.ts, funds.ts, payments.ts, baskets.ts, sca.ts, multilevel.ts; plumbing.ts for those that bend every route); this registry
 * collects them in the order of docs/rules.md's berlin-group rows.
 */
import { UsageError } from '../../errors.ts';
import { orderFaults, type FaultInfo } from '../faults.ts';
import { ACCOUNT_FAULTS } from './accounts.ts';
import { BASKET_FAULTS } from './baskets.ts';
import { CARD_FAULTS } from './cards.ts';
import { CONSENT_FAULTS } from './consents.ts';
import { LIFECYCLE_FAULTS } from './lifecycle.ts';
import { FUNDS_FAULTS } from './funds.ts';
import { PAYMENT_FAULTS } from './payments.ts';
import { CANCELLATION_FAULTS } from './cancellation.ts';
import { PLUMBING_FAULTS } from './plumbing.ts';
import { SCA_FAULTS } from './sca.ts';
import { MULTILEVEL_FAULTS } from './multilevel.ts';
import { SIGNATURE_FAULTS } from './signatures.ts';

const DECLARED = [...CONSENT_FAULTS, ...LIFECYCLE_FAULTS, ...ACCOUNT_FAULTS, ...CARD_FAULTS, ...FUNDS_FAULTS, ...CANCELLATION_FAULTS, ...PAYMENT_FAULTS, ...BASKET_FAULTS, ...PLUMBING_FAULTS, ...SCA_FAULTS, ...MULTILEVEL_FAULTS, ...SIGNATURE_FAULTS] as const;

/** A berlin-group fault's name. */
export type BgFaultName = (typeof DECLARED)[number]['name'];
/** The switched-on faults of the berlin-group bank. */
export type BgFaults = ReadonlySet<BgFaultName>;

/** The order of the rule families in docs/rules.md's berlin-group rows. */
const BG_FAMILIES = ['AIS', 'BG', 'SCA', 'PIS', 'COF', 'SEC'];
const BG_TABLE = orderFaults(DECLARED, BG_FAMILIES);

/** Every fault of the berlin-group bank, in the order of docs/rules.md's berlin-group rows. */
export function listBgFaults(): FaultInfo[] {
  return BG_TABLE.map((f) => ({
    name: f.name, rule: f.rule, description: f.description, kind: 'rule' as const,
    ...('level' in f && f.level ? { level: f.level } : {}), ...('sca' in f && f.sca ? { sca: [...f.sca] } : {}),
    ...('signatures' in f && f.signatures ? { signatures: true } : {}),
  }));
}

/** Validates fault names for the berlin-group bank; an unknown one is a usage error naming the valid ones. */
export function parseBgFaults(names: readonly string[] = []): BgFaults {
  const known = new Set<string>(BG_TABLE.map((f) => f.name));
  for (const name of names) {
    if (!known.has(name)) {
      throw new UsageError(`unknown berlin-group sandbox fault "${name}"; valid faults: ${[...known].join(', ')}`, { hint: 'obtpp sandbox --dialect berlin-group --list-faults describes each' });
    }
  }
  return new Set(names as BgFaultName[]);
}
