// The sandbox's security-profile faults (SEC-14, SEC-15), each proven on the bank's own answers by
// the test TPP (tpp.ts: openid-client and undici, none of the harness's code), without a browser:
// the PSU's sign-in and consent pages are posted as forms, the redirects followed by hand.
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { fetch as undiciFetch } from 'undici';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { aisBody, Tpp } from './tpp.ts';

/**
 * The PSU's journey by plain HTTP: from the authorization URL through the sign-in and consent
 * forms, a cookie jar of one, to the redirect back (returned: its fragment or query holds the answer).
 */
export async function formJourney(tpp: Tpp, url: URL): Promise<URL> {
  const sb = tpp.sb;
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const redirect = sb.clients[tpp.clientIndex]!.redirectUri;
  let next: { url: string; method: string; body?: string } = { url: url.href, method: 'GET' };
  for (let hops = 0; hops < 12; hops++) {
    if (next.url.startsWith(redirect)) return new URL(next.url);
    const res = await undiciFetch(next.url, {
      method: next.method, redirect: 'manual', dispatcher: tpp.dispatcher,
      headers: { cookie: cookie(), ...(next.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(next.body ? { body: next.body } : {}),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const text = await res.text();
    const location = res.headers.get('location');
    if (location) {
      next = { url: new URL(location, next.url).href, method: 'GET' };
      continue;
    }
    const action = /<form method="post" action="([^"]+\/(?:login|confirm))"/.exec(text)?.[1];
    assert.ok(action, `the journey stopped at ${next.url} (${res.status}): ${text.slice(0, 200)}`);
    const psu = sb.psus[0]!;
    next = action.endsWith('/login')
      ? { url: new URL(action, sb.issuer).href, method: 'POST', body: new URLSearchParams({ username: psu.username, password: psu.password }).toString() }
      : { url: new URL(action, sb.issuer).href, method: 'POST', body: new URLSearchParams([['decision', 'approve'], ['accounts', psu.accounts[0]!.AccountId]]).toString() };
  }
  throw new Error('the journey did not come back');
}

/** A consent of the sandbox, created with the TPP's client-credentials token. */
async function consent(tpp: Tpp, token?: string): Promise<string> {
  const created = await tpp.api('A', 'POST', '/account-access-consents', { token: token ?? await tpp.cc('accounts'), body: aisBody() });
  assert.equal(created.status, 201, created.text);
  return created.body.Data.ConsentId as string;
}

/** The authorization request's parameters for one consent (the intent id as an essential claim). */
async function params(tpp: Tpp, intentId: string, extra: Record<string, string> = {}) {
  const c = tpp.sb.clients[tpp.clientIndex]!;
  const verifier = client.randomPKCECodeVerifier();
  const intent = { value: intentId, essential: true };
  return {
    redirect_uri: c.redirectUri, scope: 'openid accounts', state: client.randomState(), nonce: client.randomNonce(),
    code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    claims: JSON.stringify({ id_token: { openbanking_intent_id: intent } }),
    ...extra,
  };
}

async function signingKey(sb: Sandbox, index: number) {
  const { importPKCS8 } = await import('jose');
  const c = sb.clients[index]!;
  return { key: await importPKCS8(c.privateKeyPem!, 'PS256'), kid: c.kid };
}

export const SECURITY_PROOFS = {
  /** The hybrid flow's ID token (the fragment) carries c_hash but no s_hash, although a state was sent. */
  'hybrid-id-token-without-s-hash': async ({ sb }: { sb: Sandbox }) => {
    // The tls_client_auth client: the set-up binds tokens to the client certificate, which it holds.
    const tpp = await Tpp.connect(sb, 2);
    const p = await params(tpp, await consent(tpp), { response_type: 'code id_token' });
    const url = await client.buildAuthorizationUrlWithJAR(tpp.config, p, await signingKey(sb, 2));
    const back = await formJourney(tpp, url);
    const idToken = new URLSearchParams(back.hash.slice(1)).get('id_token');
    assert.ok(idToken, `the hybrid answer carries an ID token in the fragment: ${back.hash.slice(0, 80)}`);
    const claims = decodeJwt(idToken);
    assert.equal(typeof claims.c_hash, 'string', 'the code is hashed');
    assert.equal(claims.s_hash, undefined, 'the state is not: no detached signature over it');
  },
  /** The JARM response (an error answer will do) is signed with RS256. */
  'jarm-signed-rs256': async ({ sb }: { sb: Sandbox }) => {
    const tpp = await Tpp.connect(sb, 2);
    const p = await params(tpp, await consent(tpp), { response_mode: 'jwt', prompt: 'none' });
    const url = await client.buildAuthorizationUrlWithPAR(tpp.config, await client.buildAuthorizationUrlWithJAR(tpp.config, p, await signingKey(sb, 2)).then((u) => u.searchParams));
    const res = await undiciFetch(url, { redirect: 'manual', dispatcher: tpp.dispatcher });
    await res.arrayBuffer();
    const response = new URL(res.headers.get('location')!).searchParams.get('response');
    assert.ok(response, 'the answer is a JWT');
    assert.equal(decodeProtectedHeader(response).alg, 'RS256');
  },
  /** The authorization response's iss (an error answer will do) names another issuer. */
  'authorization-response-iss-wrong': async ({ sb }: { sb: Sandbox }) => {
    const tpp = await Tpp.connect(sb, 1);
    const dpop = client.getDPoPHandle(tpp.config, await client.randomDPoPKeyPair());
    const cc = await client.clientCredentialsGrant(tpp.config, { scope: 'accounts' }, { DPoP: dpop });
    const intent = await consentWithDpop(tpp, dpop, cc.access_token);
    const url = await client.buildAuthorizationUrlWithPAR(tpp.config, await params(tpp, intent, { prompt: 'none' }), { DPoP: dpop });
    const res = await undiciFetch(url, { redirect: 'manual', dispatcher: tpp.dispatcher });
    await res.arrayBuffer();
    const back = new URL(res.headers.get('location')!);
    assert.equal(back.searchParams.get('error'), 'login_required');
    assert.equal(back.searchParams.get('iss'), 'https://another-bank.invalid');
  },
  /** A DPoP-bound client-credentials token is taken as a bearer token, without a proof. */
  'dpop-proof-not-checked': async ({ sb }: { sb: Sandbox }) => {
    const tpp = await Tpp.connect(sb, 1);
    const dpop = client.getDPoPHandle(tpp.config, await client.randomDPoPKeyPair());
    const cc = await client.clientCredentialsGrant(tpp.config, { scope: 'accounts' }, { DPoP: dpop });
    assert.equal(cc.token_type, 'dpop', 'the token is DPoP-bound');
    const created = await tpp.api('A', 'POST', '/account-access-consents', { token: cc.access_token, body: aisBody() });
    assert.equal(created.status, 201, 'a DPoP-bound token without a proof is honoured');
  },
};

/** A consent created with a DPoP-bound token (openid-client makes the proof and honours the nonce). */
async function consentWithDpop(tpp: Tpp, dpop: client.DPoPHandle, token: string): Promise<string> {
  const res = await client.fetchProtectedResource(tpp.config, token, new URL(`${tpp.sb.baseUrls.A}/account-access-consents`), 'POST', JSON.stringify(aisBody()), new Headers({ 'content-type': 'application/json', 'x-idempotency-key': client.randomState().slice(0, 32) }), { DPoP: dpop }).catch(async (error) => {
    if (!client.WWWAuthenticateChallengeError || !(error instanceof client.WWWAuthenticateChallengeError)) throw error;
    throw new Error(`the consent was refused: ${error.message}`);
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { Data: { ConsentId: string } }).Data.ConsentId;
}
