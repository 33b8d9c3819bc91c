/**
 * Dynamic client registration at the sandbox, the OBIE DCR 3.3 way in front of oidc-provider's own
 * RFC 7591/7592 endpoints: the TPP POSTs a request JWT (application/jwt) signed with its key, carrying
 * a software statement assertion (SSA) that the directory — here a key the sandbox makes at start
 * and trusts — signed. The SSA is checked (the directory's signature, its redirect URIs), the
 * request JWT is checked against the keys the SSA publishes, then the metadata go on to
 * oidc-provider as the JSON registration it understands. A registration without a valid SSA is
 * refused with `invalid_software_statement` (RFC 7591 §3.2.2).
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { createLocalJWKSet, decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Faults } from './faults.ts';
import type { RsaKey } from './keys.ts';

/** The `iss` of the sandbox directory's software statements. */
export const DIRECTORY_ISSUER = 'obtpp-sandbox-directory';
/** The registration endpoint's path (oidc-provider's default). */
export const REGISTRATION_PATH = '/reg';

/** What a software statement says about the TPP's software. */
export interface SoftwareStatementClaims {
  softwareId: string;
  clientName: string;
  redirectUris: string[];
  /** The public keys the TPP signs with (the directory's `software_jwks`). */
  jwks: { keys: JWK[] };
}

/** Signs a software statement with the directory's key (what `sb.profile()` hands the TPP). */
export async function issueSoftwareStatement(directory: RsaKey, claims: SoftwareStatementClaims): Promise<string> {
  const key = await importJWK(directory.privateJwk as JWK, 'PS256');
  return new SignJWT({
    software_id: claims.softwareId,
    software_client_name: claims.clientName,
    software_redirect_uris: claims.redirectUris,
    software_roles: ['AISP', 'CBPIIP', 'PISP'],
    software_jwks: claims.jwks,
    org_id: 'obtpp-sandbox-org',
  }).setProtectedHeader({ alg: 'PS256', kid: directory.kid, typ: 'JWT' }).setIssuer(DIRECTORY_ISSUER).setIssuedAt().setJti(randomUUID()).sign(key);
}

class Refusal extends Error {
  readonly code: string;
  constructor(code: string, description: string) {
    super(description);
    this.code = code;
  }
}

/** Request-JWT claims that are about the JWT itself, not client metadata. */
const JWT_CLAIMS = new Set(['iss', 'aud', 'iat', 'exp', 'nbf', 'jti']);

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Refusal('invalid_request', 'the registration request is too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The Koa middleware in front of oidc-provider's registration endpoint (POST only; RFC 7592's
 * read, update and delete go straight to oidc-provider with the registration access token).
 */
export function registrationGate(o: { provider: Provider; issuer: string; directory: RsaKey; faults: Faults }) {
  const directoryKey = importJWK(o.directory.publicJwk as JWK, 'PS256');
  // The registration-managed-without-token fault: each client's registration access token, to stand in for a TPP that sent none.
  const tokens = new Map<string, string>();
  const keepTokens = o.faults.has('registration-managed-without-token');
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    const managed = ctx.path.startsWith(`${REGISTRATION_PATH}/`) ? decodeURIComponent(ctx.path.slice(REGISTRATION_PATH.length + 1)) : undefined;
    if (managed !== undefined && keepTokens && !ctx.req.headers.authorization && tokens.has(managed)) {
      ctx.req.headers.authorization = `Bearer ${tokens.get(managed)}`;
    }
    if (ctx.path !== REGISTRATION_PATH || ctx.method !== 'POST') return next();
    let metadata: Record<string, unknown>;
    try {
      metadata = await check(ctx, { issuer: o.issuer, directoryKey, faults: o.faults });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      ctx.status = 400;
      ctx.set('cache-control', 'no-store');
      ctx.body = { error: error.code, error_description: error.message };
      return;
    }
    passOnAsJson(ctx, metadata);
    await next();
    const issued = ctx.body as { client_id?: unknown; registration_access_token?: unknown } | undefined;
    if (keepTokens && typeof issued?.client_id === 'string' && typeof issued.registration_access_token === 'string') tokens.set(issued.client_id, issued.registration_access_token);
  };
}

/** oidc-provider reads the body from ctx.req: give it the checked metadata as the JSON registration to read. */
function passOnAsJson(ctx: KoaContextWithOIDC, metadata: Record<string, unknown>): void {
  const json = Buffer.from(JSON.stringify(metadata));
  ctx.req.headers['content-type'] = 'application/json';
  ctx.req.headers['content-length'] = String(json.length);
  ctx.req = Object.assign(Readable.from([json]), { headers: ctx.req.headers, method: ctx.req.method, url: ctx.req.url, socket: ctx.req.socket }) as unknown as typeof ctx.req;
}

/** The registration request's claims, and the JWT that carried them (none for a JSON registration). */
async function readRequest(ctx: KoaContextWithOIDC): Promise<{ request: Record<string, unknown>; signed?: string }> {
  const text = await readAll(ctx.req);
  const type = String(ctx.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/jwt') {
    const signed = text.trim();
    try {
      return { request: JSON.parse(Buffer.from(signed.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>, signed };
    } catch {
      throw new Refusal('invalid_client_metadata', 'the registration request is not a JWT');
    }
  }
  if (type === 'application/json') {
    try {
      return { request: JSON.parse(text) as Record<string, unknown> };
    } catch {
      throw new Refusal('invalid_client_metadata', 'the registration request is not JSON');
    }
  }
  throw new Refusal('invalid_client_metadata', 'the registration request must be a signed JWT (application/jwt)');
}

/**
 * The registration's checks: the software statement signed by the directory, the request JWT
 * signed with a key the statement publishes, every redirect URI one the statement lists. Returns
 * the metadata oidc-provider registers (the statement's name, keys and software id among them).
 */
async function check(ctx: KoaContextWithOIDC, o: { issuer: string; directoryKey: ReturnType<typeof importJWK>; faults: Faults }): Promise<Record<string, unknown>> {
  const { request, signed } = await readRequest(ctx);
  const ssa = request.software_statement;
  const lenient = o.faults.has('registration-without-ssa-accepted');
  if (typeof ssa !== 'string') {
    if (lenient) return unchecked(request);
    throw new Refusal('invalid_software_statement', 'a software statement (software_statement) is required');
  }
  let statement: Record<string, any>;
  try {
    statement = (await jwtVerify(ssa, await o.directoryKey, { issuer: DIRECTORY_ISSUER, algorithms: ['PS256'] })).payload as Record<string, any>;
  } catch (error) {
    if (lenient) return unchecked(request);
    throw new Refusal('invalid_software_statement', `the software statement is not signed by a directory this bank trusts (${(error as Error).message})`);
  }
  if (!signed) throw new Refusal('invalid_client_metadata', 'the registration request must be a JWT signed with a key of the software statement');
  try {
    const header = decodeProtectedHeader(signed);
    await jwtVerify(signed, createLocalJWKSet(statement.software_jwks), { audience: o.issuer, algorithms: [String(header.alg ?? 'PS256')] });
  } catch (error) {
    throw new Refusal('invalid_client_metadata', `the registration request is not signed with a key of the software statement (${(error as Error).message})`);
  }
  const redirects = (request.redirect_uris ?? statement.software_redirect_uris) as unknown;
  if (!Array.isArray(redirects) || !redirects.every((u) => (statement.software_redirect_uris as unknown[]).includes(u))) {
    throw new Refusal('invalid_redirect_uri', 'every redirect URI must be one the software statement lists');
  }
  return {
    ...strip(request),
    redirect_uris: redirects,
    client_name: statement.software_client_name,
    jwks: statement.software_jwks,
    software_id: statement.software_id,
  };
}

/** The fault's registration: the metadata as sent, minus what would need the keys an SSA publishes. */
function unchecked(request: Record<string, unknown>): Record<string, unknown> {
  const { request_object_signing_alg: _alg, software_statement: _ssa, ...rest } = strip(request);
  return rest;
}

function strip(request: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(request).filter(([k]) => !JWT_CLAIMS.has(k)));
}
