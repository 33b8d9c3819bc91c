/**
 * The OFFICIAL NextGenPSD2 XS2A 1.3.12 OpenAPI file as a referee, read at test time from
 * ../shared/reference/berlin-group (nothing of it is stored in the project). Its OpenAPI 3.0
 * quirks are mended for ajv on the fly (boolean exclusiveMinimum, nullable, `\\-` outside a character class); vendor keywords
 * and examples are ignored (strict off).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { parse } from 'yaml';
import type { BgSchemaName } from '../../src/dialects/berlin-group/index.ts';

const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;
type Json = Record<string, any>;

export const BG_OFFICIAL_FILE = fileURLToPath(new URL('../../../shared/reference/berlin-group/psd2-api_v1.3.12-2022-07-06.yaml', import.meta.url));
export const bgOfficialPresent = existsSync(BG_OFFICIAL_FILE);
export const bgSkip = bgOfficialPresent ? false : `official NextGenPSD2 file not found at ${BG_OFFICIAL_FILE}`;

let doc: Json | undefined;
export function bgDoc(): Json {
  doc ??= parsedOnce(BG_OFFICIAL_FILE);
  return doc;
}

/**
 * The file's YAML as JSON, parsed once for every test process: kept in node_modules/.cache, named
 * after the file's size and modification time, and read back as JSON (a YAML parse of the file
 * costs about 0.3 s of CPU, in each of the many test files that judge by it). A cache that cannot
 * be written is only slower.
 */
function parsedOnce(file: string): Json {
  const { size, mtimeMs } = statSync(file);
  const cached = fileURLToPath(new URL(`../../node_modules/.cache/obtpp-test-official/${basename(file)}.${size}-${Math.trunc(mtimeMs)}.json`, import.meta.url));
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as Json;
  } catch {
    const parsed = parse(readFileSync(file, 'utf8')) as Json;
    try {
      mkdirSync(dirname(cached), { recursive: true });
      // Written whole under another name, then renamed: a reader never sees half a file.
      const partial = `${cached}.${process.pid}`;
      writeFileSync(partial, JSON.stringify(parsed));
      renameSync(partial, cached);
    } catch {
      // Not cached: the next process parses the YAML again.
    }
    return parsed;
  }
}

/** OpenAPI 3.0 → what ajv (draft-07) reads: boolean exclusiveMinimum/Maximum, nullable. */
function mend(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(mend);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if ((k === 'exclusiveMinimum' || k === 'exclusiveMaximum') && typeof v === 'boolean') continue;
    if (k === 'nullable' || k === 'example' || k === 'examples' || k === 'discriminator' || k === 'xml') continue;
    // `\-` outside a character class (cardAcceptorPhone) is a syntax error in a unicode RegExp, as ajv compiles them.
    if (k === 'pattern' && typeof v === 'string') {
      out[k] = unicodePattern(v);
      continue;
    }
    out[k] = mend(v);
  }
  return out;
}

/** The file's pattern as a unicode RegExp accepts it: `\\-` outside a character class is a plain `-` (same meaning). */
export function unicodePattern(pattern: string): string {
  return pattern.replace(/\\-(?![^[]*\])/g, '-');
}

/** A response or request schema of an operation, `$ref`s kept (they resolve inside the referee). */
function operationSchema(path: string, method: string, status: string | 'request'): Json {
  const op = bgDoc().paths[path][method];
  const resolve = (x: Json): Json => {
    let cur = x;
    while (cur?.$ref) cur = cur.$ref.split('/').slice(1).reduce((o: Json, k: string) => o[k], bgDoc());
    return cur;
  };
  const holder = status === 'request' ? resolve(op.requestBody) : resolve(op.responses[status]);
  return holder.content['application/json'].schema;
}

/** Our schema name → the official schema it answers to. */
export function officialSchemaFor(name: BgSchemaName): Json {
  switch (name) {
    case 'accountDetailsResponse': return operationSchema('/v1/accounts/{account-id}', 'get', '200');
    case 'cardAccountDetailsResponse': return operationSchema('/v1/card-accounts/{account-id}', 'get', '200');
    case 'transactionDetailsResponse': return operationSchema('/v1/accounts/{account-id}/transactions/{transactionId}', 'get', '200');
    case 'fundsConfirmationResponse200': return operationSchema('/v1/funds-confirmations', 'post', '200');
    case 'Error_NG': return { $ref: '#/components/schemas/Error400_NG_AIS' };
    case 'Error_problem': return { $ref: '#/components/schemas/Error400_AIS' };
    default: return { $ref: `#/components/schemas/${name}` };
  }
}

let ajv: Ajv | undefined;
const fns = new Map<string, ValidateFunction>();

/** The official file's schema for one of ours (or any `$ref`/inline schema), compiled by ajv. */
export function officialValidator(target: BgSchemaName | Json): ValidateFunction {
  const key = typeof target === 'string' ? target : JSON.stringify(target);
  let fn = fns.get(key);
  if (!fn) {
    if (!ajv) {
      ajv = new Ajv({ allErrors: true, strict: false });
      addFormats(ajv);
      ajv.addSchema({ $id: 'https://obtpp.test/bg.json', components: mend(bgDoc().components) });
    }
    const schema = typeof target === 'string' ? officialSchemaFor(target) : target;
    fn = ajv.compile({ $id: `https://obtpp.test/bg-${fns.size}.json`, ...(mend(rebase(schema)) as Json) });
    fns.set(key, fn);
  }
  return fn;
}

/** `#/components/…` refs of an inline schema, pointed at the registered file. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `https://obtpp.test/bg.json${v}` : rebase(v);
  return out;
}

/** The official validator's errors, one line each (for assertion messages). */
export function officialErrors(fn: ValidateFunction): string {
  return (fn.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ');
}

/** Resolves `$ref`s of the official file, and a single-member `allOf` (chosenScaMethod), for structural comparisons. */
export function deref(s: Json | undefined): Json | undefined {
  let cur = s;
  while (cur && (typeof cur.$ref === 'string' || cur.allOf?.length === 1)) {
    cur = typeof cur.$ref === 'string' ? bgDoc().components.schemas[cur.$ref.split('/').pop() as string] : cur.allOf[0];
  }
  return cur;
}
