/**
 * The official OBIE v3.1 OpenAPI schemas, loaded at test time from ../shared/reference/obie when
 * present (never copied into the project), so that the sandbox's answers are judged by the
 * standard's own schemas rather than by ours.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'reference', 'obie');
const FILES = { ais: 'account-info-openapi.json', cof: 'confirmation-funds-openapi.json', pis: 'payment-initiation-openapi.json' } as const;

/** True when the official files are there; schema tests skip otherwise. */
export const obieAvailable = Object.values(FILES).every((f) => existsSync(join(dir, f)));

let ajv: Ajv | undefined;
function load(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ allErrors: true, strict: false });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  for (const [api, file] of Object.entries(FILES)) {
    const doc = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    ajv.addSchema({ $id: api, components: doc.components }, api);
  }
  return ajv;
}

/** Asserts that `body` validates against `api#/components/schemas/name` of the official files. */
export function assertObie(api: keyof typeof FILES, name: string, body: unknown): void {
  if (!obieAvailable) return;
  const validate = load().getSchema(`${api}#/components/schemas/${name}`);
  assert.ok(validate, `no schema ${name} in ${api}`);
  const ok = validate(body);
  assert.ok(ok, `${name}: ${load().errorsText(validate.errors, { dataVar: 'body', separator: '\n' })}\n${JSON.stringify(body).slice(0, 800)}`);
}
