/**
 * Judges a body against an obie schema and explains every violation in the standard's own terms
 * (`Data.Account[0].Currency: expected a string matching ^[A-Z]{3,3}$, got "gbp"`).
 *
 * Each schema is compiled once per process, on its first use; a validation is then a call of
 * ajv's generated function (microseconds for a typical body).
 */
import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { SCHEMAS } from './schemas/index.ts';
import type { SchemaName } from './schemas/index.ts';

export type { SchemaName } from './schemas/index.ts';

// ajv-formats is CommonJS with a default export; nodenext types see the namespace (notes/toolchain.md §3).
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

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

let ajv: Ajv | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

function makeAjv(): Ajv {
  // strict: every keyword in our schemas must be known to ajv; verbose: errors carry the value.
  const instance = new Ajv({ allErrors: true, strict: true, verbose: true });
  addFormats(instance, ['date-time', 'uri', 'int32']);
  return instance;
}

function validatorFor(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    const schema = SCHEMAS[name];
    if (!schema) throw new TypeError(`unknown obie schema ${JSON.stringify(name)}`);
    ajv ??= makeAjv();
    fn = ajv.compile(schema);
    compiled.set(name, fn);
  }
  return fn;
}

/** Compiles every schema now (e.g. before timing a run); validate() otherwise does it lazily. */
export function compileAll(): void {
  for (const name of Object.keys(SCHEMAS) as SchemaName[]) validatorFor(name);
}

/** The JSON Schema behind a name (read-only; for reports and tests). */
export function schemaOf(name: SchemaName): object {
  return SCHEMAS[name];
}

/**
 * Validates `body` against the named schema. Returns `[]` when it conforms. A body that is not a
 * JSON object (HTML, text, nothing) gives one problem at `(body)`.
 */
export function validate(name: SchemaName, body: unknown): SchemaProblem[] {
  const fn = validatorFor(name);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return [{ path: '(body)', expected: 'a JSON object', got: describeNonObject(body), schemaPath: '#/type', keyword: 'body' }];
  }
  if (fn(body)) return [];
  const errors = fn.errors ?? [];
  // A value of the wrong type also fails its format, pattern, …: report only the type there.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (wrongType.has(error.instancePath) && error.keyword !== 'type') continue;
    const problem = toProblem(error);
    if (!problem) continue;
    const key = `${problem.path}\u0000${problem.expected}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/** One readable line for one problem. */
export function formatProblem(p: SchemaProblem): string {
  if (p.keyword === 'required') return `${p.path}: missing ${p.expected}`;
  if (p.keyword === 'additionalProperties') return `${p.path}: unexpected field (not in the standard)`;
  return `${p.path}: expected ${p.expected}, got ${p.got}`;
}

/** The first `max` problems, one per line, and a count of the rest. */
export function formatProblems(problems: SchemaProblem[], max = 5): string {
  const lines = problems.slice(0, max).map(formatProblem);
  if (problems.length > max) lines.push(`… and ${problems.length - max} more`);
  return lines.join('\n');
}

const MAX_GOT = 60;

/** JSON-encodes a value for a message, cut to about 60 characters. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > MAX_GOT ? `${s.slice(0, MAX_GOT - 1)}…` : s;
}

function describeNonObject(body: unknown): string {
  if (body === undefined) return 'undefined (no body)';
  if (body === null) return 'null';
  if (typeof body === 'string') return body.trim() === '' ? 'an empty body' : `text ${show(body)}`;
  if (Array.isArray(body)) return `an array ${show(body)}`;
  if (body instanceof Uint8Array) return `${body.byteLength} bytes of binary`;
  return `${typeof body} ${show(body)}`;
}

/** `/Data/Account/0/Currency` → `Data.Account[0].Currency`. */
export function dottedPath(instancePath: string, child?: string): string {
  const tokens = instancePath === '' ? [] : instancePath.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) tokens.push(child);
  let out = '';
  for (const token of tokens) {
    if (/^\d+$/.test(token)) out += `[${token}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(token)) out += out === '' ? token : `.${token}`;
    else out += `[${JSON.stringify(token)}]`;
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

function toProblem(e: ErrorObject): SchemaProblem | undefined {
  const params = e.params as Record<string, unknown>;
  const base = { schemaPath: e.schemaPath, keyword: e.keyword };
  const path = dottedPath(e.instancePath);
  const got = show(e.data);
  switch (e.keyword) {
    // `if` only reports that its branch failed; the branch's own errors say what.
    case 'if':
      return undefined;
    case 'required':
      return { ...base, path, expected: `required field ${String(params.missingProperty)}`, got: '(absent)' };
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const value = (e.data as Record<string, unknown> | undefined)?.[name];
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
