/**
 * The sandbox's message signing (x-jws-signature both ways) and payment submission: its answers
 * verify against its published JWKS, it refuses unsigned, tampered and wrongly-keyed payment
 * requests, and a payment order is submitted once on an authorised consent, which becomes Consumed.
 * Bodies are judged by the official OpenAPI schemas; signatures are checked here with jose alone.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { Browser } from 'puppeteer';
import { createRemoteJWKSet, flattenedVerify } from 'jose';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { assertObie } from './obie.ts';
import { launchBrowser, paymentBody, Tpp, tppSignature } from './tpp.ts';
import type { ApiAnswer } from './tpp.ts';

const OB = 'http://openbanking.org.uk/';

async function bankSignatureHolds(sb: Sandbox, a: ApiAnswer): Promise<boolean> {
  const header = a.headers.get('x-jws-signature');
  if (!header) return false;
  const [protectedHeader, , signature] = header.split('.');
  try {
    await flattenedVerify({ protected: protectedHeader!, payload: Buffer.from(a.text).toString('base64url'), signature: signature! },
      createRemoteJWKSet(new URL(sb.jwksUri)), { algorithms: ['PS256'], crit: { [`${OB}iat`]: true, [`${OB}iss`]: true, [`${OB}tan`]: true } });
    return true;
  } catch {
    return false;
  }
}

describe('sandbox: x-jws-signature and payment submission', () => {
  let sb: Sandbox;
  let browser: Browser;
  let tpp: Tpp;
  let cc: string;
  let n = 0;

  before(async () => {
    [sb, browser] = await Promise.all([startSandbox(), launchBrowser()]);
    tpp = await Tpp.connect(sb);
    cc = await tpp.cc('payments');
  });
  after(async () => {
    await browser?.close();
    await sb?.stop();
  });

  const key = () => ({ 'x-idempotency-key': `k-${++n}-${Date.now()}` });

  async function authorisedPayment(amount = '20.00') {
    const body = paymentBody({ debtor: '40400411290112', amount });
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: cc, body, headers: key() });
    assert.equal(created.status, 201, created.text);
    const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'payments');
    assert.ok(result.tokens, result.error);
    return { consentId: created.body.Data.ConsentId as string, token: result.tokens.access_token, body };
  }

  test('payment answers are signed with a key of the published JWKS; other answers are not', async () => {
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: cc, body: paymentBody(), headers: key() });
    assert.equal(created.status, 201, created.text);
    assert.equal(await bankSignatureHolds(sb, created), true);
    const header = JSON.parse(Buffer.from(created.headers.get('x-jws-signature')!.split('.')[0]!, 'base64url').toString());
    assert.deepEqual(header.crit, [`${OB}iat`, `${OB}iss`, `${OB}tan`]);
    assert.equal(typeof header[`${OB}iat`], 'number');
    const refused = await tpp.api('A', 'GET', '/domestic-payments/no-such-payment', { token: cc });
    assert.equal(refused.status, 400);
    assert.equal(await bankSignatureHolds(sb, refused), true, 'a refusal with a body is signed too');
    const accounts = await tpp.api('A', 'GET', '/accounts', { token: cc });
    assert.equal(accounts.headers.get('x-jws-signature'), null);
  });

  test('unsigned, tampered, wrongly-keyed and claim-less payment requests are refused with UK.OBIE.Signature.*', async () => {
    const body = JSON.stringify(paymentBody());
    const other = JSON.stringify(paymentBody({ amount: '999.00' }));
    const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    const stranger = await crypto.subtle.importKey('pkcs8', privateKey.export({ format: 'der', type: 'pkcs8' }), { name: 'RSA-PSS', hash: 'SHA-256' }, false, ['sign']);
    const cases: Array<[string, Record<string, string>, string]> = [
      ['no signature', {}, 'UK.OBIE.Signature.Missing'],
      ['a signature over another body', { 'x-jws-signature': await tppSignature(sb, other) }, 'UK.OBIE.Signature.Invalid'],
      ['a key the TPP never registered, under its kid', { 'x-jws-signature': await tppSignature(sb, body, { key: stranger }) }, 'UK.OBIE.Signature.Invalid'],
      ['no critical claims', { 'x-jws-signature': await tppSignature(sb, body, { header: { alg: 'PS256', kid: sb.tppSigning.kid } }) }, 'UK.OBIE.Signature.MissingClaim'],
      ['not a detached JWS', { 'x-jws-signature': 'abc' }, 'UK.OBIE.Signature.Malformed'],
    ];
    for (const [what, headers, code] of cases) {
      const r = await tpp.api('A', 'POST', '/domestic-payments', { token: cc, body, headers: { ...key(), ...headers }, sign: false });
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assertObie('pis', 'OBErrorResponse1', r.body);
      assert.equal(r.body.Errors[0].ErrorCode, code, what);
    }
  });

  test('a payment order is submitted once with the consent\'s Initiation and Risk; the consent becomes Consumed', async () => {
    const p = await authorisedPayment();
    const funds = await tpp.api('A', 'GET', `/domestic-payments/${p.consentId}/funds-confirmation`, { token: p.token });
    assert.equal(funds.status, 200, funds.text);
    assertObie('pis', 'OBWriteFundsConfirmationResponse1', funds.body);
    assert.equal(funds.body.Data.FundsAvailableResult.FundsAvailable, true);
    const order = { Data: { ConsentId: p.consentId, Initiation: p.body.Data.Initiation }, Risk: p.body.Risk };
    assertObie('pis', 'OBWriteDomestic2', order);
    const changed = structuredClone(order);
    changed.Data.Initiation.InstructedAmount.Amount = '21.00';
    const mismatch = await tpp.api('A', 'POST', '/domestic-payments', { token: p.token, body: changed, headers: key() });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.Errors[0].ErrorCode, 'UK.OBIE.Resource.ConsentMismatch');
    const k = key();
    const submitted = await tpp.api('A', 'POST', '/domestic-payments', { token: p.token, body: order, headers: k });
    assert.equal(submitted.status, 201, submitted.text);
    assertObie('pis', 'OBWriteDomesticResponse5', submitted.body);
    assert.equal(await bankSignatureHolds(sb, submitted), true);
    const id = submitted.body.Data.DomesticPaymentId;
    const replay = await tpp.api('A', 'POST', '/domestic-payments', { token: p.token, body: order, headers: k });
    assert.equal(replay.status, 201);
    assert.equal(replay.body.Data.DomesticPaymentId, id, 'same key, same body: the same order');
    const twice = await tpp.api('A', 'POST', '/domestic-payments', { token: p.token, body: order, headers: key() });
    assert.equal(twice.status, 400);
    assert.equal(twice.body.Errors[0].ErrorCode, 'UK.OBIE.Resource.InvalidConsentStatus');
    const read = await tpp.api('A', 'GET', `/domestic-payments/${id}`, { token: cc });
    assert.equal(read.status, 200);
    assertObie('pis', 'OBWriteDomesticResponse5', read.body);
    const details = await tpp.api('A', 'GET', `/domestic-payments/${id}/payment-details`, { token: p.token });
    assert.equal(details.status, 200);
    assertObie('pis', 'OBWritePaymentDetailsResponse1', details.body);
    const consent = await tpp.api('A', 'GET', `/domestic-payments/${p.consentId}`, { token: cc });
    assertObie('pis', 'OBWriteDomesticConsentResponse5', consent.body);
    assert.equal(consent.body.Data.Status, 'Consumed');
    const status = await tpp.api('A', 'GET', `/domestic-payments/${id}/status`, { token: cc });
    assert.equal(status.body.Data.Status, 'AcceptedSettlementInProcess');
    const late = await tpp.api('A', 'GET', `/domestic-payments/${p.consentId}/funds-confirmation`, { token: p.token });
    assert.equal(late.status, 400, 'a consumed consent has no funds check');
  });

  test('a submission under a client-credentials token, and the funds check of an unauthorised consent, are refused', async () => {
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: cc, body: paymentBody(), headers: key() });
    const id = created.body.Data.ConsentId;
    const order = { Data: { ConsentId: id, Initiation: created.body.Data.Initiation }, Risk: {} };
    assert.equal((await tpp.api('A', 'POST', '/domestic-payments', { token: cc, body: order, headers: key() })).status, 403);
    assert.equal((await tpp.api('A', 'GET', `/domestic-payments/${id}/funds-confirmation`, { token: cc })).status, 403);
  });
});

describe('sandbox: signing and submission faults', () => {
  test('each fault bends exactly its behaviour', async () => {
    const sb = await startSandbox({ faults: ['unsigned-payment-responses', 'unsigned-requests-accepted'] });
    const bad = await startSandbox({ faults: ['bad-response-signature'] });
    try {
      const tpp = await Tpp.connect(sb);
      const cc = await tpp.cc('payments');
      const r = await tpp.api('A', 'POST', '/domestic-payments', { token: cc, body: paymentBody(), headers: { 'x-idempotency-key': 'k-1' }, sign: false });
      assert.equal(r.status, 201, 'an unsigned request is accepted');
      assert.equal(r.headers.get('x-jws-signature'), null, 'the answer is unsigned');
      const t2 = await Tpp.connect(bad);
      const r2 = await t2.api('A', 'POST', '/domestic-payments', { token: await t2.cc('payments'), body: paymentBody(), headers: { 'x-idempotency-key': 'k-1' } });
      assert.equal(r2.status, 201);
      assert.ok(r2.headers.get('x-jws-signature'));
      assert.equal(await bankSignatureHolds(bad, r2), false, 'signed, but not by a key of the JWKS');
    } finally {
      await Promise.all([sb.stop(), bad.stop()]);
    }
  });
});
