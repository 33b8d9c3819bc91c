/**
 * Operations as data. Each standard (dialect) declares its operations in a catalogue of its own —
 * the API, method, path template, token, permissions, variants, signing and the official answer
 * schema per status (operation-spec.ts) — and the tpp client, the CLI's words, the profile's
 * `implements` and the checks of the profile's `paths` all read it. Adding an operation is one
 * catalogue entry, its schema and (for a body) its builder; adding a standard is a folder with a
 * catalogue, listed once below.
 */
import type { Catalogue, OperationSpec } from './operation-spec.ts';
import { OBIE_OPERATIONS } from './obie/catalogue.ts';
import { BERLIN_GROUP_OPERATIONS } from './berlin-group/catalogue.ts';

export type { Catalogue, OperationSpec, HttpMethod, TokenKind, Layout } from './operation-spec.ts';
export { layoutOf, LAYOUT_WORDS } from './operation-spec.ts';
export { fillPath, pathKeysOf, MissingPathId, ID_ALIASES } from './operation-spec.ts';

/** The catalogue of each standard, by the profile's `dialect`. */
export const CATALOGUES = {
  obie: OBIE_OPERATIONS,
  'berlin-group': BERLIN_GROUP_OPERATIONS,
} as const satisfies Record<string, Catalogue>;

export type DialectName = keyof typeof CATALOGUES;

/** Every operation of every standard, by id (a profile's `implements` names these). */
export type Operation = { [D in DialectName]: keyof (typeof CATALOGUES)[D] & string }[DialectName];

/** Every operation id of every standard, each once, in catalogue order. */
export const OPERATION_IDS: readonly Operation[] = [...new Set(Object.values(CATALOGUES).flatMap((c) => Object.keys(c)))] as Operation[];

/** The spec of an operation in a standard, or undefined where that standard has no such operation. */
export function specOf(dialect: DialectName, operation: string): OperationSpec | undefined {
  const catalogue: Catalogue = CATALOGUES[dialect];
  return Object.hasOwn(catalogue, operation) ? catalogue[operation] : undefined;
}

/** The spec of an operation in whichever standard has it (the first): for words and ids alike. */
export function anySpecOf(operation: string): OperationSpec | undefined {
  for (const dialect of Object.keys(CATALOGUES) as DialectName[]) {
    const spec = specOf(dialect, operation);
    if (spec) return spec;
  }
  return undefined;
}

