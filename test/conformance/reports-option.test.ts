// runConformance's `reports` option: summary.json and summary.md are always written; junit.xml,
// messages.ndjson and report.html only when asked for (all three by default), and the verdict is
// the same either way. The fault sweeps rely on it (fault-runs.ts: summaries only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInWorkers, type RunJob } from './fault-runs.ts';

test('reports: only the reports asked for are written beside the summary; the verdict does not change', async () => {
  const dirs = await Promise.all(['all', 'junit', 'none'].map((n) => mkdtemp(join(tmpdir(), `obtpp-reports-${n}-`))));
  try {
    const options = { variant: 'A' as const, tags: '@COF-04', sandboxFaults: ['funds-balance-disclosed'] };
    const jobs: RunJob[] = [
      { options, reportDir: dirs[0]! },
      { options: { ...options, reports: ['junit'] }, reportDir: dirs[1]! },
      { options: { ...options, reports: [] }, reportDir: dirs[2]! },
    ];
    const results = await runInWorkers(jobs, 2);
    for (const r of results) {
      assert.equal(r.error, undefined, r.error);
      assert.equal(r.exitCode, 1);
      assert.equal(r.summary.variants[0].rules.find((x: any) => x.id === 'COF-04').status, 'failed');
    }
    const files = async (d: string) => (await readdir(d)).filter((f) => /\.(json|md|xml|ndjson|html)$/.test(f)).sort();
    assert.deepEqual(await files(dirs[0]!), ['junit.xml', 'messages.ndjson', 'report.html', 'summary.json', 'summary.md']);
    assert.deepEqual(await files(dirs[1]!), ['junit.xml', 'summary.json', 'summary.md']);
    assert.deepEqual(await files(dirs[2]!), ['summary.json', 'summary.md']);
  } finally {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
});
