// Every payment family of UK Read/Write v3.1.11 and VRP on a bank this project did not build its
// judge against: Larchmont Bank (test/independent-bank) with its payment families on
// (payments.ts, written from the official payment-initiation and VRP files), message signing both
// ways, its own ids, board rate and pages. One conformance run, scoped to the UK payment rules
// (`@uk-3.1 and @pis`: features/obie/uk-payments.feature and uk-vrp.feature): no false failure,
// every UKPIS and VRP rule judged and passed, so none is proved only against the embedded sandbox.
// Real sockets, real Chromium, the real binary. A second run, on a Larchmont whose sign-in takes
// longer than a first expiry window, proves VRP-05's end is judged on a consent with a wider one;
// a third, on the same Larchmont with a profile that names no page for an expired request (and a
// loginError broad enough to match it), that a run's first journey failing because its consent
// ran out is not taken for a set-up error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIndependentBank } from './bank.ts';
import { larchmontEnv, writeSignedUkProfile, type LarchmontErrorPages } from './profile-parts.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const FAMILY_OPS = ['DomesticScheduledPayment', 'DomesticStandingOrder', 'InternationalPayment', 'InternationalScheduledPayment', 'InternationalStandingOrder', 'FilePayment']
  .flatMap((s) => [`create${s}Consent`, `get${s}Consent`, `submit${s}`, `get${s}`, `get${s}Details`]);
// The run's set-up reads the PSU's accounts first (an account-access consent): Larchmont offers those too.
const OPERATIONS = [
  'createAccountAccessConsent', 'getAccountAccessConsent', 'deleteAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances',
  // VRP-06's set-up reaches for a funds-confirmation consent too.
  'createFundsConsent', 'getFundsConsent', 'deleteFundsConsent', 'confirmFunds',
  'createPaymentConsent', 'getPayment', 'getPaymentFunds', 'submitPayment', 'getPaymentOrder', 'getPaymentDetails',
  ...FAMILY_OPS, 'getInternationalPaymentFunds', 'getInternationalScheduledPaymentFunds', 'uploadPaymentFile', 'downloadPaymentFile', 'getFilePaymentReport',
  'createVrpConsent', 'getVrpConsent', 'deleteVrpConsent', 'confirmVrpFunds', 'createVrp', 'getVrp', 'getVrpDetails',
];

test('Larchmont with every payment family and VRP: obtpp conform --standard uk-3.1 judges every UKPIS and VRP rule, no false failure', async () => {
  const bank = await startIndependentBank({ paymentFamilies: true });
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-larchmont-pay-'));
  try {
    const file = await writeSignedUkProfile(bank, dir, {
      file: 'larchmont-pay.yaml', comment: "Larchmont Bank's payment initiation at UK Read/Write v3.1.11's paths, with message signing.",
      name: 'Larchmont Bank (independent test bank, UK payments)', standard: 'uk-3.1', operations: OPERATIONS,
    });
    const env = larchmontEnv(bank);
    const reports = join(dir, 'reports');
    const started = Date.now();
    const run = await runObtpp(['conform', '--profile', file, '--tags', '@uk-3.1 and @pis', '--report-dir', reports, '--json'], { env, timeoutMs: 400_000 });
    const seconds = (Date.now() - started) / 1000;
    let summary: any;
    try {
      summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    } catch {
      assert.fail(`no summary.json (exit ${run.code}): ${run.stderr.slice(-3000)}`);
    }
    const rules = summary.variants[0].rules as any[];
    assert.deepEqual(rules.filter((r) => r.status === 'failed').map((r) => [r.id, r.failures.map((f: any) => `${f.scenario}: ${f.message}`)]), [], 'no rule fails on a bank that follows the standard its own way');
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const ids = [...Array.from({ length: 11 }, (_, n) => `UKPIS-${String(n + 1).padStart(2, '0')}`), ...Array.from({ length: 10 }, (_, n) => `VRP-${String(n + 1).padStart(2, '0')}`)];
    for (const id of ids) {
      const rule = rules.find((r) => r.id === id);
      assert.equal(rule?.status, 'passed', `${id}: ${JSON.stringify(rule)}`);
      // Only a v4.0 form (UKPIS-04's ISO 20022 frequency codes) may be not applicable in this v3.1.11 run.
      const v4Only = ((rule.notApplicable ?? []) as Array<{ reason: string }>).filter((n) => /UK v4\.0's form/.test(n.reason)).length;
      assert.equal(rule.counts.notApplicable, v4Only, `${id}: nothing not applicable but v4.0's forms (${JSON.stringify(rule.notApplicable)})`);
      assert.equal(rule.counts.passed + v4Only, rule.scenarios, `${id}: every scenario judged and passed (${JSON.stringify(rule.counts)})`);
    }
    // Every family's order and VRP's payments were made at Larchmont, on its own server.
    assert.ok(bank.state.orders.size >= 7 + 5, `orders made: ${bank.state.orders.size}`);
    process.stderr.write(`# independent bank, UK payments: ${seconds.toFixed(1)} s, verdict ${summary.verdict}, bank logins ${bank.state.logins}\n`);
  } finally {
    await bank.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

/**
 * Larchmont with its payment families and the slow-sign-in defect (3 s), a signed UK profile of it
 * written to a fresh folder (`errorPages`: its driver's error selectors), and a run of `tags` there.
 */
async function withSlowLarchmont(slug: string, comment: string, tags: string, use: (o: { bank: Awaited<ReturnType<typeof startIndependentBank>>; run: Awaited<ReturnType<typeof runObtpp>>; summary: any; profile: string }) => void, errorPages?: LarchmontErrorPages): Promise<void> {
  const bank = await startIndependentBank({ paymentFamilies: true, defects: ['slow-sign-in'] });
  const dir = await mkdtemp(join(tmpdir(), `obtpp-larchmont-${slug}-`));
  try {
    const file = await writeSignedUkProfile(bank, dir, {
      file: `larchmont-${slug}.yaml`, comment, name: 'Larchmont Bank (independent test bank, slow sign-in)', standard: 'uk-3.1', operations: OPERATIONS, errorPages,
    });
    const profile = await readFile(file, 'utf8');
    const reports = join(dir, 'reports');
    const run = await runObtpp(['conform', '--profile', file, '--tags', tags, '--report-dir', reports, '--json'], { env: larchmontEnv(bank), timeoutMs: 200_000 });
    const summary = existsSync(join(reports, 'summary.json')) ? JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8')) : undefined;
    use({ bank, run, summary, profile });
  } finally {
    await bank.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

test('a bank whose sign-in outlasts a consent valid for 3 seconds: VRP-05\'s end (ValidToDateTime) is still judged, on a second consent with a wider window', async () => {
  await withSlowLarchmont('slow', 'Larchmont Bank, whose sign-in takes 3 seconds.', '@VRP-05', ({ bank, run, summary }) => {
    assert.ok(summary, run.stderr.slice(-2000));
    const rules = new Map<string, any>(summary.variants[0].rules.map((r: any) => [r.id, r]));
    for (const id of ['VRP-05']) assert.equal(rules.get(id)?.status, 'passed', `${id}: ${JSON.stringify(rules.get(id))}`);
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    // The end was judged on a second consent: the first, valid for 3 seconds, ended during the PSU's sign-in.
    const consents = [...bank.state.consents.values()];
    const shortLived = (end: string | undefined, created: string) => end !== undefined && Date.parse(end) - Date.parse(created) <= 4_000;
    assert.ok(consents.filter((c) => c.api === 'pis' && c.vrp && shortLived(c.vrp.controls.ValidToDateTime, c.created)).length >= 1, 'a VRP consent valid for 3 seconds was tried first');
    assert.ok(consents.filter((c) => c.api === 'pis' && c.vrp?.controls.ValidToDateTime && !shortLived(c.vrp.controls.ValidToDateTime, c.created)).length >= 1, 'then one with a wider window');
  });
});

test('a run\'s first PSU journey that outlasts its consent\'s 3-second window is the window\'s doing, not the profile\'s: AIS-08 is still judged, not a set-up error', async () => {
  // Larchmont's sign-in takes 3 s, so the first expiring consent (3 s) ends while the PSU signs in,
  // and Larchmont shows its page for an expired request. This profile names no such page
  // (consentError), and its loginError is broad: `.notice--bad`, the notice of a refused sign-in,
  // is on that page too. So the run's first journey ends as a refused sign-in, which the harness
  // would take for wrong credentials in the profile (a set-up error, exit 3). It says nothing about
  // the profile (the consent ran out meanwhile): the harness tries a wider window, and AIS-08 is
  // judged on it.
  await withSlowLarchmont('window', 'Larchmont Bank, whose sign-in takes 3 seconds, its page for an expired request not named.', '@AIS-08', ({ bank, run, summary, profile }) => {
    assert.doesNotMatch(profile, /consentError/);
    assert.match(profile, /loginError: ".notice--bad"/);
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    const rule = summary.variants[0].rules.find((r: any) => r.id === 'AIS-08');
    assert.equal(rule?.status, 'passed', JSON.stringify(rule));
    // The first expiring consent was the 3-second one, and it ran out during the sign-in: the
    // expiry was judged on a second one with a wider window.
    const windows = [...bank.state.consents.values()].flatMap((c) => (c.api === 'ais' && c.expiration ? [Date.parse(c.expiration) - Date.parse(c.created)] : []));
    assert.ok(windows.some((ms) => ms <= 4_000), `a consent valid for 3 seconds was tried first (windows: ${windows.join(', ')} ms)`);
    assert.ok(windows.some((ms) => ms > 4_000 && ms <= 90_000), `then one with a wider window (windows: ${windows.join(', ')} ms)`);
  }, { loginError: '.notice--bad', consentError: null });
});
