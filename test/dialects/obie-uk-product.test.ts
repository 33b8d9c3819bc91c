// OBReadProduct2 is the one AIS answer the cross-check (obie-crosscheck.test.ts) leaves out: its
// BCA, PCA and OtherProductType detail (the product catalogue, hundreds of members) is judged as
// objects only. What is written is checked here against the official file: the product's own
// members, which are required, its ProductType list, and OtherProductType's required Name and Description.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OFFICIAL_SCHEMAS } from '../../src/dialects/obie/index.ts';
import { officialDoc, officialFilesPresent } from './official-bodies.ts';

test('OBReadProduct2: the product\'s own members agree with the official file; only the catalogue detail is open', { skip: officialFilesPresent ? false : 'official files not found' }, () => {
  const doc = officialDoc('account-info');
  const resolve = (s: any): any => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()]) : s);
  const official = resolve(resolve(resolve(doc.components.schemas.OBReadProduct2).properties.Data).properties.Product.items);
  const ours = (OFFICIAL_SCHEMAS.OBReadProduct2 as any).properties.Data.properties.Product.items;
  assert.deepEqual(Object.keys(ours.properties).sort(), Object.keys(official.properties).sort());
  assert.deepEqual([...ours.required].sort(), [...official.required].sort());
  assert.deepEqual([...ours.properties.ProductType.enum].sort(), [...resolve(official.properties.ProductType).enum].sort());
  for (const name of ['ProductName', 'ProductId', 'SecondaryProductId', 'MarketingStateId']) {
    const o = resolve(official.properties[name]);
    assert.deepEqual([ours.properties[name].minLength, ours.properties[name].maxLength], [o.minLength, o.maxLength], name);
  }
  assert.deepEqual([...ours.properties.OtherProductType.required].sort(), [...resolve(official.properties.OtherProductType).required].sort());
  // The documented gap: the catalogue detail is an open object here, closed (and deep) there.
  for (const name of ['BCA', 'PCA']) {
    assert.equal(ours.properties[name].properties, undefined, name);
    assert.equal(resolve(official.properties[name]).additionalProperties, false, name);
  }
});
