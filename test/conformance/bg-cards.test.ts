// Issue 28, card accounts (BG-30), withBalance (BG-31), paging by _links.next (BG-32) and the global
// consents (BG-33), on the embedded NextGenPSD2 sandbox: one
// run scoped to these rules, in variant A, passes every scenario (none left not judged); the
// faults bg-card-accounts-unbounded, bg-with-balance-unbounded, bg-card-pages-overlap and
// bg-available-accounts-open-data are caught by their rules in
// test/conformance/conform.test.ts (every fault of the registry is), and shown at the bank in
// test/sandbox/bg-cards.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformWarm } from '../helpers/warm-cli.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-cards-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('BG-30 … BG-33: the card-account, withBalance, paging and global-consent scenarios pass on a bank that bounds them by the consent (variant A)', async () => {
  const { summary, exitCode } = await conformWarm({
    dialect: 'berlin-group', variant: 'A', tags: '@BG-30 or @BG-31 or @BG-32 or @BG-33', reportDir: join(dir, 'clean'),
  });
  // Variant A only: the rules read the same in B, and test/conformance/berlin-group-conform.test.ts runs them there.
  for (const v of ['A']) {
    const rule = summary.variants.find((x: any) => x.variant === v)?.rules.find((r: any) => r.id === 'BG-30');
    assert.equal(rule?.status, 'passed', `${v}: ${JSON.stringify(rule)}`);
    assert.equal(rule.counts.passed, 3, `${v}: the three scenarios judged, none left not judged`);
    const withBalance = summary.variants.find((x: any) => x.variant === v)?.rules.find((r: any) => r.id === 'BG-31');
    assert.equal(withBalance?.status, 'passed', `${v}: ${JSON.stringify(withBalance)}`);
    assert.equal(withBalance.counts.passed, 2, `${v}: the accounts' and the card accounts' scenarios`);
    const paging = summary.variants.find((x: any) => x.variant === v)?.rules.find((r: any) => r.id === 'BG-32');
    assert.equal(paging?.status, 'passed', `${v}: ${JSON.stringify(paging)}`);
    assert.equal(paging.counts.passed, 2, `${v}: the paged card and account reports were followed and judged, not left not judged`);
    const global = summary.variants.find((x: any) => x.variant === v)?.rules.find((r: any) => r.id === 'BG-33');
    assert.equal(global?.status, 'passed', `${v}: ${JSON.stringify(global)}`);
    assert.equal(global.counts.passed, 2);
  }
  assert.equal(exitCode, 0);
});
