// The independent test bank's Berlin Group mode: Ostwald Sparkasse (test/independent-bank/
// berlin-group.ts), a NextGenPSD2 account-information bank written from the official file with
// redirect SCA only and no authorisation server. Its profile, written from docs/berlin-group.md
// alone, has no auth block; `obtpp conform` certifies the bank with no discovery (the bank has no
// /.well-known at all) and no false failure. Real sockets, real Chromium, the real binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIndependentBgBank } from './berlin-group.ts';
import { runObtpp } from '../helpers/obtpp.ts';

test('a redirect-only NextGenPSD2 bank without OAuth is certified through a profile without an auth block', async () => {
  const bank = await startIndependentBgBank();
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-ostwald-'));
  try {
    const file = join(dir, 'ostwald.yaml');
    await writeFile(file, `# Ostwald Sparkasse: NextGenPSD2 account information, SCA by redirect, no OAuth2.
name: Ostwald Sparkasse (independent NextGenPSD2 test bank)
dialect: berlin-group
variants: [A]
# Account information only: funds confirmation, payments and card accounts are not offered.
implements: [createAccountAccessConsent, getAccountAccessConsent, getConsentStatus, deleteAccountAccessConsent, listAccounts, getAccount, getBalances, getTransactions, getTransaction]
apis:
  ais: { baseUrl: ${bank.baseUrl} }
sca:
  approaches: [redirect]
  redirectUri: https://tpp.example.org/xs2a/sca-done
psu:
  username: \${env:OSTWALD_KUNDENNUMMER}
  password: \${env:OSTWALD_PIN}
  driver:
    kind: steps
    loginError: ".fehler"
    steps:
      - { action: fill, selector: "#kundennummer", value: "{username}" }
      - { action: fill, selector: "#pin", value: "{password}" }
      - { action: click, selector: "#anmelden", waitForNavigation: true, name: anmelden }
      - { action: waitFor, selector: "form#freigabe", name: freigabe }
      - { action: tickAccounts, selector: "input[name=konto]", optional: true }
      - { action: decide, approve: "#freigeben", reject: "#ablehnen", name: entscheidung }
`);
    const env = { OSTWALD_KUNDENNUMMER: bank.psu.username, OSTWALD_PIN: bank.psu.password };
    const reports = join(dir, 'reports');
    const started = Date.now();
    const run = await runObtpp(['conform', '--profile', file, '--report-dir', reports, '--json'], { env, timeoutMs: 300_000 });
    let summary: any;
    try {
      summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    } catch {
      assert.fail(`no summary.json (exit ${run.code}): ${run.stderr.slice(-3000)}`);
    }
    const rules = summary.variants[0].rules;
    // BG-21 needs pending transactions, which this bank keeps none of, and BG-32 a paged report, which it never
    // pages (paging is the bank's option): not judged, with their cause (never failed).
    const failures = rules.filter((r: any) => r.status === 'failed' || (r.status === 'not-judged' && r.id !== 'BG-21' && r.id !== 'BG-32')).map((r: any) => `${r.id} ${r.status}: ${r.failures?.[0]?.message ?? r.reason ?? ''}`);
    for (const r of rules.filter((x: any) => x.status === 'not-judged')) assert.ok(r.notJudged?.[0]?.message, `${r.id} is not judged with a cause`);
    assert.deepEqual(failures, [], 'no false failure on a bank without OAuth');
    assert.equal(run.code, 0, run.stderr.slice(-3000));
    const status = (id: string) => rules.find((r: any) => r.id === id)?.status;
    for (const id of ['AIS-01', 'AIS-02', 'AIS-04', 'AIS-05', 'AIS-09', 'AIS-10', 'AIS-11', 'AIS-12', 'BG-01', 'BG-02', 'BG-03', 'BG-04', 'BG-06', 'BG-09', 'SEC-04', 'SEC-05', 'SEC-06', 'SEC-07']) {
      assert.equal(status(id), 'passed', id);
    }
    // Judged through Consent-ID alone; the OAuth2 scenario is not applicable, with its cause.
    assert.equal(status('BG-07'), 'passed');
    assert.match(JSON.stringify(rules.find((r: any) => r.id === 'BG-07')), /does not offer the OAuth2 SCA approach/);
    assert.ok((bank.hits.get('pages') ?? 0) > 0 && (bank.hits.get('accounts') ?? 0) > 0, 'the bank\'s pages and accounts were used');
    assert.equal(bank.hits.get('other') ?? 0, 0, 'nothing but the XS2A API and the SCA pages was asked (no OpenID discovery)');
    process.stderr.write(`# Ostwald Sparkasse (redirect only, no OAuth): ${((Date.now() - started) / 1000).toFixed(1)} s, verdict ${summary.verdict}\n`);
  } finally {
    await bank.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
