/**
 * A bank's published discovery document, in the shape of the UK conformance suite's discovery
 * templates (`discoveryModel.discoveryItems[]`: per API and version, the `apiSpecification`, its
 * `resourceBaseUri` and the `endpoints` it serves as method + path), read in place of a profile's
 * `implements`: each API's base URL and the operations the bank offers. The endpoints are matched
 * against the UK catalogue's own paths, so every operation the catalogue gains is recognised; an
 * endpoint obtpp does not know is a note, not an error.
 */
import { OBIE_OPERATIONS } from '../../dialects/obie/catalogue.ts';
import { fillPath } from '../../dialects/operation-spec.ts';
import type { Fn, OperationName, ProfilePaths } from '../../profile/types.ts';

/** The UK APIs by the name the standard gives its specifications, and by their path segment. */
const API_NAMES: ReadonlyArray<[RegExp, Fn]> = [
  [/account\s+and\s+transaction|\baisp?\b/i, 'ais'],
  [/confirmation\s+of\s+funds|\bcbpii\b/i, 'cof'],
  [/payment\s+initiation|\bpisp?\b/i, 'pis'],
];
const API_SEGMENTS: Readonly<Record<string, Fn>> = { aisp: 'ais', cbpii: 'cof', pisp: 'pis' };

/** Which versions of a discovery item obtpp judges: UK Read/Write v3.1.x (standard uk-3.1). */
const V31 = /^v?3\.1(\.\d+)?$/i;

export interface Discovered {
  /** Each API's base URL, where the document gives one (`resourceBaseUri`). */
  apis: Partial<Record<Fn, string>>;
  /** The APIs the document lists (with or without a base URL). */
  listed: Fn[];
  /** The catalogue's operations the listed endpoints name. */
  operations: OperationName[];
  /** What the document holds that obtpp does not use, one line each. */
  notes: string[];
  /** What makes the document unusable, one line each (the profile is refused). */
  problems: string[];
}

/** A path with its parameters blanked (`/accounts/{AccountId}/party` → `/accounts/{}/party`), for matching. */
const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '').toLowerCase();

/**
 * The UK layout's operations by API, method and path shape: every operation of the obie catalogue
 * that UK Read/Write v3.1.11 has (variant A's rules, the standard's layout), at the profile's paths.
 */
function ukOperations(paths: ProfilePaths): Map<string, OperationName[]> {
  const out = new Map<string, OperationName[]>();
  for (const [id, spec] of Object.entries(OBIE_OPERATIONS) as Array<[OperationName, (typeof OBIE_OPERATIONS)[keyof typeof OBIE_OPERATIONS]]>) {
    const standards = (spec as { standards?: readonly string[] }).standards;
    if (!(spec.variants as readonly string[]).includes('A') || (standards && !standards.includes('uk-3.1'))) continue;
    let path: string;
    try {
      path = fillPath(spec.path, paths, Object.fromEntries(spec.ids.map((name) => [name, '{}'])), () => '{}');
    } catch {
      continue;
    }
    const key = `${spec.api} ${spec.method} ${shape(path)}`;
    out.set(key, [...(out.get(key) ?? []), id]);
  }
  return out;
}

/** Reads a discovery document (already parsed JSON); `where` names it in messages. */
export function fromDiscovery(doc: unknown, paths: ProfilePaths, where: string): Discovered {
  const result: Discovered = { apis: {}, listed: [], operations: [], notes: [], problems: [] };
  const items = (doc as { discoveryModel?: { discoveryItems?: unknown } } | undefined)?.discoveryModel?.discoveryItems;
  if (!Array.isArray(items)) {
    result.problems.push(`${where}: not a discovery document: expected discoveryModel.discoveryItems, a list of the APIs the bank serves`);
    return result;
  }
  const known = ukOperations(paths);
  const offered = new Set<OperationName>();
  items.forEach((raw, i) => {
    const item = raw as { apiSpecification?: { name?: unknown; version?: unknown }; resourceBaseUri?: unknown; endpoints?: unknown };
    const at = `${where}: discoveryItems[${i}]`;
    const name = typeof item?.apiSpecification?.name === 'string' ? item.apiSpecification.name : '';
    const version = typeof item?.apiSpecification?.version === 'string' ? item.apiSpecification.version : '';
    const base = typeof item?.resourceBaseUri === 'string' ? item.resourceBaseUri.trim().replace(/\/+$/, '') : '';
    const segment = /\/([a-z]+)$/i.exec(base)?.[1]?.toLowerCase();
    const fn = API_NAMES.find(([re]) => re.test(name))?.[1] ?? (segment ? API_SEGMENTS[segment] : undefined);
    if (!fn) {
      result.notes.push(`${at} (${name || 'no apiSpecification.name'}): not an API obtpp judges (account and transaction, confirmation of funds, payment initiation); left out`);
      return;
    }
    if (!V31.test(version)) {
      result.notes.push(`${at} (${name} ${version || 'with no version'}): obtpp judges UK Read/Write v3.1.x; left out`);
      return;
    }
    if (result.listed.includes(fn)) {
      result.problems.push(`${at}: a second ${name} v3.1 item; a document lists each API once`);
      return;
    }
    if (base && !/^https?:\/\/[^\s]+$/.test(base)) {
      result.problems.push(`${at}.resourceBaseUri: ${JSON.stringify(base)} is not an http(s) URL`);
      return;
    }
    result.listed.push(fn);
    if (base) result.apis[fn] = base;
    if (!Array.isArray(item.endpoints) || item.endpoints.length === 0) {
      result.problems.push(`${at}.endpoints: the endpoints the bank serves for ${name} are required (a list of { method, path })`);
      return;
    }
    item.endpoints.forEach((e: { method?: unknown; path?: unknown }, j: number) => {
      if (typeof e?.method !== 'string' || typeof e?.path !== 'string' || !e.path.startsWith('/')) {
        result.problems.push(`${at}.endpoints[${j}]: expected { "method": "GET", "path": "/accounts" }`);
        return;
      }
      const ops = known.get(`${fn} ${e.method.toUpperCase()} ${shape(e.path)}`);
      if (ops) ops.forEach((op) => offered.add(op));
      else result.notes.push(`${at}: ${e.method.toUpperCase()} ${e.path} is not an operation obtpp knows of ${name}; not judged`);
    });
  });
  if (result.listed.length === 0 && result.problems.length === 0) result.problems.push(`${where}: lists no UK Read/Write v3.1 API obtpp judges`);
  result.operations = [...offered].sort();
  return result;
}
