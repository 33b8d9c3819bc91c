// The validators the build emits as standalone code (scripts/build-validators.mjs, loaded through
// dist/src/dialects/prebuilt.js) judge exactly as the ones ajv compiles from the sources: for every
// schema of both dialects at both levels, on a conformant body (where the tests have one) and on
// bodies broken in several ways, the same verdict and the same errors. And the built modules load
// no ajv compiler to judge. Build first (npm test does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, ValidateFunction } from 'ajv';
import { makeAjv } from '../../src/dialects/obie/validate.ts';
import { makeBgAjv } from '../../src/dialects/berlin-group/validate.ts';
import { SCHEMA_LEVELS } from '../../src/dialects/obie/schemas/index.ts';
import { BG_SCHEMA_LEVELS } from '../../src/dialects/berlin-group/schemas/index.ts';
import { sample } from './obie-samples.ts';
import { samples as bgSamples } from './berlin-group-samples.ts';

const built = fileURLToPath(new URL('../../dist/src/dialects/', import.meta.url));
const requireHere = createRequire(import.meta.url);

interface Dialect {
  name: 'obie' | 'berlin-group';
  levels: Record<string, { official: object; strict: object }>;
  ajv: () => Ajv;
  /** A conformant body, where there is one. */
  sample: (schema: string) => unknown;
}

const DIALECTS: Dialect[] = [
  { name: 'obie', levels: SCHEMA_LEVELS, ajv: () => makeAjv(), sample: (s) => sample(s as never) },
  { name: 'berlin-group', levels: BG_SCHEMA_LEVELS, ajv: () => makeBgAjv(), sample: (s) => structuredClone((bgSamples as Record<string, unknown>)[s]) },
];

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
function bodies(good: unknown): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [['an empty object', {}], ['an unknown field only', { unexpected: 1 }], ['a list', []]];
  if (good === undefined) return out;
  const leaf = firstString(good);
  out.push(['the sample', good], ['an unknown field', { ...(good as object), Unexpected: 1 }]);
  const top = Object.keys(good as object)[0];
  if (top) out.push([`${top} a string`, { ...(good as object), [top]: 'x' }]);
  if (leaf) {
    out.push(
      [`${leaf.join('.')} a number`, setAt(structuredClone(good), leaf, 12345)],
      [`${leaf.join('.')} empty`, setAt(structuredClone(good), leaf, '')],
      [`${leaf.join('.')} far too long`, setAt(structuredClone(good), leaf, 'x'.repeat(5000))],
    );
  }
  return out;
}

test('the build emitted a validator for every schema of both dialects at both levels', () => {
  for (const d of DIALECTS) {
    for (const name of Object.keys(d.levels)) {
      for (const level of ['official', 'strict']) {
        assert.ok(existsSync(`${built}${d.name}/validators/${level}-${name}.cjs`), `${d.name} ${level}-${name}.cjs (run npm run build)`);
      }
    }
  }
});

for (const d of DIALECTS) {
  test(`${d.name}: each prebuilt validator gives the verdict and the errors of the one compiled from the sources`, () => {
    const ajv = d.ajv();
    let refused = 0;
    let checked = 0;
    for (const [name, levels] of Object.entries(d.levels)) {
      for (const level of ['official', 'strict'] as const) {
        const prebuilt = requireHere(`${built}${d.name}/validators/${level}-${name}.cjs`) as ValidateFunction;
        const compiled = ajv.compile(levels[level]);
        for (const [what, body] of bodies(d.sample(name))) {
          const ok = compiled(structuredClone(body));
          assert.equal(prebuilt(structuredClone(body)), ok, `${level} ${name}, ${what}`);
          assert.deepEqual(prebuilt.errors ?? null, compiled.errors ?? null, `${level} ${name}, ${what}: the errors differ`);
          checked++;
          if (!ok) refused++;
        }
      }
    }
    // Most bodies are broken, so the errors compared are mostly not empty.
    assert.ok(refused > checked / 2, `bodies refused: ${refused} of ${checked}`);
  });
}

test('the built modules judge with the prebuilt validators, without loading ajv\'s compiler', () => {
  const script = `
    const obie = await import(${JSON.stringify(`${built}obie/validate.js`)});
    const bg = await import(${JSON.stringify(`${built}berlin-group/validate.js`)});
    const { createRequire } = await import('node:module');
    const must = obie.judgeBody('OBReadAccount6', { Data: { Account: [{ AccountId: '' }] } }).must.length + bg.judgeBg('accountList', { accounts: 'none' }).must.length;
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => /[\\/]ajv[\\/]dist[\\/](ajv|core)\\.js$/.test(k));
    console.log(JSON.stringify({ must, loaded }));`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.ok(out.must >= 2, 'both broken bodies were refused');
  assert.deepEqual(out.loaded, []);
});

test('every generated validator\'s source is Latin-1 only, so that V8 holds it one byte per character', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const files = [fileURLToPath(new URL('../../dist/src/profile/profile-validator.cjs', import.meta.url))];
  for (const dialect of readdirSync(built, { withFileTypes: true })) {
    const dir = join(built, dialect.name, 'validators');
    if (dialect.isDirectory() && existsSync(dir)) files.push(...readdirSync(dir).filter((f) => f.endsWith('.cjs')).map((f) => join(dir, f)));
  }
  assert.ok(files.length > 100, `the build's validators (${files.length})`);
  // A module's source text lives as long as the module: one character beyond Latin-1 (an em dash
  // in a header) makes V8 keep all of it as two bytes per character.
  const wide = files.filter((f) => /[^\u0000-\u00ff]/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(wide, []);
});
