/**
 * The NextGenPSD2 sandbox's one-off consents (BG-52): recurringIndicator false is "for one
 * access": once an access session has read balances or transactions, a new access (the account
 * or card-account list read again) is refused with 401 CONSENT_EXPIRED and the consent reads
 * expired; a recurring consent is not; the fault bg-one-off-consent-reusable never ends the
 * session. The delta reports of an account's transactions (BG-53, BG-54): entryReferenceFrom
 * gives the transactions after the one named, deltaList those not reported since the last report
 * access, and their faults. The PSU's SCA is the redirect page's two forms posted by fetch: no browser.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { bgCall } from '../helpers/bg-sandbox.ts';

type Json = any;
let sb: Sandbox;
let faulty: Sandbox;
before(async () => {
  [sb, faulty] = await Promise.all([startSandbox({ dialect: 'berlin-group' }), startSandbox({ dialect: 'berlin-group', faults: ['bg-one-off-consent-reusable', 'bg-entry-reference-from-ignored', 'bg-delta-list-repeats'] })]);
});
after(async () => {
  await Promise.all([sb?.stop(), faulty?.stop()]);
});

const call = bgCall;

/** An allPsd2 consent, one-off unless told, authorised by alice through the redirect page's forms. */
async function consent(bank: Sandbox, recurring = false): Promise<string> {
  const created = await call('POST', `${bank.baseUrls.A}/v1/consents`, {
    headers: { 'TPP-Redirect-URI': bank.clients[0]!.redirectUri },
    body: { access: { allPsd2: 'allAccounts' }, recurringIndicator: recurring, validUntil: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), frequencyPerDay: recurring ? 4 : 1, combinedServiceIndicator: false },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const sca = created.body._links.scaRedirect.href as string;
  const form = (url: string, body: URLSearchParams) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const alice = bank.psus[0]!;
  assert.equal((await form(`${sca}/login`, new URLSearchParams({ username: alice.username, password: alice.password }))).status, 303);
  assert.equal((await form(`${sca}/confirm`, new URLSearchParams({ decision: 'approve' }))).status, 303);
  return created.body.consentId as string;
}

const get = (bank: Sandbox, id: string, path: string) => call('GET', `${bank.baseUrls.A}/v1${path}`, { headers: { 'Consent-ID': id } });
const since = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);

/** One access session: the list, then the first account's balances and booked transactions. */
async function session(bank: Sandbox, id: string): Promise<void> {
  const list = await get(bank, id, '/accounts');
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const first = list.body.accounts[0].resourceId;
  assert.equal((await get(bank, id, `/accounts/${first}/balances`)).status, 200);
  assert.equal((await get(bank, id, `/accounts/${first}/transactions?bookingStatus=booked&dateFrom=${since}`)).status, 200);
}

test('a one-off consent serves one access session; a new access is 401 CONSENT_EXPIRED and the consent reads expired', async () => {
  const id = await consent(sb);
  // The list twice before any data read is one session still (with the PSU: frequencyPerDay does not count it).
  assert.equal((await get(sb, id, '/accounts')).status, 200);
  await session(sb, id);
  const again = await get(sb, id, '/accounts');
  assert.deepEqual([again.status, again.body.tppMessages[0].code], [401, 'CONSENT_EXPIRED']);
  assert.equal((await get(sb, id, '/status')).status, 404, 'the consent\'s status is under /v1/consents');
  assert.equal((await call('GET', `${sb.baseUrls.A}/v1/consents/${id}/status`)).body.consentStatus, 'expired');
  assert.equal((await get(sb, id, '/card-accounts')).status, 401, 'nothing opens after it');
});

test('the card accounts end a one-off session alike; a recurring consent is never used up', async () => {
  const id = await consent(sb);
  const cards = await get(sb, id, '/card-accounts');
  assert.equal(cards.status, 200);
  assert.equal((await get(sb, id, `/card-accounts/${cards.body.cardAccounts[0].resourceId}/balances`)).status, 200);
  assert.deepEqual([(await get(sb, id, '/card-accounts')).status], [401]);
  const recurring = await consent(sb, true);
  await session(sb, recurring);
  await session(sb, recurring);
});

test('the fault bg-one-off-consent-reusable: a new access under a used one-off consent is served', async () => {
  const id = await consent(faulty);
  await session(faulty, id);
  await session(faulty, id);
  assert.equal((await call('GET', `${faulty.baseUrls.A}/v1/consents/${id}/status`)).body.consentStatus, 'valid');
});

/** The booked transactions of alice's first account under a recurring consent (no one-off session to end). */
async function booked(bank: Sandbox, id: string, query: string, index = 0): Promise<{ status: number; body: Json; refs: string[] }> {
  const list = await get(bank, id, '/accounts');
  const first = list.body.accounts[index].resourceId;
  const r = await get(bank, id, `/accounts/${first}/transactions?bookingStatus=booked${query}`);
  return { ...r, refs: r.status === 200 ? r.body.transactions.booked.map((t: Json) => t.entryReference) : [] };
}

test('entryReferenceFrom: the transactions booked after the one named, newest first, without it; an unknown one is refused', async () => {
  const id = await consent(sb, true);
  const all = await booked(sb, id, `&dateFrom=${since}`);
  assert.ok(all.refs.length >= 3, `alice's first account has transactions to judge by: ${all.refs}`);
  const pivot = all.refs[2]!;
  const delta = await booked(sb, id, `&entryReferenceFrom=${encodeURIComponent(pivot)}`);
  assert.equal(delta.status, 200, JSON.stringify(delta.body));
  assert.deepEqual(delta.refs, all.refs.slice(0, 2), 'the two newer ones, the period not asked');
  const unknown = await booked(sb, id, '&entryReferenceFrom=no-such-reference');
  assert.deepEqual([unknown.status, unknown.body.tppMessages[0].code], [400, 'FORMAT_ERROR']);
  const both = await booked(sb, id, `&entryReferenceFrom=${encodeURIComponent(pivot)}&deltaList=true`);
  assert.deepEqual([both.status, both.body.tppMessages[0].code], [400, 'PARAMETER_NOT_CONSISTENT']);
  const bad = await booked(faulty, await consent(faulty, true), `&entryReferenceFrom=${encodeURIComponent(pivot)}`);
  assert.ok(bad.refs.includes(pivot), 'the fault bg-entry-reference-from-ignored returns the one named too');
});

test('deltaList: what no report of this PSU\'s account has held yet; right after a report, no booked transaction', async () => {
  const id = await consent(sb, true);
  // alice's second account, which no test above reads: the first delta report holds all its transactions.
  const first = await booked(sb, id, '&deltaList=true', 1);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const whole = await booked(sb, id, '&dateFrom=2000-01-01', 1);
  assert.ok(whole.refs.length > 0);
  assert.deepEqual(first.refs, whole.refs, 'the first delta report is the whole report');
  assert.deepEqual((await booked(sb, id, '&deltaList=true', 1)).refs, [], 'nothing new since the last report access');
  const faultyId = await consent(faulty, true);
  await booked(faulty, faultyId, `&dateFrom=${since}`);
  assert.ok((await booked(faulty, faultyId, '&deltaList=true')).refs.length > 0, 'the fault bg-delta-list-repeats reports them again');
});
