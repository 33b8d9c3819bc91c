/**
 * The NextGenPSD2 sandbox's card accounts (issue 28): GET /v1/card-accounts, …/{account-id},
 * …/balances and …/transactions under consents that name card accounts by maskedPan or a global
 * form, every answer valid against the OFFICIAL 1.3.12 file; and the fault bg-card-accounts-unbounded
 * (BG-30); withBalance on GET /v1/accounts bounded by the consent, and the fault
 * bg-with-balance-unbounded (BG-31); a long card report paged by `_links.next`, and the fault
 * bg-card-pages-overlap (BG-32); the accounts under availableAccounts and allPsd2, and the fault
 * bg-available-accounts-open-data (BG-33). The PSU's SCA is the redirect page's two forms posted by fetch (login, approve): no browser.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { assertOfficial, bgCall } from '../helpers/bg-sandbox.ts';

type Json = any;
let sb: Sandbox;
let faulty: Sandbox;

before(async () => {
  [sb, faulty] = await Promise.all([startSandbox({ dialect: 'berlin-group' }), startSandbox({ dialect: 'berlin-group', faults: ['bg-card-accounts-unbounded', 'bg-with-balance-unbounded', 'bg-card-pages-overlap', 'bg-available-accounts-open-data'] })]);
});
after(async () => {
  await Promise.all([sb?.stop(), faulty?.stop()]);
});

const call = bgCall;

const official = assertOfficial;
/** GET /v1/card-accounts/{account-id}'s 200 body is inline in the file. */
const CARD_DETAILS = { type: 'object', required: ['cardAccount'], properties: { cardAccount: { $ref: '#/components/schemas/cardAccountDetails' } } };

/** A one-off consent with this access, authorised by alice through the redirect page's forms. */
async function consent(bank: Sandbox, access: Json, ticked: string[] = []): Promise<string> {
  const created = await call('POST', `${bank.baseUrls.A}/v1/consents`, {
    headers: { 'TPP-Redirect-URI': bank.clients[0].redirectUri },
    body: { access, recurringIndicator: false, validUntil: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), frequencyPerDay: 1, combinedServiceIndicator: false },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const sca = created.body._links.scaRedirect.href as string;
  const form = (url: string, fields: Record<string, string>, body = new URLSearchParams(fields)) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const alice = bank.psus[0]!;
  assert.equal((await form(`${sca}/login`, { username: alice.username, password: alice.password })).status, 303);
  const approval = new URLSearchParams({ decision: 'approve' });
  for (const a of ticked) approval.append('accounts', a);
  assert.equal((await form(`${sca}/confirm`, {}, approval)).status, 303, 'the PSU approved');
  return created.body.consentId as string;
}

const read = (bank: Sandbox, consentId: string, path: string) => call('GET', `${bank.baseUrls.A}/v1/card-accounts${path}`, { headers: { 'Consent-ID': consentId } });
const since = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);

test('availableAccounts lists the PSU\'s card accounts and opens none of their balances or transactions', async () => {
  const id = await consent(sb, { availableAccounts: 'allAccounts' });
  const list = await read(sb, id, '');
  assert.equal(list.status, 200);
  official('cardAccountList', list.body);
  assert.equal(list.body.cardAccounts.length, 2, 'the first PSU has two card accounts');
  for (const c of list.body.cardAccounts) assert.match(c.maskedPan, /^\d{6}\*{6}\d{4}$/);
  const first = list.body.cardAccounts[0].resourceId;
  assert.equal(list.body.cardAccounts[0]._links, undefined, 'no balances or transactions link where the consent gives none');
  const balances = await read(sb, id, `/${first}/balances`);
  assert.equal(balances.status, 401);
  assert.equal(balances.body.tppMessages[0].code, 'CONSENT_INVALID');
  assert.equal((await read(sb, id, `/${first}/transactions?bookingStatus=booked&dateFrom=${since}`)).status, 401);
});

test('a consent naming one card account by maskedPan opens that one alone, every answer as the file writes it', async () => {
  const all = (await read(sb, await consent(sb, { availableAccounts: 'allAccounts' }), '')).body.cardAccounts;
  const [named, other] = all as Json[];
  const id = await consent(sb, { balances: [{ maskedPan: named.maskedPan }], transactions: [{ maskedPan: named.maskedPan }] });
  const list = await read(sb, id, '');
  official('cardAccountList', list.body);
  assert.deepEqual(list.body.cardAccounts.map((c: Json) => c.maskedPan), [named.maskedPan]);
  const one = await read(sb, id, `/${named.resourceId}`);
  assert.equal(one.status, 200);
  official(CARD_DETAILS, one.body);
  const balances = await read(sb, id, `/${named.resourceId}/balances`);
  assert.equal(balances.status, 200);
  official('readCardAccountBalanceResponse-200', balances.body);
  for (const bookingStatus of ['booked', 'pending', 'both']) {
    const report = await read(sb, id, `/${named.resourceId}/transactions?bookingStatus=${bookingStatus}&dateFrom=${since}`);
    assert.equal(report.status, 200, JSON.stringify(report.body));
    official('cardAccountsTransactionsResponse200', report.body);
    const t = report.body.cardTransactions;
    assert.equal(t.booked !== undefined, bookingStatus !== 'pending', bookingStatus);
    assert.equal(t.pending !== undefined, bookingStatus !== 'booked', bookingStatus);
    for (const p of t.pending ?? []) assert.equal(p.bookingDate, undefined, 'a pending card transaction is not booked');
  }
  const recent = await read(sb, id, `/${named.resourceId}/transactions?bookingStatus=booked&dateFrom=${new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10)}`);
  assert.equal(recent.body.cardTransactions.booked.length, 2, 'dateFrom bounds the report');
  // The card account the consent does not name is neither readable nor its data.
  for (const path of [`/${other.resourceId}`, `/${other.resourceId}/balances`]) {
    const refused = await read(sb, id, path);
    assert.equal(refused.status, 403, path);
    official('Error403_NG_AIS', refused.body);
  }
});

test('allPsd2 opens every card account\'s balances and transactions; a bank-offered consent none; a malformed maskedPan is refused', async () => {
  const id = await consent(sb, { allPsd2: 'allAccounts' });
  const cards = (await read(sb, id, '')).body.cardAccounts as Json[];
  assert.equal(cards.length, 2);
  for (const c of cards) assert.equal((await read(sb, id, `/${c.resourceId}/balances`)).status, 200);
  const offered = await consent(sb, { accounts: [], balances: [], transactions: [] }, [sb.psus[0]!.accounts[0]!.AccountId]);
  assert.deepEqual((await read(sb, offered, '')).body, { cardAccounts: [] }, 'the PSU ticks accounts, not cards, on the bank\'s page');
  const bad = await call('POST', `${sb.baseUrls.A}/v1/consents`, {
    headers: { 'TPP-Redirect-URI': sb.clients[0].redirectUri },
    body: { access: { balances: [{ maskedPan: '5254123241' }] }, recurringIndicator: false, validUntil: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), frequencyPerDay: 1, combinedServiceIndicator: false },
  });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.tppMessages[0].code, 'FORMAT_ERROR');
});

test('bg-card-accounts-unbounded: a consent naming one card account lists and opens the other too (BG-30)', async () => {
  const all = (await read(faulty, await consent(faulty, { availableAccounts: 'allAccounts' }), '')).body.cardAccounts as Json[];
  const id = await consent(faulty, { balances: [{ maskedPan: all[0].maskedPan }] });
  assert.equal((await read(faulty, id, '')).body.cardAccounts.length, 2);
  assert.equal((await read(faulty, id, `/${all[1].resourceId}/balances`)).status, 200);
});

test('withBalance shows balances only where the consent grants them; bg-with-balance-unbounded shows them all (BG-31)', async () => {
  const accountsAlone = { accounts: [] };
  const mine = sb.psus[0]!.accounts.map((a) => a.AccountId);
  const list = async (bank: Sandbox, id: string) => call('GET', `${bank.baseUrls.A}/v1/accounts?withBalance=true`, { headers: { 'Consent-ID': id } });
  const alone = await list(sb, await consent(sb, accountsAlone, mine));
  assert.equal(alone.status, 200);
  official('accountList', alone.body);
  assert.deepEqual(alone.body.accounts.filter((a: Json) => a.balances).map((a: Json) => a.resourceId), [], 'no balance under a consent to the accounts alone');
  const withBalances = await list(sb, await consent(sb, { accounts: [], balances: [] }, mine));
  assert.equal(withBalances.body.accounts.filter((a: Json) => a.balances).length, mine.length, 'balances where the consent grants them');
  const bent = await list(faulty, await consent(faulty, accountsAlone, mine));
  assert.equal(bent.body.accounts.filter((a: Json) => a.balances).length, mine.length, 'the fault shows them all');
});

/** Every page of a card account's booked report, by its _links.next chain. */
async function pagesOf(bank: Sandbox, id: string, cardId: string): Promise<Json[]> {
  const pages = [await read(bank, id, `/${cardId}/transactions?bookingStatus=both&dateFrom=${since}`)];
  for (let next = pages[0]!.body.cardTransactions._links.next?.href; next; next = pages.at(-1)!.body.cardTransactions._links.next?.href) {
    assert.ok(pages.length < 10, 'the chain ends');
    pages.push(await call('GET', next, { headers: { 'Consent-ID': id } }));
  }
  return pages;
}

test('a long card report comes in pages linked by _links.next, each valid, each transaction once; bg-card-pages-overlap repeats one (BG-32)', async () => {
  const all = (await read(sb, await consent(sb, { availableAccounts: 'allAccounts' }), '')).body.cardAccounts as Json[];
  const long = all[1];
  const id = await consent(sb, { transactions: [{ maskedPan: long.maskedPan }] });
  const pages = await pagesOf(sb, id, long.resourceId);
  assert.equal(pages.length, 3, '47 booked purchases in 90 days, 20 a page');
  for (const p of pages) {
    assert.equal(p.status, 200);
    official('cardAccountsTransactionsResponse200', p.body);
  }
  assert.ok(pages[2].body.cardTransactions._links.previous && !pages[2].body.cardTransactions._links.next, 'the last page links back, not on');
  const ids = pages.flatMap((p) => p.body.cardTransactions.booked.map((t: Json) => t.cardTransactionId));
  assert.equal(new Set(ids).size, ids.length, 'no booked transaction twice');
  assert.equal(ids.length, 47);
  assert.equal(pages.filter((p) => p.body.cardTransactions.pending).length, 1, 'the pending ones on the first page only');
  assert.equal((await read(sb, id, `/${long.resourceId}/transactions?bookingStatus=booked&dateFrom=${since}&page=9`)).status, 400);

  const fAll = (await read(faulty, await consent(faulty, { availableAccounts: 'allAccounts' }), '')).body.cardAccounts as Json[];
  const fId = await consent(faulty, { transactions: [{ maskedPan: fAll[1].maskedPan }] });
  const bent = (await pagesOf(faulty, fId, fAll[1].resourceId)).flatMap((p) => p.body.cardTransactions.booked.map((t: Json) => t.cardTransactionId));
  assert.ok(new Set(bent).size < bent.length, 'the fault repeats a transaction across pages');
});

test('availableAccounts opens the account list alone, allPsd2 the balances and transactions too; bg-available-accounts-open-data opens them under availableAccounts (BG-33)', async () => {
  const balancesUnder = async (bank: Sandbox, access: Json) => {
    const id = await consent(bank, access);
    const list = await call('GET', `${bank.baseUrls.A}/v1/accounts`, { headers: { 'Consent-ID': id } });
    official('accountList', list.body);
    const first = list.body.accounts[0].resourceId;
    return call('GET', `${bank.baseUrls.A}/v1/accounts/${first}/balances`, { headers: { 'Consent-ID': id } });
  };
  assert.equal((await balancesUnder(sb, { availableAccounts: 'allAccounts' })).status, 401);
  const all = await balancesUnder(sb, { allPsd2: 'allAccounts' });
  assert.equal(all.status, 200);
  official('readAccountBalanceResponse-200', all.body);
  assert.equal((await balancesUnder(faulty, { availableAccounts: 'allAccounts' })).status, 200, 'the fault opens them');
});
