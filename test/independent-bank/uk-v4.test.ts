// UK Read/Write v4.0 on a bank this project did not build its judge against: Larchmont Bank
// (test/independent-bank) started with `version: 'v4.0'` — its AIS, CBPII and payment APIs under
// /open-banking/v4.0/{aisp,cbpii,pisp} in v4.0's own words (v4.ts: ISO 20022 statuses, 4-character
// error codes, AccountCategory/AccountTypeCode, standing orders by MandateRelatedInformation,
// structured remittance), written from the official v4.0 files alone, with v4.0's PUT and PATCH of
// a VRP consent. One conformance run at `standard: uk-4.0`, scoped to a rule or two of each API: no
// false failure, every selected rule judged and passed, so no v4.0 verdict is proved only against
// the embedded sandbox. Real sockets, real Chromium, the real binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIndependentBank } from './bank.ts';
import { larchmontEnv, writeSignedUkProfile } from './profile-parts.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const FAMILY_OPS = ['DomesticScheduledPayment', 'DomesticStandingOrder', 'InternationalPayment', 'InternationalScheduledPayment', 'InternationalStandingOrder', 'FilePayment']
  .flatMap((s) => [`create${s}Consent`, `get${s}Consent`, `submit${s}`, `get${s}`, `get${s}Details`]);
const OPERATIONS = [
  'createAccountAccessConsent', 'getAccountAccessConsent', 'deleteAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions',
  'listBalances', 'listTransactions', 'getStandingOrders', 'listStandingOrders',
  'createFundsConsent', 'getFundsConsent', 'deleteFundsConsent', 'confirmFunds',
  'createPaymentConsent', 'getPayment', 'getPaymentFunds', 'submitPayment', 'getPaymentOrder', 'getPaymentDetails',
  ...FAMILY_OPS, 'getInternationalPaymentFunds', 'getInternationalScheduledPaymentFunds', 'uploadPaymentFile', 'downloadPaymentFile', 'getFilePaymentReport',
  'createVrpConsent', 'getVrpConsent', 'deleteVrpConsent', 'confirmVrpFunds', 'createVrp', 'getVrp', 'getVrpDetails',
  // v4.0's own: a VRP consent migrated by PUT or JSON Patch.
  'updateVrpConsent', 'patchVrpConsent',
];
const RULES = ['UKAIS-01', 'UKAIS-10', 'UKCOF-01', 'UKPIS-01', 'VRP-02', 'VRP-11'];

test('Larchmont at v4.0: obtpp conform --standard uk-4.0 judges AIS, CBPII, payments and VRP, no false failure', async () => {
  const bank = await startIndependentBank({ paymentFamilies: true, version: 'v4.0' });
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-larchmont-v4-'));
  try {
    assert.match(bank.apis.pis.A, /\/open-banking\/v4\.0\/pisp$/);
    const file = await writeSignedUkProfile(bank, dir, {
      file: 'larchmont-v4.yaml', comment: "Larchmont Bank at UK Read/Write v4.0's paths, with message signing.",
      name: 'Larchmont Bank (independent test bank, UK v4.0)', standard: 'uk-4.0', operations: OPERATIONS,
    });
    const env = larchmontEnv(bank);
    const reports = join(dir, 'reports');
    const started = Date.now();
    const tags = `@uk-4.0 and (${RULES.map((id) => `@${id}`).join(' or ')})`;
    const run = await runObtpp(['conform', '--profile', file, '--tags', tags, '--report-dir', reports, '--json'], { env, timeoutMs: 300_000 });
    const seconds = (Date.now() - started) / 1000;
    let summary: any;
    try {
      summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    } catch {
      assert.fail(`no summary.json (exit ${run.code}): ${run.stderr.slice(-3000)}`);
    }
    const rules = summary.variants[0].rules as any[];
    assert.deepEqual(rules.filter((r) => r.status === 'failed').map((r) => [r.id, r.failures.map((f: any) => `${f.scenario}: ${f.message}`)]), [], 'no rule fails on a v4.0 bank that follows the standard its own way');
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    for (const id of RULES) {
      const rule = rules.find((r) => r.id === id);
      assert.equal(rule?.status, 'passed', `${id}: ${JSON.stringify(rule)}`);
      assert.ok(rule.counts.passed > 0, `${id} judged something (${JSON.stringify(rule.counts)})`);
    }
    // The run spoke v4.0 to Larchmont: every API was called at its v4.0 server, and orders of every family were made.
    for (const api of ['ais', 'cof', 'pis']) assert.ok((bank.state.hits[api] ?? 0) > 0, `${api} was called`);
    assert.ok(bank.state.orders.size >= 7 + 2, `orders made: ${bank.state.orders.size}`);
    process.stderr.write(`# independent bank, UK v4.0: ${seconds.toFixed(1)} s, verdict ${summary.verdict}, bank logins ${bank.state.logins}\n`);
  } finally {
    await bank.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
