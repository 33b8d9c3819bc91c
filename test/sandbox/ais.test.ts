import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'puppeteer';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { assertObie } from './obie.ts';
import { TppClient } from '../../src/client/operations.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { validate } from '../../src/dialects/obie/index.ts';
import { aisBody, launchBrowser, Tpp } from './tpp.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('sandbox: account information', () => {
  let sb: Sandbox;
  let browser: Browser;
  let tpp: Tpp;
  let cc: string;
  let clock = Date.now();

  before(async () => {
    sb = await startSandbox({ clock: () => clock });
    browser = await launchBrowser();
    tpp = await Tpp.connect(sb);
    cc = await tpp.cc('accounts');
  });
  after(async () => {
    await browser?.close();
    await sb?.stop();
  });

  /** Creates and authorises an AIS consent; returns the consent id and the PSU's access token. */
  async function authorised(body = aisBody(), accounts = ['alice-current', 'alice-joint']) {
    const created = await tpp.api('A', 'POST', '/account-access-consents', { token: cc, body });
    assert.equal(created.status, 201, created.text);
    const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'accounts', { accounts });
    assert.ok(result.tokens, `authorisation failed: ${result.error}`);
    return { consentId: created.body.Data.ConsentId as string, token: result.tokens.access_token, tokens: result.tokens };
  }

  test('a consent is created AwaitingAuthorisation with its contents echoed unchanged, on both creation paths and variants', async () => {
    const body = aisBody();
    for (const [variant, path] of [['A', '/account-access-consents'], ['A', '/consents'], ['B', '/account-access-consents'], ['B', '/consents']] as const) {
      const res = await tpp.api(variant, 'POST', path, { token: cc, body, headers: { 'x-fapi-interaction-id': '93bac548-d2de-4546-b106-880a5018460d' } });
      assert.equal(res.status, 201, `${variant} ${path}: ${res.text}`);
      assert.equal(res.headers.get('x-fapi-interaction-id'), '93bac548-d2de-4546-b106-880a5018460d');
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assertObie('ais', 'OBReadConsentResponse1', res.body);
      assert.equal(res.body.Data.Status, 'AwaitingAuthorisation');
      for (const field of ['Permissions', 'ExpirationDateTime', 'TransactionFromDateTime', 'TransactionToDateTime'] as const) {
        assert.deepEqual(res.body.Data[field], body.Data[field], field);
      }
      assert.equal(res.body.Links.Self, `${sb.baseUrls[variant]}${path}/${res.body.Data.ConsentId}`);
    }
  });

  test('malformed consents are refused with 400 and an OBErrorResponse1', async () => {
    const base = aisBody();
    const cases: Array<[string, unknown, string]> = [
      ['no Data', { Risk: {} }, 'UK.OBIE.Field.Missing'],
      ['no Permissions', { Data: { ...base.Data, Permissions: undefined }, Risk: {} }, 'UK.OBIE.Field.Missing'],
      ['empty Permissions', { Data: { ...base.Data, Permissions: [] }, Risk: {} }, 'UK.OBIE.Field.Invalid'],
      ['unknown permission', { Data: { ...base.Data, Permissions: ['ReadAccountsBasic', 'ReadEverything'] }, Risk: {} }, 'UK.OBIE.Field.Invalid'],
      ['transactions without direction', { Data: { ...base.Data, Permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic'] }, Risk: {} }, 'UK.OBIE.Field.Invalid'],
      ['direction without transactions', { Data: { ...base.Data, Permissions: ['ReadAccountsBasic', 'ReadTransactionsCredits'] }, Risk: {} }, 'UK.OBIE.Field.Invalid'],
      ['no accounts permission', { Data: { ...base.Data, Permissions: ['ReadBalances'] }, Risk: {} }, 'UK.OBIE.Field.Invalid'],
      ['no expiration', { Data: { ...base.Data, ExpirationDateTime: undefined }, Risk: {} }, 'UK.OBIE.Field.Missing'],
      ['expiration in the past', { Data: { ...base.Data, ExpirationDateTime: new Date(clock - DAY).toISOString() }, Risk: {} }, 'UK.OBIE.Field.InvalidDate'],
      ['not a date-time', { Data: { ...base.Data, TransactionToDateTime: 'yesterday' }, Risk: {} }, 'UK.OBIE.Field.InvalidDate'],
      ['From after To', { Data: { ...base.Data, TransactionFromDateTime: base.Data.TransactionToDateTime, TransactionToDateTime: base.Data.TransactionFromDateTime }, Risk: {} }, 'UK.OBIE.Field.InvalidDate'],
    ];
    for (const [name, body, code] of cases) {
      const res = await tpp.api('A', 'POST', '/account-access-consents', { token: cc, body });
      assert.equal(res.status, 400, `${name}: ${res.text}`);
      assertObie('ais', 'OBErrorResponse1', res.body);
      assert.equal(res.body.Errors[0].ErrorCode, code, name);
    }
    const noToken = await tpp.api('A', 'POST', '/account-access-consents', { body: base });
    assert.equal(noToken.status, 401);
    const notJson = await tpp.api('A', 'POST', '/account-access-consents', { token: cc, body: 'Data=1', headers: { 'content-type': 'text/plain' } });
    assert.equal(notJson.status, 415);
  });

  test('GET /accounts returns exactly the accounts the PSU ticked; the others are refused', async () => {
    const { token } = await authorised();
    const res = await tpp.api('A', 'GET', '/accounts', { token });
    assert.equal(res.status, 200, res.text);
    assertObie('ais', 'OBReadAccount6', res.body);
    assert.deepEqual(res.body.Data.Account.map((a: { AccountId: string }) => a.AccountId), ['alice-current', 'alice-joint']);
    assert.equal(res.body.Data.Account[0].Account[0].Identification, '40400411290112', 'Detail shows the identification');
    for (const variant of ['A', 'B'] as const) {
      const one = await tpp.api(variant, 'GET', '/accounts/alice-joint', { token });
      assert.equal(one.status, 200);
      assert.equal(one.body.Data.Account[0].AccountId, 'alice-joint');
      const other = await tpp.api(variant, 'GET', '/accounts/alice-savings', { token });
      assert.equal(other.status, 403);
      assertObie('ais', 'OBErrorResponse1', other.body);
      assert.equal((await tpp.api(variant, 'GET', '/accounts/bob-current/balances', { token })).status, 403);
    }
  });

  test('data calls need the PSU\'s token: none gives 401, a client-credentials token 403, a refreshed token the same consent', async () => {
    const { tokens } = await authorised();
    assert.equal((await tpp.api('A', 'GET', '/accounts')).status, 401);
    assert.equal((await tpp.api('A', 'GET', '/accounts', { token: 'not-a-token' })).status, 401);
    const ccRes = await tpp.api('A', 'GET', '/accounts', { token: cc });
    assert.equal(ccRes.status, 403);
    assertObie('ais', 'OBErrorResponse1', ccRes.body);
    assert.equal(tokens.claims()?.openbanking_intent_id !== undefined, true);
    const refreshed = await tpp.refresh(tokens.refresh_token!);
    const res = await tpp.api('B', 'GET', '/accounts', { token: refreshed.access_token });
    assert.equal(res.status, 200);
    assert.equal(res.body.Data.Account.length, 2);
  });

  test('balances agree with the transactions and carry the credit line', async () => {
    const { token } = await authorised();
    const bal = await tpp.api('A', 'GET', '/accounts/alice-joint/balances', { token });
    assert.equal(bal.status, 200, bal.text);
    assertObie('ais', 'OBReadBalance1', bal.body);
    const byType = Object.fromEntries(bal.body.Data.Balance.map((b: any) => [b.Type, b]));
    const signed = (b: any) => Math.round(Number(b.Amount.Amount) * 100) * (b.CreditDebitIndicator === 'Debit' ? -1 : 1);
    const credit = Math.round(Number(byType.InterimAvailable.CreditLine[0].Amount.Amount) * 100);
    assert.equal(signed(byType.InterimAvailable), signed(byType.InterimBooked) + credit);
    const tx = await tpp.api('A', 'GET', '/accounts/alice-joint/transactions', { token });
    assertObie('ais', 'OBReadTransaction6', tx.body);
    const last = tx.body.Data.Transaction.at(-1);
    assert.equal(signed(last.Balance), signed(byType.InterimBooked), 'the last running balance is today\'s booked balance');
  });

  test('the Transaction Validity Period bounds transactions; query filters narrow it; several consents coexist', async () => {
    const wide = await authorised(aisBody({ fromDaysAgo: 400, toDaysAgo: 0 }), ['alice-current']);
    const narrow = await authorised(aisBody({ fromDaysAgo: 100, toDaysAgo: 30, permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic', 'ReadTransactionsCredits', 'ReadTransactionsDebits'] }), ['alice-current']);
    const all = (await tpp.api('A', 'GET', '/accounts/alice-current/transactions', { token: wide.token })).body.Data.Transaction;
    assert.ok(all.length > 150, `a year of transactions (${all.length})`);
    const res = await tpp.api('A', 'GET', '/accounts/alice-current/transactions', { token: narrow.token });
    assertObie('ais', 'OBReadTransaction6', res.body);
    const from = clock - 100 * DAY;
    const to = clock - 30 * DAY;
    const expected = all.filter((t: any) => Date.parse(t.BookingDateTime) >= from && Date.parse(t.BookingDateTime) <= to).map((t: any) => t.TransactionId);
    assert.ok(expected.length > 0);
    assert.deepEqual(res.body.Data.Transaction.map((t: any) => t.TransactionId), expected);
    assert.equal(res.body.Data.Transaction[0].TransactionInformation, undefined, 'Basic hides Detail fields');
    assert.ok(all[0].TransactionInformation, 'Detail shows them');
    // The wide consent still sees everything, and the narrow one still has no detail: each keeps its own parameters.
    assert.equal((await tpp.api('A', 'GET', '/accounts/alice-current/transactions', { token: wide.token })).body.Data.Transaction.length, all.length);
    const q = new Date(clock - 60 * DAY).toISOString().slice(0, 19);
    const filtered = await tpp.api('A', 'GET', `/accounts/alice-current/transactions?fromBookingDateTime=${q}&toBookingDateTime=2099-01-01T00:00:00`, { token: narrow.token });
    assert.equal(filtered.status, 200);
    assert.deepEqual(filtered.body.Data.Transaction.map((t: any) => t.TransactionId), expected.filter((id: string) => Date.parse(all.find((t: any) => t.TransactionId === id).BookingDateTime) >= Date.parse(q + 'Z')));
    // Transaction detail (variant A only): inside the period 200, outside 400.
    const inside = expected[0];
    const outside = all.find((t: any) => Date.parse(t.BookingDateTime) > to).TransactionId;
    const detail = await tpp.api('A', 'GET', `/alice-current/transactions/${inside}`, { token: narrow.token });
    assert.equal(detail.status, 200, detail.text);
    assertObie('ais', 'OBReadTransaction6', detail.body);
    assert.equal(detail.body.Data.Transaction[0].TransactionId, inside);
    const refused = await tpp.api('A', 'GET', `/alice-current/transactions/${outside}`, { token: narrow.token });
    assert.equal(refused.status, 400);
    assertObie('ais', 'OBErrorResponse1', refused.body);
    assert.equal((await tpp.api('B', 'GET', `/alice-current/transactions/${inside}`, { token: narrow.token })).status, 404);
  });

  test('permission clusters: no ReadBalances no balances, no ReadTransactions* no transactions, Credits only credits, Basic no identification; beneficiaries by ReadBeneficiaries*', async () => {
    const basic = await authorised(aisBody({ permissions: ['ReadAccountsBasic'] }));
    assert.equal((await tpp.api('A', 'GET', '/accounts/alice-current/balances', { token: basic.token })).status, 403);
    const txRes = await tpp.api('B', 'GET', '/accounts/alice-current/transactions', { token: basic.token });
    assert.equal(txRes.status, 403);
    assertObie('ais', 'OBErrorResponse1', txRes.body);
    const accounts = await tpp.api('A', 'GET', '/accounts', { token: basic.token });
    assert.equal(accounts.body.Data.Account[0].Account, undefined);
    const credits = await authorised(aisBody({ permissions: ['ReadAccountsBasic', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadBeneficiariesBasic'] }));
    const list = (await tpp.api('A', 'GET', '/accounts/alice-current/transactions', { token: credits.token })).body.Data.Transaction;
    assert.ok(list.length > 0);
    assert.ok(list.every((t: any) => t.CreditDebitIndicator === 'Credit'));

    // Beneficiaries (v3.1.11): none without a ReadBeneficiaries* permission; the creditor's account only with Detail.
    assert.equal((await tpp.api('A', 'GET', '/accounts/alice-current/beneficiaries', { token: basic.token })).status, 403);
    const basicPayees = await tpp.api('B', 'GET', '/accounts/alice-current/beneficiaries', { token: credits.token });
    assert.equal(basicPayees.status, 200, basicPayees.text);
    assertObie('ais', 'OBReadBeneficiary5', basicPayees.body);
    assert.ok(basicPayees.body.Data.Beneficiary.length > 0 && basicPayees.body.Data.Beneficiary.every((b: any) => b.CreditorAccount === undefined));
    const detail = await authorised(aisBody({ permissions: ['ReadAccountsBasic', 'ReadBeneficiariesDetail'] }), ['alice-current']);
    // Through the harness's own client: the catalogue's path and method reach the route, and the answer is the harness's OBReadBeneficiary5.
    const profile = await profileFromObject(sb.profile('A'), { source: 'sandbox', env: {} });
    const client = new TppClient(profile, 'A', httpFromProfile(profile));
    const payees = await client.getBeneficiaries('alice-current', { token: detail.token });
    assert.equal(payees.status, 200, payees.text);
    assertObie('ais', 'OBReadBeneficiary5', payees.body);
    assert.deepEqual(validate('OBReadBeneficiary5', payees.body), []);
    assert.ok(payees.body.Data.Beneficiary.every((b: any) => b.AccountId === 'alice-current' && b.CreditorAccount?.Identification));
    assert.equal((await client.getBeneficiaries('alice-savings', { token: detail.token })).status, 403, 'an account outside the consent');
  });

  test('a rejected consent yields access_denied and no code', async () => {
    const created = await tpp.api('A', 'POST', '/account-access-consents', { token: cc, body: aisBody() });
    const result = await tpp.authorise(browser, created.body.Data.ConsentId, 'accounts', { decision: 'reject' });
    assert.equal(result.error, 'access_denied');
    assert.equal(result.callback.searchParams.get('code'), null);
    assert.ok(result.callback.searchParams.get('state'));
  });

  test('after ExpirationDateTime every read gives 401', async () => {
    const { token } = await authorised(aisBody({ expiresInMs: HOUR }));
    assert.equal((await tpp.api('A', 'GET', '/accounts', { token })).status, 200);
    clock += 2 * HOUR;
    try {
      for (const path of ['/accounts', '/accounts/alice-current', '/accounts/alice-current/balances', '/accounts/alice-current/transactions']) {
        assert.equal((await tpp.api('A', 'GET', path, { token })).status, 401, path);
      }
    } finally {
      clock -= 2 * HOUR;
    }
  });

  test('the consent reads back unchanged after authorisation, on both paths and variants (official OBReadConsentResponse1)', async () => {
    const body = aisBody();
    const { consentId } = await authorised(body);
    for (const [variant, path] of [['A', '/account-access-consents'], ['A', '/consents'], ['B', '/account-access-consents'], ['B', '/consents']] as const) {
      const res = await tpp.api(variant, 'GET', `${path}/${consentId}`, { token: cc });
      assert.equal(res.status, 200, `${variant} ${path}: ${res.text}`);
      assertObie('ais', 'OBReadConsentResponse1', res.body);
      assert.equal(res.body.Data.ConsentId, consentId);
      assert.equal(res.body.Data.Status, 'Authorised');
      for (const field of ['Permissions', 'ExpirationDateTime', 'TransactionFromDateTime', 'TransactionToDateTime'] as const) {
        assert.deepEqual(res.body.Data[field], body.Data[field], field);
      }
      assert.equal(res.body.Links.Self, `${sb.baseUrls[variant]}${path}/${consentId}`);
    }
    // Consent endpoints take the client's own client-credentials token only.
    const { token } = await authorised();
    assert.equal((await tpp.api('A', 'GET', `/account-access-consents/${consentId}`, { token })).status, 403);
    assert.equal((await tpp.api('A', 'GET', `/account-access-consents/${consentId}`)).status, 401);
    const unknown = await tpp.api('A', 'GET', '/account-access-consents/no-such-consent', { token: cc });
    assert.equal(unknown.status, 400);
    assertObie('ais', 'OBErrorResponse1', unknown.body);
  });

  test('DELETE answers 204 with no body; the consent no longer reads (400) and its access and refresh tokens open nothing', async () => {
    const { consentId, token, tokens } = await authorised();
    assert.equal((await tpp.api('B', 'GET', '/accounts', { token })).status, 200);
    const deleted = await tpp.api('B', 'DELETE', `/account-access-consents/${consentId}`, { token: cc });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    const read = await tpp.api('B', 'GET', `/account-access-consents/${consentId}`, { token: cc });
    assert.equal(read.status, 400);
    assert.equal(read.body.Errors[0].ErrorCode, 'UK.OBIE.Resource.NotFound');
    for (const path of ['/accounts', '/accounts/alice-current', '/accounts/alice-current/balances', '/accounts/alice-current/transactions']) {
      assert.equal((await tpp.api('B', 'GET', path, { token })).status, 401, path);
    }
    await assert.rejects(tpp.refresh(tokens.refresh_token!), (e: any) => e?.error === 'invalid_grant', 'the refresh token is revoked too');
    assert.equal((await tpp.api('B', 'DELETE', `/account-access-consents/${consentId}`, { token: cc })).status, 400, 'a second DELETE finds nothing');
  });
});
