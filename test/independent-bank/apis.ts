/**
 * The independent bank's three resource servers — account information (/aisp), funds confirmation
 * (/cbpii) and payment initiation (/pisp) — each its own HTTP server, verifying the authorisation
 * server's JWT access tokens against its published JWKS. Bodies carry only what the official
 * v3.1.11 schemas require (no Links, no Meta, no optional account fields); at v4.0 (state.version)
 * what v4.0's require, in its codes (v4.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { calculateJwkThumbprint, createRemoteJWKSet, EmbeddedJWK, jwtVerify } from 'jose';
import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { API_AUDIENCE } from './auth.ts';
import { amountOf, penceOf } from './data.ts';
import type { AccessConsent, BankState, Consent, FundsConsent, PaymentConsent } from './state.ts';
import { nowIso } from './state.ts';
import type { MessageSigning } from './signing.ts';
import { consentStatus, errorBody, initiationV4, readStatus, risk as riskV4 } from './v4.ts';

export type Variant = 'A' | 'B';

export interface Reply {
  status: number;
  body?: unknown;
  /** A body sent as these exact bytes (a payment file read back), not as JSON. */
  raw?: string;
  /** Headers of the answer beyond the standard's own (v4.0 VRP consents: payload-version). */
  headers?: Record<string, string>;
}

/** A refusal: 400/403 with an OBErrorResponse1 body; 401, 404, 405, 415 without one. */
export class Refusal extends Error {
  readonly status: number;
  readonly errorCode?: string;
  readonly path?: string;
  constructor(status: number, message: string, errorCode?: string, path?: string) {
    super(message);
    this.status = status;
    this.errorCode = errorCode;
    this.path = path;
  }
}

export const missing = (path: string) => new Refusal(400, `${path} is required`, 'UK.OBIE.Field.Missing', path);
export const invalid = (path: string, why: string) => new Refusal(400, `${path} ${why}`, 'UK.OBIE.Field.Invalid', path);
export const badDate = (path: string, why: string) => new Refusal(400, `${path} ${why}`, 'UK.OBIE.Field.InvalidDate', path);
export const notFound = (what: string) => new Refusal(400, `${what} does not exist`, 'UK.OBIE.Resource.NotFound');
export const forbidden = (why: string) => new Refusal(403, why, 'UK.OBIE.Resource.ConsentMismatch');
export const unauthorised = (why: string) => new Refusal(401, why);

export interface Token extends JWTPayload {
  scope?: string;
  client_id?: string;
  token_use?: 'psu' | 'tpp';
  openbanking_intent_id?: string;
}

export interface Call {
  variant: Variant;
  method: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
  /** The request body's bytes as sent (what its x-jws-signature signs, and a payment file's FileHash hashes). */
  raw: string;
  token?: Token;
  tokenProblem?: string;
}

export type Handler = (c: Call) => Promise<Reply> | Reply;
export interface Route {
  variants: Variant[];
  method: string;
  segments: string[];
  handler: Handler;
}

const PERMISSIONS = new Set([
  'ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances', 'ReadBeneficiariesBasic', 'ReadBeneficiariesDetail', 'ReadDirectDebits',
  'ReadOffers', 'ReadPAN', 'ReadParty', 'ReadPartyPSU', 'ReadProducts', 'ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail',
  'ReadStandingOrdersBasic', 'ReadStandingOrdersDetail', 'ReadStatementsBasic', 'ReadStatementsDetail', 'ReadTransactionsBasic',
  'ReadTransactionsCredits', 'ReadTransactionsDebits', 'ReadTransactionsDetail',
]);

export const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const text = (v: unknown, max: number) => typeof v === 'string' && v.length >= 1 && v.length <= max;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function dateField(data: Record<string, any>, field: string, path: string): string | undefined {
  const v = data[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !ISO.test(v) || Number.isNaN(Date.parse(v))) throw badDate(path, 'must be an ISO 8601 date-time with a time zone');
  return v;
}

export function accountRef(v: unknown, path: string): { SchemeName: string; Identification: string; Name?: string; SecondaryIdentification?: string } {
  if (!isObject(v)) throw missing(path);
  for (const f of ['SchemeName', 'Identification']) {
    if (v[f] === undefined) throw missing(`${path}.${f}`);
    if (!text(v[f], f === 'SchemeName' ? 40 : 256)) throw invalid(`${path}.${f}`, 'is not a valid value');
  }
  if (v.Name !== undefined && !text(v.Name, 350)) throw invalid(`${path}.Name`, 'must be 1 to 350 characters');
  return { SchemeName: v.SchemeName, Identification: v.Identification, ...(v.Name !== undefined ? { Name: v.Name } : {}), ...(v.SecondaryIdentification !== undefined ? { SecondaryIdentification: v.SecondaryIdentification } : {}) };
}

export function money(v: unknown, path: string): { Amount: string; Currency: string; pence: number } {
  if (!isObject(v)) throw missing(path);
  if (v.Amount === undefined) throw missing(`${path}.Amount`);
  if (v.Currency === undefined) throw missing(`${path}.Currency`);
  const pence = penceOf(v.Amount);
  if (pence === undefined) throw invalid(`${path}.Amount`, 'must match ^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$');
  if (typeof v.Currency !== 'string' || !/^[A-Z]{3}$/.test(v.Currency)) throw invalid(`${path}.Currency`, 'must be three capital letters');
  return { Amount: v.Amount, Currency: v.Currency, pence };
}

/**
 * What is wrong with how a token came (RFC 9449 §7), or undefined: a DPoP-bound token (cnf.jkt)
 * needs the DPoP scheme and a fresh proof of its key for this method and URL over this token; a
 * token not bound so needs the Bearer scheme.
 */
async function dpopProblem(req: IncomingMessage, token: Token, scheme: string, value: string): Promise<string | undefined> {
  const jkt = (token.cnf as { jkt?: string } | undefined)?.jkt;
  const dpop = scheme.toLowerCase() === 'dpop';
  if (!jkt) return dpop ? 'the access token is not DPoP-bound' : undefined;
  if (!dpop) return 'the access token is DPoP-bound: it is accepted only as Authorization: DPoP';
  const proof = req.headers.dpop;
  if (typeof proof !== 'string') return 'no DPoP proof';
  try {
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256', 'PS256', 'EdDSA'], maxTokenAge: '5m' });
    const here = new URL(req.url ?? '/', `http://${req.headers.host}`);
    if (payload.htm !== req.method || payload.htu !== `${here.origin}${here.pathname}`) return 'the DPoP proof is for another request';
    if (payload.ath !== createHash('sha256').update(value).digest('base64url')) return 'the DPoP proof is for another token';
    if ((await calculateJwkThumbprint(protectedHeader.jwk!)) !== jkt) return 'the DPoP proof is of another key';
    return undefined;
  } catch {
    return 'the DPoP proof does not verify';
  }
}

/** Shared by the three servers: routing, token verification, the standard's headers and errors. */
function server(name: string, state: BankState, bases: Partial<Record<Variant, string>>, routes: Route[], verify: (jwt: string) => Promise<Token>, signing?: MessageSigning) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    state.hits[name] = (state.hits[name] ?? 0) + 1;
    const sent = req.headers['x-fapi-interaction-id'];
    const interactionId = typeof sent === 'string' && sent.length > 0 ? sent : randomUUID();
    const reply = async (r: Reply | Refusal) => {
      const headers: Record<string, string> = { 'x-fapi-interaction-id': interactionId };
      let payload: string | undefined;
      if (r instanceof Refusal) {
        if (r.errorCode && (r.status === 400 || r.status === 403)) {
          payload = JSON.stringify(errorBody(state.version, r.status, r.message, r.errorCode, r.path));
        }
        if (r.status === 401) headers['www-authenticate'] = 'Bearer';
      } else if (r.raw !== undefined) payload = r.raw;
      else if (r.body !== undefined) payload = JSON.stringify(r.body);
      if (!(r instanceof Refusal) && r.headers) Object.assign(headers, r.headers);
      if (payload !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
      // Message signing: every payment answer with a body, refusals too, is signed over its bytes.
      if (signing && payload !== undefined) headers['x-jws-signature'] = await signing.sign(payload);
      res.writeHead(r instanceof Refusal ? r.status : r.status, headers).end(payload);
    };
    try {
      const url = new URL(req.url ?? '/', 'http://bank.invalid');
      let variant: Variant | undefined;
      let rest = '';
      for (const [v, base] of Object.entries(bases) as Array<[Variant, string]>) {
        if (url.pathname === base || url.pathname.startsWith(base + '/')) {
          variant = v;
          rest = url.pathname.slice(base.length) || '/';
        }
      }
      if (!variant) throw new Refusal(404, 'no such resource');
      const segments = rest.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
      const matching = routes.filter((r) => r.variants.includes(variant!) && r.segments.length === segments.length && r.segments.every((s, i) => s.startsWith(':') || s === segments[i]));
      if (!matching.length) throw new Refusal(404, 'no such resource');
      const route = matching.find((r) => r.method === req.method);
      if (!route) throw new Refusal(405, 'method not allowed');
      const params: Record<string, string> = {};
      route.segments.forEach((s, i) => {
        if (s.startsWith(':')) params[s.slice(1)] = segments[i]!;
      });
      let body: unknown;
      let raw = '';
      // v4.0's VRP consent is also updated by PUT (a JSON body) and PATCH (a JSON Patch document).
      if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
        const type = String(req.headers['content-type'] ?? '');
        const json = req.method === 'PATCH' ? /^application\/(json-patch\+json|json)\s*(;|$)/i.test(type) : /^application\/json\b/i.test(type);
        if (!json) throw new Refusal(415, req.method === 'PATCH' ? 'a JSON Patch body (application/json-patch+json) is expected' : 'a JSON body is expected');
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        raw = Buffer.concat(chunks).toString('utf8');
        try {
          body = JSON.parse(raw);
        } catch {
          throw new Refusal(400, 'the body is not JSON', 'UK.OBIE.Resource.InvalidFormat');
        }
      }
      const call: Call = { variant, method: req.method!, params, query: url.searchParams, headers: req.headers, body, raw };
      const auth = String(req.headers.authorization ?? '');
      const presented = /^(Bearer|DPoP) (\S+)$/i.exec(auth);
      if (presented) {
        try {
          const token = await verify(presented[2]!);
          // A token bound to a DPoP key (cnf.jkt) only as `DPoP`, with a proof of that key for this request.
          const problem = await dpopProblem(req, token, presented[1]!, presented[2]!);
          if (problem) call.tokenProblem = problem;
          else call.token = token;
        } catch {
          call.tokenProblem = 'the access token is not valid';
        }
      } else call.tokenProblem = 'no access token';
      // A payment request from a TPP that showed a valid token must be signed by it; without a token the route's 401 comes first.
      if (signing && (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') && call.token) {
        const problem = await signing.check(req.headers['x-jws-signature'] as string | undefined, raw, String(call.token.client_id));
        if (problem) throw new Refusal(400, problem.message, `UK.OBIE.Signature.${problem.code}`, 'x-jws-signature');
      }
      await reply(await route.handler(call));
    } catch (error) {
      await reply(error instanceof Refusal ? error : new Refusal(500, 'unexpected error')).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    }
  };
}

/** A TPP (client-credentials) token for `scope`. */
export function tppToken(c: Call, scope: string): Token {
  if (!c.token) throw unauthorised(c.tokenProblem ?? 'no access token');
  if (c.token.token_use !== 'tpp') throw new Refusal(403, 'this endpoint takes the TPP\'s own token, not a customer\'s', 'UK.OBIE.Resource.ConsentMismatch');
  if (!String(c.token.scope ?? '').split(' ').includes(scope)) throw new Refusal(403, `the token lacks the scope ${scope}`, 'UK.OBIE.Resource.ConsentMismatch');
  return c.token;
}

/** The consent of a customer's token, of the given kind, authorised and unexpired. */
export function customerConsent<K extends Consent['api']>(state: BankState, c: Call, api: K): Extract<Consent, { api: K }> {
  if (!c.token) throw unauthorised(c.tokenProblem ?? 'no access token');
  // Larchmont answers as the UK conformance suite asserts: a TPP's own token is not an authorisation here (401).
  if (c.token.token_use !== 'psu') throw unauthorised('this endpoint needs the customer\'s authorisation, not the TPP\'s own token');
  const consent = state.consents.get(String(c.token.openbanking_intent_id));
  if (!consent || consent.api !== api || consent.clientId !== c.token.client_id) throw new Refusal(403, 'the token does not serve a consent for this API', 'UK.OBIE.Resource.ConsentMismatch');
  return consent as Extract<Consent, { api: K }>;
}

function usable(consent: AccessConsent | FundsConsent): void {
  if (consent.api === 'cof' && consent.deleted) throw new Refusal(400, 'the consent has been deleted', 'UK.OBIE.Resource.InvalidConsentStatus');
  if (consent.status !== 'Authorised') throw new Refusal(403, `the consent is ${consent.status}`, 'UK.OBIE.Resource.InvalidConsentStatus');
  // Whole seconds, as a bank that keeps its timestamps in seconds compares them: the consent still
  // works through the second its ExpirationDateTime names (the harness must wait for that).
  if (consent.expiration && Math.floor(Date.now() / 1000) * 1000 > Date.parse(consent.expiration)) throw unauthorised('the consent has expired');
}

// ── account information ─────────────────────────────────────────────────────────────────────

function aisRoutes(state: BankState): Route[] {
  const AB: Variant[] = ['A', 'B'];
  const route = (method: string, path: string, handler: Handler): Route => ({ variants: AB, method, segments: path.split('/').filter(Boolean), handler });
  const consentBody = (k: AccessConsent) => ({
    Data: {
      ConsentId: k.id, Status: readStatus(state, k), CreationDateTime: k.created, StatusUpdateDateTime: k.statusUpdated, Permissions: k.permissions,
      ...(k.expiration ? { ExpirationDateTime: k.expiration } : {}),
      ...(k.from ? { TransactionFromDateTime: k.from } : {}),
      ...(k.to ? { TransactionToDateTime: k.to } : {}),
    },
    Risk: {},
  });
  const mine = (c: Call): AccessConsent => {
    const token = tppToken(c, 'accounts');
    const k = state.consents.get(c.params.consentId!);
    if (!k || k.api !== 'ais' || k.clientId !== token.client_id || k.status === 'Revoked') throw notFound('the consent');
    return k;
  };
  /** The consent, with the cluster it must grant and, when given, an account it must cover. */
  const reading = (c: Call, cluster: string[], accountId?: string) => {
    const consent = customerConsent(state, c, 'ais');
    usable(consent);
    if (!cluster.some((p) => consent.permissions.includes(p))) throw forbidden(`the consent does not grant ${cluster.join(' or ')}`);
    if (accountId !== undefined && !consent.accounts.includes(accountId)) throw forbidden('the consent does not cover this account');
    return consent;
  };
  const ACCOUNTS = ['ReadAccountsBasic', 'ReadAccountsDetail'];
  const STANDING_ORDERS = ['ReadStandingOrdersBasic', 'ReadStandingOrdersDetail'];
  const account = (consent: AccessConsent, id: string) => {
    const { account: a } = state.account(id)!;
    const ref = { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: a.identification };
    // account-object: each account's Account is one object, not the array the schema requires.
    // account-object-unreadable: an object in a shape of the bank's own, with no SchemeName or Identification.
    const shaped = state.defects.has('account-object-unreadable') ? { SortCodeAccountNumber: a.identification } : state.defects.has('account-object') ? ref : [ref];
    // v4.0: Currency, AccountCategory and AccountTypeCode must be populated for an account that is not
    // switched (OBAccount6's description). Larchmont's codes: its current accounts are TRAN (a
    // transacting account), not the CACC one would guess; its saver SVGS.
    const v4 = state.version === 'v4.0' ? { Currency: a.currency, AccountCategory: 'Personal', AccountTypeCode: /saver/i.test(a.label) ? 'SVGS' : 'TRAN' } : {};
    return { AccountId: a.accountId, ...v4, ...(consent.permissions.includes('ReadAccountsDetail') ? { Account: shaped } : {}) };
  };
  return [
    route('POST', '/account-access-consents', (c) => {
      if (state.defects.has('consent-500')) return { status: 500, body: { Code: 'InternalError', Message: 'the consent store is down', Errors: [{ ErrorCode: 'UK.OBIE.UnexpectedError', Message: 'the consent store is down' }] } };
      const token = tppToken(c, 'accounts');
      if (!isObject(c.body)) throw missing('Data');
      const data = c.body.Data;
      if (!isObject(data)) throw missing('Data');
      if (!isObject(c.body.Risk)) throw missing('Risk');
      const p = data.Permissions;
      if (p === undefined) throw missing('Data.Permissions');
      if (!Array.isArray(p) || p.length === 0) throw invalid('Data.Permissions', 'must list at least one permission');
      for (const x of p) if (typeof x !== 'string' || !PERMISSIONS.has(x)) throw invalid('Data.Permissions', `has an unknown permission ${JSON.stringify(x)}`);
      const has = (x: string) => p.includes(x);
      if ((has('ReadTransactionsBasic') || has('ReadTransactionsDetail')) !== (has('ReadTransactionsCredits') || has('ReadTransactionsDebits'))) {
        throw invalid('Data.Permissions', 'must pair ReadTransactionsBasic or Detail with ReadTransactionsCredits or Debits');
      }
      const expiration = dateField(data, 'ExpirationDateTime', 'Data.ExpirationDateTime');
      const from = dateField(data, 'TransactionFromDateTime', 'Data.TransactionFromDateTime');
      const to = dateField(data, 'TransactionToDateTime', 'Data.TransactionToDateTime');
      if (expiration && Date.parse(expiration) <= Date.now()) throw badDate('Data.ExpirationDateTime', 'is in the past');
      if (from && to && Date.parse(from) > Date.parse(to)) throw badDate('Data.TransactionFromDateTime', 'is after Data.TransactionToDateTime');
      const stamp = nowIso();
      const consent: AccessConsent = {
        api: 'ais', id: `aac-${randomUUID()}`, clientId: String(token.client_id), status: 'AwaitingAuthorisation', created: stamp, statusUpdated: stamp,
        permissions: [...new Set(p as string[])], expiration, from, to, accounts: [],
      };
      state.consents.set(consent.id, consent);
      return { status: 201, body: consentBody(consent) };
    }),
    route('GET', '/account-access-consents/:consentId', (c) => ({ status: 200, body: consentBody(mine(c)) })),
    route('DELETE', '/account-access-consents/:consentId', (c) => {
      const k = mine(c);
      k.status = 'Revoked';
      k.statusUpdated = nowIso();
      return { status: 204 };
    }),
    route('GET', '/accounts', (c) => {
      const consent = reading(c, ACCOUNTS);
      const ids = state.defects.has('lists-unselected-accounts') ? state.customer(consent.customer)!.accounts.map((a) => a.accountId) : consent.accounts;
      return { status: 200, body: { Data: { Account: ids.map((id) => account(consent, id)) } } };
    }),
    route('GET', '/accounts/:accountId', (c) => {
      const consent = reading(c, ACCOUNTS, c.params.accountId);
      return { status: 200, body: { Data: { Account: [account(consent, c.params.accountId!)] } } };
    }),
    route('GET', '/accounts/:accountId/balances', (c) => {
      reading(c, ['ReadBalances'], c.params.accountId);
      return { status: 200, body: { Data: { Balance: [balanceOf(c.params.accountId!)] } } };
    }),
    route('GET', '/accounts/:accountId/transactions', (c) => {
      const consent = reading(c, ['ReadTransactionsBasic', 'ReadTransactionsDetail'], c.params.accountId);
      return { status: 200, body: { Data: { Transaction: transactionsOf(c, consent, c.params.accountId!) } } };
    }),
    // UK Read/Write v3.1.11's bulk reads and standing orders (a bank at the standard's own paths).
    route('GET', '/balances', (c) => {
      const consent = reading(c, ['ReadBalances']);
      return { status: 200, body: { Data: { Balance: consent.accounts.map((id) => balanceOf(id)) } } };
    }),
    route('GET', '/transactions', (c) => {
      const consent = reading(c, ['ReadTransactionsBasic', 'ReadTransactionsDetail']);
      return { status: 200, body: { Data: { Transaction: consent.accounts.flatMap((id) => transactionsOf(c, consent, id)) } } };
    }),
    route('GET', '/accounts/:accountId/standing-orders', (c) => {
      const consent = reading(c, STANDING_ORDERS, c.params.accountId);
      return { status: 200, body: { Data: { StandingOrder: standingOrdersOf(consent, c.params.accountId!) } } };
    }),
    route('GET', '/standing-orders', (c) => {
      const consent = reading(c, STANDING_ORDERS);
      return { status: 200, body: { Data: { StandingOrder: consent.accounts.flatMap((id) => standingOrdersOf(consent, id)) } } };
    }),
  ];

  function balanceOf(accountId: string) {
    const { account: a } = state.account(accountId)!;
    // v4.0's balance types are ISO codes: interim available is ITAV; Larchmont states the amount's SubType (BCUR, the default).
    if (state.version === 'v4.0') return { AccountId: a.accountId, CreditDebitIndicator: 'Credit', Type: 'ITAV', DateTime: nowIso(), Amount: { Amount: amountOf(a.availablePence), Currency: a.currency, SubType: 'BCUR' } };
    return { AccountId: a.accountId, CreditDebitIndicator: 'Credit', Type: 'InterimAvailable', DateTime: nowIso(), Amount: { Amount: amountOf(a.availablePence), Currency: a.currency } };
  }

  /** One monthly standing order per account; the payee's account only under ReadStandingOrdersDetail (unless the defect shows it anyway). */
  function standingOrdersOf(consent: AccessConsent, accountId: string) {
    const { account: a } = state.account(accountId)!;
    const detail = consent.permissions.includes('ReadStandingOrdersDetail') || state.defects.has('payee-under-basic');
    const payee = detail ? { CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400422113344' } } : {};
    // v4.0: the schedule lives in MandateRelatedInformation (a monthly order on the 1st: MNTH with
    // PointInTime 01, where v3.1 said IntrvlMnthDay:01:01), the reference in structured remittance,
    // the status in ExternalMandateStatus1Code.
    if (state.version === 'v4.0') {
      return [{
        AccountId: a.accountId, StandingOrderStatusCode: 'ACTV',
        MandateRelatedInformation: { Frequency: { Type: 'MNTH', PointInTime: '01' } },
        RemittanceInformation: { Structured: [{ CreditorReferenceInformation: { Code: 'SCOR', Reference: 'Council tax' } }] },
        ...payee,
      }];
    }
    return [{
      AccountId: a.accountId, Frequency: 'IntrvlMnthDay:01:01', Reference: 'Council tax',
      ...(detail ? { CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400422113344' } } : {}),
    }];
  }

  function transactionsOf(c: Call, consent: AccessConsent, accountId: string) {
    const { account: a } = state.account(accountId)!;
    const bound = (name: string) => {
      const v = c.query.get(name);
      if (v === null) return undefined;
      // Query dates carry no time zone (a zone sent anyway is ignored): read them as UTC.
      const t = Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(v) ? v.replace(/(Z|[+-]\d{2}:\d{2})$/, 'Z') : v.length === 10 ? `${v}T00:00:00Z` : `${v}Z`);
      if (Number.isNaN(t)) throw badDate(name, 'is not a date-time');
      return t;
    };
    const from = Math.max(consent.from ? Date.parse(consent.from) : -Infinity, bound('fromBookingDateTime') ?? -Infinity);
    const to = Math.min(consent.to ? Date.parse(consent.to) : Infinity, bound('toBookingDateTime') ?? Infinity);
    const credits = consent.permissions.includes('ReadTransactionsCredits');
    const debits = consent.permissions.includes('ReadTransactionsDebits');
    const list = a.transactions
      .filter((t) => t.bookedAt >= from && t.bookedAt <= to && (t.credit ? credits : debits))
      .map((t) => ({
        AccountId: a.accountId,
        TransactionId: t.transactionId,
        CreditDebitIndicator: t.credit ? 'Credit' : 'Debit',
        Status: state.version === 'v4.0' ? 'BOOK' : 'Booked',
        BookingDateTime: new Date(t.bookedAt).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
        Amount: { Amount: amountOf(t.pence), Currency: a.currency },
      }));
    return list;
  }
}

// ── confirmation of funds ───────────────────────────────────────────────────────────────────

function cofRoutes(state: BankState): Route[] {
  const route = (variants: Variant[], method: string, path: string, handler: Handler): Route => ({ variants, method, segments: path.split('/').filter(Boolean), handler });
  const consentBody = (k: FundsConsent) => ({
    Data: {
      ConsentId: k.id, CreationDateTime: k.created, Status: readStatus(state, k), StatusUpdateDateTime: k.statusUpdated, DebtorAccount: k.debtor,
      ...(k.expiration ? { ExpirationDateTime: k.expiration } : {}),
    },
  });
  const mine = (c: Call): FundsConsent => {
    const token = tppToken(c, 'fundsconfirmations');
    const k = state.consents.get(c.params.consentId!);
    if (!k || k.api !== 'cof' || k.clientId !== token.client_id || k.deleted) throw notFound('the consent');
    return k;
  };
  return [
    route(['A', 'B'], 'POST', '/funds-confirmation-consents', (c) => {
      const token = tppToken(c, 'fundsconfirmations');
      if (!isObject(c.body) || !isObject(c.body.Data)) throw missing('Data');
      const data = c.body.Data;
      const debtor = accountRef(data.DebtorAccount, 'Data.DebtorAccount');
      // Larchmont keeps sort codes and IBANs only.
      if (!['UK.OBIE.SortCodeAccountNumber', 'UK.OBIE.IBAN'].includes(debtor.SchemeName)) throw new Refusal(400, `${debtor.SchemeName} is not a scheme Larchmont holds`, 'UK.OBIE.Unsupported.Scheme', 'Data.DebtorAccount.SchemeName');
      const expiration = dateField(data, 'ExpirationDateTime', 'Data.ExpirationDateTime');
      if (expiration && Date.parse(expiration) <= Date.now()) throw badDate('Data.ExpirationDateTime', 'is in the past');
      const stamp = nowIso();
      const consent: FundsConsent = {
        api: 'cof', id: `fcc-${randomUUID()}`, clientId: String(token.client_id), status: 'AwaitingAuthorisation', created: stamp, statusUpdated: stamp,
        debtor, expiration, deleted: false,
      };
      state.consents.set(consent.id, consent);
      return { status: 201, body: consentBody(consent) };
    }),
    route(['A'], 'GET', '/funds-confirmation-consents/:consentId', (c) => ({ status: 200, body: consentBody(mine(c)) })),
    route(['A'], 'DELETE', '/funds-confirmation-consents/:consentId', (c) => {
      const k = mine(c);
      k.deleted = true;
      k.statusUpdated = nowIso();
      return { status: 204 };
    }),
    route(['A', 'B'], 'POST', '/funds-confirmations', (c) => {
      const consent = customerConsent(state, c, 'cof');
      if (!isObject(c.body) || !isObject(c.body.Data)) throw missing('Data');
      const data = c.body.Data;
      if (data.ConsentId === undefined) throw missing('Data.ConsentId');
      if (data.Reference === undefined) throw missing('Data.Reference');
      if (!text(data.Reference, 35)) throw invalid('Data.Reference', 'must be 1 to 35 characters');
      const amount = money(data.InstructedAmount, 'Data.InstructedAmount');
      if (data.ConsentId !== consent.id) throw new Refusal(400, 'Data.ConsentId is not the consent this token was authorised for', 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId');
      usable(consent);
      const { account } = state.account(consent.accountId!)!;
      if (amount.Currency !== account.currency) throw new Refusal(400, `the account holds ${account.currency}`, 'UK.OBIE.Unsupported.Currency', 'Data.InstructedAmount.Currency');
      return {
        status: 201,
        body: {
          Data: {
            FundsConfirmationId: randomUUID().replace(/-/g, '').slice(0, 24),
            ConsentId: consent.id,
            CreationDateTime: nowIso(),
            FundsAvailable: amount.pence <= account.availablePence,
            Reference: data.Reference,
            InstructedAmount: { Amount: amount.Amount, Currency: amount.Currency },
            ...(state.defects.has('discloses-balance') ? { SupplementaryData: { AvailableBalance: amountOf(account.availablePence) } } : {}),
          },
        },
      };
    }),
  ];
}

// ── payment initiation ──────────────────────────────────────────────────────────────────────

function pisRoutes(state: BankState): Route[] {
  const route = (method: string, path: string, handler: Handler): Route => ({ variants: ['A'], method, segments: path.split('/').filter(Boolean), handler });
  const body = (k: PaymentConsent) => ({
    Data: {
      ConsentId: k.id, CreationDateTime: k.created, Status: consentStatus(state, k.status), StatusUpdateDateTime: k.statusUpdated, Initiation: k.initiation,
      ...(k.debtor ? { Debtor: k.debtor } : {}),
    },
    Risk: k.risk,
  });
  /** A payment this TPP created, read with its own token or with the customer's token for it. */
  const readable = (c: Call): PaymentConsent => {
    if (!c.token) throw unauthorised(c.tokenProblem ?? 'no access token');
    const k = state.consents.get(c.params.paymentId!);
    const ok = k?.api === 'pis' && k.clientId === c.token.client_id && (c.token.token_use === 'tpp' ? String(c.token.scope ?? '').split(' ').includes('payments') : c.token.openbanking_intent_id === k.id);
    if (!ok) throw notFound('the payment');
    return k as PaymentConsent;
  };
  return [
    route('POST', '/domestic-payment-consents', (c) => {
      const token = tppToken(c, 'payments');
      const key = c.headers['x-idempotency-key'];
      if (typeof key !== 'string' || key.length === 0) throw new Refusal(400, 'x-idempotency-key is required', 'UK.OBIE.Header.Missing', 'x-idempotency-key');
      if (key.length > 40 || !/^(?!\s)(.*)(\S)$/.test(key)) throw new Refusal(400, 'x-idempotency-key must be 1 to 40 characters, not starting or ending with a space', 'UK.OBIE.Header.Invalid', 'x-idempotency-key');
      const raw = JSON.stringify(c.body);
      const slot = `${token.client_id} payment ${key}`;
      const earlier = state.idempotency.get(slot);
      if (earlier && Date.now() - earlier.at < 86_400_000) {
        if (earlier.body !== raw) throw new Refusal(400, 'this x-idempotency-key was used with a different request', 'UK.OBIE.Header.Invalid', 'x-idempotency-key');
        return { status: 201, body: body(state.consents.get(earlier.id) as PaymentConsent) };
      }
      if (!isObject(c.body) || !isObject(c.body.Data)) throw missing('Data');
      if (!isObject(c.body.Risk)) throw missing('Risk');
      const i = c.body.Data.Initiation;
      if (!isObject(i)) throw missing('Data.Initiation');
      for (const f of ['InstructionIdentification', 'EndToEndIdentification']) {
        if (i[f] === undefined) throw missing(`Data.Initiation.${f}`);
        if (!text(i[f], 35)) throw invalid(`Data.Initiation.${f}`, 'must be 1 to 35 characters');
      }
      money(i.InstructedAmount, 'Data.Initiation.InstructedAmount');
      const creditor = accountRef(i.CreditorAccount, 'Data.Initiation.CreditorAccount');
      if (creditor.Name === undefined) throw missing('Data.Initiation.CreditorAccount.Name');
      if (i.DebtorAccount !== undefined) accountRef(i.DebtorAccount, 'Data.Initiation.DebtorAccount');
      if (state.version === 'v4.0') {
        initiationV4(i, 'Data.Initiation');
        riskV4(c.body.Risk);
      }
      const stamp = nowIso();
      const consent: PaymentConsent = {
        api: 'pis', id: `pdc-${randomUUID()}`, clientId: String(token.client_id), status: 'AwaitingAuthorisation', created: stamp, statusUpdated: stamp,
        initiation: i, risk: c.body.Risk,
      };
      state.consents.set(consent.id, consent);
      state.idempotency.set(slot, { id: consent.id, body: raw, at: Date.now() });
      return { status: 201, body: body(consent) };
    }),
    route('GET', '/domestic-payment-consents/:paymentId', (c) => ({ status: 200, body: body(readable(c)) })),
    route('GET', '/domestic-payment-consents/:paymentId/status', (c) => {
      // status-elsewhere: the bank reads a payment's status at /payment-status/{paymentId} only.
      if (state.defects.has('status-elsewhere')) throw new Refusal(404, 'no such resource');
      const k = readable(c);
      return { status: 200, body: { Data: { ConsentId: k.id, Status: consentStatus(state, k.status), StatusUpdateDateTime: k.statusUpdated } } };
    }),
    route('GET', '/payment-status/:paymentId', (c) => {
      if (!state.defects.has('status-elsewhere')) throw new Refusal(404, 'no such resource');
      const k = readable(c);
      return { status: 200, body: { Data: { ConsentId: k.id, Status: consentStatus(state, k.status), StatusUpdateDateTime: k.statusUpdated } } };
    }),
  ];
}

/** The request handlers of the three servers, given where each variant lives on them. */
export function resourceServers(state: BankState, issuer: string, bases: { ais: Record<Variant, string>; cof: Record<Variant, string>; pis: Partial<Record<Variant, string>> }, signing?: MessageSigning, morePis: Route[] = []) {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const verify = async (jwt: string): Promise<Token> => (await jwtVerify(jwt, jwks, { issuer, audience: API_AUDIENCE, algorithms: ['PS256'] })).payload as Token;
  return {
    ais: server('ais', state, bases.ais, aisRoutes(state), verify),
    cof: server('cof', state, bases.cof, cofRoutes(state), verify),
    pis: server('pis', state, bases.pis, [...pisRoutes(state), ...morePis], verify, signing),
  };
}
