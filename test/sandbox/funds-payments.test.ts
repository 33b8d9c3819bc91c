import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'puppeteer';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { assertObie } from './obie.ts';
import { aisBody, cofBody, fundsBody, launchBrowser, paymentBody, Tpp } from './tpp.ts';

const HOUR = 3_600_000;

describe('sandbox: confirmation of funds and payments', () => {
  let sb: Sandbox;
  let browser: Browser;
  let tpp: Tpp;
  let ccFunds: string;
  let ccPay: string;
  let clock = Date.now();

  before(async () => {
    sb = await startSandbox({ clock: () => clock });
    browser = await launchBrowser();
    tpp = await Tpp.connect(sb);
    [ccFunds, ccPay] = await Promise.all([tpp.cc('fundsconfirmations'), tpp.cc('payments')]);
  });
  after(async () => {
    await browser?.close();
    await sb?.stop();
  });

  /** alice-joint: booked -150.00 with a 500.00 credit line, so 350.00 available. */
  const JOINT = '40400411290147';

  async function fundsConsent(expiresInMs?: number) {
    const created = await tpp.api('A', 'POST', '/funds-confirmation-consents', { token: ccFunds, body: cofBody(JOINT, expiresInMs) });
    assert.equal(created.status, 201, created.text);
    const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'fundsconfirmations');
    assert.ok(result.tokens, result.error);
    return { consentId: created.body.Data.ConsentId as string, token: result.tokens.access_token };
  }

  test('a funds consent needs DebtorAccount, starts AwaitingAuthorisation and (A) is read and deleted', async () => {
    const missing = await tpp.api('B', 'POST', '/funds-confirmation-consents', { token: ccFunds, body: { Data: {} } });
    assert.equal(missing.status, 400);
    assertObie('cof', 'OBErrorResponse1', missing.body);
    assert.equal(missing.body.Errors[0].ErrorCode, 'UK.OBIE.Field.Missing');
    assert.equal(missing.body.Errors[0].Path, 'Data.DebtorAccount');
    const created = await tpp.api('B', 'POST', '/funds-confirmation-consents', { token: ccFunds, body: cofBody(JOINT) });
    assert.equal(created.status, 201);
    assertObie('cof', 'OBFundsConfirmationConsentResponse1', created.body);
    assert.equal(created.body.Data.Status, 'AwaitingAuthorisation');
    const id = created.body.Data.ConsentId;
    assert.equal((await tpp.api('B', 'GET', `/funds-confirmation-consents/${id}`, { token: ccFunds })).status, 404, 'B has no read');
    assert.equal((await tpp.api('B', 'DELETE', `/funds-confirmation-consents/${id}`, { token: ccFunds })).status, 404, 'B has no delete');
    const read = await tpp.api('A', 'GET', `/funds-confirmation-consents/${id}`, { token: ccFunds });
    assert.equal(read.status, 200);
    assertObie('cof', 'OBFundsConfirmationConsentResponse1', read.body);
    assert.deepEqual(read.body.Data, created.body.Data);
    const deleted = await tpp.api('A', 'DELETE', `/funds-confirmation-consents/${id}`, { token: ccFunds });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const gone = await tpp.api('A', 'GET', `/funds-confirmation-consents/${id}`, { token: ccFunds });
    assert.equal(gone.status, 400);
    assertObie('cof', 'OBErrorResponse1', gone.body);
  });

  test('FundsAvailable is true exactly when the available balance covers the amount, and nothing else is disclosed', async () => {
    const { consentId, token } = await fundsConsent();
    const status = await tpp.api('A', 'GET', `/funds-confirmation-consents/${consentId}`, { token: ccFunds });
    assert.equal(status.body.Data.Status, 'Authorised');
    for (const [amount, expected] of [['350.00', true], ['350.01', false], ['0.01', true], ['9999.00', false]] as const) {
      for (const variant of ['A', 'B'] as const) {
        const res = await tpp.api(variant, 'POST', '/funds-confirmations', { token, body: fundsBody(consentId, amount) });
        assert.equal(res.status, 201, res.text);
        assertObie('cof', 'OBFundsConfirmationResponse1', res.body);
        assert.equal(res.body.Data.FundsAvailable, expected, `${amount} on ${variant}`);
        assert.ok(!res.text.includes('350.00') || amount === '350.00', 'no balance in the body');
        assert.deepEqual(Object.keys(res.body.Data).sort(), ['ConsentId', 'CreationDateTime', 'FundsAvailable', 'FundsConfirmationId', 'InstructedAmount', 'Reference']);
        assert.ok(res.body.Links.Self.endsWith(`/funds-confirmations/${res.body.Data.FundsConfirmationId}`), `Links.Self ${res.body.Links.Self} names the FundsConfirmationId`);
      }
    }
    const currency = await tpp.api('A', 'POST', '/funds-confirmations', { token, body: fundsBody(consentId, '1.00', 'EUR') });
    assert.equal(currency.status, 400);
    assert.equal(currency.body.Errors[0].ErrorCode, 'UK.OBIE.Unsupported.Currency');
  });

  test('confirmations need the consent\'s own authorization-code token and an authorised, live, undeleted consent', async () => {
    const first = await fundsConsent(2 * HOUR);
    const second = await fundsConsent();
    const mismatch = await tpp.api('A', 'POST', '/funds-confirmations', { token: first.token, body: fundsBody(second.consentId, '1.00') });
    assert.equal(mismatch.status, 400);
    assertObie('cof', 'OBErrorResponse1', mismatch.body);
    assert.equal(mismatch.body.Errors[0].ErrorCode, 'UK.OBIE.Resource.ConsentMismatch');
    assert.equal((await tpp.api('A', 'POST', '/funds-confirmations', { token: ccFunds, body: fundsBody(first.consentId, '1.00') })).status, 403);
    assert.equal((await tpp.api('A', 'POST', '/funds-confirmations', { body: fundsBody(first.consentId, '1.00') })).status, 401);
    const unauthorised = await tpp.api('A', 'POST', '/funds-confirmation-consents', { token: ccFunds, body: cofBody(JOINT) });
    const ais = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() });
    const aisToken = (await tpp.authorise(browser, ais.body.Data.ConsentId, 'accounts')).tokens!.access_token;
    assert.equal((await tpp.api('A', 'POST', '/funds-confirmations', { token: aisToken, body: fundsBody(unauthorised.body.Data.ConsentId, '1.00') })).status, 403, 'an AIS token confirms nothing');
    assert.equal((await tpp.api('A', 'GET', '/accounts', { token: first.token })).status, 403, 'a funds token reads no accounts');
    clock += 3 * HOUR;
    try {
      assert.equal((await tpp.api('A', 'POST', '/funds-confirmations', { token: first.token, body: fundsBody(first.consentId, '1.00') })).status, 401, 'expired');
    } finally {
      clock -= 3 * HOUR;
    }
    assert.equal((await tpp.api('A', 'DELETE', `/funds-confirmation-consents/${second.consentId}`, { token: ccFunds })).status, 204);
    const deleted = await tpp.api('A', 'POST', '/funds-confirmations', { token: second.token, body: fundsBody(second.consentId, '1.00') });
    assert.equal(deleted.status, 400);
    assertObie('cof', 'OBErrorResponse1', deleted.body);
  });

  test('a payment-order consent: created AwaitingAuthorisation, idempotent by x-idempotency-key, read with its status', async () => {
    const noKey = await tpp.api('A', 'POST', '/domestic-payments', { token: ccPay, body: paymentBody() });
    assert.equal(noKey.status, 400);
    assertObie('pis', 'OBErrorResponse1', noKey.body);
    assert.equal(noKey.body.Errors[0].ErrorCode, 'UK.OBIE.Header.Missing');
    const key = { 'x-idempotency-key': `key-${clock}` };
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: ccPay, body: paymentBody(), headers: key });
    assert.equal(created.status, 201, created.text);
    assertObie('pis', 'OBWriteDomesticConsentResponse5', created.body);
    assert.equal(created.body.Data.Status, 'AwaitingAuthorisation');
    const again = await tpp.api('A', 'POST', '/domestic-payments', { token: ccPay, body: paymentBody(), headers: key });
    assert.equal(again.status, 201);
    assert.equal(again.body.Data.ConsentId, created.body.Data.ConsentId);
    const changed = await tpp.api('A', 'POST', '/domestic-payments', { token: ccPay, body: paymentBody({ amount: '21.00' }), headers: key });
    assert.equal(changed.status, 400);
    const id = created.body.Data.ConsentId;
    const read = await tpp.api('A', 'GET', `/domestic-payments/${id}`, { token: ccPay });
    assert.equal(read.status, 200);
    assertObie('pis', 'OBWriteDomesticConsentResponse5', read.body);
    const status = await tpp.api('A', 'GET', `/domestic-payments/${id}/status`, { token: ccPay });
    assert.equal(status.status, 200);
    assert.deepEqual(status.body.Data, { ConsentId: id, Status: 'AwaitingAuthorisation', StatusUpdateDateTime: read.body.Data.StatusUpdateDateTime });
    assert.equal((await tpp.api('A', 'GET', '/domestic-payments/no-such-payment', { token: ccPay })).status, 400);
    assert.equal((await tpp.api('B', 'POST', '/domestic-payments', { token: ccPay, body: paymentBody(), headers: key })).status, 404);
    assert.equal((await tpp.api('A', 'POST', '/sepa-credit-transfers', { token: ccPay, body: paymentBody(), headers: key })).status, 404);
  });

  test('without DebtorAccount the PSU chooses the debtor, and the payment carries it', async () => {
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: ccPay, body: paymentBody(), headers: { 'x-idempotency-key': `debtor-${clock}` } });
    let options: string[] = [];
    const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'payments', {
      debtor: 'alice-savings',
      onConsentPage: async (page) => {
        options = await page.$$eval('[data-testid=debtor-option]', (els) => els.map((e) => (e as HTMLInputElement).value));
        assert.equal(await page.$eval('[data-testid=amount]', (e) => e.textContent), 'GBP 20.00');
      },
    });
    assert.deepEqual(options, ['alice-current', 'alice-savings', 'alice-joint']);
    assert.ok(result.tokens);
    const read = await tpp.api('A', 'GET', `/domestic-payments/${created.body.Data.ConsentId}`, { token: result.tokens.access_token });
    assert.equal(read.status, 200);
    assertObie('pis', 'OBWriteDomesticConsentResponse5', read.body);
    assert.equal(read.body.Data.Status, 'Authorised');
    assert.equal(read.body.Data.Debtor.Identification, '40400411290139');
    // With a DebtorAccount, nothing is asked and the fixed debtor is shown.
    const fixed = await tpp.api('A', 'POST', '/domestic-payments', { token: ccPay, body: paymentBody({ debtor: JOINT }), headers: { 'x-idempotency-key': `fixed-${clock}` } });
    let shown = '';
    let asked = -1;
    await tpp.authorise(browser, fixed.body.Data.ConsentId, 'payments', {
      onConsentPage: async (page) => {
        shown = await page.$eval('[data-testid=debtor-account]', (e) => e.textContent ?? '');
        asked = (await page.$$('[data-testid=debtor-option]')).length;
      },
    });
    assert.ok(shown.includes(JOINT));
    assert.equal(asked, 0);
    const after = await tpp.api('A', 'GET', `/domestic-payments/${fixed.body.Data.ConsentId}/status`, { token: ccPay });
    assert.equal(after.body.Data.Status, 'Authorised');
  });

  test('a rejected payment is Rejected', async () => {
    const created = await tpp.api('A', 'POST', '/domestic-payments', { token: ccPay, body: paymentBody({ debtor: JOINT }), headers: { 'x-idempotency-key': `reject-${clock}` } });
    const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'payments', { decision: 'reject' });
    assert.equal(result.error, 'access_denied');
    const status = await tpp.api('A', 'GET', `/domestic-payments/${created.body.Data.ConsentId}/status`, { token: ccPay });
    assert.equal(status.body.Data.Status, 'Rejected');
  });
});
