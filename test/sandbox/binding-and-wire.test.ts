import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'puppeteer';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { assertObie } from './obie.ts';
import { aisBody, cofBody, launchBrowser, signIn, Tpp } from './tpp.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('sandbox: intent binding, PSU pages and the wire', () => {
  let sb: Sandbox;
  let browser: Browser;
  let basic: Tpp;
  let jwt: Tpp;

  before(async () => {
    sb = await startSandbox();
    browser = await launchBrowser();
    [basic, jwt] = await Promise.all([Tpp.connect(sb, 0), Tpp.connect(sb, 1)]);
  });
  after(async () => {
    await browser?.close();
    await sb?.stop();
  });

  async function consent(tpp: Tpp) {
    const res = await tpp.api('A', 'POST', '/account-access-consents', { token: await tpp.cc('accounts'), body: aisBody() });
    assert.equal(res.status, 201);
    return res.body.Data.ConsentId as string;
  }

  /** Opens the authorization page in a fresh context and hands it to `fn`. */
  async function onPage<T>(tpp: Tpp, intent: string, scope: string, fn: (page: Page) => Promise<T>): Promise<T> {
    const { url } = await tpp.authorizationUrl(intent, scope);
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.goto(url.href);
      return await fn(page);
    } finally {
      await context.close();
    }
  }

  async function login(page: Page, username = 'alice', password = 'alice-pass-1') {
    await signIn(page, username, password);
    await Promise.all([page.waitForNavigation(), page.click('[data-testid=login]')]);
  }

  test('discovery offers the UK profile: claims parameter, request objects, client auth methods, PKCE', async () => {
    const meta = basic.config.serverMetadata();
    assert.equal(meta.issuer, sb.issuer);
    assert.equal(meta.claims_parameter_supported, true);
    assert.equal(meta.request_parameter_supported, true);
    assert.ok(meta.token_endpoint_auth_methods_supported?.includes('client_secret_basic'));
    assert.ok(meta.token_endpoint_auth_methods_supported?.includes('private_key_jwt'));
    assert.ok(meta.code_challenge_methods_supported?.includes('S256'));
    assert.ok(meta.scopes_supported?.includes('fundsconfirmations'));
  });

  test('the ID token echoes the intent, also from a signed request object with a private_key_jwt client', async () => {
    const id = await consent(jwt);
    const result = await jwt.authorise(browser, id, 'accounts', { jar: true });
    assert.equal(result.tokens?.claims()?.openbanking_intent_id, id);
    assert.equal((await jwt.api('A', 'GET', '/accounts', { token: result.tokens!.access_token })).status, 200);
  });

  test('an unknown intent, another TPP\'s intent, the wrong scope or a decided consent cannot be approved', async () => {
    const error = (page: Page) => page.$eval('[data-testid=consent-error]', (e) => e.textContent ?? '');
    const noApprove = async (page: Page) => assert.equal(await page.$('[data-testid=approve]'), null);
    await onPage(basic, 'ais-no-such-consent', 'accounts', async (page) => {
      assert.match(await error(page), /unknown/);
      await noApprove(page);
    });
    const theirs = await consent(jwt);
    await onPage(basic, theirs, 'accounts', async (page) => {
      assert.match(await error(page), /unknown/);
      await noApprove(page);
    });
    const mine = await consent(basic);
    await onPage(basic, mine, 'fundsconfirmations', async (page) => {
      assert.match(await error(page), /scope "accounts"/);
      await noApprove(page);
    });
    await basic.authorise(browser, mine, 'accounts');
    await onPage(basic, mine, 'accounts', async (page) => {
      assert.match(await error(page), /no longer awaiting/);
      await noApprove(page);
    });
  });

  test('a wrong password shows login-error and stays on the login page', async () => {
    const id = await consent(basic);
    await onPage(basic, id, 'accounts', async (page) => {
      await login(page, 'alice', 'wrong');
      assert.ok(await page.$('[data-testid=login-error]'));
      assert.ok(await page.$('[data-testid=password]'));
      assert.equal(await page.$('[data-testid=consent-page]'), null);
    });
  });

  test('the consent page shows the TPP, permissions and dates; a tampered form cannot change the consent', async () => {
    const body = aisBody();
    const res = await basic.api('A', 'POST', '/account-access-consents', { token: await basic.cc('accounts'), body });
    const id = res.body.Data.ConsentId;
    await onPage(basic, id, 'accounts', async (page) => {
      await login(page);
      assert.equal(await page.$eval('[data-testid=tpp-name]', (e) => e.textContent), 'obtpp reference TPP');
      assert.deepEqual(await page.$$eval('[data-testid=permission]', (els) => els.map((e) => e.textContent)), body.Data.Permissions);
      assert.equal(await page.$eval('[data-testid=expiration]', (e) => e.textContent), body.Data.ExpirationDateTime);
      assert.equal(await page.$eval('[data-testid=transaction-from]', (e) => e.textContent), body.Data.TransactionFromDateTime);
      const options = await page.$$eval('[data-testid=account-option]', (els) => els.map((e) => [e.getAttribute('data-account-id'), e.getAttribute('data-identification')]));
      assert.deepEqual(options.map((o) => o[0]), ['alice-current', 'alice-savings', 'alice-joint']);
      // Approve with nothing ticked: the page comes back with an error.
      await Promise.all([page.waitForNavigation(), page.click('[data-testid=approve]')]);
      assert.match(await page.$eval('[data-testid=consent-error]', (e) => e.textContent ?? ''), /at least one account/);
      // Turn a checkbox into bob's account: refused server-side.
      await page.$eval('[data-testid=account-option]', (e) => {
        (e as HTMLInputElement).value = 'bob-current';
        (e as HTMLInputElement).checked = true;
      });
      await Promise.all([page.waitForNavigation(), page.click('[data-testid=approve]')]);
      assert.match(await page.$eval('[data-testid=consent-error]', (e) => e.textContent ?? ''), /your own accounts/);
    });
    // Still undecided: it can be authorised normally afterwards.
    const ok = await basic.authorise(browser, id, 'accounts');
    assert.ok(ok.tokens);
  });

  test('a funds consent for an account the PSU does not hold cannot be authorised', async () => {
    const res = await basic.api('A', 'POST', '/funds-confirmation-consents', { token: await basic.cc('fundsconfirmations'), body: cofBody('30963452000417') });
    await assert.rejects(basic.authorise(browser, res.body.Data.ConsentId, 'fundsconfirmations'), /not one of your accounts/);
    const bobs = await basic.authorise(browser, res.body.Data.ConsentId, 'fundsconfirmations', { psu: 'bob' });
    assert.ok(bobs.tokens);
  });

  test('x-fapi-interaction-id is echoed, or a fresh UUID, on every response; unknown paths 404, wrong methods 405', async () => {
    const cc = await basic.cc('accounts');
    const answers = [
      await basic.api('A', 'GET', '/accounts'),
      await basic.api('B', 'GET', '/nowhere', { token: cc }),
      await basic.api('A', 'DELETE', '/accounts', { token: cc }),
      await basic.api('A', 'POST', '/account-access-consents', { token: cc, body: {} }),
    ];
    assert.deepEqual(answers.map((a) => a.status), [401, 404, 405, 400]);
    const ids = answers.map((a) => a.headers.get('x-fapi-interaction-id') ?? '');
    for (const id of ids) assert.match(id, UUID);
    assert.equal(new Set(ids).size, ids.length);
    assertObie('ais', 'OBErrorResponse1', answers[3].body);
    const echoed = await basic.api('B', 'GET', '/nowhere', { headers: { 'x-fapi-interaction-id': 'tpp-42' } });
    assert.equal(echoed.headers.get('x-fapi-interaction-id'), 'tpp-42');
  });

  test('each variant answers exactly its endpoint set', async () => {
    const cc = await basic.cc('accounts fundsconfirmations payments');
    const aOnly = ['GET /funds-confirmation-consents/x', 'DELETE /funds-confirmation-consents/x', 'POST /domestic-payments', 'GET /domestic-payments/x', 'GET /domestic-payments/x/status', 'GET /alice-current/transactions/x'];
    // The consent's read and delete: UK endpoints in both variants (the spec leaves revocation "not shown").
    const both = ['POST /account-access-consents', 'POST /consents', 'GET /account-access-consents/x', 'DELETE /account-access-consents/x', 'GET /consents/x', 'DELETE /consents/x', 'GET /accounts', 'GET /accounts/x', 'GET /accounts/x/balances', 'GET /accounts/x/transactions', 'POST /funds-confirmation-consents', 'POST /funds-confirmations'];
    for (const line of [...aOnly, ...both]) {
      const [method, path] = line.split(' ');
      const a = await basic.api('A', method, path, { token: cc, body: method === 'POST' ? {} : undefined });
      const b = await basic.api('B', method, path, { token: cc, body: method === 'POST' ? {} : undefined });
      assert.notEqual(a.status, 404, `A ${line}`);
      assert.equal(b.status === 404, aOnly.includes(line), `B ${line}: ${b.status}`);
    }
    for (const path of ['/account-access-consents/x/status', '/payments', '/statements']) assert.equal((await basic.api('A', 'GET', path, { token: cc })).status, 404, path);
  });
});
