/**
 * The map from the official Functional Conformance Suite (FCS, v3.1 and v4.0) to obtpp's scenarios,
 * and the proof of what it claims. For each FCS test id: what the test asserts, read from the
 * suite's manifests and its assertion definitions (`assertions.json`) as *assertion kinds* (its
 * status set, the x-fapi-interaction-id and its echo, the Content-Type, the fields and error codes
 * of the body, its schema, the answer's signature, and what the request must leave out); and the
 * scenarios (one per Gherkin pickle: a scenario, or one Examples row) whose `@fcs:<id>` tag says
 * they make the test's call and judge all of it. Each judging step declares the kinds it judges
 * (step-definitions/support/define.ts); a scenario tagged `@fcs:` whose steps do not judge every
 * kind of its test is a mistake of the features (`overclaims`), and `@fcs-partial:<id>` lists
 * what such a scenario misses. An id the suite itself makes inapplicable (its `apiVersion` excludes
 * the standard's version, or its assertion contradicts the standard) is listed with the reason.
 * The suite's files are read where they lie (never copied into obtpp); the scenarios' tags and
 * steps from the feature files.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import { UsageError } from '../errors.ts';
import { ruleIdOf } from './rule-id.ts';
import { versionOf } from '../standards/registry.ts';
import { v3ErrorCodeOf, v3StatusOf } from '../dialects/obie/versions.ts';
import { KeptValues } from '../kept.ts';

/** The FCS versions obtpp maps, and the manifests of each (below the suite's `manifests/`), in the suite's order. */
export const FCS_MANIFESTS = {
  // Variable Recurring Payments are part of v3.1.11 (the VRP file), with a manifest of their own.
  '3.1': ['ob_3.1_accounts_transactions_fca.json', 'ob_3.1_cbpii_fca.json', 'ob_3.1_payment_fca.json', 'ob_3.1_variable_recurring_payments.json'],
  '4.0': ['ob_4.0_accounts_transactions_fca.json', 'ob_4.0_cbpii_fca.json', 'ob_4.0_payment_fca.json', 'ob_4.0_variable_recurring_payments.json'],
} as const;
export type FcsVersion = keyof typeof FCS_MANIFESTS;

/** The suite's assertion definitions (each `expect` a script's `asserts` names), beside the manifests. */
export const FCS_ASSERTIONS = 'assertions.json';

/** The version of the standard a version's suite is run against (its scripts' `apiVersion` predicates are read against it). */
export const FCS_API_VERSION: Readonly<Record<FcsVersion, string>> = { '3.1': '3.1.11', '4.0': '4.0.0' };

/** The published standard whose runs a version's map counts (a scenario tagged only for another does not run there). */
const STANDARD_OF: Readonly<Record<FcsVersion, string>> = { '3.1': '@uk-3.1', '4.0': '@uk-4.0' };

/** The FCS version a profile's standard is judged against, if any. */
export function fcsVersionOf(standard: string | undefined): FcsVersion | undefined {
  const version = versionOf(standard)?.fcsVersion;
  return version !== undefined && Object.hasOwn(FCS_MANIFESTS, version) ? (version as FcsVersion) : undefined;
}

/** A scenario covers an FCS test wholly with `@fcs:<id>`; `@fcs-partial:<id>` says it judges only part of it. */
const COVER_TAG = /^@fcs:(.+)$/;
const PARTIAL_TAG = /^@fcs-partial:(.+)$/;

/** Why an uncovered id has no scenario, when the suite does not make it inapplicable. */
export const NO_SCENARIO_YET = 'no scenario yet';

/**
 * FCS tests that the standard itself makes inapplicable to a conformant bank, with the reason (those
 * the suite runs only below the standard's version are found from their `apiVersion`).
 */
export const FCS_NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'OB-301-PRO-103403': 'it calls GET /product, a path the v3.1.11 account-information file does not define (its products are /products and /accounts/{AccountId}/product, whose x-fapi-interaction-id play-back OB-301-PRO-103300 and UKAIS-14 judge); a conformant bank answers 404 there, where the test expects 200 (the script marks the endpoint optional)',
  'OB-400-PRO-103403': 'it calls GET /product, a path the v4.0 account-information file does not define either (its products are /products and /accounts/{AccountId}/product, whose x-fapi-interaction-id play-back OB-400-PRO-103300 and UKAIS-14 judge); a conformant bank answers 404 there, where the test expects 200 (the script marks the endpoint optional)',
  'OB-301-DOP-1015002': 'its assertions contradict the standard: it expects 403 from reading a domestic standing order whose Initiation has neither NumberOfPayments nor FinalPaymentDateTime when the order carries "FinalPaymentAmount" — and the assertion it names (OB3GLOAssertFinalPaymentAmount) reads Data.Initiation.FirstPaymentAmount, which every standing order carries; so it demands 403 for every open-ended standing order, which a conformant bank reads with 200 (OB-301-DOP-101500 judges that read)',
  'OB-400-DOP-1015002': 'its assertions contradict the standard, as OB-301-DOP-1015002\'s: it expects 403 from reading every open-ended domestic standing order (its OB3GLOAssertFinalPaymentAmount reads Data.Initiation.FirstPaymentAmount, which every standing order carries), which a conformant bank reads with 200 (OB-400-DOP-101500 judges that read)',
};

/**
 * An assertion kind, the words a test's assertions and a step's declaration share:
 * - `status:<codes>`: the answer's status is one of these (`status:400|403`);
 * - `interaction-id`: an x-fapi-interaction-id comes back; `interaction-id-echo`: the one sent;
 * - `content-type`: a Content-Type comes back (the suite's OB3GLOAssertContentType);
 * - `field:<path>` present, `field:<path>=<value>` with that value (v3.1.11's words: `Data.Status=Authorised`),
 *   `no-field:<path>` absent; `error-code:<codes>`: the error body names one of these codes (v3.1.11's);
 * - `if(<kinds> & …) <kind>`: the last kind holds whenever all the others do (the suite's asserts_last_if_all);
 * - `schema`: the body is valid against the official schema of its status; `signature`: the
 *   answer's x-jws-signature verifies;
 * - `sent-without:<header>`: the request left the header out (the suite's removeHeaders);
 *   `jws-without:<claim>`: the request's x-jws-signature lacks the claim (removeSignatureClaims);
 *   `query:<k=v&…>`: the request's query (queryParameters).
 */
export type AssertionKind = string;

/** What a kind a step declares stands for beyond itself: the echo of the x-fapi-interaction-id is its presence too. */
const IMPLIES: Readonly<Record<string, readonly string[]>> = { 'interaction-id-echo': ['interaction-id'] };

interface Expect { 'status-code'?: number; matches?: Array<Record<string, string>> }

export interface FcsScript {
  id: string;
  description: string;
  method: string;
  uri: string;
  /** The manifest file it comes from. */
  manifest: string;
  /** Its place in the suite's order (the manifests in FCS_MANIFESTS's order, each in its own). */
  order: number;
  asserts: string[];
  assertsOneOf: string[];
  assertsLastIfAll: string[];
  schemaCheck: boolean;
  validateSignature: boolean;
  removeHeaders: string[];
  removeSignatureClaims: string[];
  queryParameters?: Record<string, string>;
  apiVersion?: string;
}

/** One scenario of the features (a Gherkin pickle: a scenario, or one row of an outline's Examples). */
export interface TaggedScenario {
  /** The feature file, relative to the package root (`features/obie/uk-funds.feature`). */
  feature: string;
  /** The pickle's name (an outline's with its row's values). */
  scenario: string;
  rule?: string;
  tags: string[];
  /** Its steps' texts, Background included. */
  steps: string[];
  /** Which of them are actions (When, and the And/But after one): the call a scenario judges is its last. */
  actions?: boolean[];
}

export interface FcsCover {
  feature: string;
  scenario: string;
  rule?: string;
  /** The kinds of the test its steps do not judge (only where some are missing). */
  missing?: string[];
}

export type FcsEntryStatus = 'covered' | 'partial' | 'not-applicable' | 'not-covered';

export interface FcsEntry {
  id: string;
  /** The FCS tests of that id (OB-301-CBPII-000009 names two), in the suite's order. */
  tests: Array<Pick<FcsScript, 'description' | 'method' | 'uri' | 'manifest'>>;
  /** What the id's tests assert, as kinds (every script's, each once). */
  asserts: string[];
  /** `@fcs:` scenarios that judge all of one of its tests. */
  covers: FcsCover[];
  /** `@fcs-partial:` scenarios, each with what it misses. */
  partial: FcsCover[];
  status: FcsEntryStatus;
  /** Not applicable, or not covered: why. */
  reason?: string;
}

export interface FcsMap {
  version: FcsVersion;
  /** Distinct ids, and the scripts the manifests hold (one id may name more than one). */
  ids: number;
  scripts: number;
  covered: number;
  partial: number;
  notApplicable: number;
  uncovered: number;
  /** In the suite's order. */
  entries: FcsEntry[];
  /** `@fcs:` tags naming an id that is in no manifest: a mistake of the features. */
  unknownTags: Array<{ tag: string; feature: string; scenario: string }>;
  /** `@fcs:` scenarios whose steps do not judge every assertion of the test they claim: a mistake of the features (tag them `@fcs-partial:`). */
  overclaims: Array<{ id: string; feature: string; scenario: string; missing: string[] }>;
  /** Tags on an id the suite makes inapplicable: a scenario cannot stand for a test no conformant bank passes. */
  inapplicableTags: Array<{ tag: string; feature: string; scenario: string }>;
  /** Steps of a tagged scenario that no step definition matches (what they judge cannot be known). */
  undefinedSteps: Array<{ feature: string; scenario: string; step: string }>;
  /** False when the step definitions could not be read (dist/ not built): what each scenario judges was not checked. */
  judgesChecked: boolean;
}

/**
 * Where the FCS files lie: `--manifests DIR`, else $OBTPP_FCS_DIR, else the shared reference beside
 * the package (`<package>/../shared/reference/obie-fcs`, as in a checkout next to its references).
 */
export function fcsDir(root: string, env: Record<string, string | undefined>, cwd: string, given?: string): string {
  if (given) return resolve(cwd, given);
  if (env.OBTPP_FCS_DIR) return resolve(cwd, env.OBTPP_FCS_DIR);
  return resolve(root, '..', 'shared', 'reference', 'obie-fcs');
}

const manifestsIn = (dir: string) => (existsSync(join(dir, 'manifests')) ? join(dir, 'manifests') : dir);

async function readJson(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the FCS ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      hint: 'point --manifests (or $OBTPP_FCS_DIR) at the FCS folder holding manifests/ob_3.1_*_fca.json and manifests/assertions.json',
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the FCS ${what} ${path} is not JSON: ${(error as Error).message}`);
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The scripts of one FCS version's manifests, read from the suite's folder (its `manifests/` or the folder itself), in the suite's order. */
export async function readFcsScripts(dir: string, version: FcsVersion = '3.1'): Promise<FcsScript[]> {
  const out: FcsScript[] = [];
  for (const file of FCS_MANIFESTS[version]) {
    const path = join(manifestsIn(dir), file);
    const scripts = ((await readJson(path, `${version} manifest`)) as { scripts?: unknown })?.scripts;
    if (!Array.isArray(scripts)) throw new UsageError(`the FCS manifest ${path} has no "scripts" list`);
    for (const s of scripts as Array<Record<string, unknown>>) {
      if (typeof s?.id !== 'string') throw new UsageError(`the FCS manifest ${path} has a script without an id`);
      const query = s.queryParameters && typeof s.queryParameters === 'object' ? Object.fromEntries(Object.entries(s.queryParameters as object).map(([k, v]) => [k, String(v)])) : undefined;
      out.push({
        id: s.id, description: String(s.description ?? ''), method: String(s.method ?? '').toUpperCase(), uri: String(s.uri ?? ''), manifest: file, order: out.length,
        asserts: strings(s.asserts), assertsOneOf: strings(s.asserts_one_of), assertsLastIfAll: strings(s.asserts_last_if_all),
        schemaCheck: s.schemaCheck === true, validateSignature: s.validateSignature === true,
        removeHeaders: strings(s.removeHeaders), removeSignatureClaims: strings(s.removeSignatureClaims),
        ...(query ? { queryParameters: query } : {}), ...(typeof s.apiVersion === 'string' ? { apiVersion: s.apiVersion } : {}),
      });
    }
  }
  return out;
}

/** The suite's assertion definitions, by name (`OB3GLOAssertOn200` → its expect). */
export async function readFcsAssertions(dir: string): Promise<Record<string, Expect>> {
  const path = join(manifestsIn(dir), FCS_ASSERTIONS);
  const refs = ((await readJson(path, 'assertion definitions')) as { references?: unknown })?.references;
  if (!refs || typeof refs !== 'object') throw new UsageError(`the FCS assertion definitions ${path} have no "references"`);
  return Object.fromEntries(Object.entries(refs as Record<string, { expect?: Expect }>).map(([k, v]) => [k, v?.expect ?? {}]));
}

const ERROR_CODE_JSON = /^Errors\.#\[ErrorCode="([^"]+)"\]\.ErrorCode$/;
const sortedSet = (xs: Iterable<string | number>) => [...new Set([...xs].map(String))].sort();

/** One match of an assertion as a kind, in v3.1.11's words (a v4.0 status or error code read as its v3.1.11 pair). */
function matchKind(m: Record<string, string>): { kind?: string; errorCode?: string } {
  const header = (m['header-present'] ?? '').toLowerCase();
  if (header === 'x-fapi-interaction-id') return { kind: 'interaction-id' };
  if (header === 'content-type') return { kind: 'content-type' };
  if (header) return { kind: `header:${header}` };
  if ((m.header ?? '').toLowerCase() === 'x-fapi-interaction-id') return { kind: 'interaction-id-echo' };
  if (m.header) return { kind: `header:${m.header.toLowerCase()}=${m.value ?? ''}` };
  const json = m.JSON ?? m.json;
  if (json && ERROR_CODE_JSON.test(json)) return { errorCode: v3ErrorCodeOf(m.Value ?? m.value ?? ERROR_CODE_JSON.exec(json)![1]!) };
  const value = m.Value ?? m.value;
  if (json && value !== undefined) return { kind: `field:${json}=${json === 'Data.Status' ? v3StatusOf(value) : value}` };
  if (json) return { kind: `field:${json}` };
  if (m['JSON-NOT-PRESENT']) return { kind: `no-field:${m['JSON-NOT-PRESENT']}` };
  return {};
}

function expectOf(assertions: Record<string, Expect>, name: string, script: FcsScript): Expect {
  const e = assertions[name];
  if (!e) throw new UsageError(`the FCS script ${script.id} (${script.manifest}) names the assertion ${name}, which ${FCS_ASSERTIONS} does not define`);
  return e;
}

/** The kinds of one expect (its status, its matches), and the error codes it names. */
function kindsOfExpect(e: Expect): { statuses: number[]; kinds: string[]; codes: string[] } {
  const kinds: string[] = [];
  const codes: string[] = [];
  for (const m of e.matches ?? []) {
    const k = matchKind(m);
    if (k.kind) kinds.push(k.kind);
    if (k.errorCode) codes.push(k.errorCode);
  }
  return { statuses: typeof e['status-code'] === 'number' ? [e['status-code']] : [], kinds, codes };
}

/** What one script asserts, as kinds (sorted, each once). */
export function assertionKinds(script: FcsScript, assertions: Record<string, Expect>): string[] {
  const kinds = new Set<string>();
  const statuses: number[] = [];
  const codes: string[] = [];
  // Every assertion of `asserts` holds; one of `asserts_one_of` does (its statuses and codes are alternatives).
  for (const name of [...script.asserts, ...script.assertsOneOf]) {
    const k = kindsOfExpect(expectOf(assertions, name, script));
    statuses.push(...k.statuses);
    codes.push(...k.codes);
    for (const x of k.kinds) kinds.add(x);
  }
  if (statuses.length) kinds.add(`status:${sortedSet(statuses).join('|')}`);
  if (codes.length) kinds.add(`error-code:${sortedSet(codes).join('|')}`);
  // asserts_last_if_all: the last holds whenever all the others do.
  if (script.assertsLastIfAll.length > 1) {
    const parts = script.assertsLastIfAll.map((name) => {
      const k = kindsOfExpect(expectOf(assertions, name, script));
      return [...k.statuses.map((s) => `status:${s}`), ...k.kinds, ...(k.codes.length ? [`error-code:${sortedSet(k.codes).join('|')}`] : [])].join(' & ');
    });
    kinds.add(`if(${parts.slice(0, -1).join(' & ')}) ${parts.at(-1)}`);
  }
  // A 204 has no body: a schema check there judges nothing.
  if (script.schemaCheck && !(statuses.length && statuses.every((s) => s === 204))) kinds.add('schema');
  if (script.validateSignature) kinds.add('signature');
  for (const h of script.removeHeaders) kinds.add(`sent-without:${h.toLowerCase()}`);
  for (const c of script.removeSignatureClaims) kinds.add(`jws-without:${c}`);
  if (script.queryParameters) kinds.add(`query:${Object.entries(script.queryParameters).map(([k, v]) => `${k}=${v}`).join('&')}`);
  return [...kinds].sort();
}

/** Whether a version satisfies one of the suite's apiVersion predicates (`<3.1.11`, `>=3.1.5`). */
export function satisfiesApiVersion(predicate: string, version: string): boolean {
  const m = /^\s*(>=|<=|>|<|==?)?\s*v?(\d+(?:\.\d+)*)\s*$/.exec(predicate);
  if (!m) return true;
  const a = version.split('.').map(Number);
  const b = m[2]!.split('.').map(Number);
  let cmp = 0;
  for (let i = 0; i < Math.max(a.length, b.length) && cmp === 0; i++) cmp = Math.sign((a[i] ?? 0) - (b[i] ?? 0));
  switch (m[1]) {
    case '>=': return cmp >= 0;
    case '<=': return cmp <= 0;
    case '>': return cmp > 0;
    case '<': return cmp < 0;
    default: return cmp === 0;
  }
}

/**
 * Every scenario of the package's feature files (all standards), one per pickle, with its inherited
 * tags, rule id and steps; `only` picks the files worth parsing by their text.
 */
export async function readScenarios(root: string, only: (text: string) => boolean = () => true): Promise<TaggedScenario[]> {
  const out: TaggedScenario[] = [];
  const base = join(root, 'features');
  for (const dir of (await readdir(base, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const file of (await readdir(join(base, dir))).filter((f) => f.endsWith('.feature')).sort()) {
      const feature = `features/${dir}/${file}`;
      const text = await readFile(join(base, dir, file), 'utf8');
      if (only(text)) out.push(...scenariosOf(feature, text));
    }
  }
  return out;
}

/** Feature texts parsed in this process, at most 256 (the package's features, every standard, stay well below; see scenariosOf). */
const parsedFeatures = new KeptValues<readonly TaggedScenario[]>(256);

/**
 * The scenarios of one feature file's text: its pickles, as cucumber makes them. Parsed once per
 * text in a process (a UK run maps its verdicts to the official tests at every end, and a process
 * may run many); the scenarios are frozen, shared by every caller.
 */
export function scenariosOf(feature: string, text: string): readonly TaggedScenario[] {
  return parsedFeatures.get(`${feature}\0${text}`, () => Object.freeze(parseScenarios(feature, text).map((sc) => Object.freeze({
    ...sc, tags: Object.freeze(sc.tags) as string[], steps: Object.freeze(sc.steps) as string[], actions: Object.freeze(sc.actions) as boolean[],
  }))));
}

function parseScenarios(feature: string, text: string): TaggedScenario[] {
  const newId = IdGenerator.uuid();
  const doc = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher()).parse(text);
  // An outline's row is named by its Examples block too, where the block has a name.
  const blocks = new Map<string, string>();
  type Scenario = { examples: ReadonlyArray<{ name: string; tableBody: ReadonlyArray<{ id: string }> }> };
  const note = (sc: Scenario | undefined) => sc?.examples.forEach((ex) => ex.tableBody.forEach((row) => ex.name && blocks.set(row.id, ex.name)));
  for (const child of doc.feature?.children ?? []) {
    note(child.scenario);
    for (const rc of child.rule?.children ?? []) note(rc.scenario);
  }
  return compile(doc, feature, newId).map((p) => {
    const tags = p.tags.map((t) => t.name);
    const rule = ruleIdOf(tags);
    const block = blocks.get(p.astNodeIds[1] ?? '');
    return { feature, scenario: block ? `${p.name} (${block})` : p.name, ...(rule ? { rule } : {}), tags, steps: p.steps.map((s) => s.text), actions: p.steps.map((s) => s.type === 'Action') };
  });
}

/** What a step's text judges, as its definition declares it (undefined: no definition matches the text). */
export type JudgesOf = (text: string) => string[] | undefined;

/**
 * The kinds each step judges, from the step definitions cucumber loads (their declared `judges`);
 * undefined when they cannot be loaded (dist/ not built).
 */
export async function stepJudges(root: string): Promise<JudgesOf | undefined> {
  const { stepDefinitionCoordinates, supportLibrary } = await import('./support-library.ts');
  if (!existsSync(join(root, 'dist', 'step-definitions'))) return undefined;
  let library: Awaited<ReturnType<typeof supportLibrary>>;
  try {
    library = await supportLibrary(stepDefinitionCoordinates(root), root);
  } catch {
    return undefined;
  }
  // The library's definitions, as cucumber keeps them (its API types the library opaque).
  type Definition = { expression: { match(text: string): Array<{ getValue(world: unknown): unknown }> | null }; options?: { wrapperOptions?: { judges?: unknown } } };
  const definitions = (library as unknown as { stepDefinitions: Definition[] }).stepDefinitions;
  const cache = new Map<string, string[] | undefined>();
  return (text) => {
    if (cache.has(text)) return cache.get(text);
    let out: string[] | undefined;
    for (const d of definitions) {
      const args = d.expression.match(text);
      if (!args) continue;
      const judges = d.options?.wrapperOptions?.judges;
      const values = args.map((a) => {
        const v = a.getValue(null);
        return v === undefined || v === null ? undefined : String(v);
      });
      out = typeof judges === 'function' ? [...(judges as (...a: Array<string | undefined>) => string[])(...values)] : Array.isArray(judges) ? [...judges] : [];
      break;
    }
    cache.set(text, out);
    return out;
  };
}

/**
 * The kinds a scenario judges of the call it makes for its test: its last action (When) step's own
 * (what the request leaves out, its query) and those of the steps after it (each once, implied kinds
 * added). A scenario that makes several calls judges only its last as the test's: what it judged of
 * the earlier ones counts for none.
 */
export function judgedBy(scenario: TaggedScenario, judgesOf: JudgesOf): Set<string> {
  const out = new Set<string>();
  const last = scenario.actions?.lastIndexOf(true) ?? -1;
  for (const text of scenario.steps.slice(Math.max(0, last))) {
    for (const k of judgesOf(text) ?? []) {
      out.add(k);
      for (const implied of IMPLIES[k] ?? []) out.add(implied);
    }
  }
  return out;
}

/** What buildFcsMap is given beside the scripts and scenarios. */
export interface FcsMapOptions { knownElsewhere?: ReadonlySet<string>; assertions?: Record<string, Expect>; judgesOf?: JudgesOf; partialOnly?: boolean }

/** An id of the suite's manifest: its entry, and per script of it the kinds it asserts and whether it applies to the version. */
type KnownId = { entry: FcsEntry; kinds: string[][]; applicable: boolean[] };

/** The map of one FCS version's scripts to the scenarios. */
export function buildFcsMap(scripts: FcsScript[], scenarios: TaggedScenario[], version: FcsVersion = '3.1', o: FcsMapOptions = {}): FcsMap {
  const byId = knownIds(scripts, version, o.assertions);
  const map: FcsMap = { version, ids: 0, scripts: scripts.length, covered: 0, partial: 0, notApplicable: 0, uncovered: 0, entries: [], unknownTags: [], overclaims: [], inapplicableTags: [], undefinedSteps: [], judgesChecked: !!o.judgesOf && !!o.assertions && !o.partialOnly };
  const reasonOf = (id: string, applicable: boolean[]) => FCS_NOT_APPLICABLE[id]
    ?? (applicable.every((a) => !a) ? `the suite runs it only where ${[...new Set(scripts.filter((s) => s.id === id).map((s) => `apiVersion ${s.apiVersion}`))].join(' or ')}: a bank at v${FCS_API_VERSION[version]} is not tested with it` : undefined);
  const judgedOf = new Map<FcsCover, Set<string>>();
  for (const sc of scenarios) {
    for (const tag of new Set(sc.tags)) {
      const m = COVER_TAG.exec(tag) ?? PARTIAL_TAG.exec(tag);
      if (!m) continue;
      const known = byId.get(m[1]!);
      // Another version's test belongs to that version's map (a v4.0 manifest reuses some v3.1 ids).
      if (!known && o.knownElsewhere?.has(m[1]!)) continue;
      // A scenario tagged for another standard only (@uk-3.1 in the v4.0 map) does not run in this version's layout.
      const standards = sc.tags.filter((t) => /^@uk-\d+\.\d+$/.test(t));
      if (known && standards.length && !standards.includes(STANDARD_OF[version])) continue;
      if (!known) {
        map.unknownTags.push({ tag, feature: sc.feature, scenario: sc.scenario });
        continue;
      }
      if (reasonOf(known.entry.id, known.applicable)) {
        map.inapplicableTags.push({ tag, feature: sc.feature, scenario: sc.scenario });
        continue;
      }
      placeCover(map, known, sc, tag, o, judgedOf);
    }
  }
  for (const { entry, kinds, applicable } of byId.values()) {
    settleEntry(entry, kinds, applicable, reasonOf(entry.id, applicable), map.judgesChecked ? judgedOf : undefined);
    map.entries.push(entry);
  }
  map.ids = map.entries.length;
  map.covered = map.entries.filter((e) => e.status === 'covered').length;
  map.partial = map.entries.filter((e) => e.status === 'partial').length;
  map.notApplicable = map.entries.filter((e) => e.status === 'not-applicable').length;
  map.uncovered = map.entries.filter((e) => e.status === 'not-covered').length;
  return map;
}

/** The manifest's ids in its order, each with its scripts (an id may have several). */
function knownIds(scripts: FcsScript[], version: FcsVersion, assertions: Record<string, Expect> | undefined): Map<string, KnownId> {
  const byId = new Map<string, KnownId>();
  for (const s of scripts) {
    const known = byId.get(s.id) ?? { entry: { id: s.id, tests: [], asserts: [], covers: [], partial: [], status: 'not-covered' as FcsEntryStatus }, kinds: [], applicable: [] };
    known.entry.tests.push({ description: s.description, method: s.method, uri: s.uri, manifest: s.manifest });
    known.kinds.push(assertions ? assertionKinds(s, assertions) : []);
    known.applicable.push(!s.apiVersion || satisfiesApiVersion(s.apiVersion, FCS_API_VERSION[version]));
    byId.set(s.id, known);
  }
  return byId;
}

/**
 * A scenario tagged with an applicable id: a cover (or a partial cover) of its entry, with what it
 * misses of the script it comes closest to when the judges are checked; a cover that misses
 * something is an overclaim, and a step no definition judges is listed.
 */
function placeCover(map: FcsMap, known: KnownId, sc: TaggedScenario, tag: string, o: FcsMapOptions, judgedOf: Map<FcsCover, Set<string>>): void {
  const cover: FcsCover = { feature: sc.feature, scenario: sc.scenario, ...(sc.rule ? { rule: sc.rule } : {}) };
  // A run's report needs only what a partial scenario misses (the map test checks every claim).
  const judgesOf = o.partialOnly && COVER_TAG.test(tag) ? undefined : o.judgesOf;
  for (const step of judgesOf ? sc.steps.filter((t) => judgesOf(t) === undefined) : []) {
    if (!map.undefinedSteps.some((u) => u.feature === sc.feature && u.scenario === sc.scenario && u.step === step)) map.undefinedSteps.push({ feature: sc.feature, scenario: sc.scenario, step });
  }
  if (judgesOf && o.assertions) {
    const judged = judgedBy(sc, judgesOf);
    judgedOf.set(cover, judged);
    // The script of the id this scenario comes closest to (an id with two scripts has a scenario for each).
    const missing = known.kinds.filter((_, i) => known.applicable[i]).map((kinds) => kinds.filter((k) => !judged.has(k)))
      .sort((a, b) => a.length - b.length)[0] ?? [];
    if (missing.length) cover.missing = missing;
  }
  if (COVER_TAG.test(tag)) {
    if (cover.missing) map.overclaims.push({ id: known.entry.id, feature: sc.feature, scenario: sc.scenario, missing: cover.missing });
    known.entry.covers.push(cover);
  } else known.entry.partial.push(cover);
}

/**
 * An entry's status: not applicable (with the reason), covered (a full cover, and, where the judges
 * are checked, each applicable script judged whole by one cover), partial, or not covered yet.
 */
function settleEntry(entry: FcsEntry, kinds: string[][], applicable: boolean[], reason: string | undefined, judgedOf: Map<FcsCover, Set<string>> | undefined): void {
  entry.asserts = sortedSet(kinds.flat());
  // Each applicable script of the id has a scenario that judges all of it.
  const scriptsCovered = !judgedOf || kinds.every((k, i) => !applicable[i] || entry.covers.some((c) => k.every((x) => judgedOf.get(c)?.has(x))));
  if (reason) {
    entry.status = 'not-applicable';
    entry.reason = reason;
  } else if (entry.covers.length && entry.covers.some((c) => !c.missing) && scriptsCovered) entry.status = 'covered';
  else if (entry.covers.length || entry.partial.length) entry.status = 'partial';
  else {
    entry.status = 'not-covered';
    entry.reason = NO_SCENARIO_YET;
  }
}

/** The map from the suite's folder, the package's features and its step definitions. */
export async function fcsMap(root: string, dir: string, version: FcsVersion = '3.1', o: { judges?: boolean | 'partial' } = {}): Promise<FcsMap> {
  // The ids of the other versions' manifests, where they lie: a tag naming one is theirs, not unknown.
  const elsewhere = new Set<string>();
  for (const other of Object.keys(FCS_MANIFESTS) as FcsVersion[]) {
    if (other === version) continue;
    for (const s of await readFcsScripts(dir, other).catch(() => [])) elsewhere.add(s.id);
  }
  // Read at once, but a failure is told in this order whichever comes first: a folder without the
  // manifests is the manifest's error, not the assertion definitions' (Promise.all would say the faster).
  const reading = {
    scripts: readFcsScripts(dir, version), assertions: readFcsAssertions(dir),
    // Only the features that tag an FCS test are parsed.
    scenarios: readScenarios(root, (text) => text.includes('@fcs')), judgesOf: o.judges === false ? undefined : stepJudges(root),
  };
  for (const work of Object.values(reading)) work?.catch(() => undefined);
  const scripts = await reading.scripts;
  const assertions = await reading.assertions;
  const scenarios = await reading.scenarios;
  const judgesOf = await reading.judgesOf;
  return buildFcsMap(scripts, scenarios, version, { knownElsewhere: elsewhere, assertions, ...(judgesOf ? { judgesOf } : {}), ...(o.judges === 'partial' ? { partialOnly: true } : {}) });
}

const where = (c: FcsCover) => `${c.feature}${c.rule ? ` ${c.rule}` : ''}: ${c.scenario}`;
const missingText = (c: FcsCover) => (c.missing?.length ? ` (does not judge ${c.missing.join(', ')})` : '');

/** The headline counts of a map, in words. */
export function fcsCounts(map: FcsMap): string {
  return `${map.ids} test ids (${map.scripts} scripts), ${map.covered} covered, ${map.partial} partly covered, ${map.notApplicable} not applicable, ${map.uncovered} not covered`;
}

/** The map for a terminal: one block per id, in the suite's order. */
export function renderFcsText(map: FcsMap): string {
  const lines = [`FCS v${map.version}: ${fcsCounts(map)}`];
  if (!map.judgesChecked) lines.push('(what each scenario judges was not checked: the step definitions in dist/ could not be loaded; run npm run build)');
  for (const e of map.entries) {
    lines.push(`${e.id}  ${e.tests.map((t) => `${t.method} ${t.uri}`).join(' | ')}`);
    lines.push(`  asserts ${e.asserts.join(', ') || '(nothing readable)'}`);
    for (const c of e.covers) lines.push(`  covered by ${where(c)}${missingText(c)}`);
    for (const c of e.partial) lines.push(`  partly by ${where(c)}${missingText(c)}`);
    if (e.status === 'not-applicable') lines.push(`  not applicable: ${e.reason}`);
    else if (e.status === 'not-covered') lines.push(`  not covered: ${e.reason}`);
  }
  for (const u of map.unknownTags) lines.push(`unknown FCS id: ${u.tag} on ${u.feature}: ${u.scenario}`);
  for (const u of map.inapplicableTags) lines.push(`tag on a test the suite makes inapplicable: ${u.tag} on ${u.feature}: ${u.scenario}`);
  for (const u of map.overclaims) lines.push(`@fcs:${u.id} claims too much: ${u.feature}: ${u.scenario} does not judge ${u.missing.join(', ')} (tag it @fcs-partial:)`);
  for (const u of map.undefinedSteps) lines.push(`no step definition: "${u.step}" in ${u.feature}: ${u.scenario}`);
  return lines.join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
const testsCell = (e: FcsEntry) => cell(e.tests.map((t) => `${t.method} ${t.uri}: ${t.description}`).join('; '));
const kindsCell = (kinds: string[]) => cell(kinds.map((k) => `\`${k}\``).join(' '));

/** The map as the docs page (docs/fcs-3.1.md): generated, never edited by hand. */
export function renderFcsMarkdown(map: FcsMap): string {
  const of = (status: FcsEntryStatus) => map.entries.filter((e) => e.status === status);
  const out = [
    `# FCS v${map.version} → obtpp scenarios`,
    '',
    `Generated by \`node scripts/fcs-map.ts${map.version === '3.1' ? '' : ` ${map.version}`} > docs/fcs-${map.version}.md\` (the same map as \`obtpp rules --fcs ${map.version}\`)`,
    `from the official Functional Conformance Suite manifests (${FCS_MANIFESTS[map.version].join(', ')}), its`,
    `assertion definitions (${FCS_ASSERTIONS}), the features' \`@fcs:<id>\` tags and what each step declares it judges.`,
    'Do not edit: `test/conformance/fcs-map.test.ts` fails when it differs from the generated map.',
    '',
    'A scenario (or one Examples row) carries `@fcs:<id>` when it makes the FCS test\'s call with the same',
    'permissions, token and inputs and its steps judge every assertion of that test, read from the suite\'s',
    'files as assertion kinds (see [docs/fcs.md](fcs.md)); `@fcs-partial:<id>` when it judges only part of',
    'it (listed with what it misses). The map test fails when an `@fcs:` scenario does not judge all of its',
    'test. Ids in the suite\'s order.',
    '',
    `**${map.ids} test ids** (${map.scripts} scripts: an id may name more than one): **${map.covered} covered**, **${map.partial} partly covered**, **${map.notApplicable} not applicable**, **${map.uncovered} not covered**.`,
    '',
    '## Covered',
    '',
    '| FCS id | FCS test | asserts | obtpp scenario (feature, rule) |',
    '|---|---|---|---|',
    ...of('covered').map((e) => `| ${e.id} | ${testsCell(e)} | ${kindsCell(e.asserts)} | ${cell(e.covers.map(where).join('; '))} |`),
    '',
    '## Partly covered',
    '',
    '| FCS id | FCS test | asserts | obtpp scenario | does not judge |',
    '|---|---|---|---|---|',
    ...of('partial').map((e) => `| ${e.id} | ${testsCell(e)} | ${kindsCell(e.asserts)} | ${cell([...e.covers, ...e.partial].map(where).join('; '))} | ${kindsCell([...new Set([...e.covers, ...e.partial].flatMap((c) => c.missing ?? []))])} |`),
    '',
    '## Not applicable',
    '',
    '| FCS id | FCS test | why |',
    '|---|---|---|',
    ...of('not-applicable').map((e) => `| ${e.id} | ${testsCell(e)} | ${cell(e.reason ?? '')} |`),
    '',
    '## Not covered',
    '',
    '| FCS id | FCS test | why |',
    '|---|---|---|',
    ...of('not-covered').map((e) => `| ${e.id} | ${testsCell(e)} | ${cell(e.reason ?? '')} |`),
    '',
  ];
  return out.join('\n');
}
