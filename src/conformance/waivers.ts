import { INPUT_LIMITS, parseYaml, readInputFile } from '../profile/input-files.ts';
import { extname, isAbsolute, resolve } from 'node:path';
import { ProfileError } from '../errors.ts';

/**
 * An expected failure, agreed and owned: `rule` failing (in `variant`, in `scenario`, when given)
 * is reported as `waived` until `expires` (inclusive, UTC); after that the run fails until the
 * waiver is renewed or removed.
 */
export interface Waiver {
  rule: string;
  variant?: 'A' | 'B';
  /** The scenario's name exactly as summary.json shows it; absent: every scenario of the rule. */
  scenario?: string;
  reason: string;
  owner: string;
  /** YYYY-MM-DD, the last day the waiver holds. */
  expires: string;
}

/** What the waivers did to one run; summary.json carries it as `waivers`. */
export interface WaiverOutcome {
  file?: string;
  applied: Array<{ waiver: Waiver; variant: string; failures: number }>;
  /** Waivers past their date: never applied, and the run fails while they are in the file. */
  expired: Waiver[];
  /** Waivers whose rule now passes: the waiver can go. */
  canGo: Array<{ waiver: Waiver; variants: string[] }>;
}

/** A waiver file that does not load or validate: exit 2, one `waivers <file>: <json-path>: <expected>` line per problem. */
export class WaiversError extends ProfileError {
  override readonly code: string = 'waivers_invalid';
}

const waiverItem = {
  type: 'object',
  additionalProperties: false,
  required: ['rule', 'reason', 'owner', 'expires'],
  properties: {
    rule: { type: 'string', pattern: '^[A-Z]{2,5}-\\d{2,3}$' },
    variant: { enum: ['A', 'B'] },
    scenario: { type: 'string', minLength: 1 },
    reason: { type: 'string', minLength: 1 },
    owner: { type: 'string', minLength: 1 },
    expires: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  },
} as const;

/** The file is a list of waivers, or an object whose `waivers` is that list. */
export const waiversSchema = {
  anyOf: [
    { type: 'array', items: waiverItem },
    { type: 'object', additionalProperties: false, required: ['waivers'], properties: { waivers: { type: 'array', items: waiverItem } } },
  ],
} as const;

let validators: { list: any; object: any } | undefined;

/** Validates parsed waivers; returns the list, or the problems as `<json-path>: <expected>`. */
export async function validateWaivers(raw: unknown): Promise<{ waivers: Waiver[]; problems: string[] }> {
  if (!validators) {
    const { Ajv } = await import('ajv');
    const ajv = new Ajv({ allErrors: true, strict: false });
    validators = { list: ajv.compile(waiversSchema.anyOf[0]), object: ajv.compile(waiversSchema.anyOf[1]) };
  }
  // The two forms are told apart by their shape, so the errors speak of the form the author chose.
  if (raw === null || typeof raw !== 'object') return { waivers: [], problems: ['$: expected a list of waivers (or an object with a waivers list)'] };
  const isList = Array.isArray(raw);
  const validate = isList ? validators.list : validators.object;
  const problems: string[] = [];
  if (!validate(raw)) for (const e of validate.errors ?? []) problems.push(describe(e));
  const list: Waiver[] = isList ? (raw as Waiver[]) : ((raw as { waivers?: Waiver[] }).waivers ?? []);
  if (!problems.length) {
    list.forEach((w, i) => {
      if (!realDate(w.expires)) problems.push(`${isList ? '$' : '$.waivers'}[${i}].expires: expected a real date YYYY-MM-DD, not ${w.expires}`);
    });
  }
  return { waivers: problems.length ? [] : list, problems: [...new Set(problems)] };
}

/** Reads a waiver file (YAML or JSON). Every problem is reported at once. */
export async function loadWaivers(file: string, cwd = process.cwd()): Promise<Waiver[]> {
  const full = isAbsolute(file) ? file : resolve(cwd, file);
  let text: string;
  try {
    text = await readInputFile(full, INPUT_LIMITS.waivers);
  } catch (error) {
    throw new WaiversError(`waivers ${full}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, [], { cause: error });
  }
  let raw: unknown;
  try {
    raw = extname(full) === '.json' ? JSON.parse(text) : await parseYaml(text);
  } catch (error) {
    throw new WaiversError(`waivers ${full}: not valid ${extname(full) === '.json' ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`, [], { cause: error });
  }
  const { waivers, problems } = await validateWaivers(raw ?? []);
  if (problems.length) {
    throw new WaiversError(problems.map((p) => `waivers ${full}: ${p}`).join('\n'), problems, {
      hint: 'each waiver needs rule (e.g. AIS-04), reason, owner and expires (YYYY-MM-DD); variant (A or B) and scenario are optional',
    });
  }
  return waivers;
}

function realDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function jsonPath(instancePath: string): string {
  if (!instancePath) return '$';
  return '$' + instancePath.split('/').slice(1).map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`)).join('');
}

function describe(e: { keyword: string; instancePath: string; message?: string; params: Record<string, any> }): string {
  const at = jsonPath(e.instancePath);
  switch (e.keyword) {
    case 'required':
      return `${at}.${e.params.missingProperty}: is required but missing`;
    case 'additionalProperties':
      return `${at}.${e.params.additionalProperty}: unknown field (not allowed here)`;
    case 'type':
      return `${at}: expected ${e.params.type}`;
    case 'enum':
      return `${at}: expected one of ${e.params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
      if (at.endsWith('.expires')) return `${at}: expected a date YYYY-MM-DD`;
      if (at.endsWith('.rule')) return `${at}: expected a rule id such as AIS-04`;
      return `${at}: expected a value matching ${e.params.pattern}`;
    case 'minLength':
      return `${at}: expected a non-empty string`;
    default:
      return `${at}: ${e.message ?? 'is invalid'}`;
  }
}

/** The summary's shape as waivers need it (summary.json; fields this module does not know are kept). */
interface SummaryShape {
  verdict: string;
  variants: Array<{ variant: string; rules: Array<{ id: string; status: string; failures: Array<{ scenario: string } & Record<string, unknown>> } & Record<string, unknown>> }>;
  totals: { rules: Record<string, number> } & Record<string, unknown>;
}

/** The day a date falls on, in UTC, as YYYY-MM-DD. */
function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function isExpired(w: Waiver, now: Date): boolean {
  return day(now) > w.expires;
}

function covers(w: Waiver, variant: string, ruleId: string): boolean {
  return w.rule === ruleId && (!w.variant || w.variant === variant);
}

function matchesFailure(w: Waiver, failure: { scenario: string }): boolean {
  return !w.scenario || w.scenario.trim() === String(failure.scenario).trim();
}

/**
 * A copy of the summary where failures a live waiver covers are marked `waived` (the failure and
 * its evidence stay), and a rule whose every failure is waived has status `waived`. The verdict is
 * `pass` (or `incomplete`, when some rule was not judged) when only waived rules failed.
 */
export function applyWaivers<S extends SummaryShape>(summary: S, waivers: Waiver[], now: Date, file?: string): S & { waivers: WaiverOutcome } {
  const out = structuredClone(summary) as S & { waivers: WaiverOutcome };
  const live = waivers.filter((w) => !isExpired(w, now));
  const outcome: WaiverOutcome = { file, applied: [], expired: waivers.filter((w) => isExpired(w, now)), canGo: [] };
  const used = new Set<Waiver>();
  for (const v of out.variants) {
    for (const rule of v.rules) {
      if (rule.status !== 'failed') continue;
      for (const w of live.filter((x) => covers(x, v.variant, rule.id))) {
        let n = 0;
        for (const f of rule.failures) {
          if (f.waived || !matchesFailure(w, f)) continue;
          f.waived = { reason: w.reason, owner: w.owner, expires: w.expires };
          n++;
        }
        if (n) {
          used.add(w);
          outcome.applied.push({ waiver: w, variant: v.variant, failures: n });
        }
      }
      if (rule.failures.length && rule.failures.every((f) => f.waived)) {
        rule.status = 'waived';
        // The words the user reads follow the status: a waived rule never reads as a failure.
        if (typeof rule.verdict === 'string') rule.verdict = rule.verdict.replace(/^FAIL\b/, 'waived');
      }
    }
  }
  // A waiver that waived nothing, where its rule now passes, can go.
  for (const w of live) {
    if (used.has(w)) continue;
    const passing = out.variants.filter((v) => (!w.variant || w.variant === v.variant) && v.rules.some((r) => r.id === w.rule && r.status === 'passed')).map((v) => v.variant);
    if (passing.length) outcome.canGo.push({ waiver: w, variants: passing });
  }
  const counts: Record<string, number> = {};
  for (const k of Object.keys(out.totals.rules)) counts[k] = 0;
  counts.waived = 0;
  for (const v of out.variants) for (const r of v.rules) counts[r.status] = (counts[r.status] ?? 0) + 1;
  out.totals.rules = counts;
  // Only a failing verdict changes: interrupted and incomplete runs stay what they were.
  const anyFailed = out.variants.some((v) => v.rules.some((r) => r.status === 'failed'));
  if (summary.verdict === 'fail' && !anyFailed) out.verdict = out.variants.some((v) => v.rules.some((r) => r.status === 'not-judged')) ? 'incomplete' : 'pass';
  out.waivers = outcome;
  return out;
}

function name(w: Waiver): string {
  return `${w.rule}${w.variant ? ` [${w.variant}]` : ''}${w.scenario ? ` "${w.scenario}"` : ''}`;
}

/** The lines a run prints about its waivers: errors (the run fails), warnings, and notes. */
export function waiverLines(outcome: WaiverOutcome, strict = false): { errors: string[]; warnings: string[]; notes: string[] } {
  const errors = outcome.expired.map((w) => `waiver expired: ${name(w)} (owner ${w.owner}, expired after ${w.expires}): ${w.reason} — renew or remove it`);
  const canGo = outcome.canGo.map(({ waiver: w, variants }) => `waiver can go: ${name(w)} now passes in variant ${variants.join(' and ')} (owner ${w.owner}): remove it from the waiver file`);
  const notes = outcome.applied.map(({ waiver: w, variant, failures }) => `waived: ${w.rule} [${variant}] — ${failures} failure(s), owner ${w.owner}, until ${w.expires}: ${w.reason}`);
  return strict ? { errors: [...errors, ...canGo], warnings: [], notes } : { errors, warnings: canGo, notes };
}

/**
 * The exit code once waivers are applied: the verdict's (fail → 1; incomplete → 1 only with
 * strict), 1 when a waiver expired, and with strict 1 when a waiver can go. Codes that are not
 * verdicts (2, 3, 130, 143) stand.
 */
export function exitCodeWithWaivers(base: number, summary: { verdict: string }, outcome: WaiverOutcome, strict = false): number {
  if (base !== 0 && base !== 1) return base;
  let code = summary.verdict === 'fail' || (strict && summary.verdict === 'incomplete') ? 1 : 0;
  if (outcome.expired.length) code = 1;
  if (strict && outcome.canGo.length) code = 1;
  return code;
}
