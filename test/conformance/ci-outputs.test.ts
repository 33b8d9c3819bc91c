// What a CI server reads of `obtpp conform` (issue 29, items 2, 4 and 6), through the real binary
// (build first; in a warm worker, which runs it as its own process would) against a sandbox bank on 127.0.0.1 with two faults and a waiver: one scoped run
// (variant A, three rules) whose console, junit.xml, summary.md, GitHub annotations and step
// summary are checked; then the pure pieces (GitHub's escaping, Markdown's) on crafted input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { escapeData, escapeProperty, githubAnnotations, mdText, summaryMarkdown } from '../../src/conformance/ci-report.ts';
import { rewriteFailures } from '../../src/conformance/junit.ts';
import { REPORT_OUTPUTS } from '../../src/conformance/runner.ts';
import type { Summary } from '../../src/conformance/summary.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

let sb: Sandbox;
let dir: string;
let reportDir: string;
let stepSummary: string;
let secrets: string[];
let run: { code: number; stdout: string; stderr: string };
const EARLIER = '# an earlier step wrote this\n';

before(async () => {
  // AIS-01 fails and is waived, AIS-04 fails, AIS-11 passes with SHOULD warnings (Currency missing).
  sb = await startSandbox({ quiet: true, faults: ['consent-status-not-awaiting', 'unselected-accounts', 'account-field-missing'] });
  dir = await mkdtemp(join(tmpdir(), 'obtpp-ci-'));
  const profile = sb.profile('all') as any;
  secrets = [profile.auth.clientAuth.secret, profile.psu?.password, profile.psu?.credentials?.password].filter((s): s is string => typeof s === 'string' && s.length > 4);
  assert.ok(secrets.length >= 1, 'the profile carries a secret to look for');
  await writeFile(join(dir, 'bank.json'), JSON.stringify(profile), { mode: 0o600 });
  await writeFile(join(dir, 'waivers.yaml'), '- rule: AIS-01\n  reason: known, fix in release 42\n  owner: consents-team\n  expires: 2999-12-31\n');
  reportDir = join(dir, 'reports');
  stepSummary = join(dir, 'step-summary.md');
  await writeFile(stepSummary, EARLIER);
  run = await runObtpp(['conform', '--profile', 'bank.json', '--variant', 'A', '--tags', '@AIS-01 or @AIS-04 or @AIS-11',
    '--waivers', 'waivers.yaml', '--report-dir', reportDir], {
    cwd: dir,
    env: { HOME: dir, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary },
    timeoutMs: 180_000,
  });
});

after(async () => {
  await sb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the run failed AIS-04 only (AIS-01 waived): the ground the other checks stand on', () => {
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /^AIS-04 +FAIL/m, run.stdout);
  assert.match(run.stdout, /^AIS-01 +waived/m, run.stdout);
});

test('29.2: the last lines name the waived count and the SHOULD warning count', () => {
  const verdict = run.stdout.split('\n').find((l) => /^NOT CONFORMANT:/.test(l));
  assert.ok(verdict, run.stdout);
  assert.match(verdict!, /\b1 waived\b/);
  const warnings = /; (\d+) SHOULD warnings?/.exec(verdict!);
  assert.ok(warnings && Number(warnings[1]) >= 1, verdict);
});

test('29.2: a scoped run lists only the rules it ran, and the others in one line', () => {
  const rows = run.stdout.split('\n').filter((l) => /^[A-Z]{2,5}-\d{2} /.test(l));
  assert.deepEqual(rows.map((l) => l.split(/\s+/)[0]), ['AIS-01', 'AIS-04', 'AIS-11'], run.stdout);
  assert.doesNotMatch(run.stdout, /\bskip\b/, 'no rule shown as a skip');
  const scope = run.stdout.split('\n').filter((l) => /rules not in scope/.test(l));
  assert.equal(scope.length, 1, run.stdout);
  assert.match(scope[0]!, /^\d+ rules not in scope/);
});

test('29.4: JUnit failures say rule, step, finding and evidence; no stack trace, no path of the machine', async () => {
  const xml = await readFile(join(reportDir, 'junit.xml'), 'utf8');
  const failures = [...xml.matchAll(/<failure\b[^>]*>([\s\S]*?)<\/failure>/g)].map((m) => m[1]!);
  assert.ok(failures.length >= 2, xml.slice(0, 2000));
  for (const f of failures) {
    assert.match(f, /rule: AIS-0[14] — /);
    assert.match(f, /\nstep: /);
    assert.match(f, /\nfinding: AIS-0[14]: /);
  }
  for (const f of failures) assert.match(f, /\nevidence[^\n]*:\n(?: {2}.*\n)* {2}(GET|POST) http:\/\/127\.0\.0\.1:\d+\/\S+ → \d{3} \[x-fapi-interaction-id [0-9a-f-]{36}\]/);
  assert.doesNotMatch(xml, /^\s+at /m, 'no stack frame');
  for (const local of [root, pathToFileURL(root).href, 'step-definitions/', 'ConformanceWorld']) assert.ok(!xml.includes(local), `junit.xml names ${local}`);
});

test('29.6: summary.md beside junit.xml: verdict, counts, the failed rule, the warnings', async () => {
  assert.ok(REPORT_OUTPUTS.includes('summary.md'), 'a reused report dir loses the old summary.md');
  const md = await readFile(join(reportDir, 'summary.md'), 'utf8');
  assert.match(md, /^## obtpp conformance: .*NOT CONFORMANT/m);
  assert.match(md, /^\| waived \| 1 \|$/m);
  assert.match(md, /^\| SHOULD warnings \| [1-9]\d* \|$/m);
  assert.match(md, /### Failed rules[\s\S]*\| AIS-04 \(MUST\) \| A \|/);
  assert.match(md, /### Waived rules[\s\S]*\| AIS-01/);
  assert.match(md, /### SHOULD warnings[\s\S]*\| AIS-11 \(SHOULD\) \| A \|/);
  assert.doesNotMatch(md.split('### Failed rules')[1]!.split('###')[0]!, /AIS-01|AIS-11/, 'only AIS-04 failed');
  const docs = await readFile(join(root, 'docs', 'ci.md'), 'utf8');
  assert.match(docs, /^\| `summary\.md` \| /m, 'the CI gate\'s table of the report dir (docs/ci.md) names summary.md');
  assert.match(docs, /GITHUB_STEP_SUMMARY/, 'and says what it does in GitHub Actions');
});

test('29.6: GITHUB_ACTIONS: one ::error per failed rule, one ::warning per SHOULD warning; GITHUB_STEP_SUMMARY gets summary.md appended', async () => {
  const lines = run.stdout.split('\n');
  const errors = lines.filter((l) => l.startsWith('::error'));
  assert.deepEqual(errors.map((l) => /^::error title=([^:]+)::/.exec(l)?.[1]), ['AIS-04'], run.stdout);
  assert.match(errors[0]!, /::AIS-04 \(MUST\) failed in variant A: AIS-04: /);
  const warnings = lines.filter((l) => l.startsWith('::warning'));
  assert.ok(warnings.length >= 1, run.stdout);
  for (const w of warnings) assert.match(w, /^::warning title=AIS-11::AIS-11 \(SHOULD, variant A\): /);
  const md = await readFile(join(reportDir, 'summary.md'), 'utf8');
  assert.equal(await readFile(stepSummary, 'utf8'), EARLIER + md, 'appended, the earlier step\'s text kept');
});

test('29.6: no secret of the profile reaches the console, summary.md, the step summary or junit.xml', async () => {
  const texts = [run.stdout, run.stderr, await readFile(join(reportDir, 'summary.md'), 'utf8'), await readFile(stepSummary, 'utf8'), await readFile(join(reportDir, 'junit.xml'), 'utf8')];
  for (const secret of secrets) for (const t of texts) assert.ok(!t.includes(secret), 'a secret leaked');
});

test('GitHub\'s escaping: % \\r \\n in a message; and : , too in a property', () => {
  assert.equal(escapeData('100% a\r\nb: c, d'), '100%25 a%0D%0Ab: c, d');
  assert.equal(escapeProperty('AIS-04: a, b%\n'), 'AIS-04%3A a%2C b%25%0A');
  const summary = {
    tool: { name: 'obtpp', version: '0' }, profile: 'p', startedAt: '', durationMs: 0, verdict: 'fail',
    variants: [{ variant: 'A', rules: [{
      id: 'X-01', title: 't', level: 'MUST', status: 'failed', verdict: 'FAIL', scenarios: 1, counts: { passed: 0, failed: 1, notApplicable: 0, notJudged: 0 },
      failures: [{ scenario: 's', step: 'st', message: 'line one\n::error title=FAKE::forged\r100%' }],
      warnings: [{ scenario: 's', step: 'st', message: 'w: a, b', level: 'SHOULD' }],
    }] }],
    totals: { rules: { passed: 0, failed: 1, 'not-judged': 0, 'not-applicable': 0, skipped: 0 }, scenarios: { passed: 0, failed: 1, notJudged: 0, notApplicable: 0, skipped: 0 }, warnings: 1 },
  } as unknown as Summary;
  const lines = githubAnnotations(summary);
  assert.equal(lines.length, 2);
  assert.equal(lines[0], '::error title=X-01::X-01 (MUST) failed in variant A: line one%0A::error title=FAKE::forged%0D100%25 — scenario "s", step "st"');
  assert.equal(lines[1], '::warning title=X-01::X-01 (SHOULD, variant A): w: a, b');
  for (const l of lines) assert.doesNotMatch(l, /[\r\n]/, 'one line each: a bank\'s text cannot start a command of its own');
});

test('summary.md shows a bank\'s text as text: no HTML, no table break', () => {
  assert.equal(mdText('<img src=x onerror=alert(1)> a|b\nc'), '&lt;img src=x onerror=alert(1)&gt; a\\|b c');
  const summary = {
    tool: { name: 'obtpp', version: '0' }, profile: '<b>bank</b>', startedAt: '', durationMs: 0, verdict: 'fail',
    variants: [{ variant: 'A', rules: [{
      id: 'X-01', title: 't', level: 'MUST', status: 'failed', verdict: 'FAIL', scenarios: 1, counts: { passed: 0, failed: 1, notApplicable: 0, notJudged: 0 },
      failures: [{ scenario: 's|t', step: 'st', message: '<script>x</script> | y' }],
    }] }],
    totals: { rules: { passed: 0, failed: 1, 'not-judged': 0, 'not-applicable': 0, skipped: 0 }, scenarios: { passed: 0, failed: 1, notJudged: 0, notApplicable: 0, skipped: 0 }, warnings: 0 },
  } as unknown as Summary;
  const md = summaryMarkdown(summary);
  assert.doesNotMatch(md, /<script>|<b>/);
  const row = md.split('\n').find((l) => l.startsWith('| X-01'))!;
  assert.equal(row.split(/(?<!\\)\|/).length, 6, row);
});

test('a failure no finding words keeps its own lines, without stack frames or the install folder', () => {
  const xml = `<testsuite><testcase classname="F" name="R - S" time="0"><failure type="TypeError" message="boom at ${root}/x.js"><![CDATA[TypeError: boom\n    at f (file://${root}/dist/x.js:1:1)\n    at g (${root}/dist/y.js:2:2)]]></failure></testcase></testsuite>`;
  const out = rewriteFailures(xml, new Map(), [root]);
  assert.match(out, /<!\[CDATA\[TypeError: boom\]\]>/);
  assert.ok(!out.includes(root), out);
  assert.match(out, /message="boom at &lt;obtpp&gt;\/x\.js"/);
});

test('29.4: obtpp\'s own TypeError in a step is no finding about the bank: not judged, a JUnit <error>, an internal error for exit 3', async () => {
  const { SummaryBuilder } = await import('../../src/conformance/summary.ts');
  const rule = (id: string, scenario: string) => ({ id: `rule-${id}`, name: `${id} — a rule`, tags: [{ name: `@${id}` }, { name: '@level-MUST' }], children: [{ scenario: { id: `sc-${id}`, name: scenario, examples: [], steps: [], tags: [{ name: '@A' }] } }] });
  const feature = { name: 'Things (variant A)', tags: [{ name: '@variant-A' }], children: [{ rule: rule('XA-01', 'obtpp breaks') }, { rule: rule('XB-02', 'the bank breaks') }] };
  const b = new SummaryBuilder();
  b.add({ gherkinDocument: { feature } });
  const results = [
    { status: 'FAILED', message: `TypeError: Cannot read properties of undefined (reading 'Data')\n    at step (file://${root}/dist/step-definitions/x.js:1:1)`, exception: { type: 'TypeError', message: 'Cannot read properties of undefined (reading \'Data\')' } },
    { status: 'FAILED', message: `RuleViolation: XB-02: expected 201, got 200\n    at step (file://${root}/dist/step-definitions/x.js:2:2)`, exception: { type: 'RuleViolation', message: 'XB-02: expected 201, got 200' } },
  ];
  let xml = '<?xml version="1.0"?>\n<testsuite name="obtpp conformance" time="0" tests="2" skipped="0" failures="2" errors="0">\n';
  ['XA-01', 'XB-02'].forEach((id, i) => {
    const pickle = { id: `p${i}`, name: i ? 'the bank breaks' : 'obtpp breaks', astNodeIds: [`sc-${id}`], steps: [{ id: `s${i}`, text: 'the step' }], tags: [{ name: `@${id}` }, { name: '@A' }, { name: '@variant-A' }] };
    b.add({ pickle });
    b.add({ testCase: { id: `tc${i}`, pickleId: pickle.id, testSteps: [{ id: `ts${i}`, pickleStepId: `s${i}` }] } });
    b.add({ testCaseStarted: { id: `run${i}`, testCaseId: `tc${i}` } });
    b.add({ testStepFinished: { testCaseStartedId: `run${i}`, testStepId: `ts${i}`, testStepResult: results[i] } });
    b.add({ testCaseFinished: { testCaseStartedId: `run${i}` } });
    xml += `  <testcase classname="${feature.name}" name="${id} — a rule - ${pickle.name}" time="0">\n    <failure type="${results[i]!.exception.type}" message="m"><![CDATA[${results[i]!.message}]]></failure>\n  </testcase>\n`;
  });
  xml += '</testsuite>\n';
  const summary = b.build({ version: '0', profile: 'p', startedAt: new Date(), variants: ['A'] });
  const byId = Object.fromEntries(summary.variants[0]!.rules.map((r) => [r.id, r]));
  assert.equal(byId['XA-01']!.status, 'not-judged', 'obtpp\'s crash judges nothing');
  assert.match(byId['XA-01']!.notJudged![0]!.message, /^obtpp itself failed in this step \(a bug of obtpp, not a finding about the bank\): TypeError: Cannot read/);
  assert.equal(byId['XB-02']!.status, 'failed', 'the bank\'s violation stays a failure');
  assert.deepEqual(b.internalErrors(), [{ variant: 'A', rule: 'XA-01', scenario: 'obtpp breaks', step: 'the step', message: 'TypeError: Cannot read properties of undefined (reading \'Data\')' }]);
  const out = rewriteFailures(xml, b.failureTexts(), [root], b.internalErrorTexts());
  assert.match(out, /<testsuite [^>]*failures="1" errors="1"/);
  assert.match(out, /name="XA-01 — a rule - obtpp breaks" time="0">\n {4}<error type="ObtppInternalError" message="obtpp itself failed[^"]*"><!\[CDATA\[[^\]]*error: TypeError: Cannot read/);
  assert.match(out, /name="XB-02 — a rule - the bank breaks" time="0">\n {4}<failure type="RuleViolation" message="XB-02: expected 201, got 200"><!\[CDATA\[rule: XB-02 — a rule \(MUST\)\nscenario: the bank breaks \(variant A\)\nstep: the step\nfinding: XB-02: expected 201, got 200\]\]>/);
  assert.ok(!out.includes(root) && !/^\s+at /m.test(out), out);
});
