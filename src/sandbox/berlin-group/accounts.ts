/**
 * Account information (XS2A): accounts, balances, transactions (variant A: and their details),
 * read under a valid consent, with the faults that bend them.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import { accountDetails, balances, CURRENCY, ibanOf, isoDay, pendingTransactions, transaction } from './data.ts';
import type { BgConsent } from './store.ts';
import { consentOf } from './consents.ts';
import { AB, A, BgError, format, header, route, today, validDate, type BgRoute, type Reply, type Req, type Xs2aContext } from './plumbing.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const ACCOUNT_FAULTS = [
  { name: 'bg-unselected-accounts', rule: 'AIS-04', description: 'GET /v1/accounts lists, and data calls accept, every account of the PSU, not only those the PSU selected', kind: 'rule' },
  { name: 'bg-no-consent-id-data-access', rule: 'AIS-05', description: 'GET /v1/accounts without Consent-ID is answered with the most recent valid consent', kind: 'rule' },
  { name: 'bg-access-not-enforced', rule: 'AIS-09', description: 'balances and transactions are returned for every account of the consent, whatever its access names', kind: 'rule' },
  { name: 'bg-balance-amount-number', rule: 'AIS-11', description: 'balances carry balanceAmount.amount as a JSON number, not the standard\'s string', kind: 'rule' },
  { name: 'bg-deleted-consent-opens-data', rule: 'AIS-12', description: 'DELETE /v1/consents/{consentId} answers 204 and the consent reads terminatedByTpp, but it still opens the accounts', kind: 'rule' },
  { name: 'bg-frequency-not-enforced', rule: 'BG-05', description: 'accesses without the PSU (no PSU-IP-Address) are not counted against frequencyPerDay', kind: 'rule', level: 'SHOULD' },
  { name: 'bg-token-not-bound', rule: 'BG-07', description: 'under the OAuth2 SCA approach any AIS token opens any consent\'s accounts (the token is not checked against Consent-ID)', kind: 'rule' },
  { name: 'bg-transactions-date-to-ignored', rule: 'BG-09', description: 'GET …/transactions ignores dateTo: every booked transaction since dateFrom is returned', kind: 'rule' },
  { name: 'bg-entry-reference-from-ignored', rule: 'BG-53', description: 'GET …/transactions?entryReferenceFrom=X returns every booked transaction, X and those before it too', kind: 'rule' },
  { name: 'bg-account-pages-repeat', rule: 'BG-32', description: 'a paged account report (GET /v1/accounts/{account-id}/transactions over a long period) answers every page after the first, reached by `_links.next`, with the first page\'s transactions', kind: 'rule' },
  { name: 'bg-delta-list-repeats', rule: 'BG-54', description: 'GET …/transactions?deltaList=true returns every booked transaction again, also those already reported', kind: 'rule' },
  { name: 'bg-available-accounts-open-data', rule: 'BG-33', description: 'a consent to the available accounts (availableAccounts) opens their balances and transactions too', kind: 'rule' },
  { name: 'bg-with-balance-unbounded', rule: 'BG-31', description: 'GET /v1/accounts?withBalance=true shows every account\'s balances, though the consent gives no access to them', kind: 'rule' },
  { name: 'bg-booking-status-ignored', rule: 'BG-21', description: 'GET …/transactions ignores bookingStatus: booked and pending transactions come back whatever was asked', kind: 'rule' },
  { name: 'bg-one-off-consent-reusable', rule: 'BG-52', description: 'a one-off consent (recurringIndicator false) serves a new access session after its accounts, balances and transactions were read (it never expires)', kind: 'rule', level: 'SHOULD' },
  { name: 'bg-rejected-consent-opens-data', rule: 'SEC-04', description: 'a consent the PSU rejected reads "rejected" but opens the accounts the PSU was offered', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

/** The valid consent of a data call (accounts and card accounts); under OAuth SCA the token must be for that consent. */
export async function dataConsent(k: Xs2aContext, r: Req, path: string): Promise<BgConsent> {
  const { store, faults } = k;
  let id = header(r, 'Consent-ID');
  if (!id && faults.has('bg-no-consent-id-data-access')) id = [...store.consents.values()].reverse().find((x) => store.refresh(x).status === 'valid')?.id;
  if (!id) throw format('Consent-ID is required', 'Consent-ID');
  const c = consentOf(k, id, 'header');
  if (c.status === 'expired') throw new BgError(401, 'CONSENT_EXPIRED', 'the consent has expired');
  const opens = c.status === 'valid'
    || (faults.has('bg-deleted-consent-opens-data') && c.status === 'terminatedByTpp')
    || (faults.has('bg-rejected-consent-opens-data') && c.status === 'rejected');
  if (!opens) throw new BgError(401, 'CONSENT_INVALID', `the consent is ${c.status}, not valid`);
  if (c.status === 'rejected') {
    // The rejected-consent fault: everything the PSU was offered opens.
    const all = store.psu(c.psu)?.accounts.map((a) => a.AccountId) ?? [];
    c.covered = { accounts: all, balances: all, transactions: all };
  }
  if (faults.has('bg-unselected-accounts') && c.psu) {
    const all = store.psu(c.psu)?.accounts.map((a) => a.AccountId) ?? [];
    c.covered = { accounts: all, balances: c.covered.balances.length ? all : [], transactions: c.covered.transactions.length ? all : [] };
  }
  if (c.approach === 'OAUTH') await requireToken(k, r, `AIS:${c.id}`);
  // "false, if the consent is for one access": this bank's access session of a one-off consent ends
  // when the account list is read again after its balances or transactions were: a new access.
  if (!c.recurringIndicator && c.oneOffUsed && (path === '/accounts' || path === '/card-accounts') && !faults.has('bg-one-off-consent-reusable')) {
    c.status = 'expired';
    throw new BgError(401, 'CONSENT_EXPIRED', 'a one-off consent gives one access: its access session is over');
  }
  // frequencyPerDay bounds the accesses without the PSU (no PSU-IP-Address), per resource and day.
  // A further page of a report (its _links' page=N) goes on the access that read the first: this
  // bank counts the report once, not its pages.
  const furtherPage = /^[2-9]|^[1-9][0-9]/.test(r.query.get('page') ?? '');
  if (!header(r, 'PSU-IP-Address') && !furtherPage && !faults.has('bg-frequency-not-enforced')) {
    const key = `${c.id} ${path} ${today(k)}`;
    const n = (store.accesses.get(key) ?? 0) + 1;
    if (n > c.frequencyPerDay) throw new BgError(429, 'ACCESS_EXCEEDED', `frequencyPerDay (${c.frequencyPerDay}) reached for this resource today`);
    store.accesses.set(key, n);
  }
  c.lastActionDate = today(k);
  return c;
}

/** A one-off consent whose session has read balances or transactions (see dataConsent). */
export function markOneOffUsed(c: BgConsent): void {
  if (!c.recurringIndicator) c.oneOffUsed = true;
}

async function requireToken(k: Xs2aContext, r: Req, scope: string): Promise<void> {
  const m = /^(Bearer|DPoP)\s+(\S+)$/i.exec(header(r, 'Authorization') ?? '');
  if (!m) throw new BgError(401, 'TOKEN_INVALID', 'this resource was authorised by OAuth2: an access token is required');
  const token = await k.provider.AccessToken.find(m[2]!);
  if (!token || token.isExpired) throw new BgError(401, 'TOKEN_INVALID', 'the access token is invalid or has expired');
  // RFC 9449: a DPoP-bound token only as `DPoP`, with a proof of its key for this request.
  const jkt = (token as { jkt?: string }).jkt;
  if (jkt) {
    if (m[1]!.toLowerCase() !== 'dpop' || !k.dpop || !r.url) throw new BgError(401, 'TOKEN_INVALID', 'the access token is DPoP-bound: send it as Authorization: DPoP with a proof');
    try {
      await k.dpop.check({ method: r.method, headers: r.headers } as never, r.url, m[2]!, jkt);
    } catch (error) {
      throw new BgError(401, 'TOKEN_INVALID', (error as Error).message);
    }
  } else if (m[1]!.toLowerCase() === 'dpop') throw new BgError(401, 'TOKEN_INVALID', 'the access token is not DPoP-bound');
  const scopes = String(token.scope ?? '').split(' ');
  const unbound = k.faults.has('bg-token-not-bound') && scopes.some((s) => s.startsWith(scope.split(':')[0] + ':'));
  if (!scopes.includes(scope) && !unbound) throw new BgError(401, 'TOKEN_INVALID', `the access token is not for ${scope}`);
}

function coveredAccount(k: Xs2aContext, c: BgConsent, accountId: string, service: 'accounts' | 'balances' | 'transactions') {
  const found = k.store.account(accountId);
  if (!found || !c.covered.accounts.includes(accountId)) throw new BgError(403, 'RESOURCE_UNKNOWN', 'the account is not addressable under this consent');
  const globalBent = k.faults.has('bg-available-accounts-open-data') && c.access.availableAccounts !== undefined;
  if (!c.covered[service].includes(accountId) && !k.faults.has('bg-access-not-enforced') && !globalBent) throw new BgError(401, 'CONSENT_INVALID', `the consent gives no access to the ${service} of this account`);
  if (service !== 'accounts') markOneOffUsed(c);
  return found;
}

function accountView(k: Xs2aContext, r: Req, c: BgConsent, accountId: string, withBalance: boolean): Record<string, unknown> {
  const { psu, account } = k.store.account(accountId)!;
  const self = `${r.base}/v1/accounts/${accountId}`;
  const links: Record<string, { href: string }> = {};
  if (c.covered.balances.includes(accountId)) links.balances = { href: `${self}/balances` };
  if (c.covered.transactions.includes(accountId)) links.transactions = { href: `${self}/transactions` };
  const out: Record<string, unknown> = { ...accountDetails(psu, account) };
  if (withBalance && (c.covered.balances.includes(accountId) || k.faults.has('bg-with-balance-unbounded'))) out.balances = balances(account, new Date(k.store.now()));
  if (Object.keys(links).length) out._links = links;
  return out;
}

function withBalanceOf(r: Req): boolean {
  const v = r.query.get('withBalance');
  if (v !== null && v !== 'true' && v !== 'false') throw format('withBalance must be true or false', 'withBalance');
  return v === 'true';
}

async function listAccounts(k: Xs2aContext, r: Req): Promise<Reply> {
  const withBalance = withBalanceOf(r);
  const c = await dataConsent(k, r, '/accounts');
  return { status: 200, body: { accounts: c.covered.accounts.map((id) => accountView(k, r, c, id, withBalance)) } };
}

async function getAccount(k: Xs2aContext, r: Req): Promise<Reply> {
  const withBalance = withBalanceOf(r);
  const c = await dataConsent(k, r, `/accounts/${r.params.accountId}`);
  coveredAccount(k, c, r.params.accountId, 'accounts');
  return { status: 200, body: { account: accountView(k, r, c, r.params.accountId, withBalance) } };
}

async function getBalances(k: Xs2aContext, r: Req): Promise<Reply> {
  const c = await dataConsent(k, r, `/accounts/${r.params.accountId}/balances`);
  const { account } = coveredAccount(k, c, r.params.accountId, 'balances');
  const list = balances(account, new Date(k.store.now()));
  const shown = k.faults.has('bg-balance-amount-number')
    ? list.map((b) => {
      const amount = b.balanceAmount as { currency: string; amount: string };
      return { ...b, balanceAmount: { ...amount, amount: Number(amount.amount) } };
    })
    : list;
  return { status: 200, body: { account: { iban: ibanOf(account), currency: CURRENCY }, balances: shown } };
}

/** The query of a transaction report: bookingStatus, the period or a delta report, checked (standing orders are not offered). */
function reportQuery(r: Req): { bookingStatus: string; dateFrom: string | null; dateTo: string | null; entryReferenceFrom: string | null; deltaList: boolean } {
  const bookingStatus = r.query.get('bookingStatus');
  if (!bookingStatus) throw format('the query parameter bookingStatus is required', 'bookingStatus');
  if (!['booked', 'pending', 'both', 'all', 'information'].includes(bookingStatus)) throw format('bookingStatus must be booked, pending, both, information or all', 'bookingStatus');
  if (bookingStatus === 'information') throw new BgError(400, 'PARAMETER_NOT_SUPPORTED', 'standing orders (bookingStatus information) are not offered', 'bookingStatus');
  const entryReferenceFrom = r.query.get('entryReferenceFrom');
  const deltaList = r.query.get('deltaList');
  if (deltaList !== null && deltaList !== 'true' && deltaList !== 'false') throw format('deltaList must be true or false', 'deltaList');
  if (entryReferenceFrom !== null && deltaList === 'true') throw new BgError(400, 'PARAMETER_NOT_CONSISTENT', 'entryReferenceFrom and deltaList are two kinds of delta report: ask for one', 'deltaList');
  if (entryReferenceFrom === '') throw format('entryReferenceFrom must name a transaction\'s entryReference', 'entryReferenceFrom');
  const delta = entryReferenceFrom !== null || deltaList === 'true';
  const dateFrom = r.query.get('dateFrom');
  const dateTo = r.query.get('dateTo');
  if (!dateFrom && !delta) throw format('dateFrom is required (no delta report is asked for)', 'dateFrom');
  if (dateFrom && !validDate(dateFrom)) throw format('dateFrom must be an ISODate (YYYY-MM-DD)', 'dateFrom');
  if (dateTo !== null && !validDate(dateTo)) throw format('dateTo must be an ISODate (YYYY-MM-DD)', 'dateTo');
  if (dateTo !== null && dateFrom && dateTo < dateFrom) throw new BgError(400, 'PERIOD_INVALID', 'dateTo is before dateFrom', 'dateTo');
  return { bookingStatus, dateFrom: dateFrom || null, dateTo, entryReferenceFrom, deltaList: deltaList === 'true' };
}

/** The booked transactions each PSU's account has reported so far (transactionIds), for deltaList ("after the last report access for this PSU on the addressed account"). */
const reported = new WeakMap<Xs2aContext['store'], Map<string, Set<string>>>();
function reportedOf(k: Xs2aContext, c: BgConsent, accountId: string): Set<string> {
  let byAccount = reported.get(k.store);
  if (!byAccount) reported.set(k.store, (byAccount = new Map()));
  const key = `${c.psu} ${accountId}`;
  let ids = byAccount.get(key);
  if (!ids) byAccount.set(key, (ids = new Set()));
  return ids;
}

/**
 * Booked transactions per page of a period report: a longer one (more than this in its period,
 * e.g. a year of a current account) is paged by `_links.next`, newest first; a page never splits a
 * booking day. Delta reports come whole.
 */
export const ACCOUNT_PAGE_SIZE = 100;

/** The report's pages, newest first, each at least ACCOUNT_PAGE_SIZE long but the last, a day never split. */
function pagesOf<T extends { booking: Date }>(newestFirst: T[]): T[][] {
  const pages: T[][] = [[]];
  for (const t of newestFirst) {
    const page = pages.at(-1)!;
    if (page.length >= ACCOUNT_PAGE_SIZE && isoDay(page.at(-1)!.booking) !== isoDay(t.booking)) pages.push([t]);
    else page.push(t);
  }
  return pages;
}

async function listTransactions(k: Xs2aContext, r: Req): Promise<Reply> {
  const { bookingStatus, dateFrom, dateTo, entryReferenceFrom, deltaList } = reportQuery(r);
  const withBalance = withBalanceOf(r);
  const c = await dataConsent(k, r, `/accounts/${r.params.accountId}/transactions`);
  const { account } = coveredAccount(k, c, r.params.accountId, 'transactions');
  const self = `${r.base}/v1/accounts/${account.AccountId}`;
  const chronological = [...account.transactions].sort((a, b) => a.booking.getTime() - b.booking.getTime());
  let chosen: typeof chronological;
  const seen = reportedOf(k, c, account.AccountId);
  if (entryReferenceFrom !== null) {
    // "All transactions after the transaction with identification entryReferenceFrom" (the period is then ignored).
    const at = chronological.findIndex((t) => t.reference === entryReferenceFrom);
    if (at < 0) throw new BgError(400, 'FORMAT_ERROR', 'entryReferenceFrom names no transaction of this account', 'entryReferenceFrom');
    chosen = k.faults.has('bg-entry-reference-from-ignored') ? chronological : chronological.slice(at + 1);
  } else if (deltaList) {
    // "All transactions after the last report access for this PSU on the addressed account".
    chosen = k.faults.has('bg-delta-list-repeats') ? chronological : chronological.filter((t) => !seen.has(t.TransactionId));
  } else {
    chosen = chronological.filter((t) => isoDay(t.booking) >= dateFrom! && (dateTo === null || k.faults.has('bg-transactions-date-to-ignored') || isoDay(t.booking) <= dateTo));
  }
  // A period report longer than a page comes in pages (`page`: the bank's own parameter, opaque to the TPP); a delta report whole.
  const pageParam = r.query.get('page') ?? '1';
  if (!/^[1-9][0-9]{0,3}$/.test(pageParam)) throw format('page must be a page number this bank gave in _links', 'page');
  const page = Number(pageParam);
  const pages = entryReferenceFrom === null && !deltaList ? pagesOf(chosen.reverse()) : [chosen.reverse()];
  if (page > pages.length) throw format(`the report has ${pages.length} page(s)`, 'page');
  // The fault: every page after the first repeats the first.
  const shown = pages[k.faults.has('bg-account-pages-repeat') ? 0 : page - 1]!;
  if (bookingStatus !== 'pending') for (const t of shown) seen.add(t.TransactionId);
  const booked = shown.map((t) => transaction(t, r.variant === 'A' ? `${self}/transactions/${t.TransactionId}` : undefined));
  const links: Record<string, { href: string }> = { account: { href: self } };
  if (pages.length > 1) {
    const at = (n: number) => {
      const q = new URLSearchParams(r.query);
      q.set('page', String(n));
      return { href: `${self}/transactions?${q}` };
    };
    links.first = at(1);
    links.last = at(pages.length);
    if (page > 1) links.previous = at(page - 1);
    if (page < pages.length) links.next = at(page + 1);
  }
  const report: Record<string, unknown> = { _links: links };
  const pending = pendingTransactions(account, new Date(k.store.now()));
  const ignored = k.faults.has('bg-booking-status-ignored');
  // "both" (and "all": no standing orders here) is the booked and the pending lists together.
  if (bookingStatus !== 'pending' || ignored) report.booked = booked;
  // The pending transactions head the report: on its first page only.
  if ((bookingStatus !== 'booked' || ignored) && page === 1) report.pending = pending;
  return {
    status: 200,
    body: {
      account: { iban: ibanOf(account), currency: CURRENCY },
      transactions: report,
      ...(withBalance && c.covered.balances.includes(account.AccountId) ? { balances: balances(account, new Date(k.store.now())) } : {}),
    },
  };
}

async function getTransaction(k: Xs2aContext, r: Req): Promise<Reply> {
  const c = await dataConsent(k, r, `/accounts/${r.params.accountId}/transactions/${r.params.transactionId}`);
  const { account } = coveredAccount(k, c, r.params.accountId, 'transactions');
  const t = account.transactions.find((x) => x.TransactionId === r.params.transactionId);
  if (!t) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such transaction on this account');
  const { _links: _l, ...details } = transaction(t);
  return { status: 200, body: { transactionsDetails: details } };
}

/** The routes of account information, in matching order. */
export const ACCOUNT_ROUTES: BgRoute[] = [
  route(AB, 'GET', '/v1/accounts', listAccounts, 'listAccounts'),
  route(AB, 'GET', '/v1/accounts/:accountId', getAccount, 'getAccount'),
  route(AB, 'GET', '/v1/accounts/:accountId/balances', getBalances, 'getBalances'),
  route(AB, 'GET', '/v1/accounts/:accountId/transactions', listTransactions, 'getTransactions'),
  route(A, 'GET', '/v1/accounts/:accountId/transactions/:transactionId', getTransaction, 'getTransaction'),
];
