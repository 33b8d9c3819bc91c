/**
 * The validators as the build emitted them (scripts/build-validators.mjs): standalone code, one
 * CommonJS module per dialect schema and level, and the profile's, beside the compiled modules in dist/. Loading
 * one needs neither ajv's compiler nor the compile time. From the sources there are none, and the
 * dialects compile their schemas with ajv instead: same schemas, same options, same errors
 * (test/dialects/prebuilt-validators.test.ts).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';

/** A set of a dialect's validators, as its standard's module names it (`validators`: one per schema set, e.g. a version's). */
export type Dialect = string;

const requireHere = createRequire(import.meta.url);
const built = import.meta.url.endsWith('.js');

/**
 * From the sources, the dist/src folder of a build of these very sources (OBTPP_PREBUILT_DIST):
 * its validators serve instead of compiling every schema again in each process. The test run's
 * global set-up names it only when dist/.build-stamp is the hash of the sources as they are
 * (`scripts/build.mjs --check`); unset — always, outside the tests — the sources compile.
 */
const distOfTheseSources = built ? undefined : process.env.OBTPP_PREBUILT_DIST || undefined;

/** Where the build writes a dialect's validators (relative to this module, in dist/ as in src/). */
export function prebuiltDir(dialect: Dialect): string {
  if (distOfTheseSources) return `${join(distOfTheseSources, 'dialects', dialect, 'validators')}${sep}`;
  return fileURLToPath(new URL(`./${dialect}/validators/`, import.meta.url));
}

/** The file of one schema's validator at one level. */
export function prebuiltFile(dialect: Dialect, level: string, name: string): string {
  return `${prebuiltDir(dialect)}${level}-${name}.cjs`;
}

/**
 * A module the build generated (a standalone validator), when this is the built code (or the
 * sources with OBTPP_PREBUILT_DIST) and the module is there; else undefined, and the caller
 * compiles its schema instead.
 */
export function buildOutput<T>(file: string | URL): T | undefined {
  if (!built && !distOfTheseSources) return undefined;
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  return existsSync(path) ? (requireHere(path) as T) : undefined;
}

/** The prebuilt validator, when this is the built module and the build emitted it; else undefined. */
export function prebuiltValidator(dialect: Dialect, level: string, name: string): ValidateFunction | undefined {
  return buildOutput<ValidateFunction>(prebuiltFile(dialect, level, name));
}

/** ajv's formats plugin (CommonJS with a default export: notes/toolchain.md §3), loaded when a dialect compiles. */
export function loadAjv(): { Ajv: typeof import('ajv').Ajv; addFormats: typeof import('ajv-formats').default } {
  const { Ajv } = requireHere('ajv') as typeof import('ajv');
  const formats = requireHere('ajv-formats') as typeof import('ajv-formats') & { default?: typeof import('ajv-formats').default };
  return { Ajv, addFormats: (formats.default ?? formats) as unknown as typeof import('ajv-formats').default };
}
