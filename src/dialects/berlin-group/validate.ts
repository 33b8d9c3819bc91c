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
import { describeNonObject, problemKey, problemsOf, shouldSourceOf, show, withLevel } from '../obie/validate.ts';
import type { Judgement, Problem, SchemaProblem } from '../obie/validate.ts';
import { SHOULD_SOURCE_KEYWORD } from '../obie/schemas/common.ts';
import { BG_SCHEMA_LEVELS, mustSourceOf } from './schemas/index.ts';
import { ERROR_CODES } from './schemas/errors.ts';
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
  // Not verbose: an error's value is read from the body (problemsOf).
  const instance = new Ajv({ allErrors: true, strict: true, strictRequired: false, ...extra });
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
  return problemsOf(fn.errors ?? [], body).map((p) => withLevel(p, 'MUST', source));
}

/** Judges `body` at both levels: MUST failures, and SHOULD warnings the official level does not share. */
export function judgeBg(name: BgSchemaName, body: unknown): Judgement {
  const must = validateBg(name, body);
  if (must.length === 1 && must[0]?.keyword === 'body') return { must, should: [] };
  const fn = validatorFor(name, 'strict');
  if (fn(body)) return { must, should: [] };
  const already = new Set(must.map(problemKey));
  const strict = levelsOf(name).strict;
  const should = problemsOf(fn.errors ?? [], body)
    .filter((p) => !already.has(problemKey(p)))
    .map((p) => withLevel(p, 'SHOULD', shouldSourceOf(strict, p.schemaPath)));
  return { must, should };
}

/** Where the codes by HTTP status come from: 1.3.12 leaves them plain strings, so a code off its status's list is a SHOULD. */
export const ERROR_CODES_SOURCE = 'NextGenPSD2 1.3.x message codes by HTTP status (enumerated in 1.3.6 and 1.3.16; plain strings in the 1.3.12 file)';

/**
 * Judges an error answer by its Content-Type: `application/problem+json` against RFC 7807's
 * shape (1.3.8+), anything else against the NextGenPSD2 `tppMessages` shape. Given the HTTP
 * status, each code the standard does not name for that status is a SHOULD warning.
 */
export function judgeBgError(body: unknown, contentType: string | undefined, status?: number): Judgement {
  const problem = /problem\+json/i.test(contentType ?? '');
  const judgement = judgeBg(problem ? 'Error_problem' : 'Error_NG', body);
  const known = status === undefined ? undefined : ERROR_CODES[status];
  if (!known || body === null || typeof body !== 'object') return judgement;
  const b = body as Record<string, unknown>;
  const codes: [string, unknown][] = problem
    ? [['code', b.code], ...(Array.isArray(b.additionalErrors) ? b.additionalErrors.map((e, i): [string, unknown] => [`additionalErrors[${i}].code`, (e as { code?: unknown })?.code]) : [])]
    : Array.isArray(b.tppMessages) ? b.tppMessages.map((m, i): [string, unknown] => [`tppMessages[${i}].code`, (m as { code?: unknown })?.code]) : [];
  // Codes of another type are the schema's MUST already; only a string off the list is this SHOULD.
  const off = codes.filter(([, code]) => typeof code === 'string' && !known.includes(code));
  const should = off.map(([path, code]) => withLevel({
    path, expected: `one of the codes NextGenPSD2 names for HTTP ${status} (${known.join(', ')})`, got: show(code), schemaPath: `#/x-obtpp-error-codes/${status}`, keyword: 'enum',
  }, 'SHOULD', ERROR_CODES_SOURCE));
  return { must: judgement.must, should: [...judgement.should, ...should] };
}

/** The values of the `ASPSP-SCA-Approach` response header; the OAuth approach is subsumed by REDIRECT (with the scaOAuth link). */
export const SCA_APPROACH_HEADER_VALUES = ['EMBEDDED', 'DECOUPLED', 'REDIRECT'] as const;

/**
 * Judges the `ASPSP-SCA-Approach` header of a create's answer: a value off the file's enum is a
 * MUST failure; no header while the body's links fix the approach (scaRedirect, scaOAuth) is a
 * SHOULD, as the file's description says "must be contained, if the SCA Approach is already
 * fixed" but its schema does not require the header.
 */
export function judgeScaApproachHeader(value: string | undefined, body: unknown): Judgement {
  const path = 'ASPSP-SCA-Approach (header)';
  const expected = `one of ${SCA_APPROACH_HEADER_VALUES.join(', ')}`;
  if (value !== undefined) {
    if ((SCA_APPROACH_HEADER_VALUES as readonly string[]).includes(value)) return { must: [], should: [] };
    const p: SchemaProblem = { path, expected, got: show(value), schemaPath: '#/components/headers/ASPSP-SCA-Approach/schema/enum', keyword: 'enum' };
    return { must: [withLevel(p, 'MUST', 'NextGenPSD2 1.3.12 header ASPSP-SCA-Approach')], should: [] };
  }
  const links = (body as { _links?: unknown } | null)?._links;
  const fixed = links !== null && typeof links === 'object' && ['scaRedirect', 'scaOAuth'].some((l) => Object.hasOwn(links, l));
  if (!fixed) return { must: [], should: [] };
  const p: SchemaProblem = { path, expected: `${expected} (the answer's links fix the approach)`, got: '(absent)', schemaPath: '#/components/headers/ASPSP-SCA-Approach', keyword: 'header' };
  return { must: [], should: [withLevel(p, 'SHOULD', 'NextGenPSD2 1.3.12 ASPSP-SCA-Approach: "must be contained, if the SCA Approach is already fixed" (the schema does not require it)')] };
}
