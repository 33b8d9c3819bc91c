/**
 * The sandbox's resource server for variants A and B: exactly the endpoints of the spec's tables,
 * with the payloads, status codes, headers and error bodies of UK Open Banking v3.1 (docs/wire.md).
 * Each API is a module with its routes and the faults that bend them (ais.ts, cbpii.ts, pis.ts);
 * this one dispatches by variant, method and path, and writes the answer. Every route handler
 * returns a Reply; `send` is the one place a response leaves, so that faults that bend whole
 * responses have one point to hook into.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { chaosFor } from '../chaos.ts';
import { BodyTooLargeError, matchPath, pathSegments, readBody } from '../http.ts';
import { AIS_LAST_ROUTES, AIS_ROUTES } from './ais.ts';
import { AIS_UK_ONLY_ROUTES } from './ais-uk.ts';
import { CBPII_ROUTES } from './cbpii.ts';
import { PIS_ROUTES, PIS_UK_ROUTES } from './pis.ts';
import { VRP_UK_ROUTES } from './vrp.ts';
import { VRP_V4_ROUTES } from './vrp-v4.ts';
import { PIS_FAMILY_ROUTES } from './pis-families.ts';
import { toV4 } from './v4.ts';
import { ApiError, baseHeaders, errorBody, interactionIdOf, send, ukLayout, type Layout, type Reply, type Req, type ResourceContext, type UkRoute, type Variant } from './plumbing.ts';

export type { ResourceContext, Reply, Variant } from './plumbing.ts';

/**
 * Every route, in matching order: a new API is one more module here. Variant A's transaction detail
 * (`/:accountId/transactions/:resourceId`, directly under the base) comes last.
 */
const ROUTES: readonly UkRoute[] = [...AIS_ROUTES, ...CBPII_ROUTES, ...PIS_ROUTES, ...AIS_LAST_ROUTES];

/**
 * The same APIs as UK Read/Write v3.1.11 publishes them, under /open-banking/v3.1: /aisp (the
 * standard's /account-access-consents only, not the spec's /consents), /cbpii, and /pisp with the
 * payment-order consent and the order in collections of their own. No single-transaction read and
 * no payment /status: the standard has neither.
 */
const UK_ROUTES: readonly UkRoute[] = [
  ...ukLayout('aisp', AIS_ROUTES, (r) => r.pattern[0] === 'consents'),
  ...ukLayout('aisp', AIS_UK_ONLY_ROUTES),
  ...ukLayout('cbpii', CBPII_ROUTES),
  ...PIS_UK_ROUTES,
  ...VRP_UK_ROUTES,
  ...VRP_V4_ROUTES,
  ...PIS_FAMILY_ROUTES,
];

/** Builds the resource server's request handler. */
export function createResourceServer(ctx: ResourceContext) {
  const { faults } = ctx;

  /** Serves one request under `/{variant}/open-banking/v3.1` (or `/open-banking/v3.1` in the UK layout); `path` is the rest. */
  return async function handle(req: IncomingMessage, res: ServerResponse, variant: Variant, path: string, search: string, layout: Layout = 'spec'): Promise<void> {
    const interactionId = interactionIdOf(ctx, req);
    const { reply, route } = await dispatch(ctx, req, variant, path, search, layout);
    // v4.0 spells the same answers in its own code values, before they are signed.
    if (layout === 'uk-4.0') toV4(ctx, route?.operation ?? '', reply);
    if (route?.sign) await route.sign(ctx, reply);
    const chaos = route ? chaosFor(faults, route.operation) : undefined;
    if (!chaos) return send(res, interactionId, reply);
    // The TPP may hang up on a broken answer; that must not become an error of the sandbox.
    res.on('error', () => undefined);
    chaos.write({ req, res, headers: baseHeaders(interactionId), reply, send: () => send(res, interactionId, reply) });
  };
}

/** Finds the route (404 for no path, 405 for no method on a known path) and runs it, unless a chaos fault answers instead. */
async function dispatch(ctx: ResourceContext, req: IncomingMessage, variant: Variant, path: string, search: string, layout: Layout): Promise<{ reply: Reply; route?: UkRoute }> {
  const segments = pathSegments(path);
  const method = req.method ?? 'GET';
  let pathMatched = false;
  for (const candidate of layout === 'spec' ? ROUTES : UK_ROUTES) {
    if (!candidate.variants.includes(variant)) continue;
    const params = matchPath(candidate.pattern, segments);
    if (!params) continue;
    pathMatched = true;
    if (candidate.method !== method) continue;
    const instead = chaosFor(ctx.faults, candidate.operation)?.instead;
    if (instead) return { reply: instead, route: candidate };
    return { reply: await run(ctx, candidate, req, variant, layout, method, path, params, search), route: candidate };
  }
  return { reply: { status: pathMatched ? 405 : 404 } };
}

/** Reads and checks the body, runs the handler, and turns a refusal into its answer. */
async function run(ctx: ResourceContext, candidate: UkRoute, req: IncomingMessage, variant: Variant, layout: Layout, method: string, path: string, params: Record<string, string>, search: string): Promise<Reply> {
  try {
    let body: unknown;
    let bodyText = '';
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return { status: 415 };
      bodyText = await readBody(req);
      if (candidate.verify) await candidate.verify(ctx, req, bodyText);
      try {
        body = JSON.parse(bodyText);
      } catch {
        throw new ApiError(400, 'UK.OBIE.Resource.InvalidFormat', 'the body is not valid JSON');
      }
    }
    const r: Req = {
      variant, layout, method, path, params, query: new URLSearchParams(search), headers: req.headers, raw: req, body, bodyText,
      // Every sandbox token's audience is the UK layout's base (…/open-banking/v3.1).
      self: `${layout === 'uk-3.1' ? ctx.audience : layout === 'uk-4.0' ? ctx.audience.replace(/\/v3\.1$/, '/v4.0') : ctx.baseUrls[variant]}${path}`,
    };
    return await candidate.handler(ctx, r);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { status: 413 };
    if (error instanceof ApiError) return error.status === 401 ? { status: 401, ...(error.headers ? { headers: error.headers } : {}) } : { status: error.status, body: errorBody(ctx, error.status, error.errors) };
    return { status: 500, body: errorBody(ctx, 500, [{ ErrorCode: 'UK.OBIE.UnexpectedError', Message: 'the sandbox failed to answer' }]) };
  }
}
