// The positive side of the OpenID Foundation's FAPI modules (issue 38, item 5): the sandbox's
// authorisation server in each of its security set-ups passes every module that applies to it —
// `obtpp conform --security <set-up> --tags @oidf`, exit 0 — with the rules SEC-16 … SEC-24 passed
// where the set-up gives them footing and not applicable, with the reason, where it does not (no
// rule failed, none unjudged). Each run is runConformance in a worker of the test run's pool
// (fault-runs.ts), the modules that wait out a lifetime (@waits: a code's 60 seconds, a
// request_uri's expires_in) each in a run of its own, where both apply (fapi2-dpop), started first. The negative
// side — a fault per rule, caught by it — is the fault sweep of conform.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInWorkers, type RunJob } from './fault-runs.ts';

const OIDF_RULES = ['SEC-16', 'SEC-17', 'SEC-18', 'SEC-19', 'SEC-20', 'SEC-21', 'SEC-22', 'SEC-23', 'SEC-24'];

/** Each set-up (and run), the OIDF rules it must pass, and those that do not apply to it (no request object, no PAR, no DPoP). */
const SET_UPS: Array<{ security: string; tags: string; passed: string[]; notApplicable: string[] }> = [
  // The two modules that wait out a lifetime, in the set-up both apply to: first, each in a run of
  // its own, so that they wait together while the other runs compute.
  { security: 'fapi2-dpop', tags: '@oidf and @waits and @SEC-20', passed: ['SEC-20'], notApplicable: [] },
  { security: 'fapi2-dpop', tags: '@oidf and @waits and @SEC-22', passed: ['SEC-22'], notApplicable: [] },
  { security: 'fapi1-advanced', tags: '@oidf and not @waits', passed: ['SEC-16', 'SEC-17', 'SEC-18', 'SEC-19', 'SEC-20', 'SEC-21', 'SEC-24'], notApplicable: ['SEC-22', 'SEC-23'] },
  { security: 'fapi1-advanced-par-jarm', tags: '@oidf and not @waits', passed: OIDF_RULES.filter((r) => r !== 'SEC-23'), notApplicable: ['SEC-23'] },
  { security: 'fapi2-dpop', tags: '@oidf and not @waits', passed: OIDF_RULES.filter((r) => r !== 'SEC-17'), notApplicable: ['SEC-17'] },
  { security: 'fapi2-mtls', tags: '@oidf and not @waits', passed: OIDF_RULES.filter((r) => r !== 'SEC-17' && r !== 'SEC-23'), notApplicable: ['SEC-17', 'SEC-23'] },
  { security: 'fapi2-message-signing', tags: '@oidf and not @waits', passed: OIDF_RULES, notApplicable: [] },
];

test('the sandbox in each security set-up passes every OIDF module that applies to it (--tags @oidf), and the others are not applicable with the reason', async () => {
  const jobs: RunJob[] = await Promise.all(SET_UPS.map(async (s) => ({
    options: { sandboxSecurity: s.security, variant: 'A' as const, parallel: 1, tags: s.tags },
    reportDir: await mkdtemp(join(tmpdir(), `obtpp-oidf-${s.security}-`)),
  })));
  try {
    // Three at a time: the two that wait out a lifetime (idle for a minute) and one that computes
    // the others in turn. This file starts beside the fault sweep, whose two workers compute: with a
    // second lane computing here the machine ran four runs on two cores, and the pair of files took
    // 107.9 and 110.5 s of wall and 209.0 and 214.1 s of the machine's CPU, against 103.5, 98.8, 100.4
    // and 94.6 s and 201.3, 191.9, 194.9 and 182.9 s with one (two lanes in all: 107.3 and 102.4 s).
    const results = await runInWorkers(jobs, 3);
    const problems: string[] = [];
    results.forEach((r, i) => {
      const s = SET_UPS[i]!;
      const label = `${s.security} (${s.tags})`;
      if (r.error !== undefined) return void problems.push(`${label}: ${r.error}`);
      const rules = new Map<string, any>(r.summary.variants[0].rules.map((x: any) => [x.id, x]));
      for (const x of rules.values()) {
        if (x.status === 'failed' || x.status === 'not-judged') problems.push(`${label}: ${x.id} ${x.status}: ${x.failures?.[0]?.message ?? x.notJudged?.[0]?.message}`);
      }
      for (const id of s.passed) if (rules.get(id)?.status !== 'passed') problems.push(`${label}: ${id} is ${rules.get(id)?.status}, not passed`);
      for (const id of s.notApplicable) if (rules.get(id)?.status !== 'not-applicable') problems.push(`${label}: ${id} is ${rules.get(id)?.status}, not not-applicable`);
      if (r.exitCode !== 0) problems.push(`${label}: exit ${r.exitCode}`);
      process.stdout.write(`# ${label}: exit ${r.exitCode}, ${s.passed.length} OIDF rules passed, in ${Math.round(r.summary.durationMs / 100) / 10} s\n`);
    });
    assert.deepEqual(problems, []);
  } finally {
    await Promise.all(jobs.map((j) => rm(j.reportDir, { recursive: true, force: true })));
  }
});
