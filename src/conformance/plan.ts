import { readFile } from 'node:fs/promises';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import parseTags from '@cucumber/tag-expressions';

export interface PlannedPickle {
  name: string;
  tags: string[];
  steps: string[];
}

/**
 * The scenarios a run will execute (the same Gherkin compiler and tag evaluation cucumber uses),
 * so that slow set-ups can start before the first scenario needs them.
 */
export async function planPickles(files: string[], tagExpression: string): Promise<PlannedPickle[]> {
  const filter = parseTags(tagExpression);
  const newId = IdGenerator.uuid();
  const out: PlannedPickle[] = [];
  for (const file of files) {
    const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
    const doc = parser.parse(await readFile(file, 'utf8'));
    for (const pickle of compile(doc, file, newId)) {
      const tags = pickle.tags.map((t) => t.name);
      if (filter.evaluate(tags)) out.push({ name: pickle.name, tags, steps: pickle.steps.map((s) => s.text) });
    }
  }
  return out;
}
