/**
 * The berlin-group sandbox's multilevel SCA and its embedded SCA of cancellations and signing
 * baskets, walked by fetch alone (embedded: no page, no browser): a payment from alice's joint
 * account needs alice's and bob's SCA (explicit start, PATC in between, the same PSU twice
 * refused); a cancellation's and a basket's authorisation by PUT; OAuth2 refused for them. Every
 * answer with an official schema is validated against the OFFICIAL NextGenPSD2 1.3.12 file. One
 * sandbox.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { assertOfficial, bgCall } from '../helpers/bg-sandbox.ts';

type Json = any;
let sb: Sandbox;
before(async () => {
  sb = await startSandbox({ dialect: 'berlin-group', sca: ['redirect', 'oauth', 'embedded'] });
});
after(() => sb?.stop());

const OTP = '123456';
const CREDITOR = 'DE02120300000000202051';
const psu = (name: string) => sb.psus.find((p) => p.username === name)!;
const ibanOf = (id: string) => sb.psus.flatMap((p) => p.accounts).find((a) => a.AccountId === id)!.iban!;

const call = bgCall;

const official = assertOfficial;

const embedded = (who: string) => ({ 'PSU-ID': who, 'TPP-Redirect-Preferred': 'false' });
const payments = () => `${sb.baseUrls.A}/v1/payments/sepa-credit-transfers`;

async function pay(from: string, extra: Record<string, unknown> = {}) {
  const r = await call('POST', payments(), {
    headers: embedded('alice'),
    body: { debtorAccount: { iban: ibanOf(from) }, instructedAmount: { currency: 'EUR', amount: '1.00' }, creditorAccount: { iban: CREDITOR }, creditorName: 'Creditor', ...extra },
  });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  official('paymentInitiationRequestResponse-201', r.body);
  return r;
}

/** The embedded steps after the start: password, SCA method, one-time password; answers the last. */
async function walk(href: string, who: string, otp = OTP) {
  const steps = [{ psuData: { password: psu(who).password } }, { authenticationMethodId: 'sms' }, { scaAuthenticationData: otp }];
  let last: Awaited<ReturnType<typeof call>> | undefined;
  for (const body of steps) {
    last = await call('PUT', href, { headers: { 'PSU-ID': who }, body });
    assert.equal(last.status, 200, JSON.stringify(last.body));
  }
  return last!;
}

const statusOf = async (id: string) => (await call('GET', `${payments()}/${id}/status`)).body.transactionStatus;

test('a payment from the joint account: startAuthorisation only, one authorisation per PSU, PATC after alice, alice again refused, ACTC after bob, both listed', async () => {
  const p = await pay('alice-joint');
  assert.deepEqual(Object.keys(p.body._links).filter((l) => !['self', 'status'].includes(l)), ['startAuthorisation'], 'no SCA started for one PSU');
  const start = async (who: string) => {
    const r = await call('POST', p.body._links.startAuthorisation.href, { headers: embedded(who), body: {} });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    official('startScaprocessResponse', r.body);
    return r.body._links.updatePsuAuthentication.href as string;
  };
  assert.equal((await walk(await start('alice'), 'alice')).body.scaStatus, 'finalised');
  assert.equal(await statusOf(p.body.paymentId), 'PATC', 'one of two PSUs authorised: partially accepted');
  const again = await walk(await start('alice'), 'alice');
  assert.equal(again.body.scaStatus, 'failed', 'the same PSU twice is no second PSU');
  assert.match(again.body.psuMessage, /already/);
  assert.equal(await statusOf(p.body.paymentId), 'PATC');
  assert.equal((await walk(await start('bob'), 'bob')).body.scaStatus, 'finalised');
  assert.equal(await statusOf(p.body.paymentId), 'ACTC');
  const list = await call('GET', `${payments()}/${p.body.paymentId}/authorisations`);
  official('authorisations', list.body);
  assert.equal(list.body.authorisationIds.length, 3);
  // A payment of one PSU is started implicitly as before.
  const single = await pay('alice-current');
  assert.ok(single.body._links.updatePsuAuthentication, 'implicit start for one PSU');
});

test('carol cannot authorise a payment from alice and bob\'s joint account', async () => {
  const p = await pay('alice-joint');
  const r = await call('POST', p.body._links.startAuthorisation.href, { headers: embedded('carol'), body: {} });
  const last = await walk(r.body._links.updatePsuAuthentication.href, 'carol');
  assert.equal(last.body.scaStatus, 'failed');
  assert.equal(await statusOf(p.body.paymentId), 'RCVD');
});

test('a cancellation\'s and a signing basket\'s embedded SCA by PUT; no OAuth2 for them', async () => {
  const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const p = await pay('alice-current', { requestedExecutionDate: due });
  const deleted = await call('DELETE', `${payments()}/${p.body.paymentId}`);
  assert.equal(deleted.status, 202);
  // Without TPP-Redirect-URI and any preference, this bank would pick OAuth2, which it has not for a cancellation.
  const oauth = await call('POST', deleted.body._links.startAuthorisation.href, { body: {} });
  assert.equal(oauth.status, 400);
  assert.equal(oauth.body.tppMessages[0].path, 'TPP-Redirect-URI');
  const started = await call('POST', deleted.body._links.startAuthorisation.href, { headers: embedded('alice'), body: {} });
  assert.equal(started.status, 201);
  assert.equal(started.headers.get('aspsp-sca-approach'), 'EMBEDDED');
  official('startScaprocessResponse', started.body);
  const href = started.body._links.updatePsuAuthentication.href as string;
  assert.match(href, /\/cancellation-authorisations\/auth-/);
  assert.equal((await walk(href, 'alice')).body.scaStatus, 'finalised');
  assert.equal(await statusOf(p.body.paymentId), 'CANC');

  const q = await pay('alice-current');
  const basket = await call('POST', `${sb.baseUrls.A}/v1/signing-baskets`, { headers: embedded('alice'), body: { paymentIds: [q.body.paymentId] } });
  assert.equal(basket.status, 201, JSON.stringify(basket.body));
  official('signingBasketResponse-201', basket.body);
  const wrong = await walk(basket.body._links.updatePsuAuthentication.href, 'alice', '000000');
  assert.equal(wrong.body.scaStatus, 'failed', 'a wrong one-time password rejects the basket');
  assert.equal((await call('GET', `${sb.baseUrls.A}/v1/signing-baskets/${basket.body.basketId}/status`)).body.transactionStatus, 'RJCT');
  assert.equal(await statusOf(q.body.paymentId), 'RJCT');
});
