import { STATUS_CODES } from 'node:http';
import type { ApiResult } from '../../src/client/operations.ts';
import * as obie from '../../src/dialects/obie/index.ts';
import { validate, formatProblem, errorCodesOf, hasSchema, statusIn, versionOf, type ObieVersion, type SchemaName } from '../../src/dialects/obie/index.ts';
import type { ConformanceWorld, RuleViolation } from './world.ts';
import { jsonOutside, keepOnLine, linesOf, quoteOutside } from '../../src/outside-text.ts';

/** Attachment: every problem behind a failure, `{ summary, problems }` (the message may cut the list; this never does). */
export const PROBLEMS_MEDIA_TYPE = 'application/vnd.obtpp.problems+json';
/** Attachment: a SHOULD-level finding that does not fail the rule, `{ level, source, message, problems }`. */
export const WARNING_MEDIA_TYPE = 'application/vnd.obtpp.warning+json';
/** How many problems a failure's message lists before "… and n more" (summary.json keeps them all). */
export const PROBLEMS_IN_MESSAGE = 5;

interface LevelledProblem { path: string; message: string; source?: string }
type JudgeBody = (schema: SchemaName, body: unknown, version?: ObieVersion) => { must: LevelledProblem[]; should: LevelledProblem[] };
/** The dialect's levelled judgement (MUST: the official schema and the spec; SHOULD: stricter than official), when it has one. */
const judgeBody = (obie as unknown as { judgeBody?: JudgeBody }).judgeBody;

/** A body's problems, by level, each as one readable line. */
export interface BodyJudgement {
  must: string[];
  should: Array<{ text: string; source?: string }>;
}

function line(p: LevelledProblem): string {
  return p.message.startsWith(p.path) ? p.message : `${p.path}: ${p.message}`;
}

/**
 * Judges a body against a schema of the version the bank serves (the profile's standard: v4.0 for
 * uk-4.0, else v3.1.11): MUST problems fail the rule, SHOULD problems are warnings. A schema only
 * the spec's layout has (PaymentStatusResponse) is its own in every version.
 */
export function judgeSchema(schema: SchemaName, body: unknown, version: ObieVersion = 'v3.1'): BodyJudgement {
  const v = hasSchema(schema, version) ? version : 'v3.1';
  if (judgeBody) {
    const j = judgeBody(schema, body, v);
    return { must: j.must.map(line), should: j.should.map((p) => ({ text: line(p), source: p.source })) };
  }
  return { must: validate(schema, body, v).map(formatProblem), should: [] };
}

/** The version of UK Read/Write the world's bank is judged by (its profile's standard). */
export function versionOfWorld(world: ConformanceWorld): ObieVersion {
  return versionOf(world.client.profile.standard);
}

/**
 * A status a rule names in v3.1.11's words, as the bank's version spells it, and how a message
 * says it: `"AUTH" (v4.0's code for Authorised)`.
 */
export function expectedStatus(world: ConformanceWorld, v3Name: string): { value: string; words: string } {
  const version = versionOfWorld(world);
  const value = statusIn(version, v3Name);
  return { value, words: value === v3Name ? `"${v3Name}"` : `"${value}" (v4.0's code for ${v3Name})` };
}

/**
 * A failure with a list of problems: the thrown message (JUnit, HTML, messages) carries every one;
 * an attachment carries them for summary.json, whose message lists the first few and counts the rest.
 */
export function violationWithProblems(world: ConformanceWorld, header: string | readonly string[], problems: string[]): RuleViolation {
  const head = typeof header === 'string' ? [header] : header;
  const shown = problems.slice(0, PROBLEMS_IN_MESSAGE);
  const more = problems.length - shown.length;
  // Each header line and each problem on a line of its own, whatever of the bank's it quotes.
  const summary = linesOf([...head, ...shown, ...(more > 0 ? [`… and ${more} more`] : [])]);
  world.attach(JSON.stringify({ summary: `${world.ruleId ? world.ruleId + ': ' : ''}${summary}`, problems: problems.map(keepOnLine) }), PROBLEMS_MEDIA_TYPE);
  return world.violation([...head, ...problems]);
}

/** Records SHOULD-level problems of an answer as a warning of the scenario's rule (never a failure). */
export function warn(world: ConformanceWorld, what: string, should: BodyJudgement['should']): void {
  if (!should.length) return;
  const sources = [...new Set(should.map((p) => p.source).filter(Boolean))];
  world.attach(JSON.stringify({
    level: 'SHOULD',
    source: sources.join(', ') || 'harness',
    message: `${what}: ${should.length} SHOULD-level finding${should.length === 1 ? '' : 's'} (stricter than the official schema)`,
    problems: should.map((p) => p.text),
  }), WARNING_MEDIA_TYPE);
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** A piece of a body for a message: trimmed, cut, quoted. */
function excerpt(text: string): string {
  return jsonOutside(text.trim().slice(0, 60)) + (text.trim().length > 60 ? '…' : '');
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
  // The bank's own words (headers, error codes) quoted: they cannot break the message's line.
  if (r.status >= 300 && r.status < 400) details.push(r.headers.location ? `redirect to ${quoteOutside(r.headers.location)}` : 'a redirect without Location');
  if (r.status === 429 || (r.status === 503 && r.headers['retry-after'])) details.push(r.headers['retry-after'] ? `Retry-After: ${quoteOutside(r.headers['retry-after'])}` : 'no Retry-After');
  const codes = errorCodesOf(r.body);
  if (codes.length) details.push(codes.map((c) => quoteOutside(c)).join(', '));
  if (!hasBody) {
    // 204, 401, 404, 405 and 415 come without a body by the standard; elsewhere its absence is news.
    if (r.status >= 500 || (r.status >= 200 && r.status < 300 && r.status !== 204)) details.push('no body');
  } else if (!r.json && r.exchange.response?.note) {
    // JSON obtpp would not walk (nested too deep): said as such, with the start of the body.
    details.push(`body is not usable JSON (${r.exchange.response.note}): ${excerpt(r.text)}`);
  } else if (!r.json) {
    details.push(type && JSON_TYPE.test(type)
      ? `body is not JSON although its Content-Type is ${quoteOutside(type)}: ${excerpt(r.text)}`
      : `body is not JSON: ${type ? `Content-Type ${quoteOutside(type)}` : 'no Content-Type'}, ${excerpt(r.text)}`);
  } else if (!type || !JSON_TYPE.test(type)) {
    details.push(`JSON body with ${type ? `Content-Type ${quoteOutside(type)}` : 'no Content-Type'}, not application/json`);
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
  return `${req} → ${what}${id ? ` [x-fapi-interaction-id ${quoteOutside(id)}]` : ''}`;
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
  const judged = judgeSchema(schema, r.json ? r.body : r.text.trim() ? r.text : undefined, versionOfWorld(world));
  warn(world, `the body of ${describeAnswer(r)} as ${schema}`, judged.should);
  if (judged.must.length) {
    throw violationWithProblems(world, `the body of ${describeAnswer(r)} is not a valid ${schema} (${judged.must.length} problem${judged.must.length === 1 ? '' : 's'}):`, judged.must);
  }
}

/**
 * A value that came back, for a message: JSON, with the type named where JSON hides a mistake
 * (`"true" (a string)`), and `nothing` for an absent field — never a bare `undefined`.
 */
export function quote(value: unknown): string {
  if (value === undefined) return 'nothing (the field is absent)';
  let text = jsonOutside(value);
  if (text.length > 120) text = text.slice(0, 119) + '…';
  if (typeof value === 'string' && /^(true|false|null|-?\d+(\.\d+)?)$/.test(value)) return `${text} (a string)`;
  return text;
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

/** Whether two JSON values are equal whatever the order of their members (a body read back, an Initiation carried on). */
export function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => (Array.isArray(v) ? v.map(norm) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => x.localeCompare(y)).map(([k, x]) => [k, norm(x)])) : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/**
 * What the answer's Content-Type must be: application/json, in UTF-8 where a charset is named (the
 * FCS asserts "application/json; charset=utf-8" is present; no charset is a SHOULD warning).
 */
export function expectJsonContentType(world: ConformanceWorld, r: ApiResult): void {
  const type = r.headers['content-type'];
  const [media, ...params] = (type ?? '').split(';').map((s) => s.trim());
  if (media?.toLowerCase() !== 'application/json') {
    throw world.violation(`expected Content-Type application/json (the standard's; the FCS asserts "application/json; charset=utf-8"), got ${type === undefined ? 'none' : JSON.stringify(type)} on ${describeAnswer(r)}`);
  }
  const charset = params.find((p) => /^charset=/i.test(p))?.slice('charset='.length).replace(/"/g, '');
  // JSON between systems is UTF-8 (RFC 8259 §8.1): another charset is wrong, none only less explicit than the FCS asks.
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw world.violation(`JSON must be UTF-8, but the Content-Type of ${describeAnswer(r)} names charset ${charset}`);
  }
  if (charset === undefined) {
    warn(world, `the Content-Type of ${describeAnswer(r)}`, [{ text: `"${type}" names no charset; the FCS asserts "application/json; charset=utf-8"`, source: 'FCS v3.1 OB3GLOAssertContentType' }]);
  }
}
