/**
 * The berlin-group scenarios of the decoupled and embedded SCA approaches
 * (features/berlin-group/sca-approaches.feature): the scaStatus the TPP followed (support.ts
 * walks the SCA and keeps what it saw), judged against the standard's statuses.
 */
import { Given, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { bgHeaders, SCA_STATUSES, scaStatusOf } from '../../src/dialects/berlin-group/index.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { quote } from '../support/judge.ts';
import { bankOffered, consentRequest, consentThroughSca, expectAuthorisationsListed, judgeInto, plain, psuIp, theConsent, type ScaSighting, type ScaTrail } from './support.ts';
import { givenAhead } from './ahead.ts';
import { authorisationOps } from '../../src/session/berlin-group-authorisations.ts';

const DECOUPLED_OR_EMBEDDED = ['decoupled', 'embedded'] as const;
const FULL = () => bankOffered({ balances: true, transactions: true });

/**
 * The order the scaStatus moves in (the official file's scaStatus list): a status never follows
 * one of a later rank; the three final ones share the last rank, and a final status never changes.
 */
const RANK: Record<string, number> = {
  received: 0, psuIdentified: 1, psuAuthenticated: 2, scaMethodSelected: 3, started: 4, unconfirmed: 5, finalised: 6, failed: 6, exempted: 6,
};
const FINAL = new Set(['finalised', 'failed', 'exempted']);

Given('a NextGenPSD2 consent the PSU authorised by the decoupled or embedded SCA approach', async function (this: ConformanceWorld) {
  await consentThroughSca(this, consentRequest(FULL()), { approach: DECOUPLED_OR_EMBEDDED, accounts: { pick: 'all' } });
});

Given('a NextGenPSD2 consent the PSU authorised by the decoupled or embedded SCA approach, the TPP starting the authorisation', async function (this: ConformanceWorld) {
  await consentThroughSca(this, consentRequest(FULL()), { approach: DECOUPLED_OR_EMBEDDED, accounts: { pick: 'all' }, explicit: true });
});

// Rejected, it expires no other consent: prepared ahead of its scenario (ahead.ts).
givenAhead('a NextGenPSD2 consent the PSU rejected by the decoupled or embedded SCA approach', async (world) => {
  await consentThroughSca(world, consentRequest(FULL()), { approach: DECOUPLED_OR_EMBEDDED, reject: true });
});

function trailOf(world: ConformanceWorld): ScaTrail {
  const trail = theConsent(world).trail;
  if (!trail) throw new Error('the consent was not authorised by the decoupled or embedded SCA approach');
  return trail;
}

const seen = (s: ScaSighting) => `${s.status ?? '(none)'} ${s.when}`;
const path = (t: ScaTrail) => t.sightings.map(seen).join(' → ');

Then('the TPP started the authorisation explicitly', function (this: ConformanceWorld) {
  const t = trailOf(this);
  // Asked with TPP-Explicit-Authorisation-Preferred: true; a bank may still start it itself (the header is a preference).
  if (!t.explicit) throw this.blocked(undefined, `the bank started the ${t.approach} authorisation itself although the TPP preferred to start it (TPP-Explicit-Authorisation-Preferred: true): the explicit start is not judged`);
});

Then('the consent\'s authorisations are listed with the one the TPP started', async function (this: ConformanceWorld) {
  const consent = theConsent(this);
  const t = trailOf(this);
  // A bank without the list (its profile's implements) leaves this check out.
  if (!this.client.supports('listConsentAuthorisations')) return;
  const r = await this.call('listing the consent\'s authorisations', (c) => authorisationOps(c, 'consent', consent.id).list(plain(this, bgHeaders({ psuIpAddress: psuIp(this) }))));
  expectAuthorisationsListed(this, r, 'GET /v1/consents/{consentId}/authorisations', [{ id: t.authorisationId }]);
});

/**
 * The official schema of every answer the TPP followed of an authorisation (the start, each
 * PUT's answer judged as the body for what it sent, each scaStatus read): whichever rule walks
 * the authorisation fails on them.
 */
export function judgeTrailSchemas(world: ConformanceWorld, t: ScaTrail): void {
  const invalid = [...new Set(t.schemaProblems)];
  if (invalid.length) throw world.violation([`the ${t.approach} authorisation's answers are not valid against the official schema (${invalid.length} problem${invalid.length === 1 ? '' : 's'}):`, ...invalid.slice(0, 10)]);
}

/**
 * SCA-01's judgement of what the TPP followed of an authorisation: the official schema of its
 * answers, the standard's values, only forward, and a final status that stays (SCA-03 judges a
 * multilevel SCA's second authorisation the same way).
 */
export function judgeScaTrail(world: ConformanceWorld, t: ScaTrail): void {
  judgeTrailSchemas(world, t);
  const known = new Set<string>(SCA_STATUSES);
  const unknown = t.sightings.filter((s) => !known.has(s.status ?? ''));
  if (unknown.length) throw world.violation(`the ${t.approach} authorisation's scaStatus read ${unknown.map(seen).join(', ')}, not one of the standard's values (${SCA_STATUSES.join(', ')}); as followed: ${path(t)}`);
  for (let i = 1; i < t.sightings.length; i++) {
    const before = t.sightings[i - 1]!;
    const now = t.sightings[i]!;
    if (FINAL.has(before.status!) && now.status !== before.status) {
      throw world.violation(`the ${t.approach} authorisation's scaStatus was final (${seen(before)}) and then read ${seen(now)}: a final status stays; as followed: ${path(t)}`);
    }
    if (RANK[now.status!]! < RANK[before.status!]!) {
      throw world.violation(`the ${t.approach} authorisation's scaStatus moved back from ${seen(before)} to ${seen(now)}; as followed: ${path(t)}`);
    }
  }
  const last = t.sightings.at(-1);
  if (!last || !FINAL.has(last.status!)) throw world.violation(`the ${t.approach} authorisation the PSU completed never read a final scaStatus; as followed: ${path(t)}`);
}

Then('the authorisation\'s scaStatus moved only forward through the standard\'s values and stayed final', function (this: ConformanceWorld) {
  const t = trailOf(this);
  judgeScaTrail(this, t);
});

Then('the authorisation was finalised only after the PSU had given every factor', function (this: ConformanceWorld) {
  const t = trailOf(this);
  judgeTrailSchemas(this, t);
  const early = t.sightings.find((s) => s.status === 'finalised' && s.factorsDone === false);
  if (early) {
    const missing = t.approach === 'embedded' ? 'before the TPP sent the one-time password (scaAuthenticationData): one factor is no strong customer authentication' : 'before the PSU had approved in the app';
    throw this.violation(`the ${t.approach} authorisation read "finalised" ${early.when}, ${missing}; as followed: ${path(t)}`);
  }
  if (!t.sightings.some((s) => s.status === 'finalised')) throw this.violation(`the ${t.approach} authorisation the PSU completed never read "finalised"; as followed: ${path(t)}`);
});

Then('the NextGenPSD2 consent was valid once its authorisation was finalised', function (this: ConformanceWorld) {
  const t = trailOf(this);
  const first = t.sightings.find((s) => s.resourceStatus !== undefined);
  // The embedded answers carry the final status themselves: the consent is read right after.
  if (!first) return;
  if (first.resourceStatus !== 'valid') throw this.violation(`the ${t.approach} authorisation read "finalised" (${first.when}) while the consent read ${JSON.stringify(first.resourceStatus)}, not "valid"; as followed: ${path(t)}`);
});

Then('the authorisation\'s scaStatus ended {string}', function (this: ConformanceWorld, wanted: string) {
  const t = trailOf(this);
  judgeTrailSchemas(this, t);
  const last = t.sightings.at(-1);
  if (last?.status !== wanted) throw this.violation(`the ${t.approach} authorisation the PSU did not complete ended ${last ? seen(last) : 'unread'}, not "${wanted}"; as followed: ${path(t)}`);
});

/**
 * The second PSU's authorisation of a multilevel SCA (of a payment, a consent or a cancellation),
 * judged as SCA-01 judges an authorisation: every answer the TPP followed of each PSU's walk, then
 * the second's scaStatus (decoupled and embedded: as followed; redirect: read twice after the
 * PSU's journey), which must end `finalised`.
 */
export async function judgeSecondAuthorisation(world: ConformanceWorld, o: {
  authorisations: ReadonlyArray<{ id: string; trail?: ScaTrail }>;
  approach: ScaTrail['approach'];
  /** "the payment", "the consent", "the cancellation". */
  of: string;
  read: (authorisationId: string) => Promise<ApiResult>;
}): Promise<void> {
  const second = o.authorisations[1];
  if (!second) throw world.blocked(undefined, `the second PSU's authorisation of ${o.of} was not started`);
  const trail: ScaTrail = second.trail ?? { approach: o.approach, authorisationId: second.id, explicit: true, sightings: [], schemaProblems: [] };
  if (!second.trail) {
    for (let i = 0; i < 2; i++) {
      const r = await o.read(second.id);
      if (r.status === 200) judgeInto(trail, r, 'scaStatusResponse');
      trail.sightings.push({ status: r.status === 200 ? scaStatusOf(r.body) : `(HTTP ${r.status})`, when: i ? 'read again' : 'after the PSU\'s journey', factorsDone: true });
    }
  }
  for (const a of o.authorisations) if (a.trail) judgeTrailSchemas(world, a.trail);
  judgeScaTrail(world, trail);
  const last = trail.sightings.at(-1)?.status;
  if (last !== 'finalised') throw world.violation(`the second PSU completed the SCA of ${o.of}, but its authorisation ${quote(second.id)} reads scaStatus ${quote(last)}, not "finalised"`);
}
