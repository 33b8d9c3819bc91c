/**
 * Card accounts (XS2A, variants A and B): GET /v1/card-accounts, …/{account-id}, …/balances and
 * …/transactions, read under a valid consent that reaches them (by maskedPan, or a global form),
 * with the faults that bend them. A long booked report is paged by `_links.next` (CARD_PAGE_SIZE);
 * the delta reports (entryReferenceFrom, deltaList) are offered as on accounts.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import { dataConsent, markOneOffUsed } from './accounts.ts';
import { CARD_PAGE_SIZE, cardBalances, cardTransaction, CURRENCY, isoDay, type CardAccount, type CardPurchase } from './data.ts';
import type { BgConsent } from './store.ts';
import { AB, BgError, format, route, validDate, type BgRoute, type Reply, type Req, type Xs2aContext } from './plumbing.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const CARD_FAULTS = [
  { name: 'bg-card-pages-overlap', rule: 'BG-32', description: 'a paged card account report repeats the last transaction of each page at the top of the next (`_links.next` overlaps)', kind: 'rule' },
  { name: 'bg-card-accounts-unbounded', rule: 'BG-30', description: 'GET /v1/card-accounts lists, and card-account calls open, every card account of the PSU with its balances and transactions, whatever the consent names', kind: 'rule' },
  { name: 'bg-card-with-balance-unbounded', rule: 'BG-31', description: 'GET /v1/card-accounts?withBalance=true shows every card account\'s balances, though the consent gives no access to them', kind: 'rule' },
  { name: 'bg-card-booking-status-ignored', rule: 'BG-34', description: 'GET /v1/card-accounts/{account-id}/transactions ignores bookingStatus: booked and pending transactions come back whatever was asked', kind: 'rule' },
  { name: 'bg-card-dates-ignored', rule: 'BG-35', description: 'GET /v1/card-accounts/{account-id}/transactions ignores dateFrom and dateTo: every transaction of the last 90 days comes back', kind: 'rule' },
  { name: 'bg-card-entry-reference-from-ignored', rule: 'BG-53', description: 'GET /v1/card-accounts/{account-id}/transactions?entryReferenceFrom=X returns every booked card transaction, X and those before it too', kind: 'rule' },
  { name: 'bg-card-delta-list-repeats', rule: 'BG-54', description: 'GET /v1/card-accounts/{account-id}/transactions?deltaList=true returns every booked card transaction again, also those already reported', kind: 'rule' },
  { name: 'bg-card-with-balance-ignored', rule: 'BG-36', description: 'GET /v1/card-accounts?withBalance=true never carries the balances, though the consent grants them', kind: 'rule', level: 'SHOULD' },
] as const satisfies readonly FaultDeclaration[];

type Service = keyof BgConsent['cards'];

/** The card accounts the consent reaches for a service (every one of the PSU's under the fault). */
function reached(k: Xs2aContext, c: BgConsent, service: Service): string[] {
  if (k.faults.has('bg-card-accounts-unbounded')) return k.store.cardsOf(c.psu).map((x) => x.id);
  return c.cards[service];
}

/** The card account of the path, when the consent reaches it for the service (as coveredAccount does for accounts). */
function coveredCard(k: Xs2aContext, c: BgConsent, id: string, service: Service): CardAccount {
  const found = k.store.card(id);
  if (!found || found.psu.username !== c.psu || !reached(k, c, 'accounts').includes(id)) throw new BgError(403, 'RESOURCE_UNKNOWN', 'the card account is not addressable under this consent');
  if (!reached(k, c, service).includes(id)) throw new BgError(401, 'CONSENT_INVALID', `the consent gives no access to the ${service} of this card account`);
  if (service !== 'accounts') markOneOffUsed(c);
  return found.card;
}

/** The withBalance query parameter (card accounts as accounts: "including the booking balance, if granted by the PSU in the related consent"). */
function withBalanceOf(r: Req): boolean {
  const v = r.query.get('withBalance');
  if (v !== null && v !== 'true' && v !== 'false') throw format('withBalance must be true or false', 'withBalance');
  return v === 'true';
}

function cardView(k: Xs2aContext, r: Req, c: BgConsent, card: CardAccount, withBalance = false): Record<string, unknown> {
  const self = `${r.base}/v1/card-accounts/${card.id}`;
  const links: Record<string, { href: string }> = {};
  if (reached(k, c, 'balances').includes(card.id)) links.balances = { href: `${self}/balances` };
  if (reached(k, c, 'transactions').includes(card.id)) links.transactions = { href: `${self}/transactions` };
  const psuName = k.store.psu(c.psu)?.name;
  return {
    resourceId: card.id, maskedPan: card.maskedPan, currency: CURRENCY, ...(psuName ? { ownerName: psuName } : {}), name: card.name, product: card.product,
    debitAccounting: false, status: 'enabled', usage: 'PRIV', creditLimit: { currency: CURRENCY, amount: (card.creditLimitMinor / 100).toFixed(2) },
    ...(shownBalance(k, c, card, withBalance) ? { balances: cardBalances(card, new Date(k.store.now())) } : {}),
    ...(Object.keys(links).length ? { _links: links } : {}),
  };
}

/** Whether a card account's view carries its balances: asked (withBalance) and granted (the consent reaches them); the faults bend both. */
function shownBalance(k: Xs2aContext, c: BgConsent, card: CardAccount, withBalance: boolean): boolean {
  if (!withBalance || k.faults.has('bg-card-with-balance-ignored')) return false;
  return k.faults.has('bg-card-with-balance-unbounded') || reached(k, c, 'balances').includes(card.id);
}

async function listCardAccounts(k: Xs2aContext, r: Req): Promise<Reply> {
  const withBalance = withBalanceOf(r);
  const c = await dataConsent(k, r, '/card-accounts');
  const ids = reached(k, c, 'accounts');
  const cards = k.store.cardsOf(c.psu).filter((x) => ids.includes(x.id));
  return { status: 200, body: { cardAccounts: cards.map((card) => cardView(k, r, c, card, withBalance)) } };
}

async function getCardAccount(k: Xs2aContext, r: Req): Promise<Reply> {
  const withBalance = withBalanceOf(r);
  const c = await dataConsent(k, r, `/card-accounts/${r.params.accountId}`);
  return { status: 200, body: { cardAccount: cardView(k, r, c, coveredCard(k, c, r.params.accountId, 'accounts'), withBalance) } };
}

async function getCardBalances(k: Xs2aContext, r: Req): Promise<Reply> {
  const c = await dataConsent(k, r, `/card-accounts/${r.params.accountId}/balances`);
  const card = coveredCard(k, c, r.params.accountId, 'balances');
  return { status: 200, body: { cardAccount: { maskedPan: card.maskedPan }, debitAccounting: false, balances: cardBalances(card, new Date(k.store.now())) } };
}

async function getCardTransactions(k: Xs2aContext, r: Req): Promise<Reply> {
  const q = cardReportQuery(r);
  const c = await dataConsent(k, r, `/card-accounts/${r.params.accountId}/transactions`);
  const card = coveredCard(k, c, r.params.accountId, 'transactions');
  const today = new Date(k.store.now());
  const seen = reportedCards(k, c, card.id);
  const inPeriod = purchasesAsked(k, card, q, seen, today);
  const links: Record<string, { href: string }> = { cardAccount: { href: `${r.base}/v1/card-accounts/${card.id}` } };
  const report: Record<string, unknown> = { _links: links };
  // Newest first; a delta report comes whole (one page).
  const booked = q.delta ? inPeriod.filter((p) => p.booked).reverse() : inPeriod.filter((p) => p.booked).sort((a, b) => a.daysAgo - b.daysAgo);
  const { page, shown } = bookedPage(k, r, card, booked, q.delta, links);
  const ignored = k.faults.has('bg-card-booking-status-ignored');
  if (q.bookingStatus !== 'pending' || ignored) {
    report.booked = shown.map((p) => cardTransaction(card, p, today));
    for (const p of shown) seen.add(p.id);
  }
  // The pending transactions head the report: on its first page only.
  if ((q.bookingStatus !== 'booked' || ignored) && page === 1) report.pending = inPeriod.filter((p) => !p.booked).map((p) => cardTransaction(card, p, today));
  return { status: 200, body: { cardAccount: { maskedPan: card.maskedPan }, debitAccounting: false, cardTransactions: report } };
}

/** What a card report asks, checked before the consent is: the booking status, a delta report (entryReferenceFrom or deltaList) or a period. */
interface CardReportQuery { bookingStatus: string; entryReferenceFrom: string | null; deltaList: boolean; delta: boolean; dateFrom: string | null; dateTo: string | null }

function cardReportQuery(r: Req): CardReportQuery {
  const bookingStatus = r.query.get('bookingStatus');
  if (!bookingStatus) throw format('the query parameter bookingStatus is required', 'bookingStatus');
  if (!['booked', 'pending', 'both', 'all'].includes(bookingStatus)) throw format('bookingStatus must be booked, pending, both or all for a card account', 'bookingStatus');
  // The delta reports, as on accounts: entryReferenceFrom names a card transaction (its cardTransactionId, the card report's identification).
  const entryReferenceFrom = r.query.get('entryReferenceFrom');
  const deltaParam = r.query.get('deltaList');
  if (deltaParam !== null && deltaParam !== 'true' && deltaParam !== 'false') throw format('deltaList must be true or false', 'deltaList');
  const deltaList = deltaParam === 'true';
  if (entryReferenceFrom !== null && deltaList) throw new BgError(400, 'PARAMETER_NOT_CONSISTENT', 'entryReferenceFrom and deltaList are two kinds of delta report: ask for one', 'deltaList');
  if (entryReferenceFrom === '') throw format('entryReferenceFrom must name a card transaction\'s cardTransactionId', 'entryReferenceFrom');
  const delta = entryReferenceFrom !== null || deltaList;
  const dateFrom = r.query.get('dateFrom');
  const dateTo = r.query.get('dateTo');
  if (!delta && (!dateFrom || !validDate(dateFrom))) throw format('dateFrom is required (no delta report is asked for) and must be an ISODate (YYYY-MM-DD)', 'dateFrom');
  if (dateFrom && !validDate(dateFrom)) throw format('dateFrom must be an ISODate (YYYY-MM-DD)', 'dateFrom');
  if (dateTo !== null && !validDate(dateTo)) throw format('dateTo must be an ISODate (YYYY-MM-DD)', 'dateTo');
  return { bookingStatus, entryReferenceFrom, deltaList, delta, dateFrom, dateTo };
}

/** The card's purchases the report covers: after entryReferenceFrom, those not reported yet (deltaList), or those of the period. */
function purchasesAsked(k: Xs2aContext, card: CardAccount, q: CardReportQuery, seen: Set<string>, today: Date): CardPurchase[] {
  // Oldest first; a day's purchases in the order of their ids.
  const chronological = card.purchases.filter((p) => p.booked).sort((a, b) => b.daysAgo - a.daysAgo || a.id.localeCompare(b.id));
  if (q.entryReferenceFrom !== null) {
    // "All transactions after the transaction with identification entryReferenceFrom" (the period is then ignored).
    const at = chronological.findIndex((p) => p.id === q.entryReferenceFrom);
    if (at < 0) throw new BgError(400, 'FORMAT_ERROR', 'entryReferenceFrom names no booked transaction of this card account', 'entryReferenceFrom');
    return k.faults.has('bg-card-entry-reference-from-ignored') ? chronological : chronological.slice(at + 1);
  }
  if (q.deltaList) {
    // "All transactions after the last report access for this PSU on the addressed account".
    return k.faults.has('bg-card-delta-list-repeats') ? chronological : chronological.filter((p) => !seen.has(p.id));
  }
  return card.purchases.filter((p) => {
    const day = isoDay(new Date(today.getTime() - p.daysAgo * 86_400_000));
    // The fault: the period asked is not applied (the bank's 90 days are).
    if (k.faults.has('bg-card-dates-ignored')) return p.daysAgo <= 90;
    return day >= q.dateFrom! && (q.dateTo === null || day <= q.dateTo);
  });
}

/** The page of booked transactions asked for, and the report's links to the others when there are several. */
function bookedPage(k: Xs2aContext, r: Req, card: CardAccount, booked: CardPurchase[], delta: boolean, links: Record<string, { href: string }>): { page: number; shown: CardPurchase[] } {
  const pageSize = delta ? Math.max(1, booked.length) : CARD_PAGE_SIZE;
  // A long booked list comes in pages of CARD_PAGE_SIZE, newest first; `page` is the bank's own parameter, opaque to the TPP.
  const pageParam = r.query.get('page') ?? '1';
  if (!/^[1-9][0-9]{0,3}$/.test(pageParam)) throw format('page must be a page number this bank gave in _links', 'page');
  const page = Number(pageParam);
  const pages = Math.max(1, Math.ceil(booked.length / pageSize));
  if (page > pages) throw new BgError(400, 'FORMAT_ERROR', `the report has ${pages} page(s)`, 'page');
  const overlap = k.faults.has('bg-card-pages-overlap') && page > 1 ? 1 : 0;
  const shown = booked.slice((page - 1) * pageSize - overlap, page * pageSize);
  if (pages > 1) {
    const at = (n: number) => {
      const q = new URLSearchParams(r.query);
      q.set('page', String(n));
      return { href: `${r.base}/v1/card-accounts/${card.id}/transactions?${q}` };
    };
    links.first = at(1);
    links.last = at(pages);
    if (page > 1) links.previous = at(page - 1);
    if (page < pages) links.next = at(page + 1);
  }
  return { page, shown };
}

/** The booked card transactions each PSU's card account has reported so far, for deltaList (as reportedOf for accounts). */
const reported = new WeakMap<Xs2aContext['store'], Map<string, Set<string>>>();
function reportedCards(k: Xs2aContext, c: BgConsent, cardId: string): Set<string> {
  let byCard = reported.get(k.store);
  if (!byCard) reported.set(k.store, (byCard = new Map()));
  const key = `${c.psu} ${cardId}`;
  let ids = byCard.get(key);
  if (!ids) byCard.set(key, (ids = new Set()));
  return ids;
}

/** The routes of card accounts, in matching order. */
export const CARD_ROUTES: BgRoute[] = [
  route(AB, 'GET', '/v1/card-accounts', listCardAccounts, 'listCardAccounts'),
  route(AB, 'GET', '/v1/card-accounts/:accountId', getCardAccount, 'getCardAccount'),
  route(AB, 'GET', '/v1/card-accounts/:accountId/balances', getCardBalances, 'getCardBalances'),
  route(AB, 'GET', '/v1/card-accounts/:accountId/transactions', getCardTransactions, 'getCardTransactions'),
];
