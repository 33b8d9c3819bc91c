/**
 * The berlin-group scenarios of account information, the consent's lifecycle and the standard's
 * plumbing (features/berlin-group): consents, the PSU's SCA, data calls under Consent-ID.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectRefusal, expectStatus, parseStatuses, quote, WARNING_MEDIA_TYPE } from '../support/judge.ts';
import { accountsOf, bgHeaders, consentIdOf, consentStatusOf, detailedAccess, transactionsOf, transactionsQuery, type BookingStatus } from '../../src/dialects/berlin-group/index.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import type { BgSchemaName } from '../../src/dialects/berlin-group/schemas/index.ts';
import {
  bankOffered, bg, consentRequest, consentThroughSca, consentUrl, dataOptions, expectBgError, expectBgSchema, fullConsent,
  plain, postConsent, approachOf, theConsent, expectScaLink, type BgConsent,
  deletedConsents, sharedRecurring, sharedRejected,
} from './support.ts';
import { givenAhead } from './ahead.ts';

const FULL = () => bankOffered({ balances: true, transactions: true });

// ---------------------------------------------------------------------------------------------
// Givens: consents through the PSU's SCA

// Recurring: each shared by the scenarios asking for it until another recurring consent expires it (sharedRecurring).
Given('a NextGenPSD2 consent the PSU authorised for the first of their accounts', async function (this: ConformanceWorld) {
  await sharedRecurring(this, 'first-account', () => consentRequest(FULL()), { accounts: { pick: 'first' } });
});

Given('a NextGenPSD2 consent the PSU authorised for all of their accounts', async function (this: ConformanceWorld) {
  await sharedRecurring(this, 'all-accounts', () => consentRequest(FULL()), { accounts: { pick: 'all' } });
});

Given('a NextGenPSD2 consent the PSU authorised for the accounts alone', async function (this: ConformanceWorld) {
  await sharedRecurring(this, 'accounts-alone', () => consentRequest(bankOffered({ balances: false, transactions: false })), { accounts: { pick: 'first' } });
});

Given('a NextGenPSD2 consent the PSU has not authorised yet', async function (this: ConformanceWorld) {
  await consentThroughSca(this, consentRequest(FULL()), { authorise: false });
});

// A rejected consent and a one-off one expire no other consent: each is prepared ahead of its scenario (ahead.ts).
givenAhead('a NextGenPSD2 consent the PSU rejected', async (world) => {
  await sharedRejected(world, (setup) => consentThroughSca(setup, consentRequest(FULL()), { reject: true }));
});

givenAhead('a one-off NextGenPSD2 consent the PSU authorised', async (world) => {
  await consentThroughSca(world, consentRequest(FULL(), { recurringIndicator: false, frequencyPerDay: 1 }), { accounts: { pick: 'all' } });
});

Given('a NextGenPSD2 consent to the PSU\'s first account by IBAN, which the PSU authorised', async function (this: ConformanceWorld) {
  const account = (await fullConsent(this, { accountsOnly: true })).accounts.find((a) => a.iban);
  if (!account?.iban) throw this.blocked('AIS-11', 'the PSU\'s accounts carry no IBAN to name in a consent');
  await consentThroughSca(this, consentRequest(detailedAccess([{ iban: account.iban }])), { accounts: { pick: 'all' } });
});

Given('the PSU\'s full NextGenPSD2 consent', async function (this: ConformanceWorld) {
  bg(this).full = await fullConsent(this);
});

// The first is one-off: the second's authorisation would expire a recurring first one (POST
// /v1/consents, "Side Effects"), and a refusal would then prove nothing about the token. Being
// one-off, it is prepared ahead of the scenario (ahead.ts); the second is made in the scenario.
givenAhead('two NextGenPSD2 consents the PSU authorised through the bank\'s OAuth2 SCA', async (world) => {
  await consentThroughSca(world, consentRequest(FULL(), { recurringIndicator: false, frequencyPerDay: 1 }), { approach: 'oauth', accounts: { pick: 'all' } });
}, async (world) => {
  await consentThroughSca(world, consentRequest(FULL()), { approach: 'oauth', accounts: { pick: 'all' } });
});

Given('a second recurring NextGenPSD2 consent the PSU authorised for all of their accounts', async function (this: ConformanceWorld) {
  if (bg(this).consents.length !== 1) throw new Error('this step follows exactly one consent of the scenario');
  await consentThroughSca(this, consentRequest(FULL()), { accounts: { pick: 'all' } });
});

// ---------------------------------------------------------------------------------------------
// Consents: create, read, status, delete

When('the TPP asks for a NextGenPSD2 consent to the PSU\'s accounts, balances and transactions', async function (this: ConformanceWorld) {
  const request = consentRequest(FULL());
  const approach = approachOf(this);
  const r = await postConsent(this, request, approach);
  const id = consentIdOf(r.body);
  if (id) bg(this).consent = { id, request, created: r, approach };
});

When('the TPP asks for a NextGenPSD2 consent without access', async function (this: ConformanceWorld) {
  const { access: _omitted, ...request } = consentRequest(FULL());
  await postConsent(this, request, approachOf(this));
});

When('the TPP asks for a NextGenPSD2 consent without access, accepting application\\/problem+json', async function (this: ConformanceWorld) {
  const { access: _omitted, ...request } = consentRequest(FULL());
  await postConsent(this, request, approachOf(this), 'application/problem+json, application/json');
});

When('the TPP reads the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  await this.call('reading the consent', (client) => client.getAccountAccessConsent(c.id, plain(this, bgHeaders(), c.token)));
});

/** The scenario's first consent, which a later recurring consent replaced. */
function formerConsent(world: ConformanceWorld): BgConsent {
  const [former] = bg(world).consents;
  if (!former || bg(world).consents.length < 2) throw new Error('no former NextGenPSD2 consent was made before this step');
  return former;
}

When('the TPP reads the former NextGenPSD2 consent\'s status', async function (this: ConformanceWorld) {
  const c = formerConsent(this);
  await this.call('reading the former consent\'s status', (client) => client.getConsentStatus(c.id, plain(this, bgHeaders(), c.token)));
});

When('the TPP lists the accounts under the former NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = formerConsent(this);
  await this.call('listing the accounts under the former consent', (client) => client.listAccounts(dataOptions(this, c)));
});

When('the TPP reads the NextGenPSD2 consent\'s status', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  await this.call('reading the consent\'s status', (client) => client.getConsentStatus(c.id, plain(this, bgHeaders(), c.token)));
});

When('the TPP deletes the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  deletedConsents.add(c);
  await this.call('deleting the consent', (client) => client.deleteAccountAccessConsent(c.id, plain(this, bgHeaders(), c.token)));
});

Then('the bank creates the NextGenPSD2 consent with a consentId and a way to start the PSU\'s SCA', function (this: ConformanceWorld) {
  const r = this.answer();
  // 201 is SEC-05's to demand; here the consent must exist.
  expectStatus(this, r, [201, 200], 'expected the bank to create the consent (HTTP 201)');
  expectBgSchema(this, r, 'consentsResponse-201');
  expectScaLink(this, r, theConsent(this).approach, 'consent');
});

Then('the NextGenPSD2 consent\'s status in the answer is {string}', function (this: ConformanceWorld, status: string) {
  const got = consentStatusOf(this.answer().body);
  if (got !== status) throw this.violation(`expected consentStatus ${quote(status)} in ${describeAnswer(this.answer())}, got ${quote(got)}: a new consent awaits the PSU's authorisation`);
});

Then('the NextGenPSD2 consent\'s status is {string}', function (this: ConformanceWorld, status: string) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'consentStatusResponse-200');
  const got = consentStatusOf(r.body);
  if (got !== status) throw this.violation(`expected consentStatus ${quote(status)}, got ${quote(got)} (${describeAnswer(r)})`);
});

Then('the NextGenPSD2 consent reads back with status {string}', function (this: ConformanceWorld, status: string) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'consentInformationResponse-200_json');
  const got = consentStatusOf(r.body);
  if (got !== status) throw this.violation(`expected the consent to read back with consentStatus ${quote(status)}, got ${quote(got)}`);
});

Then('the NextGenPSD2 consent reads back with the access, recurringIndicator and frequencyPerDay asked', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'consentInformationResponse-200_json');
  const asked = theConsent(this).request;
  const body = r.body as Record<string, unknown>;
  for (const field of ['access', 'recurringIndicator', 'frequencyPerDay'] as const) {
    if (!isDeepStrictEqual(body[field], asked[field])) throw this.violation(`the consent reads back with ${field} ${quote(body[field])}, not the ${quote(asked[field])} the PSU authorised`);
  }
});

Then('the NextGenPSD2 consent reads back with recurringIndicator false and frequencyPerDay 1', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'consentInformationResponse-200_json');
  const body = r.body as { recurringIndicator?: unknown; frequencyPerDay?: unknown };
  if (body.recurringIndicator !== false) throw this.violation(`the one-off consent reads back with recurringIndicator ${quote(body.recurringIndicator)}, not false as asked`);
  if (body.frequencyPerDay !== 1) throw this.violation(`the one-off consent reads back with frequencyPerDay ${quote(body.frequencyPerDay)}, not 1 as asked`);
});

Then('the NextGenPSD2 consent reads back with a validUntil no later than the one asked', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'consentInformationResponse-200_json');
  const asked = theConsent(this).request.validUntil;
  const got = (r.body as { validUntil?: unknown }).validUntil;
  if (typeof got !== 'string') throw this.violation(`the consent reads back without validUntil (asked ${asked})`);
  if (got > asked) throw this.violation(`the consent reads back valid until ${got}, later than the ${asked} asked: a bank may shorten validUntil, never lengthen it`);
  const today = new Date().toISOString().slice(0, 10);
  if (got < today) throw this.violation(`the consent reads back valid until ${got}, already past, though it was just authorised until ${asked}`);
});

// ---------------------------------------------------------------------------------------------
// Data calls

When('the TPP lists the accounts under the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  await this.call('listing the accounts', (client) => client.listAccounts(dataOptions(this, c)));
});

When('the TPP lists the accounts without Consent-ID', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  await this.call('listing the accounts', (client) => client.listAccounts(dataOptions(this, c, { consentId: null })));
});

When('the TPP lists the accounts under a Consent-ID the bank never issued', async function (this: ConformanceWorld) {
  await this.call('listing the accounts', (client) => client.listAccounts(dataOptions(this, undefined, { consentId: `obtpp-unknown-${randomUUID()}` })));
});

When('the TPP lists the accounts under the second consent with the first consent\'s token', async function (this: ConformanceWorld) {
  const [first, second] = bg(this).consents as [BgConsent, BgConsent];
  if (!first.token) throw this.blocked(undefined, 'the first consent\'s OAuth2 SCA gave no access token');
  await this.call('listing the accounts', (client) => client.listAccounts(dataOptions(this, second, { token: first.token })));
});

When('the TPP reads an account the PSU did not select under the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  const other = (c.offered ?? []).find((id) => !(c.selected ?? []).includes(id));
  if (!other) throw this.blocked(undefined, `the bank's page offered the PSU ${c.offered?.length ?? 0} account(s): none was left unselected`);
  await this.call('reading an account', (client) => client.getAccount(other, dataOptions(this, c)));
});

/** The first account the scenario's consent opens (GET /v1/accounts). */
async function firstAccount(world: ConformanceWorld): Promise<{ consent: BgConsent; accountId: string }> {
  const c = theConsent(world);
  const full = bg(world).full;
  if (full && full === c) return { consent: c, accountId: full.accounts[0]!.resourceId };
  const list = await world.call('listing the accounts', (client) => client.listAccounts(dataOptions(world, c)));
  const id = accountsOf(list.body).map((a) => a.resourceId).find((x): x is string => typeof x === 'string');
  if (list.status !== 200 || !id) throw world.blocked('AIS-04', `the consent opens no account to read: ${describeAnswer(list)}`);
  return { consent: c, accountId: id };
}

const last89Days = () => transactionsQuery({ bookingStatus: 'booked', dateFrom: new Date(Date.now() - 89 * 86_400_000) });
const queryOf = (q: URLSearchParams) => Object.fromEntries(q.entries());

When('the TPP reads the balances of the consented account', async function (this: ConformanceWorld) {
  const { consent, accountId } = await firstAccount(this);
  await this.call('reading the balances', (client) => client.getBalances(accountId, dataOptions(this, consent)));
});

When('the TPP reads the transactions of the consented account', async function (this: ConformanceWorld) {
  const { consent, accountId } = await firstAccount(this);
  await this.call('reading the transactions', (client) => client.getTransactions(accountId, { ...dataOptions(this, consent), query: queryOf(last89Days()) }));
});

When('the TPP reads the booked transactions of the first consented account from {int} to {int} days ago', async function (this: ConformanceWorld, from: number, to: number) {
  const { consent, accountId } = await firstAccount(this);
  const day = (n: number) => new Date(Date.now() - n * 86_400_000);
  const q = transactionsQuery({ bookingStatus: 'booked', dateFrom: day(from), dateTo: day(to) });
  // The same account over a wider period, to know whether the bank's data gives anything to judge.
  const wide = await this.call('reading the transactions', (client) => client.getTransactions(accountId, { ...dataOptions(this, consent), query: queryOf(last89Days()) }));
  this.batch = [wide];
  await this.call('reading the transactions', (client) => client.getTransactions(accountId, { ...dataOptions(this, consent), query: queryOf(q) }));
});

Then('every booked transaction is dated within those days', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const query = new URL(r.exchange.url).searchParams;
  const from = query.get('dateFrom')!;
  const to = query.get('dateTo')!;
  const dateOf = (t: Record<string, unknown>) => String(t.bookingDate ?? t.valueDate ?? '');
  const outside = (t: Record<string, unknown>) => dateOf(t) < from || dateOf(t) > to;
  const stray = transactionsOf(r.body, 'booked').filter(outside);
  if (stray.length) throw this.violation(`${stray.length} booked transaction(s) dated outside ${from} to ${to} were returned, e.g. ${quote(stray[0])}`);
  if (!transactionsOf(this.batch[0]!.body, 'booked').some(outside)) {
    throw this.blocked(undefined, `the account has no booked transaction outside ${from} to ${to} in the last 89 days: nothing shows whether the dates bound the answer`);
  }
});

When('the TPP reads the transactions of the first consented account with bookingStatus {word}', async function (this: ConformanceWorld, statuses: string) {
  const { consent, accountId } = await firstAccount(this);
  this.batch = [];
  for (const bookingStatus of statuses.split(',') as BookingStatus[]) {
    const q = transactionsQuery({ bookingStatus, dateFrom: new Date(Date.now() - 89 * 86_400_000) });
    this.batch.push(await this.call(`reading the ${bookingStatus} transactions`, (client) => client.getTransactions(accountId, { ...dataOptions(this, consent), query: queryOf(q) })));
  }
});

/** A transaction's identity in a report: its transactionId, else its entryReference, else the whole entry. */
const identity = (t: Record<string, unknown>) => (typeof t.transactionId === 'string' ? `id ${t.transactionId}` : typeof t.entryReference === 'string' ? `ref ${t.entryReference}` : JSON.stringify(t));
const bookingOf = (r: ApiResult) => new URL(r.exchange.url).searchParams.get('bookingStatus');

Then('the report of booked transactions holds no pending one', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const pending = transactionsOf(r.body, 'pending');
  if (pending.length) throw this.violation(`asked for bookingStatus booked, the bank returned ${pending.length} pending transaction(s), e.g. ${quote(pending[0])}`);
});

Then('the pending report holds only pending transactions, and the report of both holds the booked and the pending ones', function (this: ConformanceWorld) {
  const [booked, pending, both] = this.batch as [ApiResult, ApiResult, ApiResult];
  expectStatus(this, booked, [200]);
  for (const r of [pending, both]) {
    // "pending" and "both" are optional for the bank: a refusal with the standard's error is not a failure.
    if (r.status >= 400 && r.status < 500) throw this.blocked(undefined, `the bank does not offer bookingStatus ${bookingOf(r)}, which the standard leaves optional: ${describeAnswer(r)}`);
    expectStatus(this, r, [200]);
  }
  const ids = (r: ApiResult, which: 'booked' | 'pending') => transactionsOf(r.body, which).map(identity);
  const strayBooked = ids(pending, 'booked');
  if (strayBooked.length) throw this.violation(`asked for bookingStatus pending, the bank returned ${strayBooked.length} booked transaction(s) (${strayBooked.slice(0, 3).join(', ')})`);
  const pendingIds = ids(pending, 'pending');
  const bookedAsPending = ids(booked, 'booked').filter((id) => pendingIds.includes(id));
  if (bookedAsPending.length) throw this.violation(`${bookedAsPending.length} transaction(s) come back both as booked (bookingStatus booked) and as pending (bookingStatus pending): ${bookedAsPending.slice(0, 3).join(', ')}`);
  for (const which of ['booked', 'pending'] as const) {
    const alone = ids(which === 'booked' ? booked : pending, which).sort();
    const together = ids(both, which).sort();
    const missing = alone.filter((id) => !together.includes(id));
    const extra = together.filter((id) => !alone.includes(id));
    if (missing.length || extra.length) {
      throw this.violation(`bookingStatus both must return the ${which} transactions of bookingStatus ${which}: ${missing.length} missing (${missing.slice(0, 3).join(', ')}), ${extra.length} not among them (${extra.slice(0, 3).join(', ')})`);
    }
  }
  if (!pendingIds.length && !ids(both, 'pending').length) throw this.blocked(undefined, 'the account has no pending transaction: nothing shows whether the bank tells pending from booked');
});

When('the TPP reads the first consented account in detail', async function (this: ConformanceWorld) {
  const { consent, accountId } = await firstAccount(this);
  await this.call('reading the account', (client) => client.getAccount(accountId, dataOptions(this, consent)));
});

When('the TPP reads the first booked transaction of the first consented account in detail', async function (this: ConformanceWorld) {
  const { consent, accountId } = await firstAccount(this);
  const list = await this.call('reading the transactions', (client) => client.getTransactions(accountId, { ...dataOptions(this, consent), query: queryOf(last89Days()) }));
  const id = transactionsOf(list.body, 'booked').map((t) => t.transactionId).find((x): x is string => typeof x === 'string');
  if (list.status !== 200 || !id) throw this.blocked(list.status === 200 ? undefined : 'AIS-11', `no booked transaction with a transactionId to read in detail: ${describeAnswer(list)}`);
  await this.call('reading the transaction', (client) => client.getTransaction(accountId, id, dataOptions(this, consent)));
});

When('the TPP reads every consented account\'s balances and booked transactions', async function (this: ConformanceWorld) {
  const full = bg(this).full ?? await fullConsent(this);
  this.batch = [await this.call('listing the accounts', (client) => client.listAccounts(dataOptions(this, full)))];
  for (const a of full.accounts) {
    this.batch.push(await this.call('reading the balances', (client) => client.getBalances(a.resourceId, dataOptions(this, full))));
    this.batch.push(await this.call('reading the transactions', (client) => client.getTransactions(a.resourceId, { ...dataOptions(this, full), query: queryOf(last89Days()) })));
  }
});

Then('every NextGenPSD2 answer is valid against its schema', function (this: ConformanceWorld) {
  for (const r of this.batch) {
    expectStatus(this, r, [200]);
    // The official schema of the operation's answer, as the standard's catalogue declares it.
    expectBgSchema(this, r, this.client.specOf(r.operation)?.responses[200] as BgSchemaName);
  }
});

Then('the bank lists exactly the accounts the PSU selected', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'accountList');
  const listed = accountsOf(r.body).map((a) => String(a.resourceId)).sort();
  const selected = [...(theConsent(this).selected ?? [])].sort();
  if (listed.join() !== selected.join()) throw this.violation(`GET /v1/accounts lists ${quote(listed)}, but the PSU selected ${quote(selected)}`);
});

When('the TPP lists the accounts under the NextGenPSD2 consent twice without the PSU', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  this.batch = [];
  for (let i = 0; i < 2; i++) this.batch.push(await this.call('listing the accounts without the PSU', (client) => client.listAccounts(dataOptions(this, c, { withoutPsu: true }))));
});

Then('the bank should refuse the second access with 429 ACCESS_EXCEEDED', function (this: ConformanceWorld) {
  const [first, second] = this.batch as [typeof this.batch[0], typeof this.batch[0]];
  expectStatus(this, first, [200], 'expected the first access of the day to be answered (HTTP 200)');
  if (second.status === 429) return;
  // The standard names the limit and its error; enforcing it is the bank's to do: a warning, not a failure.
  this.attach(JSON.stringify({
    level: 'SHOULD', source: 'official-schema',
    message: `a one-off consent (frequencyPerDay 1) gave a second access without the PSU on the same day: ${describeAnswer(second)}`,
    problems: [`expected 429 ACCESS_EXCEEDED for the second access without PSU-IP-Address, got ${second.status}`],
  }), WARNING_MEDIA_TYPE);
});

// ---------------------------------------------------------------------------------------------
// Answers: status codes, error bodies, X-Request-ID

Then(/^the bank refuses the NextGenPSD2 request with ([\d, or]+)$/, function (this: ConformanceWorld, statuses: string) {
  expectRefusal(this, this.answer(), parseStatuses(statuses), 'the request');
});

Then(/^the bank answers the NextGenPSD2 request with (\d{3})$/, function (this: ConformanceWorld, status: string) {
  expectStatus(this, this.answer(), [Number(status)]);
});

Then('the refusal carries the standard\'s error body', function (this: ConformanceWorld) {
  expectBgError(this, this.answer());
});

Then('the answer carries the request\'s X-Request-ID', function (this: ConformanceWorld) {
  const r = this.answer();
  const sent = bg(this).requestId;
  const got = r.headers['x-request-id'];
  if (got !== sent) throw this.violation(`the answer ${describeAnswer(r)} carries X-Request-ID ${quote(got)}, not the request's ${quote(sent)}`);
});
