// Confirmation of funds in UK Read/Write v3.1.11's layout, as the FCS v3.1 judges it
// (features/obie/uk-funds.feature): the embedded sandbox, a correct bank, passes every UKCOF rule
// in one scoped run through the real binary, every scenario judged. Each rule's sandbox fault is caught by that rule in test/conformance/conform.test.ts (a
// run per fault, in the UK layout) and proved on the wire in test/sandbox/faults.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObtpp } from '../helpers/obtpp.ts';

test('conform --standard uk-3.1 --tags "@uk-3.1 and @cof": the sandbox passes UKCOF-01…04, every scenario judged', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-uk-funds-'));
  try {
    const code = (await runObtpp(['conform', '--standard', 'uk-3.1', '--tags', '@uk-3.1 and @cof', '--report-dir', join(dir, 'r'), '--json'], { cwd: dir, timeoutMs: 300_000 })).code;
    const summary = JSON.parse(await readFile(join(dir, 'r', 'summary.json'), 'utf8'));
    const rules = summary.variants[0].rules;
    assert.equal(code, 0, JSON.stringify(rules.filter((r: any) => r.status === 'failed').map((r: any) => [r.id, r.failures])));
    for (const id of ['UKCOF-01', 'UKCOF-02', 'UKCOF-03', 'UKCOF-04']) {
      const rule = rules.find((r: any) => r.id === id);
      assert.equal(rule?.status, 'passed', id);
      assert.equal(rule.counts.passed, rule.scenarios, `${id}: every scenario judged and passed`);
    }
    // The run's profile has only {issuer}/open-banking/v3.1 as its base, where the sandbox serves
    // nothing but the standard's paths (test/conformance/uk-layout.test.ts): the calls went there.
    assert.deepEqual(summary.variants.map((v: any) => v.variant), ['A']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
