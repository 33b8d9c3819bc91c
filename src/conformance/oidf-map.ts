/**
 * The map from the OpenID Foundation's FAPI test plans (the authorisation-server plans:
 * fapi1-advanced-final-test-plan; fapi2-security-profile-final-test-plan and
 * fapi2-message-signing-final-test-plan) to obtpp's scenarios. Each module of a plan is covered by
 * the scenarios (a scenario, or one Examples row) whose `@oidf:<module>` tag names it, or does not
 * apply to the banks obtpp judges, with the reason (an ecosystem's own module: Brazil, Australia's
 * CDR and ConnectID, Saudi Arabia; FAPI Grant Management, which the profiles do not offer). Within a
 * plan, a module may apply to a variant only (pushed requests, DPoP, Message Signing,
 * private_key_jwt): the map says where, and the scenario itself is not applicable elsewhere, with
 * the reason. The plans are read where they lie (never copied into obtpp); the scenarios' tags from
 * the feature files.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import type { TaggedScenario } from './fcs-map.ts';
import { readScenarios } from './fcs-map.ts';

/** The plans obtpp maps, by the name `obtpp rules --oidf` takes, and the file of each. */
export const OIDF_PLANS = {
  'fapi1-advanced': 'fapi1-advanced-final-test-plan.tsv',
  fapi2: 'fapi2-final-test-plans.tsv',
} as const;
export type OidfPlan = keyof typeof OIDF_PLANS;

/** The suite's plan names behind each. */
export const OIDF_PLAN_NAMES: Readonly<Record<OidfPlan, string>> = {
  'fapi1-advanced': 'fapi1-advanced-final-test-plan',
  fapi2: 'fapi2-security-profile-final-test-plan and fapi2-message-signing-final-test-plan',
};

/** A scenario covers a module with `@oidf:<module>` (and carries `@oidf`, so that `--tags @oidf` selects it). */
const COVER_TAG = /^@oidf:(.+)$/;

/**
 * Modules for one ecosystem, or a feature the banks obtpp judges do not offer: not applicable,
 * with the reason. The first pattern a module's name matches gives its reason.
 */
export const OIDF_NOT_APPLICABLE: ReadonlyArray<readonly [RegExp, string]> = [
  [/-brazil-/, 'Open Finance Brasil only: it judges what Brazil\'s profile adds (encrypted ID tokens, its payment consents\' signatures), which neither UK Open Banking nor the plain FAPI profiles ask of a bank'],
  [/-cdr-/, 'Australia\'s Consumer Data Right only: sharing durations and arrangement ids are CDR\'s own authorisation parameters, which no other profile has'],
  [/-australia-connect-id-/, 'ConnectID (Australia) only: its own request-object lifetimes (exp within 10 minutes, nbf within 15), its purpose parameter and its identity claims'],
  [/-ksa-/, 'Saudi Arabia\'s open banking (KSA) only: its own request-object lifetimes (exp and nbf within 10 minutes), stricter than FAPI\'s 60 minutes, which SEC-17 judges'],
  [/-grant-management-/, 'FAPI Grant Management: a bank offers it only by its own choice (grant_management_actions_supported), UK Open Banking and the plain FAPI 2.0 profiles do not ask for it, and obtpp does not speak it; its modules judge no bank obtpp judges'],
];

/** Where, within its plan, a module applies (the variant that runs it); absent: wherever the plan does. */
export function appliesWhere(plan: OidfPlan, m: Pick<OidfModule, 'name' | 'group' | 'plans'>): string | undefined {
  if (plan === 'fapi1-advanced' && (m.group === 'par' || m.group === 'pkce')) return 'where the bank takes pushed requests (PAR): not in the UK variant, which sends request objects by value';
  if (m.group === 'private-key-jwt') return 'where the client authenticates with private_key_jwt (not mTLS)';
  if (m.group === 'openbanking-uk') return 'UK Open Banking (the consent bound through openbanking_intent_id)';
  if (m.group === 'dpop' || /-dpop-/.test(m.name)) return 'where tokens are DPoP-bound';
  if (m.plans === 'ms') return 'FAPI 2.0 Message Signing only';
  return undefined;
}

export interface OidfModule {
  /** The module's name (the suite's testName, as the plan file gives it). */
  name: string;
  /** The group the plan's comments put it in. */
  group: string;
  /** fapi2: `sp+ms` in both plans, `ms` only in the message-signing plan. */
  plans?: 'sp+ms' | 'ms';
  /** Its place in the plan file. */
  order: number;
}

export interface OidfCover {
  feature: string;
  scenario: string;
  rule?: string;
}

export type OidfStatus = 'covered' | 'not-applicable' | 'not-covered';

export interface OidfEntry {
  module: string;
  group: string;
  plans?: 'sp+ms' | 'ms';
  status: OidfStatus;
  /** The scenarios tagged with it. */
  covers: OidfCover[];
  /** The rules of those scenarios, each once. */
  rules: string[];
  /** Within the plan, where it applies (covered modules), when not everywhere. */
  applies?: string;
  /** Not applicable, or not covered: why. */
  reason?: string;
}

export interface OidfMap {
  plan: OidfPlan;
  modules: number;
  covered: number;
  notApplicable: number;
  uncovered: number;
  /** In the plan file's order. */
  entries: OidfEntry[];
  /** `@oidf:` tags naming a module of neither plan: a mistake of the features. */
  unknownTags: Array<{ tag: string; feature: string; scenario: string }>;
  /** Tags on a module the map makes inapplicable: a scenario cannot stand for a module no bank of obtpp's runs. */
  inapplicableTags: Array<{ tag: string; feature: string; scenario: string }>;
  /** `@oidf:` scenarios without the `@oidf` tag itself (`--tags @oidf` would not select them). */
  unselectable: Array<{ feature: string; scenario: string }>;
}

/**
 * Where the plans lie: `given` (`--plans DIR`), else $OBTPP_OIDF_DIR, else the shared reference
 * beside the package (`<package>/../shared/reference/oidf`).
 */
export function oidfDir(root: string, env: Record<string, string | undefined>, cwd: string, given?: string): string {
  if (given) return resolve(cwd, given);
  if (env.OBTPP_OIDF_DIR) return resolve(cwd, env.OBTPP_OIDF_DIR);
  return resolve(root, '..', 'shared', 'reference', 'oidf');
}

/** The modules of one plan file, in its order: one per line (`module<TAB>group[<TAB>plans]`), `#` lines are comments. */
export async function readOidfModules(dir: string, plan: OidfPlan): Promise<OidfModule[]> {
  const path = join(dir, OIDF_PLANS[plan]);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the OIDF plan ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      hint: `point --plans (or $OBTPP_OIDF_DIR) at the folder holding ${Object.values(OIDF_PLANS).join(' and ')}`,
    });
  }
  const out: OidfModule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [name, group, plans] = line.split('\t').map((c) => c.trim());
    if (!name || !group) throw new UsageError(`the OIDF plan ${path} has a line that is not module<TAB>group: ${JSON.stringify(line.slice(0, 80))}`);
    out.push({ name, group, ...(plans === 'sp+ms' || plans === 'ms' ? { plans } : {}), order: out.length });
  }
  return out;
}

/** The map of one plan from its modules and the features' scenarios; `knownElsewhere`: the other plan's modules (a tag naming one is theirs). */
export function buildOidfMap(modules: OidfModule[], scenarios: TaggedScenario[], plan: OidfPlan, knownElsewhere: ReadonlySet<string> = new Set()): OidfMap {
  const names = new Set(modules.map((m) => m.name));
  const covers = new Map<string, OidfCover[]>();
  const unknownTags: OidfMap['unknownTags'] = [];
  const unselectable: OidfMap['unselectable'] = [];
  for (const s of scenarios) {
    const tagged = s.tags.map((t) => COVER_TAG.exec(t)?.[1]).filter((m): m is string => m !== undefined);
    if (!tagged.length) continue;
    if (!s.tags.includes('@oidf')) unselectable.push({ feature: s.feature, scenario: s.scenario });
    for (const m of tagged) {
      if (names.has(m)) covers.set(m, [...(covers.get(m) ?? []), { feature: s.feature, scenario: s.scenario, ...(s.rule ? { rule: s.rule } : {}) }]);
      else if (!knownElsewhere.has(m)) unknownTags.push({ tag: `@oidf:${m}`, feature: s.feature, scenario: s.scenario });
    }
  }
  const inapplicableTags: OidfMap['inapplicableTags'] = [];
  const entries = modules.map((m): OidfEntry => {
    const c = covers.get(m.name) ?? [];
    const na = OIDF_NOT_APPLICABLE.find(([pattern]) => pattern.test(m.name))?.[1];
    const base = { module: m.name, group: m.group, ...(m.plans ? { plans: m.plans } : {}), covers: c, rules: [...new Set(c.map((x) => x.rule).filter((r): r is string => !!r))].sort() };
    if (na) {
      for (const x of c) inapplicableTags.push({ tag: `@oidf:${m.name}`, feature: x.feature, scenario: x.scenario });
      return { ...base, status: 'not-applicable', reason: na };
    }
    if (!c.length) return { ...base, status: 'not-covered', reason: 'no scenario carries its tag, and no reason makes it inapplicable' };
    const applies = appliesWhere(plan, m);
    return { ...base, status: 'covered', ...(applies ? { applies } : {}) };
  });
  return {
    plan,
    modules: entries.length,
    covered: entries.filter((e) => e.status === 'covered').length,
    notApplicable: entries.filter((e) => e.status === 'not-applicable').length,
    uncovered: entries.filter((e) => e.status === 'not-covered').length,
    entries, unknownTags, inapplicableTags, unselectable,
  };
}

/** The map of one plan, from the plans' folder and the package's features. */
export async function oidfMap(root: string, dir: string, plan: OidfPlan): Promise<OidfMap> {
  const other = (Object.keys(OIDF_PLANS) as OidfPlan[]).filter((p) => p !== plan);
  const elsewhere = new Set((await Promise.all(other.map((p) => readOidfModules(dir, p).catch(() => [])))).flat().map((m) => m.name));
  const [modules, scenarios] = await Promise.all([readOidfModules(dir, plan), readScenarios(root, (text) => text.includes('@oidf:'))]);
  return buildOidfMap(modules, scenarios, plan, elsewhere);
}

/** The headline counts of a map, in words. */
export function oidfCounts(map: OidfMap): string {
  return `${map.modules} modules, ${map.covered} covered, ${map.notApplicable} not applicable, ${map.uncovered} not covered`;
}

const where = (c: OidfCover) => `${c.feature}${c.rule ? ` ${c.rule}` : ''}: ${c.scenario}`;

/** The map for a terminal: one block per module, in the plan's order. */
export function renderOidfText(map: OidfMap): string {
  const lines = [`OIDF ${OIDF_PLAN_NAMES[map.plan]}: ${oidfCounts(map)}`];
  for (const e of map.entries) {
    lines.push(`${e.module}  (${e.group}${e.plans ? `, ${e.plans}` : ''})`);
    if (e.applies) lines.push(`  applies ${e.applies}`);
    for (const c of e.covers) lines.push(`  covered by ${where(c)}`);
    if (e.status === 'not-applicable') lines.push(`  not applicable: ${e.reason}`);
    else if (e.status === 'not-covered') lines.push(`  not covered: ${e.reason}`);
  }
  for (const u of map.unknownTags) lines.push(`unknown OIDF module: ${u.tag} on ${u.feature}: ${u.scenario}`);
  for (const u of map.inapplicableTags) lines.push(`tag on a module not applicable: ${u.tag} on ${u.feature}: ${u.scenario}`);
  for (const u of map.unselectable) lines.push(`@oidf: scenario without the @oidf tag: ${u.feature}: ${u.scenario}`);
  return lines.join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

/** Both plans' maps as the docs page (docs/oidf.md): generated, never edited by hand. */
export function renderOidfMarkdown(maps: OidfMap[]): string {
  const out = [
    '# The OpenID Foundation\'s FAPI test plans → obtpp scenarios',
    '',
    'Generated by `node scripts/oidf-map.ts > docs/oidf.md` (the same maps as `obtpp rules --oidf fapi1-advanced` and',
    '`obtpp rules --oidf fapi2`) from the plans module by module (`../shared/reference/oidf/`, read where they lie) and the',
    'features\' `@oidf:<module>` tags. Do not edit: `test/conformance/oidf-map.test.ts` fails when it differs from the',
    'generated maps, and when a module of either plan has neither a scenario nor a reason.',
    '',
    'A scenario (or one Examples row) carries `@oidf:<module>` when it makes the request the module makes and judges what',
    'the module judges: the well-behaved request succeeds and its token works, or the broken one is refused where the',
    'module expects it, with an error the module expects (an error page, a 4xx without an OAuth error, stands for the',
    'module\'s "error shown to the user"). Every such scenario also carries `@oidf`: `obtpp conform --tags @oidf` runs them',
    'all. A scenario whose footing the bank\'s security profile does not give (DPoP where tokens are bound by mTLS, PAR in',
    'the UK variant) is not applicable there, with the reason; "applies" says where, within the plan, a module runs. The',
    'rules are in [rules.md](rules.md) (SEC-16 … SEC-24, and the scenarios of SEC-01, SEC-04, SEC-11, SEC-13 and SEC-15 the',
    'modules share), the security profiles in [security.md](security.md).',
    '',
  ];
  for (const map of maps) {
    const of = (status: OidfStatus) => map.entries.filter((e) => e.status === status);
    out.push(
      `## ${OIDF_PLAN_NAMES[map.plan]} (\`--oidf ${map.plan}\`)`,
      '',
      `**${map.modules} modules**: **${map.covered} covered**, **${map.notApplicable} not applicable**, **${map.uncovered} not covered**.`,
      '',
      '### Covered',
      '',
      `| module | group${map.plan === 'fapi2' ? ' (plans)' : ''} | applies | obtpp scenarios (feature, rule) |`,
      '|---|---|---|---|',
      ...of('covered').map((e) => `| ${e.module} | ${e.group}${e.plans ? ` (${e.plans})` : ''} | ${cell(e.applies ?? 'wherever the plan runs')} | ${cell(e.covers.map(where).join('; '))} |`),
      '',
      '### Not applicable',
      '',
      '| module | group | why |',
      '|---|---|---|',
      ...of('not-applicable').map((e) => `| ${e.module} | ${e.group} | ${cell(e.reason ?? '')} |`),
      '',
      '### Not covered',
      '',
      '| module | group | why |',
      '|---|---|---|',
      ...of('not-covered').map((e) => `| ${e.module} | ${e.group} | ${cell(e.reason ?? '')} |`),
      '',
    );
  }
  return out.join('\n');
}
