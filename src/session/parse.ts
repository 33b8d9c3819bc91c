/** Flag values of the terminal client, checked before anything is sent; a bad one is a UsageError naming the flag. */
import { UsageError } from '../errors.ts';
import { PERMISSIONS, isoDateTime } from '../dialects/obie/builders.ts';

const AMOUNT = /^\d{1,13}$|^\d{1,13}\.\d{1,5}$/;
const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * `now`, a relative time (`+30d`, `-90d`, `+12h`, `-2w`), a date (`2026-01-31`, midnight UTC) or a
 * date-time with a zone; written as the TPP writes date-times (`…+00:00`).
 */
export function parseWhen(flag: string, value: string, now = Date.now()): string {
  const v = value.trim();
  if (v === 'now') return isoDateTime(new Date(now));
  const rel = /^([+-])(\d+)([smhdw])$/.exec(v);
  if (rel) return isoDateTime(new Date(now + (rel[1] === '-' ? -1 : 1) * Number(rel[2]) * UNITS[rel[3]]));
  if (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))) return `${v}T00:00:00+00:00`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v))) return v;
  throw new UsageError(`${flag} ${value}: expected now, a relative time such as +30d or -90d, a date (2026-01-31) or a date-time with a zone (2026-01-31T10:00:00+00:00)`);
}

export function parseAmount(flag: string, value: string): string {
  if (!AMOUNT.test(value) || Number(value) <= 0) throw new UsageError(`${flag} ${value}: expected a positive amount such as 10.00 (up to 13 digits, 5 decimals)`);
  return value;
}

export function parseCurrency(flag: string, value: string): string {
  const v = value.toUpperCase();
  if (!/^[A-Z]{3}$/.test(v)) throw new UsageError(`${flag} ${value}: expected an ISO 4217 currency code such as GBP`);
  return v;
}

export function parsePermissions(flag: string, value: string): string[] {
  const list = value.split(',').map((p) => p.trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError(`${flag}: expected a comma-separated list of permissions`);
  const known = new Set<string>(PERMISSIONS);
  const unknown = list.filter((p) => !known.has(p));
  if (unknown.length) throw new UsageError(`${flag}: unknown permission ${unknown.join(', ')} (one of ${PERMISSIONS.join(', ')})`);
  return [...new Set(list)];
}

export function parseList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(',').map((s) => s.trim()).filter(Boolean);
  return list.length ? list : undefined;
}

export function required(flag: string, value: string | undefined, what: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required: ${what}`);
  return value;
}

/** Max35Text fields (references, identifications). */
export function text35(flag: string, value: string): string {
  if (value.length < 1 || value.length > 35) throw new UsageError(`${flag} ${value}: expected 1 to 35 characters`);
  return value;
}
