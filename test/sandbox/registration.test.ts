// Dynamic client registration at the sandbox (OBIE DCR 3.3 / RFC 7591 / RFC 7592), through the
// TPP's own registration code: a request JWT with the directory-signed software statement gives a
// client that obtains tokens; no statement, a statement the directory did not sign, an unsigned
// JSON request or a redirect URI the statement does not list are refused; the registration reads
// back, is updated (never without the token) and is deleted with its registration access token,
// after which the client is gone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import type { HttpClient } from '../../src/client/http.ts';
import { Auth } from '../../src/auth/index.ts';
import type { Profile } from '../../src/profile/types.ts';
import {
  manageRegistration, manageWithoutToken, registrationClaims, registrationFrom, sendRegistration, signRegistration, updatableMetadata, updateRegistration,
} from '../../src/auth/register.ts';

describe('sandbox: dynamic client registration', () => {
  let sb: Sandbox;
  let profile: Profile;
  let http: HttpClient;
  let auth: Auth;

  before(async () => {
    sb = await startSandbox();
    profile = await profileFromObject(sb.profile(), { source: 'sandbox', env: {} });
    http = httpFromProfile(profile);
    auth = await Auth.create(profile, http);
  });
  after(async () => {
    await http?.close();
    await sb?.stop();
  });

  test('discovery advertises the registration endpoint', () => {
    assert.equal(auth.registrationEndpoint, `${sb.issuer}/reg`);
  });

  test('a signed request with the directory\'s software statement gives a client that obtains a client-credentials token; RFC 7592 reads and deletes it', async () => {
    const r = await sendRegistration(http, auth.registrationEndpoint!, await signRegistration(profile, registrationClaims(profile, auth.issuer)));
    assert.equal(r.status, 201, r.text);
    const reg = registrationFrom(r);
    assert.ok(reg.clientSecret && reg.registrationAccessToken && reg.registrationClientUri);
    assert.equal(reg.tokenEndpointAuthMethod, 'client_secret_basic');
    assert.deepEqual((r.body as any).redirect_uris, [sb.clients[0].redirectUri]);
    assert.equal((r.body as any).client_name, 'obtpp reference TPP (registered)');
    assert.ok((await auth.clientCredentialsAs(reg.clientId, reg.clientSecret!, 'client_secret_basic', 'accounts')).accessToken);

    const read = await manageRegistration(http, reg, 'GET');
    assert.equal(read.status, 200);
    assert.equal((read.body as any).client_id, reg.clientId);
    assert.equal((await manageRegistration(http, reg, 'DELETE')).status, 204);
    await assert.rejects(auth.clientCredentialsAs(reg.clientId, reg.clientSecret!, 'client_secret_basic', 'accounts'), /invalid_client/);
    assert.equal((await manageRegistration(http, reg, 'GET')).status, 401, 'the registration access token is gone with it');
  });

  test('RFC 7592 update: the whole metadata as read, with the profile\'s changes, reads back updated; neither read nor update without the registration access token', async () => {
    const reg = registrationFrom(await sendRegistration(http, auth.registrationEndpoint!, await signRegistration(profile, registrationClaims(profile, auth.issuer))));
    try {
      const changes = { ...updatableMetadata(profile), scope: 'openid accounts' };
      const put = await updateRegistration(http, reg, changes);
      assert.equal(put.status, 200, put.text);
      const read = await manageRegistration(http, reg, 'GET');
      assert.equal((read.body as any).scope, 'openid accounts');
      assert.deepEqual((read.body as any).redirect_uris, profile.registration!.redirectUris);
      assert.ok((read.body as any).jwks, 'what the update did not change (the software statement\'s keys) is kept');
      assert.ok((await auth.clientCredentialsAs(reg.clientId, reg.clientSecret!, 'client_secret_basic', 'accounts')).accessToken, 'the updated client still obtains tokens');

      for (const method of ['GET', 'PUT'] as const) {
        const bare = await manageWithoutToken(http, reg, method, changes);
        assert.ok(bare.status === 400 || bare.status === 401, `${method} without the token: ${bare.status} ${bare.text}`);
      }
      const other = await http.request('PUT', reg.registrationClientUri!, { headers: { authorization: `Bearer ${reg.registrationAccessToken}` }, json: { ...changes, client_id: 'someone-else' } });
      assert.equal(other.status, 400, 'an update naming another client_id is refused');
    } finally {
      await manageRegistration(http, reg, 'DELETE');
    }
  });

  test('no software statement, one the directory did not sign, an unsigned request, or a redirect URI the statement lacks: refused', async () => {
    const at = auth.registrationEndpoint!;
    const none = await sendRegistration(http, at, await signRegistration(profile, registrationClaims(profile, auth.issuer, { softwareStatement: null })));
    assert.equal(none.status, 400);
    assert.equal((none.body as any).error, 'invalid_software_statement');

    const payload = JSON.parse(Buffer.from(profile.registration!.softwareStatement.split('.')[1]!, 'base64url').toString());
    const selfSigned = await signRegistration(profile, payload);
    const forged = await sendRegistration(http, at, await signRegistration(profile, registrationClaims(profile, auth.issuer, { softwareStatement: selfSigned })));
    assert.equal(forged.status, 400);
    assert.equal((forged.body as any).error, 'invalid_software_statement');

    const unsigned = await sendRegistration(http, at, registrationClaims(profile, auth.issuer));
    assert.equal(unsigned.status, 400);
    assert.equal((unsigned.body as any).error, 'invalid_client_metadata');

    const claims = { ...registrationClaims(profile, auth.issuer), redirect_uris: ['https://elsewhere.example/cb'] };
    const elsewhere = await sendRegistration(http, at, await signRegistration(profile, claims));
    assert.equal(elsewhere.status, 400);
    assert.equal((elsewhere.body as any).error, 'invalid_redirect_uri');
  });
});
