// Issue 28, the pain.001 payment products (BG-45) and the card account reports (BG-34 bookingStatus,
// BG-35 dateFrom/dateTo, BG-36 withBalance on card accounts) on the embedded NextGenPSD2 sandbox:
// one run scoped to these rules, in variant A, passes every scenario with no warning and none left
// not judged. Their faults (bg-pain001-read-back-changed, bg-pain001-control-sum-unchecked,
// bg-card-booking-status-ignored, bg-card-dates-ignored, bg-card-with-balance-ignored, and BG-31's
// bg-card-with-balance-unbounded) are caught by their rules in test/conformance/conform.test.ts
// (every fault of the registry is); the bank's side is test/sandbox/bg-pain001.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformWarm } from '../helpers/warm-cli.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-xml-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('BG-45 and BG-34 … BG-36: the pain.001 products and the card reports pass on the sandbox, every scenario judged, no warning (variant A)', async () => {
  const { summary, exitCode } = await conformWarm({
    dialect: 'berlin-group', variant: 'A', tags: '@BG-45 or @BG-34 or @BG-35 or @BG-36', reportDir: join(dir, 'clean'),
  });
  const rules = summary.variants.find((x: any) => x.variant === 'A')!.rules;
  // BG-45: the four pain.001 products the sandbox's profile lists, the bulk, the pain.002 status and the refused counts.
  for (const [id, scenarios] of [['BG-45', 8], ['BG-34', 1], ['BG-35', 1], ['BG-36', 1]] as const) {
    const rule = rules.find((r: any) => r.id === id);
    assert.equal(rule?.status, 'passed', `${id}: ${JSON.stringify(rule)}`);
    assert.equal(rule.counts.passed, scenarios, `${id}: every scenario judged, none left not judged`);
  }
  assert.equal(summary.totals.warnings, 0, 'the sandbox carries the balances the consent grants (BG-36)');
  assert.equal(exitCode, 0);
});
