// The sandbox's account information in UK Read/Write v3.1.11's layout: every read of the official
// account-info file answers at its official path, each answer valid against the official schema of
// its operation (the official file, not our schemas: the bank and its examiner must not share their
// mistakes), each honouring its permission cluster, the consent's selected accounts and — for
// statements and scheduled payments — the consent's Transaction period. One sandbox, one browser,
// two authorised consents for the whole file.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'puppeteer-core';
import { Agent, fetch } from 'undici';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { launchBrowser, Tpp, isoIn } from './tpp.ts';
import { officialDoc, officialFilesPresent, officialValidator } from '../dialects/official-bodies.ts';

const skip = officialFilesPresent ? false : 'official OpenAPI files not found';
const DAY = 86_400_000;

const ALL = [
  'ReadAccountsDetail', 'ReadBalances', 'ReadBeneficiariesDetail', 'ReadDirectDebits', 'ReadOffers', 'ReadPAN', 'ReadParty', 'ReadPartyPSU',
  'ReadProducts', 'ReadScheduledPaymentsDetail', 'ReadStandingOrdersDetail', 'ReadStatementsDetail',
  'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits',
];
const BASIC = [
  'ReadAccountsBasic', 'ReadBeneficiariesBasic', 'ReadScheduledPaymentsBasic', 'ReadStandingOrdersBasic', 'ReadStatementsBasic',
  'ReadTransactionsBasic', 'ReadTransactionsCredits',
];

describe('sandbox: UK Read/Write v3.1.11 account information', { skip }, () => {
  let sb: Sandbox;
  let tpp: Tpp;
  let browser: Browser;
  let full: string;
  let basic: string;
  const uk = () => `${sb.issuer}/open-banking/v3.1/aisp`;
  // A connection per request: the judging pauses for seconds (validators compile), longer than the
  // sandbox keeps an idle connection, and a reused one could be closed under the next request.
  const dispatcher = new Agent({ pipelining: 0 });

  /** An authorised consent with these permissions and period, over alice's first account only. */
  async function consent(permissions: string[], from: number, to: number): Promise<string> {
    const body = { Data: { Permissions: permissions, ExpirationDateTime: isoIn(2 * DAY), TransactionFromDateTime: isoIn(-from * DAY), TransactionToDateTime: isoIn(to * DAY) }, Risk: {} };
    const created = await fetch(`${uk()}/account-access-consents`, { dispatcher, method: 'POST', headers: { authorization: `Bearer ${await tpp.cc('accounts')}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(created.status, 201);
    const id = ((await created.json()) as any).Data.ConsentId as string;
    const { tokens } = await tpp.authorise(browser, id, 'openid accounts', { accounts: ['alice-current'] });
    return tokens!.access_token;
  }

  before(async () => {
    sb = await startSandbox({ quiet: true });
    tpp = await Tpp.connect(sb);
    browser = await launchBrowser();
    // Every permission, a period from 100 days ago to 60 days ahead; and only the Basic ones, over the same period.
    full = await consent(ALL, 100, 60);
    basic = await consent(BASIC, 100, 60);
  });
  after(async () => {
    await browser?.close();
    await sb?.stop();
  });

  const get = async (path: string, token: string | null = full) => {
    const res = await fetch(`${uk()}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {}, dispatcher });
    const type = res.headers.get('content-type') ?? '';
    const body = type.startsWith('application/json') ? await res.json() as any : await res.text();
    return { status: res.status, type, body, interaction: res.headers.get('x-fapi-interaction-id') };
  };

  test('every GET of the official account-info file answers 200, valid against the official schema of its operation', async () => {
    const doc = officialDoc('account-info');
    const gets = Object.entries(doc.paths as Record<string, any>).filter(([path, ops]) => ops.get && !path.startsWith('/account-access-consents'));
    assert.equal(gets.length, 26, 'the 26 reads of v3.1.11 (and the consent\'s three operations besides)');
    const statement = (await get('/accounts/alice-current/statements')).body.Data.Statement[0].StatementId as string;
    // Every answer first, then the judging: compiling the official validators takes seconds, and a
    // keep-alive connection left idle that long may be closed by the server just as it is reused.
    const answers = [];
    for (const [path] of gets) answers.push(await get(path.replace('{AccountId}', 'alice-current').replace('{StatementId}', encodeURIComponent(statement))));
    const checked: string[] = [];
    for (const [i, [path, ops]] of gets.entries()) {
      const r = answers[i]!;
      assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
      assert.ok(r.interaction, `${path} carries an x-fapi-interaction-id`);
      const ref: string = ops.get.responses['200'].$ref ?? '';
      const response = doc.components.responses[ref.split('/').pop()!];
      const component = (response.content['application/json; charset=utf-8'].schema.$ref as string).split('/').pop()!;
      if (component === 'File') {
        assert.equal(r.type, 'application/pdf');
        assert.match(r.body, /^%PDF-/);
      } else {
        const validate = officialValidator('account-info', component);
        assert.ok(validate(r.body), `${path} against ${component}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      }
      checked.push(path);
    }
    assert.equal(checked.length, 26);
  });

  test('the bulk reads cover only the account the PSU selected; an account outside the consent is refused', async () => {
    for (const [path, key] of [['/balances', 'Balance'], ['/transactions', 'Transaction'], ['/direct-debits', 'DirectDebit'], ['/standing-orders', 'StandingOrder'], ['/products', 'Product'], ['/statements', 'Statement']] as const) {
      const r = await get(path);
      assert.equal(r.status, 200, path);
      const ids = new Set((r.body.Data[key] as any[]).map((x) => x.AccountId));
      assert.deepEqual([...ids], ['alice-current'], path);
    }
    for (const path of ['/accounts/alice-savings/direct-debits', '/accounts/foobar/standing-orders', '/accounts/alice-joint/parties']) {
      assert.ok([400, 403].includes((await get(path)).status), path);
    }
    assert.equal((await get('/accounts/alice-current/direct-debits/foobar')).status, 404);
    assert.equal((await get('/direct-debits', null)).status, 401);
  });

  test('Basic shows no payee account; each resource needs its own permission; /party needs ReadPartyPSU', async () => {
    const so = await get('/accounts/alice-current/standing-orders', basic);
    assert.equal(so.status, 200);
    assert.ok(so.body.Data.StandingOrder.length > 0);
    for (const x of so.body.Data.StandingOrder) assert.equal(x.CreditorAccount, undefined);
    assert.ok((await get('/accounts/alice-current/standing-orders')).body.Data.StandingOrder.every((x: any) => x.CreditorAccount));
    for (const x of (await get('/accounts/alice-current/scheduled-payments', basic)).body.Data.ScheduledPayment) assert.equal(x.CreditorAccount, undefined);
    for (const x of (await get('/beneficiaries', basic)).body.Data.Beneficiary) assert.equal(x.CreditorAccount, undefined);
    for (const path of ['/direct-debits', '/offers', '/products', '/party', '/accounts/alice-current/party', '/balances']) {
      assert.equal((await get(path, basic)).status, 403, path);
    }
    // The statement's file is the Detail permission's.
    const statement = (await get('/accounts/alice-current/statements', basic)).body.Data.Statement[0];
    assert.equal(statement.StatementAmount, undefined);
    assert.equal((await get(`/accounts/alice-current/statements/${statement.StatementId}/file`, basic)).status, 403);
  });

  test('the consent\'s Transaction period bounds statements and scheduled payments', async () => {
    const from = Date.now() - 100 * DAY;
    const to = Date.now() + 60 * DAY;
    const statements = (await get('/statements')).body.Data.Statement as any[];
    // Only the statements wholly inside the period (FACTS §2.4): of 100 days, two or three whole months.
    assert.ok(statements.length >= 2 && statements.length < 12, `${statements.length} of the 12 monthly statements lie inside the period`);
    for (const s of statements) assert.ok(Date.parse(s.StartDateTime) >= from && Date.parse(s.EndDateTime) <= to, s.StatementId);
    const scheduled = (await get('/scheduled-payments')).body.Data.ScheduledPayment as any[];
    assert.equal(scheduled.length, 2, 'the payments 5 and 40 days ahead, not the one 400 days ahead');
    for (const p of scheduled) assert.ok(Date.parse(p.ScheduledPaymentDateTime) <= to);
    const old = statements.at(-1)?.StatementId;
    assert.ok(old);
  });
});
