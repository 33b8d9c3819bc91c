/**
 * A payment-order consent that a scenario submits is prepared ahead of the scenario and handed out
 * once, keyed by its amount (step-definitions/support/setups.ts, freshPayment): two scenarios of one
 * variant naming the same amount would share a consent one of them consumes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const FRESH = [
  /the PSU has authorised a fresh payment-order consent for ([\d.]+) /,
  /the PISP has submitted the payment order of a fresh authorised consent for ([\d.]+)$/,
];

test('every fresh payment-order consent of the features names an amount no other scenario uses', () => {
  const dir = join(import.meta.dirname, '..', '..', 'features');
  const seen = new Map<string, string>();
  for (const file of readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.feature'))) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const pattern of FRESH) {
        const m = pattern.exec(line.trim());
        if (!m) continue;
        const amount = Number(m[1]).toFixed(2);
        const where = `${file}:${i + 1}`;
        assert.equal(seen.get(amount), undefined, `the fresh consent for ${amount} is asked for at ${seen.get(amount)} and at ${where}`);
        seen.set(amount, where);
      }
    });
  }
  assert.ok(seen.size >= 6, `expected the submission scenarios' fresh consents, found ${seen.size}`);
});
