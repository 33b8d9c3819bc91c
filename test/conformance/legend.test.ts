// The marks of the rule table mean the same in the CI gate's page (docs/ci.md, moved there from the
// README) and in report.html: one legend (VERDICT_LEGEND), and the page's table says exactly it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VERDICT_LEGEND } from '../../src/conformance/html-report.ts';

test('docs/ci.md\'s legend of the report\'s marks is the report\'s own', () => {
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'ci.md'), 'utf8');
  const at = page.indexOf('| mark | meaning |');
  assert.ok(at > 0, 'docs/ci.md has the legend table');
  const lines = page.slice(at).split('\n').slice(2);
  const rows = lines.slice(0, lines.findIndex((l) => !l.startsWith('|'))).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
  assert.deepEqual(rows, VERDICT_LEGEND.map(([mark, meaning]) => [mark, meaning]));
  for (const status of ['pass', 'FAIL', 'waived', 'not judged', 'n/a', 'skipped']) assert.ok(VERDICT_LEGEND.some(([mark]) => mark === status), status);
});
