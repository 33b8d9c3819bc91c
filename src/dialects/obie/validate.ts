/**
 * Judges a body against an obie schema at two levels and explains every violation in the
 * standard's own terms (`Data.Account[0].Currency: expected a string matching ^[A-Z]{3,3}$, got "gbp"`).
 *
 * - MUST: what the official UK Open Banking v3.1.11 OpenAPI file demands (our own schema written
 *   from its facts; docs/wire.md for the project's own PaymentStatusResponse). A violation fails.
 * - SHOULD: where the harness is stricter than the file, because of the standard's prose or good
 *   practice (Links and Meta, Currency/AccountType/AccountSubType on accounts not switched,
 *   namespaced ErrorCodes). A violation the official level does not share is a warning.
 *
 * Each schema's validator is loaded (prebuilt by the build: ../prebuilt.ts) or compiled once per
 * process and level, on its first use; a validation is then a call of ajv's generated function
 * (microseconds for a typical body).
 */
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { loadAjv, prebuiltValidator } from '../prebuilt.ts';
import { jsonOutside } from '../../outside-text.ts';
import { MUST_SOURCES, SCHEMA_LEVELS, SHOULD_SOURCE_KEYWORD, SHOULD_SOURCES } from './schemas/index.ts';
import type { Levels, SchemaName } from './schemas/index.ts';
import { V4_SCHEMA_LEVELS } from './schemas/v4.ts';

export type { SchemaName } from './schemas/index.ts';

/** One violation of a schema. */
export interface SchemaProblem {
  /** Where, in the standard's dotted notation: `Data.Account[0].Currency`; `(root)` for the body itself. */
  path: string;
  /** What the standard wants there, e.g. `a string matching ^[A-Z]{3,3}$`, `required field Currency`. */
  expected: string;
  /** What came back: the value JSON-encoded and cut to about 60 characters, or `(absent)`. */
  got: string;
  /** The schema location that failed, for traceability (`#/properties/Data/…/pattern`). */
  schemaPath: string;
  /** The JSON Schema keyword that failed (`required`, `additionalProperties`, `pattern`, …; `body` for a non-JSON body). */
  keyword: string;
}

/** How binding a problem is: MUST fails the check, SHOULD is a warning. */
export type ProblemLevel = 'MUST' | 'SHOULD';

/** One violation, with its level and where the rule comes from. */
export interface Problem extends SchemaProblem {
  /** One readable line: `Data.Account[0]: missing required field Currency`. */
  message: string;
  level: ProblemLevel;
  /** e.g. `OBIE v3.1.11 schema OBReadAccount6`, `OBIE v3.1 prose: Links and Meta (…)`, `harness good practice`. */
  source: string;
}

/** The verdict on one body: failures (MUST) and warnings (SHOULD). */
export interface Judgement {
  must: Problem[];
  should: Problem[];
}

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * ajv with the options every obie validator is compiled with; the build adds `code` options to
 * emit them as standalone modules (scripts/build-validators.mjs).
 */
export function makeAjv(extra: Partial<Options> = {}): Ajv {
  // Loaded only when a validator is compiled here: the prebuilt ones need neither.
  const { Ajv, addFormats } = loadAjv();
  // strict: every keyword in our schemas must be known to ajv. Not verbose: an error's value is
  // read from the body at its instancePath (problemsOf), so the validators carry no copy of the
  // schema and value per error (a third of each standalone validator's code).
  const instance = new Ajv({ allErrors: true, strict: true, ...extra });
  addFormats(instance, ['date-time', 'uri', 'int32']);
  // An annotation only: names the source of a strict-only node (see judgeBody).
  instance.addKeyword({ keyword: SHOULD_SOURCE_KEYWORD, schemaType: 'string' });
  return instance;
}

/** The version of UK Read/Write a body is judged by (versions.ts). */
export type { ObieVersion } from './versions.ts';
import type { ObieVersion } from './versions.ts';
export { versionOf } from './versions.ts';

function levelsOf(name: SchemaName, version: ObieVersion = 'v3.1'): Levels {
  const table: Readonly<Partial<Record<SchemaName, Levels>>> = version === 'v4.0' ? V4_SCHEMA_LEVELS : SCHEMA_LEVELS;
  const levels = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!levels) throw new TypeError(`unknown obie ${version} schema ${JSON.stringify(name)}`);
  return levels;
}

/** Whether the version has a schema of that name (v4.0 has none of the spec's own PaymentStatusResponse). */
export function hasSchema(name: SchemaName, version: ObieVersion = 'v3.1'): boolean {
  return Object.hasOwn(version === 'v4.0' ? V4_SCHEMA_LEVELS : SCHEMA_LEVELS, name);
}

function validatorFor(name: SchemaName, level: keyof Levels, version: ObieVersion = 'v3.1'): ValidateFunction {
  const key = `${version}:${level}:${name}`;
  let fn = compiled.get(key);
  if (!fn) {
    const schema = levelsOf(name, version)[level];
    fn = prebuiltValidator(version === 'v4.0' ? 'obie-v4' : 'obie', level, name);
    if (!fn) {
      ajv ??= makeAjv();
      fn = ajv.compile(schema);
    }
    compiled.set(key, fn);
  }
  return fn;
}

/** Compiles every schema at both levels now (e.g. before timing a run); judging otherwise does it lazily. */
export function compileAll(version: ObieVersion = 'v3.1'): void {
  for (const name of Object.keys(version === 'v4.0' ? V4_SCHEMA_LEVELS : SCHEMA_LEVELS) as SchemaName[]) {
    validatorFor(name, 'official', version);
    validatorFor(name, 'strict', version);
  }
}

/** The JSON Schema behind a name (read-only; for reports and tests): the strict level unless asked. */
export function schemaOf(name: SchemaName, level: keyof Levels = 'strict', version: ObieVersion = 'v3.1'): object {
  return levelsOf(name, version)[level];
}

/**
 * Judges `body` against the named schema at both levels. `must` holds what the official schema
 * (or, for the project's own PaymentStatusResponse, docs/wire.md) refuses; `should` what only the
 * strict level refuses, each with its source. A body that is not a JSON object (HTML, text,
 * nothing) gives one MUST problem at `(body)` and no SHOULD.
 */
export function judgeBody(name: SchemaName, body: unknown, version: ObieVersion = 'v3.1'): Judgement {
  const must = validate(name, body, version);
  if (must.length === 1 && must[0]?.keyword === 'body') return { must, should: [] };
  const fn = validatorFor(name, 'strict', version);
  if (fn(body)) return { must, should: [] };
  const already = new Set(must.map(problemKey));
  const strictSchema = levelsOf(name, version).strict;
  const should = problemsOf(fn.errors ?? [], body)
    .filter((p) => !already.has(problemKey(p)))
    .map((p) => withLevel(p, 'SHOULD', shouldSourceOf(strictSchema, p.schemaPath)));
  return { must, should };
}

/**
 * Validates `body` against the official level of the named schema: the MUST problems only
 * (`[]` when it conforms). A body that is not a JSON object gives one problem at `(body)`.
 */
export function validate(name: SchemaName, body: unknown, version: ObieVersion = 'v3.1'): Problem[] {
  const fn = validatorFor(name, 'official', version);
  const source = version === 'v4.0' ? `OBL v4.0 schema ${name}` : MUST_SOURCES[name];
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const p: SchemaProblem = { path: '(body)', expected: 'a JSON object', got: describeNonObject(body), schemaPath: '#/type', keyword: 'body' };
    return [withLevel(p, 'MUST', source)];
  }
  if (fn(body)) return [];
  return problemsOf(fn.errors ?? [], body).map((p) => withLevel(p, 'MUST', source));
}

/** The problems of ajv's `errors` for the `body` it validated (each error's value read from the body). */
export function problemsOf(errors: ErrorObject[], body: unknown): SchemaProblem[] {
  // A value of the wrong type also fails its format, pattern, …: report only the type there.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (wrongType.has(error.instancePath) && error.keyword !== 'type') continue;
    const problem = toProblem(error, valueAt(body, error.instancePath));
    if (!problem) continue;
    const key = problemKey(problem);
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

export function problemKey(p: SchemaProblem): string {
  return `${p.path}\u0000${p.expected}`;
}

export function withLevel(p: SchemaProblem, level: ProblemLevel, source: string): Problem {
  return { ...p, message: formatProblem(p), level, source };
}

/**
 * The source of a strict-only problem: the annotation on the schema node that holds the failing
 * keyword (`#/properties/Data/…/else/required` → the `else` node), else good practice.
 */
export function shouldSourceOf(schema: object, schemaPath: string): string {
  const tokens = pointerTokens(schemaPath.replace(/^#/, '')).filter(Boolean);
  tokens.pop();
  let node: unknown = schema;
  for (const token of tokens) {
    if (node === null || typeof node !== 'object') return SHOULD_SOURCES.practice;
    node = (node as Record<string, unknown>)[token];
  }
  const source = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[SHOULD_SOURCE_KEYWORD] : undefined;
  return typeof source === 'string' ? source : SHOULD_SOURCES.practice;
}

/** One readable line for one problem (its level not included: see formatProblems). */
export function formatProblem(p: SchemaProblem): string {
  if (p.keyword === 'required') return `${p.path}: missing ${p.expected}`;
  if (p.keyword === 'additionalProperties') return `${p.path}: unexpected field (not in the standard)`;
  return `${p.path}: expected ${p.expected}, got ${p.got}`;
}

function formatLine(p: SchemaProblem | Problem): string {
  const line = formatProblem(p);
  return 'level' in p && p.level === 'SHOULD' ? `${line} (SHOULD: ${p.source})` : line;
}

/**
 * The first `max` problems, one per line, and a count of the rest. Takes a list (MUST lines as
 * they are, SHOULD lines tagged with their source) or a whole judgement (MUST first, then SHOULD).
 */
export function formatProblems(problems: readonly (SchemaProblem | Problem)[] | Judgement, max = 5): string {
  const list = Array.isArray(problems) ? problems : [...(problems as Judgement).must, ...(problems as Judgement).should];
  const lines = list.slice(0, max).map(formatLine);
  if (list.length > max) lines.push(`… and ${list.length - max} more`);
  return lines.join('\n');
}

const MAX_GOT = 60;

/** JSON-encodes a value for a message, cut to about 60 characters. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  // The bank's value: one line, whatever it holds (src/outside-text.ts).
  const s = jsonOutside(value);
  return s.length > MAX_GOT ? `${s.slice(0, MAX_GOT - 1)}…` : s;
}

export function describeNonObject(body: unknown): string {
  if (body === undefined) return 'undefined (no body)';
  if (body === null) return 'null';
  if (typeof body === 'string') return body.trim() === '' ? 'an empty body' : `text ${show(body)}`;
  if (Array.isArray(body)) return `an array ${show(body)}`;
  if (body instanceof Uint8Array) return `${body.byteLength} bytes of binary`;
  return `${typeof body} ${show(body)}`;
}

/** A JSON Pointer's tokens, unescaped: `/Data/a~1b` → `['Data', 'a/b']`; `''` (the root) → `[]`. */
function pointerTokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `/Data/Account/0/Currency` → `Data.Account[0].Currency`. */
export function dottedPath(instancePath: string, child?: string): string {
  const tokens = pointerTokens(instancePath);
  if (child !== undefined) tokens.push(child);
  let out = '';
  for (const token of tokens) {
    if (/^\d+$/.test(token)) out += `[${token}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(token)) out += out === '' ? token : `.${token}`;
    else out += `[${jsonOutside(token)}]`;
  }
  return out === '' ? '(root)' : out;
}

const ARTICLE: Record<string, string> = {
  string: 'a string', object: 'an object', array: 'an array', boolean: 'a boolean (true or false)',
  integer: 'an integer', number: 'a number', null: 'null',
};

const FORMAT: Record<string, string> = {
  'date-time': 'a date-time with a timezone (e.g. 2026-11-22T10:00:00+00:00)',
  uri: 'an absolute URI',
  int32: 'a 32-bit integer',
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The value at a JSON Pointer (an ajv error's instancePath) in `root`; undefined where there is none. */
export function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const token of pointerTokens(pointer)) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

/** One ajv error as a problem; `data` is the value at its instancePath. */
function toProblem(e: ErrorObject, data: unknown): SchemaProblem | undefined {
  const params = e.params as Record<string, unknown>;
  const base = { schemaPath: e.schemaPath, keyword: e.keyword };
  const path = dottedPath(e.instancePath);
  const got = show(data);
  switch (e.keyword) {
    // `if` only reports that its branch failed; the branch's own errors say what.
    case 'if':
      return undefined;
    case 'required':
      return { ...base, path, expected: `required field ${String(params.missingProperty)}`, got: '(absent)' };
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const value = data !== null && typeof data === 'object' && Object.hasOwn(data, name) ? (data as Record<string, unknown>)[name] : undefined;
      return { ...base, path: dottedPath(e.instancePath, name), expected: 'no such field (not in the standard)', got: show(value) };
    }
    case 'type': {
      const types = String(params.type).split(',');
      return { ...base, path, expected: types.map((t) => ARTICLE[t] ?? t).join(' or '), got };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => (typeof v === 'string' ? v : show(v)));
      return { ...base, path, expected: `one of ${allowed.join(', ')}`, got };
    }
    case 'const':
      return { ...base, path, expected: `exactly ${show(params.allowedValue)}`, got };
    case 'pattern':
      return { ...base, path, expected: `a string matching ${String(params.pattern)}`, got };
    case 'format':
      return { ...base, path, expected: FORMAT[String(params.format)] ?? `a ${String(params.format)}`, got };
    case 'minLength':
      return { ...base, path, expected: `a string of at least ${plural(Number(params.limit), 'character')}`, got };
    case 'maxLength':
      return { ...base, path, expected: `a string of at most ${plural(Number(params.limit), 'character')}`, got };
    case 'minItems':
      return { ...base, path, expected: `at least ${plural(Number(params.limit), 'item')}`, got };
    case 'maxItems':
      return { ...base, path, expected: `at most ${plural(Number(params.limit), 'item')}`, got };
    default:
      return { ...base, path, expected: (e.message ?? e.keyword).replace(/^must (be )?/, ''), got };
  }
}
