/**
 * The sandbox's resource server for variants A and B: exactly the endpoints of the spec's tables,
 * with the payloads, status codes, headers and error bodies of UK Open Banking v3.1 (docs/wire.md).
 * Every route handler returns a Reply; `send` is the one place a response leaves, so that faults
 * that bend whole responses have one point to hook into.
 */
import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type Provider from 'oidc-provider';
import type { Faults } from './faults.ts';
import { availableBalance, money, parseMoney } from './fixtures.ts';
import type { FixtureAccount, FixtureTransaction } from './fixtures.ts';
import { chaosFor } from './chaos.ts';
import { BodyTooLargeError, matchPath, pathSegments, readBody } from './http.ts';
import type { AccountRef, AisConsent, CofConsent, Consent, ConsentKind, PaymentOrder, PisConsent, Store } from './store.ts';
import { checkTppSignature, signAsBank } from './signatures.ts';
import type { JSONWebKeySet, JWK } from 'jose';

export type Variant = 'A' | 'B';

/** What the resource server needs from the running sandbox. */
export interface ResourceContext {
  provider: Provider;
  store: Store;
  faults: Faults;
  baseUrls: Record<Variant, string>;
  /** The audience every sandbox access token carries. */
  audience: string;
  /** x-jws-signature: the bank's key (in its JWKS), a key outside it (bad-response-signature), the TPPs' registered keys. */
  /** strayKey: a key outside the bank's JWKS, present when the bad-response-signature fault is on. */
  signing: { bankKey: { privateJwk: JWK; kid: string }; strayKey?: { privateJwk: JWK; kid: string }; tppKeys: JSONWebKeySet; issuer: string };
}

/** One response, before it is written. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Payment-initiation handlers: their answers are signed, and their POSTs must be (FACTS §1.8). */
const PIS_HANDLERS = new Set(['createPayment', 'getPayment', 'getPaymentStatus', 'getPaymentDetails', 'getPaymentFunds']);
const SIGNED_REQUESTS = new Set(['createPayment']);

/** Two JSON values equal whatever their key order. */
function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => (Array.isArray(v) ? v.map(norm) : v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([k, x]) => [k, norm(x)])) : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

interface ErrorItem {
  ErrorCode: string;
  Message: string;
  Path?: string;
}

/** A refusal; 400 and 403 carry an OBErrorResponse1, the others no body. */
class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorItem[];
  constructor(status: number, errorCode: string, message: string, path?: string) {
    super(message);
    this.status = status;
    this.errors = [{ ErrorCode: errorCode, Message: message, ...(path ? { Path: path } : {}) }];
  }
}

const unauthorised = (why: string) => new ApiError(401, 'UK.OBIE.Unauthorised', why);
const forbidden = (why: string, path?: string) => new ApiError(403, 'UK.OBIE.Resource.ConsentMismatch', why, path);
const missing = (path: string) => new ApiError(400, 'UK.OBIE.Field.Missing', `${path} is required`, path);
const invalid = (path: string, why: string) => new ApiError(400, 'UK.OBIE.Field.Invalid', `${path} ${why}`, path);
const notFound = (what: string, path?: string) => new ApiError(400, 'UK.OBIE.Resource.NotFound', `${what} not found`, path);

type Auth =
  | { kind: 'cc'; clientId: string; scopes: string[] }
  | { kind: 'code'; clientId: string; scopes: string[]; consent?: Consent };

interface Req {
  variant: Variant;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  raw: IncomingMessage;
  body: any;
  bodyText: string;
  self: string;
}

const SCOPE_OF: Record<ConsentKind, string> = { ais: 'accounts', cof: 'fundsconfirmations', pis: 'payments' };

const PERMISSIONS = new Set([
  'ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances', 'ReadBeneficiariesBasic', 'ReadBeneficiariesDetail',
  'ReadDirectDebits', 'ReadOffers', 'ReadPAN', 'ReadParty', 'ReadPartyPSU', 'ReadProducts',
  'ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail', 'ReadStandingOrdersBasic', 'ReadStandingOrdersDetail',
  'ReadStatementsBasic', 'ReadStatementsDetail', 'ReadTransactionsBasic', 'ReadTransactionsCredits',
  'ReadTransactionsDebits', 'ReadTransactionsDetail',
]);

const iso = (d: Date) => d.toISOString();
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses an ISO 8601 date-time; one without a zone is read as UTC. */
function parseDateTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(value)) return undefined;
  const t = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : value + 'Z');
  return Number.isNaN(t) ? undefined : t;
}

/** A booking-date query filter: a date or date-time whose zone, if any, is ignored (OBIE). */
function parseFilter(query: URLSearchParams, name: string, endOfDay: boolean): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  const local = value.replace(/(Z|[+-]\d{2}:?\d{2})$/i, '');
  const t = /^\d{4}-\d{2}-\d{2}$/.test(local)
    ? Date.parse(local + (endOfDay ? 'T23:59:59.999Z' : 'T00:00:00Z'))
    : parseDateTime(local);
  if (t === undefined || Number.isNaN(t)) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', `${name} is not a date-time`, name);
  return t;
}

function requireDateTime(data: Record<string, any>, field: string, required: boolean): number | undefined {
  if (data[field] === undefined) {
    if (required) throw missing(`Data.${field}`);
    return undefined;
  }
  const t = parseDateTime(data[field]);
  if (t === undefined) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', `Data.${field} is not an ISO 8601 date-time`, `Data.${field}`);
  return t;
}

function requireAccountRef(value: unknown, path: string): AccountRef {
  if (!isObject(value)) throw missing(path);
  for (const f of ['SchemeName', 'Identification'] as const) {
    if (value[f] === undefined) throw missing(`${path}.${f}`);
    if (typeof value[f] !== 'string' || value[f].length === 0 || value[f].length > 256) throw invalid(`${path}.${f}`, 'must be a string of 1 to 256 characters');
  }
  if (value.Name !== undefined && (typeof value.Name !== 'string' || value.Name.length === 0 || value.Name.length > 350)) throw invalid(`${path}.Name`, 'must be a string of 1 to 350 characters');
  return value as AccountRef;
}

function requireAmount(value: unknown, path: string): { Amount: string; Currency: string } {
  if (!isObject(value)) throw missing(path);
  if (value.Amount === undefined) throw missing(`${path}.Amount`);
  if (value.Currency === undefined) throw missing(`${path}.Currency`);
  if (parseMoney(value.Amount) === undefined) throw invalid(`${path}.Amount`, 'must match ^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$');
  if (typeof value.Currency !== 'string' || !/^[A-Z]{3}$/.test(value.Currency)) throw invalid(`${path}.Currency`, 'must match ^[A-Z]{3,3}$');
  return value as { Amount: string; Currency: string };
}

function requireText(data: Record<string, any>, field: string, path: string, max: number): string {
  if (data[field] === undefined) throw missing(path);
  if (typeof data[field] !== 'string' || data[field].length === 0 || data[field].length > max) throw invalid(path, `must be a string of 1 to ${max} characters`);
  return data[field];
}

/** Builds the resource server's request handler. */
export function createResourceServer(ctx: ResourceContext) {
  const { provider, store, faults } = ctx;

  // ---- tokens ------------------------------------------------------------------------------

  function peerThumbprint(req: IncomingMessage): string | undefined {
    const socket = req.socket as TLSSocket;
    const raw = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate()?.raw : undefined;
    return raw ? createHash('sha256').update(new X509Certificate(raw).raw).digest('base64url') : undefined;
  }

  async function authenticate(r: Req): Promise<Auth | undefined> {
    const header = r.headers.authorization;
    if (!header) return undefined;
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) throw unauthorised('Authorization must be a Bearer token');
    const value = m[1];
    const token = (await provider.AccessToken.find(value)) ?? (await provider.ClientCredentials.find(value));
    if (!token || token.isExpired) throw unauthorised('the access token is invalid or has expired');
    const aud = (token as { aud?: string | string[] }).aud;
    if (!(Array.isArray(aud) ? aud : [aud]).includes(ctx.audience)) throw unauthorised('the access token is not for this resource server');
    const bound = (token as { 'x5t#S256'?: string })['x5t#S256'];
    if (bound && bound !== peerThumbprint(r.raw)) throw unauthorised('the access token is bound to another client certificate');
    const scopes = String(token.scope ?? '').split(' ');
    const clientId = String(token.clientId);
    if (token.kind === 'ClientCredentials') return { kind: 'cc', clientId, scopes };
    const intent = (token as { extra?: { openbanking_intent_id?: string } }).extra?.openbanking_intent_id;
    return { kind: 'code', clientId, scopes, consent: intent ? store.consents.get(intent) : undefined };
  }

  /** Consent endpoints take a client-credentials token with the function's scope. */
  async function clientCredentials(r: Req, scope: string): Promise<Auth & { kind: 'cc' }> {
    const auth = await authenticate(r);
    if (!auth) throw unauthorised('an access token is required');
    if (auth.kind !== 'cc') throw forbidden('this endpoint needs a client-credentials token, not a PSU token');
    if (!auth.scopes.includes(scope)) throw forbidden(`the access token lacks the scope ${scope}`);
    return auth;
  }

  function firstAuthorisedAis(clientId?: string): AisConsent | undefined {
    // The faulty bank falls back on a consent that still works (authorised and unexpired).
    return [...store.consents.values()].find((c): c is AisConsent =>
      c.kind === 'ais' && c.Status === 'Authorised' && c.psu !== undefined && (clientId === undefined || c.clientId === clientId)
      && store.now() < Date.parse(c.ExpirationDateTime));
  }

  /** The Authorised, unexpired account-access consent a data call runs under. */
  async function aisConsent(r: Req): Promise<AisConsent> {
    const auth = await authenticate(r);
    let consent: Consent | undefined;
    if (!auth) {
      consent = faults.has('no-token-data-access') ? firstAuthorisedAis() : undefined;
      if (!consent) throw unauthorised('an access token is required');
    } else if (auth.kind === 'cc') {
      consent = faults.has('client-credentials-data-access') ? firstAuthorisedAis(auth.clientId) : undefined;
      if (!consent) throw forbidden('account data needs the PSU\'s authorization-code token, not a client-credentials token');
    } else {
      consent = auth.consent;
      if (consent?.kind !== 'ais' || !auth.scopes.includes('accounts')) throw forbidden('the access token was not issued for an account-access consent');
    }
    if (consent.kind !== 'ais') throw forbidden('the access token was not issued for an account-access consent');
    if (consent.deleted && !faults.has('deleted-consent-opens-data')) throw unauthorised('the consent has been deleted');
    if (consent.Status !== 'Authorised') throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${consent.Status}`);
    if (store.now() >= Date.parse(consent.ExpirationDateTime) && !faults.has('expired-consent-access')) throw unauthorised('the consent has expired');
    return consent;
  }

  const has = (c: AisConsent, ...permissions: string[]) => permissions.some((p) => c.Permissions.includes(p));

  function needs(c: AisConsent, what: string, ...permissions: string[]): void {
    if (has(c, ...permissions)) return;
    if (!faults.has('permission-not-enforced') || what === 'accounts') throw forbidden(`the consent does not grant ${permissions.join(' or ')}`);
  }

  function consentAccounts(c: AisConsent): FixtureAccount[] {
    const psu = store.psu(c.psu);
    if (!psu) return [];
    return faults.has('unselected-accounts') ? psu.accounts : psu.accounts.filter((a) => c.accounts.includes(a.AccountId));
  }

  function consentAccount(c: AisConsent, accountId: string): FixtureAccount {
    const account = consentAccounts(c).find((a) => a.AccountId === accountId);
    if (!account) throw forbidden('the account is not part of this consent', 'AccountId');
    return account;
  }

  // ---- representations ---------------------------------------------------------------------

  function accountView(a: FixtureAccount, detail: boolean) {
    return {
      AccountId: a.AccountId,
      Status: 'Enabled',
      StatusUpdateDateTime: iso(a.OpeningDate),
      ...(faults.has('account-field-missing') ? {} : { Currency: faults.has('currency-lowercase') ? a.Currency.toLowerCase() : a.Currency }),
      AccountType: a.AccountType,
      AccountSubType: a.AccountSubType,
      Nickname: a.Nickname,
      OpeningDate: iso(a.OpeningDate),
      ...(detail ? {
        Account: [{ SchemeName: a.SchemeName, Identification: a.Identification, Name: a.Name }],
        Servicer: { SchemeName: 'UK.OBIE.BICFI', Identification: 'SBXBGB2LXXX' },
      } : {}),
    };
  }

  const amount = (minor: number, currency: string) => ({ Amount: money(minor), Currency: currency });
  const indicator = (minor: number) => (minor < 0 ? 'Debit' : 'Credit');

  function transactionView(a: FixtureAccount, t: FixtureTransaction, detail: boolean) {
    return {
      AccountId: a.AccountId,
      TransactionId: t.TransactionId,
      TransactionReference: t.reference,
      CreditDebitIndicator: t.credit ? 'Credit' : 'Debit',
      Status: 'Booked',
      BookingDateTime: iso(t.booking),
      ValueDateTime: iso(t.booking),
      Amount: amount(t.amount, a.Currency),
      BankTransactionCode: t.code,
      ...(detail ? {
        TransactionInformation: t.information,
        Balance: { CreditDebitIndicator: indicator(t.balanceAfter), Type: 'InterimBooked', Amount: amount(t.balanceAfter, a.Currency) },
        ...(t.credit ? {} : { MerchantDetails: { MerchantName: t.counterparty } }),
      } : {}),
    };
  }

  /** The booking window a consent allows, narrowed by the query filter (never an error). */
  function window(c: AisConsent, r: Req): { from: number; to: number } {
    const bounded = !faults.has('transactions-outside-period');
    const from = Math.max(bounded ? Date.parse(c.TransactionFromDateTime) : -Infinity, parseFilter(r.query, 'fromBookingDateTime', false) ?? -Infinity);
    const to = Math.min(bounded ? Date.parse(c.TransactionToDateTime) : Infinity, parseFilter(r.query, 'toBookingDateTime', true) ?? Infinity);
    return { from, to };
  }

  /** Which transactions a consent shows: inside the window, in the directions it grants. */
  function visible(c: AisConsent, t: FixtureTransaction, w: { from: number; to: number }): boolean {
    const time = t.booking.getTime();
    if (time < w.from || time > w.to) return false;
    if (faults.has('permission-not-enforced') && !has(c, 'ReadTransactionsCredits', 'ReadTransactionsDebits')) return true;
    return t.credit ? has(c, 'ReadTransactionsCredits') : has(c, 'ReadTransactionsDebits');
  }

  const links = (r: Req) => ({ Self: r.self });
  const status = (r: Req, created: boolean) => (created && faults.has('create-200') ? 200 : created ? 201 : 200);

  // ---- creates: idempotency ------------------------------------------------------------------

  /** Replays the resource an earlier create with the same x-idempotency-key made, or makes a new one. */
  function idempotent<C extends Consent>(r: Req, clientId: string, route: string, required: boolean, create: () => C): C {
    const key = r.headers['x-idempotency-key'];
    if (key === undefined) {
      if (required) throw new ApiError(400, 'UK.OBIE.Header.Missing', 'x-idempotency-key is required', 'x-idempotency-key');
      return create();
    }
    if (typeof key !== 'string' || key.length === 0 || key.length > 40 || !/^(?!\s)(.*)(\S)$/.test(key)) {
      throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key must be 1 to 40 characters without surrounding spaces', 'x-idempotency-key');
    }
    const slot = `${clientId} ${route} ${key}`;
    const body = JSON.stringify(r.body);
    const seen = store.idempotency.get(slot);
    if (seen) {
      if (seen.body !== body) throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key was already used with a different body', 'x-idempotency-key');
      const earlier = store.consents.get(seen.id);
      if (earlier) return earlier as C;
    }
    const made = create();
    store.idempotency.set(slot, { body, id: made.ConsentId });
    return made;
  }

  // ---- account information -----------------------------------------------------------------

  async function createAccountAccessConsent(r: Req): Promise<Reply> {
    const auth = await clientCredentials(r, 'accounts');
    const data = r.body?.Data;
    if (!isObject(data)) throw missing('Data');
    const permissions = data.Permissions;
    if (permissions === undefined) throw missing('Data.Permissions');
    if (!Array.isArray(permissions) || permissions.length === 0) throw invalid('Data.Permissions', 'must list at least one permission');
    for (const p of permissions) if (typeof p !== 'string' || !PERMISSIONS.has(p)) throw invalid('Data.Permissions', `has an unknown permission ${JSON.stringify(p)}`);
    const set = new Set<string>(permissions);
    if (!set.has('ReadAccountsBasic') && !set.has('ReadAccountsDetail')) throw invalid('Data.Permissions', 'must include ReadAccountsBasic or ReadAccountsDetail');
    const kinds = set.has('ReadTransactionsBasic') || set.has('ReadTransactionsDetail');
    const directions = set.has('ReadTransactionsCredits') || set.has('ReadTransactionsDebits');
    if (kinds !== directions) throw invalid('Data.Permissions', 'must pair ReadTransactionsBasic/Detail with ReadTransactionsCredits/Debits');
    const expiry = requireDateTime(data, 'ExpirationDateTime', true)!;
    const from = requireDateTime(data, 'TransactionFromDateTime', true)!;
    const to = requireDateTime(data, 'TransactionToDateTime', true)!;
    if (expiry <= store.now()) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', 'Data.ExpirationDateTime is in the past', 'Data.ExpirationDateTime');
    if (from > to) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', 'Data.TransactionFromDateTime is after Data.TransactionToDateTime', 'Data.TransactionFromDateTime');
    if (r.body.Risk !== undefined && !isObject(r.body.Risk)) throw invalid('Risk', 'must be an object');
    const consent = idempotent(r, auth.clientId, 'account-access-consents', false, () => store.add<AisConsent>({
      kind: 'ais', clientId: auth.clientId,
      Status: faults.has('consent-status-not-awaiting') ? 'Authorised' : 'AwaitingAuthorisation',
      Permissions: [...permissions], ExpirationDateTime: data.ExpirationDateTime,
      TransactionFromDateTime: data.TransactionFromDateTime, TransactionToDateTime: data.TransactionToDateTime, accounts: [],
    }));
    return {
      status: status(r, true),
      body: {
        Data: {
          ConsentId: consent.ConsentId, Status: consent.Status, CreationDateTime: iso(consent.CreationDateTime), StatusUpdateDateTime: iso(consent.StatusUpdateDateTime),
          Permissions: consent.Permissions, ExpirationDateTime: consent.ExpirationDateTime,
          TransactionFromDateTime: consent.TransactionFromDateTime, TransactionToDateTime: consent.TransactionToDateTime,
        },
        Risk: {},
        Links: { Self: `${r.self}/${consent.ConsentId}` },
        Meta: {},
      },
    };
  }

  /** The account-access consent as a read answers it (AIS-02's read-back side). */
  function aisConsentBody(c: AisConsent, self: string) {
    // The fault reads back dates the TPP never asked for; what the consent grants stays as it was.
    const changed = faults.has('consent-reads-back-changed') && c.Status === 'Authorised';
    const shift = (value: string, years: number) => {
      const d = new Date(value);
      d.setUTCFullYear(d.getUTCFullYear() + years);
      return iso(d);
    };
    return {
      Data: {
        ConsentId: c.ConsentId, Status: c.Status, CreationDateTime: iso(c.CreationDateTime), StatusUpdateDateTime: iso(c.StatusUpdateDateTime),
        Permissions: c.Permissions,
        ExpirationDateTime: changed ? shift(c.ExpirationDateTime, 1) : c.ExpirationDateTime,
        TransactionFromDateTime: changed ? shift(c.TransactionFromDateTime, -1) : c.TransactionFromDateTime,
        TransactionToDateTime: c.TransactionToDateTime,
      },
      Risk: {},
      Links: { Self: self },
      Meta: {},
    };
  }

  /** The client's own account-access consent named in the path; a deleted one is gone (400, as the standard says). */
  async function ownAisConsent(r: Req): Promise<AisConsent> {
    const auth = await clientCredentials(r, 'accounts');
    const c = store.consents.get(r.params.consentId);
    if (!c || c.kind !== 'ais' || c.clientId !== auth.clientId || c.deleted) throw notFound('account-access consent', 'ConsentId');
    return c;
  }

  async function getAccountAccessConsent(r: Req): Promise<Reply> {
    const c = await ownAisConsent(r);
    return { status: 200, body: aisConsentBody(c, r.self) };
  }

  /** Deletes the consent and revokes every token issued for it (unless the fault keeps them working). */
  async function deleteAccountAccessConsent(r: Req): Promise<Reply> {
    const c = await ownAisConsent(r);
    c.deleted = true;
    if (!faults.has('deleted-consent-opens-data')) {
      for (const [grantId, intent] of store.intentByGrant) {
        if (intent !== c.ConsentId) continue;
        await provider.AccessToken.revokeByGrantId(grantId);
        await provider.RefreshToken.revokeByGrantId(grantId);
      }
    }
    return { status: 204 };
  }

  async function listAccounts(r: Req): Promise<Reply> {
    const c = await aisConsent(r);
    needs(c, 'accounts', 'ReadAccountsBasic', 'ReadAccountsDetail');
    const detail = has(c, 'ReadAccountsDetail');
    const accounts = consentAccounts(c).map((a) => accountView(a, detail));
    // The fault answers the list's first account as an object where the standard wants an array.
    return { status: 200, body: { Data: { Account: faults.has('accounts-not-array') ? accounts[0] ?? {} : accounts }, Links: links(r), Meta: { TotalPages: 1 } } };
  }

  async function getAccount(r: Req): Promise<Reply> {
    const c = await aisConsent(r);
    needs(c, 'accounts', 'ReadAccountsBasic', 'ReadAccountsDetail');
    const a = consentAccount(c, r.params.accountId);
    return { status: 200, body: { Data: { Account: [accountView(a, has(c, 'ReadAccountsDetail'))] }, Links: links(r), Meta: { TotalPages: 1 } } };
  }

  async function getBalances(r: Req): Promise<Reply> {
    const c = await aisConsent(r);
    needs(c, 'balances', 'ReadBalances');
    const a = consentAccount(c, r.params.accountId);
    const now = iso(new Date(store.now()));
    // The zero-balance data fault shows an empty account (its funds confirmations still use the real balance).
    const empty = faults.has('zero-balance');
    const available = empty ? 0 : availableBalance(a);
    const booked = empty ? 0 : a.booked;
    const balance = [
      { AccountId: a.AccountId, CreditDebitIndicator: indicator(booked), Type: 'InterimBooked', DateTime: now, Amount: amount(booked, a.Currency) },
      {
        AccountId: a.AccountId, CreditDebitIndicator: indicator(available), Type: 'InterimAvailable', DateTime: now, Amount: amount(available, a.Currency),
        ...(a.creditLine > 0 && !empty ? { CreditLine: [{ Included: true, Type: 'Pre-Agreed', Amount: amount(a.creditLine, a.Currency) }] } : {}),
      },
    ];
    return { status: 200, body: { Data: { Balance: balance }, Links: links(r), Meta: { TotalPages: 1 } } };
  }

  function periodMeta(a: FixtureAccount, w: { from: number; to: number }) {
    const first = Number.isFinite(w.from) ? w.from : a.transactions[0]?.booking.getTime() ?? store.now();
    const last = Number.isFinite(w.to) ? w.to : store.now();
    return { TotalPages: 1, FirstAvailableDateTime: iso(new Date(first)), LastAvailableDateTime: iso(new Date(Math.max(first, last))) };
  }

  async function getTransactions(r: Req): Promise<Reply> {
    const c = await aisConsent(r);
    needs(c, 'transactions', 'ReadTransactionsBasic', 'ReadTransactionsDetail');
    const a = consentAccount(c, r.params.accountId);
    const w = window(c, r);
    const detail = has(c, 'ReadTransactionsDetail');
    const list = a.transactions.filter((t) => visible(c, t, w)).map((t) => transactionView(a, t, detail));
    return { status: 200, body: { Data: { Transaction: list }, Links: links(r), Meta: periodMeta(a, w) } };
  }

  async function getTransaction(r: Req): Promise<Reply> {
    const c = await aisConsent(r);
    needs(c, 'transactions', 'ReadTransactionsBasic', 'ReadTransactionsDetail');
    const a = consentAccount(c, r.params.accountId);
    const w = window(c, r);
    const t = a.transactions.find((x) => x.TransactionId === r.params.resourceId);
    if (!t || !visible(c, t, w)) throw notFound('transaction', 'resourceId');
    return { status: 200, body: { Data: { Transaction: [transactionView(a, t, has(c, 'ReadTransactionsDetail'))] }, Links: links(r), Meta: { TotalPages: 1 } } };
  }

  // ---- confirmation of funds ---------------------------------------------------------------

  function fundsConsentBody(r: Req, c: CofConsent, self: string) {
    return {
      Data: {
        ConsentId: c.ConsentId, CreationDateTime: iso(c.CreationDateTime), Status: c.Status, StatusUpdateDateTime: iso(c.StatusUpdateDateTime),
        ...(c.ExpirationDateTime !== undefined ? { ExpirationDateTime: c.ExpirationDateTime } : {}),
        ...(c.DebtorAccount ? { DebtorAccount: c.DebtorAccount } : {}),
      },
      Links: { Self: self },
      Meta: {},
    };
  }

  async function createFundsConsent(r: Req): Promise<Reply> {
    const auth = await clientCredentials(r, 'fundsconfirmations');
    const data = r.body?.Data;
    if (!isObject(data)) throw missing('Data');
    const debtor = data.DebtorAccount === undefined && faults.has('funds-consent-without-debtor')
      ? undefined
      : requireAccountRef(data.DebtorAccount, 'Data.DebtorAccount');
    const expiry = requireDateTime(data, 'ExpirationDateTime', false);
    if (expiry !== undefined && expiry <= store.now()) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', 'Data.ExpirationDateTime is in the past', 'Data.ExpirationDateTime');
    const consent = idempotent(r, auth.clientId, 'funds-confirmation-consents', false, () => store.add<CofConsent>({
      kind: 'cof', clientId: auth.clientId, Status: 'AwaitingAuthorisation',
      DebtorAccount: debtor as AccountRef, ExpirationDateTime: data.ExpirationDateTime, deleted: false,
    }));
    return { status: status(r, true), body: fundsConsentBody(r, consent, `${r.self}/${consent.ConsentId}`) };
  }

  async function ownFundsConsent(r: Req): Promise<CofConsent> {
    const auth = await clientCredentials(r, 'fundsconfirmations');
    const c = store.consents.get(r.params.consentId);
    if (!c || c.kind !== 'cof' || c.clientId !== auth.clientId || c.deleted) throw notFound('funds-confirmation consent', 'ConsentId');
    return c;
  }

  async function getFundsConsent(r: Req): Promise<Reply> {
    const c = await ownFundsConsent(r);
    return { status: 200, body: fundsConsentBody(r, c, r.self) };
  }

  async function deleteFundsConsent(r: Req): Promise<Reply> {
    const c = await ownFundsConsent(r);
    c.deleted = true;
    store.setStatus(c, 'Revoked');
    return { status: 204 };
  }

  async function confirmFunds(r: Req): Promise<Reply> {
    const auth = await authenticate(r);
    if (!auth) throw unauthorised('an access token is required');
    const data = r.body?.Data;
    if (!isObject(data)) throw missing('Data');
    const consentId = requireText(data, 'ConsentId', 'Data.ConsentId', 128);
    const reference = requireText(data, 'Reference', 'Data.Reference', 35);
    const instructed = requireAmount(data.InstructedAmount, 'Data.InstructedAmount');
    let consent: Consent | undefined;
    if (auth.kind === 'cc') {
      if (!faults.has('funds-unauthorised-consent')) throw forbidden('funds confirmations need the PSU\'s authorization-code token, not a client-credentials token');
      consent = store.consents.get(consentId);
      if (consent?.clientId !== auth.clientId) consent = undefined;
    } else {
      if (auth.consent?.kind !== 'cof' || !auth.scopes.includes('fundsconfirmations')) throw forbidden('the access token was not issued for a funds-confirmation consent');
      consent = auth.consent;
      if (consentId !== consent.ConsentId) {
        const other = faults.has('funds-consent-mismatch') ? store.consents.get(consentId) : undefined;
        if (!other) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId is not the consent this token was authorised for', 'Data.ConsentId');
        consent = other;
      }
    }
    if (consent?.kind !== 'cof') throw notFound('funds-confirmation consent', 'Data.ConsentId');
    if (consent.deleted && !faults.has('deleted-funds-consent-confirms')) throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', 'the consent has been deleted', 'Data.ConsentId');
    if (consent.Status !== 'Authorised' && !(consent.deleted && faults.has('deleted-funds-consent-confirms')) && !faults.has('funds-unauthorised-consent')) {
      throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${consent.Status}`, 'Data.ConsentId');
    }
    if (consent.ExpirationDateTime !== undefined && store.now() >= Date.parse(consent.ExpirationDateTime) && !faults.has('expired-funds-consent-confirms')) {
      throw unauthorised('the consent has expired');
    }
    const account = (consent.accountId ? store.account(consent.accountId)?.account : undefined) ?? store.accountByRef(consent.DebtorAccount);
    if (!account) throw notFound('debtor account', 'Data.ConsentId');
    if (instructed.Currency !== account.Currency) {
      throw new ApiError(400, 'UK.OBIE.Unsupported.Currency', `the account holds ${account.Currency}`, 'Data.InstructedAmount.Currency');
    }
    const available = availableBalance(account);
    const fundsAvailable = faults.has('funds-answer-wrong') || parseMoney(instructed.Amount)! <= available;
    const fundsConfirmationId = randomUUID();
    return {
      status: status(r, true),
      body: {
        Data: {
          FundsConfirmationId: fundsConfirmationId, ConsentId: consentId, CreationDateTime: iso(new Date(store.now())), FundsAvailable: fundsAvailable,
          Reference: reference, InstructedAmount: instructed,
          ...(faults.has('funds-balance-disclosed') ? { AvailableBalance: amount(available, account.Currency) } : {}),
        },
        Links: { Self: `${r.self}/${fundsConfirmationId}` },
        Meta: {},
      },
    };
  }

  // ---- payment initiation (variant A) ------------------------------------------------------

  function paymentBody(c: PisConsent, self: string) {
    return {
      Data: {
        ConsentId: c.ConsentId, CreationDateTime: iso(c.CreationDateTime), Status: c.Status, StatusUpdateDateTime: iso(c.StatusUpdateDateTime),
        Initiation: c.Initiation,
        ...(c.Debtor ? { Debtor: c.Debtor } : {}),
      },
      Risk: c.Risk,
      Links: { Self: self },
      Meta: {},
    };
  }

  /**
   * POST /{payment-product}: creates the payment-order consent or, when the body names its consent
   * (`OBWriteDomestic2`, Data.ConsentId), submits the payment order: in the seed, the consent and the
   * order share the collection, and GET /{payment-product}/{id} reads either.
   */
  async function createPayment(r: Req): Promise<Reply> {
    if (isObject(r.body?.Data) && r.body.Data.ConsentId !== undefined) return submitPayment(r);
    const auth = await clientCredentials(r, 'payments');
    const data = r.body?.Data;
    if (!isObject(data)) throw missing('Data');
    const initiation = data.Initiation;
    if (!isObject(initiation)) throw missing('Data.Initiation');
    requireText(initiation, 'InstructionIdentification', 'Data.Initiation.InstructionIdentification', 35);
    requireText(initiation, 'EndToEndIdentification', 'Data.Initiation.EndToEndIdentification', 35);
    requireAmount(initiation.InstructedAmount, 'Data.Initiation.InstructedAmount');
    requireAccountRef(initiation.CreditorAccount, 'Data.Initiation.CreditorAccount');
    if (initiation.CreditorAccount.Name === undefined) throw missing('Data.Initiation.CreditorAccount.Name');
    if (initiation.DebtorAccount !== undefined) requireAccountRef(initiation.DebtorAccount, 'Data.Initiation.DebtorAccount');
    if (r.body.Risk === undefined) throw missing('Risk');
    if (!isObject(r.body.Risk)) throw invalid('Risk', 'must be an object');
    const consent = idempotent(r, auth.clientId, 'domestic-payments', true, () => store.add<PisConsent>({
      kind: 'pis', clientId: auth.clientId, Status: 'AwaitingAuthorisation',
      Initiation: initiation as PisConsent['Initiation'], Risk: r.body.Risk,
    }));
    return { status: status(r, true), body: paymentBody(consent, `${r.self}/${consent.ConsentId}`) };
  }

  function orderBody(o: PaymentOrder, self: string) {
    return {
      Data: {
        DomesticPaymentId: o.DomesticPaymentId, ConsentId: o.ConsentId, CreationDateTime: iso(o.CreationDateTime), Status: o.Status,
        StatusUpdateDateTime: iso(o.StatusUpdateDateTime), Initiation: o.Initiation, ...(o.Debtor ? { Debtor: o.Debtor } : {}),
      },
      Links: { Self: self },
      Meta: {},
    };
  }

  /** POST of a payment order: the PSU's token for the consent, the consent's Initiation and Risk unchanged, once. */
  async function submitPayment(r: Req): Promise<Reply> {
    const auth = await authenticate(r);
    if (!auth) throw unauthorised('an access token is required');
    if (auth.kind !== 'code') throw forbidden('a payment order needs the PSU\'s authorization-code token, not a client-credentials token');
    if (!auth.scopes.includes('payments') || auth.consent?.kind !== 'pis') throw forbidden('the access token was not issued for a payment-order consent');
    const consent = auth.consent;
    const data = r.body.Data;
    const consentId = requireText(data, 'ConsentId', 'Data.ConsentId', 128);
    if (consentId !== consent.ConsentId) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId is not the consent this token was authorised for', 'Data.ConsentId');
    if (!isObject(data.Initiation)) throw missing('Data.Initiation');
    if (r.body.Risk === undefined) throw missing('Risk');
    if (!sameJson(data.Initiation, consent.Initiation)) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.Initiation differs from the consent\'s', 'Data.Initiation');
    if (!sameJson(r.body.Risk, consent.Risk)) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Risk differs from the consent\'s', 'Risk');
    const key = r.headers['x-idempotency-key'];
    if (typeof key !== 'string' || key === '') throw new ApiError(400, 'UK.OBIE.Header.Missing', 'x-idempotency-key is required', 'x-idempotency-key');
    if (key.length > 40) throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key must be at most 40 characters', 'x-idempotency-key');
    const slot = `${auth.clientId} payment-orders ${key}`;
    const seen = store.idempotency.get(slot);
    if (seen) {
      if (seen.body !== JSON.stringify(r.body)) throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key was already used with a different body', 'x-idempotency-key');
      const earlier = store.orders.get(seen.id);
      if (earlier) return { status: status(r, true), body: orderBody(earlier, `${r.self}/${earlier.DomesticPaymentId}`) };
    }
    const twice = faults.has('payment-submitted-twice');
    const used = [...store.orders.values()].some((o) => o.ConsentId === consent.ConsentId);
    if (consent.Status !== 'Authorised' && !(twice && consent.Status === 'Consumed')) {
      throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${consent.Status}`, 'Data.ConsentId');
    }
    if (used && !twice) throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', 'the consent has already been used for a payment order', 'Data.ConsentId');
    const now = new Date(store.now());
    const order: PaymentOrder = {
      DomesticPaymentId: `dp-${randomUUID()}`, ConsentId: consent.ConsentId, clientId: auth.clientId, Status: 'AcceptedSettlementInProcess',
      CreationDateTime: now, StatusUpdateDateTime: now, Initiation: consent.Initiation,
      ...(consent.Debtor ?? consent.Initiation.DebtorAccount ? { Debtor: consent.Debtor ?? consent.Initiation.DebtorAccount } : {}),
    };
    store.orders.set(order.DomesticPaymentId, order);
    store.idempotency.set(slot, { body: JSON.stringify(r.body), id: order.DomesticPaymentId });
    if (!faults.has('consent-not-consumed')) store.setStatus(consent, 'Consumed');
    return { status: status(r, true), body: orderBody(order, `${r.self}/${order.DomesticPaymentId}`) };
  }

  /** A payment order read: the client's own client-credentials token, or the PSU token of its consent. */
  async function ownOrder(r: Req): Promise<PaymentOrder | undefined> {
    const o = store.orders.get(r.params.paymentId);
    if (!o) return undefined;
    const auth = await authenticate(r);
    if (!auth) throw unauthorised('an access token is required');
    if (!auth.scopes.includes('payments')) throw forbidden('the access token lacks the scope payments');
    if (o.clientId !== auth.clientId) throw notFound('payment', 'paymentId');
    if (auth.kind === 'code' && auth.consent?.ConsentId !== o.ConsentId) throw forbidden('the access token was authorised for another payment');
    return o;
  }

  async function getPaymentDetails(r: Req): Promise<Reply> {
    const o = await ownOrder(r);
    if (!o) throw notFound('payment order', 'DomesticPaymentId');
    return {
      status: 200,
      body: { Data: { PaymentStatus: [{ PaymentTransactionId: `${o.DomesticPaymentId}-1`, Status: o.Status, StatusUpdateDateTime: iso(o.StatusUpdateDateTime) }] }, Links: links(r), Meta: {} },
    };
  }

  /** GET …/{ConsentId}/funds-confirmation: under the PSU's token, for an authorised consent only (FACTS §4.3). */
  async function getPaymentFunds(r: Req): Promise<Reply> {
    const auth = await authenticate(r);
    if (!auth) throw unauthorised('an access token is required');
    const c = store.consents.get(r.params.paymentId);
    if (!c || c.kind !== 'pis' || c.clientId !== auth.clientId) throw notFound('payment', 'ConsentId');
    const lax = faults.has('payment-funds-unauthorised');
    if (auth.kind === 'cc' && !lax) throw forbidden('the funds check needs the PSU\'s authorization-code token');
    if (auth.kind === 'code' && auth.consent?.ConsentId !== c.ConsentId) throw forbidden('the access token was authorised for another payment');
    if (c.Status !== 'Authorised' && !lax) throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${c.Status}`, 'ConsentId');
    const debtor = c.Debtor ?? c.Initiation.DebtorAccount;
    const account = store.accountByRef(debtor);
    const wanted = parseMoney(c.Initiation.InstructedAmount.Amount) ?? Infinity;
    return {
      status: 200,
      body: { Data: { FundsAvailableResult: { FundsAvailableDateTime: iso(new Date(store.now())), FundsAvailable: account ? wanted <= availableBalance(account) : false } }, Links: links(r), Meta: {} },
    };
  }

  /** A payment read: the client's own client-credentials token, or that payment's PSU token. */
  async function ownPayment(r: Req): Promise<PisConsent> {
    const auth = await authenticate(r);
    if (!auth) throw unauthorised('an access token is required');
    if (!auth.scopes.includes('payments')) throw forbidden('the access token lacks the scope payments');
    const c = store.consents.get(r.params.paymentId);
    if (!c || c.kind !== 'pis' || c.clientId !== auth.clientId) throw notFound('payment', 'paymentId');
    if (auth.kind === 'code' && auth.consent?.ConsentId !== c.ConsentId) throw forbidden('the access token was authorised for another payment');
    return c;
  }

  async function getPayment(r: Req): Promise<Reply> {
    const o = await ownOrder(r);
    if (o) return { status: 200, body: orderBody(o, r.self) };
    const c = await ownPayment(r);
    return { status: 200, body: paymentBody(c, r.self) };
  }

  async function getPaymentStatus(r: Req): Promise<Reply> {
    const o = await ownOrder(r);
    const c = o ? undefined : await ownPayment(r);
    if (faults.has('payment-status-unreadable')) throw new ApiError(500, 'UK.OBIE.UnexpectedError', 'the payment status could not be read');
    if (o) return { status: 200, body: { Data: { ConsentId: o.ConsentId, DomesticPaymentId: o.DomesticPaymentId, Status: o.Status, StatusUpdateDateTime: iso(o.StatusUpdateDateTime) }, Links: links(r), Meta: {} } };
    if (!c) throw notFound('payment', 'paymentId');
    return { status: 200, body: { Data: { ConsentId: c.ConsentId, Status: c.Status, StatusUpdateDateTime: iso(c.StatusUpdateDateTime) }, Links: links(r), Meta: {} } };
  }

  // ---- routing -----------------------------------------------------------------------------

  interface Route {
    variants: Variant[];
    method: string;
    pattern: string[];
    handler: (r: Req) => Promise<Reply>;
    /** The operation's name (the handler's, as wire.md names it): what chaos faults hook on. */
    operation: string;
  }
  const AB: Variant[] = ['A', 'B'];
  const A: Variant[] = ['A'];
  const route = (variants: Variant[], method: string, path: string, handler: Route['handler']): Route =>
    ({ variants, method, pattern: path.split('/').filter(Boolean), handler, operation: handler.name });
  const routes: Route[] = [
    route(AB, 'POST', '/account-access-consents', createAccountAccessConsent),
    route(AB, 'POST', '/consents', createAccountAccessConsent),
    // Read and delete: the spec leaves revocation "not shown", so the UK standard's endpoints, in both variants.
    route(AB, 'GET', '/account-access-consents/:consentId', getAccountAccessConsent),
    route(AB, 'DELETE', '/account-access-consents/:consentId', deleteAccountAccessConsent),
    route(AB, 'GET', '/consents/:consentId', getAccountAccessConsent),
    route(AB, 'DELETE', '/consents/:consentId', deleteAccountAccessConsent),
    route(AB, 'GET', '/accounts', listAccounts),
    route(AB, 'GET', '/accounts/:accountId', getAccount),
    route(AB, 'GET', '/accounts/:accountId/balances', getBalances),
    route(AB, 'GET', '/accounts/:accountId/transactions', getTransactions),
    route(AB, 'POST', '/funds-confirmation-consents', createFundsConsent),
    route(A, 'GET', '/funds-confirmation-consents/:consentId', getFundsConsent),
    route(A, 'DELETE', '/funds-confirmation-consents/:consentId', deleteFundsConsent),
    route(AB, 'POST', '/funds-confirmations', confirmFunds),
    route(A, 'POST', '/domestic-payments', createPayment),
    route(A, 'GET', '/domestic-payments/:paymentId', getPayment),
    route(A, 'GET', '/domestic-payments/:paymentId/status', getPaymentStatus),
    route(A, 'GET', '/domestic-payments/:paymentId/payment-details', getPaymentDetails),
    route(A, 'GET', '/domestic-payments/:paymentId/funds-confirmation', getPaymentFunds),
    // Variant A's transaction detail sits directly under the base, as the spec writes it.
    route(A, 'GET', '/:accountId/transactions/:resourceId', getTransaction),
  ];

  function errorBody(status: number, errors: ErrorItem[]) {
    if (faults.has('error-body-not-ob')) return { error: errors[0].ErrorCode, error_description: errors[0].Message };
    return { Code: `${status} ${STATUS_CODES[status]}`, Id: randomUUID(), Message: errors[0].Message, Errors: errors };
  }

  const baseHeaders = (interactionId: string): Record<string, string> => ({ 'x-fapi-interaction-id': interactionId, 'cache-control': 'no-store' });

  /** The one exit of every resource response (a chaos fault may write in its place). */
  function send(res: ServerResponse, interactionId: string, reply: Reply): void {
    const headers = { ...baseHeaders(interactionId), ...reply.headers };
    let payload: string | undefined;
    if (reply.body !== undefined) {
      payload = JSON.stringify(reply.body);
      headers['content-type'] = 'application/json; charset=utf-8';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    res.writeHead(reply.status, headers);
    res.end(payload);
  }

  /** Serves one request under `/{variant}/open-banking/v3.1`; `path` is the rest. */
  return async function handle(req: IncomingMessage, res: ServerResponse, variant: Variant, path: string, search: string): Promise<void> {
    const sent = req.headers['x-fapi-interaction-id'];
    const interactionId = typeof sent === 'string' && sent !== '' && !faults.has('interaction-id-not-echoed') ? sent : randomUUID();
    const { reply, operation } = await dispatch(req, variant, path, search);
    if (operation && PIS_HANDLERS.has(operation) && reply.body !== undefined && !faults.has('unsigned-payment-responses')) {
      const key = (faults.has('bad-response-signature') && ctx.signing.strayKey) || ctx.signing.bankKey;
      reply.headers = { ...reply.headers, 'x-jws-signature': await signAsBank(JSON.stringify(reply.body), key, ctx.signing.issuer) };
    }
    const chaos = operation ? chaosFor(faults, operation) : undefined;
    if (!chaos) return send(res, interactionId, reply);
    // The TPP may hang up on a broken answer; that must not become an error of the sandbox.
    res.on('error', () => undefined);
    chaos.write({ req, res, headers: baseHeaders(interactionId), reply, send: () => send(res, interactionId, reply) });
  };

  async function dispatch(req: IncomingMessage, variant: Variant, path: string, search: string): Promise<{ reply: Reply; operation?: string }> {
    const segments = pathSegments(path);
    const method = req.method ?? 'GET';
    let pathMatched = false;
    for (const candidate of routes) {
      if (!candidate.variants.includes(variant)) continue;
      const params = matchPath(candidate.pattern, segments);
      if (!params) continue;
      pathMatched = true;
      if (candidate.method !== method) continue;
      const operation = candidate.operation;
      const instead = chaosFor(faults, operation)?.instead;
      if (instead) return { reply: instead, operation };
      return { reply: await run(candidate, req, variant, method, path, params, search), operation };
    }
    return { reply: { status: pathMatched ? 405 : 404 } };
  }

  async function run(candidate: Route, req: IncomingMessage, variant: Variant, method: string, path: string, params: Record<string, string>, search: string): Promise<Reply> {
    try {
      let body: unknown;
      let bodyText = '';
      if (method === 'POST') {
        if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return { status: 415 };
        bodyText = await readBody(req);
        if (SIGNED_REQUESTS.has(candidate.operation) && !faults.has('unsigned-requests-accepted')) {
          const refusal = await checkTppSignature(req.headers['x-jws-signature'], bodyText, ctx.signing.tppKeys);
          if (refusal) throw new ApiError(400, `UK.OBIE.Signature.${refusal.code}`, refusal.message, 'x-jws-signature');
        }
        try {
          body = JSON.parse(bodyText);
        } catch {
          throw new ApiError(400, 'UK.OBIE.Resource.InvalidFormat', 'the body is not valid JSON');
        }
      }
      const r: Req = {
        variant, method, path, params, query: new URLSearchParams(search), headers: req.headers, raw: req, body, bodyText,
        self: `${ctx.baseUrls[variant]}${path}`,
      };
      return await candidate.handler(r);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return { status: 413 };
      if (error instanceof ApiError) return error.status === 401 ? { status: 401 } : { status: error.status, body: errorBody(error.status, error.errors) };
      return { status: 500, body: errorBody(500, [{ ErrorCode: 'UK.OBIE.UnexpectedError', Message: 'the sandbox failed to answer' }]) };
    }
  }
}
