/**
 * Signing baskets (XS2A, variant A): POST /v1/signing-baskets names consents and payments the PSU
 * has not authorised yet; one SCA of the basket (by redirect on the bank's pages or decoupled in
 * its app: pages.ts; embedded: sca-routes.ts) authorises them all, after which the basket reads ACTC. DELETE only while no authorisation has
 * been applied; GET, /status and the authorisation sub-resources. With the faults that bend them.
 */
import type { FaultDeclaration, SwitchedFaults } from '../fault-declaration.ts';
import type { FixturePsu } from '../fixtures.ts';
import type { BgBasket, BgConsent, BgPayment } from './store.ts';
import {
  A, BgError, approachHeader, approachWithoutOAuth, explicitStart, format, header, isObject, newAuthorisation, route, scaLinks,
  type BgRoute, type Reply, type Req, type Xs2aContext,
} from './plumbing.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const BASKET_FAULTS = [
  { name: 'bg-basket-unknown-member-accepted', rule: 'BG-60', description: 'POST /v1/signing-baskets naming a payment the bank never created answers 201 (no 400 RESOURCE_UNKNOWN)', kind: 'rule' },
  { name: 'bg-basket-authorised-member-accepted', rule: 'BG-60', description: 'POST /v1/signing-baskets naming a payment the PSU already authorised answers 201 (no 409 REFERENCE_STATUS_INVALID)', kind: 'rule' },
  { name: 'bg-basket-members-dropped', rule: 'BG-60', description: 'GET /v1/signing-baskets/{basketId} reads back the basket\'s payments alone: its consents are left out', kind: 'rule' },
  { name: 'bg-basket-members-not-authorised', rule: 'BG-60', description: 'the PSU authorises the basket (its SCA finalised, the basket ACTC), but its payments stay RCVD: the one SCA does not reach them', kind: 'rule' },
  { name: 'bg-basket-status-stays-rcvd', rule: 'BG-60', description: 'GET /v1/signing-baskets/{basketId}[/status] reads transactionStatus RCVD after the PSU authorised the basket', kind: 'rule' },
  { name: 'bg-basket-authorisations-unlisted', rule: 'BG-60', description: 'GET /v1/signing-baskets/{basketId}/authorisations lists no authorisation, though the TPP started one and the PSU authorised it', kind: 'rule' },
  { name: 'bg-basket-deleted-after-authorisation', rule: 'BG-60', description: 'DELETE /v1/signing-baskets/{basketId} of a basket the PSU authorised answers 204 (the file: not deletable after an authorisation)', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

const pendingMember = (m: BgConsent | BgPayment) => (m.kind === 'ais' ? m.status === 'received' : m.transactionStatus === 'RCVD');

/** A list of member ids: absent, or 1 or more strings (the file's paymentIdList / consentIdList). */
function idList(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== '')) throw format(`${name} must be a list of at least one id`, name);
  return [...new Set(value as string[])];
}

/**
 * POST /v1/signing-baskets: each member must be known (400 RESOURCE_UNKNOWN) and not yet
 * authorised (409 REFERENCE_STATUS_INVALID, "at least one of the references is already fully
 * authorised"). This bank authorises a basket on its own pages: TPP-Redirect-URI is required.
 */
function createBasket(k: Xs2aContext, r: Req): Reply {
  if (!header(r, 'PSU-IP-Address')) throw format('PSU-IP-Address is required', 'PSU-IP-Address');
  const b = r.body;
  if (!isObject(b)) throw format('the body must be a JSON object');
  const consentIds = idList(b.consentIds, 'consentIds');
  const paymentIds = idList(b.paymentIds, 'paymentIds');
  if (consentIds.length + paymentIds.length === 0) throw format('a signing basket names at least one consent or payment (consentIds, paymentIds)');
  const members: Array<BgConsent | BgPayment | undefined> = [...consentIds.map((id) => k.store.consents.get(id)), ...paymentIds.map((id) => k.store.payments.get(id))];
  const unknown = [...consentIds, ...paymentIds].filter((_, i) => !members[i]);
  if (unknown.length && !k.faults.has('bg-basket-unknown-member-accepted')) throw new BgError(400, 'RESOURCE_UNKNOWN', `the basket names what this bank does not know: ${unknown.join(', ')}`);
  const done = members.filter((m): m is BgConsent | BgPayment => m !== undefined && !pendingMember(m));
  if (done.length && !k.faults.has('bg-basket-authorised-member-accepted')) throw new BgError(409, 'REFERENCE_STATUS_INVALID', `already authorised (or rejected), so not for a basket: ${done.map((m) => m.id).join(', ')}`);
  const approach = approachWithoutOAuth(k, r, 'a signing basket');
  const basket: BgBasket = { kind: 'sbs', id: k.store.newId('basket'), approach, authorisations: [], created: new Date(k.store.now()), consentIds, paymentIds, transactionStatus: 'RCVD' };
  const self = `${r.base}/v1/signing-baskets/${basket.id}`;
  let links: Record<string, { href: string }>;
  if (explicitStart(r)) links = { startAuthorisation: { href: `${self}/authorisations` } };
  else {
    const a = newAuthorisation(k, r, approach);
    basket.authorisations.push(a);
    const href = `${self}/authorisations/${a.authorisationId}`;
    links = { ...scaLinks(k, a, href), scaStatus: { href } };
  }
  k.store.baskets.set(basket.id, basket);
  return {
    status: 201,
    headers: { Location: self, 'ASPSP-SCA-Approach': approachHeader(approach) },
    body: {
      transactionStatus: basket.transactionStatus, basketId: basket.id, _links: { ...links, self: { href: self }, status: { href: `${self}/status` } },
      ...(approach === 'DECOUPLED' && !explicitStart(r) ? { psuMessage: 'Please confirm the basket in your banking app.' } : {}),
    },
  };
}

function basketOf(k: Xs2aContext, r: Req): BgBasket {
  const basket = k.store.baskets.get(r.params.basketId);
  if (!basket) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such signing basket');
  return basket;
}

/** The basket's transactionStatus as read (the fault: RCVD for ever). */
const statusOf = (k: Xs2aContext, basket: BgBasket) => (k.faults.has('bg-basket-status-stays-rcvd') ? 'RCVD' : basket.transactionStatus);

function readBasket(k: Xs2aContext, r: Req): Reply {
  const basket = basketOf(k, r);
  const self = `${r.base}/v1/signing-baskets/${basket.id}`;
  const consents = k.faults.has('bg-basket-members-dropped') ? [] : basket.consentIds;
  return {
    status: 200,
    body: {
      ...(basket.paymentIds.length ? { payments: basket.paymentIds } : {}), ...(consents.length ? { consents } : {}),
      transactionStatus: statusOf(k, basket), _links: { self: { href: self }, status: { href: `${self}/status` } },
    },
  };
}

/** DELETE: only while no authorisation has been applied ("not deletable after a first (partial) authorisation"); the members stay as they are. */
function deleteBasket(k: Xs2aContext, r: Req): Reply {
  const basket = basketOf(k, r);
  // Naming the PSU (PSU-ID: psuIdentified) applies no authorisation yet.
  const applied = basket.transactionStatus !== 'RCVD' || basket.authorisations.some((a) => a.scaStatus !== 'received' && a.scaStatus !== 'psuIdentified');
  if (applied && !k.faults.has('bg-basket-deleted-after-authorisation')) throw new BgError(409, 'STATUS_INVALID', `the basket (${basket.transactionStatus}) has been authorised: it can no longer be deleted (cancel its payments one by one)`);
  k.store.baskets.delete(basket.id);
  return { status: 204 };
}

/** POST …/authorisations: a new authorisation of a basket still awaiting one, by the basket's approach. */
function startAuthorisation(k: Xs2aContext, r: Req): Reply {
  const basket = basketOf(k, r);
  if (basket.transactionStatus !== 'RCVD') throw new BgError(409, 'STATUS_INVALID', 'the basket is no longer awaiting authorisation');
  if (basket.approach === 'REDIRECT' && !header(r, 'TPP-Redirect-URI')) throw format('TPP-Redirect-URI is required: this basket is authorised on the bank\'s pages (redirect)', 'TPP-Redirect-URI');
  const a = newAuthorisation(k, r, basket.approach);
  basket.authorisations.push(a);
  const href = `${r.base}/v1/signing-baskets/${basket.id}/authorisations/${a.authorisationId}`;
  return {
    status: 201,
    headers: { Location: href, 'ASPSP-SCA-Approach': approachHeader(basket.approach) },
    body: { scaStatus: a.scaStatus, authorisationId: a.authorisationId, _links: { ...scaLinks(k, a, href), scaStatus: { href } } },
  };
}

function authorisationOf(k: Xs2aContext, r: Req) {
  const a = basketOf(k, r).authorisations.find((x) => x.authorisationId === r.params.authorisationId);
  if (!a) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such authorisation');
  return a;
}

/**
 * The PSU decided on the basket's page (pages.ts): approved, every member is authorised through
 * `authorise` (the pages' own approval of a consent or payment) and the basket reads ACTC; rejected,
 * every member is rejected and the basket reads RJCT. Answers what to tell the PSU when a member
 * cannot be authorised (nothing is applied then).
 */
export function basketDecided(
  ctx: { store: Xs2aContext['store']; faults: SwitchedFaults }, basket: BgBasket, psu: FixturePsu, approved: boolean,
  o: { mayAuthorise: (m: BgConsent | BgPayment) => string | undefined; authorise: (m: BgConsent | BgPayment) => void; reject: (m: BgConsent | BgPayment) => void },
): string | undefined {
  const members = [...basket.consentIds.map((id) => ctx.store.consents.get(id)), ...basket.paymentIds.map((id) => ctx.store.payments.get(id))].filter((m): m is BgConsent | BgPayment => m !== undefined);
  if (members.some((m) => !pendingMember(m))) return 'Something in this basket has been authorised or rejected meanwhile; the basket can no longer be authorised as a whole.';
  if (!approved) {
    members.forEach(o.reject);
    basket.transactionStatus = 'RJCT';
    basket.psu = psu.username;
    return undefined;
  }
  const problem = members.map(o.mayAuthorise).find((p) => p !== undefined);
  if (problem) return problem;
  // The fault: the basket's SCA does not reach its payments.
  for (const m of members) if (!(m.kind === 'pis' && ctx.faults.has('bg-basket-members-not-authorised'))) o.authorise(m);
  basket.transactionStatus = 'ACTC';
  basket.psu = psu.username;
  return undefined;
}

/** The routes of the signing baskets, in matching order. */
export const BASKET_ROUTES: BgRoute[] = [
  route(A, 'POST', '/v1/signing-baskets', createBasket, 'createSigningBasket'),
  route(A, 'GET', '/v1/signing-baskets/:basketId', readBasket, 'getSigningBasket'),
  route(A, 'DELETE', '/v1/signing-baskets/:basketId', deleteBasket, 'deleteSigningBasket'),
  route(A, 'GET', '/v1/signing-baskets/:basketId/status', (k, r) => ({ status: 200, body: { transactionStatus: statusOf(k, basketOf(k, r)) } }), 'getSigningBasketStatus'),
  route(A, 'POST', '/v1/signing-baskets/:basketId/authorisations', startAuthorisation, 'startSigningBasketAuthorisation'),
  route(A, 'GET', '/v1/signing-baskets/:basketId/authorisations', (k, r) => ({
    status: 200, body: { authorisationIds: k.faults.has('bg-basket-authorisations-unlisted') ? [] : basketOf(k, r).authorisations.map((a) => a.authorisationId) },
  }), 'listSigningBasketAuthorisations'),
  route(A, 'GET', '/v1/signing-baskets/:basketId/authorisations/:authorisationId', (k, r) => ({ status: 200, body: { scaStatus: authorisationOf(k, r).scaStatus } }), 'getSigningBasketScaStatus'),
  // PUT …/authorisations/{authorisationId} (the embedded SCA of a basket) is in sca-routes.ts.
];
