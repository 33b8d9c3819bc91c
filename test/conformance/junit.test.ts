// The causes of skipped scenarios written into cucumber's JUnit report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { annotateSkipped } from '../../src/conformance/junit.ts';

const XML = `<?xml version="1.0"?>
<testsuite name="obtpp conformance" tests="3" skipped="2" failures="0" errors="0">
  <testcase classname="Funds &amp; more (variant A)" name="COF-07 — Read &quot;and&quot; delete - A deleted consent" time="0.1">
    <skipped/>
    <system-out><![CDATA[Given …]]></system-out>
  </testcase>
  <testcase classname="Funds &amp; more (variant A)" name="COF-07 — Read &quot;and&quot; delete - Unknown" time="0.1">
    <skipped/>
  </testcase>
  <testcase classname="Funds &amp; more (variant A)" name="COF-01 — Create - Created" time="0.1">
  </testcase>
</testsuite>`;

test('a skipped test case gets its cause as the message, matched by feature and rule - scenario, escaped', () => {
  const causes = new Map([
    ['Funds & more (variant A)\u0000COF-07 — Read "and" delete - A deleted consent', 'not judged: blocked by AIS-11: Data.Account <is> "not" an array & more'],
  ]);
  const out = annotateSkipped(XML, causes);
  assert.match(out, /<skipped message="not judged: blocked by AIS-11: Data\.Account &lt;is&gt; &quot;not&quot; an array &amp; more"\/>/);
  // A case without a known cause keeps cucumber's bare element; nothing else changes.
  assert.equal(out.match(/<skipped\/>/g)?.length, 1);
  assert.equal(out.replace(/<skipped message="[^"]*"\/>/, '<skipped/>'), XML);
});

test('no causes, no change', () => {
  assert.equal(annotateSkipped(XML, new Map()), XML);
});
