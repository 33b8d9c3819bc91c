// A reporter for `node --test` (scripts/test.mjs gives it to each runner beside the spec reporter):
// the run's tests by outcome, as one line of JSON at the end, so that the runners of one `npm test`
// can be told as one total. Suites are not tests (the spec reporter counts them apart).
export default async function* count(source) {
  const n = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0 };
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.details?.type === 'suite') continue;
    n.tests++;
    // As the spec reporter's summary counts: a skipped or todo test is neither passed nor failed.
    if (event.data.skip !== undefined && event.data.skip !== false) n.skipped++;
    else if (event.data.todo !== undefined && event.data.todo !== false) n.todo++;
    else if (event.type === 'test:fail') n.fail++;
    else n.pass++;
  }
  yield `${JSON.stringify(n)}\n`;
}
