import { STATUS_CODES } from 'node:http';
import type { ApiResult } from '../../src/client/operations.ts';
import { validate, formatProblems, errorCodesOf, type SchemaName } from '../../src/dialects/obie/index.ts';
import type { ConformanceWorld } from './world.ts';

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** A piece of a body for a message: trimmed, cut, quoted. */
function excerpt(text: string): string {
  return JSON.stringify(text.trim().slice(0, 60)) + (text.trim().length > 60 ? '…' : '');
}

/**
 * What the answer was, beyond its status, in a few words: the bank's error codes, or what is wrong
 * with the body (none, not JSON, labelled with the wrong Content-Type), where a redirect points,
 * when to retry.
 */
function answerDetails(r: ApiResult): string[] {
  const details: string[] = [];
  const type = r.headers['content-type'];
  const hasBody = r.text.trim().length > 0;
  if (r.status >= 300 && r.status < 400) details.push(r.headers.location ? `redirect to ${r.headers.location}` : 'a redirect without Location');
  if (r.status === 429 || (r.status === 503 && r.headers['retry-after'])) details.push(r.headers['retry-after'] ? `Retry-After: ${r.headers['retry-after']}` : 'no Retry-After');
  const codes = errorCodesOf(r.body);
  if (codes.length) details.push(codes.join(', '));
  if (!hasBody) {
    // 204, 401, 404, 405 and 415 come without a body by the standard; elsewhere its absence is news.
    if (r.status >= 500 || (r.status >= 200 && r.status < 300 && r.status !== 204)) details.push('no body');
  } else if (!r.json) {
    details.push(type && JSON_TYPE.test(type)
      ? `body is not JSON although its Content-Type is ${type}: ${excerpt(r.text)}`
      : `body is not JSON: ${type ? `Content-Type ${type}` : 'no Content-Type'}, ${excerpt(r.text)}`);
  } else if (!type || !JSON_TYPE.test(type)) {
    details.push(`JSON body with ${type ? `Content-Type ${type}` : 'no Content-Type'}, not application/json`);
  }
  return details;
}

/** "GET /accounts → 200 OK [x-fapi-interaction-id …]" plus the bank's error code or what is wrong with the body, for messages. */
export function describeAnswer(r: ApiResult): string {
  const req = `${r.exchange.method} ${pathOnly(r.exchange.url)}`;
  const id = r.headers['x-fapi-interaction-id'];
  const reason = STATUS_CODES[r.status];
  const details = answerDetails(r);
  const what = `${r.status}${reason ? ' ' + reason : ''}${details.length ? ` (${details.join('; ')})` : ''}`;
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

/**
 * Demands a body valid against one of the dialect's schemas, sent as JSON: the standard's
 * `Content-Type: application/json` (a TPP should not have to guess what a body is).
 */
export function expectSchema(world: ConformanceWorld, r: ApiResult, schema: SchemaName): void {
  const type = r.headers['content-type'];
  if (r.json && (!type || !JSON_TYPE.test(type))) {
    throw world.violation(`the body of ${describeAnswer(r)} is not a valid ${schema}: it must come with Content-Type application/json`);
  }
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

/**
 * Demands a JSON body before a step reads fields out of it, so that a body that is not JSON is
 * reported as such, not as a field that is missing.
 */
export function expectJsonBody(world: ConformanceWorld, r: ApiResult): void {
  if (!r.json) throw world.violation(`expected a JSON body, got ${describeAnswer(r)}`);
}
