/**
 * The NextGenPSD2 sandbox's payment cancellation (issue 28): DELETE /v1/payments/{product}/{paymentId}
 * cancels a payment not yet authorised at once (204, then CANC); a scheduled payment's cancellation
 * waits for the PSU (202 with startAuthorisation), whose authorisation is started, listed and read
 * at …/cancellation-authorisations and walked on the bank's redirect pages (forms posted by fetch:
 * no browser), after which the payment reads CANC; a payment past cancelling answers 405
 * CANCELLATION_INVALID. Every answer is valid against the OFFICIAL 1.3.12 file and the dialect's
 * judge finds nothing in it; each of the three faults of BG-40/BG-41 shows.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { bgSkip, officialValidator } from '../dialects/berlin-group-official.ts';
import { assertValid, bgCall } from '../helpers/bg-sandbox.ts';

type Json = any;
let sb: Sandbox;
let faulty: Sandbox;

before(async () => {
  // Compiled first: compiling the official file takes seconds, in which the sandbox would close the idle keep-alive socket the next request reuses.
  if (!bgSkip) for (const name of ['paymentInitiationCancelResponse-202', 'startScaprocessResponse', 'authorisations', 'scaStatusResponse'] as const) officialValidator(name);
  [sb, faulty] = await Promise.all([
    startSandbox({ dialect: 'berlin-group', quiet: true }),
    startSandbox({ dialect: 'berlin-group', quiet: true, faults: ['bg-cancelled-payment-not-canc', 'bg-cancellation-authorised-not-canc', 'bg-cancellation-authorisations-unlisted'] }),
  ]);
});
after(async () => {
  await Promise.all([sb?.stop(), faulty?.stop()]);
});

const call = bgCall;

const valid = assertValid;

const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const redirect = (bank: Sandbox) => ({ 'TPP-Redirect-URI': bank.clients[0].redirectUri, 'TPP-Redirect-Preferred': 'true' });

/** A payment of 1.00 from alice's first account, not authorised (due on `due` where given). */
async function payment(bank: Sandbox, due?: string): Promise<string> {
  const created = await call('POST', `${bank.baseUrls.A}/v1/payments/sepa-credit-transfers`, {
    headers: redirect(bank),
    body: {
      debtorAccount: { iban: (bank.psus[0]!.accounts[0] as { iban?: string }).iban }, instructedAmount: { currency: 'EUR', amount: '1.00' }, creditorAccount: { iban: 'DE02120300000000202051' },
      creditorName: 'obtpp test creditor', ...(due ? { requestedExecutionDate: due } : {}),
    },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.paymentId as string;
}

const status = async (bank: Sandbox, id: string) => (await call('GET', `${bank.baseUrls.A}/v1/payments/sepa-credit-transfers/${id}/status`)).body.transactionStatus as string;
const form = (url: string, fields: Record<string, string>) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });

/** DELETE, start, list, read and walk the cancellation's authorisation of a scheduled payment: the payment's status at the end, and the list. */
async function cancelScheduled(bank: Sandbox, decision: 'approve' | 'reject'): Promise<{ id: string; listed: string[]; final: string }> {
  const id = await payment(bank, day(7));
  const self = `${bank.baseUrls.A}/v1/payments/sepa-credit-transfers/${id}`;
  const deleted = await call('DELETE', self, { headers: redirect(bank) });
  assert.equal(deleted.status, 202, JSON.stringify(deleted.body));
  valid('paymentInitiationCancelResponse-202', deleted.body);
  assert.equal(deleted.body._links.startAuthorisation.href, `${self}/cancellation-authorisations`);
  assert.equal(await status(bank, id), 'RCVD', 'not cancelled before the PSU authorised it');
  const started = await call('POST', deleted.body._links.startAuthorisation.href, { headers: redirect(bank) });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  valid('startScaprocessResponse', started.body);
  assert.equal(started.headers.get('aspsp-sca-approach'), 'REDIRECT');
  const list = await call('GET', `${self}/cancellation-authorisations`);
  assert.equal(list.status, 200);
  valid('authorisations', list.body);
  const read = await call('GET', started.body._links.scaStatus.href);
  assert.equal(read.status, 200);
  valid('scaStatusResponse', read.body);
  assert.equal(read.body.scaStatus, 'received');
  // The payment's own authorisations are not the cancellation's.
  assert.ok(!(await call('GET', `${self}/authorisations`)).body.authorisationIds.includes(started.body.authorisationId));
  const sca = started.body._links.scaRedirect.href as string;
  const alice = bank.psus[0]!;
  assert.equal((await form(`${sca}/login`, { username: alice.username, password: alice.password })).status, 303);
  assert.equal((await form(`${sca}/confirm`, { decision })).status, 303, `the PSU chose ${decision}`);
  assert.equal((await call('GET', started.body._links.scaStatus.href)).body.scaStatus, decision === 'approve' ? 'finalised' : 'failed');
  return { id, listed: list.body.authorisationIds, final: await status(bank, id) };
}

test('a payment not yet authorised is cancelled by DELETE (204) and reads CANC; a second DELETE is refused 405 CANCELLATION_INVALID', async () => {
  const id = await payment(sb);
  const self = `${sb.baseUrls.A}/v1/payments/sepa-credit-transfers/${id}`;
  const deleted = await call('DELETE', self);
  assert.equal(deleted.status, 204);
  assert.equal(deleted.body, undefined);
  assert.equal(await status(sb, id), 'CANC');
  const again = await call('DELETE', self);
  assert.equal(again.status, 405);
  assert.equal(again.body.tppMessages[0].code, 'CANCELLATION_INVALID');
  // A cancellation nobody asked the PSU for cannot be authorised.
  assert.equal((await call('POST', `${self}/cancellation-authorisations`, { headers: redirect(sb) })).status, 409);
});

test('a scheduled payment\'s cancellation waits for the PSU (202), its authorisation is started, listed, read and authorised: the payment reads CANC', async () => {
  const { id, listed, final } = await cancelScheduled(sb, 'approve');
  assert.equal(listed.length, 1);
  assert.equal(final, 'CANC');
  // The PSU cannot authorise the payment any more.
  assert.equal((await call('DELETE', `${sb.baseUrls.A}/v1/payments/sepa-credit-transfers/${id}`)).status, 405);
});

test('a cancellation the PSU rejects leaves the payment as it was', async () => {
  assert.equal((await cancelScheduled(sb, 'reject')).final, 'RCVD');
});

test('the faults of BG-40 and BG-41: a 204 that cancels nothing, an authorised cancellation that cancels nothing, an empty list', async () => {
  const id = await payment(faulty);
  assert.equal((await call('DELETE', `${faulty.baseUrls.A}/v1/payments/sepa-credit-transfers/${id}`)).status, 204);
  assert.equal(await status(faulty, id), 'RCVD');
  const { listed, final } = await cancelScheduled(faulty, 'approve');
  assert.deepEqual(listed, []);
  assert.equal(final, 'RCVD');
});
