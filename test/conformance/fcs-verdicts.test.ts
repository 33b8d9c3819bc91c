// One verdict per official test: a run of a UK standard carries, per FCS id of its version and in
// the suite's order, passed / failed / not judged / not applicable with the reason, in summary.json,
// JUnit, summary.md, report.html and `obtpp conform --fcs`. The verdicts come from the scenarios
// tagged with each id (one scenario or Examples row per id), so a fault fails exactly the ids whose
// assertions it breaks: here the sandbox's vrp-reads-unsigned, which leaves the VRP reads unsigned,
// fails the four VRP tests that verify a read's x-jws-signature and no other. And the requests the
// suite makes without x-fapi-financial-id go without it even when the profile's headers add it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fcsVerdicts, type FcsRun } from '../../src/conformance/fcs-verdicts.ts';
import { appendFcsTests } from '../../src/conformance/junit.ts';
import { summaryMarkdown } from '../../src/conformance/ci-report.ts';
import { renderHtmlReport } from '../../src/conformance/html-report.ts';
import type { FcsMap } from '../../src/conformance/fcs-map.ts';
import { fcsDir } from '../../src/conformance/fcs-map.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { TppClient } from '../../src/client/operations.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { listenLoopback } from '../helpers/loopback.ts';
import { root, runObtpp } from '../helpers/obtpp.ts';

/** A map of three ids in the suite's order (not alphabetical), one the suite makes inapplicable. */
const MAP = {
  version: '3.1',
  entries: [
    { id: 'OB-301-VRP-100610', tests: [{ method: 'GET', uri: '/domestic-vrp-consents/$consentId', description: 'Retrieves Authorised VRP Consent', manifest: 'm' }], asserts: [], covers: [{ feature: 'f', scenario: 's' }], partial: [], status: 'covered' },
    { id: 'OB-301-VRP-100100', tests: [{ method: 'POST', uri: '/domestic-vrp-consents', description: 'x', manifest: 'm' }], asserts: [], covers: [], partial: [], status: 'not-applicable', reason: 'the suite runs it only where apiVersion <3.1.11' },
    { id: 'OB-301-ACC-000100', tests: [{ method: 'GET', uri: '/accounts', description: 'y', manifest: 'm' }], asserts: [], covers: [{ feature: 'f', scenario: 't' }], partial: [], status: 'covered' },
    { id: 'OB-301-DOP-100400', tests: [{ method: 'GET', uri: '/domestic-payment-consents/$consentId', description: 'z', manifest: 'm' }], asserts: [], covers: [], partial: [{ feature: 'f', scenario: 'u', missing: ['signature'] }], status: 'partial' },
  ],
} as unknown as FcsMap;

describe('one verdict per official test', () => {
  test('each id takes its scenarios\' verdict, in the suite\'s order, with the reason; an id no scenario of the run judged is not judged', () => {
    const runs: FcsRun[] = [
      { tags: ['@fcs:OB-301-VRP-100610', '@fcs:OB-400-VRP-100610'], name: 'VRP-02: reads back', status: 'failed', reason: 'VRP-02: no x-jws-signature\n(evidence)' },
      { tags: ['@fcs-partial:OB-301-DOP-100400'], name: 'UKPIS-01: reads', status: 'passed' },
    ];
    const s = fcsVerdicts('3.1', runs, MAP);
    assert.deepEqual(s.tests.map((t) => [t.id, t.status, t.reason]), [
      ['OB-301-VRP-100610', 'failed', 'VRP-02: no x-jws-signature'],
      ['OB-301-VRP-100100', 'not-applicable', 'the suite runs it only where apiVersion <3.1.11'],
      ['OB-301-ACC-000100', 'not-judged', 'not selected in this run (--tags)'],
      ['OB-301-DOP-100400', 'passed', undefined],
    ]);
    assert.deepEqual(s.tests[3]!.notJudged, ['signature'], 'a partial cover says what it did not judge');
    assert.deepEqual(s.counts, { passed: 1, failed: 1, notJudged: 1, notApplicable: 1 });
    assert.equal(s.source, 'manifests');
    // A scenario not judged makes its id not judged, whatever the others did; not applicable only when all are.
    const mixed = fcsVerdicts('3.1', [
      { tags: ['@fcs:OB-301-ACC-000100'], name: 'a', status: 'passed' },
      { tags: ['@fcs:OB-301-ACC-000100'], name: 'b', status: 'not-judged', reason: 'blocked by UKAIS-10: …' },
    ], MAP).tests.find((t) => t.id === 'OB-301-ACC-000100')!;
    assert.deepEqual([mixed.status, mixed.reason, mixed.scenarios], ['not-judged', 'blocked by UKAIS-10: …', ['a', 'b']]);
    // Without the suite's files: the ids of the run's version from the tags, sorted.
    const bare = fcsVerdicts('4.0', runs, undefined);
    assert.deepEqual([bare.source, bare.tests.map((t) => t.id)], ['tags', ['OB-400-VRP-100610']]);
  });

  test('JUnit gets a test case per id (failure, skipped with the cause), summary.md and report.html a row each, all escaped', () => {
    const s = fcsVerdicts('3.1', [{ tags: ['@fcs:OB-301-VRP-100610'], name: 'VRP-02: <b>reads</b>', status: 'failed', reason: 'got <script>' }], MAP);
    const xml = appendFcsTests('<?xml version="1.0"?>\n<testsuite name="obtpp conformance" time="1" tests="2" skipped="0" failures="1" errors="0">\n  <testcase classname="x" name="y" time="0"/>\n</testsuite>\n', s);
    assert.match(xml, /tests="6" skipped="3" failures="2"/);
    assert.match(xml, /<testcase classname="FCS v3\.1" name="OB-301-VRP-100610 — GET \/domestic-vrp-consents\/\$consentId: Retrieves Authorised VRP Consent" time="0">\n {4}<failure type="FcsTestFailed" message="got &lt;script&gt;">/);
    assert.match(xml, /name="OB-301-VRP-100100 — [^"]*" time="0">\n {4}<skipped message="not applicable: the suite runs it only where apiVersion &lt;3\.1\.11"\/>/);
    const summary = { tool: { name: 'obtpp', version: '0' }, profile: 'p', startedAt: '2026-01-01T00:00:00Z', durationMs: 1, verdict: 'fail', variants: [], fcs: s, totals: { rules: {}, scenarios: { passed: 0, failed: 0, notJudged: 0, notApplicable: 0, skipped: 0 } } } as never;
    const md = summaryMarkdown(summary);
    assert.match(md, /^### The official suite's tests \(FCS v3\.1\)$/m);
    assert.match(md, /^\| OB-301-VRP-100610 \| FAIL: got &lt;script&gt; \| VRP-02: &lt;b&gt;reads&lt;/m);
    assert.ok(md.indexOf('OB-301-VRP-100610') < md.indexOf('OB-301-VRP-100100'), 'the suite\'s order');
    const html = renderHtmlReport(summary);
    assert.match(html, /<h2>6\. The official suite's tests \(FCS v3\.1\)<\/h2>/);
    assert.match(html, /<th scope="row" class="rule-id">OB-301-VRP-100610<\/th>[\s\S]*?status-failed">FAIL<\/td>\s*<td>got &lt;script&gt;/);
    assert.doesNotMatch(html, /<script>|<b>reads/);
  });

  test('a request the suite makes without x-fapi-financial-id goes without it, even when the profile\'s headers add it', async () => {
    const seen: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      seen.push(req.headers['x-fapi-financial-id'] as string | undefined);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"Data":{"Account":[]},"Links":{"Self":"x"},"Meta":{}}');
    });
    const { base, close } = await listenLoopback(server);
    try {
      const profile = await profileFromObject({
        name: 'uk bank', standard: 'uk-3.1', baseUrl: `${base}/open-banking/v3.1`, headers: { 'x-fapi-financial-id': '0015800001041RHAAY' },
        auth: { issuer: 'https://as.bank.example', clientId: 'c', clientAuth: { method: 'client_secret_basic', secret: 's3cret' }, redirectUri: 'https://tpp.example/cb' },
        psu: { username: 'u', password: 'p', driver: { kind: 'manual' } },
      }, { source: 'test', env: {} });
      const client = new TppClient(profile, 'A', httpFromProfile(profile));
      await client.listAccounts({ token: 't' });
      const r = await client.listAccounts({ token: 't', omitHeaders: ['X-FAPI-Financial-Id'] });
      assert.deepEqual(seen, ['0015800001041RHAAY', undefined]);
      assert.ok(!Object.keys(r.exchange.request.headers).some((h) => h.toLowerCase() === 'x-fapi-financial-id'), 'the evidence shows the request as sent');
    } finally {
      await close();
    }
  });

  const skip = existsSync(join(fcsDir(root, process.env, root), 'manifests', 'ob_3.1_variable_recurring_payments.json')) ? false : 'the FCS manifests are not beside the checkout';
  test('one fault fails exactly the FCS ids it breaks: vrp-reads-unsigned fails the four VRP reads that verify the signature', { skip }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-fcs-'));
    try {
      const run = await runObtpp(['conform', '--standard', 'uk-3.1', '--tags', '@vrp', '--sandbox-fault', 'vrp-reads-unsigned', '--fcs', '--report-dir', join(dir, 'r')]);
      assert.equal(run.code, 1, run.stderr);
      const summary = JSON.parse(await readFile(join(dir, 'r', 'summary.json'), 'utf8'));
      const fcs = summary.fcs;
      assert.equal(fcs.version, '3.1');
      assert.equal(fcs.source, 'manifests');
      assert.equal(fcs.tests.length, 153, 'every id of the v3.1 suite is listed');
      const vrp = fcs.tests.filter((t: any) => t.id.startsWith('OB-301-VRP-'));
      const by = (status: string) => vrp.filter((t: any) => t.status === status).map((t: any) => t.id);
      assert.deepEqual(by('failed'), ['OB-301-VRP-100610', 'OB-301-VRP-10670', 'OB-301-VRP-101100', 'OB-301-VRP-101200'], 'the suite\'s order');
      assert.deepEqual(by('not-applicable'), ['OB-301-VRP-100100', 'OB-301-VRP-100600', 'OB-301-VRP-100700']);
      assert.deepEqual(by('passed'), ['OB-301-VRP-100101', 'OB-301-VRP-100601', 'OB-301-VRP-100650', 'OB-301-VRP-100701', 'OB-301-VRP-102100', 'OB-301-VRP-102150', 'OB-301-VRP-102200']);
      for (const t of vrp.filter((x: any) => x.status === 'failed')) assert.match(t.reason, /x-jws-signature/, t.id);
      // Every other id: not selected by this scoped run (or inapplicable), never passed nor failed.
      assert.deepEqual(fcs.tests.filter((t: any) => !t.id.startsWith('OB-301-VRP-') && !['not-judged', 'not-applicable'].includes(t.status)).map((t: any) => t.id), []);
      assert.equal(fcs.tests.find((t: any) => t.id === 'OB-301-ACC-100000').reason, 'not selected in this run (--tags)');
      // The same verdicts in JUnit, summary.md, report.html and on the terminal.
      const junit = await readFile(join(dir, 'r', 'junit.xml'), 'utf8');
      assert.equal([...junit.matchAll(/<testcase classname="FCS v3\.1" name="OB-301-VRP-[^"]*" time="0">\n {4}<failure type="FcsTestFailed"/g)].length, 4);
      const md = await readFile(join(dir, 'r', 'summary.md'), 'utf8');
      assert.match(md, /^\| OB-301-VRP-10670 \| FAIL: VRP-02: the bank's x-jws-signature does not hold/m);
      assert.match(await readFile(join(dir, 'r', 'report.html'), 'utf8'), /id="fcs-OB-301-VRP-101200"/);
      assert.match(run.stdout, /^OB-301-VRP-101100 +FAIL {2}VRP-02: /m);
      assert.match(run.stdout, /^OB-301-VRP-102200 +pass$/m);
      assert.match(run.stdout, /^FCS v3\.1: 153 test ids — 7 passed, 4 failed, 137 not judged, 5 not applicable$/m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
