// A reporter for Node's test runner that writes one line of JSON: the run's counts (tests, passed,
// failed, cancelled, skipped, todo), from its last summary. scripts/test.mjs gives it to both of
// its runners and prints their sum.
export default async function* testCounts(source) {
  let counts = { tests: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0 };
  for await (const event of source) {
    // Each file's summary names the file; the run's own, last, names none.
    if (event.type === 'test:summary' && event.data.file === undefined) counts = event.data.counts;
  }
  yield `${JSON.stringify(counts)}\n`;
}
