/**
 * The berlin-group profile field `paymentProducts` (issue 28): the JSON payment products the bank
 * offers (BG-44 runs a payment of each, the others are not applicable). Defaults to the product of
 * `paths.paymentProduct`; only the four JSON products are accepted; a UK profile has none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profileFromObject } from '../../src/profile/load.ts';

const bg = {
  name: 'bg', dialect: 'berlin-group', variants: ['A'], baseUrl: 'https://bank.example/psd2',
  sca: { approaches: ['redirect'], redirectUri: 'https://tpp.example/back' },
  psu: { username: 'u', password: 'p', driver: { kind: 'sandbox' } },
};

test('paymentProducts: the products listed, else paths.paymentProduct alone', async () => {
  assert.deepEqual((await profileFromObject(bg, { source: 'bg.yaml' })).paymentProducts, ['sepa-credit-transfers']);
  assert.deepEqual((await profileFromObject({ ...bg, paths: { paymentProduct: 'instant-sepa-credit-transfers' } }, { source: 'bg.yaml' })).paymentProducts, ['instant-sepa-credit-transfers']);
  const listed = ['target-2-payments', 'cross-border-credit-transfers'];
  assert.deepEqual((await profileFromObject({ ...bg, paymentProducts: listed }, { source: 'bg.yaml' })).paymentProducts, listed);
});

test('paymentProducts: an unknown product, an empty or repeating list, and a UK profile are refused', async () => {
  for (const bad of [['pain.001-sepa'], ['sepa'], [], ['target-2-payments', 'target-2-payments']]) {
    await assert.rejects(profileFromObject({ ...bg, paymentProducts: bad }, { source: 'bg.yaml' }), /\$\.paymentProducts/, JSON.stringify(bad));
  }
  const { dialect: _d, sca: _s, ...uk } = bg;
  await assert.rejects(profileFromObject({ ...uk, auth: { issuer: 'https://bank.example', clientId: 'c', redirectUri: 'https://tpp.example/back' }, paymentProducts: ['sepa-credit-transfers'] }, { source: 'uk.yaml' }), /\$\.paymentProducts: only for dialect berlin-group/);
});
