/**
 * The terminal client's Berlin Group path (NextGenPSD2 XS2A 1.3.x, preview): create an
 * account-information consent, have the PSU authorise it (SCA by redirect: the bank's scaRedirect
 * page in Chromium; by OAuth2: the authorisation server with the consent in the scope), and list
 * the accounts. Requests go through the same tpp client; bodies and headers come from the
 * berlin-group dialect.
 */
import { BankError, UsageError } from '../errors.ts';
import type { ApiResult } from '../client/operations.ts';
import { TppClient, type CallOptions } from '../client/operations.ts';
import {
  accountsOf, bgHeaders, buildFundsConfirmation, consentIdOf, consentStatusOf, linkOf, paymentIdOf, transactionStatusOf, transactionsQuery,
  type BookingStatus, type ConsentRequestBody,
} from '../dialects/berlin-group/builders.ts';
import type { AccountSummary, ConsentRecord } from './state.ts';
import type { AuthoriseOutcome, AuthoriseRequest, Session } from './index.ts';
import { beginningLinkOf, startLinkOf } from './berlin-group-sca-walk.ts';
import { paymentClient, type PaymentPlace } from './berlin-group-paths.ts';
import { creationHeaders as headersOfCreate, postConsent, type Approach } from './berlin-group-create.ts';
import { authorisationOps } from './berlin-group-authorisations.ts';

export { paymentClient, type PaymentPlace, type PaymentService } from './berlin-group-paths.ts';
export type { Approach } from './berlin-group-create.ts';

/** The approach the TPP asks for: the profile's first (sca.approaches, in its order). */
function approachOf(session: Session): Approach {
  return (session.profile.sca?.approaches ?? ['redirect'])[0] ?? 'redirect';
}

/** The headers of a call without the UK ones (x-fapi-interaction-id, x-idempotency-key). */
export const bare = (headers: Record<string, string>, token?: string) => ({ token: token ?? null, interactionId: false as const, idempotencyKey: false as const, headers });

/** The headers of a POST that starts an SCA: PSU-IP-Address; redirect: TPP-Redirect-URI; decoupled and embedded: PSU-ID and the TPP's preference (berlin-group-create.ts). */
export function creationHeaders(session: Session, approach: Approach): Record<string, string> {
  return headersOfCreate(session.profile, approach);
}

/** The SCA link a create's answer gives for the approach (a consent's, a payment's, a basket's). */
export function scaLinkOf(result: ApiResult, approach: Approach): { href: string; start?: true; withPassword?: true } | undefined {
  return approach === 'decoupled' || approach === 'embedded'
    ? beginningLinkOf(result.body, result.exchange.url)
    : (() => {
      const href = linkOf(result.body, approach === 'redirect' ? 'scaRedirect' : 'scaOAuth', result.exchange.url);
      if (href) return { href };
      // Redirect with an explicit start (a multilevel SCA's payment): the TPP starts each PSU's authorisation.
      const start = approach === 'redirect' ? startLinkOf(result.body, result.exchange.url) : undefined;
      return start ? { href: start, start: true as const } : undefined;
    })();
}

/** Remembers a consent or payment obtpp created (with the SCA link the approach needs) and makes it current. */
async function remember(session: Session, result: ApiResult, approach: Approach, record: Omit<ConsentRecord, 'createdAt' | 'sca'>): Promise<ConsentRecord> {
  const link = scaLinkOf(result, approach);
  const full: ConsentRecord = { ...record, createdAt: new Date().toISOString(), ...(link ? { sca: { approach, ...link } } : {}) };
  await session.update((s) => {
    s.consents[full.id] = full;
    s.current[full.fn] = full.id;
    s.last = full.id;
  });
  return full;
}

/** POST /v1/consents (the create the conformance steps send too); remembers the consent and its SCA link, makes it current. */
export async function createBgConsent(session: Session, body: ConsentRequestBody, summary: Partial<ConsentRecord>): Promise<{ result: ApiResult; record: ConsentRecord }> {
  const approach = approachOf(session);
  const result = session.check(await postConsent(session.client, session.profile, body, approach), [201]);
  const id = consentIdOf(result.body);
  if (!id) throw new BankError(result.status, `the bank answered the consent with ${result.status} but no consentId`, { exchange: result.exchange });
  const record = await remember(session, result, approach, { ...summary, id, fn: 'ais', status: consentStatusOf(result.body) ?? 'unknown' });
  return { result, record };
}

/** What `consent create pis` initiates: a JSON product's body, or a pain.001 product's document (a standing order's: multipart/form-data). */
export interface BgPaymentInitiation extends PaymentPlace {
  product: string;
  json?: Record<string, unknown>;
  document?: { text: string; contentType: string };
  summary: Pick<ConsentRecord, 'amount' | 'creditor' | 'debtor' | 'count'>;
}

/** POST /v1/{payment-service}/{payment-product}; remembers the payment (its service, product and SCA link), makes it the current payment. */
export async function createBgPayment(session: Session, o: BgPaymentInitiation): Promise<{ result: ApiResult; record: ConsentRecord }> {
  const approach = approachOf(session);
  const headers = { ...creationHeaders(session, approach), ...(o.document ? { 'Content-Type': o.document.contentType } : {}) };
  const result = session.check(await paymentClient(session, o).createPaymentConsent(o.json ?? o.document?.text, { ...bare(headers), ...(o.document ? { bodyText: o.document.text } : {}) }), [201]);
  const id = paymentIdOf(result.body);
  if (!id) throw new BankError(result.status, `the bank answered the payment with ${result.status} but no paymentId`, { exchange: result.exchange });
  const record = await remember(session, result, approach, {
    id, fn: 'pis', product: o.product, ...(o.service ? { service: o.service } : {}), status: transactionStatusOf(result.body) ?? 'unknown', ...o.summary,
  });
  return { result, record };
}

/** GET /v1/consents/{consentId}/status (or the payment's /status), remembered. */
export async function readStatus(session: Session, record: ConsentRecord): Promise<string | undefined> {
  if (record.fn === 'pis') return transactionStatusOf((await readBgPayment(session, record.id, 'status', record)).body);
  // The consent's own read carries its status too, for a bank whose profile lists no status read.
  const result = session.client.supports('getConsentStatus')
    ? session.check(await session.client.getConsentStatus(record.id, bare(bgHeaders())), [200])
    : session.check(await session.client.getAccountAccessConsent(record.id, bare(bgHeaders())), [200]);
  const status = consentStatusOf(result.body);
  await session.rememberStatus(record.id, status);
  return status;
}

/** Whether the SCA's outcome is an authorisation: a valid consent, a payment neither rejected nor cancelled (nor left unprocessed). */
const authorised = (record: ConsentRecord, status: string | undefined) =>
  record.fn === 'pis' ? status !== undefined && !['RJCT', 'CANC', 'RCVD'].includes(status) : status === 'valid';

/**
 * The PSU's SCA for a consent. Redirect: the scaRedirect page in Chromium (the profile's driver),
 * until the bank sends the PSU back to the redirect URI; then the consent's status says the
 * outcome. OAuth2: the authorisation-code journey with the consent in the scope (the tokens are kept).
 */
export async function authoriseBg(session: Session, record: ConsentRecord, request: AuthoriseRequest): Promise<AuthoriseOutcome> {
  const what = record.fn === 'pis' ? 'payment' : 'consent';
  if (!record.sca) throw new UsageError(`${what} ${record.id} carries no SCA link obtpp knows of (created by another tool?): create one with obtpp consent create ${record.fn}`);
  if (record.sca.approach === 'oauth') {
    const outcome = await session.authorise(record, request);
    const status = await readStatus(session, record);
    return outcome.status === 'authorised' && !authorised(record, status)
      ? { status: 'rejected', consentId: record.id, fn: record.fn, error: status ?? 'unknown', description: `the ${what}'s status is ${status ?? 'unknown'}`, by: 'bank' }
      : outcome;
  }
  // A payment partially authorised (PATC, multilevel SCA) awaits another PSU: a new authorisation, started by the TPP.
  const another = record.fn === 'pis' && record.status === 'PATC';
  if (record.sca.approach === 'decoupled' || record.sca.approach === 'embedded') {
    const { authoriseInApp } = await import('./berlin-group-sca.ts');
    const psu = psuOf(session, request.inApp?.psuId, request.inApp?.password);
    const walked = another ? { ...record, sca: { ...record.sca, start: true as const } } : record;
    const sca = await authoriseInApp(session, walked, { log: request.log, ...request.inApp, ...(psu.password ? { password: psu.password } : {}) });
    const status = await readStatus(session, record);
    await session.update((s) => {
      s.current[record.fn] = record.id;
      s.last = record.id;
    });
    if (sca.outcome === 'authorised' && authorised(record, status)) return { status: 'authorised', consentId: record.id, fn: record.fn, accounts: [] };
    return sca.outcome === 'rejected'
      ? { status: 'rejected', consentId: record.id, fn: record.fn, error: status ?? 'unknown', description: `the SCA ended ${sca.scaStatus}; the ${what}'s status is ${status ?? 'unknown'}`, by: 'psu' }
      : { status: 'rejected', consentId: record.id, fn: record.fn, error: status ?? 'unknown', description: `the SCA ended ${sca.scaStatus}, and the ${what}'s status is ${status ?? 'unknown'}`, by: 'bank' };
  }
  const psu = psuOf(session, request.inApp?.psuId, request.inApp?.password);
  const page = record.sca.start || another ? await startRedirect(session, record, psu.username) : record.sca.href;
  const journey = await redirectJourney(session, page, psu, request);
  const status = await readStatus(session, record);
  await session.update((s) => {
    const r = s.consents[record.id];
    if (r && journey.selectedAccounts.length) r.accountIds = [...journey.selectedAccounts];
    s.current[record.fn] = record.id;
    s.last = record.id;
  });
  if (authorised(record, status)) return { status: 'authorised', consentId: record.id, fn: record.fn, accounts: [...journey.selectedAccounts] };
  // The PSU approved unless asked to reject: a rejection then is the bank's (a payment RJCT for want of funds).
  return { status: 'rejected', consentId: record.id, fn: record.fn, error: status ?? 'unknown', description: `the ${what}'s status is ${status ?? 'unknown'}`, by: request.reject ? 'psu' : 'bank' };
}

/**
 * The PSU's SCA by redirect: the bank's page in Chromium with the profile's driver, until the bank
 * sends the PSU back to the redirect URI. The caller reads the outcome from the resource's status.
 */
export async function redirectJourney(session: Session, page: string, psu: { username: string; password?: string }, request: AuthoriseRequest): Promise<{ selectedAccounts: readonly string[] }> {
  if (request.manual) throw new UsageError('--manual is not offered for the redirect SCA approach yet: open the scaRedirect link yourself (obtpp consent list --json shows it)');
  const browser = await session.psuBrowser(request.log);
  const p = session.profile;
  return await browser.journey(page, {
    redirectUri: p.auth.redirectUri,
    driver: p.psu.driver,
    username: psu.username,
    password: psu.password ?? missingPassword(psu.username),
    reject: request.reject,
    ...(request.accounts ? { accounts: { ids: request.accounts } } : p.psu.accounts ? { accounts: p.psu.accounts } : {}),
    stepTimeoutMs: p.timeouts.browserStepMs,
    totalTimeoutMs: p.timeouts.authorisationMs,
    urlName: 'scaRedirect',
    onStep: request.onStep,
    trust: { caPem: p.mtls?.ca, insecure: p.tls.insecure },
  });
}

/**
 * The PSU who does this SCA and the password obtpp knows for them: the profile's PSU by default;
 * another (--psu-id, the second PSU of a multilevel SCA) with the profile's sca.multilevel.psu's
 * password when it names them, else the one given (--password-stdin).
 */
export function psuOf(session: Session, psuId: string | undefined, given: string | undefined): { username: string; password?: string } {
  const p = session.profile;
  const username = psuId ?? p.psu.username;
  const known = username === p.psu.username ? p.psu.password : username === p.sca?.multilevel?.psu.username ? p.sca.multilevel.psu.password : undefined;
  const password = given ?? known;
  return { username, ...(password ? { password } : {}) };
}

function missingPassword(username: string): never {
  throw new UsageError(`the profile knows no password for the PSU ${username} (psu, sca.multilevel.psu)`, { hint: 'give it on stdin with --password-stdin, or name that PSU in the profile\'s sca.multilevel.psu' });
}

/** POST …/authorisations for the PSU (its PSU-ID), asking for the redirect approach; answers the scaRedirect page. */
async function startRedirect(session: Session, record: ConsentRecord, psuId: string): Promise<string> {
  const { operations } = await import('./berlin-group-sca.ts');
  const headers = { ...creationHeaders(session, 'redirect'), 'PSU-ID': psuId };
  const started = session.check(await operations(session, record).start({}, bare(headers)), [201]);
  const page = linkOf(started.body, 'scaRedirect', started.exchange.url);
  if (!page) throw new BankError(started.status, `the bank started an authorisation of ${record.id} for ${psuId} but gave no scaRedirect page`, { exchange: started.exchange });
  return page;
}

/** A data call under the consent: Consent-ID, and the PSU's token when the SCA was OAuth2 (refreshed as the UK calls are). */
function underConsent(session: Session, record: ConsentRecord, call: (o: CallOptions) => Promise<ApiResult>): Promise<ApiResult> {
  const run = async (token?: string) => session.check(await call(bare(bgHeaders({ consentId: record.id }), token)), [200]);
  return record.sca?.approach === 'oauth' ? session.withUserToken(record, run) : run();
}

/** GET /v1/accounts (or one account) under the consent (Consent-ID; the token when SCA was OAuth2). */
export async function readBgAccounts(session: Session, record: ConsentRecord, accountId?: string): Promise<ApiResult> {
  const c = session.client;
  const result = await underConsent(session, record, (o) => (accountId ? c.getAccount(accountId, o) : c.listAccounts(o)));
  const list = accountId ? [((result.body as { account?: unknown })?.account ?? {}) as Record<string, unknown>] : accountsOf(result.body);
  const seen: AccountSummary[] = list.filter((a) => typeof a.resourceId === 'string').map((a) => ({
    AccountId: a.resourceId as string,
    ...(typeof a.currency === 'string' ? { Currency: a.currency } : {}),
    ...(typeof a.iban === 'string' ? { SchemeName: 'IBAN', Identification: a.iban } : {}),
    ...(typeof a.name === 'string' ? { Nickname: a.name } : {}),
    ...(typeof a.ownerName === 'string' ? { Name: a.ownerName } : {}),
  }));
  if (seen.length) await session.rememberAccounts(record.id, seen);
  return result;
}

/** GET /v1/card-accounts (or one card account) under the consent, as readBgAccounts. */
export async function readBgCardAccounts(session: Session, record: ConsentRecord, accountId?: string): Promise<ApiResult> {
  const c = session.client;
  return underConsent(session, record, (o) => (accountId ? c.getCardAccount(accountId, o) : c.listCardAccounts(o)));
}

/** Statuses after which the bank changes nothing: no need to read them again. */
const FINAL_CONSENT = ['rejected', 'revokedByPsu', 'expired', 'terminatedByTpp'];
const FINAL_PAYMENT = ['RJCT', 'CANC', 'ACSC', 'ACCC'];

/**
 * Reads afresh, from the bank, the status of every consent and payment of the session whose last
 * known status is not final (each is remembered). A status the bank does not give (refused,
 * unreachable) is left as last read; the answer names those, with the bank's reason.
 */
export async function refreshBgStatuses(session: Session): Promise<Record<string, string>> {
  const unread: Record<string, string> = {};
  const records = Object.values((await session.read()).consents);
  for (const r of records) {
    if ((r.fn === 'pis' ? FINAL_PAYMENT : FINAL_CONSENT).includes(r.status)) continue;
    try {
      await readStatus(session, r);
    } catch (error) {
      unread[r.id] = (error as Error).message.split('\n')[0]!;
    }
  }
  return unread;
}

/** GET /v1/consents/{consentId}: the consent as the bank holds it (its status remembered). */
export async function readBgConsent(session: Session, record: ConsentRecord): Promise<ApiResult> {
  const result = session.check(await session.client.getAccountAccessConsent(record.id, bare(bgHeaders())), [200]);
  await session.rememberStatus(record.id, consentStatusOf(result.body));
  return result;
}

/** DELETE /v1/consents/{consentId}: the TPP ends the consent (terminatedByTpp); its tokens are forgotten. */
export async function deleteBgConsent(session: Session, record: ConsentRecord): Promise<ApiResult> {
  const result = session.check(await session.client.deleteAccountAccessConsent(record.id, bare(bgHeaders())), [204, 200]);
  await session.update((s) => {
    const r = s.consents[record.id];
    if (r) r.status = 'terminatedByTpp';
    delete s.tokens[record.id];
    if (s.current.ais === record.id) delete s.current.ais;
  });
  return result;
}

/** POST /v1/funds-confirmations for an account by IBAN (PIIS: the PSU's consent is given at the bank, out of band). */
export async function confirmBgFunds(session: Session, o: { iban: string; amount: string; currency: string }): Promise<ApiResult> {
  const body = buildFundsConfirmation({ account: { iban: o.iban }, amount: o.amount, currency: o.currency });
  return session.check(await session.client.confirmFunds(body, bare(bgHeaders())), [200]);
}

/** GET /v1/accounts/{account-id}/balances under the consent. */
export function readBgBalances(session: Session, record: ConsentRecord, accountId: string): Promise<ApiResult> {
  return underConsent(session, record, (o) => session.client.getBalances(accountId, o));
}

/** More pages than this and a report's next links are taken for a loop. */
const MAX_PAGES = 100;

/**
 * GET /v1/accounts/{account-id}/transactions?bookingStatus&dateFrom&dateTo under the consent, and
 * each further page of a long report by `_links.next` (on the same path: a link elsewhere is not
 * followed). The answer is the first page's, its lists holding every page's transactions and its
 * `_links` the last page's; `pages` says how many were read.
 */
export async function readBgTransactions(session: Session, record: ConsentRecord, accountId: string, q: { bookingStatus: BookingStatus; dateFrom?: string; dateTo?: string }): Promise<ApiResult & { pages: number }> {
  const read = (query: Record<string, string>) => underConsent(session, record, (o) => session.client.getTransactions(accountId, { ...o, query }));
  const first = await read(Object.fromEntries(transactionsQuery(q)));
  const report = (first.body as { transactions?: Record<string, unknown> } | undefined)?.transactions;
  if (!report) return { ...first, pages: 1 };
  const merged: Record<string, unknown> = { ...report };
  const seen = new Set<string>([first.exchange.url]);
  let page = first;
  let links = report._links;
  for (let pages = 1; ; pages++) {
    const href = linkOf({ _links: links }, 'next', page.exchange.url);
    if (!href || seen.has(href) || new URL(href).pathname !== new URL(page.exchange.url).pathname) return { ...first, body: { ...(first.body as object), transactions: merged }, pages };
    if (pages >= MAX_PAGES) throw new BankError(page.status, `the bank's report of ${accountId} has more than ${MAX_PAGES} pages by _links.next: obtpp stops there (a loop?)`, { exchange: page.exchange });
    seen.add(href);
    page = await read(Object.fromEntries(new URL(href).searchParams.entries()));
    const more = (page.body as { transactions?: Record<string, unknown> } | undefined)?.transactions ?? {};
    for (const list of ['booked', 'pending', 'information'] as const) {
      if (Array.isArray(more[list])) merged[list] = [...((merged[list] as unknown[] | undefined) ?? []), ...(more[list] as unknown[])];
    }
    links = more._links;
    merged._links = links;
  }
}

/** GET /v1/accounts/{account-id}/transactions/{transactionId} under the consent. */
export function readBgTransaction(session: Session, record: ConsentRecord, accountId: string, transactionId: string): Promise<ApiResult> {
  return underConsent(session, record, (o) => session.client.getTransaction(accountId, transactionId, o));
}

/**
 * GET /v1/{payment-service}/{payment-product}/{paymentId}, or its /status (the service and product
 * the payment was created with, else the profile's). The status is asked as JSON, which the file
 * lets a TPP do for a pain.001 product too; the payment itself comes as the bank holds it (a
 * pain.001 product's: its XML).
 */
export async function readBgPayment(session: Session, paymentId: string, what: 'payment' | 'status' | 'pain.002', place: PaymentPlace = {}): Promise<ApiResult> {
  const o = bare(bgHeaders());
  const c = paymentClient(session, place);
  // The status of a pain.001 product may be asked as its ISO 20022 report (pain.002) instead.
  if (what !== 'payment') o.headers = { ...o.headers, Accept: what === 'pain.002' ? 'application/xml' : 'application/json' };
  const result = session.check(what === 'payment' ? await c.getPayment(paymentId, o) : await c.getPaymentStatus(paymentId, o), [200]);
  if (result.json) await session.rememberStatus(paymentId, transactionStatusOf(result.body));
  return result;
}

/** What `obtpp payment cancel` did: the DELETE's answer, and the cancellation's authorisation where the bank asked for one. */
export interface BgCancellation {
  deleted: ApiResult;
  /** 204: cancelled; 202: the PSU must authorise the cancellation. */
  done: boolean;
  /** The started authorisation of the cancellation (POST …/cancellation-authorisations) and where the PSU authorises it. */
  started?: ApiResult;
  authorisationId?: string;
  scaRedirect?: string;
}

/**
 * DELETE /v1/payments/{payment-product}/{paymentId}; when the bank answers 202 with a
 * startAuthorisation link, starts the cancellation's authorisation (asking for the redirect
 * approach) and answers the page where the PSU authorises it.
 */
export async function cancelBgPayment(session: Session, paymentId: string, place: PaymentPlace = {}): Promise<BgCancellation> {
  const c = paymentClient(session, place);
  const back = session.profile.auth.redirectUri;
  const headers = bgHeaders({ psuIpAddress: session.profile.psuIpAddress ?? '127.0.0.1', ...(back ? { tppRedirectUri: back, tppRedirectPreferred: true } : {}) });
  const deleted = session.check(await c.cancelPayment(paymentId, bare(headers)), [204, 202]);
  if (deleted.status === 204) {
    await readBgPayment(session, paymentId, 'status', place);
    return { deleted, done: true };
  }
  // The bank may have started the cancellation's authorisation itself (an scaRedirect in the 202).
  const direct = linkOf(deleted.body, 'scaRedirect', deleted.exchange.url);
  if (direct) return { deleted, done: false, scaRedirect: direct };
  const started = session.check(await authorisationOps(c, 'cancellation', paymentId).start({}, bare(headers)), [201]);
  const authorisationId = typeof (started.body as { authorisationId?: unknown })?.authorisationId === 'string' ? (started.body as { authorisationId: string }).authorisationId : undefined;
  return { deleted, done: false, started, ...(authorisationId ? { authorisationId } : {}), ...(linkOf(started.body, 'scaRedirect', started.exchange.url) ? { scaRedirect: linkOf(started.body, 'scaRedirect', started.exchange.url) } : {}) };
}
