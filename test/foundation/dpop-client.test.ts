// Every API call of every standard goes through the same sender constraint: a token the bank issued
// as DPoP-bound (token_type DPoP, learnt from its token response) is sent by the tpp client as
// `Authorization: DPoP` with a fresh proof (htm, htu, iat, jti, ath) — a UK call given the token, a
// NextGenPSD2 call whose Bearer header the dialect built alike — and a resource server's DPoP-Nonce
// is honoured with one retry; a bearer token stays a bearer token. A loopback server records what
// arrives; the proofs are openid-client's, checked here with jose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';
import { profileFromObject } from '../../src/profile/load.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { TppClient } from '../../src/client/operations.ts';
import { bgHeaders } from '../../src/dialects/berlin-group/builders.ts';
import { listenLoopback } from '../helpers/loopback.ts';

test('a DPoP-bound token goes with a fresh proof on every call of either standard; the nonce is honoured once; a bearer token stays bearer', async () => {
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];
  const NONCE = 'n-0001';
  const server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    // The first DPoP request is told to use the server's nonce (RFC 9449 §9).
    if (/^DPoP /.test(req.headers.authorization ?? '') && !seen.slice(0, -1).some((s) => /^DPoP /.test(s.headers.authorization ?? ''))) {
      res.writeHead(401, { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': NONCE }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"Data":{"Account":[]},"accounts":[]}');
  });
  const { base, close } = await listenLoopback(server);
  const raw = (dialect?: 'berlin-group') => ({
    name: 'dpop bank', variants: ['A'], baseUrl: `${base}/api`, ...(dialect ? { dialect } : {}),
    auth: { issuer: base, clientId: 'c', clientAuth: { method: 'client_secret_post', secret: 's3cret-value' }, redirectUri: 'https://tpp.example/cb' },
    psu: { username: 'u', password: 'p4ssword', driver: { kind: 'sandbox' } },
  });
  try {
    const uk = await profileFromObject(raw(), { source: 'test', env: {} });
    const http = httpFromProfile(uk);
    // The token endpoint's answer teaches the client which tokens are DPoP-bound.
    http.learnTokens({ access_token: 'dpop-bound-token-1', token_type: 'DPoP' });
    http.learnTokens({ access_token: 'bearer-token-2', token_type: 'Bearer' });
    const ukClient = new TppClient(uk, 'A', http);
    assert.equal((await ukClient.listAccounts({ token: 'dpop-bound-token-1' })).status, 200);
    const bg = await profileFromObject(raw('berlin-group'), { source: 'test', env: {} });
    const bgClient = new TppClient(bg, 'A', http);
    assert.equal((await bgClient.listAccounts({ headers: bgHeaders({ accessToken: 'dpop-bound-token-1', consentId: 'cons-1' }) })).status, 200);
    assert.equal((await ukClient.listAccounts({ token: 'bearer-token-2' })).status, 200);
    assert.equal((await ukClient.listAccounts({ token: 'dpop-bound-token-1', dpop: false })).status, 200);

    // The UK call: challenged for the nonce, then sent again with it; the NextGenPSD2 call; the bearer token; the bound token as given.
    const [challenged, ukSent, bgSent, bearer, asIs] = seen;
    assert.equal(seen.length, 5, `one retry, on the nonce: ${seen.map((s) => `${s.url} ${s.headers.authorization}`).join(' | ')}`);
    const jkts = new Set<string>();
    const jtis = new Set<string>();
    for (const [i, s] of [challenged!, ukSent!, bgSent!].entries()) {
      assert.equal(s.headers.authorization, 'DPoP dpop-bound-token-1', `call ${i}`);
      const { payload, protectedHeader } = await jwtVerify(String(s.headers.dpop), EmbeddedJWK, { typ: 'dpop+jwt' });
      assert.equal(payload.htm, 'GET');
      assert.equal(payload.htu, `${base}${s.url.split('?')[0]}`);
      assert.equal(payload.ath, createHash('sha256').update('dpop-bound-token-1').digest('base64url'));
      assert.equal(typeof payload.iat, 'number');
      jtis.add(String(payload.jti));
      jkts.add(await calculateJwkThumbprint(protectedHeader.jwk!));
      if (i > 0) assert.equal(payload.nonce, NONCE, `call ${i} carries the nonce the server gave`);
    }
    assert.equal(jtis.size, 3, 'a fresh proof per request');
    assert.deepEqual([...jkts], [await http.dpop.thumbprint()], 'one key: the run\'s');
    assert.match(bgSent!.url, /\/api\/v1\/accounts/);
    assert.equal(bgSent!.headers['consent-id'], 'cons-1');
    assert.equal(bearer!.headers.authorization, 'Bearer bearer-token-2');
    assert.equal(bearer!.headers.dpop, undefined);
    assert.equal(asIs!.headers.authorization, 'Bearer dpop-bound-token-1', 'dpop: false sends it as given (the SEC-15 check)');
    assert.equal(asIs!.headers.dpop, undefined);
    await http.close();
  } finally {
    await close();
  }
});
