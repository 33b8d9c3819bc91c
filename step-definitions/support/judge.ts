import type { ApiResult } from '../../src/client/operations.ts';
import { validate, formatProblems, errorCodesOf, type SchemaName } from '../../src/dialects/obie/index.ts';
import type { ConformanceWorld } from './world.ts';

const REASON: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

/** "GET /accounts → 200 OK [x-fapi-interaction-id …]" plus the bank's error code, for messages. */
export function describeAnswer(r: ApiResult): string {
  const req = `${r.exchange.method} ${pathOnly(r.exchange.url)}`;
  const id = r.headers['x-fapi-interaction-id'];
  let what = `${r.status}${REASON[r.status] ? ' ' + REASON[r.status] : ''}`;
  const codes = errorCodesOf(r.body);
  if (codes.length) what += ` (${codes.join(', ')})`;
  else if (!r.json && r.text.trim()) what += ` (body is not JSON: ${JSON.stringify(r.text.trim().slice(0, 60))})`;
  return `${req} → ${what}${id ? ` [x-fapi-interaction-id ${id}]` : ''}`;
}

function pathOnly(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** Demands one of the allowed statuses. */
export function expectStatus(world: ConformanceWorld, r: ApiResult, allowed: number[], expectation?: string): void {
  if (allowed.includes(r.status)) return;
  const want = allowed.length === 1 ? String(allowed[0]) : allowed.slice(0, -1).join(', ') + ' or ' + allowed[allowed.length - 1];
  throw world.violation(`${expectation ?? `expected HTTP ${want}`}, got ${describeAnswer(r)}`);
}

/** Demands a refusal (one of the allowed 4xx); a 2xx is the worst case and is said so. */
export function expectRefusal(world: ConformanceWorld, r: ApiResult, allowed: number[], why: string): void {
  if (allowed.includes(r.status)) return;
  const want = allowed.length === 1 ? String(allowed[0]) : allowed.slice(0, -1).join(', ') + ' or ' + allowed[allowed.length - 1];
  if (r.status >= 200 && r.status < 300) throw world.violation(`expected the bank to refuse ${why} (HTTP ${want}), but it answered ${describeAnswer(r)}`);
  throw world.violation(`expected the bank to refuse ${why} with HTTP ${want}, got ${describeAnswer(r)}`);
}

/** Demands a body valid against one of the dialect's schemas. */
export function expectSchema(world: ConformanceWorld, r: ApiResult, schema: SchemaName): void {
  const problems = validate(schema, r.json ? r.body : r.text.trim() ? r.text : undefined);
  if (problems.length) {
    throw world.violation(`the body of ${describeAnswer(r)} is not a valid ${schema}:\n${formatProblems(problems)}`);
  }
}

export function parseStatuses(text: string): number[] {
  return (text.match(/\d{3}/g) ?? []).map(Number);
}

/** Local "now" in ms (kept in one place so tests of the harness can reason about it). */
export const now = (): number => Date.now();
