// The UK CBPII rules (UKCOF-01…04, features/obie/uk-funds.feature) on a bank this project did not
// build its judge against: Larchmont Bank, each API on its own server, described to obtpp only by
// its discovery document (written here in the UK conformance suite's discovery shape), its client
// and its PSU's pages — no base URL, no implements. Larchmont refuses schemes its own way
// (UK.OBIE.Unsupported.Scheme), answers JSON with its own headers: no false failure, so no UKCOF
// rule is proved only against the embedded sandbox. Real sockets, real Chromium, the real binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIndependentBank } from './bank.ts';
import { larchmontAuthAndPsu, larchmontEnv } from './profile-parts.ts';
import { runObtpp } from '../helpers/obtpp.ts';

test('Larchmont Bank, described by its discovery document only, passes UKCOF-01…04', async () => {
  const bank = await startIndependentBank();
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-larchmont-uk-'));
  try {
    const endpoints = (list: string[]) => list.map((e) => ({ method: e.split(' ')[0], path: e.split(' ')[1] }));
    await writeFile(join(dir, 'discovery.json'), JSON.stringify({
      discoveryModel: {
        name: 'larchmont', description: 'Larchmont Bank', discoveryVersion: 'v0.4.0', tokenAcquisition: 'psu',
        discoveryItems: [
          {
            apiSpecification: { name: 'Account and Transaction API Specification', version: 'v3.1.11' },
            openidConfigurationUri: `${bank.issuer}/.well-known/openid-configuration`,
            resourceBaseUri: bank.apis.ais.A,
            endpoints: endpoints(['POST /account-access-consents', 'GET /account-access-consents/{ConsentId}', 'GET /accounts', 'GET /accounts/{AccountId}', 'GET /accounts/{AccountId}/balances', 'GET /accounts/{AccountId}/transactions']),
          },
          {
            apiSpecification: { name: 'Confirmation of Funds API Specification', version: 'v3.1.11' },
            openidConfigurationUri: `${bank.issuer}/.well-known/openid-configuration`,
            resourceBaseUri: bank.apis.cof.A,
            endpoints: endpoints(['POST /funds-confirmation-consents', 'GET /funds-confirmation-consents/{ConsentId}', 'DELETE /funds-confirmation-consents/{ConsentId}', 'POST /funds-confirmations']),
          },
        ],
      },
    }));
    const file = join(dir, 'larchmont.yaml');
    await writeFile(file, `name: Larchmont Bank (UK Read/Write, by its discovery document)
discovery: file:discovery.json
${larchmontAuthAndPsu(bank)}`);
    const env = larchmontEnv(bank);
    const reports = join(dir, 'reports');
    const run = await runObtpp(['conform', '--profile', file, '--tags', '@uk-3.1 and @cof', '--report-dir', reports, '--json'], { env, timeoutMs: 300_000 });
    let summary: any;
    try {
      summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    } catch {
      assert.fail(`no summary.json (exit ${run.code}): ${run.stderr.slice(-3000)}`);
    }
    const rules = summary.variants[0].rules;
    assert.deepEqual(rules.filter((r: any) => r.status === 'failed').map((r: any) => [r.id, r.failures.map((f: any) => f.message)]), []);
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    for (const id of ['UKCOF-01', 'UKCOF-02', 'UKCOF-03', 'UKCOF-04']) {
      const rule = rules.find((r: any) => r.id === id);
      assert.equal(rule?.status, 'passed', `${id}: ${JSON.stringify(rule)}`);
      assert.equal(rule.counts.passed, rule.scenarios, `${id}: every scenario judged and passed`);
    }
    assert.ok((bank.state.hits.cof ?? 0) >= 12, 'the CBPII server was called at the document\'s base URL');
  } finally {
    await bank.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
