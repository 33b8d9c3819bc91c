/**
 * Judges a body against a berlin-group schema at two levels, with the obie dialect's explanations
 * (`accounts[0].currency: expected a string matching ^[A-Z]{3}$, got "EURO"`):
 *
 * - MUST: what the official NextGenPSD2 1.3.12 OpenAPI file demands (our own schemas written
 *   from its facts). A violation fails.
 * - SHOULD: where the harness is stricter (anchored ISO patterns, resourceId on accounts, href in
 *   links, tppMessages in error bodies, an SCA link on a create). A violation only there is a warning.
 *
 * Each schema's validator is loaded (prebuilt, ../prebuilt.ts) or compiled once per process and
 * level, on first use.
 */
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { loadAjv, prebuiltValidator } from '../prebuilt.ts';
import { describeNonObject, problemKey, problemsOf, shouldSourceOf, withLevel } from '../obie/validate.ts';
import type { Judgement, Problem, SchemaProblem } from '../obie/validate.ts';
import { SHOULD_SOURCE_KEYWORD } from '../obie/schemas/common.ts';
import { BG_SCHEMA_LEVELS, mustSourceOf } from './schemas/index.ts';
import type { BgSchemaName, Levels } from './schemas/index.ts';

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function levelsOf(name: BgSchemaName): Levels {
  const levels = Object.hasOwn(BG_SCHEMA_LEVELS, name) ? BG_SCHEMA_LEVELS[name] : undefined;
  if (!levels) throw new TypeError(`unknown berlin-group schema ${JSON.stringify(name)}`);
  return levels;
}

function validatorFor(name: BgSchemaName, level: keyof Levels): ValidateFunction {
  const key = `${level}:${name}`;
  let fn = compiled.get(key);
  if (!fn) {
    const schema = levelsOf(name)[level];
    fn = prebuiltValidator('berlin-group', level, name);
    if (!fn) {
      ajv ??= makeBgAjv();
      fn = ajv.compile(schema);
    }
    compiled.set(key, fn);
  }
  return fn;
}

/**
 * ajv with the options every berlin-group validator is compiled with; the build adds `code`
 * options to emit them as standalone modules (scripts/build-validators.mjs).
 */
export function makeBgAjv(extra: Partial<Options> = {}): Ajv {
  const { Ajv, addFormats } = loadAjv();
  // strictRequired off: the strict level names a set of alternatives as one required field (schemas/consents.ts).
  const instance = new Ajv({ allErrors: true, strict: true, strictRequired: false, verbose: true, ...extra });
  // byte and url: the embedded approach's challengeData (an image, a link to one).
  addFormats(instance, ['date-time', 'date', 'uri', 'byte', 'url']);
  instance.addKeyword({ keyword: SHOULD_SOURCE_KEYWORD, schemaType: 'string' });
  return instance;
}

/** Compiles every schema at both levels now; judging otherwise does it lazily. */
export function compileAllBg(): void {
  for (const name of Object.keys(BG_SCHEMA_LEVELS) as BgSchemaName[]) {
    validatorFor(name, 'official');
    validatorFor(name, 'strict');
  }
}

/** The JSON Schema behind a name (read-only): the strict level unless asked. */
export function bgSchemaOf(name: BgSchemaName, level: keyof Levels = 'strict'): object {
  return levelsOf(name)[level];
}

/** The MUST problems of `body` (official level); `[]` when it conforms. A non-object body is one problem at `(body)`. */
export function validateBg(name: BgSchemaName, body: unknown): Problem[] {
  const source = mustSourceOf(name);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const p: SchemaProblem = { path: '(body)', expected: 'a JSON object', got: describeNonObject(body), schemaPath: '#/type', keyword: 'body' };
    return [withLevel(p, 'MUST', source)];
  }
  const fn = validatorFor(name, 'official');
  if (fn(body)) return [];
  return problemsOf(fn.errors ?? []).map((p) => withLevel(p, 'MUST', source));
}

/** Judges `body` at both levels: MUST failures, and SHOULD warnings the official level does not share. */
export function judgeBg(name: BgSchemaName, body: unknown): Judgement {
  const must = validateBg(name, body);
  if (must.length === 1 && must[0]?.keyword === 'body') return { must, should: [] };
  const fn = validatorFor(name, 'strict');
  if (fn(body)) return { must, should: [] };
  const already = new Set(must.map(problemKey));
  const strict = levelsOf(name).strict;
  const should = problemsOf(fn.errors ?? [])
    .filter((p) => !already.has(problemKey(p)))
    .map((p) => withLevel(p, 'SHOULD', shouldSourceOf(strict, p.schemaPath)));
  return { must, should };
}

/**
 * Judges an error answer by its Content-Type: `application/problem+json` against RFC 7807's
 * shape (1.3.8+), anything else against the NextGenPSD2 `tppMessages` shape.
 */
export function judgeBgError(body: unknown, contentType: string | undefined): Judgement {
  return judgeBg(/problem\+json/i.test(contentType ?? '') ? 'Error_problem' : 'Error_NG', body);
}
