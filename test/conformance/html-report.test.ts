// report.html: the document a bank hands over. A hand-made summary shows the escaping and the
// scrubbing of stack traces and local paths; a real run is then opened in real Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderHtmlReport, scrubText, writeHtmlReport, type ReportSummary } from '../../src/conformance/html-report.ts';
import { obtpp, root, bin } from '../helpers/obtpp.ts';
import { reportPage } from '../helpers/report-page.ts';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

function handMade(): ReportSummary {
  const hostileBody = { Errors: [{ ErrorCode: 'UK.OBIE.Field.Invalid', Message: '<script>alert("pwned")</script>', Path: '/work/x/y.ts' }] };
  return {
    tool: { name: 'obtpp', version: '9.9.9' },
    profile: 'Bank of <b>Test</b> & Co',
    startedAt: '2026-11-23T10:00:00.000Z',
    durationMs: 83_400,
    verdict: 'interrupted',
    variants: [
      {
        variant: 'A',
        rules: [
          { id: 'AIS-01', title: 'A consent is created with Permissions', level: 'MUST', source: 'spec §4.1', status: 'passed', scenarios: 3, failures: [] },
          {
            id: 'COF-04', title: 'The answer is only whether funds are available', level: 'MUST', status: 'failed', scenarios: 1,
            failures: [{
              scenario: 'The answer discloses no balance',
              step: 'the answer is only whether funds are available, and no balance is disclosed',
              message: 'COF-04: expected only FundsAvailable, got Data.AvailableBalance\n    at Object.judge (/work/x/y.ts:10:5)\n    at async file:///work/main/dist/step-definitions/hooks.js:44:7\nloaded from /home/alice/obtpp/profiles/bank.yaml',
              problems: ['/Data must NOT have additional properties (AvailableBalance)', '/Data/FundsAvailableResult is required', '<img src=x onerror=alert(2)>'],
              evidence: {
                rule: 'COF-04',
                interactionIds: ['11111111-2222-3333-4444-555555555555'],
                screenshots: ['/work/main/reports/run/evidence/obtpp-psu-step2.png', '/tmp/gone/missing-step3.png'],
                exchanges: [{
                  seq: 1, method: 'POST', url: 'https://bank.example/tmp/open-banking/v3.1/cbpii/funds-confirmations',
                  request: { headers: { authorization: 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlc2lnbmF0dXJl', 'x-fapi-interaction-id': '11111111-2222-3333-4444-555555555555' }, body: { Data: { ConsentId: 'cof-1' } } },
                  response: { status: 400, headers: { 'content-type': 'application/json', 'x-evil': '"><script>alert(3)</script>' }, body: hostileBody, json: true, bytes: 120 },
                  timings: { startedAt: '2026-11-23T10:00:01.000Z', durationMs: 12 },
                }, {
                  seq: 2, method: 'GET', url: 'https://bank.example/page', request: { headers: {} },
                  response: { status: 500, headers: { 'content-type': 'text/html' }, body: '<html><script>steal()</script>Error at /tmp/bank/handler.js</html>', json: false, bytes: 60 },
                  timings: { startedAt: '2026-11-23T10:00:02.000Z', durationMs: 7 },
                }],
              },
            }],
          },
          { id: 'AIS-11', title: 'Mandatory fields', level: 'MUST', status: 'not-judged', scenarios: 1, failures: [],
            notJudged: [{ scenario: 'Balances carry the mandatory fields', step: 'the balances are valid', message: 'no account to read balances from', blockedBy: 'AIS-01' }] },
          { id: 'SEC-07', title: 'Every response carries x-fapi-interaction-id', level: 'SHOULD', status: 'passed', scenarios: 2, failures: [],
            warnings: [{ scenario: 'Echo', step: 'the answer echoes the id', message: 'the bank answered without x-fapi-interaction-id', level: 'SHOULD' }] },
        ],
      },
      {
        variant: 'B',
        rules: [
          { id: 'AIS-01', title: 'A consent is created with Permissions', status: 'passed', scenarios: 3, failures: [] },
          { id: 'COF-04', title: 'The answer is only whether funds are available', status: 'not-applicable', scenarios: 0, failures: [] },
          { id: 'AIS-11', title: 'Mandatory fields', status: 'skipped', scenarios: 0, failures: [] },
          { id: 'SEC-07', title: 'Every response carries x-fapi-interaction-id', status: 'passed', scenarios: 2, failures: [] },
        ],
      },
    ],
    totals: { rules: { passed: 4, failed: 1, 'not-judged': 1, 'not-applicable': 1, skipped: 1 }, scenarios: { passed: 10, failed: 1, notJudged: 1, notApplicable: 0, skipped: 0 }, warnings: 1 },
  };
}

/** The text of the rule table's row for `id`: its cells, tags removed. */
function row(html: string, id: string): string[] {
  const m = new RegExp(`<tr id="rule-${id}">([\\s\\S]*?)</tr>`).exec(html);
  assert.ok(m, `the rule table has a row for ${id}`);
  return [...m[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
}

test('report.html from a hand-made summary: bank name, verdict, rule table, failure evidence, all escaped, no stack or local path', () => {
  const html = renderHtmlReport(handMade(), {
    screenshots: { 'obtpp-psu-step2.png': { dataUri: `data:image/png;base64,${PNG.toString('base64')}` } },
    generatedAt: new Date('2026-11-23T10:02:00Z'),
  });

  // The header: the bank, the tool version, date, duration, variants, the verdict in words.
  assert.match(html, /<h1 id="bank">Bank of &lt;b&gt;Test&lt;\/b&gt; &amp; Co<\/h1>/);
  assert.match(html, /<title>Conformance report — Bank of &lt;b&gt;Test&lt;\/b&gt; &amp; Co<\/title>/);
  assert.match(html, /obtpp 9\.9\.9/);
  assert.match(html, /2026-11-23 10:00:00 UTC/);
  assert.match(html, /1 min 23 s/);
  assert.match(html, /Variant A, Variant B/);
  assert.match(html, /class="verdict verdict-interrupted">\s*<strong>Interrupted<\/strong>/);

  // The rule table comes first, one row per rule, one column per variant.
  const table = html.indexOf('<table class="rules">');
  assert.ok(table > 0 && table < html.indexOf('id="failures"'), 'the rule table precedes the failures');
  assert.deepEqual(row(html, 'AIS-01'), ['AIS-01', 'MUST', 'spec §4.1', 'A consent is created with Permissions', 'pass', 'pass']);
  assert.deepEqual(row(html, 'AIS-11'), ['AIS-11', 'MUST', '—', 'Mandatory fields', 'not judged', 'skipped']);
  assert.deepEqual(row(html, 'COF-04'), ['COF-04', 'MUST', '—', 'The answer is only whether funds are available', 'FAIL', 'n/a']);
  assert.deepEqual(row(html, 'SEC-07'), ['SEC-07', 'SHOULD', '—', 'Every response carries x-fapi-interaction-id', 'pass 1 warning', 'pass']);
  assert.match(html, /<a href="#failure-COF-04-A-0">FAIL<\/a>/, 'a FAIL cell links to its failure');

  // The failure: rule, scenario, step, message, every problem, the exchanges, the screenshots.
  const failure = html.slice(html.indexOf('id="failure-COF-04-A-0"'));
  assert.match(failure, /The answer discloses no balance/);
  assert.match(failure, /the answer is only whether funds are available, and no balance is disclosed/);
  assert.match(failure, /COF-04: expected only FundsAvailable, got Data\.AvailableBalance/);
  assert.match(failure, /Validation problems \(3\)/);
  assert.match(failure, /\/Data\/FundsAvailableResult is required/);
  assert.match(failure, /11111111-2222-3333-4444-555555555555/);
  assert.match(failure, /<b>POST<\/b> <span class="mono url">https:\/\/bank\.example\/tmp\/open-banking\/v3\.1\/cbpii\/funds-confirmations<\/span>/, 'a URL keeps its path, /tmp/ included');
  assert.match(failure, /→ 400/);
  assert.match(failure, /UK\.OBIE\.Field\.Invalid/);
  assert.match(failure, /<img src="data:image\/png;base64,iVBOR/, 'the kept screenshot is embedded');
  assert.match(failure, /missing-step3\.png<\/span><figcaption>file not kept/, 'a screenshot not kept is named, by file name only');
  assert.match(html, /Bearer \[REDACTED\]/);
  assert.doesNotMatch(html, /eyJhbGciOiJSUzI1NiJ9/, 'a token that slipped through capture is still redacted');

  // Warnings and not judged, with the cause and what blocked it.
  assert.match(html.slice(html.indexOf('id="warnings"')), /the bank answered without x-fapi-interaction-id/);
  const notJudged = html.slice(html.indexOf('id="not-judged"'));
  assert.match(notJudged, /no account to read balances from/);
  assert.match(notJudged, /<a href="#rule-AIS-01">AIS-01<\/a>/);

  // Hostile input is escaped: no markup of the bank's reaches the page, and the page has no script at all.
  assert.doesNotMatch(html, /<script/i);
  assert.doesNotMatch(html, /<img src=x/i);
  assert.match(html, /&lt;script&gt;alert\(\\&quot;pwned\\&quot;\)&lt;\/script&gt;/, 'as the JSON body shows it, escaped');
  assert.match(html, /&lt;html&gt;&lt;script&gt;steal\(\)&lt;\/script&gt;/);
  assert.match(html, /&quot;&gt;&lt;script&gt;alert\(3\)&lt;\/script&gt;/);
  assert.match(html, /&lt;img src=x onerror=alert\(2\)&gt;/);

  // No stack trace and no path of the machine, anywhere.
  assert.doesNotMatch(html, /^\s*at /m);
  assert.doesNotMatch(html, /Object\.judge/);
  for (const local of ['/work/', '/home/', 'file://', '/tmp/gone', '/tmp/bank']) assert.ok(!html.includes(local), `no ${local} in the report`);
  assert.match(html, /loaded from …\/bank\.yaml/, 'a path keeps only its file name');
  assert.match(html, /Error at …\/handler\.js/);

  // Self-contained: no external asset.
  assert.doesNotMatch(html, /<link|<script|src="https?:|url\(/i);
});

test('report.html tolerates an old or partial summary, and names each verdict in words', () => {
  const old = renderHtmlReport({ profile: 'Old Bank', variants: [{ variant: 'A', rules: [{ id: 'AIS-01', title: 'x', status: 'failed', scenarios: 1, failures: [{ scenario: 's', step: 'st', message: 'm', evidence: 'plain text evidence <b>' }] }] }] } as ReportSummary);
  assert.match(old, /Old Bank/);
  assert.match(old, /<strong>Not conformant<\/strong>/, 'no verdict field: derived from the rules');
  assert.doesNotMatch(old, /<th scope="col">(Level|Source)<\/th>/, 'no level or source in the summary: no such column');
  assert.match(old, /plain text evidence &lt;b&gt;/);
  const bare = renderHtmlReport({});
  assert.match(bare, /unnamed profile/);
  assert.match(bare, /No rule was run/);
  for (const [verdict, words] of [['pass', 'Conformant'], ['fail', 'Not conformant'], ['incomplete', 'Incomplete'], ['interrupted', 'Interrupted']]) {
    assert.match(renderHtmlReport({ profile: 'B', verdict }), new RegExp(`<strong>${words}</strong>`));
  }
  // Malformed entries (a hand-edited or truncated summary.json) render, never throw.
  const odd = renderHtmlReport({ profile: 42, variants: [null, { variant: 'A', rules: [null, { id: 5 }, { id: 'X-01', status: 'failed', failures: [null, { problems: [1, null, { at: '/p' }], evidence: { exchanges: [null, 3, { method: 5, url: {}, request: null, response: { status: 'x', headers: null } }], screenshots: [null, '../../etc/passwd'] } }] }] }], totals: null } as unknown as ReportSummary);
  assert.deepEqual(row(odd, 'X-01').slice(-1), ['FAIL']);
  assert.match(odd, /<h1 id="bank">42<\/h1>/);
  assert.doesNotMatch(odd, /etc\//, 'a screenshot name is only ever a file name');
  assert.ok(renderHtmlReport(null as unknown as ReportSummary).includes('unnamed profile'));
  // A rule not judged without a recorded cause is still listed.
  const silent = renderHtmlReport({ variants: [{ variant: 'B', rules: [{ id: 'COF-02', status: 'not-judged' }] }] });
  assert.match(silent.slice(silent.indexOf('id="not-judged"')), /COF-02[\s\S]*No cause was recorded/);
});

test('scrubText drops stack lines and local paths but keeps URLs and ordinary prose', () => {
  const text = [
    'Error: boom',
    '    at Foo.bar (/work/main/src/x.ts:1:2)',
    '    at /home/u/y.js:3:4',
    '    at async Promise.all (index 0)',
    '    at node:internal/process/task_queues:95:5',
    'see https://bank.example/home/accounts and http://127.0.0.1:8080/tmp/x',
    'written to C:\\Users\\bob\\report.png and /var/folders/ab/T/x.png',
    'we answer at once',
    'profile /srv/bank/profile.yaml',
  ].join('\n');
  assert.equal(scrubText(text, ['/opt/ci/checkout']), [
    'Error: boom',
    'see https://bank.example/home/accounts and http://127.0.0.1:8080/tmp/x',
    'written to …/report.png and …/x.png',
    'we answer at once',
    'profile …/profile.yaml',
  ].join('\n'));
  assert.equal(scrubText('cwd /opt/ci/checkout/sub/file.ts', ['/opt/ci/checkout']), 'cwd …/sub/file.ts');
  assert.equal(scrubText('http://x/a/b', ['/a']), 'http://x/a/b', 'a one-segment local path is never replaced literally');
});

test('writeHtmlReport embeds the screenshots kept in evidence/ and leaves no partial file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-html-'));
  try {
    await mkdir(join(dir, 'evidence'));
    await writeFile(join(dir, 'evidence', 'obtpp-psu-step2.png'), PNG);
    const summary = handMade();
    // The evidence names the screenshot by the absolute path it was written to on this machine.
    ((summary.variants![0]!.rules![1]!.failures![0]!.evidence as { screenshots: string[] }).screenshots)[0] = join(dir, 'evidence', 'obtpp-psu-step2.png');
    await writeHtmlReport(dir, summary);
    assert.deepEqual((await readdir(dir)).sort(), ['evidence', 'report.html']);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    assert.ok(html.includes(`data:image/png;base64,${PNG.toString('base64')}`), 'the PNG is embedded');
    assert.ok(!html.includes(dir), 'the report dir\'s own path is not shown');
    // Too large to embed: linked relatively instead.
    await writeHtmlReport(dir, summary, { maxEmbedBytes: 10 });
    assert.match(await readFile(join(dir, 'report.html'), 'utf8'), /<a href="evidence\/obtpp-psu-step2\.png">/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('obtpp conform writes our report.html, and Chromium shows the bank, the verdict, the rule table and the failure', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-html-e2e-'));
  let keep = process.env.OBTPP_KEEP_REPORT === '1';
  try {
    const run = await obtpp(['conform', '--tags', '@COF-04', '--sandbox-fault', 'funds-balance-disclosed', '--report-dir', dir]);
    assert.equal(run.code, 1, run.stderr);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    assert.doesNotMatch(html, /cucumber-js@|<script/i, 'not cucumber\'s page, and no script');
    for (const local of [dir, root, '/tmp/', '/work/', '/home/', 'file://']) assert.ok(!html.includes(local), `no ${local} in report.html`);
    assert.doesNotMatch(html, /^\s*at /m);

    // A page of its own in the test run's browser (a browser of its own when the file runs alone).
    const { page, close } = await reportPage();
    try {
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      await page.setViewport({ width: 1200, height: 1400 });
      const url = pathToFileURL(join(dir, 'report.html')).href;
      await page.goto(url, { waitUntil: 'load' });
      assert.deepEqual(requested, [url], 'the page loads nothing but itself');
      const seen = await page.evaluate(() => ({
        title: document.title,
        bank: document.querySelector('h1')?.textContent,
        verdict: document.querySelector('.verdict strong')?.textContent,
        scripts: document.scripts.length,
        header: [...document.querySelectorAll('table.rules thead th')].map((th) => th.textContent),
        rows: [...document.querySelectorAll('table.rules tbody tr')].map((tr) => [...tr.children].map((c) => (c as HTMLElement).innerText.trim())),
        failures: [...document.querySelectorAll('#failures article')].map((a) => a.querySelector('h3')?.textContent ?? ''),
        exchanges: document.querySelectorAll('#failures .exchange').length,
        order: [...document.querySelectorAll('main > section')].map((s) => s.id),
      }));
      assert.match(seen.bank ?? '', /^embedded sandbox/);
      assert.match(seen.title, /embedded sandbox/);
      assert.equal(seen.verdict, 'Not conformant');
      assert.equal(seen.scripts, 0);
      // (Level and Source columns appear when the summary carries them)
      assert.deepEqual(seen.header.filter((h) => h !== 'Level' && h !== 'Source'), ['Rule', 'Requirement', 'Variant A', 'Variant B']);
      assert.deepEqual(seen.order, ['rules', 'failures', 'warnings', 'not-judged', 'sequences'], 'the rule table comes first; each scenario\'s picture last');
      const cof04 = seen.rows.find((r) => r[0] === 'COF-04');
      assert.deepEqual(cof04?.slice(-2), ['FAIL', 'FAIL']);
      assert.deepEqual(seen.rows.find((r) => r[0] === 'PIS-01')?.slice(-2), ['skipped', 'n/a\nnot part of variant B']);
      assert.ok(seen.rows.length >= 20, `every rule has a row (${seen.rows.length})`);
      assert.equal(seen.failures.length, 2);
      for (const [i, v] of ['A', 'B'].entries()) assert.match(seen.failures[i]!, new RegExp(`COF-04 — .*Variant ${v}`));
      assert.ok(seen.exchanges >= 2, 'each failure shows its exchanges');
      const shot = join(dir, 'report-in-chromium.png');
      await page.screenshot({ path: shot, fullPage: false });
      const png = await readFile(shot);
      assert.ok(png.subarray(1, 4).toString() === 'PNG' && (await stat(shot)).size > 10_000, 'a screenshot of the report was taken');
      t.diagnostic(`screenshot: ${shot}${keep ? '' : ' (removed after the test; OBTPP_KEEP_REPORT=1 keeps it)'}`);
    } finally {
      await close();
    }
  } catch (error) {
    keep = true;
    t.diagnostic(`report dir kept: ${dir}`);
    throw error;
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
});

test('a PSU journey that fails in the bank\'s pages: report.html embeds the screenshot, named by file name only', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-html-shot-'));
  try {
    const run = await obtpp(['conform', '--tags', '@PIS-02', '--sandbox-fault', 'no-approve-button', '--report-dir', dir]);
    assert.equal(run.code, 1, run.stderr);
    const kept = (await readdir(join(dir, 'evidence'))).filter((f) => f.endsWith('.png'));
    assert.ok(kept.length > 0, 'the failed journey left a screenshot in evidence/');
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    assert.match(html, /id="failure-PIS-02-A-0"/);
    const embedded = [...html.matchAll(/<img src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/g)].map((m) => Buffer.from(m[1]!, 'base64'));
    assert.ok(embedded.length > 0, 'a screenshot is embedded');
    assert.ok(embedded.every((png) => png.subarray(1, 4).toString() === 'PNG'));
    assert.ok(kept.some((f) => html.includes(`<figcaption>${f}</figcaption>`)), 'captioned with its file name');
    for (const local of [dir, '/tmp/', 'file://']) assert.ok(!html.includes(local), `no ${local} in report.html`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
