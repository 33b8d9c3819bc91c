// The UKAIS rules on a bank this project did not build its judge against: Larchmont Bank
// (test/independent-bank) as a `standard: uk-3.1` bank offering the bulk balances and transactions
// and the standing orders (per account and in bulk), and nothing else of the standard's extra reads.
// One run, with one defect on (standing orders under ReadStandingOrdersBasic name the payee's
// account): UKAIS-02 fails naming it, and the rules Larchmont keeps pass — no false failure on a
// bank that carries only what the official schemas require. Real sockets, real Chromium, the real
// binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIndependentBank } from './bank.ts';
import { larchmontAuthAndPsu, larchmontEnv } from './profile-parts.ts';
import { runObtpp } from '../helpers/obtpp.ts';

function profileFor(bank: Awaited<ReturnType<typeof startIndependentBank>>): string {
  return `# Larchmont Bank at UK Read/Write v3.1.11's paths, each API on its own server.
name: Larchmont Bank (independent test bank, UK layout)
standard: uk-3.1
apis:
  ais: { baseUrl: ${bank.apis.ais.A} }
  cof: { baseUrl: ${bank.apis.cof.A} }
  pis: { baseUrl: ${bank.apis.pis.A} }
implements:
  A: [createAccountAccessConsent, getAccountAccessConsent, deleteAccountAccessConsent, listAccounts, getAccount, getBalances, getTransactions,
      listBalances, listTransactions, getStandingOrders, listStandingOrders]
${larchmontAuthAndPsu(bank)}`;
}

test('Larchmont in the UK layout: the bulk reads and standing orders pass UKAIS-04, 10, 11, 12; a payee shown under Basic fails UKAIS-02', async () => {
  const bank = await startIndependentBank({ defects: ['payee-under-basic'] });
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-independent-uk-'));
  try {
    const file = join(dir, 'larchmont-uk.yaml');
    await writeFile(file, profileFor(bank));
    const env = larchmontEnv(bank);
    const reports = join(dir, 'reports');
    const run = await runObtpp(['conform', '--profile', file, '--tags', '@uk-3.1 and (@UKAIS-02 or @UKAIS-04 or @UKAIS-10 or @UKAIS-11 or @UKAIS-12)', '--report-dir', reports, '--json'], { env, timeoutMs: 400_000 });
    const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    const rule = (id: string) => summary.variants[0].rules.find((r: any) => r.id === id);
    assert.equal(run.code, 1, run.stderr.slice(-2000));
    assert.equal(rule('UKAIS-02').status, 'failed');
    assert.match(rule('UKAIS-02').failures.map((f: any) => f.message).join('\n'), /listStandingOrders|getStandingOrders/);
    assert.match(rule('UKAIS-02').failures.map((f: any) => f.message).join('\n'), /CreditorAccount/);
    for (const id of ['UKAIS-04', 'UKAIS-10', 'UKAIS-11', 'UKAIS-12']) {
      assert.equal(rule(id).status, 'passed', `${id}: ${JSON.stringify(rule(id).failures?.slice(0, 2))}`);
      assert.ok(rule(id).counts.passed > 0, `${id} judged something`);
    }
    // What Larchmont does not offer is not applicable, never failed.
    assert.ok(rule('UKAIS-10').counts.notApplicable > 0);
  } finally {
    await bank.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
