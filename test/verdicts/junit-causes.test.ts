// JUnit says why (issue 24, item 7): every skipped test case carries its cause, also the examples of
// a Scenario Outline, which cucumber's JUnit names `<rule> - <outline> - <examples> - #i.j: <pickle>`
// (SEC-11's request-object defects). The names come from @cucumber/query's naming strategy, the one
// cucumber's JUnit formatter uses; the messages are what a run of the real suite sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NamingStrategyExampleName, NamingStrategyFeatureName, NamingStrategyLength, namingStrategy } from '@cucumber/query';
import { SummaryBuilder } from '../../src/conformance/summary.ts';
import { annotateSkipped } from '../../src/conformance/junit.ts';

const junitName = namingStrategy(NamingStrategyLength.LONG, NamingStrategyFeatureName.EXCLUDE, NamingStrategyExampleName.NUMBER_AND_PICKLE_IF_PARAMETERIZED);

test('a not-judged example of a Scenario Outline gets its cause in JUnit, as a plain scenario does', () => {
  const rows = [{ id: 'row-1', cells: [{ value: 'unsigned' }] }, { id: 'row-2', cells: [{ value: 'expired' }] }];
  const outline = { id: 'outline', name: 'A request object <defect> is refused', keyword: 'Scenario Outline', examples: [{ id: 'ex', name: '', tableBody: rows }], steps: [], tags: [] };
  const plain = { id: 'plain', name: 'A request object naming a consent the PSU already authorised is refused', keyword: 'Scenario', examples: [], steps: [], tags: [] };
  const rule = { id: 'rule', name: 'SEC-11 — The bank refuses a request object it cannot trust', children: [{ scenario: outline }, { scenario: plain }], tags: [{ name: '@SEC-11' }] };
  const feature = { name: 'Security (variant A)', tags: [{ name: '@variant-A' }], children: [{ rule }] };
  const b = new SummaryBuilder();
  b.add({ gherkinDocument: { feature } });
  const pickles = [
    { id: 'p1', name: 'A request object unsigned is refused', astNodeIds: ['outline', 'row-1'], steps: [{ id: 's1', text: 'x' }], tags: [{ name: '@SEC-11' }, { name: '@variant-A' }] },
    { id: 'p2', name: 'A request object expired is refused', astNodeIds: ['outline', 'row-2'], steps: [{ id: 's2', text: 'x' }], tags: [{ name: '@SEC-11' }, { name: '@variant-A' }] },
    { id: 'p3', name: plain.name, astNodeIds: ['plain'], steps: [{ id: 's3', text: 'x' }], tags: [{ name: '@SEC-11' }, { name: '@variant-A' }] },
  ];
  let xml = '<testsuite name="obtpp conformance" tests="3" skipped="3">\n';
  pickles.forEach((pickle, i) => {
    b.add({ pickle });
    b.add({ testCase: { id: `tc${i}`, pickleId: pickle.id, testSteps: [{ id: `ts${i}`, pickleStepId: pickle.steps[0]!.id }] } });
    b.add({ testCaseStarted: { id: `run${i}`, testCaseId: `tc${i}` } });
    b.add({ attachment: { testCaseStartedId: `run${i}`, testStepId: `ts${i}`, mediaType: 'application/vnd.obtpp.not-judged+json', body: JSON.stringify({ message: `cause ${i}`, blockedBy: 'SEC-01' }) } });
    b.add({ testStepFinished: { testCaseStartedId: `run${i}`, testStepId: `ts${i}`, testStepResult: { status: 'SKIPPED' } } });
    b.add({ testCaseFinished: { testCaseStartedId: `run${i}` } });
    const row = rows.findIndex((r) => r.id === pickle.astNodeIds[1]);
    const lineage = { feature, rule, scenario: pickle.astNodeIds[0] === 'outline' ? outline : plain, ...(row >= 0 ? { examples: outline.examples[0], examplesIndex: 0, example: rows[row], exampleIndex: row } : {}) };
    const name = junitName.reduce(lineage as never, pickle as never).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    xml += `  <testcase classname="${feature.name}" name="${name}" time="0">\n    <skipped/>\n  </testcase>\n`;
  });
  xml += '</testsuite>\n';
  const annotated = annotateSkipped(xml, b.skippedCauses());
  const skipped = annotated.match(/<skipped\b[^>]*>/g) ?? [];
  assert.equal(skipped.length, 3);
  skipped.forEach((s, i) => assert.match(s, new RegExp(`message="not judged: blocked by SEC-01: cause ${i}"`), annotated));
});
