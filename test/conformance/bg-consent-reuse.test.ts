// Issue 28, the trust defects of the Berlin Group dialect, on the embedded NextGenPSD2 sandbox:
// - the bank expires the PSU's former recurring consent once a new one is authorised (POST
//   /v1/consents, "Side Effects"); one run authorises many recurring consents for one PSU, and the
//   scenarios that read data still pass (each reads under a consent valid when used), BG-20 judges
//   the side effect itself and BG-21 the bookingStatus of the transactions;
// - a consent (a payment) created without a link to start the PSU's SCA fails AIS-01 (PIS-01), a
//   MUST, and the scenarios it blocks name that rule.
// Scoped runs of the library the CLI calls, in the test run's warm workers (conformWarm).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformWarm } from '../helpers/warm-cli.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-reuse-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ruleOf = (summary: any, variant: string, id: string) => summary.variants.find((v: any) => v.variant === variant)?.rules.find((r: any) => r.id === id);

test('many recurring consents for one PSU: the data scenarios read under a consent valid when used, and the former consent reads expired (BG-20); bookingStatus judged (BG-21)', async () => {
  // Ordered as the features run them: consents authorised between the data scenarios (AIS-04,
  // AIS-09, AIS-12, BG-20's two, BG-07's) each expire the consent authorised before.
  const rules = ['AIS-02', 'AIS-04', 'AIS-09', 'AIS-10', 'AIS-11', 'AIS-12', 'BG-07', 'BG-09', 'BG-20', 'BG-21', 'COF-05'];
  const { summary, exitCode } = await conformWarm({
    dialect: 'berlin-group', variant: 'all', tags: rules.map((r) => `@${r}`).join(' or '), reportDir: join(dir, 'clean'),
  });
  const failed = summary.variants.flatMap((v: any) => v.rules.filter((r: any) => r.status !== 'passed' && rules.includes(r.id))
    .map((r: any) => `${v.variant} ${r.id} ${r.status}: ${r.failures?.[0]?.message ?? r.notJudged?.[0]?.message ?? ''}`));
  assert.deepEqual(failed, [], 'every rule passes on a bank that expires the former recurring consent, as the standard says');
  assert.equal(exitCode, 0);
  for (const v of ['A', 'B']) {
    // BG-21's both scenarios were judged (the sandbox has pending transactions), not left unjudged.
    assert.equal(ruleOf(summary, v, 'BG-21').counts.passed, 2, JSON.stringify(ruleOf(summary, v, 'BG-21')));
    assert.equal(ruleOf(summary, v, 'BG-20').counts.passed, 1);
  }
});

test('a consent created without a link to start the PSU\'s SCA fails AIS-01, and the scenarios it blocks name AIS-01', async () => {
  const { summary, exitCode } = await conformWarm({
    dialect: 'berlin-group', variant: 'A', sandboxFaults: ['bg-consent-without-sca-link'], tags: '@AIS-01 or @AIS-10',
    reportDir: join(dir, 'no-link'),
  });
  assert.equal(exitCode, 1, 'a MUST failure, not an exit 0 with a warning');
  const ais01 = ruleOf(summary, 'A', 'AIS-01');
  assert.equal(ais01.status, 'failed');
  assert.match(ais01.failures[0].message, /gave no way to start the PSU's SCA: the redirect SCA approach .* needs _links\.scaRedirect/);
  const ais10 = ruleOf(summary, 'A', 'AIS-10');
  assert.equal(ais10.status, 'not-judged', JSON.stringify(ais10));
  assert.ok(ais10.notJudged.length >= 1);
  for (const n of ais10.notJudged) assert.equal(n.blockedBy, 'AIS-01', JSON.stringify(n));
});

test('a payment initiated without a link to start the PSU\'s SCA fails PIS-01, and the payment scenarios it blocks name PIS-01', async () => {
  const { summary, exitCode } = await conformWarm({
    dialect: 'berlin-group', variant: 'A', sandboxFaults: ['bg-payment-without-sca-link'], tags: '@PIS-01 or @BG-08',
    reportDir: join(dir, 'no-payment-link'),
  });
  assert.equal(exitCode, 1);
  const pis01 = ruleOf(summary, 'A', 'PIS-01');
  assert.equal(pis01.status, 'failed');
  assert.match(pis01.failures[0].message, /created the payment but gave no way to start the PSU's SCA/);
  const bg08 = ruleOf(summary, 'A', 'BG-08');
  assert.equal(bg08.status, 'not-judged', JSON.stringify(bg08));
  for (const n of bg08.notJudged) assert.equal(n.blockedBy, 'PIS-01', JSON.stringify(n));
});
