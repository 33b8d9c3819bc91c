/**
 * What a run judges: every feature file instantiated per variant, and the scenarios its tags select
 * (the variants', the standard's, the published version's and the user's). The features of the
 * base standard are the spec's own rules: every run lists them, so that a rule another standard has
 * no scenario of is reported not applicable, with the reason.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import type { Variant } from '../profile/types.ts';
import { baseStandard, standardOf, versionNames } from '../standards/registry.ts';
import type { FeatureSource } from './plan.ts';

/** A standard's feature folder (absolute, or below the package root). */
export function featureDir(root: string, dialect: string): string {
  return resolve(root, standardOf(dialect).features);
}

/**
 * Every feature file instantiated per variant: tagged @variant-X, its name saying which. A run of
 * another standard also instantiates the base standard's features (none of their scenarios is
 * selected), so that the rules with no scenario of its own are reported not-applicable, with the
 * reason. In the reports the base standard's files keep their plain names; another standard's are
 * prefixed with its folder's name.
 */
export async function instantiateFeatures(root: string, variants: Variant[], dialect: string = baseStandard().name): Promise<Array<FeatureSource & { variant: Variant; file: string }>> {
  const list = async (dir: string, prefix: string) => (await readdir(dir)).filter((f) => f.endsWith('.feature')).sort()
    .map((f) => ({ path: join(dir, f), file: prefix + f }));
  const base = baseStandard().name;
  const own = featureDir(root, dialect);
  const files = [
    ...(await list(featureDir(root, base), '')),
    ...(dialect === base ? [] : await list(own, `${basename(own)}-`)),
  ];
  const texts = await Promise.all(files.map((f) => readFile(f.path, 'utf8')));
  return variants.flatMap((v) => files.map(({ file }, i) => ({
    variant: v,
    file,
    uri: `features/${v}/${file}`,
    data: `@variant-${v}\n` + texts[i]!.replace(/^(\s*Feature:\s*)(.*)$/m, `$1$2 (variant ${v})`),
  })));
}

/**
 * The tag expression of the run and the scenarios it selects. Nothing selected is a usage error
 * that names the filter which matched nothing.
 */
export async function select(sources: Array<FeatureSource & { variant: Variant }>, variants: Variant[], userTags: string | undefined, what: string, dialect: string = baseStandard().name, standard?: string) {
  const { parseUserTags, planSources } = await import('./plan.ts');
  const expression = userTags?.trim() ? userTags.trim() : undefined;
  if (expression) parseUserTags(expression);
  // A run of another standard than the base one selects only its dialect's scenarios (a base run has no other feature files).
  const variantTags = variants.map((v) => `(@${v} and @variant-${v})`).join(' or ');
  const base = baseStandard().name;
  const dialectTag = dialect === base ? '' : ` and @dialect-${dialect}`;
  // Scenarios of a published version's operations (tagged with the versions that have them) run
  // only when the profile serves one of those versions.
  const published = versionNames();
  const anyStandard = published.map((s) => `@${s}`).join(' or ');
  const layoutTag = !published.length ? '' : standard ? ` and not ((${anyStandard}) and not @${standard})` : ` and not (${anyStandard})`;
  const selected = dialectTag || layoutTag ? `(${variantTags})${dialectTag}${layoutTag}` : variantTags;
  const tags = expression ? `(${selected}) and (${expression})` : selected;
  const mine = sources.filter((s) => variants.includes(s.variant));
  const planned = planSources(mine, tags);
  if (planned.length) return { tags, planned };

  const names = variants.length > 1 ? `variants ${variants.join(' and ')}` : `variant ${variants[0]}`;
  if (!expression) throw new UsageError(`${what} selects no scenario: the features have none for ${names}`);
  // The scenarios asked for are of a published standard the run does not judge (VRP in the spec's layout).
  const standards = published.filter((s) => s !== standard && planSources(mine, `(${variantTags})${dialectTag} and @${s} and (${expression})`).length);
  if (standards.length) {
    throw new UsageError(`--tags "${expression}" selects only scenarios of ${standards.map((s) => `@${s}`).join(' and ')}, which the run does not judge (${standard ? `it judges ${standard}` : "it judges the spec's layout"})`, {
      hint: `pass --standard ${standards[0]} (or a profile with standard: ${standards[0]})`,
    });
  }
  const elsewhere = planSources(sources, `((@A and @variant-A) or (@B and @variant-B))${dialectTag}${layoutTag} and (${expression})`);
  if (elsewhere.length) {
    const other = [...new Set(elsewhere.map((p) => (p.tags.includes('@variant-B') ? 'B' : 'A')))].join(' and ');
    throw new UsageError(`--tags "${expression}" selects no scenario of ${names} (it selects ${elsewhere.length} of variant ${other})`, {
      hint: `choose --variant ${other.split(' ')[0]} or other tags`,
    });
  }
  if (dialectTag && planSources(sources, `(${variantTags}) and (${expression})`).length) {
    throw new UsageError(`--tags "${expression}" selects no scenario of the ${dialect} dialect (only ${base} ones)`, { hint: 'docs/rules.md says which rules each dialect has' });
  }
  throw new UsageError(`--tags "${expression}" matches no scenario`, {
    hint: 'the tags are @ais, @cof, @pis, @security, @dcr, @A, @B and one per rule, e.g. @AIS-01',
  });
}

/**
 * Whether a feature file can count in a run of `standard` (undefined: the spec's layout): a
 * Feature tagged with published versions (`@uk-3.1 @uk-4.0`) counts only in a run of one of them.
 */
export function servesStandard(text: string, standard: string | undefined): boolean {
  const head = text.slice(0, text.search(/^\s*Feature:/m));
  const named = versionNames().filter((s) => new RegExp(`(^|\\s)@${s.replace('.', '\\.')}(?=\\s|$)`, 'm').test(head));
  return !named.length || (standard !== undefined && named.includes(standard));
}
