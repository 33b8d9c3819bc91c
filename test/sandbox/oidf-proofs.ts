// The sandbox's faults of the OpenID Foundation's FAPI modules (SEC-16 … SEC-24), each proven on the
// bank's own answers by the test TPP (tpp.ts: openid-client, jose and undici, none of the harness's
// code), without a browser where the fault shows before the PSU's pages (formJourney posts them).
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import { importPKCS8 } from 'jose';
import { fetch as undiciFetch } from 'undici';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { aisBody, Tpp } from './tpp.ts';
import { formJourney } from './security-proofs.ts';

/** The client with this id, and its index. */
function clientOf(sb: Sandbox, id: string): number {
  const i = sb.clients.findIndex((c) => c.clientId === id);
  assert.ok(i >= 0, `the sandbox has a client ${id}`);
  return i;
}

/** A consent of the sandbox, created with the client's client-credentials token (the mTLS client: the set-up binds tokens to its certificate). */
async function consent(sb: Sandbox): Promise<string> {
  const tpp = await Tpp.connect(sb, clientOf(sb, 'obtpp-sandbox-mtls'));
  const created = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() });
  assert.equal(created.status, 201, created.text);
  return created.body.Data.ConsentId as string;
}

/** A signed request object of the client (the hybrid flow, by value) for the consent, changed as `modify` says; where the bank sent the browser. */
async function byValue(sb: Sandbox, clientId: string, intentId: string, o: { params?: Record<string, string>; modify?: (h: Record<string, unknown>, p: Record<string, unknown>) => void } = {}): Promise<string> {
  const tpp = await Tpp.connect(sb, clientOf(sb, clientId));
  const c = sb.clients[tpp.clientIndex]!;
  const intent = { value: intentId, essential: true };
  const params = {
    redirect_uri: c.redirectUri, scope: 'openid accounts', response_type: 'code id_token', state: client.randomState(), nonce: client.randomNonce(),
    code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256',
    claims: JSON.stringify({ id_token: { openbanking_intent_id: intent } }), ...(o.params ?? {}),
  };
  const key = { key: await importPKCS8(c.privateKeyPem!, 'PS256'), kid: c.kid };
  const url = await client.buildAuthorizationUrlWithJAR(tpp.config, params, key, o.modify ? { [client.modifyAssertion]: o.modify } : {});
  const res = await undiciFetch(url, { redirect: 'manual', dispatcher: tpp.dispatcher });
  const text = await res.text();
  return res.headers.get('location') ?? `${res.status} ${text.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 300)}`;
}

/** The DPoP set-up's private_key_jwt client, a DPoP key, and a consent created with a DPoP-bound token. */
async function dpopClient(sb: Sandbox, modify?: (h: Record<string, unknown>, p: Record<string, unknown>) => void) {
  const tpp = await Tpp.connect(sb, clientOf(sb, 'obtpp-sandbox-jwt'));
  const pair = await client.randomDPoPKeyPair();
  const dpop = client.getDPoPHandle(tpp.config, pair);
  const cc = await client.clientCredentialsGrant(tpp.config, { scope: 'accounts' }, { DPoP: dpop });
  const proof = modify ? client.getDPoPHandle(tpp.config, pair, { [client.modifyAssertion]: modify }) : dpop;
  const res = await client.fetchProtectedResource(tpp.config, cc.access_token, new URL(`${sb.baseUrls.A}/account-access-consents`), 'POST', JSON.stringify(aisBody()),
    new Headers({ 'content-type': 'application/json', 'x-idempotency-key': client.randomState().slice(0, 32) }), { DPoP: proof });
  return { tpp, dpop, res };
}

export const OIDF_PROOFS = {
  /** The discovery document names RS256 alone for ID tokens. */
  'discovery-id-token-rs256': async ({ sb }: { sb: Sandbox }) => {
    const d = await (await undiciFetch(`${sb.issuer}/.well-known/openid-configuration`)).json() as Record<string, unknown>;
    assert.deepEqual(d.id_token_signing_alg_values_supported, ['RS256']);
  },
  /** A request object without nbf, or valid for 65 minutes, goes on to the PSU's login. */
  'request-object-nbf-not-required': async ({ sb }: { sb: Sandbox }) => {
    const intent = await consent(sb);
    assert.match(await byValue(sb, 'obtpp-sandbox-mtls', intent, { modify: (_h, p) => void delete p.nbf }), /\/interaction\//);
    const now = Math.floor(Date.now() / 1000);
    assert.match(await byValue(sb, 'obtpp-sandbox-mtls', intent, { modify: (_h, p) => Object.assign(p, { nbf: now, exp: now + 65 * 60 }) }), /\/interaction\//);
  },
  /** A redirect URI the client never registered goes on to the PSU's login. */
  'unregistered-redirect-uri-accepted': async ({ sb }: { sb: Sandbox }) => {
    const intent = await consent(sb);
    assert.match(await byValue(sb, 'obtpp-sandbox-mtls', intent, { params: { redirect_uri: `${sb.clients[0]!.redirectUri}/never-registered` } }), /\/interaction\//);
  },
  /** A code is exchanged twice. */
  'authorization-code-reusable': async ({ sb }: { sb: Sandbox }) => {
    const { tpp, dpop, res } = await dpopClient(sb);
    assert.equal(res.status, 201, await res.clone().text());
    const intent = ((await res.json()) as { Data: { ConsentId: string } }).Data.ConsentId;
    const c = sb.clients[tpp.clientIndex]!;
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const params = {
      redirect_uri: c.redirectUri, scope: 'openid accounts', state, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      claims: JSON.stringify({ id_token: { openbanking_intent_id: { value: intent, essential: true } } }),
    };
    const back = await formJourney(tpp, await client.buildAuthorizationUrlWithPAR(tpp.config, params, { DPoP: dpop }));
    const code = back.searchParams.get('code')!;
    assert.ok(code, `the PSU's authorisation came back with a code: ${back.search.slice(0, 80)}`);
    const exchange = () => client.genericGrantRequest(tpp.config, 'authorization_code', { code, redirect_uri: c.redirectUri, code_verifier: verifier }, { DPoP: dpop });
    await exchange();
    const again = await exchange();
    assert.equal(again.token_type, 'dpop', 'the second use of the code is granted too');
  },
  /** A client assertion that expired 5 minutes ago is taken. */
  'client-assertion-clock-lenient': async ({ sb }: { sb: Sandbox }) => {
    const tpp = await Tpp.connect(sb, clientOf(sb, 'obtpp-sandbox-jwt'));
    const c = sb.clients[tpp.clientIndex]!;
    const now = Math.floor(Date.now() / 1000);
    const stale = client.PrivateKeyJwt({ key: await importPKCS8(c.privateKeyPem!, 'PS256'), kid: c.kid }, { [client.modifyAssertion]: (_h: Record<string, unknown>, p: Record<string, unknown>) => Object.assign(p, { iat: now - 600, exp: now - 300 }) });
    const config = new client.Configuration(tpp.config.serverMetadata(), c.clientId, {}, stale);
    client.allowInsecureRequests(config);
    const cc = await client.clientCredentialsGrant(config, { scope: 'accounts' }, { DPoP: client.getDPoPHandle(config, await client.randomDPoPKeyPair()) });
    assert.ok(cc.access_token);
  },
  /** A pushed request carrying a request_uri in its form is taken (201, a request_uri of its own). */
  'par-request-uri-in-form-ignored': async ({ sb }: { sb: Sandbox }) => {
    const { tpp, dpop, res } = await dpopClient(sb);
    const { url } = await tpp.authorizationUrl(((await res.json()) as { Data: { ConsentId: string } }).Data.ConsentId, 'accounts');
    const form = new URLSearchParams(url.searchParams);
    form.set('request_uri', 'urn:ietf:params:oauth:request_uri:never-pushed');
    const pushed = await client.buildAuthorizationUrlWithPAR(tpp.config, form, { DPoP: dpop });
    assert.match(pushed.searchParams.get('request_uri') ?? '', /^urn:ietf:params:oauth:request_uri:/);
    assert.notEqual(pushed.searchParams.get('request_uri'), 'urn:ietf:params:oauth:request_uri:never-pushed');
  },
  /** A DPoP proof for another method (htm) is taken by the resource server. */
  'dpop-proof-claims-not-checked': async ({ sb }: { sb: Sandbox }) => {
    const { res } = await dpopClient(sb, (_h, p) => void (p.htm = 'PUT'));
    assert.equal(res.status, 201, `a proof for PUT is taken for a POST: ${await res.clone().text()}`);
  },
  /** Another client's authorisation request naming a consent goes on to the PSU's login. */
  'intent-of-another-client-accepted': async ({ sb }: { sb: Sandbox }) => {
    const intent = await consent(sb);
    assert.match(await byValue(sb, 'obtpp-sandbox-jwt-2', intent), /\/interaction\//);
  },
};
