// `obtpp conform` against a Berlin Group (NextGenPSD2) bank, through the real binary: the embedded
// berlin-group sandbox (--dialect berlin-group) and a profile with `dialect: berlin-group` are
// certified conformant, every rule judged or not-applicable with its reason (never passed without
// a scenario), and the usage errors of the dialect are one line, exit 2. Real sockets, the real
// sandbox and real Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.ts';
import { appendForeignRules } from '../../src/conformance/junit.ts';
import { obtpp, root } from '../helpers/obtpp.ts';

/** The rule ids the berlin-group features judge, per variant (from features/berlin-group). */
async function bgRules(): Promise<Map<string, Set<string>>> {
  const { readdir } = await import('node:fs/promises');
  const dir = join(root, 'features', 'berlin-group');
  const rules = new Map<string, Set<string>>();
  for (const file of await readdir(dir)) {
    const text = await readFile(join(dir, file), 'utf8');
    for (const block of text.split(/\n\s*@(?=[A-Z]{2,5}-\d{2,3} )/).slice(1)) {
      const id = /^([A-Z]{2,5}-\d{2,3})/.exec(block)![1]!;
      const variants = new Set([...block.matchAll(/^\s*@(A|B)\b.*$/gm)].flatMap((m) => m[0].match(/@(A|B)\b/g)!.map((t) => t.slice(1))));
      rules.set(id, variants);
    }
  }
  return rules;
}

/** Every rule of a berlin-group run is passed where a berlin-group scenario of its variant exists, else not-applicable with a reason. */
async function assertCertified(summary: any, variants: string[]): Promise<void> {
  const mine = await bgRules();
  assert.ok(mine.size >= 20, `the berlin-group features judge ${mine.size} rules`);
  for (const id of ['BG-01', 'BG-02', 'BG-03', 'BG-04', 'BG-05', 'BG-06', 'BG-07', 'BG-08', 'BG-09']) assert.ok(mine.has(id), `${id} is encoded`);
  for (const v of variants) {
    const rules = summary.variants.find((x: any) => x.variant === v).rules;
    for (const [id, where] of mine) {
      const rule = rules.find((r: any) => r.id === id);
      assert.ok(rule, `${v} ${id} is in the summary`);
      // The decoupled and embedded SCA rules apply where the profile offers one of them (test/conformance/bg-approaches.test.ts).
      // Multilevel SCA (SCA-03) goes by any approach but OAuth2, and the sandbox's profile says the bank offers it: judged like the rest.
      if (id.startsWith('SCA-') && id !== 'SCA-03') assert.deepEqual([rule.status, rule.reason], ['not-applicable', 'the profile\'s sca.approaches does not offer the decoupled SCA approach or the embedded SCA approach'], `${v} ${id}`);
      // Message signing applies where the profile says the bank requires or signs (a sandbox started with signatures: test/sandbox/bg-signatures.test.ts and the fault runs).
      else if (id === 'BG-50' || id === 'BG-51') assert.deepEqual([rule.status, rule.reason], ['not-applicable', id === 'BG-50' ? 'the profile does not say the bank requires signed requests (bank.requiresSignedRequests)' : 'the profile names no certificate the bank signs its answers with (bank.signingCertificate)'], `${v} ${id}`);
      else if (where.has(v)) assert.equal(rule.status, 'passed', `${v} ${id}: ${rule.failures?.[0]?.message ?? rule.notJudged?.[0]?.message ?? rule.status}`);
      else assert.deepEqual([rule.status, rule.reason], ['not-applicable', `not part of variant ${v}`], `${v} ${id}`);
    }
    for (const rule of rules.filter((r: any) => !mine.has(r.id))) {
      assert.equal(rule.status, 'not-applicable', `${v} ${rule.id}: a rule with no berlin-group scenario is never passed`);
      assert.match(rule.reason, /^not part of the berlin-group dialect/, `${v} ${rule.id}`);
      assert.equal(rule.scenarios, 0);
    }
    // The rule catalogue is whole: the UK rules are there (not applicable), the BG ones judged.
    assert.ok(rules.some((r: any) => r.id === 'SEC-09' && r.status === 'not-applicable'), 'SEC-09 is listed, not applicable');
  }
}

test('obtpp conform --dialect berlin-group certifies the embedded NextGenPSD2 sandbox: both variants, exit 0, every rule judged or not applicable with a reason', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-conform-'));
  try {
    const run = await obtpp(['conform', '--dialect', 'berlin-group', '--report-dir', dir]);
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    const failures = summary.variants.flatMap((v: any) => v.rules.filter((r: any) => r.status === 'failed').map((r: any) => `${v.variant} ${r.id}: ${r.failures[0]?.message}`));
    assert.deepEqual(failures, [], 'no rule may fail against the reference bank');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(summary.verdict, 'pass');
    assert.equal(summary.totals.warnings, 0, 'the reference bank meets the SHOULDs too');
    assert.match(summary.profile, /berlin-group/);
    await assertCertified(summary, ['A', 'B']);
    assert.match(run.stdout, /CONFORMANT/);
    assert.match(run.stdout, /Not applicable \(another dialect's rules\):\n {2}AIS-03, .*: not part of the berlin-group dialect/);
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    assert.match(junit, /failures="0"/);
    assert.match(junit, /BG-07 — /);
    // The other dialect's rules are in the JUnit report too: skipped, with the reason, never passed.
    const foreign = summary.variants.flatMap((v: any) => v.rules.filter((r: any) => /^not part of the berlin-group dialect/.test(r.reason ?? '')));
    const sc = summary.totals.scenarios;
    assert.equal(Number(/<testsuite[^>]+tests="(\d+)"/.exec(junit)![1]), sc.passed + sc.failed + sc.notJudged + sc.notApplicable + sc.skipped + foreign.length);
    assert.match(junit, /name="SEC-09 — [^"]*" time="0">\s*<skipped message="not applicable: not part of the berlin-group dialect/);
    const html = await readFile(join(dir, 'report.html'), 'utf8');
    assert.match(html, /not part of the berlin-group dialect/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('obtpp conform --profile certifies a bank whose profile says dialect: berlin-group', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-profile-conform-'));
  const sb = await startSandbox({ dialect: 'berlin-group' });
  try {
    const file = join(dir, 'bg.json');
    await writeFile(file, JSON.stringify(sb.profile('A')), { mode: 0o600 });
    const run = await obtpp(['conform', '--profile', file, '--report-dir', join(dir, 'r'), '--json']);
    assert.equal(run.code, 0, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.equal(summary.verdict, 'pass');
    assert.deepEqual(summary.variants.map((v: any) => v.variant), ['A']);
    await assertCertified(summary, ['A']);
  } finally {
    await sb.stop();
    await rm(dir, { recursive: true, force: true });
  }
});

test('the berlin-group dialect\'s usage errors: one line, exit 2, before anything starts', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-usage-'));
  try {
    const ukFault = await obtpp(['conform', '--dialect', 'berlin-group', '--sandbox-fault', 'create-200', '--report-dir', join(dir, 'a')]);
    assert.equal(ukFault.code, 2);
    assert.match(ukFault.stderr, /unknown berlin-group sandbox fault "create-200"; valid faults: bg-consent-created-valid/);
    const bgFault = await obtpp(['conform', '--sandbox-fault', 'bg-create-200', '--report-dir', join(dir, 'b')]);
    assert.equal(bgFault.code, 2, 'a berlin-group fault is not one of the UK bank\'s');
    const ukOnly = await obtpp(['conform', '--dialect', 'berlin-group', '--tags', '@SEC-09', '--report-dir', join(dir, 'c')]);
    assert.equal(ukOnly.code, 2);
    assert.match(ukOnly.stderr, /--tags "@SEC-09" selects no scenario of the berlin-group dialect/);
    const sb = await startSandbox({ dialect: 'berlin-group' });
    try {
      const file = join(dir, 'bg.json');
      await writeFile(file, JSON.stringify(sb.profile()), { mode: 0o600 });
      const mismatch = await obtpp(['conform', '--profile', file, '--dialect', 'obie', '--report-dir', join(dir, 'd')]);
      assert.equal(mismatch.code, 2);
      assert.match(mismatch.stderr, /--dialect obie, but profile .* speaks berlin-group/);
    } finally {
      await sb.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('appendForeignRules adds one skipped test case per rule of another dialect and counts them', () => {
  const xml = '<?xml version="1.0"?>\n<testsuite name="x" time="1" tests="2" skipped="1" failures="0" errors="0">\n  <testcase classname="c" name="n"/>\n</testsuite>\n';
  const out = appendForeignRules(xml, [{ variant: 'A', id: 'SEC-09', title: 'Signed <answers>', reason: 'not part of the berlin-group dialect' }]);
  assert.match(out, /tests="3" skipped="2"/);
  assert.match(out, /<testcase classname="Rules of another dialect \(variant A\)" name="SEC-09 — Signed &lt;answers&gt;" time="0">\n {4}<skipped message="not applicable: not part of the berlin-group dialect"\/>\n {2}<\/testcase>\n<\/testsuite>\n$/);
  assert.equal(appendForeignRules(xml, []), xml);
});

test('docs/rules.md lists the berlin-group bank\'s faults as the sandbox has them, and each names a berlin-group rule', async () => {
  const { listBgFaults } = await import('../../src/sandbox/berlin-group/faults.ts');
  const text = await readFile(join(root, 'docs', 'rules.md'), 'utf8');
  const section = text.split('### Berlin Group sandbox faults')[1]!.split('\n## ')[0]!;
  const documented = [...section.matchAll(/^\| (bg-[a-z0-9-]+) \| ([A-Z]+-\d+) \| (.+) \|$/gm)].map((m) => ({ name: m[1], rule: m[2], description: m[3]!.replace(/ \(a SHOULD: a warning\)$/, '') }));
  assert.deepEqual(documented, listBgFaults().map(({ name, rule, description }) => ({ name, rule, description })));
  const rules = await bgRules();
  for (const f of listBgFaults()) assert.ok(rules.has(f.rule), `${f.name} breaks ${f.rule}, a rule of the berlin-group features`);
  for (const id of rules.keys()) if (id !== 'AIS-10') assert.ok(listBgFaults().some((f) => f.rule === id), `a fault breaks ${id}`);
});
