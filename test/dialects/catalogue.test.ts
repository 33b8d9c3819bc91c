// Operations as data: each standard's catalogue is consistent with the rest of its folder (every
// answer schema it names exists in the dialect's schema set, every builder in its builders module,
// every profile path it reads has a default and a place in the profile's schema), the client's
// paths for the UK operations are the ones the spec's tables and the UK standard write, and the
// client's methods, the profile's `implements` and the not-applicable words all come from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOGUES, OPERATION_IDS, groupOf, groupsOf, pathKeysOf, type DialectName } from '../../src/dialects/catalogue.ts';
import { PAYMENT_FAMILIES } from '../../src/dialects/obie/payment-family-builders.ts';
import { SCHEMA_NAMES } from '../../src/dialects/obie/schemas/index.ts';
import { BG_SCHEMA_NAMES } from '../../src/dialects/berlin-group/schemas/index.ts';
import * as obieBuilders from '../../src/dialects/obie/builders.ts';
import * as bgBuilders from '../../src/dialects/berlin-group/builders.ts';
import { profileSchema } from '../../src/profile/schema.ts';
import { DEFAULTS, profileFromObject } from '../../src/profile/load.ts';
import { standardOf } from '../../src/standards/registry.ts';
import { NotApplicableError, TppClient, UnfilledPathError, UnusableIdError } from '../../src/client/operations.ts';
import type { HttpClient } from '../../src/client/http.ts';

const SCHEMAS: Record<DialectName, readonly string[]> = { obie: SCHEMA_NAMES, 'berlin-group': BG_SCHEMA_NAMES };
const BUILDERS: Record<DialectName, Record<string, unknown>> = { obie: obieBuilders, 'berlin-group': bgBuilders };
const PATH_DEFAULTS: Record<DialectName, Record<string, string>> = { obie: DEFAULTS.paths, 'berlin-group': { ...DEFAULTS.paths, ...standardOf('berlin-group').profile.paths!(undefined) } };

test('each catalogue names only schemas, builders and profile paths its standard has', () => {
  const schemaPaths = Object.keys((profileSchema.properties.paths as { properties: Record<string, unknown> }).properties);
  for (const [dialect, catalogue] of Object.entries(CATALOGUES) as Array<[DialectName, (typeof CATALOGUES)[DialectName]]>) {
    assert.ok(Object.keys(catalogue).length >= 10, dialect);
    for (const [id, spec] of Object.entries(catalogue)) {
      const where = `${dialect} ${id}`;
      for (const schema of Object.values(spec.responses)) if (schema !== null) assert.ok(SCHEMAS[dialect].includes(schema), `${where}: schema ${schema}`);
      assert.ok(Object.keys(spec.responses).every((s) => /^[1-5]\d\d$/.test(s)), `${where}: statuses`);
      if ('builder' in spec) assert.equal(typeof BUILDERS[dialect][spec.builder], 'function', `${where}: builder ${spec.builder}`);
      assert.equal(spec.body, ['POST', 'PUT', 'PATCH'].includes(spec.method), `${where}: a body exactly on writes`);
      assert.deepEqual([...spec.path.matchAll(/\{(?!@)([\w-]+)\}/g)].map((m) => m[1]).filter((n) => n !== 'payment-product'), spec.ids.filter((n) => spec.path.includes(`{${n}}`)), `${where}: ids in path order`);
      assert.ok(spec.variants.length > 0 && spec.words.length > 0, where);
      if ('permissions' in spec) for (const p of spec.permissions) assert.ok((obieBuilders.PERMISSIONS as readonly string[]).includes(p), `${where}: permission ${p}`);
    }
    for (const key of pathKeysOf(catalogue)) {
      assert.equal(typeof PATH_DEFAULTS[dialect][key], 'string', `${dialect}: paths.${key} has a default`);
      assert.ok(schemaPaths.includes(key), `${dialect}: paths.${key} is in the profile's schema`);
    }
  }
});

test('the catalogues\' groups are whole: each payment family, authorisation sub-resource and read has its parts, each once', () => {
  const parts: Record<'payment-family' | 'authorisation' | 'read', { need: string[]; may: string[] }> = {
    'payment-family': { need: ['create', 'get', 'submit', 'order', 'details'], may: ['funds'] },
    authorisation: { need: ['start', 'list', 'update', 'status'], may: [] },
    read: { need: [], may: ['one', 'every'] },
  };
  for (const [dialect, catalogue] of Object.entries(CATALOGUES) as Array<[DialectName, (typeof CATALOGUES)[DialectName]]>) {
    for (const kind of ['payment-family', 'authorisation', 'read'] as const) {
      const { need, may } = parts[kind];
      for (const of of groupsOf(catalogue, kind)) {
        const found = Object.keys(groupOf(catalogue, kind, of));
        for (const part of need) assert.ok(found.includes(part), `${dialect} ${kind} ${of}: has its ${part}`);
        for (const part of found) assert.ok([...need, ...may].includes(part), `${dialect} ${kind} ${of}: ${part} is a part of a ${kind}`);
        assert.ok(found.length > 0, `${dialect} ${kind} ${of}`);
      }
    }
  }
  assert.deepEqual(groupsOf(CATALOGUES.obie, 'payment-family'), [...PAYMENT_FAMILIES], 'the UK catalogue groups every payment family, in the builders\' order');
  assert.deepEqual(groupsOf(CATALOGUES['berlin-group'], 'authorisation'), ['consent', 'payment', 'cancellation', 'basket']);
  assert.deepEqual(groupOf(CATALOGUES.obie, 'read', 'direct-debits'), { one: 'getDirectDebits', every: 'listDirectDebits' });
  assert.throws(() => groupOf({ a: { ...CATALOGUES.obie.getBalances }, b: { ...CATALOGUES.obie.getBalances } }, 'read', 'balances'), /two operations as one/);
});

test('the profile\'s implements lists exactly the catalogues\' operations, and the client has a method for each', () => {
  const implementsEnum = (profileSchema.properties.implements as { oneOf: Array<{ items?: { enum: readonly string[] } }> }).oneOf[0]!.items!.enum;
  assert.deepEqual([...implementsEnum].sort(), [...OPERATION_IDS].sort());
  for (const id of OPERATION_IDS) assert.equal(typeof (TppClient.prototype as unknown as Record<string, unknown>)[id], 'function', id);
});

async function client(dialect: 'obie' | 'berlin-group', variant: 'A' | 'B' = 'A', paths: Record<string, string> = {}) {
  const profile = await profileFromObject({
    name: 'catalogue', dialect, variants: ['A', 'B'], baseUrl: 'https://bank.example/api', paths,
    auth: { issuer: 'https://bank.example', clientId: 'c', clientAuth: { method: 'client_secret_basic', secret: 's3cret' }, redirectUri: 'https://tpp.example/cb' },
    psu: { username: 'u', password: 'p', driver: { kind: 'manual' } },
  }, { source: 'test', env: {} });
  return new TppClient(profile, variant, {} as HttpClient);
}

test('the UK operations\' paths are the spec\'s tables and the UK standard\'s, ids encoded as one segment', async () => {
  const c = await client('obie');
  const ids = { consentId: 'c 1', accountId: 'a/1', resourceId: 't?1', paymentId: 'p#1', paymentOrderId: 'o1' };
  const expected: Record<string, string> = {
    createAccountAccessConsent: '/account-access-consents', getAccountAccessConsent: '/account-access-consents/c%201',
    deleteAccountAccessConsent: '/account-access-consents/c%201', listAccounts: '/accounts', getAccount: '/accounts/a%2F1',
    getBalances: '/accounts/a%2F1/balances', getBeneficiaries: '/accounts/a%2F1/beneficiaries', getTransactions: '/accounts/a%2F1/transactions', getTransaction: '/a%2F1/transactions/t%3F1',
    createFundsConsent: '/funds-confirmation-consents', getFundsConsent: '/funds-confirmation-consents/c%201',
    deleteFundsConsent: '/funds-confirmation-consents/c%201', confirmFunds: '/funds-confirmations',
    createPaymentConsent: '/domestic-payments', getPayment: '/domestic-payments/p%231', getPaymentStatus: '/domestic-payments/p%231/status',
    submitPayment: '/domestic-payments', getPaymentOrder: '/domestic-payments/o1', getPaymentDetails: '/domestic-payments/o1/payment-details',
    getPaymentFunds: '/domestic-payments/p%231/funds-confirmation',
  };
  // Every operation the spec's layout has; the ones only the published standard has are not applicable in it.
  const specLayout = Object.entries(CATALOGUES.obie as Record<string, { standards?: readonly string[] }>).filter(([, o]) => !o.standards || o.standards.includes('spec')).map(([k]) => k);
  assert.deepEqual(Object.keys(expected).sort(), specLayout.sort());
  for (const [op, path] of Object.entries(expected)) assert.equal(c.pathOf(op as never, ids), path, op);
  for (const op of Object.keys(CATALOGUES.obie).filter((k) => !specLayout.includes(k))) {
    assert.equal(c.supports(op as never), false, op);
    assert.match(c.unsupported(op as never).message, /is not an operation of the spec's layout/, op);
  }
  // A UK bank's own layout, through the profile's paths.
  const uk = await client('obie', 'A', { paymentProduct: 'domestic-payment-consents', paymentOrders: '/domestic-payments', paymentStatus: '/{payment-product}/{paymentId}' });
  assert.equal(uk.pathOf('createPaymentConsent'), '/domestic-payment-consents');
  assert.equal(uk.pathOf('getPaymentOrder', { paymentOrderId: 'dp1' }), '/domestic-payments/dp1');
  assert.equal(uk.pathOf('getPaymentStatus', { paymentId: 'p1' }), '/domestic-payment-consents/p1');
  // A missing id is never sent as a placeholder; a dot segment never reaches another path.
  assert.throws(() => c.pathOf('getBalances', {}), (e: unknown) => e instanceof UnfilledPathError && e.placeholder === '{accountId}');
  assert.throws(() => c.pathOf('getBalances', { accountId: '..' }), UnusableIdError);
});

test('the Berlin Group operations\' paths are NextGenPSD2\'s, and what the standard lacks is not applicable in its words', async () => {
  const c = await client('berlin-group');
  assert.equal(c.pathOf('getConsentStatus', { consentId: 'k1' }), '/v1/consents/k1/status');
  assert.equal(c.pathOf('getTransaction', { accountId: 'acc', resourceId: 'tx' }), '/v1/accounts/acc/transactions/tx');
  assert.equal(c.pathOf('getPaymentStatus', { paymentId: 'p1' }), '/v1/payments/sepa-credit-transfers/p1/status');
  assert.equal(c.supports('submitPayment'), false);
  const refused = c.unsupported('submitPayment');
  assert.ok(refused instanceof NotApplicableError);
  assert.match(refused.message, /^submitting a payment \(obtpp payment submit\) is not an operation of the NextGenPSD2 \(berlin-group\) standard/);
  await assert.rejects(c.submitPayment({}), NotApplicableError);
  // Variant B lists no payment initiation; the UK standard has no consent-status read.
  const b = await client('obie', 'B');
  assert.equal(b.supports('createPaymentConsent'), false);
  assert.match(b.unsupported('createPaymentConsent').message, /^payment initiation \(obtpp consent create pis\) is not part of variant B$/);
  assert.equal(b.supports('getConsentStatus'), false);
});
