/**
 * The examiner meets the bank: the berlin-group dialect judges every kind of answer of the
 * berlin-group sandbox (built with the dialect's own builders and headers) and finds neither a
 * MUST failure nor a SHOULD warning. The PSU's redirect SCA is done by posting the bank's forms
 * (the browser walk is test/sandbox/berlin-group.test.ts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bgHeaders, buildConsent, buildFundsConfirmation, buildPaymentInitiation, compileAllBg, judgeBg, judgeBgError, judgeScaApproachHeader, linkOf, transactionsQuery, transactionsOf,
} from '../../src/dialects/berlin-group/index.ts';
import type { BgSchemaName } from '../../src/dialects/berlin-group/index.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';

let sb: Sandbox;
before(async () => {
  // Compiled before the bank starts: compiling a large schema between two calls blocks this process
  // (bank and TPP alike) for seconds on a busy machine, past the bank's keep-alive timeout, and the
  // next request on the idle connection is reset.
  compileAllBg();
  sb = await startSandbox({ dialect: 'berlin-group' });
});
after(() => sb?.stop());

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(url, { method, redirect: 'manual', headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', scaApproach: res.headers.get('aspsp-sca-approach') ?? undefined, body: text ? JSON.parse(text) : undefined };
}

function clean(name: BgSchemaName, body: unknown): void {
  assert.deepEqual(judgeBg(name, body), { must: [], should: [] }, name);
}

/** The PSU's SCA by the bank's forms: log in, tick, approve (303 back to the TPP). */
async function sca(href: string, tick: string[] = []): Promise<void> {
  const psu = sb.psus[0];
  const form = (data: Record<string, string | string[]>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(data)) for (const x of [v].flat()) p.append(k, x);
    return { method: 'POST', redirect: 'manual' as const, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: p.toString() };
  };
  assert.equal((await fetch(`${href}/login`, form({ username: psu.username, password: psu.password }))).status, 303);
  const done = await fetch(`${href}/confirm`, form({ decision: 'approve', accounts: tick }));
  assert.equal(done.status, 303);
  assert.equal(done.headers.get('location'), sb.clients[0].redirectUri);
}

test('every answer of the berlin-group sandbox passes the dialect\'s judge at both levels', async () => {
  const base = sb.baseUrls.A;
  const [current] = sb.psus[0].accounts;
  const created = await call('POST', `${base}/v1/consents`, bgHeaders({ psuIpAddress: '192.0.2.1', tppRedirectUri: sb.clients[0].redirectUri, tppRedirectPreferred: true }),
    buildConsent({ access: { accounts: [], balances: [], transactions: [] }, validUntil: new Date(Date.now() + 7 * 86_400_000) }));
  assert.equal(created.status, 201);
  clean('consentsResponse-201', created.body);
  assert.deepEqual(judgeScaApproachHeader(created.scaApproach, created.body), { must: [], should: [] }, 'the consent\'s ASPSP-SCA-Approach');
  const consentId = created.body.consentId as string;
  await sca(linkOf(created.body, 'scaRedirect')!, [current.AccountId]);
  clean('consentStatusResponse-200', (await call('GET', linkOf(created.body, 'status')!, bgHeaders())).body);
  clean('scaStatusResponse', (await call('GET', linkOf(created.body, 'scaStatus')!, bgHeaders())).body);
  clean('consentInformationResponse-200_json', (await call('GET', linkOf(created.body, 'self')!, bgHeaders())).body);
  clean('authorisations', (await call('GET', `${linkOf(created.body, 'self')}/authorisations`, bgHeaders())).body);

  const h = () => bgHeaders({ consentId, psuIpAddress: '192.0.2.1' });
  clean('accountList', (await call('GET', `${base}/v1/accounts?withBalance=true`, h())).body);
  clean('accountDetailsResponse', (await call('GET', `${base}/v1/accounts/${current.AccountId}`, h())).body);
  clean('readAccountBalanceResponse-200', (await call('GET', `${base}/v1/accounts/${current.AccountId}/balances`, h())).body);
  const txns = await call('GET', `${base}/v1/accounts/${current.AccountId}/transactions?${transactionsQuery({ bookingStatus: 'both', dateFrom: new Date(Date.now() - 30 * 86_400_000), withBalance: true })}`, h());
  clean('transactionsResponse-200_json', txns.body);
  const first = transactionsOf(txns.body, 'booked')[0];
  clean('transactionDetailsResponse', (await call('GET', linkOf(first, 'transactionDetails')!, h())).body);

  const funds = await call('POST', `${base}/v1/funds-confirmations`, bgHeaders(), buildFundsConfirmation({ account: { iban: current.iban! }, amount: '1.00', currency: 'EUR' }));
  clean('fundsConfirmationResponse200', funds.body);

  const payment = await call('POST', `${base}/v1/payments/instant-sepa-credit-transfers`, bgHeaders({ psuIpAddress: '192.0.2.1', tppRedirectUri: sb.clients[0].redirectUri }),
    buildPaymentInitiation({ debtor: { iban: current.iban! }, amount: '5.00', currency: 'EUR', creditor: { iban: 'FR7630006000011234567890189' }, creditorName: 'Merchant SA', remittance: 'Invoice 7' }));
  clean('paymentInitiationRequestResponse-201', payment.body);
  assert.deepEqual(judgeScaApproachHeader(payment.scaApproach, payment.body), { must: [], should: [] }, 'the payment\'s ASPSP-SCA-Approach');
  const oauth = await call('POST', `${base}/v1/consents`, bgHeaders({ psuIpAddress: '192.0.2.1' }), buildConsent({ access: { accounts: [] }, validUntil: new Date(Date.now() + 86_400_000) }));
  assert.deepEqual([oauth.scaApproach, judgeScaApproachHeader(oauth.scaApproach, oauth.body)], ['REDIRECT', { must: [], should: [] }], 'OAuth2 is the REDIRECT approach with scaOAuth');
  await sca(linkOf(payment.body, 'scaRedirect')!);
  clean('paymentInitiationStatusResponse-200_json', (await call('GET', linkOf(payment.body, 'status')!, bgHeaders())).body);
  clean('paymentInitiationWithStatusResponse', (await call('GET', linkOf(payment.body, 'self')!, bgHeaders())).body);

  for (const accept of ['application/json', 'application/problem+json']) {
    const refused = await call('GET', `${base}/v1/accounts`, { ...bgHeaders(), Accept: accept });
    assert.equal(refused.status, 400);
    assert.deepEqual(judgeBgError(refused.body, refused.contentType, refused.status), { must: [], should: [] }, accept);
  }
});
