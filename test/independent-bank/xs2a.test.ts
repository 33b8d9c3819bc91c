// `obtpp conform` on Larchmont Bank's NextGenPSD2 interface (test/independent-bank/xs2a.ts),
// written from the official 1.3.12 file without obtpp's code: the redirect SCA approach only, its
// own sign-in and decision pages, and the file's side effect that authorising a recurring consent
// expires the PSU's former one. One run authorises many recurring consents for one PSU: no rule
// may fail for it (issue 28: the harness must not keep a consent past its expiry). Real sockets,
// real Chromium, the real binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIndependentXs2a } from './xs2a.ts';
import { runObtpp } from '../helpers/obtpp.ts';

test('obtpp conform --profile passes Larchmont\'s NextGenPSD2 interface with no false failure, several recurring consents for one PSU included', async () => {
  const bank = await startIndependentXs2a();
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-larchmont-xs2a-'));
  try {
    const file = join(dir, 'larchmont-xs2a.yaml');
    await writeFile(file, `# Larchmont Bank, NextGenPSD2 1.3.12, redirect SCA only.
name: Larchmont Bank XS2A (independent test bank)
dialect: berlin-group
variants: [A]
baseUrl: ${bank.baseUrl}
implements:
  A: [createAccountAccessConsent, getAccountAccessConsent, getConsentStatus, deleteAccountAccessConsent,
      listAccounts, getAccount, getBalances, getTransactions, getTransaction, confirmFunds,
      createPaymentConsent, getPayment, getPaymentStatus,
      cancelPayment, startPaymentCancellationAuthorisation, listPaymentCancellationAuthorisations, getPaymentCancellationScaStatus,
      createPeriodicPayment, getPeriodicPayment, getPeriodicPaymentStatus, createBulkPayment, getBulkPayment, getBulkPaymentStatus]
paymentProducts: [sepa-credit-transfers, instant-sepa-credit-transfers]
sca:
  approaches: [redirect]
auth:
  issuer: ${bank.issuer}
  clientId: larchmont-tpp
  # The profile still names a client (a bank without OAuth2 needs none: issue 28, another branch).
  clientAuth: { method: client_secret_post, secret: "\${env:LARCHMONT_CLIENT_SECRET}" }
  redirectUri: https://tpp.example.org/xs2a/back
psu:
  username: \${env:LARCHMONT_LOGIN}
  password: \${env:LARCHMONT_PASSWORD}
  driver:
    kind: steps
    loginError: ".lb-problem"
    steps:
      - { action: fill, selector: "#lb-login", value: "{username}" }
      - { action: fill, selector: "#lb-password", value: "{password}" }
      - { action: click, selector: "#lb-signin-btn", waitForNavigation: true, name: sign in }
      - { action: waitFor, selector: "form#lb-decision", name: decision page }
      - { action: tickAccounts, selector: "input[name=account]", optional: true }
      - { action: decide, approve: "#lb-allow", reject: "#lb-deny", name: decision }
`);
    const env = { LARCHMONT_LOGIN: bank.psu.username, LARCHMONT_PASSWORD: bank.psu.password, LARCHMONT_CLIENT_SECRET: 'unused-no-oauth-here' };
    const reports = join(dir, 'reports');
    const run = await runObtpp(['conform', '--profile', file, '--report-dir', reports, '--json'], { env, timeoutMs: 400_000 });
    let summary: any;
    try {
      summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    } catch {
      assert.fail(`no summary.json (exit ${run.code}): ${run.stderr.slice(-3000)}`);
    }
    const rules = summary.variants[0].rules;
    const failures = rules.filter((r: any) => r.status === 'failed').map((r: any) => `${r.id}: ${r.failures.map((f: any) => `${f.scenario}: ${f.message}`).join(' | ')}`);
    assert.deepEqual(failures, [], 'no rule fails on a bank that follows the official file');
    const rule = (id: string) => rules.find((r: any) => r.id === id);
    // The rules that read data through a consent made earlier in the run, and the side effect itself.
    for (const id of ['AIS-01', 'AIS-02', 'AIS-04', 'AIS-09', 'AIS-10', 'AIS-11', 'AIS-12', 'BG-01', 'BG-09', 'BG-20', 'BG-21', 'COF-05', 'PIS-01', 'BG-08', 'BG-40', 'BG-41', 'BG-42', 'BG-43', 'BG-44']) {
      assert.equal(rule(id)?.status, 'passed', `${id}: ${JSON.stringify(rule(id))}`);
    }
    // No OAuth2 here: BG-07's token scenario does not apply, its other scenario passes.
    assert.equal(run.code, 0, run.stderr.slice(-3000));
    const recurring = bank.consents().filter((c) => c.recurring);
    assert.ok(recurring.filter((c) => c.status === 'expired').length >= 3, `several recurring consents of the PSU were expired by newer ones: ${JSON.stringify(bank.consents())}`);
  } finally {
    await bank.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
