// Issue 28, card accounts (BG-30), on the embedded NextGenPSD2 sandbox: one run scoped to BG-30,
// in both variants, passes every scenario of the rule (none left not judged); the fault
// bg-card-accounts-unbounded is caught by BG-30 in test/conformance/conform.test.ts (every fault of
// the registry is), and shown at the bank in test/sandbox/bg-cards.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, runConformance } from '../../src/index.ts';

let browser: Awaited<ReturnType<typeof openBrowser>>;
let dir: string;
before(async () => {
  browser = await openBrowser();
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-cards-'));
});
after(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

test('BG-30: the card-account scenarios pass on a bank that bounds card accounts by the consent, in A and B', async () => {
  const { summary, exitCode } = await runConformance({
    dialect: 'berlin-group', variant: 'all', tags: '@BG-30', reportDir: join(dir, 'clean'), browser, env: { ...process.env, CI: 'true' },
  });
  for (const v of ['A', 'B']) {
    const rule = summary.variants.find((x: any) => x.variant === v)?.rules.find((r: any) => r.id === 'BG-30');
    assert.equal(rule?.status, 'passed', `${v}: ${JSON.stringify(rule)}`);
    assert.equal(rule.counts.passed, 3, `${v}: the three scenarios judged, none left not judged`);
  }
  assert.equal(exitCode, 0);
});
