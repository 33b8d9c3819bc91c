/**
 * The NextGenPSD2 (Berlin Group XS2A 1.3.x) resource server of the sandbox, for variants A and B:
 * consents and their authorisations, accounts, balances, transactions (A: and their details), card accounts,
 * funds confirmations, and (A) payments, their cancellation and its authorisation, and signing baskets. Status codes, headers (X-Request-ID echoed,
 * Location, ASPSP-SCA-Approach) and error bodies (tppMessages, or RFC 7807 when the TPP accepts
 * application/problem+json) as the standard writes them. The bank's own reading of the standard:
 * it shares nothing with the harness's dialect (src/dialects), by design.
 *
 * Each API is a module with its routes and the faults that bend them (consents.ts, accounts.ts,
 * funds.ts, payments.ts, baskets.ts); what they share is plumbing.ts. This one dispatches and writes the answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLargeError, matchPath, pathSegments, readBody } from '../http.ts';
import { ACCOUNT_ROUTES } from './accounts.ts';
import { BASKET_ROUTES } from './baskets.ts';
import { CARD_ROUTES } from './cards.ts';
import { CONSENT_ROUTES } from './consents.ts';
import { FUNDS_ROUTES } from './funds.ts';
import { PAYMENT_ROUTES } from './payments.ts';
import { SCA_ROUTES } from './sca-routes.ts';
import { checkRequestSignature, signAnswer } from './signatures.ts';
import { BgError, errorReply, format, requestIdOf, type BgRoute, type Reply, type Req, type Variant, type Xs2aContext } from './plumbing.ts';

export type { Xs2aContext } from './plumbing.ts';
export { MAX_CONSENT_DAYS } from './consents.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every route, in matching order: a new API is one more module here. */
const ROUTES: readonly BgRoute[] = [...CONSENT_ROUTES, ...ACCOUNT_ROUTES, ...CARD_ROUTES, ...FUNDS_ROUTES, ...PAYMENT_ROUTES, ...BASKET_ROUTES, ...SCA_ROUTES];

/** What the bank serves in a variant, by the names a profile's `implements` gives them: each route's once, in matching order. */
export function servedOperations(variant: Variant): string[] {
  return [...new Set(ROUTES.flatMap((r) => (r.operation && r.variants.includes(variant) ? [r.operation] : [])))];
}

export function createXs2a(ctx: Xs2aContext): (req: IncomingMessage, res: ServerResponse, variant: Variant, path: string, search: string) => Promise<void> {
  return async function handle(req, res, variant, path, search) {
    const reply = await dispatch(ctx, req, variant, path, search);
    const headers: Record<string, string> = { 'cache-control': 'no-store', 'X-Request-ID': requestIdOf(ctx, req) };
    let payload: string | undefined;
    if (reply.multipart !== undefined) {
      // The parts written by Node's own FormData encoder (the boundary is its choice).
      const form = new FormData();
      for (const part of reply.multipart) form.append(part.name, new Blob([part.text], { type: part.type }));
      const encoded = new Response(form);
      payload = await encoded.text();
      headers['content-type'] = encoded.headers.get('content-type')!;
      headers['content-length'] = String(Buffer.byteLength(payload));
    } else if (reply.xml !== undefined) {
      payload = reply.xml;
      headers['content-type'] = 'application/xml; charset=utf-8';
      headers['content-length'] = String(Buffer.byteLength(payload));
    } else if (reply.body !== undefined) {
      payload = JSON.stringify(reply.body);
      headers['content-type'] = 'application/json; charset=utf-8';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    Object.assign(headers, reply.headers);
    if (ctx.signatures) Object.assign(headers, signAnswer(ctx.signatures, ctx.faults, headers['X-Request-ID']!, payload));
    res.writeHead(reply.status, headers);
    res.end(payload);
  };
}

/** The JSON body of a POST or PUT (none for an empty POST that starts an authorisation). */
function parseJson(req: IncomingMessage, chosen: BgRoute, text: string): unknown {
  if (text === '' && /(^|-)authorisations$/.test(chosen.pattern.at(-1) ?? '')) return undefined;
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new BgError(415, 'FORMAT_ERROR', 'the body must be application/json');
  try {
    return JSON.parse(text);
  } catch {
    throw format('the body is not valid JSON');
  }
}

/** The text parts of a multipart/form-data body by name (Node's own parser; a file part is read as text). */
async function formParts(req: IncomingMessage, text: string): Promise<Map<string, string>> {
  let form: FormData;
  try {
    form = await new Response(text, { headers: { 'content-type': req.headers['content-type']! } }).formData();
  } catch {
    throw format('the body is not a well-formed multipart/form-data message');
  }
  const parts = new Map<string, string>();
  for (const [name, value] of form) {
    if (parts.has(name)) throw format(`the multipart body has two parts named ${name}`, name);
    parts.set(name, typeof value === 'string' ? value : await value.text());
  }
  return parts;
}

/** Finds the route (404 for no path or not in this variant, 405 for no method), checks X-Request-ID and the body, and runs it. */
async function dispatch(ctx: Xs2aContext, req: IncomingMessage, variant: Variant, path: string, search: string): Promise<Reply> {
  const segments = pathSegments(path);
  const method = req.method ?? 'GET';
  const candidates = ROUTES.map((c) => ({ c, params: matchPath(c.pattern, segments) })).filter((x) => x.params !== undefined);
  const offered = candidates.filter((x) => x.c.variants.includes(variant));
  try {
    if (offered.length === 0) {
      throw new BgError(404, 'RESOURCE_UNKNOWN', candidates.length ? `not offered in variant ${variant}` : 'no such endpoint');
    }
    const chosen = offered.find((x) => x.c.method === method);
    if (!chosen) throw new BgError(405, 'SERVICE_INVALID', `${method} is not offered on this path`);
    const requestId = req.headers['x-request-id'];
    if (typeof requestId !== 'string' || !UUID.test(requestId)) throw format('X-Request-ID is required and must be a UUID', 'X-Request-ID');
    const text = method === 'POST' || method === 'PUT' ? await readBody(req) : '';
    // A signing bank checks the signature over the body as received, before reading it.
    if (ctx.signatures) checkRequestSignature(ctx.signatures, ctx.faults, req.headers, text);
    // A route that takes pain.001 gets the XML's text as it came; the route decides whether its product takes it.
    const xml = chosen.c.xml && /^(application|text)\/xml\b/i.test(req.headers['content-type'] ?? '') ? text : undefined;
    const multipart = chosen.c.xml && /^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '') ? await formParts(req, text) : undefined;
    const body = (method === 'POST' || method === 'PUT') && xml === undefined && multipart === undefined ? parseJson(req, chosen.c, text) : undefined;
    const r: Req = { variant, method, params: chosen.params!, query: new URLSearchParams(search), headers: req.headers, body, ...(xml !== undefined ? { xml } : {}), ...(multipart ? { multipart } : {}), base: ctx.baseUrls[variant], url: new URL(req.url ?? '/', ctx.issuer).href };
    return await chosen.c.handler(ctx, r);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return errorReply(ctx, req, new BgError(413, 'FORMAT_ERROR', 'the body is too large'));
    if (error instanceof BgError) return errorReply(ctx, req, error);
    return { status: 500, body: { tppMessages: [{ category: 'ERROR', code: 'INTERNAL_SERVER_ERROR', text: 'the sandbox failed to answer' }] } };
  }
}
