// report.html as a bank engineer reads it (issue 29, items 1, 12, 13): the not-applicable reasons
// wrap inside their cells, the header names the standard judged and the bank's URLs (masked), each
// scenario is drawn as a sequence (TPP → AS → PSU browser → bank) with the failing step marked, the
// run's time is split in a chart, and progress hears what the run waits for. One small scoped run of
// the sandbox with a fault on, one Chromium to look at its report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderHtmlReport, type ReportSummary } from '../../src/conformance/html-report.ts';
import { placeSequence, sequenceItems, timeSplit, type SequenceItem } from '../../src/conformance/sequence.ts';
import { WaitProgress } from '../../src/cli/progress.ts';
import { CATALOGUES } from '../../src/dialects/catalogue.ts';
import { NotApplicableError, NotOfferedError } from '../../src/client/operations.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { root } from '../helpers/obtpp.ts';
import { reportPage } from '../helpers/report-page.ts';
import { conformWarm } from '../helpers/warm-cli.ts';
import type { ConformanceResult } from '../../src/index.ts';

test('progress: the spinner says what the run waits for; CI gets a line only for a lasting wait, at most one per scenario', () => {
  let now = 0;
  const spinner = { text: '3 scenarios, 0 failed — A AIS-01 x' };
  const p = new WaitProgress({ spinner, now: () => now, clean: (t) => t.replace(/\u001b/g, '\\x1b') });
  p.wait({ id: 1, state: 'start', kind: 'answer', what: 'the bank\'s answer: listing the accounts' });
  assert.equal(spinner.text, '3 scenarios, 0 failed — A AIS-01 x', 'a quick answer is not shown (it would flicker)');
  now = 800;
  p.tick();
  assert.equal(spinner.text, '3 scenarios, 0 failed — A AIS-01 x — waiting 0 s for the bank\'s answer: listing the accounts');
  p.wait({ id: 2, state: 'start', kind: 'journey', what: 'the PSU\'s journey in the browser (ais consent \u001b[31mX)' });
  now = 3_900;
  p.tick();
  assert.match(spinner.text, /— waiting 3 s for the PSU's journey in the browser \(ais consent \\x1b\[31mX\)$/, 'the journey outranks the answer; the bank\'s text is made safe');
  p.wait({ id: 2, state: 'end', kind: 'journey', what: '' });
  p.wait({ id: 1, state: 'end', kind: 'answer', what: '' });
  assert.equal(spinner.text, '3 scenarios, 0 failed — A AIS-01 x', 'nothing waited for: the spinner\'s own text');

  const lines: string[] = [];
  now = 0;
  const plain = new WaitProgress({ write: (l) => lines.push(l), now: () => now });
  plain.wait({ id: 3, state: 'start', kind: 'expiry', what: 'consent c-1 to expire (up to 12 s) before the probe' });
  now = 9_000;
  plain.tick();
  assert.deepEqual(lines, [], 'a short wait writes nothing');
  now = 11_000;
  plain.tick();
  now = 30_000;
  plain.tick();
  assert.deepEqual(lines, ['  … waiting 11 s for consent c-1 to expire (up to 12 s) before the probe'], 'one line per wait between two scenarios');
  plain.scenario();
  now = 45_000;
  plain.tick();
  assert.equal(lines.length, 2, 'after the next scenario line, a wait still going is told again');
  plain.stop();
});

test('a scenario\'s sequence: calls told apart (AS or bank), its journey found by its consent, items placed under their steps; the time split counts each instant once', () => {
  const at = (ms: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, 0) + ms).toISOString();
  const ex = (ms: number, method: string, url: string, status: number | undefined, dur: number, body?: unknown): Exchange => ({
    seq: ms, method, url, request: { headers: {} },
    ...(status === undefined ? { error: { code: 'UND_ERR_SOCKET', message: 'reset' } } : { response: { status, headers: {}, body, json: true, bytes: 10 } }),
    timings: { startedAt: at(ms), durationMs: dur },
  });
  const exchanges = [
    ex(0, 'POST', 'https://as.bank.example/token', 200, 20),
    ex(30, 'POST', 'https://api.bank.example/open-banking/v3.1/aisp/account-access-consents', 201, 30, { Data: { ConsentId: 'aac-7' } }),
    ex(2_100, 'GET', 'https://api.bank.example/open-banking/v3.1/aisp/accounts?x=1', 200, 10),
    ex(2_200, 'GET', 'https://api.bank.example/open-banking/v3.1/aisp-other/x', undefined, 50),
  ];
  const journeys = [
    { intentId: 'aac-7', fn: 'ais' as const, startedAt: at(70), durationMs: 2_000, outcome: 'authorised' },
    { intentId: 'someone-else', fn: 'ais' as const, startedAt: at(80), durationMs: 1_500, outcome: 'authorised' },
  ];
  const items = sequenceItems(exchanges, journeys, ['https://api.bank.example/open-banking/v3.1/aisp'], [{ what: 'waits for expiry', startedAt: at(2_150), durationMs: 40 }]);
  assert.deepEqual(items.map((i) => [i.kind, i.to]), [['http', 'AS'], ['http', 'bank'], ['journey', 'PSU'], ['http', 'bank'], ['pause', 'TPP'], ['http', 'AS']],
    'the other consent\'s journey is not this scenario\'s; a path that only starts like the base is not the bank\'s API');
  assert.equal((items[3] as Extract<SequenceItem, { kind: 'http' }>).path, '/open-banking/v3.1/aisp/accounts?x=1');
  assert.equal((items[0] as Extract<SequenceItem, { kind: 'http' }>).path, 'as.bank.example/token', 'an authorisation server on a host of its own is named');
  assert.equal((items[5] as Extract<SequenceItem, { kind: 'http' }>).error, 'UND_ERR_SOCKET');

  const t0 = Date.parse(at(0));
  const seq = placeSequence('Accounts are listed', 'failed', [
    { text: 'the PSU has authorised a consent', status: 'passed', startedMs: t0 + 25, finishedMs: t0 + 2_090 },
    { text: 'the AISP lists the accounts', status: 'passed', startedMs: t0 + 2_095, finishedMs: t0 + 2_195 },
    { text: 'the answer is valid', status: 'failed', startedMs: t0 + 2_196, finishedMs: t0 + 2_300 },
  ], items);
  assert.deepEqual(seq.items.map((i) => i.step), [undefined, 0, 0, 1, 1, 2], 'the first call was a shared set-up, before the steps');
  assert.deepEqual(seq.steps.map((s) => s.ms), [2_065, 100, 104]);

  // A journey of 2 s with calls inside it, calls outside, a pause: 10 s of wall time.
  const split = timeSplit([...items, ...items], 10_000);
  // HTTP outside the journey (70–2070 ms): the token 20, the consent 30, the accounts 10, the reset 50.
  assert.deepEqual(split, { authorisationsMs: 2_000, httpMs: 110, waitingMs: 40, judgingMs: 10_000 - 2_000 - 110 - 40 }, 'duplicates and overlaps counted once');
  // Overlapping journeys count once; a call inside a journey is the journey's time.
  const j = (ms: number, dur: number): SequenceItem => ({ kind: 'journey', to: 'PSU', outcome: 'authorised', at: at(ms), ms: dur });
  const h = (ms: number, dur: number): SequenceItem => ({ kind: 'http', to: 'AS', method: 'POST', path: `/t${ms}`, status: 200, at: at(ms), ms: dur });
  assert.deepEqual(timeSplit([j(0, 1_000), j(500, 1_000), h(200, 100), h(1_400, 300)], 1_000), { authorisationsMs: 1_500, httpMs: 200, waitingMs: 0, judgingMs: 0 }, 'work side by side never exceeds the wall time it took');
});

test('the report\'s header: the standard judged, the bank\'s URLs with credentials and tokens masked; an older summary says they were not recorded', () => {
  const html = renderHtmlReport({
    profile: 'Bank', standard: { dialect: 'berlin-group', name: 'Berlin Group NextGenPSD2 XS2A', version: '1.3.x' },
    bank: { issuer: 'https://idp.bank.example/?access_token=tok-123', baseUrls: [{ variant: 'A', api: 'ais', url: 'https://ops:s3cr3t-pw@api.bank.example/v1' }] },
  });
  const header = html.slice(0, html.indexOf('id="rules"'));
  assert.match(header, /<dd id="standard">Berlin Group NextGenPSD2 XS2A 1\.3\.x <span class="sub">\(dialect berlin-group\)<\/span><\/dd>/);
  assert.match(header, /Variant A ais: <span class="mono">https:\/\/\[REDACTED\]:\[REDACTED\]@api\.bank\.example\/v1<\/span>/);
  for (const secret of ['s3cr3t-pw', 'tok-123', 'ops:']) assert.ok(!html.includes(secret), `${secret} is masked`);
  const old = renderHtmlReport({ profile: 'Old' });
  assert.match(old, /<dd id="standard">not recorded \(an older summary\)<\/dd>/);
  assert.doesNotMatch(old, /id="time-split"/, 'no split recorded: no chart');
});

test('the bank\'s base URLs as a profile configures them: per variant and API, the variant\'s APIs only, credentials and tokens masked by the run\'s redactor', async () => {
  const { bankLocation } = await import('../../src/conformance/runner.ts');
  const { Redactor } = await import('../../src/client/redact.ts');
  const profile = {
    baseUrl: 'https://api.bank.example/open-banking/v3.1', variantBaseUrls: {},
    apis: { pis: { baseUrl: 'https://pay.bank.example/ob?api_key=k-77', variantBaseUrls: {} }, cof: { variantBaseUrls: { B: 'https://svc:pw-1@cof-b.bank.example/cbpii' } } },
    absentApis: [], auth: { issuer: 'https://as.bank.example/?client_secret=cs-9' },
  } as unknown as import('../../src/profile/types.ts').Profile;
  const redactor = new Redactor(['k-77']);
  const where = bankLocation(profile, ['A', 'B'], 'obie', redactor);
  const text = JSON.stringify(where);
  for (const secret of ['k-77', 'pw-1', 'cs-9', 'svc:']) assert.ok(!text.includes(secret), `${secret} masked: ${text}`);
  assert.deepEqual(where.baseUrls.map((b) => `${b.variant} ${b.api}`), ['A ais', 'A cof', 'A pis', 'B ais', 'B cof'], 'variant B has no payment initiation');
  assert.equal(where.baseUrls[0]!.url, 'https://api.bank.example/open-banking/v3.1');
  const same = bankLocation({ ...profile, apis: {} } as typeof profile, ['A'], 'obie', redactor);
  assert.deepEqual(same.baseUrls, [{ variant: 'A', api: 'ais, cof, pis', url: 'https://api.bank.example/open-banking/v3.1' }], 'one line where every API shares the base URL');
});

/** The longest not-applicable reason the suite can give a rule: every operation's, the variant's and the dialect's, the three longest joined as a rule with mixed scenarios shows them. */
function longestReasons(summary: ReportSummary): string {
  const reasons = new Set<string>(summary.variants!.flatMap((v) => v.rules!.map((r) => r.reason ?? '')));
  for (const catalogue of Object.values(CATALOGUES)) {
    for (const op of Object.keys(catalogue)) {
      for (const v of ['A', 'B'] as const) {
        reasons.add(new NotApplicableError(op as never, v).message);
        reasons.add(new NotOfferedError(op as never, v).message);
      }
    }
  }
  // A bank's own words reach a reason too (the SEC-09 waiver it names): one long unbroken reference.
  reasons.add(`the profile says the bank does not sign its answers (bank.signsAnswers: false), under the waiver "https://regulator.example/waivers/${'X'.repeat(90)}"`);
  return [...reasons].sort((a, b) => b.length - a.length).slice(0, 3).join('; ');
}

test('one scoped run with a fault on: Chromium at 1280 px shows no overlapping cell, the header, the time chart and the failing scenario\'s sequence; the run told what it waited for', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-picture-'));
  let keep = process.env.OBTPP_KEEP_REPORT === '1';
  try {
    // The run in a warm worker (the library the CLI calls, built), its events given back in order.
    const run = await conformWarm({ tags: '@COF-04', variant: 'A', sandboxFaults: ['funds-balance-disclosed'], reportDir: dir });
    const { exitCode } = run;
    const summary = run.summary as ConformanceResult['summary'];
    const waits: Array<{ id: number; state: string; kind: string; what: string }> = [];
    let afterDone = 0;
    let done = false;
    for (const { e } of run.events) {
      if (e.type === 'done') done = true;
      else if (e.type === 'wait') (done ? afterDone++ : waits.push(e));
    }
    assert.equal(exitCode, 1);
    // Progress: the journeys and the bank's answers, each wait ended, none after the run.
    assert.ok(waits.some((w) => w.kind === 'journey' && /^the PSU's journey in the browser \(cof consent /.test(w.what)), 'a PSU journey is told');
    assert.ok(waits.some((w) => w.kind === 'answer' && /^the bank's answer: confirming funds/.test(w.what)), 'the bank\'s answer is told');
    const open = new Set<number>();
    for (const w of waits) w.state === 'start' ? open.add(w.id) : open.delete(w.id);
    assert.equal(open.size, 0, 'every wait told ended');
    assert.equal(afterDone, 0);

    // summary.json: what was judged, where, how the time went, each scenario's sequence.
    assert.equal(summary.standard?.name, 'UK Open Banking Read/Write API');
    assert.deepEqual(summary.bank?.baseUrls.map((b) => `${b.variant} ${b.api}`), ['A ais, cof, pis']);
    assert.match(summary.bank!.baseUrls[0]!.url, /^http:\/\/127\.0\.0\.1:\d+\/A\/open-banking\/v3\.1$/);
    const split = summary.timeSplit!;
    assert.ok(split.authorisationsMs > 0 && split.httpMs > 0, JSON.stringify(split));
    assert.ok(Math.abs(split.authorisationsMs + split.httpMs + split.waitingMs + split.judgingMs - summary.durationMs) <= 5, 'the split is the run\'s duration');
    const cof04 = summary.variants.find((v) => v.variant === 'A')!.rules.find((r) => r.id === 'COF-04')!;
    const seq = cof04.sequences?.[0];
    assert.ok(seq && seq.status === 'failed', 'the failed scenario has its sequence');
    const failedAt = seq.steps.findIndex((s) => s.status === 'failed');
    assert.match(seq.steps[failedAt]!.text, /no balance is disclosed/);
    assert.ok(seq.items.some((i) => i.kind === 'journey' && i.outcome === 'authorised'), 'its PSU journey');
    assert.ok(seq.items.some((i) => i.kind === 'http' && i.to === 'bank' && i.method === 'POST' && /funds-confirmations$/.test(i.path) && i.status === 201 && i.step !== undefined));
    assert.ok(seq.items.some((i) => i.kind === 'http' && i.to === 'AS' && i.path === '/token'));

    // The run's own report, re-rendered with the longest reason of the suite in a not-applicable cell
    // and a URL with credentials in the header (what a real profile may hold).
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    assert.match(html, /<svg class="seq"/);
    const longest = longestReasons(summary as ReportSummary);
    const edited = JSON.parse(JSON.stringify(summary)) as ReportSummary;
    // A rule not selected in this run stands in for one that does not apply (the cell is the same).
    const na = edited.variants![0]!.rules!.find((r) => r.status === 'skipped' && r.id.startsWith('COF'))!;
    Object.assign(na, { status: 'not-applicable', reason: longest, verdict: `not applicable: ${longest}` });
    edited.bank!.baseUrls!.push({ variant: 'A', api: 'pis', url: 'https://ops:pw-9931@payments.bank.example/open-banking/v3.1/pisp?access_token=tok-5521' });
    const file = join(dir, 'report-longest.html');
    await writeFile(file, renderHtmlReport(edited));

    // A page of its own in the test run's browser (a browser of its own when the file runs alone).
    const { page, close } = await reportPage();
    try {
      const requested: string[] = [];
      page.on('request', (r) => requested.push(r.url()));
      await page.setViewport({ width: 1280, height: 900 });
      const url = pathToFileURL(file).href;
      await page.goto(url, { waitUntil: 'load' });
      assert.deepEqual(requested, [url], 'the page loads nothing but itself (it opens offline)');
      const seen = await page.evaluate((longestReason) => {
        const problems: string[] = [];
        const inside = (a: DOMRect, b: DOMRect) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5;
        for (const tr of document.querySelectorAll('table.rules tr')) {
          const cells = [...tr.children] as HTMLElement[];
          cells.forEach((cell, i) => {
            const box = cell.getBoundingClientRect();
            const next = cells[i + 1]?.getBoundingClientRect();
            if (next && box.right > next.left + 0.5) problems.push(`${tr.id} cell ${i} runs into the next`);
            // The text as laid out, wherever it spills: each line box must stay in its cell.
            const range = document.createRange();
            range.selectNodeContents(cell);
            for (const line of range.getClientRects()) if (line.width > 0 && !inside(line, box)) problems.push(`${tr.id} cell ${i}: text at ${Math.round(line.left)}–${Math.round(line.right)} outside ${Math.round(box.left)}–${Math.round(box.right)}`);
          });
        }
        const cell = [...document.querySelectorAll('td.status-not-applicable')].find((td) => (td.textContent ?? '').includes(longestReason.slice(0, 40)));
        const failure = [...document.querySelectorAll('#failures article')].find((a) => /COF-04/.test(a.querySelector('h3')?.textContent ?? ''));
        const svg = failure?.querySelector('svg.seq');
        const svgBox = svg?.getBoundingClientRect();
        return {
          problems,
          pageWide: document.documentElement.scrollWidth,
          longestShown: !!cell && (cell.textContent ?? '').replace(/\s+/g, ' ').includes(longestReason.replace(/\s+/g, ' ')),
          standard: document.querySelector('#standard')?.textContent ?? '',
          bankUrls: (document.querySelector('#bank-urls') as HTMLElement | null)?.innerText ?? '',
          split: [...document.querySelectorAll('#time-split svg rect')].length,
          splitText: document.querySelector('#time-split')?.textContent ?? '',
          heads: svg ? [...svg.querySelectorAll('.head text')].map((x) => x.textContent) : [],
          failedStep: svg?.querySelector('.step-failed text')?.textContent ?? '',
          failingArrows: svg ? svg.querySelectorAll('.failing').length : 0,
          answers: svg ? [...svg.querySelectorAll('.answer')].map((x) => x.textContent ?? '') : [],
          calls: svg ? [...svg.querySelectorAll('.call')].map((x) => x.textContent ?? '') : [],
          svgVisible: !!svgBox && svgBox.width > 300 && svgBox.height > 100 && svgBox.right <= window.innerWidth,
          pictures: document.querySelectorAll('#sequences svg.seq').length,
        };
      }, longest);
      assert.deepEqual(seen.problems, [], 'no cell overlaps another at 1280 px');
      assert.ok(seen.pageWide <= 1280, `the page fits 1280 px (${seen.pageWide})`);
      assert.ok(seen.longestShown, 'the longest reason is shown whole, wrapped in its cell');
      assert.match(seen.standard, /^UK Open Banking Read\/Write API v3\.1\.x .*\(dialect obie\), per the access-service spec's variants$/);
      assert.match(seen.bankUrls, /^authorisation server http:\/\/127\.0\.0\.1:\d+\/\nVariant A ais, cof, pis: http:\/\/127\.0\.0\.1:\d+\/A\/open-banking\/v3\.1\n/);
      assert.match(seen.bankUrls, /Variant A pis: https:\/\/\[REDACTED\]:\[REDACTED\]@payments\.bank\.example\/open-banking\/v3\.1\/pisp\?access_token=\[REDACTED\]/);
      assert.doesNotMatch(seen.bankUrls, /pw-9931|tok-5521/);
      assert.ok(seen.split >= 3, 'the time split is a chart');
      assert.match(seen.splitText, /PSU authorisations .* HTTP answers .* judging and the rest/);
      assert.deepEqual(seen.heads, ['TPP (obtpp)', 'authorisation server', 'PSU browser', 'bank (resource API)']);
      assert.match(seen.failedStep, /^✗ the answer is only whether funds are available, and no balance is disclosed · \d+ ms · failed here$/);
      assert.equal(seen.failingArrows, 1, 'the call the failing step judged is marked');
      assert.ok(seen.calls.some((c) => /^POST \/A\/open-banking\/v3\.1\/funds-confirmations$/.test(c)), seen.calls.join(' | '));
      assert.ok(seen.calls.some((c) => /^PSU journey in the browser: authorised$/.test(c)));
      assert.ok(seen.answers.some((a) => /^201 · \d+ ms$/.test(a)), seen.answers.join(' | '));
      assert.ok(seen.answers.some((a) => /^✗ 200 · \d+ ms$/.test(a)), 'the failing step\'s answer carries the mark');
      assert.ok(seen.svgVisible, 'the picture is drawn, within the page');
      const recorded = summary.variants.flatMap((v) => v.rules.flatMap((r) => r.sequences ?? [])).length;
      assert.ok(recorded >= 1 && seen.pictures === recorded, `section 5 draws each scenario (${seen.pictures} of ${recorded})`);
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
