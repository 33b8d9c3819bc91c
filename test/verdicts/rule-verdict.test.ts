// A rule's verdict in words (issue 24, item 1), as summary.json writes it and the attestation signs
// it: plain "pass" only when every scenario passed; otherwise how many, and why the others were not
// judged or do not apply. No bank needed: the words and the manifest are built from data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ruleVerdict } from '../../src/conformance/summary.ts';
import { buildManifest } from '../../src/attest/attest.ts';

const na = (reason: string) => ({ scenario: 's', reason });
const nj = (message: string, blockedBy?: string) => ({ scenario: 's', step: 'x', message, ...(blockedBy ? { blockedBy } : {}) });

test('the words of each kind of verdict', () => {
  assert.equal(ruleVerdict('passed', { passed: 3, failed: 0, notApplicable: 0, notJudged: 0 }, undefined, [], []), 'pass');
  assert.equal(
    ruleVerdict('passed', { passed: 3, failed: 0, notApplicable: 2, notJudged: 0 }, undefined, [], [na('the profile says the bank does not offer getTransaction (variant A)'), na('the profile says the bank does not offer getTransaction (variant A)')]),
    'pass (3 of 5 scenarios; 2 not applicable: the profile says the bank does not offer getTransaction (variant A))',
  );
  assert.equal(
    ruleVerdict('not-judged', { passed: 1, failed: 0, notApplicable: 1, notJudged: 1 }, undefined, [nj('the accounts\' Account is not an array (AIS-11)', 'AIS-11')], [na('no CBPII')]),
    'not judged (1 of 3 scenarios passed; 1 not judged: blocked by AIS-11: the accounts\' Account is not an array (AIS-11); 1 not applicable: no CBPII)',
  );
  assert.equal(ruleVerdict('failed', { passed: 1, failed: 1, notApplicable: 0, notJudged: 0 }, undefined, [], []), 'FAIL (1 of 2 scenarios failed; 1 passed)');
  assert.equal(ruleVerdict('not-applicable', { passed: 0, failed: 0, notApplicable: 2, notJudged: 0 }, 'not part of variant B', [], []), 'not applicable: not part of variant B');
});

test('the attestation signs a partial pass as the user read it, and a plain pass as a plain pass', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-attested-verdict-'));
  try {
    const summary = {
      verdict: 'pass', startedAt: '2026-11-25T00:00:00.000Z', durationMs: 1000, profile: 'bank', tool: { version: '0.1.0' },
      variants: [{ variant: 'A', rules: [
        { id: 'AIS-07', status: 'passed', verdict: 'pass (2 of 3 scenarios; 1 not applicable: the profile says the bank does not offer getTransaction (variant A))' },
        { id: 'AIS-01', status: 'passed', verdict: 'pass' },
      ] }],
    };
    await writeFile(join(dir, 'summary.json'), JSON.stringify(summary));
    const manifest = await buildManifest(dir, { summary });
    assert.deepEqual(manifest.rules, [
      { id: 'AIS-07', variant: 'A', status: 'passed', verdict: summary.variants[0]!.rules[0]!.verdict },
      { id: 'AIS-01', variant: 'A', status: 'passed' },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
