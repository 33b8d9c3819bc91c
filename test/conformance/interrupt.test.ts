// Issue 29.5: SIGINT in the middle of a real scoped run (the real binary, build first; the embedded
// sandbox and Chromium): exit 130, and before exiting a valid partial junit.xml (every selected
// scenario; those not run skipped as not run), summary.json and summary.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'src', 'cli', 'main.js');

/** Elements open and close in order, attributes are quoted, and nothing but CDATA holds a raw `<` or `&`. */
function assertWellFormed(xml: string): void {
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while (at < body.length && (m = tag.exec(body))) {
    at = tag.lastIndex;
    if (m[5] !== undefined) {
      assert.doesNotMatch(m[5], /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i, 'a raw & in text');
      continue;
    }
    for (const [, value] of m[3]!.matchAll(/="([^"]*)"/g)) assert.doesNotMatch(value!, /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)|</i, `attribute ${value}`);
    if (m[4]) continue;
    if (m[1]) assert.equal(stack.pop(), m[2], `</${m[2]}> closes what was opened`);
    else stack.push(m[2]!);
  }
  assert.equal(at, body.length, `unparsable from: ${body.slice(at, at + 200)}`);
  assert.deepEqual(stack, [], 'every element closed');
}

test('SIGINT mid-run: exit 130, a valid partial junit.xml with the scenarios not run marked so, summary.json and summary.md', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-interrupt-'));
  try {
    const reportDir = join(dir, 'r');
    const child = spawn(process.execPath, [bin, 'conform', '--variant', 'A', '--tags', '@AIS-01 or @AIS-04 or @AIS-11', '--report-dir', reportDir], {
      cwd: dir, env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (b) => {
      stderr += b;
      // After the first finished scenario: some ran, the rest (a PSU journey among them) had not.
      if (!sent && /^✓ .*\n/m.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    clearTimeout(timer);
    assert.ok(sent, stderr);
    assert.equal(code, 130, stderr);
    assert.match(stderr.trim().split('\n').at(-1)!, /^obtpp: interrupted by SIGINT: \d+ scenarios? had finished .*partial reports in .*\{summary\.json,summary\.md,junit\.xml\}/);

    const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
    assert.equal(summary.verdict, 'interrupted');
    const finished = summary.totals.scenarios.passed + summary.totals.scenarios.failed + summary.totals.scenarios.notJudged + summary.totals.scenarios.notApplicable;
    assert.ok(finished >= 1, 'what had finished is in the summary');

    const xml = await readFile(join(reportDir, 'junit.xml'), 'utf8');
    assertWellFormed(xml);
    const cases = [...xml.matchAll(/<testcase\b[\s\S]*?<\/testcase>/g)].map((m) => m[0]);
    const suite = /<testsuite\b[^>]*>/.exec(xml)![0];
    const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1]);
    assert.equal(attr('tests'), cases.length, 'tests counts every test case');
    assert.equal(attr('skipped'), cases.filter((c) => /<skipped\b/.test(c)).length);
    assert.equal(attr('failures'), cases.filter((c) => /<failure\b/.test(c)).length);
    // The selection is 7 scenarios of variant A (AIS-01: 3, AIS-04: 3, AIS-11: 1), each listed once.
    assert.equal(cases.length, 7, xml);
    const notRun = cases.filter((c) => c.includes('<skipped message="not run: the run was interrupted by SIGINT"/>'));
    assert.ok(notRun.length >= 1, 'at least one scenario was not run');
    assert.equal(cases.length - notRun.length, finished, 'the others are the scenarios that had finished');
    assert.ok(cases.some((c) => /name="AIS-01 — [^"]* - The bank creates the consent and echoes what was asked"/.test(c) && !c.includes('not run')), 'the finished scenario, named as cucumber names it');

    const md = await readFile(join(reportDir, 'summary.md'), 'utf8');
    assert.match(md, /^## obtpp conformance: .*INTERRUPTED/m);
    assert.match(md, new RegExp(`\\*\\*${notRun.length} not run\\*\\* \\(the run was interrupted\\)`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
