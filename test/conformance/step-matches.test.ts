// Every step of every feature file, of every standard and layout, matches exactly one step
// definition: cucumber loads all of them into each run, so a new rule's general wording (OIDF's
// "the bank refuses it with <errors>") must not swallow another rule's step (UKPIS-03's "the bank
// refuses it with 400 or 403 and an OBIE error body"), which a run reports as ambiguous — and a
// run of only one layout would never show it. Needs the build (dist/step-definitions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readScenarios } from '../../src/conformance/fcs-map.ts';
import { stepDefinitionCoordinates, supportLibrary } from '../../src/conformance/support-library.ts';
import { root } from '../helpers/obtpp.ts';

test('every step of every feature matches exactly one step definition (none undefined, none ambiguous)', async () => {
  const scenarios = await readScenarios(root);
  assert.ok(scenarios.length > 500, `${scenarios.length} scenarios read`);
  const library = await supportLibrary(stepDefinitionCoordinates(root), root);
  type Definition = { pattern: unknown; uri: string; line: number; expression: { match(text: string): unknown[] | null } };
  const definitions = (library as unknown as { stepDefinitions: Definition[] }).stepDefinitions;
  assert.ok(definitions.length > 100, `${definitions.length} step definitions loaded`);
  const matches = new Map<string, Definition[]>();
  const problems: string[] = [];
  for (const s of scenarios) {
    for (const text of s.steps) {
      let found = matches.get(text);
      if (!found) matches.set(text, (found = definitions.filter((d) => d.expression.match(text) !== null)));
      if (found.length === 1) continue;
      const where = found.map((d) => `${d.uri.replace(/^.*dist\//, '')}:${d.line} ${String(d.pattern)}`).join(' | ');
      problems.push(`${s.feature} "${s.scenario}": "${text}" ${found.length === 0 ? 'matches no step definition' : `is ambiguous: ${where}`}`);
    }
  }
  assert.deepEqual([...new Set(problems)], []);
});
