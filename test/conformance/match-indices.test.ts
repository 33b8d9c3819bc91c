// The engine's match indices in place of the regexp-match-indices polyfill (src/conformance/match-indices.ts):
// the same answers as the polyfill, on cucumber expressions and regular expressions of the kinds
// the step definitions use, and cucumber-expressions really gets them once the hook is on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CucumberExpression, ParameterTypeRegistry } from '@cucumber/cucumber-expressions';
import execWithIndices from '../../src/conformance/match-indices.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// The polyfill as cucumber-expressions itself resolves it.
const fromExpressions = createRequire(createRequire(join(root, 'package.json')).resolve('@cucumber/cucumber-expressions'));
const polyfill: (re: RegExp, s: string) => (RegExpExecArray & { indices?: Array<[number, number] | undefined> }) | null = fromExpressions('regexp-match-indices');

const registry = new ParameterTypeRegistry();
const CASES: Array<[RegExp, string[]]> = [
  [new CucumberExpression('the PSU has authorised the {string} consent of UK Read\\/Write', registry).regexp, ['the PSU has authorised the "uk full" consent of UK Read/Write', 'the PSU has authorised the "" consent of UK Read/Write', 'nothing']],
  [new CucumberExpression('the PISP creates a payment-order consent for {float} in the account(\'s) currency', registry).regexp, ['the PISP creates a payment-order consent for 10.50 in the account\'s currency', 'the PISP creates a payment-order consent for 5 in the account currency']],
  [new CucumberExpression('the bank answers {int} with/without a body', registry).regexp, ['the bank answers 404 without a body', 'the bank answers -1 with a body']],
  [/^the consent (?:is|was) "([^"]+)"(?: for (\d+) days)?( again)?$/, ['the consent is "x"', 'the consent was "y" for 3 days again', 'the consent is "z" again']],
  [/^(?<first>a|b)(c)?(?=d)/, ['ad', 'bcd', 'x']],
  [/x(y)?/gi, ['aXbxy']],
];

test('the engine\'s indices equal the polyfill\'s for every group, matched, unmatched or absent', () => {
  for (const [regexp, texts] of CASES) {
    for (const text of texts) {
      regexp.lastIndex = 0;
      const mine = execWithIndices(regexp, text) as (RegExpExecArray & { indices?: Array<[number, number] | undefined> }) | null;
      const mineLast = regexp.lastIndex;
      regexp.lastIndex = 0;
      const theirs = polyfill(regexp, text);
      assert.equal(mineLast, regexp.lastIndex, `${regexp} on ${JSON.stringify(text)}: lastIndex`);
      if (!theirs) {
        assert.equal(mine, null, `${regexp} on ${JSON.stringify(text)}`);
        continue;
      }
      assert.ok(mine, `${regexp} on ${JSON.stringify(text)} matched`);
      assert.deepEqual([...mine], [...theirs], `${regexp} on ${JSON.stringify(text)}: groups`);
      assert.equal(mine.index, theirs.index);
      assert.deepEqual([...mine.indices!], [...theirs.indices!], `${regexp} on ${JSON.stringify(text)}: indices`);
    }
  }
});

test('a repeated group is placed at its last repetition, where its text is (the polyfill placed it at its first)', () => {
  const regexp = /^((a)|(b))+c?(?=d)/;
  const match = execWithIndices(regexp, 'abad')!;
  assert.deepEqual([...match], ['aba', 'a', 'a', undefined]);
  assert.deepEqual([...match.indices!], [[0, 3], [2, 3], [2, 3], undefined]);
  match.indices!.forEach((at, i) => assert.equal(at && 'abad'.slice(...at), match[i]));
});

test('with the hook on, cucumber-expressions matches through the engine: the polyfill is never loaded', async () => {
  const script = [
    `import { useNativeMatchIndices } from ${JSON.stringify(join(root, 'src', 'conformance', 'match-indices.ts'))};`,
    `import { createRequire } from 'node:module';`,
    `useNativeMatchIndices();`,
    `const { CucumberExpression, ParameterTypeRegistry } = await import('@cucumber/cucumber-expressions');`,
    `const args = new CucumberExpression('a {int} and {string}', new ParameterTypeRegistry()).match('a 42 and "b c"');`,
    `const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => /regexp-(match-indices|tree)/.test(f));`,
    `console.log(JSON.stringify({ values: args.map((a) => a.getValue(null)), starts: args.map((a) => a.group.start), loaded }));`,
  ].join('\n');
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  assert.deepEqual(JSON.parse(stdout), { values: [42, 'b c'], starts: [2, 9], loaded: [] });
});
