// `standard: uk-3.1`: a profile of a bank that serves UK Read/Write v3.1.11 at its official paths
// needs no path overrides; the embedded sandbox serves that layout beside the spec's; operations
// only the spec's layout has are not applicable there, never failed; a conformance run in the UK
// layout submits a payment through /pisp/domestic-payment-consents and /pisp/domestic-payments.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { NotApplicableError, TppClient } from '../../src/client/operations.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { ProfileError } from '../../src/errors.ts';
import { aisBody, Tpp } from '../sandbox/tpp.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const minimal = (extra: Record<string, unknown>) => ({
  name: 'uk bank', baseUrl: 'https://bank.example/open-banking/v3.1',
  auth: { issuer: 'https://as.bank.example', clientId: 'c', clientAuth: { method: 'client_secret_basic', secret: 's3cret' }, redirectUri: 'https://tpp.example/cb' },
  psu: { username: 'u', password: 'p', driver: { kind: 'manual' } },
  ...extra,
});

describe('standard uk-3.1: the profile', () => {
  test('places each API below its segment of the base URL, at the standard\'s paths, judged by variant A', async () => {
    const p = await profileFromObject(minimal({ standard: 'uk-3.1' }), { source: 'test', env: {} });
    assert.equal(p.standard, 'uk-3.1');
    assert.deepEqual(p.variants, ['A']);
    assert.equal(p.apis.ais?.baseUrl, 'https://bank.example/open-banking/v3.1/aisp');
    assert.equal(p.apis.cof?.baseUrl, 'https://bank.example/open-banking/v3.1/cbpii');
    assert.equal(p.apis.pis?.baseUrl, 'https://bank.example/open-banking/v3.1/pisp');
    const c = new TppClient(p, 'A', {} as never);
    assert.equal(c.pathOf('createPaymentConsent'), '/domestic-payment-consents');
    assert.equal(c.pathOf('submitPayment'), '/domestic-payments');
    assert.equal(c.pathOf('getPaymentFunds', { paymentId: 'pc-1' }), '/domestic-payment-consents/pc-1/funds-confirmation');
    assert.equal(c.pathOf('getPaymentDetails', { paymentOrderId: 'dp-1' }), '/domestic-payments/dp-1/payment-details');
    assert.equal(c.pathOf('listAccounts'), '/accounts');
    assert.equal(c.pathOf('createVrpConsent'), '/domestic-vrp-consents');
    assert.equal(c.pathOf('confirmVrpFunds', { consentId: 'v 1' }), '/domestic-vrp-consents/v%201/funds-confirmation');
    assert.equal(c.pathOf('getVrpDetails', { vrpId: 'd1' }), '/domestic-vrps/d1/payment-details');
    // An API the profile places itself keeps its place.
    const placed = await profileFromObject(minimal({ standard: 'uk-3.1', apis: { ais: { baseUrl: 'https://ais.bank.example/ob/aisp' } } }), { source: 'test', env: {} });
    assert.equal(placed.apis.ais?.baseUrl, 'https://ais.bank.example/ob/aisp');
    assert.equal(placed.apis.pis?.baseUrl, 'https://bank.example/open-banking/v3.1/pisp');
  });

  test('the operations only the spec\'s layout has are not applicable, in the standard\'s words', async () => {
    const p = await profileFromObject(minimal({ standard: 'uk-3.1' }), { source: 'test', env: {} });
    const c = new TppClient(p, 'A', {} as never);
    for (const op of ['getTransaction', 'getPaymentStatus'] as const) {
      assert.equal(c.supports(op), false, op);
      const why = c.unsupported(op);
      assert.ok(why instanceof NotApplicableError);
      assert.match(why.message, /is not an operation of UK Read\/Write v3\.1\.11/);
    }
    assert.equal(c.supports('getPaymentDetails'), true);
    // The same profile in the spec's layout has them.
    const spec = await profileFromObject(minimal({ variants: ['A'] }), { source: 'test', env: {} });
    assert.equal(new TppClient(spec, 'A', {} as never).supports('getPaymentStatus'), true);
  });

  test('contradictions are refused with the field named', async () => {
    const refused = async (raw: Record<string, unknown>, field: RegExp) => {
      await assert.rejects(profileFromObject(raw, { source: 'test', env: {} }), (e: unknown) => e instanceof ProfileError && field.test(e.message));
    };
    await refused(minimal({}), /\$\.variants: required/);
    await refused(minimal({ standard: 'uk-3.1', variants: ['A', 'B'] }), /\$\.variants: a uk-3\.1 profile is judged by variant A's rules only/);
    await refused(minimal({ standard: 'uk-3.1', dialect: 'berlin-group' }), /\$\.standard: uk-3\.1 is a UK standard/);
    await refused(minimal({ standard: 'uk-3.0' }), /standard/);
  });
});

describe('standard uk-3.1: the sandbox serves the layout', () => {
  let sb: Sandbox;
  let tpp: Tpp;
  before(async () => {
    sb = await startSandbox({ quiet: true });
    tpp = await Tpp.connect(sb);
  });
  after(async () => sb?.stop());

  test('consents and payments answer at the standard\'s paths, with Self links there; the spec\'s own paths are not there', async () => {
    const profile = await profileFromObject(sb.profile('uk-3.1'), { source: 'sandbox', env: {} });
    const client = new TppClient(profile, 'A', httpFromProfile(profile));
    const uk = `${sb.issuer}/open-banking/v3.1`;
    const ais = await client.createAccountAccessConsent(aisBody(), { token: await tpp.cc('accounts') });
    assert.equal(ais.status, 201, ais.text);
    assert.equal(ais.body.Links.Self, `${uk}/aisp/account-access-consents/${ais.body.Data.ConsentId}`);

    const pisToken = await tpp.cc('payments');
    const { buildPaymentConsent } = await import('../../src/dialects/obie/builders.ts');
    const consent = await client.createPaymentConsent(buildPaymentConsent({ instructionIdentification: 'i-1', endToEndIdentification: 'e-1', amount: '1.00', currency: 'GBP', creditor: { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '11223321325698', name: 'Receiver' } }), { token: pisToken });
    assert.equal(consent.status, 201, consent.text);
    const id = consent.body.Data.ConsentId as string;
    assert.equal(consent.body.Links.Self, `${uk}/pisp/domestic-payment-consents/${id}`);
    assert.equal(consent.signature?.valid, true, 'the answer is signed in the UK layout too');
    const read = await client.getPayment(id, { token: pisToken });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.Data.ConsentId, id);

    // The consent is not an order: /domestic-payments/{ConsentId} knows no such order.
    const asOrder = await client.getPaymentOrder(id, { token: pisToken });
    assert.equal(asOrder.status, 400, asOrder.text);
    // The spec's layout's paths are not the standard's.
    const status = await fetch(`${uk}/pisp/domestic-payment-consents/${id}/status`, { headers: { authorization: `Bearer ${pisToken}` } });
    assert.equal(status.status, 404);
    const consents = await fetch(`${uk}/aisp/consents`, { method: 'POST', headers: { authorization: `Bearer ${await tpp.cc('accounts')}`, 'content-type': 'application/json' }, body: JSON.stringify(aisBody()) });
    assert.equal(consents.status, 404);
    const bare = await fetch(`${uk}/accounts`);
    assert.equal(bare.status, 404, 'every UK path is below its API\'s segment');
  });
});

test('conform --standard uk-3.1: a payment is consented, authorised and submitted at the standard\'s paths, /status is not applicable, and every VRP rule passes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-uk-'));
  try {
    const code = (await runObtpp(['conform', '--standard', 'uk-3.1', '--tags', '@PIS-03 or @PIS-04 or @vrp', '--report-dir', join(dir, 'r'), '--json'], { cwd: dir, timeoutMs: 300_000 })).code;
    const summary = JSON.parse(await readFile(join(dir, 'r', 'summary.json'), 'utf8'));
    assert.equal(code, 0, JSON.stringify(summary.variants[0]?.rules.map((r: any) => [r.id, r.status, r.reason])));
    assert.deepEqual(summary.variants.map((v: any) => v.variant), ['A']);
    const rule = (id: string) => summary.variants[0].rules.find((r: any) => r.id === id);
    assert.equal(rule('PIS-04').status, 'passed');
    assert.equal(rule('PIS-03').status, 'passed');
    assert.ok(rule('PIS-03').counts.notApplicable >= 1);
    assert.match(rule('PIS-03').verdict, /not an operation of UK Read\/Write v3\.1\.11/);
    // Every VRP rule, judged and passed on the sandbox: a consent, then payments without the PSU.
    const vrp = summary.variants[0].rules.filter((r: any) => r.id.startsWith('VRP-') && r.id !== 'VRP-11');
    assert.equal(vrp.length, 10);
    assert.deepEqual(vrp.filter((r: any) => r.status !== 'passed').map((r: any) => [r.id, r.status]), []);
    // VRP-11, the update of a consent by PUT and PATCH, is v4.0's: not an operation of v3.1.11.
    assert.equal(rule('VRP-11').status, 'not-applicable');
    assert.match(rule('VRP-11').verdict, /not an operation of UK Read\/Write v3\.1\.11/);
    // The profile's only base is {issuer}/open-banking/v3.1, where the sandbox serves nothing but the
    // standard's paths (the test above): a passed PIS-04 went through them.
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
