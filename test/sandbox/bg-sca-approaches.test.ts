/**
 * The berlin-group sandbox's decoupled and embedded SCA, walked by fetch alone (the decoupled app
 * page's forms posted as a browser would): the approach chosen by the TPP's headers among those
 * the bank offers, explicit and implicit start, the scaStatus after each step, the refusals, and
 * every answer validated against the OFFICIAL NextGenPSD2 1.3.12 file. One sandbox, no browser.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { assertOfficial, bgCall } from '../helpers/bg-sandbox.ts';

type Json = any;
let sb: Sandbox;
before(async () => {
  sb = await startSandbox({ dialect: 'berlin-group', sca: ['redirect', 'decoupled', 'embedded'] });
});
after(() => sb?.stop());

const alice = () => sb.psus[0]!;
const OTP = '123456';

const call = (method: string, url: string, o: { headers?: Record<string, string>; body?: unknown } = {}) => bgCall(method, url, { ...o, psuIp: false });

const official = assertOfficial;

const consentBody = () => ({
  access: { accounts: [], balances: [], transactions: [] }, recurringIndicator: true,
  validUntil: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), frequencyPerDay: 4, combinedServiceIndicator: false,
});

async function create(headers: Record<string, string>) {
  const r = await call('POST', `${sb.baseUrls.A}/v1/consents`, { headers: { 'PSU-IP-Address': '192.0.2.10', ...headers }, body: consentBody() });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  official('consentsResponse-201', r.body);
  return r;
}

const status = async (consentId: string) => (await call('GET', `${sb.baseUrls.A}/v1/consents/${consentId}/status`)).body.consentStatus;

test('embedded, implicit start: password → psuAuthenticated with scaMethods → method → scaMethodSelected with challengeData → OTP → finalised, the consent valid', async () => {
  const c = await create({ 'PSU-ID': alice().username, 'TPP-Redirect-Preferred': 'false' });
  assert.equal(c.headers.get('aspsp-sca-approach'), 'EMBEDDED');
  const href = c.body._links.updatePsuAuthentication.href;
  assert.equal(href, c.body._links.scaStatus.href, 'the link names the authorisation the bank started');
  const wrong = await call('PUT', href, { headers: { 'PSU-ID': alice().username }, body: { psuData: { password: 'not-it' } } });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.tppMessages[0].code, 'PSU_CREDENTIALS_INVALID');
  const authenticated = await call('PUT', href, { headers: { 'PSU-ID': alice().username }, body: { psuData: { password: alice().password } } });
  assert.equal(authenticated.body.scaStatus, 'psuAuthenticated');
  official('updatePsuAuthenticationResponse', authenticated.body);
  assert.ok(authenticated.body._links.selectAuthenticationMethod);
  const early = await call('PUT', href, { body: { scaAuthenticationData: OTP } });
  assert.equal(early.status, 409, 'the OTP before the method is chosen is out of turn');
  const selected = await call('PUT', href, { body: { authenticationMethodId: authenticated.body.scaMethods[1].authenticationMethodId } });
  assert.equal(selected.body.scaStatus, 'scaMethodSelected');
  official('selectPsuAuthenticationMethodResponse', selected.body);
  assert.equal(selected.body.challengeData.otpMaxLength, 6);
  const done = await call('PUT', selected.body._links.authoriseTransaction.href, { body: { scaAuthenticationData: OTP } });
  assert.equal(done.body.scaStatus, 'finalised');
  official('scaStatusResponse', done.body);
  assert.equal(await status(c.body.consentId), 'valid');
  assert.equal((await call('GET', href)).body.scaStatus, 'finalised');
  // A bank-offered consent authorised without a page covers every account of the PSU.
  const accounts = await call('GET', `${sb.baseUrls.A}/v1/accounts`, { headers: { 'Consent-ID': c.body.consentId, 'PSU-IP-Address': '192.0.2.10' } });
  assert.equal(accounts.body.accounts.length, alice().accounts.length);
});

test('embedded, explicit start with the password (startAuthorisationWithPsuAuthentication); a wrong OTP fails the SCA and rejects the consent', async () => {
  const c = await create({ 'PSU-ID': alice().username, 'TPP-Redirect-Preferred': 'false', 'TPP-Explicit-Authorisation-Preferred': 'true' });
  assert.equal(c.body._links.scaStatus, undefined, 'no authorisation until the TPP starts one');
  const started = await call('POST', c.body._links.startAuthorisationWithPsuAuthentication.href, { headers: { 'PSU-ID': alice().username }, body: { psuData: { password: alice().password } } });
  assert.equal(started.status, 201);
  official('startScaprocessResponse', started.body);
  assert.equal(started.body.scaStatus, 'psuAuthenticated');
  const href = started.body._links.selectAuthenticationMethod.href;
  await call('PUT', href, { body: { authenticationMethodId: 'sms' } });
  const failed = await call('PUT', href, { body: { scaAuthenticationData: '000000' } });
  assert.equal(failed.body.scaStatus, 'failed');
  assert.equal(await status(c.body.consentId), 'rejected');
  assert.equal((await call('PUT', href, { body: { scaAuthenticationData: OTP } })).status, 409, 'a failed SCA stays failed');
});

test('decoupled: PSU-ID required; the scaStatus link, then the PSU approves in the app (only the PSU named), and the scaStatus reads finalised', async () => {
  const refused = await call('POST', `${sb.baseUrls.A}/v1/consents`, { headers: { 'PSU-IP-Address': '192.0.2.10', 'TPP-Decoupled-Preferred': 'true', 'TPP-Redirect-Preferred': 'false' }, body: consentBody() });
  assert.equal(refused.status, 400);
  const c = await create({ 'PSU-ID': alice().username, 'TPP-Decoupled-Preferred': 'true', 'TPP-Redirect-Preferred': 'false' });
  assert.equal(c.headers.get('aspsp-sca-approach'), 'DECOUPLED');
  assert.ok(c.body.psuMessage);
  const href = c.body._links.scaStatus.href;
  const authorisationId = href.split('/').at(-1);
  assert.equal((await call('GET', href)).body.scaStatus, 'psuIdentified');
  // The TPP's data never go to a decoupled authorisation.
  assert.equal((await call('PUT', href, { body: { psuData: { password: alice().password } } })).status, 400);
  const app = `${sb.issuer}/bg/app/${authorisationId}`;
  const post = (path: string, form: Record<string, string | string[]>, cookie?: string) => fetch(`${app}${path}`, {
    method: 'POST', redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(Object.entries(form).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString(),
  });
  const bob = sb.psus[1]!;
  assert.match(await (await post('/login', { username: bob.username, password: bob.password })).text(), /another customer/);
  assert.equal((await post('/login', { username: alice().username, password: alice().password })).status, 303);
  assert.equal((await call('GET', href)).body.scaStatus, 'psuAuthenticated');
  const decided = await post('/confirm', { decision: 'approve', accounts: [alice().accounts[0]!.AccountId] });
  assert.match(await decided.text(), /data-testid="sca-done"/, 'the app never sends the PSU back to the TPP');
  const read = await call('GET', href);
  assert.equal(read.body.scaStatus, 'finalised');
  official('scaStatusResponse', read.body);
  assert.equal(await status(c.body.consentId), 'valid');
});

test('a bank offering only what the TPP does not prefer refuses in the standard\'s words; the redirect approach still needs TPP-Redirect-URI', async () => {
  const only = await startSandbox({ dialect: 'berlin-group', sca: ['redirect'] });
  try {
    const r = await call('POST', `${only.baseUrls.A}/v1/consents`, { headers: { 'PSU-IP-Address': '192.0.2.10', 'PSU-ID': 'alice', 'TPP-Redirect-Preferred': 'false' }, body: consentBody() });
    assert.equal(r.status, 400);
    assert.equal(r.body.tppMessages[0].code, 'FORMAT_ERROR');
    assert.equal(only.profile('A').auth, undefined, 'the profile of a bank without OAuth has no auth block');
  } finally {
    await only.stop();
  }
  await assert.rejects(startSandbox({ dialect: 'berlin-group', sca: ['push' as never] }), /unknown SCA approach "push"/);
});
