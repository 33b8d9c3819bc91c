// `obtpp conform` through the real binary: the embedded sandbox passes, and every sandbox fault is
// caught by the rule it breaks. These runs use real sockets, the real sandbox and real Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'dist', 'src', 'cli', 'main.js');

interface Run { code: number; stdout: string; stderr: string }

function obtpp(args: string[], timeoutMs = 300_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1', CI: 'true' }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The rule catalogue: id → variants it applies to (from docs/rules.md). */
async function catalogue(): Promise<Map<string, string[]>> {
  const text = await readFile(join(root, 'docs', 'rules.md'), 'utf8');
  const rules = new Map<string, string[]>();
  for (const m of text.matchAll(/^\| ((?:AIS|COF|PIS|SEC|DCR)-\d\d) \| .*? \| (.*?) \|$/gm)) rules.set(m[1]!, m[2]!.includes('B') ? ['A', 'B'] : ['A']);
  return rules;
}

test('obtpp conform certifies the embedded sandbox: both variants, exit 0, every rule covered, reports written', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-conform-'));
  try {
    const run = await obtpp(['conform', '--report-dir', dir, '--json']);
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    const failures = summary.variants.flatMap((v: any) => v.rules.filter((r: any) => r.status === 'failed').map((r: any) => `${v.variant} ${r.id}: ${r.failures[0]?.message}`));
    assert.deepEqual(failures, [], 'no rule may fail against the reference bank');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(summary.verdict, 'pass');
    assert.deepEqual(JSON.parse(run.stdout), summary, '--json prints summary.json');
    for (const [id, variants] of await catalogue()) {
      for (const v of ['A', 'B']) {
        const rule = summary.variants.find((x: any) => x.variant === v).rules.find((r: any) => r.id === id);
        assert.ok(rule, `rule ${id} is encoded for variant ${v}`);
        if (variants.includes(v) && !(id === 'AIS-10' && v === 'B')) assert.equal(rule.status, 'passed', `${v} ${id}`);
        else if (!variants.includes(v)) assert.equal(rule.status, 'not-applicable', `${v} ${id}`);
      }
    }
    for (const file of ['junit.xml', 'report.html', 'messages.ndjson']) assert.ok((await stat(join(dir, file))).size > 0, file);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuite[^>]+tests="\d+"/);
    assert.match(junit, /failures="0"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('every sandbox fault makes obtpp conform exit 1 with the fault\'s rule failed', async () => {
  const list = await obtpp(['sandbox', '--list-faults', '--json']);
  assert.equal(list.code, 0, list.stderr);
  // Chaos faults break no rule of the spec (the bank misbehaves below it): test/conformance/chaos.test.ts judges those.
  // Data faults break nothing (test/conformance/verdicts.test.ts judges those).
  const faults: Array<{ name: string; rule: string; level?: 'SHOULD' }> = JSON.parse(list.stdout).filter((f: { kind?: string }) => f.kind === 'rule');
  assert.ok(faults.length >= 24, `at least the 24 faults of the issue, got ${faults.length}`);
  const missed: string[] = [];
  const queue = [...faults];
  // Each fault's run is scoped to the scenarios of the rule it breaks (its tag): a scenario brings
  // its own set-ups (consents, authorisations) through its Given steps, so nothing else need run.
  // The full clean run above proves the other rules pass; here only detection is in question.
  // Two runs at a time: the machine has two cores and each run has its own sandbox and browser.
  const worker = async () => {
    for (let fault = queue.shift(); fault; fault = queue.shift()) {
      const dir = await mkdtemp(join(tmpdir(), `obtpp-fault-${fault.name}-`));
      try {
        const run = await obtpp(['conform', '--variant', 'A', '--parallel', '1', '--sandbox-fault', fault.name, '--tags', `@${fault.rule}`, '--report-dir', dir, '--json']);
        const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
        const rule = summary.variants[0].rules.find((r: any) => r.id === fault.rule);
        const failed = run.code === 1 && summary.verdict === 'fail' && rule?.status === 'failed';
        // A fault that breaks only a SHOULD (stricter than the official schema) is caught as a warning of its rule.
        const warned = fault.level === 'SHOULD' && rule?.status !== 'failed' && (rule?.warnings?.length ?? 0) > 0;
        const caught = failed || warned;
        if (!caught) missed.push(`${fault.name} (${fault.rule}): exit ${run.code}, rule ${rule?.status}`);
        // The scoped run judged the rule (not merely left it unjudged) and nothing but it ran.
        const ran = summary.variants[0].rules.filter((r: any) => r.status !== 'skipped' && r.status !== 'not-applicable').map((r: any) => r.id);
        if (caught && ran.join() !== fault.rule) missed.push(`${fault.name} (${fault.rule}): the scoped run judged ${ran.join(', ')}`);
        const how = failed ? rule.failures[0].message.split('\n')[0] : warned ? `SHOULD warning: ${rule.warnings[0].problems?.[0] ?? rule.warnings[0].message}` : '';
        process.stdout.write(`# fault ${fault.name}: ${caught ? 'detected' : 'MISSED'} by ${fault.rule}${caught ? ` — ${how}` : ''}\n`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  };
  await Promise.all([worker(), worker()]);
  process.stdout.write(`# sandbox faults detected: ${faults.length - missed.length} of ${faults.length}\n`);
  assert.deepEqual(missed, []);
});

// The Berlin Group bank's faults (obtpp sandbox --dialect berlin-group --list-faults), each caught
// by its rule in a run of the berlin-group dialect scoped to that rule, as above.
test('every berlin-group sandbox fault makes obtpp conform --dialect berlin-group exit 1 with the fault\'s rule failed', async () => {
  const list = await obtpp(['sandbox', '--dialect', 'berlin-group', '--list-faults', '--json']);
  assert.equal(list.code, 0, list.stderr);
  const faults: Array<{ name: string; rule: string; level?: 'SHOULD' }> = JSON.parse(list.stdout).filter((f: { kind?: string }) => f.kind === 'rule');
  assert.ok(faults.length >= 20, `a fault for each berlin-group rule, got ${faults.length}`);
  const missed: string[] = [];
  const queue = [...faults];
  const worker = async () => {
    for (let fault = queue.shift(); fault; fault = queue.shift()) {
      const dir = await mkdtemp(join(tmpdir(), `obtpp-bg-fault-${fault.name}-`));
      try {
        const run = await obtpp(['conform', '--dialect', 'berlin-group', '--variant', 'A', '--sandbox-fault', fault.name, '--tags', `@${fault.rule}`, '--report-dir', dir, '--json']);
        const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
        const rule = summary.variants[0].rules.find((r: any) => r.id === fault.rule);
        const failed = run.code === 1 && summary.verdict === 'fail' && rule?.status === 'failed';
        const warned = fault.level === 'SHOULD' && run.code === 0 && rule?.status === 'passed' && (rule?.warnings?.length ?? 0) > 0;
        if (!failed && !warned) missed.push(`${fault.name} (${fault.rule}): exit ${run.code}, rule ${rule?.status}`);
        const ran = summary.variants[0].rules.filter((r: any) => r.status !== 'skipped' && r.status !== 'not-applicable').map((r: any) => r.id);
        if ((failed || warned) && ran.join() !== fault.rule) missed.push(`${fault.name} (${fault.rule}): the scoped run judged ${ran.join(', ')}`);
        const how = failed ? rule.failures[0].message.split('\n')[0] : warned ? `SHOULD warning: ${rule.warnings[0].problems?.[0] ?? rule.warnings[0].message}` : '';
        process.stdout.write(`# berlin-group fault ${fault.name}: ${failed || warned ? 'detected' : 'MISSED'} by ${fault.rule}${how ? ` — ${how}` : ''}\n`);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  };
  await Promise.all([worker(), worker()]);
  process.stdout.write(`# berlin-group sandbox faults detected: ${faults.length - missed.length} of ${faults.length}\n`);
  assert.deepEqual(missed, []);
});
