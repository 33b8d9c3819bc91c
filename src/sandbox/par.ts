/**
 * The par-without-client-auth-accepted fault (SEC-12): a bank whose pushed authorization request
 * endpoint takes a client_id at its word. A PAR request that carries no client authentication (no
 * Authorization header, no client_assertion, no client_secret) is stored as oidc-provider stores a
 * pushed request, and answered 201 with its request_uri; an authenticated one goes on to
 * oidc-provider as always.
 */
import { Readable } from 'node:stream';
import { UnsecuredJWT } from 'jose';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

/** oidc-provider's PAR endpoint path (its default route). */
const PAR_PATH = '/request';
/** How long a pushed request lives, in seconds (oidc-provider's own maximum). */
const TTL = 60;

export function unauthenticatedPar(provider: Provider) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.path !== PAR_PATH || ctx.method !== 'POST') return next();
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const params = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
    const authenticated = ctx.req.headers.authorization !== undefined || params.client_assertion !== undefined || params.client_secret !== undefined;
    const client = !authenticated && params.client_id ? await provider.Client.find(params.client_id) : undefined;
    if (!client) {
      // oidc-provider reads the body from ctx.req: give it back the bytes it would have read.
      ctx.req = Object.assign(Readable.from([raw]), { headers: ctx.req.headers, method: ctx.req.method, url: ctx.req.url, socket: ctx.req.socket }) as unknown as typeof ctx.req;
      return next();
    }
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { ...params };
    if (typeof payload.claims === 'string') payload.claims = JSON.parse(payload.claims);
    const request = new UnsecuredJWT(payload).setIssuedAt(now).setIssuer(client.clientId).setAudience(provider.issuer).setExpirationTime(now + TTL).setNotBefore(now).encode();
    const id = await new provider.PushedAuthorizationRequest({ request, trusted: true } as never).save(TTL);
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { expires_in: TTL, request_uri: `urn:ietf:params:oauth:request_uri:${id}` };
  };
}

/**
 * The par-request-uri-in-form-ignored fault (SEC-22): a pushed request that carries a request_uri
 * in its form (RFC 9126 §2.1: the PAR endpoint must refuse it) has it dropped, unread, and is
 * pushed as if it had none.
 */
export function ignoredRequestUri() {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.path !== PAR_PATH || ctx.method !== 'POST') return next();
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const params = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    params.delete('request_uri');
    const raw = Buffer.from(params.toString());
    // oidc-provider reads the body from ctx.req and its length from the headers koa holds (the same object): the form without the request_uri.
    ctx.req.headers['content-length'] = String(raw.length);
    ctx.req = Object.assign(Readable.from([raw]), { headers: ctx.req.headers, method: ctx.req.method, url: ctx.req.url, socket: ctx.req.socket }) as unknown as typeof ctx.req;
    return next();
  };
}
