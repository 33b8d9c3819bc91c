/**
 * DPoP (RFC 9449) for the TPP's resource requests, on openid-client's own implementation (the key
 * and the tokens bound to it: dpop-key.ts): requests sent through `fetchProtectedResource` with a DPoP
 * handle — a fresh proof per request (htm, htu, iat, jti, ath), `Authorization: DPoP`, and the
 * server's `DPoP-Nonce` honoured with one retry — while the exchange still goes through the
 * profile's HTTP core (mTLS, capture, redaction, limits).
 */
import * as client from 'openid-client';
import type { HttpClient, HttpResult } from './http.ts';
import type { DpopKey } from './dpop-key.ts';

/** A handle (nonce cache) per HTTP client and key: resource servers' nonces are kept per origin inside it. */
const handles = new WeakMap<HttpClient, { pair: CryptoKeyPair; handle: client.DPoPHandle }>();

/**
 * Sends one request to a resource server with a DPoP-bound access token: openid-client builds the
 * proof and the Authorization header, the HTTP core sends it. Resolves with the answer as it came
 * (a 401 with its challenge included, after the one retry a `use_dpop_nonce` earns).
 */
export async function dpopRequest(http: HttpClient, key: DpopKey, token: string, method: string, url: string, headers: Record<string, string>, body: string | undefined): Promise<HttpResult> {
  const pair = await key.keyPair();
  let h = handles.get(http);
  if (!h || h.pair !== pair) {
    h = { pair, handle: client.getDPoPHandle(new client.Configuration({ issuer: 'urn:obtpp:resource-server' }, 'obtpp'), pair) };
    handles.set(http, h);
  }
  let last: HttpResult | undefined;
  const config = new client.Configuration({ issuer: 'urn:obtpp:resource-server' }, 'obtpp');
  if (url.startsWith('http:')) client.allowInsecureRequests(config);
  config.timeout = Math.ceil(http.timeoutMs / 1000);
  config[client.customFetch] = (async (to: string, init: RequestInit) => {
    last = undefined;
    last = await http.request(String(init.method ?? method), to, { headers: recordOf(init.headers), ...(typeof init.body === 'string' ? { body: init.body } : {}) });
    const out = new Headers();
    for (const [k, v] of Object.entries(last.headers)) {
      try {
        out.set(k, v);
      } catch {
        // a header value Headers refuses is not one DPoP needs
      }
    }
    return new Response(last.status === 204 || last.status === 304 || last.text === '' ? null : last.text, { status: last.status, headers: out });
  }) as unknown as client.CustomFetch;
  const sent = { ...headers };
  delete sent.authorization;
  try {
    await client.fetchProtectedResource(config, token, new URL(url), method, body, new Headers(sent), { DPoP: h.handle });
  } catch (error) {
    // A challenge (401 WWW-Authenticate) is the bank's answer, for the caller to judge; anything
    // that never got an answer is the transport's failure, thrown as the HTTP core threw it.
    if (!last) throw error;
  }
  return last!;
}

function recordOf(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(h ?? {}).forEach((v, k) => (out[k] = v));
  return out;
}
