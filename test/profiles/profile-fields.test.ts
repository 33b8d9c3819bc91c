// The profile fields that describe a real deployment: base URLs per API (and per variant), the
// operations the bank implements, the PSU's default account choice; loaded through the real
// loader, resolved by the real tpp client, requests sent to real loopback servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { profileFromObject, parseAccountChoice, baseUrlFor } from '../../src/profile/load.ts';
import { TppClient, NotApplicableError } from '../../src/client/operations.ts';
import { OPERATION_IDS } from '../../src/dialects/catalogue.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { ProfileError } from '../../src/errors.ts';
import { listenLoopback } from '../helpers/loopback.ts';

function base(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'split bank',
    variants: ['A', 'B'],
    baseUrl: 'https://ob.bank.example/open-banking/v3.1',
    auth: { issuer: 'https://auth.bank.example', clientId: 'c', clientAuth: { method: 'client_secret_post', secret: 's3cret-value' }, redirectUri: 'https://tpp.example/cb' },
    psu: { username: 'u', password: 'p4ssword', driver: { kind: 'sandbox' } },
    ...over,
  };
}

async function problems(raw: Record<string, unknown>): Promise<string[]> {
  try {
    await profileFromObject(raw, { source: 'test.yaml', env: {} });
  } catch (error) {
    assert.ok(error instanceof ProfileError);
    return error.problems;
  }
  return [];
}

test('a base URL per API and per variant, falling back to the variant\'s and then the profile\'s', async () => {
  const p = await profileFromObject(base({
    variantBaseUrls: { B: 'https://ob-b.bank.example/open-banking/v3.1/' },
    apis: {
      ais: { baseUrl: 'https://ob.bank.example/open-banking/v3.1/aisp/' },
      cof: { baseUrl: 'https://cbpii.bank.example/open-banking/v3.1/cbpii', variantBaseUrls: { B: 'https://cbpii-b.bank.example/cbpii' } },
    },
  }), { source: 'test.yaml', env: {} });
  assert.equal(baseUrlFor(p, 'A', 'ais'), 'https://ob.bank.example/open-banking/v3.1/aisp');
  assert.equal(baseUrlFor(p, 'B', 'ais'), 'https://ob.bank.example/open-banking/v3.1/aisp');
  assert.equal(baseUrlFor(p, 'A', 'cof'), 'https://cbpii.bank.example/open-banking/v3.1/cbpii');
  assert.equal(baseUrlFor(p, 'B', 'cof'), 'https://cbpii-b.bank.example/cbpii');
  assert.equal(baseUrlFor(p, 'A', 'pis'), 'https://ob.bank.example/open-banking/v3.1');
  assert.equal(baseUrlFor(p, 'B', 'pis'), 'https://ob-b.bank.example/open-banking/v3.1');
  assert.equal(baseUrlFor(p, 'B'), 'https://ob-b.bank.example/open-banking/v3.1');
});

test('baseUrl may be left out when apis gives ais and every API the bank offers its own; an API left out is not offered', async () => {
  const { baseUrl: _drop, ...noBase } = base();
  const apis = { ais: { baseUrl: 'https://a.example/aisp' }, cof: { baseUrl: 'https://c.example/cbpii' }, pis: { baseUrl: 'https://p.example/pisp' } };
  const p = await profileFromObject({ ...noBase, apis }, { source: 'test.yaml', env: {} });
  assert.equal(p.baseUrl, 'https://a.example/aisp');
  assert.equal(p.absentApis, undefined);
  // A bank without CBPII: no cof, and funds confirmation is not offered (issue 24, item 8).
  const noCbpii = await profileFromObject({ ...noBase, apis: { ais: apis.ais, pis: apis.pis } }, { source: 'test.yaml', env: {} });
  assert.deepEqual(noCbpii.absentApis, ['cof']);
  const client = new TppClient(noCbpii, 'A', httpFromProfile(noCbpii));
  assert.equal(client.supports('createFundsConsent'), false);
  assert.equal(client.supports('createPaymentConsent'), true);
  assert.equal(client.unsupported('confirmFunds').message, 'the profile gives no base URL for cof (apis.cof): the bank does not offer confirmFunds (variant A)');
  await client.http.close();
  assert.deepEqual(await problems({ ...noBase, apis: { cof: apis.cof, pis: apis.pis } }), [
    '$.apis.ais: is required but missing',
    '$.baseUrl: is required, unless apis gives a baseUrl to ais and to each other API the bank offers',
  ]);
  assert.deepEqual(await problems(noBase), ['$.baseUrl: is required, unless apis gives a baseUrl to ais and to each other API the bank offers']);
  assert.deepEqual(await problems(base({ apis: { aisp: { baseUrl: 'https://a.example' } } })), ['$.apis.aisp: unknown field (not allowed here)']);
  assert.deepEqual(await problems(base({ apis: { ais: { baseUrl: 'ftp://a.example' } } })), ['$.apis.ais.baseUrl: expected an absolute http(s) URL']);
});

test('each API\'s requests go to its own server', async () => {
  const seen: Record<string, string[]> = { ais: [], cof: [], pis: [] };
  const servers = await Promise.all((['ais', 'cof', 'pis'] as const).map((api) => listenLoopback(createServer((req, res) => {
    seen[api]!.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"Data":{}}');
  }))));
  try {
    const [ais, cof, pis] = servers.map((s) => s.base);
    const p = await profileFromObject(base({
      variants: ['A'],
      apis: { ais: { baseUrl: `${ais}/open-banking/v3.1/aisp` }, cof: { baseUrl: `${cof}/open-banking/v3.1/cbpii` }, pis: { baseUrl: `${pis}/open-banking/v3.1/pisp` } },
      paths: { paymentProduct: 'domestic-payment-consents', paymentOrders: '/domestic-payments' },
    }), { source: 'test.yaml', env: {} });
    const http = httpFromProfile(p);
    const client = new TppClient(p, 'A', http);
    await client.listAccounts({ token: 't' });
    await client.confirmFunds({ Data: {} }, { token: 't' });
    await client.getPaymentStatus('pay-1', { token: 't' });
    await client.submitPayment({ Data: {} }, { token: 't' });
    await client.getPaymentOrder('dp-1', { token: 't' });
    await client.getPaymentDetails('dp-1', { token: 't' });
    await client.getPaymentFunds('pay-1', { token: 't' });
    await http.close();
    assert.deepEqual(seen, {
      ais: ['GET /open-banking/v3.1/aisp/accounts'],
      cof: ['POST /open-banking/v3.1/cbpii/funds-confirmations'],
      pis: [
        'GET /open-banking/v3.1/pisp/domestic-payment-consents/pay-1/status',
        'POST /open-banking/v3.1/pisp/domestic-payments',
        'GET /open-banking/v3.1/pisp/domestic-payments/dp-1',
        'GET /open-banking/v3.1/pisp/domestic-payments/dp-1/payment-details',
        'GET /open-banking/v3.1/pisp/domestic-payment-consents/pay-1/funds-confirmation',
      ],
    });
    assert.equal(client.baseUrl, `${ais}/open-banking/v3.1/aisp`);
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
});

test('operations the profile does not list are not applicable, with the reason, and nothing is sent', async () => {
  let requests = 0;
  const server = await listenLoopback(createServer((_req, res) => {
    requests++;
    res.writeHead(200).end('{}');
  }));
  try {
    const p = await profileFromObject(base({
      baseUrl: server.base,
      implements: { A: ['createAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions', 'createFundsConsent', 'confirmFunds'] },
    }), { source: 'test.yaml', env: {} });
    const http = httpFromProfile(p);
    const a = new TppClient(p, 'A', http);
    const b = new TppClient(p, 'B', http);
    assert.equal(a.supports('listAccounts'), true);
    assert.equal(a.supports('getTransaction'), false);
    assert.equal(a.supports('deleteFundsConsent'), false);
    // No list for B: every operation of the variant.
    assert.equal(b.supports('getTransactions'), true);
    assert.equal(b.supports('getTransaction'), false);
    await assert.rejects(a.getTransaction('acc', 'tx', { token: 't' }), (e: unknown) => {
      assert.ok(e instanceof NotApplicableError);
      assert.equal(e.message, 'the profile says the bank does not offer getTransaction (variant A)');
      return true;
    });
    // What the variant itself lacks keeps its own reason.
    await assert.rejects(b.getTransaction('acc', 'tx', { token: 't' }), (e: unknown) => e instanceof NotApplicableError && !/the profile says/.test(e.message));
    await a.listAccounts({ token: 't' });
    await http.close();
    assert.equal(requests, 1, 'only the offered operation reached the bank');
  } finally {
    await server.close();
  }
  // The names a profile may list are the standards' catalogues' operations (src/dialects/catalogue.ts).
  assert.ok(['listAccounts', 'getTransaction', 'submitPayment', 'getPaymentFunds', 'getConsentStatus'].every((op) => (OPERATION_IDS as readonly string[]).includes(op)));
  assert.deepEqual(await problems(base({ implements: ['listAccounts', 'getAccounts'] })), [
    `$.implements[1]: expected one of ${OPERATION_IDS.map((op) => `"${op}"`).join(', ')}`,
    '$.implements: expected a list of operation names, or { A: [...], B: [...] }',
  ]);
  const listed = await profileFromObject(base({ implements: ['listAccounts'] }), { source: 'test.yaml', env: {} });
  assert.deepEqual(listed.implements, { A: ['listAccounts'], B: ['listAccounts'] });
});

test('the PSU\'s default account choice: all, first, first:N, or names', async () => {
  assert.deepEqual(parseAccountChoice('all'), { pick: 'all' });
  assert.deepEqual(parseAccountChoice(['first']), { pick: 'first' });
  assert.deepEqual(parseAccountChoice('first:3'), { pick: 'first-n', n: 3 });
  assert.deepEqual(parseAccountChoice(['70000170000001', 'Joint']), { ids: ['70000170000001', 'Joint'] });
  assert.deepEqual(parseAccountChoice(['1']), { ids: ['1'] }, 'a number is a name, never a position');
  assert.equal(parseAccountChoice(undefined), undefined);
  const p = await profileFromObject(base({ psu: { username: 'u', password: 'p4ssword', driver: { kind: 'sandbox' }, accounts: 'first:2' } }), { source: 'test.yaml', env: {} });
  assert.deepEqual(p.psu.accounts, { pick: 'first-n', n: 2 });
  assert.deepEqual(await problems(base({ psu: { username: 'u', password: 'p4ssword', driver: { kind: 'sandbox' }, accounts: 'second' } })), [
    '$.psu.accounts: expected all, first, first:N, or a list of account names',
  ]);
});
