/**
 * The whole official NextGenPSD2 1.3.12 schema, judged: for every schema the berlin-group dialect
 * judges, bodies generated from the OFFICIAL file (read at test time; nothing of it is stored in
 * the project) pass with no MUST failure, and every single-field mutation of them is judged as the
 * file judges it — refused by the file → at least one MUST failure; still valid → no MUST failure.
 *
 * No servers: the judge is called directly. Generation is seeded, so every run makes the same
 * bodies and the same mutations.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BG_SCHEMA_NAMES, ERROR_CODES_SOURCE, judgeBgError, judgeScaApproachHeader, SCA_APPROACH_HEADER_VALUES, validateBg,
} from '../../src/dialects/berlin-group/index.ts';
import type { BgSchemaName } from '../../src/dialects/berlin-group/index.ts';
import { bgDoc, bgSkip, officialSchemaFor, officialValidator } from './berlin-group-official.ts';

type Json = Record<string, any>;
type Path = (string | number)[];

/** `$ref` and single-member `allOf` resolved; the first branch of a `oneOf`. */
function resolve(s: Json): Json {
  let cur = s;
  for (;;) {
    if (typeof cur.$ref === 'string') cur = bgDoc().components.schemas[cur.$ref.split('/').pop() as string];
    else if (Array.isArray(cur.allOf) && cur.allOf.length === 1) cur = cur.allOf[0];
    else if (Array.isArray(cur.oneOf)) cur = cur.oneOf[0];
    else return cur;
  }
}

/** Values the file's patterns accept, most specific first. */
const PATTERN_VALUES = ['DE89370400440532013000', 'DEUTDEFF500', 'DEUTDEFF', 'EUR', 'DE', '-123.45', '370400440532013000', '+49-30-1234567'];

/** A place in a body that a mutation can bend: its path, its official schema, whether its parent requires it. */
interface Site { path: Path; schema: Json; required: boolean }

/** A seeded generator: `full` fills every member, `minimal` the required ones, `mixed` about half. */
function generate(root: Json, mode: 'full' | 'minimal' | 'mixed', seed: number): { body: unknown; sites: Site[] } {
  // mulberry32: a small PRNG in 32-bit integer arithmetic, the same sequence on every run.
  let state = seed >>> 0;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const sites: Site[] = [];

  function walk(raw: Json, path: Path, required: boolean, depth: number): unknown {
    const s = resolve(raw);
    if (path.length) sites.push({ path, schema: s, required });
    const type = s.type ?? (s.properties ? 'object' : undefined);
    switch (type) {
      case 'object': {
        const out: Json = {};
        const req = new Set<string>(s.required ?? []);
        for (const [k, v] of Object.entries((s.properties ?? {}) as Json)) {
          const take = req.has(k) || (depth < 6 && (mode === 'full' || (mode === 'mixed' && rand() < 0.5)));
          if (take) out[k] = walk(v, [...path, k], req.has(k), depth + 1);
        }
        if (!s.properties && typeof s.additionalProperties === 'object' && mode !== 'minimal') out.self = walk(s.additionalProperties, [...path, 'self'], false, depth + 1);
        return out;
      }
      case 'array': {
        // Two items in the later full bodies; one in the first, which the mutations bend (a smaller body judges faster).
        const n = Math.min(s.maxItems ?? Infinity, Math.max(s.minItems ?? 0, mode === 'full' && seed > 1 ? 2 : 1));
        return Array.from({ length: n }, (_, i) => walk(s.items ?? {}, [...path, i], false, depth + 1));
      }
      case 'integer': return Math.max(s.minimum ?? 1, 1);
      case 'number': return 1.5;
      case 'boolean': return rand() < 0.5;
      case 'string': {
        if (Array.isArray(s.enum)) return pick(s.enum);
        if (s.format === 'date') return pick(['2026-11-22', '2027-02-28']);
        if (s.format === 'date-time') return pick(['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.123+01:00']);
        if (s.format === 'uri' || s.format === 'url') return 'https://bank.example/psd2/x';
        if (s.format === 'byte') return 'aGVsbG8=';
        if (typeof s.pattern === 'string') {
          const re = new RegExp(s.pattern);
          const v = PATTERN_VALUES.find((c) => re.test(c) && c.length <= (s.maxLength ?? Infinity));
          if (v === undefined) throw new Error(`no value for pattern ${s.pattern} at ${path.join('.')}`);
          return v;
        }
        const v = `${String(path.at(-1))}-${seed}`;
        return v.slice(0, s.maxLength ?? Infinity);
      }
      default: return 'untyped';
    }
  }
  return { body: walk(root, [], true, 0), sites };
}

/** Every single-field violation (or near-violation) of one site: [what, how to apply it]. */
function mutationsOf(site: Site): [string, (parent: Json, key: string | number) => void][] {
  const s = site.schema;
  const set = (v: unknown) => (p: Json, k: string | number) => { p[k] = v; };
  const out: [string, (p: Json, k: string | number) => void][] = [];
  if (site.required && typeof site.path.at(-1) === 'string') out.push(['removed', (p, k) => { delete p[k]; }]);
  const type = s.type ?? (s.properties ? 'object' : undefined);
  out.push(['null', set(null)]);
  if (type !== 'string') out.push(['a string', set('x')]);
  if (type !== 'integer' && type !== 'number') out.push(['a number', set(7)]);
  if (type !== 'object') out.push(['an object', set({ x: 1 })]);
  if (type !== 'array') out.push(['an array', set(['x'])]);
  if (type !== 'boolean') out.push(['a boolean', set(true)]);
  if (type === 'string') {
    if (Array.isArray(s.enum)) out.push(['off the enum', set('NOT_IN_THE_LIST')], ['the enum in lower case', set(String(s.enum[0]).toLowerCase() === s.enum[0] ? String(s.enum[0]).toUpperCase() : String(s.enum[0]).toLowerCase())]);
    if (typeof s.pattern === 'string') out.push(['off the pattern', set('!')], ['lower case', (p, k) => { p[k] = String(p[k]).toLowerCase(); }]);
    if (typeof s.maxLength === 'number') out.push(['one too long', set('A'.repeat(s.maxLength + 1))], ['at the limit', set('A'.repeat(s.maxLength))]);
    if (s.format === 'date') out.push(['not a date', set('2026-13-45')], ['a date-time', set('2026-11-22T10:00:00Z')]);
    if (s.format === 'date-time') out.push(['not a date-time', set('2026-11-22 noon')], ['a date', set('2026-11-22')]);
    if (s.format === 'uri') out.push(['not a URI', set('not a uri')]);
    if (s.format === 'byte') out.push(['not base64', set('***')]);
    out.push(['empty', set('')]);
  }
  if (type === 'integer') out.push(['a fraction', set(1.5)], ['zero', set(0)], ['negative', set(-1)]);
  if (type === 'array') {
    out.push(['empty', set([])]);
    if (typeof s.maxItems === 'number') out.push(['one item too many', (p, k) => { p[k] = Array.from({ length: s.maxItems + 1 }, () => (p[k] as unknown[])[0]); }]);
  }
  if (type === 'object') out.push(['with a member the file does not name', (p, k) => { p[k] = { ...(p[k] as Json), obtppExtra: 'x' }; }], ['empty', set({})]);
  return out;
}

function at(body: unknown, path: Path): Json {
  return path.reduce((o: any, k) => o[k], body) as Json;
}

const MODES = ['full', 'minimal', 'mixed'] as const;
const SEEDS = [1, 2, 3];

test('official-valid bodies pass; every single-field official violation fails, for every schema the dialect judges', { skip: bgSkip }, () => {
  const rows: string[] = [];
  const falsePasses: string[] = [];
  const falseFailures: string[] = [];
  let total = 0;
  let refused = 0;
  let bodies = 0;
  for (const name of BG_SCHEMA_NAMES as BgSchemaName[]) {
    const official = officialValidator(name);
    const root = officialSchemaFor(name);
    let n = 0;
    let bad = 0;
    const seen = new Set<string>();
    for (const mode of MODES) {
      for (const seed of SEEDS) {
        const { body, sites } = generate(root, mode, seed);
        bodies++;
        assert.ok(official(body), `${name} ${mode}/${seed}: the generator made a body the file refuses: ${JSON.stringify(official.errors)}`);
        const must = validateBg(name, body);
        if (must.length) falseFailures.push(`${name} (${mode}/${seed}, unmutated): ${must.map((p) => p.message).join('; ')}`);
        for (const site of sites) {
          for (const [what, apply] of mutationsOf(site)) {
            // One mutation per place of the schema and kind: the second item of a list, or the
            // same place in another body, would only repeat it (and cost seconds).
            const key = `${site.path.map((k) => (typeof k === 'number' ? '[]' : k)).join('.')} ${what}`;
            if (seen.has(key)) continue;
            seen.add(key);
            // Bent in place and mended after judging, rather than copying the whole body each time.
            const parent = at(body, site.path.slice(0, -1));
            const last = site.path.at(-1)!;
            const had = Object.hasOwn(parent, last);
            const old = parent[last];
            apply(parent, last);
            const valid = official(body);
            const ours = validateBg(name, body);
            if (had) parent[last] = old;
            else delete parent[last];
            const where = `${name} ${key}`;
            n++;
            if (!valid) bad++;
            if (!valid && ours.length === 0) falsePasses.push(where);
            if (valid && ours.length > 0) falseFailures.push(`${where}: ${ours[0].message}`);
          }
        }
      }
    }
    total += n;
    refused += bad;
    rows.push(`${name}: ${n} mutations, ${bad} refused by the file`);
  }
  const uniq = (xs: string[]) => [...new Set(xs)];
  console.log(`${bodies} official-valid bodies, ${total} single-field mutations, ${refused} refused by the file; `
    + `${falsePasses.length} of those passed the judge, ${falseFailures.length} valid bodies failed it\n  ${rows.join('\n  ')}`);
  assert.deepEqual(uniq(falseFailures), [], 'official-valid bodies that the judge fails');
  assert.deepEqual(uniq(falsePasses), [], 'official violations that the judge passes');
  assert.ok(refused > 1000, `too few official violations to prove anything (${refused})`);
});

test('ASPSP-SCA-Approach: the file\'s enum is a MUST; no header while the links fix the approach is a SHOULD', { skip: bgSkip }, () => {
  assert.deepEqual([...SCA_APPROACH_HEADER_VALUES].sort(), [...bgDoc().components.headers['ASPSP-SCA-Approach'].schema.enum].sort());
  const redirect = { _links: { scaRedirect: { href: 'https://bank.example/sca' } } };
  for (const v of SCA_APPROACH_HEADER_VALUES) assert.deepEqual(judgeScaApproachHeader(v, redirect), { must: [], should: [] }, v);
  for (const v of ['OAUTH', 'redirect', '']) {
    assert.deepEqual(judgeScaApproachHeader(v, redirect).must.map((p) => p.message), [`ASPSP-SCA-Approach (header): expected one of EMBEDDED, DECOUPLED, REDIRECT, got ${JSON.stringify(v)}`], v);
  }
  const absent = judgeScaApproachHeader(undefined, { _links: { scaOAuth: { href: 'https://bank.example/.well-known/oauth-authorization-server' } } });
  assert.deepEqual([absent.must, absent.should.length, absent.should[0]?.source], [[], 1, absent.should[0]?.source]);
  assert.match(absent.should[0].source, /must be contained, if the SCA Approach is already fixed/);
  // An explicit start (startAuthorisation*) leaves the approach open: no header is fine.
  assert.deepEqual(judgeScaApproachHeader(undefined, { _links: { startAuthorisation: { href: '/x' } } }), { must: [], should: [] });
});

test('tppMessages codes: a code the standard names for another HTTP status is a SHOULD; a code that is no string a MUST', () => {
  const ng = (code: unknown) => ({ tppMessages: [{ category: 'ERROR', code }] });
  assert.deepEqual(judgeBgError(ng('CONSENT_EXPIRED'), 'application/json', 401), { must: [], should: [] });
  assert.deepEqual(judgeBgError(ng('ACCESS_EXCEEDED'), 'application/json', 429), { must: [], should: [] });
  const off = judgeBgError(ng('CONSENT_EXPIRED'), 'application/json', 400);
  assert.deepEqual([off.must, off.should.map((p) => [p.path, p.source])], [[], [['tppMessages[0].code', ERROR_CODES_SOURCE]]]);
  assert.match(off.should[0].message, /^tppMessages\[0\]\.code: expected one of the codes NextGenPSD2 names for HTTP 400 \(FORMAT_ERROR, .*got "CONSENT_EXPIRED"$/);
  const problem = judgeBgError({ type: 'https://bank.example/p', code: 'RESOURCE_UNKNOWN', additionalErrors: [{ code: 'TOKEN_EXPIRED' }] }, 'application/problem+json', 404);
  assert.deepEqual(problem.should.map((p) => p.path), ['additionalErrors[0].code']);
  const notString = judgeBgError(ng(42), 'application/json', 400);
  assert.deepEqual([notString.must.map((p) => p.path), notString.should], [['tppMessages[0].code'], []]);
  // A status the standard gives no codes for, or none given: the shape alone.
  assert.deepEqual(judgeBgError(ng('WHATEVER'), 'application/json', 500), { must: [], should: [] });
  assert.deepEqual(judgeBgError(ng('WHATEVER'), 'application/json'), { must: [], should: [] });
});
