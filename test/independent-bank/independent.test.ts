// `obtpp conform` on a bank this project did not build its judge against: Larchmont Bank
// (test/independent-bank), split per API on three servers, with its own authorisation server and
// sign-in pages. The profile below is written only from docs/uk.md ("For a bank certifying its API")
// and profiles/example-bank.yaml: per-API base URLs, an implements list, a steps driver for the
// bank's pages. Then the same bank with two defects: each is caught by the rule it breaks.
// Real sockets, real Chromium, the real binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIndependentBank } from './bank.ts';
import { larchmontAuthAndPsu } from './profile-parts.ts';
import { runObtpp, type Run } from '../helpers/obtpp.ts';

function obtpp(args: string[], env: Record<string, string>, timeoutMs = 400_000): Promise<Run> {
  return runObtpp(args, { env, timeoutMs });
}

function profileFor(bank: Awaited<ReturnType<typeof startIndependentBank>>): string {
  return `# Larchmont Bank: each API on its own server, as UK banks deploy them.
name: Larchmont Bank (independent test bank)
variants: [A, B]
apis:
  ais:
    baseUrl: ${bank.apis.ais.A}
    variantBaseUrls: { B: ${bank.apis.ais.B} }
  cof:
    baseUrl: ${bank.apis.cof.A}
    variantBaseUrls: { B: ${bank.apis.cof.B} }
  pis:
    baseUrl: ${bank.apis.pis.A}
# Like a discovery file: what the bank offers. It has no single-transaction endpoint.
implements:
  A: [createAccountAccessConsent, listAccounts, getAccount, getBalances, getTransactions,
      createFundsConsent, getFundsConsent, deleteFundsConsent, confirmFunds,
      createPaymentConsent, getPayment, getPaymentStatus]
  B: [createAccountAccessConsent, listAccounts, getAccount, getBalances, getTransactions,
      createFundsConsent, confirmFunds]
paths:
  # Payment-order consents live where the UK standard puts them.
  paymentProduct: domestic-payment-consents
${larchmontAuthAndPsu(bank, { payments: true })}`;
}

/** Larchmont Bank started (with `defects`), its profile written to a fresh folder, and the env it names. */
async function withLarchmont(options: Parameters<typeof startIndependentBank>[0], use: (o: { bank: Awaited<ReturnType<typeof startIndependentBank>>; dir: string; file: string; env: Record<string, string> }) => Promise<void>): Promise<void> {
  const bank = await startIndependentBank(options);
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-independent-'));
  try {
    const file = join(dir, 'larchmont.yaml');
    await writeFile(file, profileFor(bank));
    const env = { LARCHMONT_CLIENT_SECRET: bank.client.clientSecret, LARCHMONT_CUSTOMER_NUMBER: bank.psu.username, LARCHMONT_SECRET_WORD: bank.psu.password };
    await use({ bank, dir, file, env });
  } finally {
    await bank.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

test('obtpp conform passes the independent bank (split per API, own pages, only required fields) with no false failure', async () => {
  await withLarchmont(undefined, async ({ bank, dir, file, env }) => {
    const check = await obtpp(['profile', 'check', file, '--json'], env);
    assert.equal(check.code, 0, check.stderr);

    const reports = join(dir, 'reports');
    const started = Date.now();
    const run = await obtpp(['conform', '--profile', file, '--report-dir', reports, '--json'], env);
    const seconds = (Date.now() - started) / 1000;
    let summary: any;
    try {
      summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    } catch {
      assert.fail(`no summary.json (exit ${run.code}): ${run.stderr.slice(-3000)}`);
    }
    const failures = summary.variants.flatMap((v: any) => v.rules.filter((r: any) => r.status === 'failed')
      .map((r: any) => `${v.variant} ${r.id}: ${r.failures.map((f: any) => `${f.scenario}: ${f.message}`).join(' | ')}`));
    assert.deepEqual(failures, [], 'no rule fails on a bank that follows the standard its own way');
    assert.equal(run.code, 0, run.stderr.slice(-3000));

    const rule = (variant: string, id: string) => summary.variants.find((v: any) => v.variant === variant)?.rules.find((r: any) => r.id === id);
    // The core of every API was judged, and passed, on its own server.
    for (const [variant, id] of [['A', 'AIS-01'], ['A', 'AIS-04'], ['B', 'AIS-04'], ['A', 'AIS-09'], ['A', 'COF-05'], ['B', 'COF-03'], ['A', 'COF-07'], ['A', 'PIS-01'], ['A', 'PIS-02'], ['A', 'SEC-01'], ['A', 'SEC-08'], ['B', 'SEC-07'], ['A', 'AIS-08'], ['B', 'COF-06']] as const) {
      assert.equal(rule(variant, id)?.status, 'passed', `${variant} ${id}: ${JSON.stringify(rule(variant, id))}`);
    }
    for (const api of ['auth', 'ais', 'cof', 'pis']) assert.ok((bank.state.hits[api] ?? 0) > 0, `the ${api} server was called`);
    // What the profile says the bank does not offer is not applicable, with that reason, never failed.
    const messages = await readFile(join(reports, 'messages.ndjson'), 'utf8');
    assert.match(messages, /the profile says the bank does not offer getTransaction/);
    // Fields the official schemas leave optional (Links, Meta, an account's Currency…) are SHOULD
    // warnings, never failures (none failed, above).
    const warnings = summary.totals?.warnings ?? 0;
    const problems = summary.variants.flatMap((v: any) => v.rules.flatMap((r: any) => (r.warnings ?? []).flatMap((w: any) => (w.level === 'SHOULD' ? w.problems ?? [] : []))));
    assert.ok(warnings > 0, 'the missing optional fields are reported as warnings');
    for (const field of ['Links', 'Meta', 'Currency']) assert.ok(problems.some((p: string) => p.includes(`missing required field ${field}`)), `a SHOULD warning names the missing ${field}`);
    process.stderr.write(`# independent bank: ${seconds.toFixed(1)} s, verdict ${summary.verdict}, ${warnings} warning(s), bank logins ${bank.state.logins}\n`);
  });
});

test('on the same bank, a defect is caught by the rule it breaks (accounts not selected listed; a balance disclosed)', async () => {
  await withLarchmont({ defects: ['lists-unselected-accounts', 'discloses-balance'] }, async ({ dir, file, env }) => {
    const reports = join(dir, 'reports');
    const run = await obtpp(['conform', '--profile', file, '--variant', 'A', '--tags', '@AIS-04 or @COF-04', '--report-dir', reports, '--json'], env);
    assert.equal(run.code, 1, run.stderr.slice(-2000));
    const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    const rules = summary.variants[0].rules;
    const ais04 = rules.find((r: any) => r.id === 'AIS-04');
    const cof04 = rules.find((r: any) => r.id === 'COF-04');
    assert.equal(ais04.status, 'failed');
    assert.match(ais04.failures.map((f: any) => f.message).join('\n'), /the PSU selected 1 account\(s\).*GET \/accounts listed 3/);
    assert.equal(cof04.status, 'failed');
    assert.match(cof04.failures.map((f: any) => f.message).join('\n'), /AvailableBalance|balance/i);
  });
});

test('expiry on a bank that compares whole seconds: the harness waits for the bank\'s second, and AIS-08 and COF-06 pass when they run at once', async () => {
  // Larchmont holds a consent usable through the second its ExpirationDateTime names. Run alone,
  // the expiry scenarios come straight after their consents are made: a harness that judged the
  // first call after the expiration date by its own clock would fail a correct bank here.
  await withLarchmont(undefined, async ({ dir, file, env }) => {
    const reports = join(dir, 'reports');
    const run = await obtpp(['conform', '--profile', file, '--variant', 'A', '--tags', '@AIS-08 or @COF-06', '--report-dir', reports, '--json'], env);
    const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    const rules = summary.variants[0].rules.filter((r: any) => r.id === 'AIS-08' || r.id === 'COF-06');
    assert.deepEqual(rules.map((r: any) => [r.id, r.status]), [['AIS-08', 'passed'], ['COF-06', 'passed']], JSON.stringify(rules));
    assert.equal(run.code, 0, run.stderr.slice(-2000));
  });
});
