/**
 * What every XS2A route shares: the request and reply shapes, the NextGenPSD2 refusal and its
 * error body, header and date checks, the SCA approach and authorisation sub-resources (of consents
 * and payments alike), and the faults that bend every route. The APIs are consents.ts, accounts.ts,
 * funds.ts and payments.ts; xs2a.ts dispatches. Kept free of heavy imports (faults.ts reads the
 * modules' fault declarations).
 */
import { randomUUID, type KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import type { Variant } from '../../profile/types.ts';
import type { FaultDeclaration, SwitchedFaults } from '../fault-declaration.ts';
import { isoDay } from './data.ts';
import type { BgAuthorisation, BgConsent, BgPayment, BgStore, ScaApproach } from './store.ts';

export type { Variant };

/** The keys of a bank that requires the NextGenPSD2 HTTP signature on requests and signs its answers (signatures.ts checks and signs). */
export interface BankSignatures {
  /** The TPP's signing certificate the bank knows (PEM). */
  tppCertPem: string;
  bankKey: KeyObject;
  bankCertPem: string;
}

export interface Xs2aContext {
  provider: Provider;
  store: BgStore;
  issuer: string;
  baseUrls: Record<Variant, string>;
  /** The faults switched on (each breaks one rule; see faults.ts). */
  faults: SwitchedFaults;
  /** The SCA approaches this bank offers (the sandbox's `sca` option; default redirect and OAuth2). */
  approaches: ReadonlySet<ScaApproach>;
  /** A bank that requires the NextGenPSD2 HTTP signature on requests and signs its answers (the sandbox's `signatures` option). */
  signatures?: BankSignatures;
  /** The checks of DPoP-bound tokens' proofs (src/sandbox/dpop.ts), where the authorisation server binds tokens by DPoP. */
  dpop?: import('../dpop.ts').DpopVerifier;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** An application/xml answer (a pain.001 payment read back), instead of a JSON body. */
  xml?: string;
  /** A multipart/form-data answer (a standing order with a pain.001 body read back): its parts, in order. */
  multipart?: Array<{ name: string; type: string; text: string }>;
  headers?: Record<string, string>;
}

/** A refusal with its NextGenPSD2 code (FACTS §6.6). */
export class BgError extends Error {
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

export const format = (text: string, path?: string) => new BgError(400, 'FORMAT_ERROR', text, path);
export const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface Req {
  variant: Variant;
  method: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: any;
  /** The text of an application/xml body (routes marked `xml` only: a pain.001 payment initiation). */
  xml?: string;
  /** The parts of a multipart/form-data body by name (routes marked `xml` only: a standing order with a pain.001 body). */
  multipart?: Map<string, string>;
  base: string;
  /** The request's full URL as the TPP addressed it (a DPoP proof's htu is checked against it). */
  url?: string;
}

export type Handler = (k: Xs2aContext, r: Req) => Promise<Reply> | Reply;
/**
 * One XS2A operation: where it answers (variants, method, path pattern with `:param`s), its handler,
 * and the name a profile's `implements` gives it (the sandbox's profile lists what its routes name).
 */
export interface BgRoute { variants: Variant[]; method: string; pattern: string[]; handler: Handler; operation?: string; xml?: boolean }

export const AB: Variant[] = ['A', 'B'];
export const A: Variant[] = ['A'];
export const route = (variants: Variant[], method: string, path: string, handler: Handler, operation?: string): BgRoute => ({ variants, method, pattern: path.split('/').filter(Boolean), handler, ...(operation ? { operation } : {}) });

/** Faults that bend every XS2A route alike (the error body, the request id). */
export const PLUMBING_FAULTS = [
  { name: 'bg-error-code-missing', rule: 'SEC-06', description: 'error bodies carry tppMessages without the code each message requires (also when the TPP accepts application/problem+json)', kind: 'rule' },
  { name: 'bg-request-id-not-echoed', rule: 'SEC-07', description: 'X-Request-ID is not echoed (a new one on every answer)', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

export function validDate(value: unknown): value is string {
  return typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
}

export function header(r: Req, name: string): string | undefined {
  const v = r.headers[name.toLowerCase()];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The bank's today (its clock may be moved), as an ISODate. */
export const today = (k: Xs2aContext) => isoDay(new Date(k.store.now()));

// ---- SCA -----------------------------------------------------------------------------------

/**
 * The approach for a new resource, among those the bank offers, from the TPP's preferences
 * (FACTS §6.2): TPP-Redirect-Preferred true → redirect; TPP-Decoupled-Preferred true → decoupled;
 * TPP-Redirect-Preferred false → embedded, else decoupled; no preference → redirect when a
 * TPP-Redirect-URI came, else OAuth2, else the first the bank offers of decoupled and embedded.
 */
export function approachOf(k: Xs2aContext, r: Req): ScaApproach {
  if (header(r, 'TPP-Redirect-Preferred') === 'true' && !header(r, 'TPP-Redirect-URI')) throw format('TPP-Redirect-URI is required when TPP-Redirect-Preferred is true', 'TPP-Redirect-URI');
  const offers = (a: ScaApproach) => k.approaches.has(a);
  const redirectPreferred = header(r, 'TPP-Redirect-Preferred');
  let chosen: ScaApproach | undefined;
  if (redirectPreferred === 'true' && offers('REDIRECT')) chosen = 'REDIRECT';
  else if (header(r, 'TPP-Decoupled-Preferred') === 'true' && offers('DECOUPLED')) chosen = 'DECOUPLED';
  else if (redirectPreferred === 'false') chosen = offers('EMBEDDED') ? 'EMBEDDED' : offers('DECOUPLED') ? 'DECOUPLED' : undefined;
  else if (header(r, 'TPP-Redirect-URI') && offers('REDIRECT')) chosen = 'REDIRECT';
  else if (offers('OAUTH')) chosen = 'OAUTH';
  else chosen = (['DECOUPLED', 'EMBEDDED', 'REDIRECT'] as const).find(offers);
  if (!chosen) throw format(`no SCA approach this bank offers (${[...k.approaches].join(', ')}) fits the TPP's preferences`, 'TPP-Redirect-Preferred');
  if (chosen === 'REDIRECT' && !header(r, 'TPP-Redirect-URI')) throw format('TPP-Redirect-URI is required for the redirect SCA approach, the only one this bank offers for this request', 'TPP-Redirect-URI');
  return chosen;
}

/**
 * The approach of an authorisation of a payment's cancellation or of a signing basket: as
 * approachOf, but this bank has no OAuth2 SCA for these (redirect, decoupled or embedded only).
 */
export function approachWithoutOAuth(k: Xs2aContext, r: Req, what: string): ScaApproach {
  const chosen = approachOf(k, r);
  if (chosen === 'OAUTH') throw format(`TPP-Redirect-URI is required: this bank has the PSU authorise ${what} on its own pages (redirect), in its app (decoupled) or through the TPP (embedded), not by OAuth2`, 'TPP-Redirect-URI');
  return chosen;
}

/**
 * The `ASPSP-SCA-Approach` header for an approach: the file's enum is EMBEDDED, DECOUPLED and
 * REDIRECT, and "the OAuth SCA approach will be subsumed by REDIRECT" (the scaOAuth link tells it).
 */
export function approachHeader(approach: ScaApproach): string {
  return approach === 'OAUTH' ? 'REDIRECT' : approach;
}
/** Whether the TPP asked to start the authorisation itself (POST …/authorisations) rather than implicitly. */
export const explicitStart = (r: Req) => header(r, 'TPP-Explicit-Authorisation-Preferred') === 'true';

export function newAuthorisation(k: Xs2aContext, r: Req, approach: ScaApproach): BgAuthorisation {
  const redirectUri = header(r, 'TPP-Redirect-URI');
  const nokRedirectUri = header(r, 'TPP-Nok-Redirect-URI');
  for (const [name, value] of [['TPP-Redirect-URI', redirectUri], ['TPP-Nok-Redirect-URI', nokRedirectUri]] as const) {
    if (value !== undefined && !/^https?:\/\//i.test(value)) throw format(`${name} must be an absolute http(s) URI`, name);
  }
  const psuId = header(r, 'PSU-ID');
  // Decoupled: the bank must know whom to ask in the app.
  if (approach === 'DECOUPLED' && !psuId) throw format('PSU-ID is required for the decoupled SCA approach (the PSU who approves in the app)', 'PSU-ID');
  return {
    authorisationId: k.store.newId('auth'), scaStatus: psuId && (approach === 'DECOUPLED' || approach === 'EMBEDDED') ? 'psuIdentified' : 'received', approach,
    ...(redirectUri ? { redirectUri } : {}), ...(nokRedirectUri ? { nokRedirectUri } : {}), ...(psuId ? { psuId } : {}),
  };
}

/** The links that start the PSU's part of an authorisation (`self`: the authorisation's own URL). */
export function scaLinks(k: Xs2aContext, a: BgAuthorisation, self: string): Record<string, { href: string }> {
  switch (a.approach) {
    case 'REDIRECT': return { scaRedirect: { href: `${k.issuer}/bg/sca/${a.authorisationId}` } };
    case 'OAUTH': return { scaOAuth: { href: `${k.issuer}/.well-known/openid-configuration` } };
    case 'DECOUPLED': return {};
    case 'EMBEDDED': return a.psuId ? { updatePsuAuthentication: { href: self } } : { updatePsuIdentification: { href: self } };
  }
}

/**
 * The SCA part of a create's 201: the authorisation started implicitly (its links and the
 * scaStatus link), or, when the TPP prefers an explicit start of a decoupled or embedded SCA, the
 * link to start it (no authorisation yet).
 */
export function scaOfCreate(k: Xs2aContext, r: Req, resource: BgConsent | BgPayment, self: string): { links: Record<string, { href: string }>; psuMessage?: string } {
  const approach = resource.approach;
  if (explicitStart(r) && (approach === 'DECOUPLED' || approach === 'EMBEDDED')) {
    const start = approach === 'EMBEDDED' && header(r, 'PSU-ID') ? 'startAuthorisationWithPsuAuthentication' : 'startAuthorisation';
    return { links: { [start]: { href: `${self}/authorisations` } } };
  }
  const a = newAuthorisation(k, r, approach);
  resource.authorisations.push(a);
  const href = `${self}/authorisations/${a.authorisationId}`;
  return {
    links: { ...scaLinks(k, a, href), scaStatus: { href } },
    ...(approach === 'DECOUPLED' ? { psuMessage: 'Please confirm the request in your banking app.' } : {}),
  };
}

// ---- authorisation sub-resources (of consents and payments) --------------------------------

export const listAuthorisations = (resource: BgConsent | BgPayment): Reply =>
  ({ status: 200, body: { authorisationIds: resource.authorisations.map((a) => a.authorisationId) } });

// ---- the answer ----------------------------------------------------------------------------

/** The error body: RFC 7807 when the TPP accepts application/problem+json, else tppMessages. */
export function errorReply(k: Xs2aContext, req: IncomingMessage, e: BgError): Reply {
  // The fault: every error message without the code the standard requires of it.
  if (k.faults.has('bg-error-code-missing')) return { status: e.status, body: { tppMessages: [{ category: 'ERROR', text: e.message.slice(0, 500) }] } };
  if (/application\/problem\+json/i.test(req.headers.accept ?? '')) {
    return {
      status: e.status,
      headers: { 'content-type': 'application/problem+json; charset=utf-8' },
      body: { type: `urn:obtpp:sandbox:problem:${e.code.toLowerCase()}`, title: e.code, detail: e.message.slice(0, 500), code: e.code },
    };
  }
  return { status: e.status, body: { tppMessages: [{ category: 'ERROR', code: e.code, ...(e.path ? { path: e.path } : {}), text: e.message.slice(0, 500) }] } };
}

/** The X-Request-ID of the answer: the TPP's, echoed (a new one under the fault, or when none came). */
export function requestIdOf(k: Xs2aContext, req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && sent !== '' && !k.faults.has('bg-request-id-not-echoed') ? sent : randomUUID();
}
