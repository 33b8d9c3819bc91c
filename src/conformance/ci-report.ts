/**
 * What a CI server shows of a run besides JUnit: summary.md (Markdown, for GitHub's step summary
 * and GitLab's job reports) and GitHub's workflow-command annotations, one per failed rule and one
 * per SHOULD warning. Both are made from the summary as written (already redacted by the run).
 */
import type { Finding, RuleResult, Summary } from './summary.ts';
import { fcsCountsLine, fcsVerdictText } from './fcs-verdicts.ts';

/** Rows of a list shown in full before "… and N more". */
const LIST_LIMIT = 50;

/**
 * Text from a bank or a profile, safe in Markdown that GitHub renders: no HTML (a `<img>` or
 * `<details>` of the bank's making), no table break (`|`), no line break, no control character,
 * no emphasis or link syntax taken from the text.
 */
export function mdText(text: string): string {
  return String(text)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|#!~])/g, '\\$1')
    .trim();
}

function rows(summary: Summary): Array<{ variant: string; rule: RuleResult }> {
  return summary.variants.flatMap((v) => v.rules.map((rule) => ({ variant: v.variant, rule })));
}

const VERDICT_WORDS: Record<string, string> = {
  pass: '✅ CONFORMANT',
  fail: '❌ NOT CONFORMANT',
  incomplete: '⚠️ INCOMPLETE (some rules could not be judged)',
  interrupted: '⏹️ INTERRUPTED (partial results)',
};

/**
 * summary.md: the verdict, the counts (waived and SHOULD warnings included), then the failed,
 * waived, not judged and warned rules, each with its first finding. A rule not selected by a scoped
 * run is counted, not listed. An interrupted run says how many of the selected scenarios did not run.
 */
export function summaryMarkdown(summary: Summary, extra: { notRun?: number } = {}): string {
  const all = rows(summary);
  const count = (status: string) => all.filter((r) => (r.rule.status as string) === status).length;
  const warnings = all.flatMap(({ variant, rule }) => (rule.warnings ?? []).map((w) => ({ variant, rule, w })));
  const sc = summary.totals.scenarios;
  const lines = [
    `## obtpp conformance: ${VERDICT_WORDS[summary.verdict] ?? summary.verdict}`,
    '',
    `Bank: ${mdText(summary.profile)} · obtpp ${mdText(summary.tool.version)} · started ${mdText(summary.startedAt)} · ${(summary.durationMs / 1000).toFixed(1)} s`,
    // The security profile its authorisation server was judged under (docs/security.md).
    ...(typeof summary.security?.description === 'string' ? ['', `Authorisation server: ${mdText(summary.security.description)}`] : []),
    '',
    '| rule results | count |',
    '|---|---:|',
    `| passed | ${count('passed')} |`,
    `| failed | ${count('failed')} |`,
    `| waived | ${count('waived')} |`,
    `| not judged | ${count('not-judged')} |`,
    `| not applicable | ${count('not-applicable')} |`,
    `| not selected | ${count('skipped')} |`,
    `| SHOULD warnings | ${warnings.length} |`,
    '',
    `Scenarios: ${sc.passed} passed, ${sc.failed} failed, ${sc.notJudged} not judged, ${sc.notApplicable} not applicable${extra.notRun ? `, **${extra.notRun} not run** (the run was interrupted)` : ''}.`,
  ];
  const section = (title: string, items: Array<{ variant: string; rule: RuleResult; f?: Finding; text?: string }>) => {
    if (!items.length) return;
    lines.push('', `### ${title}`, '', '| rule | variant | scenario | finding |', '|---|---|---|---|');
    for (const { variant, rule, f, text } of items.slice(0, LIST_LIMIT)) {
      const level = f?.level ?? rule.level;
      lines.push(`| ${mdText(rule.id)}${level ? ` (${level})` : ''} | ${mdText(variant)} | ${mdText(f?.scenario ?? '')} | ${mdText((text ?? f?.message ?? rule.verdict ?? '').split('\n')[0]!)} |`);
    }
    if (items.length > LIST_LIMIT) lines.push('', `… and ${items.length - LIST_LIMIT} more in summary.json.`);
  };
  const firstOf = (status: string, pick: (r: RuleResult) => Finding[] | undefined) =>
    all.filter((r) => (r.rule.status as string) === status).map(({ variant, rule }) => ({ variant, rule, f: pick(rule)?.[0] }));
  section('Failed rules', firstOf('failed', (r) => r.failures.filter((f) => !(f as { waived?: unknown }).waived)));
  section('Waived rules', firstOf('waived', (r) => r.failures));
  section('Not judged', firstOf('not-judged', (r) => r.notJudged));
  section('SHOULD warnings', warnings.map(({ variant, rule, w }) => ({ variant, rule, f: w })));
  // Every official test of the run's version, in the suite's order, to set beside the suite's export.
  if (summary.fcs) {
    lines.push('', `### The official suite's tests (FCS v${mdText(summary.fcs.version)})`, '', mdText(fcsCountsLine(summary.fcs)), '', '| FCS id | verdict | obtpp scenario |', '|---|---|---|');
    for (const t of summary.fcs.tests) lines.push(`| ${mdText(t.id)} | ${mdText(fcsVerdictText(t))} | ${mdText(t.scenarios.join('; '))} |`);
  }
  lines.push('', 'Every finding with its evidence: report.html and summary.json in the report dir.', '');
  return lines.join('\n');
}

/** GitHub's escaping of a workflow command's message (actions/toolkit `escapeData`). */
export function escapeData(text: string): string {
  return String(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** GitHub's escaping of a workflow command's property value (`escapeProperty`): `:` and `,` too. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions annotations: `::error title=RULE::…` once per failed rule (its variants and its
 * first finding), `::warning title=RULE::…` once per SHOULD warning. Waived rules are not errors.
 */
export function githubAnnotations(summary: Summary): string[] {
  const out: string[] = [];
  const failed = new Map<string, Array<{ variant: string; rule: RuleResult }>>();
  for (const r of rows(summary)) {
    if (r.rule.status !== 'failed') continue;
    failed.set(r.rule.id, [...(failed.get(r.rule.id) ?? []), r]);
  }
  for (const [id, list] of failed) {
    const variants = list.map((r) => r.variant).join(', ');
    const first = list[0]!.rule.failures.find((f) => !(f as { waived?: unknown }).waived) ?? list[0]!.rule.failures[0];
    const total = list.reduce((n, r) => n + r.rule.failures.length, 0);
    const message = `${id}${list[0]!.rule.level ? ` (${list[0]!.rule.level})` : ''} failed in variant ${variants}: ${first?.message ?? list[0]!.rule.verdict}${first ? ` — scenario "${first.scenario}", step "${first.step}"` : ''}${total > 1 ? ` (${total} findings; see the report)` : ''}`;
    out.push(`::error title=${escapeProperty(id)}::${escapeData(message)}`);
  }
  for (const { variant, rule } of rows(summary)) {
    for (const w of rule.warnings ?? []) {
      out.push(`::warning title=${escapeProperty(rule.id)}::${escapeData(`${rule.id} (SHOULD, variant ${variant}): ${w.message}${w.problems?.length ? ` — ${w.problems.join('; ')}` : ''}`)}`);
    }
  }
  return out;
}
