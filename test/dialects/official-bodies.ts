/**
 * Builds bodies from the OFFICIAL UK Open Banking v3.1.11 OpenAPI files (read at test time from
 * ../shared/reference/obie; nothing of them is stored in the project): it walks a component's JSON
 * schema, resolves `$ref`, and fills every field it includes with a value the file itself allows —
 * an `enum` or `x-namespaced-enum` member, a value of the `format`, a string matching the `pattern`
 * within the length limits. `minimal` includes only the required fields; `full` every field.
 * A seed varies the choices (enum members, time zones, array lengths), so that many bodies cover
 * every member of every list.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';

const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

type Json = Record<string, any>;
export type OfficialFile = 'account-info' | 'confirmation-funds' | 'payment-initiation';

export const OFFICIAL_DIR = fileURLToPath(new URL('../../../shared/reference/obie/', import.meta.url));
export const officialFilesPresent = existsSync(`${OFFICIAL_DIR}account-info-openapi.json`);

const docs = new Map<OfficialFile, Json>();
export function officialDoc(file: OfficialFile): Json {
  let d = docs.get(file);
  if (!d) {
    d = JSON.parse(readFileSync(`${OFFICIAL_DIR}${file}-openapi.json`, 'utf8')) as Json;
    docs.set(file, d);
  }
  return d;
}

const ajvs = new Map<OfficialFile, Ajv>();
/** The official file's own component, compiled by ajv (vendor keywords ignored): the referee. */
export function officialValidator(file: OfficialFile, component: string): ValidateFunction {
  let ajv = ajvs.get(file);
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addSchema({ $id: `https://obtpp.test/${file}.json`, components: officialDoc(file).components });
    ajvs.set(file, ajv);
  }
  const fn = ajv.getSchema(`https://obtpp.test/${file}.json#/components/schemas/${component}`);
  if (!fn) throw new Error(`${file}#/components/schemas/${component} not found`);
  return fn;
}

export interface GenerateOptions {
  mode: 'minimal' | 'full';
  seed: number;
  /** Dotted paths (`Data.Account`) included even when optional, in minimal mode too. */
  include?: readonly string[];
}

/**
 * Values tried, in order, for a string with a `pattern`: the first that the file's own pattern
 * accepts (and that fits its lengths) is used. An unknown pattern fails loudly, never silently.
 */
const PATTERN_CANDIDATES = ['GBP', 'EUR', 'GB', 'FR', '10.00', '1', '0.12345', '1234567890123', 'EvryDay', 'NotKnown', '+44-2079460000', 'ABCD', '123'];

const DATE_TIMES = ['2026-11-22T10:00:00+00:00', '2026-11-22T10:00:00Z', '2026-06-01T08:30:15.123+01:00', '2025-12-31T23:59:59-05:00'];

export function generate(file: OfficialFile, component: string, options: GenerateOptions): Json {
  const doc = officialDoc(file);
  const include = new Set(options.include ?? []);
  let counter = options.seed;
  const pick = <T>(list: readonly T[]): T => list[(counter++) % list.length] as T;

  function deref(schema: Json): Json {
    let cur = schema;
    for (let i = 0; cur && typeof cur.$ref === 'string'; i++) {
      if (i > 20 || !cur.$ref.startsWith('#/components/schemas/')) throw new Error(`cannot resolve ${cur.$ref}`);
      cur = doc.components.schemas[cur.$ref.slice('#/components/schemas/'.length)];
    }
    if (!cur) throw new Error(`dangling $ref in ${component}`);
    if (cur.allOf || cur.oneOf || cur.anyOf) throw new Error(`${component}: combinators are not handled by this generator`);
    return cur;
  }

  function walk(raw: Json, path: string, depth: number): unknown {
    if (depth > 30) throw new Error(`${component}: schema too deep at ${path}`);
    const s = deref(raw);
    const type = s.type ?? (s.properties ? 'object' : undefined);
    switch (type) {
      case 'object': {
        const out: Json = {};
        const props = s.properties ?? {};
        const required = new Set<string>(s.required ?? []);
        const names = Object.keys(props).filter((p) => required.has(p) || options.mode === 'full' || include.has(path ? `${path}.${p}` : p));
        for (const p of names) out[p] = walk(props[p], path ? `${path}.${p}` : p, depth + 1);
        for (const p of Object.keys(props)) {
          if (Object.keys(out).length >= (s.minProperties ?? 0)) break;
          if (!(p in out)) out[p] = walk(props[p], path ? `${path}.${p}` : p, depth + 1);
        }
        return out;
      }
      case 'array': {
        const min = s.minItems ?? 0;
        const max = s.maxItems ?? Infinity;
        const n = Math.min(max, Math.max(min, options.mode === 'full' ? 1 + (counter % 2) : 1));
        return Array.from({ length: n }, () => walk(s.items ?? {}, `${path}`, depth + 1));
      }
      case 'string':
        return stringValue(s, path);
      case 'integer':
        return Math.max(s.minimum ?? 1, 1);
      case 'number':
        return 1.25;
      case 'boolean':
        return pick([true, false]);
      default:
        throw new Error(`${component}: no type at ${path}: ${JSON.stringify(s).slice(0, 120)}`);
    }
  }

  function stringValue(s: Json, path: string): string {
    if (Array.isArray(s.enum)) return pick(s.enum as string[]);
    if (Array.isArray(s['x-namespaced-enum'])) return pick(s['x-namespaced-enum'] as string[]);
    if (s.format === 'date-time') return pick(DATE_TIMES);
    if (s.format === 'date') return '2026-11-22';
    if (s.format === 'uri') return `https://bank.example/open-banking/v3.1/${path.toLowerCase().replace(/\W+/g, '-')}`;
    const minLength = s.minLength ?? 0;
    const maxLength = s.maxLength ?? Infinity;
    if (typeof s.pattern === 'string') {
      const re = new RegExp(s.pattern, 'u');
      const value = PATTERN_CANDIDATES.find((c) => re.test(c) && c.length >= minLength && c.length <= maxLength);
      if (value === undefined) throw new Error(`${component}: no sample value for pattern ${s.pattern} at ${path}`);
      return value;
    }
    const base = `${path.split('.').pop() ?? 'x'}-${counter++}`;
    const value = base.length > maxLength ? base.slice(0, maxLength) : base;
    return value.length >= minLength ? value : value.padEnd(minLength, 'x');
  }

  return walk(doc.components.schemas[component] ?? (() => { throw new Error(`no component ${component}`); })(), '', 0) as Json;
}
