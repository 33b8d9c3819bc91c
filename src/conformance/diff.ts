import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.ts';
import { INPUT_LIMITS, readInputFile } from '../profile/input-files.ts';

/** The summary's shape as a diff needs it (summary.json of any obtpp version since 0.1). */
export interface DiffableSummary {
  verdict?: string;
  startedAt?: string;
  profile?: string;
  variants: Array<{ variant: string; rules: Array<{ id: string; title?: string; status: string }> }>;
}

/** A rule whose status moved; `absent` when the run had no such rule (or no such variant). */
export interface RuleChange {
  id: string;
  title?: string;
  from: string;
  to: string;
}

export interface VariantDiff {
  variant: string;
  /** Fails now, did not before (including a waiver that no longer covers it). */
  newlyFailing: RuleChange[];
  /** Failed (or was waived) before, passes now. */
  fixed: RuleChange[];
  /** Was judged before (passed, failed or waived), is not judged now. */
  newlyNotJudged: RuleChange[];
  /** Every other change of status (e.g. skipped ⇄ passed, failed → waived). */
  other: RuleChange[];
}

export interface SummaryDiff {
  old: { verdict?: string; startedAt?: string; profile?: string };
  new: { verdict?: string; startedAt?: string; profile?: string };
  variants: VariantDiff[];
  /** Something newly fails or is newly not judged: a gate should stop here. */
  regressed: boolean;
}

const JUDGED = new Set(['passed', 'failed', 'waived']);

/** Per variant, the rules whose verdict changed between two runs. Pure. */
export function diffSummaries(old: DiffableSummary, now: DiffableSummary): SummaryDiff {
  const variantNames = [...new Set([...now.variants.map((v) => v.variant), ...old.variants.map((v) => v.variant)])].sort();
  const variants = variantNames.map((variant): VariantDiff => {
    const before = new Map((old.variants.find((v) => v.variant === variant)?.rules ?? []).map((r) => [r.id, r]));
    const after = new Map((now.variants.find((v) => v.variant === variant)?.rules ?? []).map((r) => [r.id, r]));
    const d: VariantDiff = { variant, newlyFailing: [], fixed: [], newlyNotJudged: [], other: [] };
    for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
      const from = before.get(id)?.status ?? 'absent';
      const to = after.get(id)?.status ?? 'absent';
      if (from === to) continue;
      const change: RuleChange = { id, title: after.get(id)?.title ?? before.get(id)?.title, from, to };
      if (to === 'failed') d.newlyFailing.push(change);
      else if (to === 'passed' && (from === 'failed' || from === 'waived')) d.fixed.push(change);
      else if (to === 'not-judged' && JUDGED.has(from)) d.newlyNotJudged.push(change);
      else d.other.push(change);
    }
    return d;
  });
  const pick = (s: DiffableSummary) => ({ verdict: s.verdict, startedAt: s.startedAt, profile: s.profile });
  return {
    old: pick(old),
    new: pick(now),
    variants,
    regressed: variants.some((v) => v.newlyFailing.length > 0 || v.newlyNotJudged.length > 0),
  };
}

/** summary.json of a report dir (or the file itself). A dir without one is a usage error (exit 2). */
export async function readSummary(dirOrFile: string, cwd = process.cwd()): Promise<DiffableSummary> {
  const full = resolve(cwd, dirOrFile);
  let file = full;
  try {
    if ((await stat(full)).isDirectory()) file = join(full, 'summary.json');
  } catch {
    throw new UsageError(`${full}: no such report dir`);
  }
  let parsed: DiffableSummary;
  try {
    parsed = JSON.parse(await readInputFile(file, INPUT_LIMITS.baseline)) as DiffableSummary;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${full}: no summary.json (is it an obtpp report dir?)` : `${file}: not a summary.json (${(error as Error).message.split('\n')[0]})`);
  }
  if (!parsed || !Array.isArray(parsed.variants)) throw new UsageError(`${file}: not an obtpp summary (no variants)`);
  // Every field the comparison reads, checked now: a wrong type must not crash after the whole run.
  const problem = summaryProblem(parsed);
  if (problem) throw new UsageError(`${file}: not an obtpp summary: ${problem}`);
  return parsed;
}

/** The first field of a summary that a diff cannot read ("$.variants[0].rules[2].status: expected a string"), or undefined. */
export function summaryProblem(s: DiffableSummary): string | undefined {
  for (const field of ['verdict', 'startedAt', 'profile'] as const) {
    if (s[field] !== undefined && typeof s[field] !== 'string') return `$.${field}: expected a string`;
  }
  for (const [i, v] of s.variants.entries()) {
    const at = `$.variants[${i}]`;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return `${at}: expected an object`;
    if (typeof v.variant !== 'string') return `${at}.variant: expected a string`;
    if (!Array.isArray(v.rules)) return `${at}.rules: expected an array`;
    for (const [j, r] of v.rules.entries()) {
      const rat = `${at}.rules[${j}]`;
      if (!r || typeof r !== 'object' || Array.isArray(r)) return `${rat}: expected an object`;
      if (typeof r.id !== 'string') return `${rat}.id: expected a string`;
      if (typeof r.status !== 'string') return `${rat}.status: expected a string`;
      if (r.title !== undefined && typeof r.title !== 'string') return `${rat}.title: expected a string`;
    }
  }
  return undefined;
}

/** The diff as lines for a terminal: one per changed rule, grouped, then a one-line conclusion. */
export function renderDiff(diff: SummaryDiff, labels: { old: string; new: string }): string {
  const lines: string[] = [`changes from ${labels.old} (${diff.old.verdict ?? '?'}) to ${labels.new} (${diff.new.verdict ?? '?'}):`];
  const groups: Array<[keyof Omit<VariantDiff, 'variant'>, string]> = [
    ['newlyFailing', 'newly failing'],
    ['newlyNotJudged', 'newly not judged'],
    ['fixed', 'fixed'],
    ['other', 'other change'],
  ];
  let any = false;
  for (const v of diff.variants) {
    for (const [key, label] of groups) {
      for (const c of v[key]) {
        any = true;
        const title = c.title ? `  ${c.title.length > 70 ? c.title.slice(0, 67) + '…' : c.title}` : '';
        lines.push(`  [${v.variant}] ${label.padEnd(16)} ${c.id.padEnd(7)} ${c.from} → ${c.to}${title}`);
      }
    }
  }
  if (!any) lines.push('  no rule changed its verdict');
  const count = (k: 'newlyFailing' | 'newlyNotJudged' | 'fixed') => diff.variants.reduce((n, v) => n + v[k].length, 0);
  lines.push(diff.regressed
    ? `REGRESSED: ${count('newlyFailing')} rule result(s) newly failing, ${count('newlyNotJudged')} newly not judged`
    : `no regression${count('fixed') ? ` (${count('fixed')} rule result(s) fixed)` : ''}`);
  return lines.join('\n');
}
