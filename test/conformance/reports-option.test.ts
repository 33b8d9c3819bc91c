// runConformance's `reports` option: summary.json and summary.md are always written; junit.xml,
// messages.ndjson and report.html only when asked for (all three by default), and the verdict is
// the same either way. The fault sweeps rely on it (fault-runs.ts: summaries only). A run scoped by
// tags hands cucumber only the files it selects from, and still lists every rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
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

test('a run scoped by tags gives cucumber only the feature files it selects from; its summary still lists every rule of the variant', async () => {
  const dirs = await Promise.all(['cof', 'ais'].map((n) => mkdtemp(join(tmpdir(), `obtpp-scoped-${n}-`))));
  try {
    const [cof, ais] = await runInWorkers([
      { options: { variant: 'A', tags: '@COF-04' }, reportDir: dirs[0]! },
      { options: { variant: 'A', tags: '@AIS-12', reports: [] }, reportDir: dirs[1]! },
    ], 2);
    for (const r of [cof!, ais!]) assert.equal(r.error, undefined, r.error);
    // The messages name the files that hold a selected scenario, and no other (features/ holds every file).
    const holding: string[] = [];
    for (const f of await readdir(join(dirs[0]!, 'features', 'A'))) if ((await readFile(join(dirs[0]!, 'features', 'A', f), 'utf8')).includes('@COF-04')) holding.push(`features/A/${f}`);
    assert.ok(holding.length >= 1 && holding.length < (await readdir(join(dirs[0]!, 'features', 'A'))).length, holding.join());
    const parsed = (await readFile(join(dirs[0]!, 'messages.ndjson'), 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    assert.deepEqual(parsed.filter((m) => m.gherkinDocument).map((m) => m.gherkinDocument.uri).sort(), holding.sort());
    // Both list the same rules, with the same titles: each rule of the other's files is there, not selected.
    const rows = (r: any) => r.summary.variants[0].rules.map((x: any) => `${x.id} ${x.level} ${x.title}`);
    assert.deepEqual(rows(cof), rows(ais));
    const status = (r: any, id: string) => r.summary.variants[0].rules.find((x: any) => x.id === id)?.status;
    assert.equal(status(cof, 'COF-04'), 'passed');
    assert.equal(status(cof, 'AIS-12'), 'skipped');
    assert.equal(status(ais, 'AIS-12'), 'passed');
    assert.equal(status(ais, 'COF-04'), 'skipped');
    assert.equal(status(ais, 'PIS-01'), 'skipped');
  } finally {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
});
