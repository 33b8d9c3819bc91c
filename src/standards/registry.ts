/**
 * The standards obtpp speaks, each registered once. The shared code asks this module — which
 * standards there are, which one a profile's `dialect` names, which published versions there are —
 * and never spells a standard's name. A standard's module (standard.ts says what it is) lives in
 * its folder here; it points into its folders of the other rooms (dialect, sandbox, features,
 * steps, terminal) and loads what is heavy only when asked.
 */
import type { StandardModule, VersionModule } from './standard.ts';
import { obie } from './obie/index.ts';
import { berlinGroup } from './berlin-group/index.ts';

export type { StandardModule, VersionModule } from './standard.ts';

/**
 * Every standard of the package, one line each. The first is the spec's own layout: the dialect
 * of a profile that names none, whose features every run lists.
 */
export const BUILT_IN = [
  obie,
  berlinGroup,
] as const;

/** The name of a standard of the package (a profile's `dialect`). */
export type DialectName = (typeof BUILT_IN)[number]['name'];

const registered: StandardModule[] = [...BUILT_IN];
/** Bumped by each registration: what was computed from the registry knows when to compute again. */
let generation = 0;

/**
 * Registers one more standard (a plug-in's, or a test's toy): from now on the runner, the CLI and
 * the profile loader accept it as they accept the package's own. Its name must be new.
 */
export function registerStandard(standard: StandardModule): void {
  if (registered.some((s) => s.name === standard.name)) throw new Error(`a standard named ${standard.name} is registered already`);
  registered.push(standard);
  generation++;
}

/** How many registrations the registry has seen beyond the package's own (0: only the built-in ones). */
export function registryGeneration(): number {
  return generation;
}

/** Every registered standard, the base one first. */
export function standards(): readonly StandardModule[] {
  return registered;
}

/** The standard of the spec's own layout: the default dialect. */
export function baseStandard(): StandardModule {
  return registered[0]!;
}

/** The registered standard of that name, or undefined. */
export function findStandard(name: string | undefined): StandardModule | undefined {
  return name === undefined ? undefined : registered.find((s) => s.name === name);
}

/** The registered standard of that name (a profile's dialect: checked at load); the base one for none. */
export function standardOf(name: string | undefined): StandardModule {
  if (name === undefined) return baseStandard();
  const found = findStandard(name);
  if (!found) throw new RangeError(`no standard named ${JSON.stringify(name)} is registered (${dialectNames().join(', ')})`);
  return found;
}

/** The names of the registered standards, in order. */
export function dialectNames(): string[] {
  return registered.map((s) => s.name);
}

/** Every published version of every standard (of those given; default the registered ones), with its standard. */
export function versions(of: readonly StandardModule[] = registered): Array<VersionModule & { standard: StandardModule }> {
  return of.flatMap((standard) => standard.versions.map((v) => ({ ...v, standard })));
}

/** The names of every published version (what `standard:` and `--standard` accept). */
export function versionNames(of: readonly StandardModule[] = registered): string[] {
  return versions(of).map((v) => v.name);
}

/** A published version by name, with its standard; undefined for none. */
export function versionOf(name: string | undefined): (VersionModule & { standard: StandardModule }) | undefined {
  return name === undefined ? undefined : versions().find((v) => v.name === name);
}

/** What a layout is called in messages: the spec's own, or a published version's words. */
export function layoutWords(layout: string): string {
  return layout === 'spec' ? "the spec's layout" : versionOf(layout)?.words ?? layout;
}

/** The registered standards that have a sandbox bank. */
export function sandboxStandards(): StandardModule[] {
  return registered.filter((s) => s.sandbox !== undefined);
}

/** `a, b or c`: names as a message lists them. */
export function orList(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
