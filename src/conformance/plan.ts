import { readFile } from 'node:fs/promises';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator, type GherkinDocument } from '@cucumber/messages';
import parseTags from '@cucumber/tag-expressions';
import { UsageError } from '../errors.ts';
import { KeptValues } from '../kept.ts';

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
  return sources.flatMap((source) => compiled(source).filter((p) => filter.evaluate(p.tags)));
}

/** One feature text, parsed: its Gherkin document (as cucumber's message names it) and every scenario. */
interface ParsedSource {
  document: GherkinDocument;
  pickles: PlannedPickle[];
}

/** Feature texts parsed once per text in a process: at most 256 texts (a process that plans runs of every standard and variant stays well below). */
const parsedSources = new KeptValues<ParsedSource>(256);

/**
 * One feature text, parsed: a process that plans many runs (a library caller, the test suite's
 * warm workers) parses each text once; a new text past the bound drops the oldest.
 */
function parsed(source: FeatureSource): ParsedSource {
  return parsedSources.get(`${source.uri}\0${source.data}`, () => parseSource(source));
}

/** Every scenario of one feature text (before any tag filter). */
function compiled(source: FeatureSource): PlannedPickle[] {
  return parsed(source).pickles;
}

function parseSource(source: FeatureSource): ParsedSource {
  // Ids as cucumber's own: unique across the documents a run's reports hold.
  const newId = IdGenerator.uuid();
  const doc = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher()).parse(source.data);
  const rules = new Map<string, string>();
  for (const child of doc.feature?.children ?? []) for (const c of child.rule?.children ?? []) if (c.scenario) rules.set(c.scenario.id, child.rule!.name);
  const pickles = compile(doc, source.uri, newId).map((pickle) => {
    const rule = rules.get(pickle.astNodeIds[0] ?? '');
    // Shared by every plan of this text: frozen, so that no caller changes another's.
    return Object.freeze({ name: pickle.name, feature: doc.feature?.name, ...(rule ? { rule } : {}), tags: Object.freeze(pickle.tags.map((t) => t.name)) as string[], steps: Object.freeze(pickle.steps.map((s) => s.text)) as string[] });
  });
  return { document: Object.freeze({ ...doc, uri: source.uri }), pickles };
}

/**
 * The sources a tag expression selects at least one scenario of, and the others: cucumber gets
 * only the first (it parses and compiles every file it is given, at every run), the reports the
 * others' documents too (every rule of a variant is listed, in scope or not).
 */
export function splitSources<T extends FeatureSource>(sources: T[], tagExpression: string): { selected: T[]; others: T[] } {
  const filter = parseTags(tagExpression);
  const selected: T[] = [];
  const others: T[] = [];
  for (const source of sources) (compiled(source).some((p) => filter.evaluate(p.tags)) ? selected : others).push(source);
  return { selected, others };
}

/** A feature text's Gherkin document, as cucumber's `gherkinDocument` message holds it (parsed once per text in a process). */
export function gherkinDocumentOf(source: FeatureSource): GherkinDocument {
  return parsed(source).document;
}

/** {@link planSources} over files on disk. */
export async function planPickles(files: string[], tagExpression: string): Promise<PlannedPickle[]> {
  const sources = await Promise.all(files.map(async (uri) => ({ uri, data: await readFile(uri, 'utf8') })));
  return planSources(sources, tagExpression);
}
