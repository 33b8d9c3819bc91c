import { readFile } from 'node:fs/promises';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import parseTags from '@cucumber/tag-expressions';
import { UsageError } from '../errors.ts';

export interface PlannedPickle {
  name: string;
  /** The feature's name and the `Rule:`'s (for a report of scenarios that never started). */
  feature?: string;
  rule?: string;
  tags: string[];
  steps: string[];
}

/** A feature file's text and the name it is known by. */
export interface FeatureSource {
  uri: string;
  data: string;
}

type TagFilter = ReturnType<typeof parseTags>;

/**
 * The user's `--tags` expression, parsed on its own so that an error quotes what the user typed
 * (not the expression the runner builds around it).
 */
export function parseUserTags(expression: string): TagFilter {
  try {
    return parseTags(expression);
  } catch (error) {
    const reason = ((error as Error).message ?? String(error)).split('\n')[0];
    throw new UsageError(`--tags "${expression}" is not a valid tag expression: ${reason}`, {
      hint: 'e.g. --tags "@ais and not @AIS-08"; tags start with @ and combine with and, or, not and parentheses',
    });
  }
}

/**
 * The scenarios a run will execute (the same Gherkin compiler and tag evaluation cucumber uses),
 * so that an empty selection is refused before anything starts and slow set-ups can start before
 * the first scenario needs them.
 */
export function planSources(sources: FeatureSource[], tagExpression: string): PlannedPickle[] {
  const filter = parseTags(tagExpression);
  const newId = IdGenerator.uuid();
  const out: PlannedPickle[] = [];
  for (const source of sources) {
    const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
    const doc = parser.parse(source.data);
    const rules = new Map<string, string>();
    for (const child of doc.feature?.children ?? []) for (const c of child.rule?.children ?? []) if (c.scenario) rules.set(c.scenario.id, child.rule!.name);
    for (const pickle of compile(doc, source.uri, newId)) {
      const tags = pickle.tags.map((t) => t.name);
      const rule = rules.get(pickle.astNodeIds[0] ?? '');
      if (filter.evaluate(tags)) out.push({ name: pickle.name, feature: doc.feature?.name, ...(rule ? { rule } : {}), tags, steps: pickle.steps.map((s) => s.text) });
    }
  }
  return out;
}

/** {@link planSources} over files on disk. */
export async function planPickles(files: string[], tagExpression: string): Promise<PlannedPickle[]> {
  const sources = await Promise.all(files.map(async (uri) => ({ uri, data: await readFile(uri, 'utf8') })));
  return planSources(sources, tagExpression);
}
