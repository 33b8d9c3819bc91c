/**
 * Dynamic client registration, the TPP's side (OBIE DCR 3.3 / RFC 7591, management by RFC 7592): a
 * request JWT signed with the profile's registration key, carrying the software statement
 * assertion (SSA), the token endpoint auth method and the redirect URIs, POSTed as
 * application/jwt; then the registration read, updated and deleted with its registration access
 * token where the bank offers it. The client secret and the registration access token are secrets:
 * they are taught to redaction the moment they arrive.
 */
import { randomUUID } from 'node:crypto';
import { ObtppError, ExitCode, ProfileError } from '../errors.ts';
import type { HttpClient, HttpResult } from '../client/http.ts';
import type { ResolvedSecurity } from './security.ts';
import type { Profile, RegistrationSettings } from '../profile/types.ts';
import { importSigningKey } from './keys.ts';
import { quoteOutside } from '../outside-text.ts';

/** What a successful registration gave: the client, and how to manage it (RFC 7592) where offered. */
export interface Registration {
  clientId: string;
  clientSecret?: string;
  registrationAccessToken?: string;
  registrationClientUri?: string;
  tokenEndpointAuthMethod?: string;
  /** The metadata the bank answered, without the secrets. */
  metadata: Record<string, unknown>;
}

/** The registration could not be sent: no `registration` block, or no registration endpoint. */
export class RegistrationSetupError extends ObtppError {
  constructor(message: string, hint?: string) {
    super('registration_setup', message, { exitCode: ExitCode.usage, hint });
  }
}

/** The profile's registration block, or a one-line usage error saying how to add one. */
export function registrationOf(profile: Profile): RegistrationSettings {
  if (!profile.registration) {
    throw new ProfileError(`profile ${profile.source}: $.registration: dynamic client registration needs a registration block (softwareStatement, key, kid)`, ['$.registration'], {
      hint: 'profiles/README.md describes the registration block',
    });
  }
  return profile.registration;
}

/** What the request JWT (or JSON) carries. `softwareStatement: null` leaves the SSA out (the refusal checks). */
export function registrationClaims(profile: Profile, issuer: string, o: { softwareStatement?: string | null; security?: ResolvedSecurity } = {}): Record<string, unknown> {
  const sec = o.security;
  const r = registrationOf(profile);
  const now = Math.floor(Date.now() / 1000);
  const ssa = o.softwareStatement === undefined ? r.softwareStatement : o.softwareStatement;
  const softwareId = softwareIdOf(r.softwareStatement);
  return {
    iss: softwareId ?? profile.auth.clientId,
    aud: issuer,
    iat: now,
    exp: now + 300,
    jti: randomUUID(),
    ...(ssa !== null ? { software_statement: ssa } : {}),
    token_endpoint_auth_method: r.tokenEndpointAuthMethod,
    ...(r.tokenEndpointAuthMethod === 'private_key_jwt' ? { token_endpoint_auth_signing_alg: r.alg } : {}),
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    // The flow the bank's security profile runs (the hybrid flow, JARM, sender-constrained tokens), so that the client may use it.
    response_types: [sec?.responseType ?? 'code'],
    ...(sec?.responseMode.endsWith('jwt') ? { authorization_signed_response_alg: 'PS256' } : {}),
    ...(sec?.senderConstraint === 'mtls' ? { tls_client_certificate_bound_access_tokens: true } : {}),
    ...(sec?.senderConstraint === 'dpop' ? { dpop_bound_access_tokens: true } : {}),
    redirect_uris: r.redirectUris,
    scope: r.scope,
    application_type: 'web',
    id_token_signed_response_alg: 'PS256',
    request_object_signing_alg: r.alg,
  };
}

/** The SSA's software_id (read, not verified: the bank verifies it). */
function softwareIdOf(ssa: string): string | undefined {
  try {
    const id = JSON.parse(Buffer.from(ssa.split('.')[1] ?? '', 'base64url').toString('utf8')).software_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The request body as sent: a JWT signed with the registration key (application/jwt). */
export async function signRegistration(profile: Profile, claims: Record<string, unknown>): Promise<string> {
  const r = registrationOf(profile);
  if (!r.key) throw new ProfileError(`profile ${profile.source}: $.registration.key: a key to sign the registration request is required`, ['$.registration.key']);
  const key = await importSigningKey({ method: 'private_key_jwt', privateKey: r.key, kid: r.kid, alg: r.alg }, '$.registration.key');
  const { SignJWT } = await import('jose');
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, typ: 'JWT', ...(key.kid ? { kid: key.kid } : {}) }).sign(key.key);
}

/** POSTs one registration request (already signed, or JSON) to the endpoint; the answer as it came. */
export async function sendRegistration(http: HttpClient, endpoint: string, body: string | Record<string, unknown>): Promise<HttpResult> {
  // The signed request carries the software statement: it is redacted whole wherever it would show.
  if (typeof body === 'string') http.redactor.add(body);
  const result = typeof body === 'string'
    ? await http.request('POST', endpoint, { headers: { 'content-type': 'application/jwt', accept: 'application/json' }, body })
    : await http.request('POST', endpoint, { headers: { accept: 'application/json' }, json: body });
  learn(http, result);
  return result;
}

/** Teaches redaction the secrets of a registration answer (client_secret, registration_access_token). */
function learn(http: HttpClient, result: HttpResult): void {
  const b = result.body as Record<string, unknown> | undefined;
  for (const k of ['client_secret', 'registration_access_token']) if (typeof b?.[k] === 'string') http.redactor.add(b[k] as string);
}

/** A registration answer (201) as a Registration; anything else throws with the bank's error. */
export function registrationFrom(result: HttpResult): Registration {
  const b = result.body as Record<string, unknown> | undefined;
  if (result.status !== 201 || typeof b?.client_id !== 'string') {
    // The bank's words as captured (redacted): an error answer may echo the software statement.
    const said = result.exchange.response?.body as Record<string, unknown> | undefined;
    const error = typeof said?.error === 'string' ? `${quoteOutside(said.error)}${typeof said.error_description === 'string' ? `: ${quoteOutside(said.error_description)}` : ''}` : `HTTP ${result.status}`;
    throw new ObtppError('registration_refused', `the bank refused the registration: ${error}`, { exitCode: ExitCode.nonConformant });
  }
  const { client_secret: secret, registration_access_token: rat, ...metadata } = b;
  return {
    clientId: b.client_id,
    ...(typeof secret === 'string' ? { clientSecret: secret } : {}),
    ...(typeof rat === 'string' ? { registrationAccessToken: rat } : {}),
    ...(typeof b.registration_client_uri === 'string' ? { registrationClientUri: b.registration_client_uri } : {}),
    ...(typeof b.token_endpoint_auth_method === 'string' ? { tokenEndpointAuthMethod: b.token_endpoint_auth_method } : {}),
    metadata,
  };
}

/** RFC 7592: read (GET), update (PUT, the whole metadata) or delete (DELETE) the registration. */
export async function manageRegistration(http: HttpClient, reg: Registration, method: 'GET' | 'PUT' | 'DELETE', metadata?: Record<string, unknown>): Promise<HttpResult> {
  if (!reg.registrationClientUri || !reg.registrationAccessToken) {
    throw new RegistrationSetupError('the bank gave no registration_client_uri and registration access token: it does not offer reading, updating or deleting the registration (RFC 7592)');
  }
  http.redactor.add(reg.registrationAccessToken);
  const headers = { authorization: `Bearer ${reg.registrationAccessToken}`, accept: 'application/json' };
  const result = method === 'PUT'
    ? await http.request('PUT', reg.registrationClientUri, { headers, json: { ...metadata, client_id: reg.clientId } })
    : await http.request(method, reg.registrationClientUri, { headers });
  learn(http, result);
  return result;
}

/** RFC 7592 §2.2: fields a client must not send in an update (the bank's own, or secrets). */
const NOT_IN_UPDATE = ['registration_access_token', 'registration_client_uri', 'client_secret', 'client_secret_expires_at', 'client_id_issued_at', 'software_statement'];

/**
 * What the profile decides of a registered client, as an update would set it: its redirect URIs,
 * scope, token endpoint auth method (and its signing alg), grant and response types.
 */
export function updatableMetadata(profile: Profile, security?: ResolvedSecurity): Record<string, unknown> {
  const claims = registrationClaims(profile, '', { ...(security ? { security } : {}) });
  const keys = ['redirect_uris', 'scope', 'token_endpoint_auth_method', 'token_endpoint_auth_signing_alg', 'grant_types', 'response_types'];
  return Object.fromEntries(keys.filter((k) => claims[k] !== undefined).map((k) => [k, claims[k]]));
}

/**
 * RFC 7592 update: the registration as the bank holds it (read first, since an update replaces the
 * whole metadata and a field left out is a field dropped), with `changes` over it, PUT with the
 * registration access token. Answers the PUT as it came (200 with the metadata, or the bank's error).
 */
export async function updateRegistration(http: HttpClient, reg: Registration, changes: Record<string, unknown>): Promise<HttpResult> {
  const current = await manageRegistration(http, reg, 'GET');
  if (current.status !== 200 || typeof current.body !== 'object' || current.body === null) return current;
  return manageRegistration(http, reg, 'PUT', { ...withoutBanksOwn(current.body as Record<string, unknown>), ...changes });
}

/**
 * The same RFC 7592 call WITHOUT the registration access token (DCR-03 judges that the bank refuses
 * it): a read, or an update sending `metadata`. The answer as it came.
 */
export async function manageWithoutToken(http: HttpClient, reg: Registration, method: 'GET' | 'PUT', metadata?: Record<string, unknown>): Promise<HttpResult> {
  if (!reg.registrationClientUri) throw new RegistrationSetupError('the bank gave no registration_client_uri: it does not offer RFC 7592 management');
  const headers = { accept: 'application/json' };
  const result = method === 'PUT'
    ? await http.request('PUT', reg.registrationClientUri, { headers, json: { ...withoutBanksOwn(metadata ?? {}), client_id: reg.clientId } })
    : await http.request('GET', reg.registrationClientUri, { headers });
  learn(http, result);
  return result;
}

function withoutBanksOwn(metadata: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata).filter(([k]) => !NOT_IN_UPDATE.includes(k)));
}
