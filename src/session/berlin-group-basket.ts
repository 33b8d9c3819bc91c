/**
 * The terminal client's signing baskets (NextGenPSD2 `/v1/signing-baskets`): the TPP gathers
 * consents and payments it created, and one SCA of the PSU authorises them all. The basket's SCA
 * goes by the profile's first approach of redirect, decoupled and embedded (a basket has no OAuth2
 * scope of its own), with the same walks as a consent's or a payment's.
 */
import { BankError, UsageError } from '../errors.ts';
import type { ApiResult, CallOptions } from '../client/operations.ts';
import { basketIdOf, bgHeaders, buildSigningBasket, linkOf, transactionStatusOf } from '../dialects/berlin-group/builders.ts';
import type { BasketRecord } from './state.ts';
import type { AuthoriseOutcome, AuthoriseRequest, Session } from './index.ts';
import { bare, creationHeaders, psuOf, redirectJourney, refreshBgStatuses, scaLinkOf, type Approach } from './berlin-group.ts';
import { authorisationOps, type AuthorisationOps } from './berlin-group-authorisations.ts';

/** The approach a basket's SCA asks for: the profile's first that is not OAuth2. */
function basketApproach(session: Session): Exclude<Approach, 'oauth'> {
  const offered = session.profile.sca?.approaches ?? ['redirect'];
  const approach = offered.find((a): a is Exclude<Approach, 'oauth'> => a !== 'oauth');
  if (!approach) throw new UsageError(`a signing basket has no OAuth2 scope of its own, and the profile's sca.approaches offers only ${offered.join(', ')}`, { hint: 'add redirect, decoupled or embedded to sca.approaches, as the bank offers them' });
  return approach;
}

/** The basket's authorisation sub-resource. */
function operations(session: Session, id: string): AuthorisationOps {
  return authorisationOps(session.client, 'basket', id);
}

/** The basket to act on: the id given (known to this session or not: the bank decides), or the current one. */
export async function basketOf(session: Session, id: string | undefined): Promise<BasketRecord> {
  const ps = await session.read();
  const chosen = id ?? ps.current.basket;
  if (!chosen) throw new UsageError('no signing basket yet: obtpp basket create ID… (consents and payments of this session) makes one');
  return ps.baskets?.[chosen] ?? { id: chosen, status: 'unknown', createdAt: new Date(0).toISOString(), consentIds: [], paymentIds: [] };
}

/**
 * POST /v1/signing-baskets naming the consents and payments given (each known to the session, so
 * that obtpp can tell a consent from a payment); remembers the basket and its SCA link, makes it current.
 */
export async function createBgBasket(session: Session, ids: readonly string[]): Promise<{ result: ApiResult; basket: BasketRecord }> {
  if (ids.length === 0) throw new UsageError('basket create needs the consents and payments to put in it: obtpp basket create ID… (see obtpp consent list)');
  const known = (await session.read()).consents;
  const consentIds: string[] = [];
  const paymentIds: string[] = [];
  for (const id of new Set(ids)) {
    const r = known[id];
    if (!r) throw new UsageError(`${id}: no consent or payment of this session (obtpp consent list shows them)`);
    (r.fn === 'pis' ? paymentIds : consentIds).push(id);
  }
  const approach = basketApproach(session);
  const result = session.check(await session.client.createSigningBasket(buildSigningBasket({ consentIds, paymentIds }), bare(creationHeaders(session, approach))), [201]);
  const id = basketIdOf(result.body);
  if (!id) throw new BankError(result.status, `the bank answered the signing basket with ${result.status} but no basketId`, { exchange: result.exchange });
  const link = scaLinkOf(result, approach);
  const basket: BasketRecord = {
    id, status: transactionStatusOf(result.body) ?? 'unknown', createdAt: new Date().toISOString(), consentIds, paymentIds, ...(link ? { sca: { approach, ...link } } : {}),
  };
  await remember(session, basket);
  return { result, basket };
}

async function remember(session: Session, basket: BasketRecord): Promise<void> {
  await session.update((s) => {
    s.baskets ??= Object.create(null) as Record<string, BasketRecord>;
    s.baskets[basket.id] = basket;
    s.current.basket = basket.id;
  });
}

/** GET /v1/signing-baskets/{basketId} or its /status; the status remembered. */
export async function readBgBasket(session: Session, basket: BasketRecord, what: 'basket' | 'status'): Promise<ApiResult> {
  const o = bare(bgHeaders());
  const result = session.check(what === 'status' ? await session.client.getSigningBasketStatus(basket.id, o) : await session.client.getSigningBasket(basket.id, o), [200]);
  const status = transactionStatusOf(result.body);
  if (status) {
    await session.update((s) => {
      const b = s.baskets?.[basket.id];
      if (b) b.status = status;
    });
  }
  return result;
}

/** DELETE /v1/signing-baskets/{basketId} (only before its authorisation: the bank refuses it after); forgotten once deleted. */
export async function deleteBgBasket(session: Session, basket: BasketRecord): Promise<ApiResult> {
  const result = session.check(await session.client.deleteSigningBasket(basket.id, bare(bgHeaders())), [204, 200]);
  await session.update((s) => {
    if (s.baskets) delete s.baskets[basket.id];
    if (s.current.basket === basket.id) delete s.current.basket;
  });
  return result;
}

/** The outcome of a basket's SCA. */
export type BasketOutcome = { basketId: string; status: AuthoriseOutcome['status']; transactionStatus: string; by?: 'psu' | 'bank'; description?: string };

/**
 * The PSU's one SCA of the basket: redirect (the scaRedirect page, after starting the
 * authorisation where the bank leaves that to the TPP), decoupled or embedded (as a consent's).
 * The basket's status then says the outcome, and its members' statuses are read afresh.
 */
export async function authoriseBgBasket(session: Session, basket: BasketRecord, request: AuthoriseRequest): Promise<BasketOutcome> {
  const sca = basket.sca;
  if (!sca) throw new UsageError(`signing basket ${basket.id} carries no SCA link obtpp knows of (created by another tool?): create one with obtpp basket create`);
  const ops = operations(session, basket.id);
  let scaStatus: string | undefined;
  if (sca.approach === 'decoupled' || sca.approach === 'embedded') {
    const { walkInApp } = await import('./berlin-group-sca.ts');
    const psu = psuOf(session, request.inApp?.psuId, request.inApp?.password);
    scaStatus = (await walkInApp(session, { id: basket.id, label: 'the signing basket', sca, ops }, { log: request.log, ...request.inApp, ...(psu.password ? { password: psu.password } : {}) })).scaStatus;
  } else {
    const psu = psuOf(session, request.inApp?.psuId, request.inApp?.password);
    let page = sca.href;
    if (sca.start) {
      const started = session.check(await ops.start({}, bare({ ...creationHeaders(session, 'redirect'), 'PSU-ID': psu.username })), [201]);
      const href = linkOf(started.body, 'scaRedirect', started.exchange.url);
      if (!href) throw new BankError(started.status, `the bank started the authorisation of signing basket ${basket.id} but gave no scaRedirect page`, { exchange: started.exchange });
      page = href;
    }
    await redirectJourney(session, page, psu, request);
  }
  const status = transactionStatusOf((await readBgBasket(session, basket, 'status')).body) ?? 'unknown';
  await refreshBgStatuses(session);
  const authorised = !['RJCT', 'CANC', 'RCVD', 'unknown'].includes(status) && scaStatus !== 'failed';
  if (authorised) return { basketId: basket.id, status: 'authorised', transactionStatus: status };
  const byPsu = request.reject === true || scaStatus === 'failed';
  return { basketId: basket.id, status: 'rejected', transactionStatus: status, by: byPsu ? 'psu' : 'bank', description: `the signing basket's status is ${status}${scaStatus ? ` (the SCA ended ${scaStatus})` : ''}` };
}
