import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord, AccountInfo } from '../support/world.ts';
import { NotJudgeable } from '../support/world.ts';
import {
  FULL_PERMISSIONS, aisBody, splitList, sharedAis, fullConsent, tokenOf, accountIdsOf, firstAccountId,
  startOfDayUtc, expiringConsent, expiryPassed, listedAccountIds, foundAccountIds, accountListProblem, psuAccounts,
} from '../support/setups.ts';
import { expectStatus, expectRefusal, expectSchema, describeAnswer, quote, judgeSchema, warn, violationWithProblems, expectedStatus, versionOfWorld } from '../support/judge.ts';
import {
  consentIdOf, statusOf, accountsOf, transactionsOf, isoDateTime,
  DETAIL_ONLY_ACCOUNT_FIELDS, DETAIL_ONLY_TRANSACTION_FIELDS,
} from '../../src/dialects/obie/index.ts';

const DAY = 86_400_000;

// ── Creating consents ──────────────────────────────────────────────────────────────────────────

When('the AISP creates an account-access consent with every permission of the accounts, balances and transactions clusters, expiring in {int} days, for the transactions of the last {int} days',
  async function (this: ConformanceWorld, days: number, history: number) {
    const body = aisBody(FULL_PERMISSIONS, { expiresInMs: days * DAY, fromDaysAgo: history, toDaysAgo: 0 });
    const token = await this.ccToken('ais');
    const r = await this.call('creating the account-access consent', (c) => c.createAccountAccessConsent(body, { token }));
    this.consent = { fn: 'ais', id: consentIdOf(r.body) ?? '', created: r, request: body };
  });

When('the AISP creates an account-access consent without permissions', async function (this: ConformanceWorld) {
  const body: any = aisBody(['ReadAccountsBasic']);
  delete body.Data.Permissions;
  const token = await this.ccToken('ais');
  await this.call('creating the account-access consent', (c) => c.createAccountAccessConsent(body, { token }));
});

When('the AISP creates an account-access consent with an empty list of permissions', async function (this: ConformanceWorld) {
  const body: any = aisBody(['ReadAccountsBasic']);
  body.Data.Permissions = [];
  const token = await this.ccToken('ais');
  await this.call('creating the account-access consent', (c) => c.createAccountAccessConsent(body, { token }));
});

When('the AISP creates an account-access consent without an access token', async function (this: ConformanceWorld) {
  await this.call('creating the account-access consent', (c) => c.createAccountAccessConsent(aisBody(['ReadAccountsBasic']), { token: null }));
});

When('the AISP creates an account-access consent with the token {string}', async function (this: ConformanceWorld, token: string) {
  await this.call('creating the account-access consent', (c) => c.createAccountAccessConsent(aisBody(['ReadAccountsBasic']), { token }));
});

When('the AISP creates an account-access consent without an x-fapi-interaction-id', async function (this: ConformanceWorld) {
  const token = await this.ccToken('ais');
  await this.call('creating the account-access consent', (c) => c.createAccountAccessConsent(aisBody(['ReadAccountsBasic']), { token, interactionId: false }));
});

Then('the consent has a ConsentId', function (this: ConformanceWorld) {
  const r = this.answer();
  const id = consentIdOf(r.body);
  if (typeof id !== 'string' || id.length < 1 || id.length > 128) throw this.violation(`expected Data.ConsentId (1–128 characters) in ${describeAnswer(r)}, got ${quote((r.body as any)?.Data?.ConsentId)}`);
}, ['field:Data.ConsentId']);

Then('the consent\'s status is {string}', function (this: ConformanceWorld, expected: string) {
  const r = this.answer();
  const status = statusOf(r.body);
  const want = expectedStatus(this, expected);
  if (status !== want.value) throw this.violation(`expected Data.Status ${want.words}, got ${quote((r.body as any)?.Data?.Status)} in ${describeAnswer(r)}`);
}, (s) => [`field:Data.Status=${s}`]);

Then('the consent\'s permissions, expiration date and transaction period are exactly those requested', function (this: ConformanceWorld) {
  const r = this.answer();
  const asked = this.consent?.request?.Data ?? {};
  const got = (r.body as any)?.Data ?? {};
  const problems: string[] = [];
  const sorted = (x: unknown) => (Array.isArray(x) ? [...x].sort().join(',') : String(x));
  if (sorted(got.Permissions) !== sorted(asked.Permissions)) problems.push(`Permissions: asked [${asked.Permissions}], got ${JSON.stringify(got.Permissions)}`);
  for (const field of ['ExpirationDateTime', 'TransactionFromDateTime', 'TransactionToDateTime']) {
    if (Date.parse(got[field]) !== Date.parse(asked[field])) problems.push(`${field}: asked ${asked[field]}, got ${JSON.stringify(got[field])}`);
  }
  if (problems.length) throw this.violation(`the consent came back changed: ${problems.join('; ')}`);
});

// ── Reading and deleting the consent (UK: the spec leaves revocation "not shown") ──────────────

When('the AISP reads that account-access consent', async function (this: ConformanceWorld) {
  const record = this.consent!;
  await this.call('reading the account-access consent', async (c) => c.getAccountAccessConsent(record.id, { token: await this.ccToken('ais') }));
});

When('the AISP reads the account-access consent {string}', async function (this: ConformanceWorld, id: string) {
  await this.call('reading the account-access consent', async (c) => c.getAccountAccessConsent(id, { token: await this.ccToken('ais') }));
});

When('the AISP deletes that account-access consent', async function (this: ConformanceWorld) {
  const record = this.consent!;
  await this.call('deleting the account-access consent', async (c) => c.deleteAccountAccessConsent(record.id, { token: await this.ccToken('ais') }));
});

// The consent's token worked before the DELETE: a refusal after it is the DELETE's doing.
Given('the AISP could list the accounts with that consent', async function (this: ConformanceWorld) {
  await accountIdsOf(this, current(this));
});

// ── Authorised consents ────────────────────────────────────────────────────────────────────────

Given('the PSU has authorised the {string} consent: every permission of the accounts, balances and transactions clusters, all accounts selected',
  async function (this: ConformanceWorld, name: string) {
    if (name === 'full') await fullConsent(this, true);
    else await sharedAis(this, name, FULL_PERMISSIONS, { accounts: 'all' });
  });

Given('the PSU has authorised the {string} consent: permissions {string}, transactions from {int} to {int} days ago',
  async function (this: ConformanceWorld, name: string, permissions: string, from: number, to: number) {
    await sharedAis(this, name, splitList(permissions), { accounts: 'all', fromDaysAgo: from, toDaysAgo: to });
  });

Given('the PSU has authorised the {string} consent: permissions {string}, only the first account selected',
  async function (this: ConformanceWorld, name: string, permissions: string) {
    await sharedAis(this, name, splitList(permissions), { accounts: 'first' });
  });

Given('the PSU has authorised the {string} consent: permissions {string}, all accounts selected',
  async function (this: ConformanceWorld, name: string, permissions: string) {
    await sharedAis(this, name, splitList(permissions), { accounts: 'all' });
  });

function named(world: ConformanceWorld, name: string): ConsentRecord {
  const record = world.consents.get(name);
  if (!record) throw new Error(`the scenario has no consent called "${name}"`);
  return record;
}

function current(world: ConformanceWorld): ConsentRecord {
  if (!world.consent?.tokens) throw new Error('no authorised consent in this scenario');
  return world.consent;
}

// ── Reads ──────────────────────────────────────────────────────────────────────────────────────

When('the AISP lists the accounts', async function (this: ConformanceWorld) {
  const record = current(this);
  const r = await this.call('listing the accounts', (c) => c.listAccounts({ token: tokenOf(record) }));
  const ids = r.status === 200 ? listedAccountIds(r.body) : [];
  if (ids.length && !record.accountIds?.length) record.accountIds = ids;
});

When('the AISP lists the accounts with the {string} consent', async function (this: ConformanceWorld, name: string) {
  const record = named(this, name);
  await this.call('listing the accounts', (c) => c.listAccounts({ token: tokenOf(record) }));
});

When('the AISP lists the accounts without an access token', async function (this: ConformanceWorld) {
  await this.call('listing the accounts', (c) => c.listAccounts({ token: null }));
});

When('the AISP lists the accounts with a client-credentials token', async function (this: ConformanceWorld) {
  const token = await this.ccToken('ais');
  await this.call('listing the accounts', (c) => c.listAccounts({ token }));
});

When('the AISP reads the transactions of the first account', async function (this: ConformanceWorld) {
  const record = current(this);
  const id = await firstAccountId(this, record);
  await this.call('reading the transactions', (c) => c.getTransactions(id, { token: tokenOf(record) }));
});

When('the AISP reads the transactions of the first account booked from {int} days ago until today', async function (this: ConformanceWorld, days: number) {
  const record = current(this);
  const id = await firstAccountId(this, record);
  // Query-string dates carry no timezone in the standard.
  const from = isoDateTime(startOfDayUtc(days)).slice(0, 19);
  const to = isoDateTime(new Date()).slice(0, 19);
  await this.call('reading the transactions', (c) => c.getTransactions(id, { token: tokenOf(record), query: { fromBookingDateTime: from, toBookingDateTime: to } }));
});

When('the AISP reads the balances of the first account', async function (this: ConformanceWorld) {
  const record = current(this);
  const id = await firstAccountId(this, record);
  await this.call('reading the balances', (c) => c.getBalances(id, { token: tokenOf(record) }));
});

When('the AISP reads the balances of the first account with the {string} consent', async function (this: ConformanceWorld, name: string) {
  const record = named(this, name);
  const id = await firstAccountId(this, record);
  await this.call('reading the balances', (c) => c.getBalances(id, { token: tokenOf(record) }));
});

When('the AISP reads the account {string}', async function (this: ConformanceWorld, accountId: string) {
  const record = current(this);
  await this.call('reading the account', (c) => c.getAccount(accountId, { token: tokenOf(record) }));
});

When('the AISP reads the first account on its own', async function (this: ConformanceWorld) {
  const record = current(this);
  const id = await firstAccountId(this, record);
  await this.call('reading the account', (c) => c.getAccount(id, { token: tokenOf(record) }));
  this.notes.push(id);
});

When('the AISP reads in detail the first transaction of the first account', async function (this: ConformanceWorld) {
  const record = current(this);
  const id = await firstAccountId(this, record);
  const list = await this.call('reading the transactions', (c) => c.getTransactions(id, { token: tokenOf(record) }));
  expectStatus(this, list, [200]);
  const first: any = transactionsOf(list.body).find((t: any) => typeof t?.TransactionId === "string");
  if (!first) throw new NotJudgeable('the first account lists no transaction with a TransactionId');
  this.notes.push(first.TransactionId);
  await this.call('reading the transaction in detail', (c) => c.getTransaction(id, first.TransactionId, { token: tokenOf(record) }));
});

When('the AISP reads in detail the transaction {string} of the first account', async function (this: ConformanceWorld, resourceId: string) {
  const record = current(this);
  const id = await firstAccountId(this, record);
  await this.call('reading the transaction in detail', (c) => c.getTransaction(id, resourceId, { token: tokenOf(record) }));
});

When('the AISP reads in detail, with the {string} consent, a transaction booked outside its period', async function (this: ConformanceWorld, name: string) {
  const narrow = named(this, name);
  const full = await fullConsent(this);
  const accountId = await firstAccountId(this, narrow);
  const { from, to } = periodOf(narrow);
  const list = await this.call('reading the transactions', (c) => c.getTransactions(accountId, { token: tokenOf(full) }));
  expectStatus(this, list, [200]);
  const outside: any = transactionsOf(list.body).find((t: any) => {
    const at = Date.parse(t?.BookingDateTime);
    return typeof t?.TransactionId === 'string' && Number.isFinite(at) && (at < from || at > to);
  });
  if (!outside) throw new NotJudgeable('the account has no transaction outside the consent\'s period to ask for');
  this.notes.push(`${outside.TransactionId} booked ${outside.BookingDateTime}`);
  await this.call('reading the transaction in detail', (c) => c.getTransaction(accountId, outside.TransactionId, { token: tokenOf(narrow) }));
});

When('the AISP reads, with the {string} consent, each account that the PSU did not select for it', async function (this: ConformanceWorld, name: string) {
  const one = named(this, name);
  const full = await fullConsent(this);
  const fullIds = await accountIdsOf(this, full);
  // The selection is what the PSU ticked on the bank's page, not what the bank lists for the
  // consent: a bank that lists more than was selected must not make its extra accounts "selected".
  const ticked = one.journey?.journey.selectedAccounts ?? [];
  const accounts = ticked.length ? await psuAccounts(this).catch(() => undefined) : undefined;
  const isTicked = (a: AccountInfo) => [a.accountId, a.identification, a.name].some((k) => typeof k === 'string' && k !== '' && ticked.some((s) => s === k || s.includes(k)));
  let others: string[];
  if (accounts?.some(isTicked)) {
    others = accounts.filter((a) => !isTicked(a)).map((a) => a.accountId);
  } else {
    const listed = new Set(await accountIdsOf(this, one));
    others = fullIds.filter((id) => !listed.has(id));
  }
  if (!others.length) {
    throw new NotJudgeable(fullIds.length <= 1
      ? `the PSU has only one account (GET /accounts of the "full" consent lists ${fullIds.length}: ${fullIds.join(', ')}), so there is no unselected account to ask for`
      : `the PSU has ${fullIds.length} accounts, but none of them can be told apart from the ${ticked.length || 'unknown'} account(s) ticked for the "${name}" consent${ticked.length ? ` (${ticked.join(', ')})` : ''}, so no unselected account can be named`);
  }
  this.batch = [];
  for (const id of others) {
    this.batch.push(await this.call('reading an unselected account', (c) => c.getAccount(id, { token: tokenOf(one) })));
    this.batch.push(await this.call('reading the balances of an unselected account', (c) => c.getBalances(id, { token: tokenOf(one) })));
  }
});

// ── Judgements ─────────────────────────────────────────────────────────────────────────────────

function periodOf(record: ConsentRecord): { from: number; to: number } {
  const d = record.request?.Data ?? {};
  return { from: Date.parse(d.TransactionFromDateTime), to: Date.parse(d.TransactionToDateTime) };
}

Then('every transaction was booked inside the consent\'s transaction period', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const { from, to } = periodOf(current(this));
  const txs = transactionsOf(r.body);
  const outside = txs.filter((t: any) => {
    const at = Date.parse(t?.BookingDateTime);
    return !Number.isFinite(at) || at < from || at > to;
  });
  if (outside.length) {
    const eg = outside.slice(0, 3).map((t: any) => `${t?.TransactionId ?? '?'} booked ${t?.BookingDateTime}`).join(', ');
    throw this.violation(`expected every transaction booked between ${new Date(from).toISOString()} and ${new Date(to).toISOString()}, got ${outside.length} of ${txs.length} outside (e.g. ${eg})`);
  }
});

Then('no transaction carries a field that only ReadTransactionsDetail unlocks', function (this: ConformanceWorld) {
  const r = this.answer();
  const leaks = transactionsOf(r.body).flatMap((t: any) => DETAIL_ONLY_TRANSACTION_FIELDS.filter((f: string) => t && f in t).map((f: string) => `${t.TransactionId ?? '?'}.${f}`));
  if (leaks.length) throw this.violation(`the consent holds ReadTransactionsBasic only, but transactions carry Detail fields: ${leaks.slice(0, 5).join(', ')}`);
});

Then('no account carries a field that only ReadAccountsDetail unlocks', function (this: ConformanceWorld) {
  const r = this.answer();
  const leaks = accountsOf(r.body).flatMap((a: any) => DETAIL_ONLY_ACCOUNT_FIELDS.filter((f: string) => a && f in a).map((f: string) => `${a.AccountId ?? '?'}.${f}`));
  if (leaks.length) throw this.violation(`the consent holds ReadAccountsBasic only, but accounts carry Detail fields: ${leaks.slice(0, 5).join(', ')}`);
});

Then('every transaction is a credit', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const debits = transactionsOf(r.body).filter((t: any) => t?.CreditDebitIndicator !== 'Credit');
  if (debits.length) throw this.violation(`the consent holds ReadTransactionsCredits and not ReadTransactionsDebits, but ${debits.length} transaction(s) are not credits (e.g. ${debits[0]?.TransactionId ?? '?'}: ${debits[0]?.CreditDebitIndicator})`);
});

Then('the bank refuses the request because the consent does not cover it', function (this: ConformanceWorld) {
  // The profile prose says 403; the UK conformance suite asserts 401. Either is a refusal.
  expectRefusal(this, this.answer(), [401, 403], 'a call the consent\'s permissions do not cover');
});

Then('the AISP can read the accounts, each account\'s detail, its balances and its transactions', async function (this: ConformanceWorld) {
  const record = current(this);
  const token = tokenOf(record);
  for (const id of await accountIdsOf(this, record)) {
    expectStatus(this, await this.call('reading the account', (c) => c.getAccount(id, { token })), [200], `expected the approved consent to grant ReadAccountsDetail for ${id} (HTTP 200)`);
    expectStatus(this, await this.call('reading the balances', (c) => c.getBalances(id, { token })), [200], `expected the approved consent to grant ReadBalances for ${id} (HTTP 200)`);
    expectStatus(this, await this.call('reading the transactions', (c) => c.getTransactions(id, { token })), [200], `expected the approved consent to grant ReadTransactions* for ${id} (HTTP 200)`);
  }
});

Then('the list holds exactly the accounts the PSU selected', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const selected = current(this).journey?.journey.selectedAccounts ?? [];
  const problem = accountListProblem(r.body);
  // The list's shape is AIS-11's to judge; which accounts it holds cannot be read from it.
  if (problem) throw this.blocked('AIS-11', `GET /accounts: ${problem}, so which accounts it lists cannot be read`);
  const listed = accountsOf(r.body) as any[];
  if (listed.length !== selected.length) {
    throw this.violation(`the PSU selected ${selected.length} account(s) (${selected.join(', ')}), but GET /accounts listed ${listed.length}: ${listed.map((a) => a?.AccountId).join(', ')}`);
  }
  const matches = (a: any) => {
    const keys = [a?.AccountId, a?.Nickname, ...(Array.isArray(a?.Account) ? a.Account.flatMap((x: any) => [x?.Identification, x?.Name]) : [])].filter(Boolean);
    return selected.some((s) => keys.some((k: string) => s === k || s.includes(k)));
  };
  const strangers = listed.filter((a) => !matches(a));
  if (strangers.length) throw this.violation(`GET /accounts listed account(s) the PSU did not select: ${strangers.map((a) => a?.AccountId).join(', ')} (selected: ${selected.join(', ')})`);
});

Then('the bank refuses every such request', function (this: ConformanceWorld) {
  for (const r of this.batch) expectRefusal(this, r, [400, 403], 'access to an account the PSU did not select');
});

Then('every AccountId listed can be read on its own', async function (this: ConformanceWorld) {
  const record = current(this);
  const body = this.answer().body;
  const problem = accountListProblem(body);
  if (problem) throw this.blocked('AIS-11', `GET /accounts: ${problem}, so its AccountIds cannot be read`);
  const ids = listedAccountIds(body);
  if (!ids.length) throw this.blocked('AIS-04', 'GET /accounts listed no AccountId to read');
  for (const id of ids) {
    const r = await this.call('reading the account', (c) => c.getAccount(id, { token: tokenOf(record) }));
    expectStatus(this, r, [200], `expected GET /accounts/${id} to answer 200 for an AccountId that GET /accounts listed`);
  }
});

Then('the list holds the same accounts as the {string} consent', async function (this: ConformanceWorld, name: string) {
  const other = await accountIdsOf(this, named(this, name));
  const body = this.answer().body;
  const problem = accountListProblem(body);
  if (problem) throw this.blocked('AIS-11', `GET /accounts: ${problem}, so its accounts cannot be compared`);
  const listed = listedAccountIds(body);
  const common = listed.filter((id: string) => other.includes(id));
  // AccountIds may be consent-specific; then only the number of accounts can be compared.
  if (listed.length !== other.length || (common.length > 0 && common.length !== listed.length)) {
    throw this.violation(`both consents were authorised with all accounts, but they list different accounts: ${listed.join(', ')} versus ${other.join(', ')}`);
  }
});

Then('the body holds exactly that one account', function (this: ConformanceWorld) {
  const body = this.answer().body;
  const wanted = this.notes.at(-1);
  const problem = accountListProblem(body);
  if (problem) throw this.blocked('AIS-11', `GET /accounts/${wanted}: ${problem}, so which account it holds cannot be read`);
  const listed = accountsOf(body);
  if (listed.length !== 1 || listed[0]?.AccountId !== wanted) throw this.violation(`expected exactly the account ${wanted}, got ${listed.length} account(s): ${listed.map((a: any) => quote(a?.AccountId)).join(', ') || 'none'}`);
});

Then('the body holds exactly that one transaction', function (this: ConformanceWorld) {
  const body = this.answer().body;
  const txs = transactionsOf(body);
  const wanted = this.notes.at(-1);
  if (!Array.isArray((body as any)?.Data?.Transaction)) throw this.blocked('AIS-11', `the transaction detail's Data.Transaction is not an array (got ${quote((body as any)?.Data?.Transaction)}), so which transaction it holds cannot be read`);
  if (txs.length !== 1 || txs[0]?.TransactionId !== wanted) throw this.violation(`expected exactly the transaction ${wanted}, got ${txs.length} transaction(s): ${txs.map((t: any) => quote(t?.TransactionId)).join(', ') || 'none'}`);
});

/** One resource AIS-11 read, and what is wrong with it. */
interface Judged { what: string; must: string[] }

When('the AISP reads every resource the consent opens: the account list, and each account\'s detail, balances and transactions', async function (this: ConformanceWorld) {
  const record = current(this);
  const token = tokenOf(record);
  this.batch = [];
  const list = await this.call('listing the accounts', (c) => c.listAccounts({ token }));
  this.batch.push(list);
  // Every account that can be found, even in a malformed list: each resource is judged on its own.
  const ids = foundAccountIds(list.body);
  for (const id of ids.length ? ids : record.accountIds ?? []) {
    this.batch.push(await this.call('reading the account', (c) => c.getAccount(id, { token })));
    this.batch.push(await this.call('reading the balances', (c) => c.getBalances(id, { token })));
    const txs = await this.call('reading the transactions', (c) => c.getTransactions(id, { token }));
    this.batch.push(txs);
    const first: any = transactionsOf(txs.body).find((t: any) => typeof t?.TransactionId === 'string' && t.TransactionId !== '');
    if (first && this.client.supports('getTransaction')) {
      this.batch.push(await this.call('reading the transaction in detail', (c) => c.getTransaction(id, first.TransactionId, { token })));
    }
  }
});

Then('every answer is 200 OK with a body valid against the standard\'s schema for it', function (this: ConformanceWorld) {
  const judged: Judged[] = [];
  for (const r of this.batch) {
    // The official schema of the operation's answer, as the standard's catalogue declares it.
    const spec = this.client.specOf(r.operation);
    const schema = spec?.api === 'ais' && spec.method === 'GET' ? spec.responses[200] : undefined;
    if (!schema) continue;
    const what = describeAnswer(r);
    if (r.status !== 200) {
      judged.push({ what, must: [`expected HTTP 200, got ${r.status}`] });
      continue;
    }
    const type = r.headers['content-type'];
    const must: string[] = [];
    if (r.json && (!type || !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type))) must.push(`Content-Type must be application/json, got ${type ?? 'none'}`);
    const j = judgeSchema(schema as never, r.json ? r.body : r.text.trim() ? r.text : undefined, versionOfWorld(this));
    warn(this, `the body of ${what} as ${schema}`, j.should);
    judged.push({ what: `${what} as ${schema}`, must: [...must, ...j.must] });
  }
  const listed = this.batch.filter((r) => r.operation === 'listAccounts');
  const accounts = this.batch.filter((r) => r.operation === 'getAccount').length;
  if (listed.length && !accounts) judged.push({ what: 'GET /accounts', must: ['no AccountId could be found in the account list, so no account, balance or transaction could be read'] });
  const bad = judged.filter((x) => x.must.length);
  // Each resource is reported, valid or not, then every problem of each.
  const report = judged.map((x) => `${x.must.length ? '✗' : '✓'} ${x.what}${x.must.length ? `: ${x.must.length} problem${x.must.length === 1 ? '' : 's'}` : ': valid'}`);
  this.attach(`${this.ruleId}: ${judged.length} resources judged:\n${report.join('\n')}`, 'text/plain');
  if (bad.length) {
    const problems = bad.flatMap((x) => x.must.map((p) => `${x.what.split(' → ')[0]}: ${p}`));
    throw violationWithProblems(this, [`${bad.length} of ${judged.length} resources are not valid:`, ...report, 'Problems:'], problems);
  }
});

// ── Expiry ─────────────────────────────────────────────────────────────────────────────────────

Given('the PSU has authorised a consent that expires a few seconds later, and the AISP read the accounts before it expired', async function (this: ConformanceWorld) {
  const expiring = await expiringConsent(this, 'ais');
  this.consent = expiring.record;
  expectStatus(this, expiring.before, [200], 'expected GET /accounts to answer 200 while the consent was still valid');
  this.expiring = expiring;
});

When('the consent\'s expiration date has passed', async function (this: ConformanceWorld) {
  await expiryPassed(this, this.expiring!);
});

