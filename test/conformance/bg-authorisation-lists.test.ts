// Issue 28: the lists of a consent's and a signing basket's authorisations (GET
// /v1/consents/{consentId}/authorisations, GET /v1/signing-baskets/{basketId}/authorisations) and
// the basket's explicit start (POST /v1/signing-baskets/{basketId}/authorisations), called and
// judged: SCA-01's explicit start lists the consent's authorisations and finds the started one;
// BG-60 asks the basket's explicit start (TPP-Explicit-Authorisation-Preferred: true), follows its
// startAuthorisation link, and lists the basket's authorisations. Scoped conform runs through
// runObtpp (build first); the faults that empty the lists are proven with the others by
// test/conformance/conform.test.ts, one of them here too.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObtpp } from '../helpers/obtpp.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-auth-lists-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Seq = { scenario: string; status: string; items: Array<{ kind: string; method?: string; path?: string; status?: number }> };
async function conform(name: string, args: string[]) {
  const reportDir = join(dir, name);
  const run = await runObtpp(['conform', '--dialect', 'berlin-group', '--variant', 'A', '--report-dir', reportDir, ...args]);
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  const rules = summary.variants[0].rules as Array<{ id: string; status: string; failures: unknown[]; sequences?: Seq[] }>;
  /** Each rule's calls, ids masked: `METHOD path status`. */
  const calls = (id: string) => (rules.find((r) => r.id === id)?.sequences ?? []).flatMap((q) => q.items.filter((i) => i.kind === 'http')
    .map((i) => `${i.method} ${String(i.path).replace(/\/(basket|consent|payment|auth)-[0-9a-f-]+/g, '/{id}')} ${i.status}`));
  return { run, rules, calls };
}

test('embedded: SCA-01 lists the consent\'s authorisations; BG-60 starts the basket\'s authorisation itself and lists it', async () => {
  const { run, rules, calls } = await conform('embedded', ['--sca', 'embedded', '--tags', '@SCA-01 or @BG-60']);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.deepEqual(rules.filter((r) => r.id === 'SCA-01' || r.id === 'BG-60').map((r) => r.status), ['passed', 'passed']);
  assert.ok(calls('SCA-01').includes('GET /A/xs2a/v1/consents/{id}/authorisations 200'), calls('SCA-01').join('\n'));
  const basket = calls('BG-60');
  assert.ok(basket.includes('POST /A/xs2a/v1/signing-baskets/{id}/authorisations 201'), basket.join('\n'));
  assert.ok(basket.indexOf('GET /A/xs2a/v1/signing-baskets/{id}/authorisations 200') > basket.indexOf('POST /A/xs2a/v1/signing-baskets/{id}/authorisations 201'), basket.join('\n'));
});

test('redirect: the basket\'s explicit start gives the scaRedirect the PSU follows; an emptied list fails BG-60', async () => {
  const clean = await conform('redirect', ['--tags', '@BG-60']);
  assert.equal(clean.run.code, 0, clean.run.stdout + clean.run.stderr);
  assert.ok(clean.calls('BG-60').includes('POST /A/xs2a/v1/signing-baskets/{id}/authorisations 201'), clean.calls('BG-60').join('\n'));
  const bent = await conform('unlisted', ['--tags', '@BG-60', '--sandbox-fault', 'bg-basket-authorisations-unlisted']);
  assert.equal(bent.run.code, 1, bent.run.stdout + bent.run.stderr);
  assert.match(JSON.stringify(bent.rules.find((r) => r.id === 'BG-60')?.failures), /GET \/v1\/signing-baskets\/\{basketId\}\/authorisations lists \[\], without the authorisation/);
});
