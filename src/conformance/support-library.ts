/**
 * The step definitions as cucumber loads them, once per process and place. They are ES modules:
 * a module runs once, so a second load of the same files would register no step at all. The runner
 * (its runs) and the FCS map (which reads what each judging step declares it judges) share this one
 * library.
 */
import { join } from 'node:path';
import type { ISupportCodeLibrary } from '@cucumber/cucumber/api';
import { KeptPromises } from '../kept.ts';

/** Where cucumber finds the step definitions and what it loads with them (cucumber's own shape). */
export interface SupportCoordinates {
  requireModules?: string[];
  requirePaths?: string[];
  importPaths?: string[];
  loaders?: string[];
}

const libraries = new KeptPromises<string, ISupportCodeLibrary>();

/** The package's compiled step definitions (they also work when obtpp runs from node_modules). */
export function stepDefinitionCoordinates(root: string): SupportCoordinates {
  return { requireModules: [], requirePaths: [], importPaths: [join(root, 'dist', 'step-definitions', '**', '*.js').split('\\').join('/')], loaders: [] };
}

/** The library of these coordinates: loaded the first time it is asked for, then the same one. */
export function supportLibrary(support: SupportCoordinates, cwd: string): Promise<ISupportCodeLibrary> {
  const full = { requireModules: support.requireModules ?? [], requirePaths: support.requirePaths ?? [], importPaths: support.importPaths ?? [], loaders: support.loaders ?? [] };
  const key = JSON.stringify(full);
  // A load that failed is tried again by the next caller (a build may have been missing).
  return libraries.get(key, async () => {
    // Before cucumber loads: step matches take their argument positions from the engine (match-indices.ts).
    (await import('./match-indices.ts')).useNativeMatchIndices();
    const { loadSupport } = await import('@cucumber/cucumber/api');
    return loadSupport({ sources: { paths: [], defaultDialect: 'en', names: [], tagExpression: '', order: 'defined', shard: '' } as never, support: full }, { cwd });
  });
}
