// A reporter for Node's test runner: where the suite's time goes, per test file. Beside the usual
// reporter:
//   node --test --test-concurrency=2 --test-global-setup=test/global-setup.ts \
//     --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./scripts/test-times.mjs --test-reporter-destination=times.md "test/**/*.test.ts"
// Per file: its top-level tests' durations added up (tests of one file that run at once count
// each), the count of tests and the slowest top-level test; the files by cost, as a Markdown table.
export default async function* testTimes(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, name, details } = event.data;
    // A group of scripts/test.mjs: its describes only wrap the files it imports, whose own tests
    // name their file and sit one level deeper.
    if (!file || file.includes('/obtpp-test-groups-')) continue;
    const key = file.replace(/^.*?\/test\//, 'test/');
    const f = files.get(key) ?? { tests: 0, levels: new Map() };
    if (details?.type !== 'suite') f.tests++;
    const level = f.levels.get(nesting) ?? { ms: 0, slowest: { name: '', ms: 0 } };
    level.ms += details.duration_ms;
    if (details.duration_ms > level.slowest.ms) level.slowest = { name, ms: details.duration_ms };
    f.levels.set(nesting, level);
    files.set(key, f);
  }
  // A file's top-level tests are those of its least nesting: 0 in a process of its own, 1 in a group.
  for (const [key, f] of files) {
    const { ms, slowest } = f.levels.get(Math.min(...f.levels.keys()));
    files.set(key, { tests: f.tests, ms, slowest });
  }
  const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((s, [, f]) => s + f.ms, 0);
  yield `| file | top-level time | share | tests | its slowest top-level test |\n|---|---|---|---|---|\n`;
  for (const [file, f] of rows) {
    yield `| ${file} | ${(f.ms / 1000).toFixed(1)} s | ${((100 * f.ms) / total).toFixed(1)} % | ${f.tests} | ${f.slowest.name.replaceAll('|', '\\|').slice(0, 80)} (${(f.slowest.ms / 1000).toFixed(1)} s) |\n`;
  }
  yield `\n${rows.length} files, ${(total / 1000).toFixed(0)} s of top-level test time in all (two files run at once, so the wall is about half).\n`;
}
