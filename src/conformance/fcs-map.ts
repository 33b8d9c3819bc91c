/**
 * The map from the official Functional Conformance Suite (FCS) v3.1 to obtpp's scenarios: each FCS
 * test id → the scenarios whose `@fcs:<id>` tags say they make the same call (same permissions,
 * token and inputs) and judge at least every assertion of that test, and the ids no scenario
 * covers, with the reason. The FCS manifests are read at run time from where the suite's files
 * lie (never copied into obtpp); the scenarios' tags are read from the feature files.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AstBuilder, GherkinClassicTokenMatcher, Parser } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import { UsageError } from '../errors.ts';
import { ruleIdOf } from './rule-id.ts';

/** The FCS versions obtpp maps, and the manifests of each (below the suite's `manifests/`). */
export const FCS_MANIFESTS = {
  // Variable Recurring Payments are part of v3.1.11 (the VRP file), with a manifest of their own.
  '3.1': ['ob_3.1_accounts_transactions_fca.json', 'ob_3.1_cbpii_fca.json', 'ob_3.1_payment_fca.json', 'ob_3.1_variable_recurring_payments.json'],
  '4.0': ['ob_4.0_accounts_transactions_fca.json', 'ob_4.0_cbpii_fca.json', 'ob_4.0_payment_fca.json', 'ob_4.0_variable_recurring_payments.json'],
} as const;

/** The published standard whose runs a version's map counts (a scenario tagged only for another does not run there). */
const STANDARD_OF: Readonly<Record<keyof typeof FCS_MANIFESTS, string>> = { '3.1': '@uk-3.1', '4.0': '@uk-4.0' };
export type FcsVersion = keyof typeof FCS_MANIFESTS;

/** A scenario covers an FCS test wholly with `@fcs:<id>`; `@fcs-partial:<id>` says it judges only part of it. */
const COVER_TAG = /^@fcs:(.+)$/;
const PARTIAL_TAG = /^@fcs-partial:(.+)$/;

/** Why an uncovered id has no scenario, when the standard does not make it inapplicable. */
export const NO_SCENARIO_YET = 'no scenario yet';

/**
 * FCS tests that UK Read/Write v3.1.11 itself makes inapplicable to a bank, with the reason: every
 * other v3.1 script's apiVersion admits v3.1.11 and every endpoint it calls is in v3.1.11.
 */
export const FCS_NOT_APPLICABLE: Readonly<Record<string, string>> = {
  'OB-301-PRO-103403': 'it calls GET /product, a path the v3.1.11 account-information file does not define (its products are /products and /accounts/{AccountId}/product, whose x-fapi-interaction-id play-back OB-301-PRO-103300 and UKAIS-14 judge); a conformant bank answers 404 there, where the test expects 200 (the script marks the endpoint optional)',
  'OB-400-PRO-103403': 'it calls GET /product, a path the v4.0 account-information file does not define either (its products are /products and /accounts/{AccountId}/product, whose x-fapi-interaction-id play-back OB-400-PRO-103300 and UKAIS-14 judge); a conformant bank answers 404 there, where the test expects 200 (the script marks the endpoint optional)',
};

export interface FcsScript {
  id: string;
  description: string;
  method: string;
  uri: string;
  /** The manifest file it comes from. */
  manifest: string;
}

/** One scenario of the features, with what the map needs of it. */
export interface TaggedScenario {
  /** The feature file, relative to the package root (`features/obie/uk-funds.feature`). */
  feature: string;
  scenario: string;
  rule?: string;
  tags: string[];
}

export interface FcsCover {
  feature: string;
  scenario: string;
  rule?: string;
}

export interface FcsEntry {
  id: string;
  /** The FCS tests of that id (OB-301-CBPII-000009 names two). */
  tests: Array<Pick<FcsScript, 'description' | 'method' | 'uri' | 'manifest'>>;
  covers: FcsCover[];
  partial: FcsCover[];
  /** Only when nothing covers it: why. */
  reason?: string;
}

export interface FcsMap {
  version: FcsVersion;
  /** Distinct ids, and the scripts the manifests hold (one id may name more than one). */
  ids: number;
  scripts: number;
  covered: number;
  uncovered: number;
  entries: FcsEntry[];
  /** `@fcs:` tags naming an id that is in no manifest: a mistake of the features. */
  unknownTags: Array<{ tag: string; feature: string; scenario: string }>;
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

/** The scripts of one FCS version's manifests, read from the suite's folder (its `manifests/` or the folder itself). */
export async function readFcsScripts(dir: string, version: FcsVersion = '3.1'): Promise<FcsScript[]> {
  const manifests = existsSync(join(dir, 'manifests')) ? join(dir, 'manifests') : dir;
  const out: FcsScript[] = [];
  for (const file of FCS_MANIFESTS[version]) {
    const path = join(manifests, file);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read the FCS ${version} manifest ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
        hint: 'point --manifests (or $OBTPP_FCS_DIR) at the FCS folder holding manifests/ob_3.1_*_fca.json',
      });
    }
    let scripts: unknown;
    try {
      scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    } catch (error) {
      throw new UsageError(`the FCS manifest ${path} is not JSON: ${(error as Error).message}`);
    }
    if (!Array.isArray(scripts)) throw new UsageError(`the FCS manifest ${path} has no "scripts" list`);
    for (const s of scripts as Array<Record<string, unknown>>) {
      if (typeof s?.id !== 'string') throw new UsageError(`the FCS manifest ${path} has a script without an id`);
      out.push({ id: s.id, description: String(s.description ?? ''), method: String(s.method ?? '').toUpperCase(), uri: String(s.uri ?? ''), manifest: file });
    }
  }
  return out;
}

/** Every scenario of the package's feature files (all standards), with its inherited tags and rule id. */
export async function readScenarios(root: string): Promise<TaggedScenario[]> {
  const out: TaggedScenario[] = [];
  const base = join(root, 'features');
  for (const dir of (await readdir(base, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const file of (await readdir(join(base, dir))).filter((f) => f.endsWith('.feature')).sort()) {
      const feature = `features/${dir}/${file}`;
      out.push(...scenariosOf(feature, await readFile(join(base, dir, file), 'utf8')));
    }
  }
  return out;
}

/** The scenarios of one feature file's text. */
export function scenariosOf(feature: string, text: string): TaggedScenario[] {
  const doc = new Parser(new AstBuilder(IdGenerator.uuid()), new GherkinClassicTokenMatcher()).parse(text);
  const out: TaggedScenario[] = [];
  const names = (tags: readonly { name: string }[]) => tags.map((t) => t.name);
  type Examples = { name: string; tags: readonly { name: string }[] };
  // An outline is one entry per Examples block: a tag on a block covers only its rows.
  const add = (scenario: { name: string; tags: readonly { name: string }[]; examples: readonly Examples[] }, inherited: string[]) => {
    const blocks: Array<Examples | undefined> = scenario.examples.length ? [...scenario.examples] : [undefined];
    for (const block of blocks) {
      const tags = [...inherited, ...names(scenario.tags), ...names(block?.tags ?? [])];
      const rule = ruleIdOf(tags);
      out.push({ feature, scenario: block?.name ? `${scenario.name} (${block.name})` : scenario.name, ...(rule ? { rule } : {}), tags });
    }
  };
  const featureTags = names(doc.feature?.tags ?? []);
  for (const child of doc.feature?.children ?? []) {
    if (child.scenario) add(child.scenario, featureTags);
    for (const rc of child.rule?.children ?? []) if (rc.scenario) add(rc.scenario, [...featureTags, ...names(child.rule!.tags)]);
  }
  return out;
}

/** The map of one FCS version's scripts to the scenarios. */
export function buildFcsMap(scripts: FcsScript[], scenarios: TaggedScenario[], version: FcsVersion = '3.1', knownElsewhere?: ReadonlySet<string>): FcsMap {
  const byId = new Map<string, FcsEntry>();
  for (const s of scripts) {
    const entry = byId.get(s.id) ?? { id: s.id, tests: [], covers: [], partial: [] };
    entry.tests.push({ description: s.description, method: s.method, uri: s.uri, manifest: s.manifest });
    byId.set(s.id, entry);
  }
  const unknownTags: FcsMap['unknownTags'] = [];
  for (const sc of scenarios) {
    for (const tag of new Set(sc.tags)) {
      const m = COVER_TAG.exec(tag) ?? PARTIAL_TAG.exec(tag);
      if (!m) continue;
      const entry = byId.get(m[1]);
      // Another version's test belongs to that version's map (a v4.0 manifest reuses some v3.1 ids).
      if (!entry && knownElsewhere?.has(m[1]!)) continue;
      // A scenario tagged for another standard only (@uk-3.1 in the v4.0 map) does not run in this version's layout.
      const standards = sc.tags.filter((t) => /^@uk-\d+\.\d+$/.test(t));
      if (entry && standards.length && !standards.includes(STANDARD_OF[version])) continue;
      if (!entry) {
        unknownTags.push({ tag, feature: sc.feature, scenario: sc.scenario });
        continue;
      }
      const cover = { feature: sc.feature, scenario: sc.scenario, ...(sc.rule ? { rule: sc.rule } : {}) };
      (COVER_TAG.test(tag) ? entry.covers : entry.partial).push(cover);
    }
  }
  const entries = [...byId.values()].sort((a, b) => a.id.localeCompare(b.id));
  for (const e of entries) if (e.covers.length === 0) e.reason = FCS_NOT_APPLICABLE[e.id] ?? NO_SCENARIO_YET;
  const covered = entries.filter((e) => e.covers.length > 0).length;
  return { version, ids: entries.length, scripts: scripts.length, covered, uncovered: entries.length - covered, entries, unknownTags };
}

/** The map from the suite's folder and the package's features. */
export async function fcsMap(root: string, dir: string, version: FcsVersion = '3.1'): Promise<FcsMap> {
  // The ids of the other versions' manifests, where they lie: a tag naming one is theirs, not unknown.
  const elsewhere = new Set<string>();
  for (const other of Object.keys(FCS_MANIFESTS) as FcsVersion[]) {
    if (other === version) continue;
    for (const s of await readFcsScripts(dir, other).catch(() => [])) elsewhere.add(s.id);
  }
  return buildFcsMap(await readFcsScripts(dir, version), await readScenarios(root), version, elsewhere);
}

const where = (c: FcsCover) => `${c.feature}${c.rule ? ` ${c.rule}` : ''}: ${c.scenario}`;

/** The map for a terminal: one block per id. */
export function renderFcsText(map: FcsMap): string {
  const lines = [`FCS v${map.version}: ${map.ids} test ids (${map.scripts} scripts), ${map.covered} covered, ${map.uncovered} not covered`];
  for (const e of map.entries) {
    lines.push(`${e.id}  ${e.tests.map((t) => `${t.method} ${t.uri}`).join(' | ')}`);
    for (const c of e.covers) lines.push(`  covered by ${where(c)}`);
    for (const c of e.partial) lines.push(`  partly by ${where(c)}`);
    if (e.reason) lines.push(`  not covered: ${e.reason}`);
  }
  for (const u of map.unknownTags) lines.push(`unknown FCS id: ${u.tag} on ${u.feature}: ${u.scenario}`);
  return lines.join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** The map as the docs page (docs/fcs-3.1.md): generated, never edited by hand. */
export function renderFcsMarkdown(map: FcsMap): string {
  const covered = map.entries.filter((e) => e.covers.length > 0);
  const uncovered = map.entries.filter((e) => e.covers.length === 0);
  const out = [
    `# FCS v${map.version} → obtpp scenarios`,
    '',
    `Generated by \`node scripts/fcs-map.ts > docs/fcs-${map.version}.md\` (the same map as \`obtpp rules --fcs ${map.version}\`)`,
    `from the official Functional Conformance Suite manifests (${FCS_MANIFESTS[map.version].join(', ')}) and the`,
    "features' `@fcs:<id>` tags. Do not edit: `test/conformance/fcs-map.test.ts` fails when it differs from the",
    'generated map.',
    '',
    'A scenario carries `@fcs:<id>` when it makes the FCS test\'s call with the same permissions, token and',
    'inputs and judges at least every assertion of that test; `@fcs-partial:<id>` when it judges only part',
    'of it (listed, but not a cover).',
    '',
    `**${map.ids} test ids** (${map.scripts} scripts: an id may name more than one), **${map.covered} covered**, **${map.uncovered} not covered**.`,
    '',
    '## Covered',
    '',
    '| FCS id | FCS test | obtpp scenarios (feature, rule) |',
    '|---|---|---|',
    ...covered.map((e) => `| ${e.id} | ${cell(e.tests.map((t) => `${t.method} ${t.uri}: ${t.description}`).join('; '))} | ${cell(e.covers.map(where).join('; '))} |`),
    '',
    '## Not covered',
    '',
    '| FCS id | FCS test | why | partly judged by |',
    '|---|---|---|---|',
    ...uncovered.map((e) => `| ${e.id} | ${cell(e.tests.map((t) => `${t.method} ${t.uri}: ${t.description}`).join('; '))} | ${cell(e.reason ?? '')} | ${cell(e.partial.map(where).join('; '))} |`),
    '',
  ];
  return out.join('\n');
}
