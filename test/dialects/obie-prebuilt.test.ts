// The obie validators the build emits as standalone code (scripts/build-validators.mjs, loaded by
// dist/src/dialects/obie/validate.js) judge exactly as the ones ajv compiles from the sources: for
// every schema at both levels, on a conformant body and on bodies broken in several ways, the same
// verdict and the same errors. And the built module loads no ajv compiler to judge. Build first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { makeAjv } from '../../src/dialects/obie/validate.ts';
import { SCHEMA_LEVELS, SCHEMA_NAMES } from '../../src/dialects/obie/schemas/index.ts';
import { sample } from './obie-samples.ts';

const built = fileURLToPath(new URL('../../dist/src/dialects/obie/', import.meta.url));
const requireHere = createRequire(import.meta.url);

/** The first string leaf of a value, as a path of keys (undefined when there is none). */
function firstString(value: unknown, path: Array<string | number> = []): Array<string | number> | undefined {
  if (typeof value === 'string') return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = firstString(value[i], [...path, i]);
      if (p) return p;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = firstString(v, [...path, k]);
      if (p) return p;
    }
  }
  return undefined;
}

function setAt(body: any, path: Array<string | number>, value: unknown): any {
  let node = body;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path.at(-1)!] = value;
  return body;
}

/** A conformant body and bodies that break it: required fields, types, lengths, unknown fields. */
function bodies(name: (typeof SCHEMA_NAMES)[number]): Array<[string, unknown]> {
  const leaf = firstString(sample(name))!;
  return [
    ['the sample', sample(name)],
    ['an empty object', {}],
    ['Data a string', { ...sample(name), Data: 'x' }],
    ['an unknown field', { ...sample(name), Unexpected: 1 }],
    [`${leaf.join('.')} a number`, setAt(sample(name), leaf, 12345)],
    [`${leaf.join('.')} empty`, setAt(sample(name), leaf, '')],
    [`${leaf.join('.')} far too long`, setAt(sample(name), leaf, 'x'.repeat(5000))],
  ];
}

test('the build emitted a validator for every schema at both levels', () => {
  for (const name of SCHEMA_NAMES) {
    for (const level of ['official', 'strict']) {
      assert.ok(existsSync(`${built}validators/${level}-${name}.cjs`), `${level}-${name}.cjs (run npm run build)`);
    }
  }
});

test('each prebuilt validator gives the verdict and the errors of the one compiled from the sources', () => {
  const ajv = makeAjv();
  let broken = 0;
  for (const name of SCHEMA_NAMES) {
    for (const level of ['official', 'strict'] as const) {
      const prebuilt = requireHere(`${built}validators/${level}-${name}.cjs`) as ValidateFunction;
      const compiled = ajv.compile(SCHEMA_LEVELS[name][level]);
      for (const [what, body] of bodies(name)) {
        const ok = compiled(structuredClone(body));
        assert.equal(prebuilt(structuredClone(body)), ok, `${level} ${name}, ${what}`);
        assert.deepEqual(prebuilt.errors ?? null, compiled.errors ?? null, `${level} ${name}, ${what}: the errors differ`);
        if (!ok) broken++;
      }
    }
  }
  // The broken bodies did break something, so the errors compared are not all empty.
  assert.ok(broken > SCHEMA_NAMES.length * 2 * 4, `bodies refused: ${broken}`);
});

test('the built module judges with the prebuilt validators, without loading ajv\'s compiler', () => {
  const script = `
    const { judgeBody } = await import(${JSON.stringify(`${built}validate.js`)});
    const { createRequire } = await import('node:module');
    const verdict = judgeBody('OBReadAccount6', { Data: { Account: [{ AccountId: '' }] } });
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => /[\\\\/]ajv[\\\\/]dist[\\\\/](ajv|core)\\.js$/.test(k));
    console.log(JSON.stringify({ must: verdict.must.length, loaded }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.ok(out.must > 0, 'the broken body was refused');
  assert.deepEqual(out.loaded, []);
});
