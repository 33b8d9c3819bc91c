/**
 * The NextGenPSD2 (Berlin Group XS2A 1.3.x) resource server of the sandbox, for variants A and B:
 * consents and their authorisations, accounts, balances, transactions (A: and their details),
 * funds confirmations, and (A) single payments. Status codes, headers (X-Request-ID echoed,
 * Location, ASPSP-SCA-Approach) and error bodies (tppMessages, or RFC 7807 when the TPP accepts
 * application/problem+json) as the standard writes them. The bank's own reading of the standard:
 * it shares nothing with the harness's dialect (src/dialects), by design.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { BodyTooLargeError, matchPath, pathSegments, readBody } from '../http.ts';
import type { Variant } from '../uk/plumbing.ts';
import { accountDetails, balances, CURRENCY, ibanOf, ibanValid, isoDay, parseBgAmount, piisActivated, transaction } from './data.ts';
import type { Access, BgAuthorisation, BgConsent, BgPayment, BgStore, ScaApproach } from './store.ts';
import type { BgFaults } from './faults.ts';

export interface Xs2aContext {
  provider: Provider;
  store: BgStore;
  issuer: string;
  baseUrls: Record<Variant, string>;
  /** The faults switched on (each breaks one rule; see faults.ts). */
  faults: BgFaults;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A refusal with its NextGenPSD2 code (FACTS §6.6). */
class BgError extends Error {
  readonly status: number;
  readonly code: string;
  readonly path?: string;
  constructor(status: number, code: string, text: string, path?: string) {
    super(text);
    this.status = status;
    this.code = code;
    this.path = path;
  }
}

const format = (text: string, path?: string) => new BgError(400, 'FORMAT_ERROR', text, path);
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ACCESS_TYPES = ['allAccounts', 'allAccountsWithOwnerName'];
/** The longest a consent lives here, in days (the bank shortens a longer validUntil, as the standard allows). */
export const MAX_CONSENT_DAYS = 180;
const PRODUCTS = ['sepa-credit-transfers', 'instant-sepa-credit-transfers'];

interface Req {
  variant: Variant;
  method: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
  base: string;
}

type Handler = (r: Req) => Promise<Reply> | Reply;
interface Route { variants: Variant[]; method: string; pattern: string[]; handler: Handler }

function validDate(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

function header(r: Req, name: string): string | undefined {
  const v = r.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function createXs2a(ctx: Xs2aContext): (req: IncomingMessage, res: ServerResponse, variant: Variant, path: string, search: string) => Promise<void> {
  const { store, provider, issuer, faults } = ctx;
  const today = () => isoDay(new Date(store.now()));

  // ---------------------------------------------------------------------------------------------
  // SCA

  /** The approach for a new resource: redirect when the TPP gives a TPP-Redirect-URI, else OAuth2. */
  function approachOf(r: Req): ScaApproach {
    if (header(r, 'TPP-Redirect-Preferred') === 'true' && !header(r, 'TPP-Redirect-URI')) throw format('TPP-Redirect-URI is required when TPP-Redirect-Preferred is true', 'TPP-Redirect-URI');
    return header(r, 'TPP-Redirect-URI') ? 'REDIRECT' : 'OAUTH';
  }

  function newAuthorisation(r: Req, approach: ScaApproach): BgAuthorisation {
    const redirectUri = header(r, 'TPP-Redirect-URI');
    const nokRedirectUri = header(r, 'TPP-Nok-Redirect-URI');
    for (const [name, value] of [['TPP-Redirect-URI', redirectUri], ['TPP-Nok-Redirect-URI', nokRedirectUri]] as const) {
      if (value !== undefined && !/^https?:\/\//i.test(value)) throw format(`${name} must be an absolute http(s) URI`, name);
    }
    return { authorisationId: store.newId('auth'), scaStatus: 'received', approach, ...(redirectUri ? { redirectUri } : {}), ...(nokRedirectUri ? { nokRedirectUri } : {}) };
  }

  function scaLinks(a: BgAuthorisation): Record<string, { href: string }> {
    return a.approach === 'REDIRECT'
      ? { scaRedirect: { href: `${issuer}/bg/sca/${a.authorisationId}` } }
      : { scaOAuth: { href: `${issuer}/.well-known/openid-configuration` } };
  }

  // ---------------------------------------------------------------------------------------------
  // Consents

  function parseAccessList(value: unknown, path: string): string[] {
    if (!Array.isArray(value)) throw format(`${path} must be a list of account references`, path);
    return value.map((ref, i) => {
      if (!isObject(ref) || typeof ref.iban !== 'string') throw format(`${path}[${i}] must name the account by iban (the only identifier this bank uses)`, `${path}[${i}].iban`);
      if (!ibanValid(ref.iban.replace(/\s/g, ''))) throw format(`${path}[${i}].iban is not a valid IBAN`, `${path}[${i}].iban`);
      if (ref.currency !== undefined && ref.currency !== CURRENCY) throw format(`${path}[${i}].currency: the accounts here are held in ${CURRENCY}`, `${path}[${i}].currency`);
      return ref.iban.replace(/\s/g, '');
    });
  }

  function validateAccess(access: unknown): { bankOffered: boolean } {
    if (!isObject(access)) throw format('access is required and must be an object', 'access');
    const global = ['availableAccounts', 'availableAccountsWithBalance', 'allPsd2'].filter((k) => access[k] !== undefined);
    const lists = ['accounts', 'balances', 'transactions'].filter((k) => access[k] !== undefined);
    for (const k of global) if (!ACCESS_TYPES.includes(access[k])) throw format(`access.${k} must be allAccounts or allAccountsWithOwnerName`, `access.${k}`);
    if (global.length > 1 || (global.length === 1 && lists.length > 0)) throw format('access: one global form (availableAccounts, availableAccountsWithBalance or allPsd2) alone, or account lists', 'access');
    if (global.length === 0 && lists.length === 0) throw format('access names no account and no global form', 'access');
    const counts = lists.map((k) => parseAccessList(access[k], `access.${k}`).length);
    if (access.additionalInformation !== undefined || access.restrictedTo !== undefined) throw new BgError(400, 'PARAMETER_NOT_SUPPORTED', 'additionalInformation and restrictedTo are not supported by this bank');
    return { bankOffered: lists.length > 0 && counts.every((n) => n === 0) };
  }

  function createConsent(r: Req): Reply {
    if (!header(r, 'PSU-IP-Address')) throw format('PSU-IP-Address is required', 'PSU-IP-Address');
    const b = r.body;
    if (!isObject(b)) throw format('the body must be a JSON object');
    if (faults.has('bg-consent-without-access-accepted') && b.access === undefined) b.access = { allPsd2: 'allAccounts' };
    const { bankOffered } = validateAccess(b.access);
    if (typeof b.recurringIndicator !== 'boolean') throw format('recurringIndicator is required and must be a boolean', 'recurringIndicator');
    if (!validDate(b.validUntil)) throw format('validUntil is required and must be an ISODate (YYYY-MM-DD)', 'validUntil');
    if (b.validUntil < today()) throw format('validUntil is in the past', 'validUntil');
    if (!Number.isInteger(b.frequencyPerDay) || b.frequencyPerDay < 1) throw format('frequencyPerDay is required and must be an integer of at least 1', 'frequencyPerDay');
    if (!b.recurringIndicator && b.frequencyPerDay !== 1) throw format('a one-off consent (recurringIndicator false) has frequencyPerDay 1', 'frequencyPerDay');
    if (typeof b.combinedServiceIndicator !== 'boolean') throw format('combinedServiceIndicator is required and must be a boolean', 'combinedServiceIndicator');
    if (b.combinedServiceIndicator) throw new BgError(400, 'SESSIONS_NOT_SUPPORTED', 'this bank does not support combined AIS and PIS sessions');
    const approach = approachOf(r);
    const latest = isoDay(new Date(store.now() + MAX_CONSENT_DAYS * 86_400_000));
    const consent: BgConsent = {
      kind: 'ais', id: store.newId('consent'), approach, authorisations: [], created: new Date(store.now()),
      access: structuredClone(b.access) as Access, recurringIndicator: b.recurringIndicator,
      validUntil: b.validUntil > latest ? latest : b.validUntil, frequencyPerDay: b.frequencyPerDay,
      combinedServiceIndicator: false, status: 'received', lastActionDate: today(),
      covered: { accounts: [], balances: [], transactions: [] }, bankOffered,
    };
    const authorisation = newAuthorisation(r, approach);
    consent.authorisations.push(authorisation);
    store.consents.set(consent.id, consent);
    const self = `${r.base}/v1/consents/${consent.id}`;
    return {
      status: faults.has('bg-create-200') ? 200 : 201,
      headers: { Location: self, 'ASPSP-SCA-Approach': approach },
      body: {
        consentStatus: faults.has('bg-consent-created-valid') ? 'valid' : consent.status,
        consentId: consent.id,
        _links: { ...scaLinks(authorisation), self: { href: self }, status: { href: `${self}/status` }, scaStatus: { href: `${self}/authorisations/${authorisation.authorisationId}` } },
      },
    };
  }

  function consentOf(r: Req, id: string | undefined, where: 'path' | 'header'): BgConsent {
    const consent = id ? store.consents.get(id) : undefined;
    if (!consent) {
      if (where === 'header') throw new BgError(403, 'CONSENT_UNKNOWN', 'the Consent-ID is unknown to this bank', 'Consent-ID');
      throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such consent');
    }
    return store.refresh(consent);
  }

  /** The status the bank tells the TPP (some faults misreport it). */
  function reportedStatus(c: BgConsent): string {
    if (faults.has('bg-consent-stays-received') && c.status === 'valid') return 'received';
    if (faults.has('bg-rejected-stays-received') && c.status === 'rejected') return 'received';
    if (faults.has('bg-deleted-reads-valid') && c.status === 'terminatedByTpp') return 'valid';
    return c.status;
  }

  function getConsent(r: Req): Reply {
    const c = consentOf(r, r.params.consentId, 'path');
    const changed = faults.has('bg-frequency-read-back-changed');
    const validUntil = faults.has('bg-valid-until-extended') ? isoDay(new Date(Date.parse(`${c.validUntil}T00:00:00Z`) + 365 * 86_400_000)) : c.validUntil;
    return {
      status: 200,
      body: {
        access: faults.has('bg-consent-reads-back-changed') && c.status === 'valid' ? { allPsd2: 'allAccounts' } : c.access, recurringIndicator: changed ? true : c.recurringIndicator, validUntil, frequencyPerDay: changed ? 4 : c.frequencyPerDay,
        lastActionDate: c.lastActionDate, consentStatus: reportedStatus(c),
      },
    };
  }

  function getConsentStatus(r: Req): Reply {
    return { status: 200, body: { consentStatus: reportedStatus(consentOf(r, r.params.consentId, 'path')) } };
  }

  function deleteConsent(r: Req): Reply {
    const c = consentOf(r, r.params.consentId, 'path');
    if (c.status === 'terminatedByTpp') throw new BgError(409, 'STATUS_INVALID', 'the consent is already terminated');
    c.status = 'terminatedByTpp';
    c.lastActionDate = today();
    return { status: 204 };
  }

  // ---------------------------------------------------------------------------------------------
  // Authorisation sub-resources (of consents and payments)

  function startAuthorisation(r: Req, resource: BgConsent | BgPayment, self: string): Reply {
    const pending = resource.kind === 'ais' ? resource.status === 'received' : resource.transactionStatus === 'RCVD';
    if (!pending) throw new BgError(409, 'STATUS_INVALID', `the ${resource.kind === 'ais' ? 'consent' : 'payment'} is no longer awaiting authorisation`);
    const a = newAuthorisation(r, resource.approach);
    resource.authorisations.push(a);
    return {
      status: 201,
      headers: { Location: `${self}/authorisations/${a.authorisationId}`, 'ASPSP-SCA-Approach': resource.approach },
      body: { scaStatus: a.scaStatus, authorisationId: a.authorisationId, _links: { ...scaLinks(a), scaStatus: { href: `${self}/authorisations/${a.authorisationId}` } } },
    };
  }

  const listAuthorisations = (resource: BgConsent | BgPayment): Reply =>
    ({ status: 200, body: { authorisationIds: resource.authorisations.map((a) => a.authorisationId) } });

  function scaStatus(resource: BgConsent | BgPayment, authorisationId: string): Reply {
    const a = resource.authorisations.find((x) => x.authorisationId === authorisationId);
    if (!a) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such authorisation');
    return { status: 200, body: { scaStatus: a.scaStatus } };
  }

  // ---------------------------------------------------------------------------------------------
  // Account information

  /** The valid consent of a data call; under OAuth SCA the token must be for that consent. */
  async function dataConsent(r: Req, path: string): Promise<BgConsent> {
    let id = header(r, 'Consent-ID');
    if (!id && faults.has('bg-no-consent-id-data-access')) id = [...store.consents.values()].reverse().find((x) => store.refresh(x).status === 'valid')?.id;
    if (!id) throw format('Consent-ID is required', 'Consent-ID');
    const c = consentOf(r, id, 'header');
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
    if (c.approach === 'OAUTH') await requireToken(r, `AIS:${c.id}`);
    // frequencyPerDay bounds the accesses without the PSU (no PSU-IP-Address), per resource and day.
    if (!header(r, 'PSU-IP-Address') && !faults.has('bg-frequency-not-enforced')) {
      const key = `${c.id} ${path} ${today()}`;
      const n = (store.accesses.get(key) ?? 0) + 1;
      if (n > c.frequencyPerDay) throw new BgError(429, 'ACCESS_EXCEEDED', `frequencyPerDay (${c.frequencyPerDay}) reached for this resource today`);
      store.accesses.set(key, n);
    }
    c.lastActionDate = today();
    return c;
  }

  async function requireToken(r: Req, scope: string): Promise<void> {
    const m = /^Bearer\s+(\S+)$/i.exec(header(r, 'Authorization') ?? '');
    if (!m) throw new BgError(401, 'TOKEN_INVALID', 'this resource was authorised by OAuth2: an access token is required');
    const token = await provider.AccessToken.find(m[1]);
    if (!token || token.isExpired) throw new BgError(401, 'TOKEN_INVALID', 'the access token is invalid or has expired');
    const scopes = String(token.scope ?? '').split(' ');
    const unbound = faults.has('bg-token-not-bound') && scopes.some((s) => s.startsWith(scope.split(':')[0] + ':'));
    if (!scopes.includes(scope) && !unbound) throw new BgError(401, 'TOKEN_INVALID', `the access token is not for ${scope}`);
  }

  function coveredAccount(c: BgConsent, accountId: string, service: 'accounts' | 'balances' | 'transactions') {
    const found = store.account(accountId);
    if (!found || !c.covered.accounts.includes(accountId)) throw new BgError(403, 'RESOURCE_UNKNOWN', 'the account is not addressable under this consent');
    if (!c.covered[service].includes(accountId) && !faults.has('bg-access-not-enforced')) throw new BgError(401, 'CONSENT_INVALID', `the consent gives no access to the ${service} of this account`);
    return found;
  }

  function accountView(r: Req, c: BgConsent, accountId: string, withBalance: boolean): Record<string, unknown> {
    const { psu, account } = store.account(accountId)!;
    const self = `${r.base}/v1/accounts/${accountId}`;
    const links: Record<string, { href: string }> = {};
    if (c.covered.balances.includes(accountId)) links.balances = { href: `${self}/balances` };
    if (c.covered.transactions.includes(accountId)) links.transactions = { href: `${self}/transactions` };
    const out: Record<string, unknown> = { ...accountDetails(psu, account) };
    if (withBalance && c.covered.balances.includes(accountId)) out.balances = balances(account, new Date(store.now()));
    if (Object.keys(links).length) out._links = links;
    return out;
  }

  function withBalanceOf(r: Req): boolean {
    const v = r.query.get('withBalance');
    if (v !== null && v !== 'true' && v !== 'false') throw format('withBalance must be true or false', 'withBalance');
    return v === 'true';
  }

  async function listAccounts(r: Req): Promise<Reply> {
    const withBalance = withBalanceOf(r);
    const c = await dataConsent(r, '/accounts');
    return { status: 200, body: { accounts: c.covered.accounts.map((id) => accountView(r, c, id, withBalance)) } };
  }

  async function getAccount(r: Req): Promise<Reply> {
    const withBalance = withBalanceOf(r);
    const c = await dataConsent(r, `/accounts/${r.params.accountId}`);
    coveredAccount(c, r.params.accountId, 'accounts');
    return { status: 200, body: { account: accountView(r, c, r.params.accountId, withBalance) } };
  }

  async function getBalances(r: Req): Promise<Reply> {
    const c = await dataConsent(r, `/accounts/${r.params.accountId}/balances`);
    const { account } = coveredAccount(c, r.params.accountId, 'balances');
    const list = balances(account, new Date(store.now()));
    const shown = faults.has('bg-balance-amount-number')
      ? list.map((b) => {
        const amount = b.balanceAmount as { currency: string; amount: string };
        return { ...b, balanceAmount: { ...amount, amount: Number(amount.amount) } };
      })
      : list;
    return { status: 200, body: { account: { iban: ibanOf(account), currency: CURRENCY }, balances: shown } };
  }

  async function listTransactions(r: Req): Promise<Reply> {
    const bookingStatus = r.query.get('bookingStatus');
    if (!bookingStatus) throw format('the query parameter bookingStatus is required', 'bookingStatus');
    if (!['booked', 'pending', 'both', 'all', 'information'].includes(bookingStatus)) throw format('bookingStatus must be booked, pending, both, information or all', 'bookingStatus');
    if (bookingStatus === 'information') throw new BgError(400, 'PARAMETER_NOT_SUPPORTED', 'standing orders (bookingStatus information) are not offered', 'bookingStatus');
    if (r.query.has('deltaList') || r.query.has('entryReferenceFrom')) throw new BgError(400, 'PARAMETER_NOT_SUPPORTED', 'delta reports are not supported', r.query.has('deltaList') ? 'deltaList' : 'entryReferenceFrom');
    const dateFrom = r.query.get('dateFrom');
    const dateTo = r.query.get('dateTo');
    if (!dateFrom) throw format('dateFrom is required (no delta report is asked for)', 'dateFrom');
    if (!validDate(dateFrom)) throw format('dateFrom must be an ISODate (YYYY-MM-DD)', 'dateFrom');
    if (dateTo !== null && !validDate(dateTo)) throw format('dateTo must be an ISODate (YYYY-MM-DD)', 'dateTo');
    if (dateTo !== null && dateTo < dateFrom) throw new BgError(400, 'PERIOD_INVALID', 'dateTo is before dateFrom', 'dateTo');
    const withBalance = withBalanceOf(r);
    const c = await dataConsent(r, `/accounts/${r.params.accountId}/transactions`);
    const { account } = coveredAccount(c, r.params.accountId, 'transactions');
    const self = `${r.base}/v1/accounts/${account.AccountId}`;
    const booked = account.transactions
      .filter((t) => isoDay(t.booking) >= dateFrom && (dateTo === null || faults.has('bg-transactions-date-to-ignored') || isoDay(t.booking) <= dateTo))
      .reverse()
      .map((t) => transaction(t, r.variant === 'A' ? `${self}/transactions/${t.TransactionId}` : undefined));
    const report: Record<string, unknown> = { _links: { account: { href: self } } };
    if (bookingStatus !== 'pending') report.booked = booked;
    if (bookingStatus !== 'booked') report.pending = [];
    return {
      status: 200,
      body: {
        account: { iban: ibanOf(account), currency: CURRENCY },
        transactions: report,
        ...(withBalance && c.covered.balances.includes(account.AccountId) ? { balances: balances(account, new Date(store.now())) } : {}),
      },
    };
  }

  async function getTransaction(r: Req): Promise<Reply> {
    const c = await dataConsent(r, `/accounts/${r.params.accountId}/transactions/${r.params.transactionId}`);
    const { account } = coveredAccount(c, r.params.accountId, 'transactions');
    const t = account.transactions.find((x) => x.TransactionId === r.params.transactionId);
    if (!t) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such transaction on this account');
    const { _links: _l, ...details } = transaction(t);
    return { status: 200, body: { transactionsDetails: details } };
  }

  // ---------------------------------------------------------------------------------------------
  // Confirmation of funds

  function confirmFunds(r: Req): Reply {
    const b = r.body;
    if (!isObject(b)) throw format('the body must be a JSON object');
    if (!isObject(b.account)) throw format('account is required', 'account');
    if (typeof b.account.iban !== 'string') throw format('account must name the account by iban', 'account.iban');
    if (!isObject(b.instructedAmount)) throw format('instructedAmount is required', 'instructedAmount');
    const amount = parseBgAmount(b.instructedAmount.amount);
    if (amount === undefined || amount < 0) throw format('instructedAmount.amount must be a positive amount (up to 14 digits and 3 decimals)', 'instructedAmount.amount');
    if (typeof b.instructedAmount.currency !== 'string' || !/^[A-Z]{3}$/.test(b.instructedAmount.currency)) throw format('instructedAmount.currency must be an ISO 4217 code', 'instructedAmount.currency');
    if (b.instructedAmount.currency !== CURRENCY) throw new BgError(400, 'FORMAT_ERROR', `the accounts here are held in ${CURRENCY}`, 'instructedAmount.currency');
    const found = store.byIban(b.account.iban);
    if (!found) throw new BgError(400, 'RESOURCE_UNKNOWN', 'no such account', 'account.iban');
    if (!piisActivated(found.psu)) throw new BgError(400, 'NO_PIIS_ACTIVATION', 'the PSU has not activated confirmation of funds for this account');
    const available = found.account.booked + found.account.creditLine;
    const body: Record<string, unknown> = { fundsAvailable: faults.has('bg-funds-always-true') || available >= amount };
    if (faults.has('bg-funds-balance-disclosed')) body.balances = balances(found.account, new Date(store.now()));
    return { status: 200, body };
  }

  // ---------------------------------------------------------------------------------------------
  // Payments (variant A)

  function productOf(r: Req): string {
    if (!PRODUCTS.includes(r.params.product)) throw new BgError(404, 'PRODUCT_UNKNOWN', `the payment product ${r.params.product} is not offered (offered: ${PRODUCTS.join(', ')})`);
    return r.params.product;
  }

  function accountRef(value: unknown, path: string): string {
    if (!isObject(value)) throw format(`${path} is required`, path);
    if (typeof value.iban !== 'string' || !ibanValid(value.iban.replace(/\s/g, ''))) throw format(`${path}.iban must be a valid IBAN`, `${path}.iban`);
    return value.iban.replace(/\s/g, '');
  }

  function createPayment(r: Req): Reply {
    const product = productOf(r);
    if (!header(r, 'PSU-IP-Address')) throw format('PSU-IP-Address is required', 'PSU-IP-Address');
    const b = r.body;
    if (!isObject(b)) throw format('the body must be a JSON object');
    accountRef(b.debtorAccount, 'debtorAccount');
    accountRef(b.creditorAccount, 'creditorAccount');
    if (faults.has('bg-payment-without-amount-accepted') && b.instructedAmount === undefined) b.instructedAmount = { currency: CURRENCY, amount: '1.00' };
    if (!isObject(b.instructedAmount)) throw format('instructedAmount is required', 'instructedAmount');
    const amount = parseBgAmount(b.instructedAmount.amount);
    if (amount === undefined || amount <= 0) throw format('instructedAmount.amount must be a positive amount', 'instructedAmount.amount');
    if (b.instructedAmount.currency !== CURRENCY) throw format(`instructedAmount.currency must be ${CURRENCY} for ${product}`, 'instructedAmount.currency');
    if (typeof b.creditorName !== 'string' || b.creditorName === '' || b.creditorName.length > 70) throw format('creditorName is required (1 to 70 characters)', 'creditorName');
    for (const [f, max] of [['endToEndIdentification', 35], ['remittanceInformationUnstructured', 140]] as const) {
      if (b[f] !== undefined && (typeof b[f] !== 'string' || b[f].length > max)) throw format(`${f} must be a string of at most ${max} characters`, f);
    }
    if (b.requestedExecutionDate !== undefined && (!validDate(b.requestedExecutionDate) || b.requestedExecutionDate < today())) throw new BgError(400, 'EXECUTION_DATE_INVALID', 'requestedExecutionDate must be an ISODate, today or later', 'requestedExecutionDate');
    const approach = approachOf(r);
    const payment: BgPayment = {
      kind: 'pis', id: store.newId('payment'), approach, authorisations: [], created: new Date(store.now()),
      product, body: structuredClone(b), amountMinor: amount, transactionStatus: 'RCVD',
    };
    const authorisation = newAuthorisation(r, approach);
    payment.authorisations.push(authorisation);
    store.payments.set(payment.id, payment);
    const self = `${r.base}/v1/payments/${product}/${payment.id}`;
    return {
      status: 201,
      headers: { Location: self, 'ASPSP-SCA-Approach': approach },
      body: {
        transactionStatus: payment.transactionStatus,
        paymentId: payment.id,
        _links: { ...scaLinks(authorisation), self: { href: self }, status: { href: `${self}/status` }, scaStatus: { href: `${self}/authorisations/${authorisation.authorisationId}` } },
      },
    };
  }

  function paymentOf(r: Req): BgPayment {
    const product = productOf(r);
    const p = store.payments.get(r.params.paymentId);
    if (!p || p.product !== product) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such payment');
    return p;
  }

  const getPayment = (r: Req): Reply => {
    const p = paymentOf(r);
    return { status: 200, body: { ...p.body, transactionStatus: faults.has('bg-payment-stays-rcvd') ? 'RCVD' : p.transactionStatus } };
  };
  const getPaymentStatus = (r: Req): Reply => ({ status: 200, body: { transactionStatus: faults.has('bg-payment-status-not-iso') ? 'DONE' : paymentOf(r).transactionStatus } });

  // ---------------------------------------------------------------------------------------------
  // Routing

  const AB: Variant[] = ['A', 'B'];
  const A: Variant[] = ['A'];
  const route = (variants: Variant[], method: string, path: string, handler: Handler): Route => ({ variants, method, pattern: path.split('/').filter(Boolean), handler });
  const consentSelf = (r: Req) => `${r.base}/v1/consents/${r.params.consentId}`;
  const paymentSelf = (r: Req) => `${r.base}/v1/payments/${r.params.product}/${r.params.paymentId}`;
  const routes: Route[] = [
    route(AB, 'POST', '/v1/consents', createConsent),
    route(AB, 'GET', '/v1/consents/:consentId', getConsent),
    route(AB, 'DELETE', '/v1/consents/:consentId', deleteConsent),
    route(AB, 'GET', '/v1/consents/:consentId/status', getConsentStatus),
    route(AB, 'POST', '/v1/consents/:consentId/authorisations', (r) => startAuthorisation(r, consentOf(r, r.params.consentId, 'path'), consentSelf(r))),
    route(AB, 'GET', '/v1/consents/:consentId/authorisations', (r) => listAuthorisations(consentOf(r, r.params.consentId, 'path'))),
    route(AB, 'GET', '/v1/consents/:consentId/authorisations/:authorisationId', (r) => scaStatus(consentOf(r, r.params.consentId, 'path'), r.params.authorisationId)),
    route(AB, 'GET', '/v1/accounts', listAccounts),
    route(AB, 'GET', '/v1/accounts/:accountId', getAccount),
    route(AB, 'GET', '/v1/accounts/:accountId/balances', getBalances),
    route(AB, 'GET', '/v1/accounts/:accountId/transactions', listTransactions),
    route(A, 'GET', '/v1/accounts/:accountId/transactions/:transactionId', getTransaction),
    route(AB, 'POST', '/v1/funds-confirmations', confirmFunds),
    route(A, 'POST', '/v1/payments/:product', createPayment),
    route(A, 'GET', '/v1/payments/:product/:paymentId', getPayment),
    route(A, 'GET', '/v1/payments/:product/:paymentId/status', getPaymentStatus),
    route(A, 'POST', '/v1/payments/:product/:paymentId/authorisations', (r) => startAuthorisation(r, paymentOf(r), paymentSelf(r))),
    route(A, 'GET', '/v1/payments/:product/:paymentId/authorisations', (r) => listAuthorisations(paymentOf(r))),
    route(A, 'GET', '/v1/payments/:product/:paymentId/authorisations/:authorisationId', (r) => scaStatus(paymentOf(r), r.params.authorisationId)),
  ];

  /** The error body: RFC 7807 when the TPP accepts application/problem+json, else tppMessages. */
  function errorReply(req: IncomingMessage, e: BgError): Reply {
    // The fault: every error message without the code the standard requires of it.
    if (faults.has('bg-error-code-missing')) return { status: e.status, body: { tppMessages: [{ category: 'ERROR', text: e.message.slice(0, 500) }] } };
    if (/application\/problem\+json/i.test(req.headers.accept ?? '')) {
      return {
        status: e.status,
        headers: { 'content-type': 'application/problem+json; charset=utf-8' },
        body: { type: `urn:obtpp:sandbox:problem:${e.code.toLowerCase()}`, title: e.code, detail: e.message.slice(0, 500), code: e.code },
      };
    }
    return { status: e.status, body: { tppMessages: [{ category: 'ERROR', code: e.code, ...(e.path ? { path: e.path } : {}), text: e.message.slice(0, 500) }] } };
  }

  async function dispatch(req: IncomingMessage, variant: Variant, path: string, search: string): Promise<Reply> {
    const segments = pathSegments(path);
    const method = req.method ?? 'GET';
    const candidates = routes.map((c) => ({ c, params: matchPath(c.pattern, segments) })).filter((x) => x.params !== undefined);
    const offered = candidates.filter((x) => x.c.variants.includes(variant));
    try {
      if (offered.length === 0) {
        throw new BgError(404, 'RESOURCE_UNKNOWN', candidates.length ? `not offered in variant ${variant}` : 'no such endpoint');
      }
      const chosen = offered.find((x) => x.c.method === method);
      if (!chosen) throw new BgError(405, 'SERVICE_INVALID', `${method} is not offered on this path`);
      const requestId = req.headers['x-request-id'];
      if (typeof requestId !== 'string' || !UUID.test(requestId)) throw format('X-Request-ID is required and must be a UUID', 'X-Request-ID');
      let body: unknown;
      if (method === 'POST') {
        const text = await readBody(req);
        if (text !== '' || chosen.c.pattern.at(-1) !== 'authorisations') {
          if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new BgError(415, 'FORMAT_ERROR', 'the body must be application/json');
          try {
            body = JSON.parse(text);
          } catch {
            throw format('the body is not valid JSON');
          }
        }
      }
      const r: Req = { variant, method, params: chosen.params!, query: new URLSearchParams(search), headers: req.headers, body, base: ctx.baseUrls[variant] };
      return await chosen.c.handler(r);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return errorReply(req, new BgError(413, 'FORMAT_ERROR', 'the body is too large'));
      if (error instanceof BgError) return errorReply(req, error);
      return { status: 500, body: { tppMessages: [{ category: 'ERROR', code: 'INTERNAL_SERVER_ERROR', text: 'the sandbox failed to answer' }] } };
    }
  }

  return async function handle(req, res, variant, path, search) {
    const reply = await dispatch(req, variant, path, search);
    const sent = req.headers['x-request-id'];
    const echo = typeof sent === 'string' && sent !== '' && !faults.has('bg-request-id-not-echoed');
    const headers: Record<string, string> = { 'cache-control': 'no-store', 'X-Request-ID': echo ? sent : randomUUID() };
    let payload: string | undefined;
    if (reply.body !== undefined) {
      payload = JSON.stringify(reply.body);
      headers['content-type'] = 'application/json; charset=utf-8';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    Object.assign(headers, reply.headers);
    res.writeHead(reply.status, headers);
    res.end(payload);
  };
}
