/**
 * The NextGenPSD2 sandbox's one-off consents (BG-52): recurringIndicator false is "for one
 * access": once an access session has read balances or transactions, a new access (the account
 * or card-account list read again) is refused with 401 CONSENT_EXPIRED and the consent reads
 * expired; a recurring consent is not; the fault bg-one-off-consent-reusable never ends the
 * session. The PSU's SCA is the redirect page's two forms posted by fetch: no browser.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';

type Json = any;
let sb: Sandbox;
let faulty: Sandbox;
before(async () => {
  [sb, faulty] = await Promise.all([startSandbox({ dialect: 'berlin-group' }), startSandbox({ dialect: 'berlin-group', faults: ['bg-one-off-consent-reusable'] })]);
});
after(async () => {
  await Promise.all([sb?.stop(), faulty?.stop()]);
});

async function call(method: string, url: string, o: { headers?: Record<string, string>; body?: unknown } = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, {
    method, redirect: 'manual',
    headers: { 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

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
