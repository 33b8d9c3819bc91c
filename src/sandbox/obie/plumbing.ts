/**
 * What every UK route shares: the request and reply shapes, the OBIE refusals and their error body,
 * token checks, idempotent creates, the x-fapi-interaction-id echo, and the one exit of a response.
 * The route modules (ais.ts, cbpii.ts, pis.ts) hold the APIs themselves; index.ts dispatches. Kept
 * free of heavy imports: the fault list (../faults.ts) reads the modules' fault declarations.
 */
import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type Provider from 'oidc-provider';
import type { FaultDeclaration, SwitchedFaults } from '../fault-declaration.ts';
import { parseMoney } from '../fixtures.ts';
import type { AccountRef, Consent, Store } from '../store.ts';
import type { JSONWebKeySet, JWK } from 'jose';
import type { DpopVerifier } from '../dpop.ts';

export type Variant = 'A' | 'B';

/** What the resource server needs from the running sandbox. */
export interface ResourceContext {
  provider: Provider;
  store: Store;
  faults: SwitchedFaults;
  baseUrls: Record<Variant, string>;
  /** The audience every sandbox access token carries. */
  audience: string;
  /** x-jws-signature: the bank's key (in its JWKS), a key outside it (bad-response-signature), the TPPs' registered keys. */
  /** strayKey: a key outside the bank's JWKS, present when the bad-response-signature fault is on. */
  signing: { bankKey: { privateJwk: JWK; kid: string }; strayKey?: { privateJwk: JWK; kid: string }; tppKeys: JSONWebKeySet; issuer: string };
  /** The checks of DPoP-bound tokens' proofs (src/sandbox/dpop.ts). */
  dpop: DpopVerifier;
}

/** One response, before it is written. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ErrorItem {
  ErrorCode: string;
  Message: string;
  Path?: string;
}

/** A refusal; 400 and 403 carry an OBErrorResponse1, the others no body. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorItem[];
  /** Headers of the refusal (a 401's WWW-Authenticate challenge and DPoP-Nonce). */
  headers?: Record<string, string>;
  constructor(status: number, errorCode: string, message: string, path?: string) {
    super(message);
    this.status = status;
    this.errors = [{ ErrorCode: errorCode, Message: message, ...(path ? { Path: path } : {}) }];
  }
}

export const unauthorised = (why: string) => new ApiError(401, 'UK.OBIE.Unauthorised', why);
export const forbidden = (why: string, path?: string) => new ApiError(403, 'UK.OBIE.Resource.ConsentMismatch', why, path);
export const missing = (path: string) => new ApiError(400, 'UK.OBIE.Field.Missing', `${path} is required`, path);
export const invalid = (path: string, why: string) => new ApiError(400, 'UK.OBIE.Field.Invalid', `${path} ${why}`, path);
export const notFound = (what: string, path?: string) => new ApiError(400, 'UK.OBIE.Resource.NotFound', `${what} not found`, path);

export type Auth =
  | { kind: 'cc'; clientId: string; scopes: string[] }
  | { kind: 'code'; clientId: string; scopes: string[]; consent?: Consent };

/** Where a request arrived: the spec's layout (/A, /B), UK Read/Write v3.1.11's (/open-banking/v3.1/{aisp,cbpii,pisp}) or v4.0's (/open-banking/v4.0/…). */
export type Layout = 'spec' | 'uk-3.1' | 'uk-4.0';

export interface Req {
  variant: Variant;
  layout: Layout;
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

/**
 * One operation of a UK API: where it answers (variants, method, path pattern with `:param`s) and
 * its handler. `operation` is wire.md's name of it, what chaos faults hook on. A module's `sign`
 * signs its answers and `verify` checks its request's signature before the body is parsed.
 */
export interface UkRoute {
  variants: Variant[];
  method: string;
  pattern: string[];
  operation: string;
  handler: (k: ResourceContext, r: Req) => Promise<Reply>;
  sign?: (k: ResourceContext, reply: Reply) => Promise<void>;
  verify?: (k: ResourceContext, raw: IncomingMessage, bodyText: string) => Promise<void>;
}

export const AB: Variant[] = ['A', 'B'];
export const A: Variant[] = ['A'];

/** A route entry; the operation is named after the handler unless given. */
export const route = (variants: Variant[], method: string, path: string, handler: UkRoute['handler'], extra: Partial<UkRoute> = {}): UkRoute =>
  ({ variants, method, pattern: path.split('/').filter(Boolean), handler, operation: handler.name, ...extra });

/**
 * The routes as UK Read/Write v3.1.11 places them: below the API's own segment (aisp, cbpii,
 * pisp), with variant A's behaviour (the variant that has every API). `except` leaves out paths
 * only the spec's layout has.
 */
export const ukLayout = (api: 'aisp' | 'cbpii' | 'pisp', routes: readonly UkRoute[], except: (r: UkRoute) => boolean = () => false): UkRoute[] =>
  routes.filter((r) => r.variants.includes('A') && !except(r)).map((r) => ({ ...r, variants: ['A'], pattern: [api, ...r.pattern] }));

/** Faults that bend every UK route alike (the response plumbing). */
export const PLUMBING_FAULTS = [
  { name: 'create-200', rule: 'SEC-05', description: 'creates answer 200 instead of 201', kind: 'rule' },
  { name: 'error-body-not-ob', rule: 'SEC-06', description: 'error bodies are not OBErrorResponse1', kind: 'rule' },
  { name: 'interaction-id-not-echoed', rule: 'SEC-07', description: 'x-fapi-interaction-id is not echoed (a new one every time)', kind: 'rule' },
  // Bends authenticate() below: every route's token check.
  { name: 'dpop-proof-not-checked', rule: 'SEC-15', kind: 'rule', security: 'fapi2-dpop', description: 'the resource server takes a DPoP-bound access token as a bearer token, without a proof of its key' },
  { name: 'dpop-proof-claims-not-checked', rule: 'SEC-23', kind: 'rule', security: 'fapi2-dpop', description: 'the resource server checks a DPoP proof\'s signature and key, not its claims: a proof for another method or URL (htm, htu), of another time (iat), for another token (ath) or without a jti is taken' },
] as const satisfies readonly FaultDeclaration[];

/** Two JSON values equal whatever their key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => (Array.isArray(v) ? v.map(norm) : v && typeof v === 'object'
    ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([k, x]) => [k, norm(x)])) : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

export const iso = (d: Date) => d.toISOString();
export const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses an ISO 8601 date-time; one without a zone is read as UTC. */
export function parseDateTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(value)) return undefined;
  const t = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : value + 'Z');
  return Number.isNaN(t) ? undefined : t;
}

export function requireDateTime(data: Record<string, any>, field: string, required: boolean): number | undefined {
  if (data[field] === undefined) {
    if (required) throw missing(`Data.${field}`);
    return undefined;
  }
  const t = parseDateTime(data[field]);
  if (t === undefined) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', `Data.${field} is not an ISO 8601 date-time`, `Data.${field}`);
  return t;
}

export function requireAccountRef(value: unknown, path: string): AccountRef {
  if (!isObject(value)) throw missing(path);
  for (const f of ['SchemeName', 'Identification'] as const) {
    if (value[f] === undefined) throw missing(`${path}.${f}`);
    if (typeof value[f] !== 'string' || value[f].length === 0 || value[f].length > 256) throw invalid(`${path}.${f}`, 'must be a string of 1 to 256 characters');
  }
  if (value.Name !== undefined && (typeof value.Name !== 'string' || value.Name.length === 0 || value.Name.length > 350)) throw invalid(`${path}.Name`, 'must be a string of 1 to 350 characters');
  return value as AccountRef;
}

export function requireAmount(value: unknown, path: string): { Amount: string; Currency: string } {
  if (!isObject(value)) throw missing(path);
  if (value.Amount === undefined) throw missing(`${path}.Amount`);
  if (value.Currency === undefined) throw missing(`${path}.Currency`);
  if (parseMoney(value.Amount) === undefined) throw invalid(`${path}.Amount`, 'must match ^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$');
  if (typeof value.Currency !== 'string' || !/^[A-Z]{3}$/.test(value.Currency)) throw invalid(`${path}.Currency`, 'must match ^[A-Z]{3,3}$');
  return value as { Amount: string; Currency: string };
}

export function requireText(data: Record<string, any>, field: string, path: string, max: number): string {
  if (data[field] === undefined) throw missing(path);
  if (typeof data[field] !== 'string' || data[field].length === 0 || data[field].length > max) throw invalid(path, `must be a string of 1 to ${max} characters`);
  return data[field];
}

// ---- tokens ------------------------------------------------------------------------------



function peerThumbprint(req: IncomingMessage): string | undefined {
  const socket = req.socket as TLSSocket;
  const raw = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate()?.raw : undefined;
  return raw ? createHash('sha256').update(new X509Certificate(raw).raw).digest('base64url') : undefined;
}

export async function authenticate(k: ResourceContext, r: Req): Promise<Auth | undefined> {
  const { provider, store } = k;
  const header = r.headers.authorization;
  if (!header) return undefined;
  const m = /^(Bearer|DPoP)\s+(\S+)$/i.exec(header);
  if (!m) throw unauthorised('Authorization must be a Bearer or DPoP token');
  const value = m[2]!;
  const token = (await provider.AccessToken.find(value)) ?? (await provider.ClientCredentials.find(value));
  if (!token || token.isExpired) throw unauthorised('the access token is invalid or has expired');
  // RFC 9449 §7: a DPoP-bound token only with the DPoP scheme and a proof of its key (the fault takes it as a bearer token).
  const jkt = (token as { jkt?: string }).jkt;
  const dpop = m[1]!.toLowerCase() === 'dpop';
  if (jkt && !k.faults.has('dpop-proof-not-checked')) {
    if (!dpop) throw Object.assign(unauthorised('the access token is DPoP-bound: send it as Authorization: DPoP with a proof'), { headers: { 'www-authenticate': 'DPoP error="invalid_token", algs="ES256 PS256 EdDSA"' } });
    try {
      await k.dpop.check(r.raw, new URL(r.raw.url ?? '/', k.signing.issuer).href, value, jkt, { claims: !k.faults.has('dpop-proof-claims-not-checked') });
    } catch (error) {
      // A DpopRefusal (../dpop.ts, not imported here: it brings jose) carries its challenge.
      const headers = (error as { headers?: Record<string, string> }).headers;
      if (headers) throw Object.assign(unauthorised((error as Error).message), { headers });
      throw error;
    }
  } else if (dpop && !jkt) throw unauthorised('the access token is not DPoP-bound: send it as Authorization: Bearer');
  const aud = (token as { aud?: string | string[] }).aud;
  if (!(Array.isArray(aud) ? aud : [aud]).includes(k.audience)) throw unauthorised('the access token is not for this resource server');
  const bound = (token as { 'x5t#S256'?: string })['x5t#S256'];
  if (bound && bound !== peerThumbprint(r.raw)) throw unauthorised('the access token is bound to another client certificate');
  const scopes = String(token.scope ?? '').split(' ');
  const clientId = String(token.clientId);
  if (token.kind === 'ClientCredentials') return { kind: 'cc', clientId, scopes };
  const intent = (token as { extra?: { openbanking_intent_id?: string } }).extra?.openbanking_intent_id;
  return { kind: 'code', clientId, scopes, consent: intent ? store.consents.get(intent) : undefined };
}

/** Consent endpoints take a client-credentials token with the function's scope. */
export async function clientCredentials(k: ResourceContext, r: Req, scope: string): Promise<Auth & { kind: 'cc' }> {
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (auth.kind !== 'cc') throw forbidden('this endpoint needs a client-credentials token, not a PSU token');
  if (!auth.scopes.includes(scope)) throw forbidden(`the access token lacks the scope ${scope}`);
  return auth;
}

export const links = (r: Req) => ({ Self: r.self });
/** The status of an answer: 201 for a create (200 under the create-200 fault). */
export const status = (k: ResourceContext, r: Req, created: boolean) => (created && k.faults.has('create-200') ? 200 : created ? 201 : 200);

// ---- creates: idempotency ------------------------------------------------------------------

/** Replays the resource an earlier create with the same x-idempotency-key made, or makes a new one. */
export function idempotent<C extends Consent>(k: ResourceContext, r: Req, clientId: string, route: string, required: boolean, create: () => C): C {
  const { store } = k;
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

// ---- the answer ----------------------------------------------------------------------------

export function errorBody(k: ResourceContext, status: number, errors: ErrorItem[]) {
  if (k.faults.has('error-body-not-ob')) return { error: errors[0].ErrorCode, error_description: errors[0].Message };
  return { Code: `${status} ${STATUS_CODES[status]}`, Id: randomUUID(), Message: errors[0].Message, Errors: errors };
}

/** The x-fapi-interaction-id of the answer: the TPP's, echoed (a new one under the fault, or when none came). */
export function interactionIdOf(k: ResourceContext, req: IncomingMessage): string {
  const sent = req.headers['x-fapi-interaction-id'];
  return typeof sent === 'string' && sent !== '' && !k.faults.has('interaction-id-not-echoed') ? sent : randomUUID();
}

export const baseHeaders = (interactionId: string): Record<string, string> => ({ 'x-fapi-interaction-id': interactionId, 'cache-control': 'no-store' });

/** The one exit of every resource response (a chaos fault may write in its place). */
export function send(res: ServerResponse, interactionId: string, reply: Reply): void {
  const headers = { ...baseHeaders(interactionId), ...reply.headers };
  let payload: string | Buffer | undefined;
  if (reply.body !== undefined) {
    // A Buffer is a file (a statement's PDF): sent as it is, with the content type its route set.
    const file = Buffer.isBuffer(reply.body);
    payload = file ? reply.body as Buffer : JSON.stringify(reply.body);
    if (!file) headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  res.writeHead(reply.status, headers);
  res.end(payload);
}
