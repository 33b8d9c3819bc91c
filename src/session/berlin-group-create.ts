/**
 * How the TPP asks a NextGenPSD2 bank for a resource whose SCA follows (a consent, a payment, a
 * signing basket), for the terminal client and the conformance steps alike: the headers that ask
 * for an SCA approach, and the consent's create (POST /v1/consents). The front doors differ only
 * in what they do with the answer: the terminal checks and remembers it, the steps judge it.
 */
import type { ApiResult, CallOptions, TppClient } from '../client/operations.ts';
import type { Profile } from '../profile/types.ts';
import { bgHeaders } from '../dialects/berlin-group/builders.ts';

export type Approach = 'redirect' | 'oauth' | 'decoupled' | 'embedded';

/**
 * The headers that ask the bank for an approach (FACTS §6.2): redirect with TPP-Redirect-URI;
 * decoupled and embedded name the PSU (PSU-ID) and say the TPP prefers not to be redirected
 * (decoupled: TPP-Decoupled-Preferred), and, with `explicit`, that the TPP prefers to start the
 * authorisation itself; OAuth2 asks nothing.
 */
export function approachHeaders(profile: Profile, approach: Approach, o: { explicit?: boolean; psuId?: string } = {}): Record<string, string> {
  switch (approach) {
    case 'redirect': {
      const { 'X-Request-ID': _id, ...redirect } = bgHeaders({ tppRedirectUri: profile.auth.redirectUri, tppRedirectPreferred: true });
      return redirect;
    }
    case 'oauth': return {};
    case 'decoupled':
    case 'embedded': return {
      'PSU-ID': o.psuId ?? profile.psu.username, 'TPP-Redirect-Preferred': 'false', 'TPP-Decoupled-Preferred': String(approach === 'decoupled'),
      ...(o.explicit ? { 'TPP-Explicit-Authorisation-Preferred': 'true' } : {}),
    };
  }
}

/** The headers of a create that starts an SCA: X-Request-ID, PSU-IP-Address (the profile's, else loopback), and the approach's. */
export function creationHeaders(profile: Profile, approach: Approach, o: { requestId?: string; explicit?: boolean } = {}): Record<string, string> {
  return { ...bgHeaders({ ...(o.requestId ? { requestId: o.requestId } : {}), psuIpAddress: profile.psuIpAddress ?? '127.0.0.1' }), ...approachHeaders(profile, approach, o) };
}

/** Call options without the UK headers (x-fapi-interaction-id, x-idempotency-key): NextGenPSD2 has X-Request-ID. */
export const bgCallOptions = (headers: Record<string, string>, token?: string): CallOptions => ({ token: token ?? null, interactionId: false, idempotencyKey: false, headers });

/**
 * POST /v1/consents asking for the approach: the one create of a consent, whatever the answer
 * (`accept`: an Accept header; `call`: further call options, such as a request's signature).
 */
export function postConsent(client: TppClient, profile: Profile, body: unknown, approach: Approach, o: { requestId?: string; accept?: string; explicit?: boolean; call?: Partial<CallOptions> } = {}): Promise<ApiResult> {
  const headers = creationHeaders(profile, approach, o);
  return client.createAccountAccessConsent(body as never, { ...bgCallOptions(o.accept ? { ...headers, Accept: o.accept } : headers), ...o.call });
}
