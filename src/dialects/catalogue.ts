/**
 * Operations as data. Each standard (dialect) declares its operations in a catalogue of its own —
 * the API, method, path template, token, permissions, variants, signing and the official answer
 * schema per status (operation-spec.ts) — and the tpp client, the CLI's words, the profile's
 * `implements` and the checks of the profile's `paths` all read it. Adding an operation is one
 * catalogue entry, its schema and (for a body) its builder; adding a standard is a folder with a
 * catalogue, its module registered once (src/standards/registry.ts). Nothing here names one.
 */
import type { Catalogue, OperationSpec } from './operation-spec.ts';
import { BUILT_IN, findStandard, standards, type DialectName, type StandardModule } from '../standards/registry.ts';

export type { Catalogue, OperationSpec, HttpMethod, TokenKind, Layout } from './operation-spec.ts';
export { layoutOf } from './operation-spec.ts';
export { fillPath, pathKeysOf, MissingPathId, ID_ALIASES, groupOf, groupsOf } from './operation-spec.ts';
export type { OperationGroup } from './operation-spec.ts';
export type { DialectName } from '../standards/registry.ts';

/** The catalogue of each of the package's standards, by the profile's `dialect`. */
export const CATALOGUES = Object.fromEntries(BUILT_IN.map((s) => [s.name, s.catalogue])) as { [S in (typeof BUILT_IN)[number] as S['name']]: S['catalogue'] };

/** Every operation of every standard of the package, by id (a profile's `implements` names these). */
export type Operation = { [S in (typeof BUILT_IN)[number] as S['name']]: keyof S['catalogue'] & string }[DialectName];

/** The catalogue of a registered standard (an empty one for a name no standard has). */
export function catalogueOf(dialect: string): Catalogue {
  return findStandard(dialect)?.catalogue ?? {};
}

/** Every operation id of the standards given (default every registered one), each once, in catalogue order. */
export function operationIds(of: readonly StandardModule[] = standards()): string[] {
  return [...new Set(of.flatMap((s) => Object.keys(s.catalogue)))];
}

/** Every operation id of the package's standards, each once, in catalogue order. */
export const OPERATION_IDS: readonly Operation[] = operationIds(BUILT_IN) as Operation[];

/** The spec of an operation in a standard, or undefined where that standard has no such operation. */
export function specOf(dialect: string, operation: string): OperationSpec | undefined {
  const catalogue = catalogueOf(dialect);
  return Object.hasOwn(catalogue, operation) ? catalogue[operation] : undefined;
}

/** The spec of an operation in whichever standard has it (the first): for words and ids alike. */
export function anySpecOf(operation: string): OperationSpec | undefined {
  for (const s of standards()) {
    const spec = specOf(s.name, operation);
    if (spec) return spec;
  }
  return undefined;
}
