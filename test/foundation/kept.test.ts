import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeptPromises, KeptValues } from '../../src/kept.ts';

test('KeptPromises: one promise per key for every caller; a rejected one and, with maxAgeMs, an old one are made again', async (t) => {
  let made = 0;
  const kept = new KeptPromises<string, number>();
  const first = kept.get('a', async () => ++made);
  assert.equal(kept.get('a', async () => ++made), first);
  assert.equal(await first, 1);
  assert.equal(await kept.get('b', async () => ++made), 2);

  const failing = kept.get('c', async () => { throw new Error('no'); });
  await assert.rejects(failing);
  assert.equal(await kept.get('c', async () => 42), 42);

  t.mock.timers.enable({ apis: ['Date'], now: 0 });
  const aged = new KeptPromises<string, number>({ maxAgeMs: 1000 });
  const young = aged.get('k', async () => 1);
  t.mock.timers.tick(999);
  assert.equal(aged.get('k', async () => 2), young);
  t.mock.timers.tick(1);
  assert.equal(await aged.get('k', async () => 2), 2);
});

test('KeptValues: a value per key, computed once; past the bound the oldest key is computed again', () => {
  let made = 0;
  const kept = new KeptValues<number>(2);
  assert.equal(kept.get('x', () => ++made), 1);
  assert.equal(kept.get('x', () => ++made), 1);
  assert.equal(kept.get('y', () => ++made), 2);
  assert.equal(kept.get('z', () => ++made), 3);
  assert.equal(kept.get('y', () => ++made), 2);
  assert.equal(kept.get('x', () => ++made), 4);
});
