/**
 * Where each step's arguments start and end, for cucumber-expressions, from the engine itself.
 *
 * cucumber-expressions asks the package `regexp-match-indices` for every step match's group
 * positions. That package is a polyfill from before JavaScript had match indices, and it takes its
 * slow path on every engine: it parses each step definition's regular expression with regexp-tree,
 * rewrites it, and runs the rewritten one again for each match. In a `--standard uk-3.1` run that was
 * about 0.7 s of CPU (bench/profile.ts). Node has the `d` flag (hasIndices) natively, and this module
 * answers the same call with it: `useNativeMatchIndices()` points cucumber-expressions' import of
 * the package here (a module resolve hook, for that importer only). The answer is the same: the
 * match, with `indices` holding each group's [start, end] (undefined for a group that took no part).
 */
import { registerHooks } from 'node:module';

/** Each step definition's regular expression, recompiled once with the `d` flag. */
const withIndices = new WeakMap<RegExp, RegExp>();

/** `regexp.exec(text)` with the match's `indices`, as regexp-match-indices' default export answers. */
export default function execWithIndices(regexp: RegExp, text: string): RegExpExecArray | null {
  if (regexp.hasIndices) return regexp.exec(text);
  let measured = withIndices.get(regexp);
  if (!measured) withIndices.set(regexp, (measured = new RegExp(regexp.source, `${regexp.flags}d`)));
  // lastIndex matters only for a global or sticky expression; it is carried both ways as exec would move it.
  measured.lastIndex = regexp.lastIndex;
  const match = measured.exec(text);
  regexp.lastIndex = measured.lastIndex;
  return match;
}

let registered = false;

/**
 * From now on, cucumber-expressions loaded in this thread gets {@link execWithIndices} for
 * `regexp-match-indices`. Call it before cucumber is first imported; later calls do nothing.
 */
export function useNativeMatchIndices(): void {
  if (registered) return;
  registered = true;
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === 'regexp-match-indices' && context.parentURL?.includes('/@cucumber/cucumber-expressions/')) {
        return { url: import.meta.url, shortCircuit: true };
      }
      return nextResolve(specifier, context);
    },
  });
}
