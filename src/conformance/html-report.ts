import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redactor } from '../client/redact.ts';
import { baseStandard } from '../standards/registry.ts';

/*
 * report.html: the document a bank hands to its regulator or partner. One self-contained page
 * (inline CSS, no script, no external asset) built from summary.json alone, so that it can be
 * rendered again from an older or partial summary. Everything shown is HTML-escaped (the bank's
 * answers are hostile input), and no stack trace or path of the machine that ran it survives.
 */

/** A finding as the summary carries it; every field may be missing in older or partial summaries. */
export interface ReportFinding {
  scenario?: string;
  step?: string;
  message?: string;
  level?: string;
  source?: string;
  /** Every validation error, when the step judged a schema. */
  problems?: string[];
  /** The rule whose failure kept this one from being judged (e.g. `AIS-11`). */
  blockedBy?: string;
  /** What the step definitions attached: `{ exchanges, interactionIds, screenshots, … }`. */
  evidence?: unknown;
}

export interface ReportRule {
  id: string;
  title?: string;
  level?: string;
  source?: string;
  status?: string;
  scenarios?: number;
  failures?: ReportFinding[];
  warnings?: ReportFinding[];
  notJudged?: ReportFinding[];
  /** Why a not-applicable rule does not apply. */
  reason?: string;
  /** The rule's verdict in words (`pass (3 of 5 scenarios; 2 not applicable: …)`); see summary.ts. */
  verdict?: string;
  /** Each scenario's exchanges and journeys (summary.json's `sequences`), for its picture. */
  sequences?: ReportSequence[];
  /** Scenarios by outcome (summary.json's `counts`). */
  counts?: { passed?: number; failed?: number; notApplicable?: number; notJudged?: number };
}

/** A scenario's sequence as summary.json carries it (src/conformance/sequence.ts); any field may be missing. */
export interface ReportSequence {
  scenario?: string;
  status?: string;
  steps?: Array<{ text?: string; status?: string; ms?: number }>;
  items?: Array<{ kind?: string; to?: string; method?: string; path?: string; status?: number; error?: string; outcome?: string; what?: string; ms?: number; step?: number }>;
  omitted?: number;
}

/** The part of summary.json the report reads (see src/conformance/summary.ts). */
export interface ReportSummary {
  tool?: { name?: string; version?: string };
  profile?: string;
  standard?: ReportStandard;
  bank?: ReportBank;
  timeSplit?: { authorisationsMs?: number; httpMs?: number; waitingMs?: number; judgingMs?: number };
  startedAt?: string;
  durationMs?: number;
  verdict?: string;
  variants?: Array<{ variant: string; rules?: ReportRule[] }>;
  /** One verdict per official FCS test (summary.json's `fcs`, src/conformance/fcs-verdicts.ts). */
  fcs?: { version?: string; source?: string; counts?: Partial<Record<string, number>>; tests?: Array<{ id?: string; test?: string; status?: string; reason?: string; scenarios?: string[]; notJudged?: string[] }> };
  totals?: {
    rules?: Partial<Record<string, number>>;
    scenarios?: Partial<Record<string, number>>;
    warnings?: number;
  };
}

/** Which standard and version was judged, and where the bank was reached (summary.json's `standard`, `bank`). */
export interface ReportStandard { dialect?: string; name?: string; version?: string; layout?: string }
export interface ReportBank { issuer?: string; baseUrls?: Array<{ variant?: string; api?: string; url?: string }> }

export interface HtmlReportOptions {
  /**
   * Screenshots by file name (the base name the evidence gives): a `data:` URI to embed, or an
   * href relative to report.html. A screenshot not listed is named, not shown.
   */
  screenshots?: Record<string, { dataUri?: string; href?: string }>;
  /** Absolute paths of this machine to remove from every text, besides the generic patterns. */
  localPaths?: string[];
  /** When the document was generated (default: now). */
  generatedAt?: Date;
}

/**
 * What each mark of the rule table means: the report's legend, and docs/ci.md's (test/conformance/
 * legend.test.ts keeps the two the same).
 */
export const VERDICT_LEGEND: ReadonlyArray<readonly [mark: string, meaning: string]> = [
  ['pass', 'every scenario of the rule passed'],
  ['pass + a note', 'passed on part of its scenarios: the note says how many, and why the others were not applicable'],
  ['FAIL', 'a scenario showed the bank breaking the rule (the failure is listed below)'],
  ['waived', 'the rule failed, and a live waiver covers every failure'],
  ['not judged', 'the rule could not be checked: the bank gave no footing (the cause is listed below)'],
  ['n/a', 'not applicable: the variant has no such rule or endpoint, or the profile says the bank does not offer it (the reason is in the cell)'],
  ['skipped', 'not selected in this run'],
  ['n warnings', 'SHOULD-level findings, stricter than the official schema: never a failure'],
];

const STATUS_LABEL: Record<string, string> = {
  passed: 'pass',
  failed: 'FAIL',
  'not-judged': 'not judged',
  'not-applicable': 'n/a',
  skipped: 'skipped',
};

const VERDICT: Record<string, { title: string; text: string }> = {
  pass: { title: 'Conformant', text: 'Every rule judged in this run passed.' },
  fail: { title: 'Not conformant', text: 'At least one rule failed. Each failure is listed below with the exchanges that show it.' },
  incomplete: { title: 'Incomplete', text: 'No rule failed, but some rules could not be judged; their causes are listed below.' },
  interrupted: { title: 'Interrupted', text: 'The run was stopped before it finished. The results below cover only what had run.' },
};

/** Lines of a JavaScript stack trace: `at fn (file:1:2)`, `at file:1:2`, `at async Promise.all (index 0)`. */
const STACK_LINE = /^\s*at\s.*(?:\)|:\d+(?::\d+)?|<anonymous>|native)\s*$/;
const FILE_URL = /file:\/\/[^\s"'<>()`]+/g;
/** Absolute paths under the usual roots of a machine, not the path part of a URL (`https://bank/tmp/x`). */
const POSIX_PATH = /(?<![\w.~:/\\-])\/(?:home|tmp|work|root|Users|var|private|opt|mnt|srv|usr|nix|run|builds|github|runner)\/[^\s"'<>()`\]]*/g;
const WINDOWS_PATH = /(?<![\w])[A-Za-z]:\\[^\s"'<>()`]+/g;

function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

/** Removes stack-trace lines and local paths (a path keeps only its file name). */
export function scrubText(text: string, localPaths: readonly string[] = []): string {
  let out = text
    .split('\n')
    .filter((line) => !STACK_LINE.test(line))
    .join('\n');
  // Only paths of two segments or more: a bare `/a` would eat into the bank's URLs.
  const literal = localPaths.filter((p) => /^(?:\/[^/]+){2,}|^[A-Za-z]:\\[^\\]+\\/.test(p ?? ''));
  for (const p of literal.sort((a, b) => b.length - a.length)) {
    out = out.split(p).join('…');
  }
  const short = (m: string) => `…/${baseName(m.replace(/^file:\/\/\/?/, ''))}`;
  return out.replace(FILE_URL, short).replace(POSIX_PATH, short).replace(WINDOWS_PATH, short);
}

export function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function anchor(...parts: string[]): string {
  return parts.join('-').replace(/[^A-Za-z0-9_-]/g, '_');
}

function formatDate(iso: string | undefined): string {
  if (!iso) return 'unknown';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function formatDuration(ms: number | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return 'unknown';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

const MAX_BODY = 20_000;
/** Bounds on the pictures, whatever summary.json holds: arrows per scenario, steps per scenario, pictures in section 5. */
const MAX_PICTURE_ITEMS = 30;
const MAX_PICTURE_STEPS = 16;
const MAX_PICTURES = 150;

interface Located {
  rule: ReportRule;
  variant: string;
  finding: ReportFinding;
  index: number;
}

const objects = (x: unknown): any[] => (Array.isArray(x) ? x.filter((e) => e !== null && typeof e === 'object') : []);
const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : undefined);

function normaliseFinding(f: any): ReportFinding {
  return {
    scenario: str(f.scenario), step: str(f.step), message: str(f.message), level: str(f.level), source: str(f.source),
    problems: Array.isArray(f.problems) ? f.problems.filter((p: unknown) => p !== null && p !== undefined).map((p: unknown) => (typeof p === 'string' ? p : JSON.stringify(p))) : undefined,
    blockedBy: str(f.blockedBy), evidence: f.evidence,
  };
}

/** The summary as the renderer expects it, whatever an older, partial or hand-edited summary.json holds. */
function normalise(summary: ReportSummary): ReportSummary {
  const s = (summary ?? {}) as any;
  return {
    tool: { name: str(s.tool?.name), version: str(s.tool?.version) },
    profile: str(s.profile),
    standard: s.standard && typeof s.standard === 'object' ? { dialect: str(s.standard.dialect), name: str(s.standard.name), version: str(s.standard.version) } : undefined,
    bank: s.bank && typeof s.bank === 'object' ? {
      issuer: str(s.bank.issuer),
      baseUrls: objects(s.bank.baseUrls).filter((b) => str(b.url)).map((b) => ({ variant: str(b.variant), api: str(b.api), url: str(b.url) })),
    } : undefined,
    timeSplit: s.timeSplit && typeof s.timeSplit === 'object' ? {
      authorisationsMs: num(s.timeSplit.authorisationsMs), httpMs: num(s.timeSplit.httpMs), waitingMs: num(s.timeSplit.waitingMs), judgingMs: num(s.timeSplit.judgingMs),
    } : undefined,
    startedAt: str(s.startedAt),
    durationMs: typeof s.durationMs === 'number' ? s.durationMs : undefined,
    verdict: str(s.verdict),
    variants: objects(s.variants).filter((v) => str(v.variant)).map((v) => ({
      variant: str(v.variant)!,
      rules: objects(v.rules).filter((r) => str(r.id)).map((r) => ({
        id: str(r.id)!, title: str(r.title), level: str(r.level), source: str(r.source), status: str(r.status),
        scenarios: typeof r.scenarios === 'number' ? r.scenarios : undefined,
        failures: objects(r.failures).map(normaliseFinding),
        warnings: objects(r.warnings).map(normaliseFinding),
        notJudged: objects(r.notJudged).map(normaliseFinding),
        reason: str(r.reason),
        verdict: str(r.verdict),
        counts: r.counts && typeof r.counts === 'object' ? r.counts : undefined,
        sequences: objects(r.sequences).map((q) => ({
          scenario: str(q.scenario), status: str(q.status), omitted: num(q.omitted),
          steps: objects(q.steps).map((t) => ({ text: str(t.text), status: str(t.status), ms: num(t.ms) })),
          items: objects(q.items).slice(-MAX_PICTURE_ITEMS).map((i) => ({
            kind: str(i.kind), to: str(i.to), method: str(i.method), path: str(i.path), status: num(i.status), error: str(i.error), outcome: str(i.outcome), what: str(i.what), ms: num(i.ms),
            step: typeof i.step === 'number' && Number.isInteger(i.step) ? i.step : undefined,
          })),
        })),
      })),
    })),
    fcs: s.fcs && typeof s.fcs === 'object' ? {
      version: str(s.fcs.version), source: str(s.fcs.source), counts: s.fcs.counts && typeof s.fcs.counts === 'object' ? s.fcs.counts : undefined,
      tests: objects(s.fcs.tests).filter((t) => str(t.id)).map((t) => ({
        id: str(t.id), test: str(t.test), status: str(t.status), reason: str(t.reason),
        scenarios: Array.isArray(t.scenarios) ? t.scenarios.map(String) : [], notJudged: Array.isArray(t.notJudged) ? t.notJudged.map(String) : undefined,
      })),
    } : undefined,
    totals: s.totals && typeof s.totals === 'object' ? {
      rules: s.totals.rules && typeof s.totals.rules === 'object' ? s.totals.rules : undefined,
      scenarios: s.totals.scenarios && typeof s.totals.scenarios === 'object' ? s.totals.scenarios : undefined,
      warnings: typeof s.totals.warnings === 'number' ? s.totals.warnings : undefined,
    } : undefined,
  };
}

/** Renders the report as one self-contained HTML document. Pure: reads nothing, writes nothing. */
/** A rule's row of the table: its id, words, level and source, and its result per variant. */
interface Row { id: string; title?: string; level?: string; source?: string; cells: Map<string, ReportRule> }

/** What every section renderer reads: the summary (normalised), its rules as rows, and how text is made safe. */
interface ReportContext {
  summary: ReportSummary;
  redactor: Redactor;
  localPaths: readonly string[];
  options: HtmlReportOptions;
  /** Text for the page: local paths scrubbed, secrets redacted, HTML escaped. */
  clean: (v: unknown) => string;
  variants: ReportVariant[];
  ordered: Row[];
  bank: string;
  tool: string;
  showLevel: boolean;
  showSource: boolean;
}

type ReportVariant = NonNullable<ReportSummary['variants']>[number];

export function renderHtmlReport(input: ReportSummary, options: HtmlReportOptions = {}): string {
  const k = reportContext(input, options);
  const { failures, warnings, notJudged } = findingsOf(k);
  return [
    headerSection(k, warnings.length),
    rulesSection(k),
    findingSections(k, failures, warnings, notJudged),
    closingSections(k),
  ].join('');
}

/** The context of the sections: rows of every rule of any variant, in id order; title, level and source from the first that has them. */
function reportContext(input: ReportSummary, options: HtmlReportOptions): ReportContext {
  const summary = normalise(input);
  const redactor = new Redactor();
  const localPaths = options.localPaths ?? [];
  const clean = (v: unknown) => escapeHtml(redactor.text(scrubText(String(v ?? ''), localPaths)));
  const variants = (summary.variants ?? []).filter((v) => v && typeof v.variant === 'string');
  const rows = new Map<string, Row>();
  for (const v of variants) {
    for (const r of v.rules ?? []) {
      if (!r || typeof r.id !== 'string') continue;
      const row: Row = rows.get(r.id) ?? { id: r.id, cells: new Map() };
      row.title ??= r.title;
      row.level ??= r.level ?? r.failures?.find((f) => f.level)?.level;
      row.source ??= r.source;
      row.cells.set(v.variant, r);
      rows.set(r.id, row);
    }
  }
  const ordered = [...rows.values()].sort((a, b) => a.id.localeCompare(b.id));
  return {
    summary, redactor, localPaths, options, clean, variants, ordered,
    bank: summary.profile?.trim() || 'unnamed profile',
    tool: `${summary.tool?.name ?? 'obtpp'} ${summary.tool?.version ?? ''}`.trim(),
    // Older summaries carry no level: the column is shown only when some rule has one.
    showLevel: ordered.some((r) => r.level),
    showSource: ordered.some((r) => r.source),
  };
}

/** The failures, warnings and not-judged findings, rule by rule and variant by variant. */
function findingsOf(k: ReportContext): { failures: Located[]; warnings: Located[]; notJudged: Located[] } {
  const { ordered, variants } = k;
  const collect = (key: 'failures' | 'warnings' | 'notJudged'): Located[] => {
    const out: Located[] = [];
    for (const row of ordered) {
      for (const v of variants) {
        const rule = row.cells.get(v.variant);
        (rule?.[key] ?? []).forEach((finding, index) => finding && out.push({ rule: rule!, variant: v.variant, finding, index }));
      }
    }
    return out;
  };
  const failures = collect('failures');
  const warnings = collect('warnings');
  const notJudged = collect('notJudged');
  // A rule not judged without a recorded cause is still listed, so that nothing is silently missing.
  for (const row of ordered) {
    for (const v of variants) {
      const rule = row.cells.get(v.variant);
      if (rule?.status === 'not-judged' && !(rule.notJudged ?? []).length) notJudged.push({ rule, variant: v.variant, finding: {}, index: 0 });
    }
  }
  return { failures, warnings, notJudged };
}

/** The document's head and the report's header: the bank, the verdict, the run, the standard judged, the totals. */
function headerSection(k: ReportContext, warningsFound: number): string {
  const { summary, clean, variants, bank, tool } = k;
  const statuses = variants.flatMap((v) => (v.rules ?? []).map((r) => r?.status ?? 'skipped'));
  const verdict = summary.verdict && VERDICT[summary.verdict] ? summary.verdict
    : statuses.includes('failed') ? 'fail' : statuses.includes('not-judged') ? 'incomplete' : 'pass';
  const count = (s: string) => summary.totals?.rules?.[s] ?? statuses.filter((x) => x === s).length;
  const warningCount = summary.totals?.warnings ?? warningsFound;
  const sc = summary.totals?.scenarios;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(tool)}">
<title>Conformance report — ${clean(bank)}</title>
<style>${stylesheet()}</style>
</head>
<body>
<main>
<header class="doc-header">
  <p class="eyebrow">Open-banking API conformance report</p>
  <h1 id="bank">${clean(bank)}</h1>
  <div class="verdict verdict-${escapeHtml(verdict)}">
    <strong>${escapeHtml(VERDICT[verdict]!.title)}</strong>
    <span>${escapeHtml(VERDICT[verdict]!.text)}</span>
  </div>
  <dl class="meta">
    <div><dt>Run started</dt><dd>${escapeHtml(formatDate(summary.startedAt))}</dd></div>
    <div><dt>Duration</dt><dd>${escapeHtml(formatDuration(summary.durationMs))}</dd></div>
    <div><dt>Variants</dt><dd>${variants.length ? variants.map((v) => `Variant ${clean(v.variant)}`).join(', ') : 'none'}</dd></div>
    <div><dt>Tool</dt><dd>${escapeHtml(tool)}</dd></div>
  </dl>
  <dl class="meta meta-wide">
    <div><dt>Standard judged</dt><dd id="standard">${summary.standard?.name ? `${clean(summary.standard.name)}${summary.standard.version ? ` ${clean(summary.standard.version)}` : ''}${summary.standard.layout ? ` ${clean(summary.standard.layout)}` : ''}${summary.standard.dialect ? ` <span class="sub">(dialect ${clean(summary.standard.dialect)})</span>` : ''}${summary.standard.dialect === baseStandard().name && !summary.standard.layout ? ', per the access-service spec\'s variants' : ''}` : 'not recorded (an older summary)'}</dd></div>
    <div><dt>Bank as configured</dt><dd id="bank-urls">${bankUrls(k)}</dd></div>
  </dl>
  ${timeChart(k)}
  <p class="totals">Rule results (per variant): <b>${count('passed')}</b> passed · <b>${count('failed')}</b> failed · <b>${count('not-judged')}</b> not judged · <b>${count('not-applicable')}</b> not applicable · <b>${count('skipped')}</b> skipped${warningCount ? ` · <b>${warningCount}</b> warning${warningCount === 1 ? '' : 's'}` : ''}${sc ? `<br>Scenarios: <b>${sc.passed ?? 0}</b> passed · <b>${sc.failed ?? 0}</b> failed${sc.notJudged !== undefined ? ` · <b>${sc.notJudged}</b> not judged` : ''} · <b>${sc.notApplicable ?? 0}</b> not applicable · <b>${sc.skipped ?? 0}</b> not selected` : ''}</p>
</header>
`;
}

/** 1. The verdict per rule. */
function rulesSection(k: ReportContext): string {
  const { clean, variants, ordered, showLevel, showSource } = k;
  return `<section id="rules">
<h2>1. Verdict per rule</h2>
${ordered.length ? `<table class="rules">
<thead><tr><th scope="col">Rule</th>${showLevel ? '<th scope="col">Level</th>' : ''}${showSource ? '<th scope="col">Source</th>' : ''}<th scope="col" class="title-col">Requirement</th>${variants.map((v) => `<th scope="col" class="variant">Variant ${clean(v.variant)}</th>`).join('')}</tr></thead>
<tbody>
${ordered.map((row) => `<tr id="${anchor('rule', row.id)}">
  <th scope="row" class="rule-id">${clean(row.id)}</th>
  ${showLevel ? `<td class="level">${row.level ? clean(row.level) : '—'}</td>` : ''}${showSource ? `<td class="source">${row.source ? clean(row.source) : '—'}</td>` : ''}
  <td class="title-col">${clean(row.title ?? '')}</td>
  ${variants.map((v) => cell(k, row.cells.get(v.variant), v.variant)).join('\n  ')}
</tr>`).join('\n')}
</tbody>
</table>
<p class="legend">${VERDICT_LEGEND.map(([mark, meaning]) => `<b>${escapeHtml(mark)}</b>: ${escapeHtml(meaning)}`).join(' · ')}.</p>` : '<p class="empty">No rule was run.</p>'}
</section>
`;
}

/** 2. Failures, 3. warnings, 4. not judged. */
function findingSections(k: ReportContext, failures: Located[], warnings: Located[], notJudged: Located[]): string {
  return `<section id="failures">
<h2>2. Failures${failures.length ? ` (${failures.length})` : ''}</h2>
${failures.length ? failures.map((f) => finding(k, f, 'failure')).join('\n') : '<p class="empty">No rule failed.</p>'}
</section>
` + `<section id="warnings">
<h2>3. Warnings (SHOULD)${warnings.length ? ` (${warnings.length})` : ''}</h2>
${warnings.length ? warnings.map((f) => finding(k, f, 'warning')).join('\n') : '<p class="empty">No warning.</p>'}
</section>
<section id="not-judged">
<h2>4. Not judged${notJudged.length ? ` (${notJudged.length})` : ''}</h2>
${notJudged.length ? notJudged.map((f) => finding(k, f, 'not-judged')).join('\n') : '<p class="empty">Every selected rule was judged.</p>'}
</section>
`;
}

/** 5. Scenario sequences, 6. the official suite's tests, and the footer. */
function closingSections(k: ReportContext): string {
  const { options, tool } = k;
  return `<section id="sequences">
<h2>5. Scenario sequences</h2>
${sequencesSection(k)}
</section>
${fcsSection(k)}<footer>
  <p>Generated ${escapeHtml(formatDate((options.generatedAt ?? new Date()).toISOString()))} by ${escapeHtml(tool)}. Exchanges are shown as captured, with credentials and tokens redacted; the machine-readable results are in summary.json, junit.xml and messages.ndjson beside this file.</p>
</footer>
</main>
</body>
</html>
`;
}

/** 6. One row per official FCS test, in the suite's order, to set beside the suite's export (UK runs only). */
function fcsSection(k: ReportContext): string {
  const { summary, clean } = k;
  const fcs = summary.fcs;
  if (!fcs?.tests?.length) return '';
  const c = fcs.counts ?? {};
  const label = (t: NonNullable<typeof fcs.tests>[number]) => t.status === 'passed' && t.notJudged?.length ? 'pass (in part)' : STATUS_LABEL[t.status ?? ''] ?? t.status ?? '';
  return `<section id="fcs">
<h2>6. The official suite's tests (FCS v${clean(fcs.version)})</h2>
<p class="totals"><b>${c.passed ?? 0}</b> passed · <b>${c.failed ?? 0}</b> failed · <b>${c.notJudged ?? 0}</b> not judged · <b>${c.notApplicable ?? 0}</b> not applicable, of ${fcs.tests.length} test ids, in the suite's order${fcs.source === 'tags' ? ' (ids from the scenarios\' tags: the suite\'s files were not found)' : ''}.</p>
<table class="rules fcs">
<thead><tr><th scope="col">FCS id</th><th scope="col" class="title-col">Test</th><th scope="col" class="variant">Verdict</th><th scope="col">Why, and the obtpp scenario</th></tr></thead>
<tbody>
${fcs.tests.map((t) => `<tr id="${anchor('fcs', t.id ?? '')}">
  <th scope="row" class="rule-id">${clean(t.id)}</th>
  <td class="title-col">${clean(t.test ?? '')}</td>
  <td class="status status-${escapeHtml(t.status ?? 'none')}">${escapeHtml(label(t))}</td>
  <td>${t.reason ? `${clean(t.reason)}<br>` : ''}${t.notJudged?.length ? `<span class="sub">not judged here: ${clean(t.notJudged.join(', '))}</span><br>` : ''}<span class="sub">${clean((t.scenarios ?? []).join('; '))}</span></td>
</tr>`).join('\n')}
</tbody>
</table>
</section>
`;
}

function timeChart(k: ReportContext): string {
  const { summary } = k;
  const t = summary.timeSplit;
  if (!t) return '';
  const parts = ([
    ['auth', 'PSU authorisations', t.authorisationsMs ?? 0],
    ['http', 'HTTP answers', t.httpMs ?? 0],
    ['wait', 'waiting on purpose (expiries)', t.waitingMs ?? 0],
    ['judge', 'judging and the rest', t.judgingMs ?? 0],
  ] as Array<[string, string, number]>).filter(([k, , ms]) => ms > 0 || k !== 'wait');
  const total = parts.reduce((n, [, , ms]) => n + ms, 0);
  if (!total) return '';
  const pct = (ms: number) => Math.round((ms / total) * 1000) / 10;
  return `<div class="time-split" id="time-split"><div class="label">Where the run's time went</div>
<svg class="split-bar" viewBox="0 0 400 14" width="400" height="14" role="img" aria-label="time split"><title>${parts.map(([, name, ms]) => `${name}: ${formatDuration(ms)}`).join(', ')}</title>${(() => {
    let x = 0;
    return parts.map(([k, , ms]) => {
      const w = (ms / total) * 400;
      const r = `<rect class="seg-${k}" x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="14"/>`;
      x += w;
      return r;
    }).join('');
  })()}</svg>
<span class="split-legend">${parts.map(([k, name, ms]) => `<span class="key key-${k}"></span>${escapeHtml(name)} ${escapeHtml(formatDuration(ms))} (${pct(ms)} %)`).join(' · ')}</span></div>`;
}

function sequencesSection(k: ReportContext): string {
  const { summary, clean, variants, ordered } = k;
  const all: Array<{ rule: ReportRule; variant: string; seq: ReportSequence }> = [];
  for (const row of ordered) for (const v of variants) for (const seq of row.cells.get(v.variant)?.sequences ?? []) all.push({ rule: row.cells.get(v.variant)!, variant: v.variant, seq });
  if (!all.length) return '<p class="empty">No scenario recorded its exchanges.</p>';
  // The failed ones first, open; the others folded. The count is bounded, whatever summary.json holds.
  const rank = (x: string | undefined) => (x === 'failed' ? 0 : x === 'not-judged' ? 1 : 2);
  const shown = [...all].sort((a, b) => rank(a.seq.status) - rank(b.seq.status)).slice(0, MAX_PICTURES);
  return `<p class="legend">Each scenario's calls in time order, under the step that made them: the authorisation server's and the bank's answers with their status and time, the PSU's journeys in the browser, and the step that failed marked ✗.</p>
${shown.map(({ rule, variant, seq }) => `<details class="sequence seq-${escapeHtml(seq.status ?? 'unknown')}"${seq.status === 'failed' ? ' open' : ''}><summary><b>${clean(rule.id)}</b> · Variant ${clean(variant)} · ${clean(seq.scenario ?? '')} <span class="sub">${escapeHtml(STATUS_LABEL[seq.status ?? ''] ?? seq.status ?? '')}</span></summary>${sequenceSvg(k, seq)}</details>`).join('\n')}
${all.length > shown.length ? `<p class="empty">${all.length - shown.length} more scenario pictures are in summary.json (not shown, to keep this page small).</p>` : ''}`;
}

/** A scenario as a sequence picture: four lifelines, one band per step, one arrow per call or journey. */
function sequenceSvg(k: ReportContext, seq: ReportSequence): string {
  const { clean } = k;
  // Room right of the bank's lifeline for its answers (status, time, or why there was none).
  const W = 860;
  const X = { TPP: 70, AS: 250, PSU: 440, bank: 630 } as Record<string, number>;
  const steps = (seq.steps ?? []).slice(0, MAX_PICTURE_STEPS);
  const items = (seq.items ?? []).slice(-MAX_PICTURE_ITEMS);
  const failedStep = steps.findIndex((t) => t.status === 'failed');
  const rows: string[] = [];
  let y = 40;
  const ms = (n: number | undefined) => (n === undefined ? '' : n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`);
  const cut = (t: string, n: number) => (t.length > n ? `${t.slice(0, n - 1)}…` : t);
  const arrow = (item: NonNullable<ReportSequence['items']>[number], last: boolean) => {
    if (item.kind === 'pause') {
      const top = y;
      y += 30;
      return `<g class="pause"><rect x="${X.TPP! - 4}" y="${top + 3}" width="8" height="24"/><text x="${X.TPP! + 12}" y="${top + 19}">${clean(cut(`${item.what ?? 'waits'} · ${ms(item.ms)}`, 110))}</text></g>`;
    }
    const to = item.kind === 'journey' ? X.PSU! : X[item.to ?? 'AS'] ?? X.AS!;
    // Red: no answer at all, or a journey that broke; an error status is amber (a rule may demand one).
    const bad = item.kind === 'journey' ? !/^(authorised|rejected|denied)/.test(item.outcome ?? '') : item.error !== undefined;
    const refused = item.kind === 'http' && (item.status ?? 0) >= 400;
    const cls = `arrow${bad ? ' bad' : refused ? ' refused' : ''}${last ? ' failing' : ''}`;
    const label = item.kind === 'journey' ? `PSU journey in the browser${item.outcome ? `: ${item.outcome}` : ''}` : `${item.method ?? '?'} ${item.path ?? ''}`;
    const answer = item.kind === 'journey' ? ms(item.ms) : `${item.error ? `no answer (${item.error})` : item.status ?? '?'} · ${ms(item.ms)}`;
    const top = y;
    y += 34;
    return `<g class="${cls}"><text class="call" x="${X.TPP! + 6}" y="${top + 11}">${clean(cut(label, 110))}</text>`
      + `<line x1="${X.TPP}" y1="${top + 17}" x2="${to - 6}" y2="${top + 17}"/><polygon points="${to},${top + 17} ${to - 7},${top + 13} ${to - 7},${top + 21}"/>`
      + `<line class="back" x1="${to}" y1="${top + 25}" x2="${X.TPP! + 6}" y2="${top + 25}"/>`
      + `<text class="answer" x="${to + 6}" y="${top + 29}">${last ? '✗ ' : ''}${clean(cut(answer, Math.max(12, Math.floor((W - to - 8) / 6.7) - (last ? 2 : 0))))}</text></g>`;
  };
  const before = items.filter((i) => i.step === undefined || i.step >= steps.length);
  if (seq.omitted) rows.push(`<text class="note" x="10" y="${(y += 16) - 4}">${seq.omitted} earlier call${seq.omitted === 1 ? '' : 's'} not shown</text>`);
  if (before.length) {
    rows.push(`<g class="step"><rect x="4" y="${y}" width="${W - 8}" height="20" rx="3"/><text x="12" y="${y + 14}">set-up shared with other scenarios, made before this one started</text></g>`);
    y += 24;
    for (const i of before) rows.push(arrow(i, false));
  }
  steps.forEach((step, index) => {
    const failed = index === failedStep;
    const mark = step.status === 'passed' ? '✓' : failed ? '✗' : '–';
    // A step that did not run (skipped after the failure) has no time worth showing.
    const ran = step.status === 'passed' || failed;
    const suffix = `${ran && step.ms !== undefined ? ` · ${ms(step.ms)}` : ''}${failed ? ' · failed here' : ''}`;
    rows.push(`<g class="step${failed ? ' step-failed' : ''}"><rect x="4" y="${y}" width="${W - 8}" height="20" rx="3"/><text x="12" y="${y + 14}">${mark} ${clean(cut(step.text ?? '', 122 - suffix.length))}${escapeHtml(suffix)}</text></g>`);
    y += 24;
    const mine = items.filter((i) => i.step === index);
    mine.forEach((i, n) => rows.push(arrow(i, failed && n === mine.length - 1)));
  });
  const height = y + 8;
  const heads = Object.entries({ TPP: 'TPP (obtpp)', AS: 'authorisation server', PSU: 'PSU browser', bank: 'bank (resource API)' })
    .map(([k, name]) => `<g class="head"><rect x="${X[k]! - 70}" y="4" width="140" height="22" rx="3"/><text x="${X[k]}" y="19" text-anchor="middle">${name}</text><line class="life" x1="${X[k]}" y1="26" x2="${X[k]}" y2="${height - 4}"/></g>`).join('');
  return `<svg class="seq" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="sequence of ${clean(seq.scenario ?? 'the scenario')}"><title>${clean(seq.scenario ?? 'scenario')}: ${items.length} calls and journeys</title>${heads}${rows.join('')}</svg>`;
}

function bankUrls(k: ReportContext): string {
  const { summary, redactor, localPaths, clean } = k;
  const b = summary.bank;
  // A URL object writes the mask percent-encoded; the reader is shown the mask as it is.
  const masked = (url: string) => escapeHtml(redactor.url(scrubText(url, localPaths)).replace(/%5BREDACTED%5D/g, '[REDACTED]'));
  if (!b || (!b.issuer && !b.baseUrls?.length)) return 'not recorded (an older summary)';
  const lines = [
    ...(b.issuer ? [`authorisation server <span class="mono">${masked(b.issuer)}</span>`] : []),
    ...(b.baseUrls ?? []).map((u) => `${u.variant ? `Variant ${clean(u.variant)}` : ''}${u.api ? ` ${clean(u.api)}` : ''}: <span class="mono">${masked(u.url ?? '')}</span>`),
  ];
  return lines.join('<br>');
}

function cell(k: ReportContext, rule: ReportRule | undefined, variant: string): string {
  const { summary, redactor, clean } = k;
  if (!rule) return '<td class="status status-none">—</td>';
  const status = rule.status ?? 'skipped';
  const label = STATUS_LABEL[status] ?? status;
  const n = rule.warnings?.length ?? 0;
  const warn = n ? `<span class="warn-count">${n} warning${n === 1 ? '' : 's'}</span>` : '';
  const target = status === 'failed' && rule.failures?.length ? anchor('failure', rule.id, variant, '0')
    : status === 'not-judged' ? anchor('not-judged', rule.id, variant, '0') : undefined;
  const text = target ? `<a href="#${target}">${escapeHtml(label)}</a>` : escapeHtml(label);
  // A not-applicable rule says why, in the cell (the bank does not offer it, or the variant lacks it).
  const why = status === 'not-applicable' && rule.reason ? `<span class="why">${clean(rule.reason)}</span>` : '';
  // A rule judged on part of its scenarios says so in the cell, in the summary's words.
  const partial = rule.verdict && ((status === 'passed' && rule.verdict !== 'pass') || ((status === 'failed' || status === 'not-judged') && rule.verdict.includes(';')))
    ? `<span class="why partial">${clean(rule.verdict.replace(/^(pass|FAIL|not judged) /, ''))}</span>` : '';
  const title = why ? rule.reason! : partial ? rule.verdict! : undefined;
  return `<td class="status status-${escapeHtml(status)}${partial ? ' status-partial' : ''}"${title ? ` title="${escapeHtml(redactor.text(title))}"` : ''}>${text}${warn}${why}${partial}</td>`;
}

function finding(k: ReportContext, { rule, variant, finding: f, index }: Located, kind: 'failure' | 'warning' | 'not-judged'): string {
  const { redactor, localPaths, clean } = k;
  const level = f.level ?? rule.level;
  const source = f.source ?? rule.source;
  const ev = f.evidence && typeof f.evidence === 'object' && !Array.isArray(f.evidence) ? (f.evidence as Record<string, unknown>) : undefined;
  const exchanges = Array.isArray(ev?.exchanges) ? (ev!.exchanges as unknown[]) : [];
  const ids = Array.isArray(ev?.interactionIds) ? (ev!.interactionIds as unknown[]).filter((x) => typeof x === 'string') : [];
  const shots = [
    ...(Array.isArray(ev?.screenshots) ? (ev!.screenshots as unknown[]) : []),
    ...(typeof ev?.screenshot === 'string' ? [ev.screenshot] : []),
  ].filter((x): x is string => typeof x === 'string').map(baseName).filter((x, i, all) => x && all.indexOf(x) === i);
  const heading = kind === 'failure' ? 'Failure' : kind === 'warning' ? 'Warning' : 'Not judged';
  const rows: string[] = [];
  if (f.scenario) rows.push(`<div><dt>Scenario</dt><dd>${clean(f.scenario)}</dd></div>`);
  if (f.step) rows.push(`<div><dt>Step</dt><dd>${clean(f.step)}</dd></div>`);
  if (source) rows.push(`<div><dt>Source</dt><dd>${clean(source)}</dd></div>`);
  if (f.blockedBy) rows.push(`<div><dt>Blocked by</dt><dd><a href="#${anchor('rule', f.blockedBy)}">${clean(f.blockedBy)}</a></dd></div>`);
  if (ids.length) rows.push(`<div><dt>x-fapi-interaction-id</dt><dd class="mono">${[...new Set(ids)].map(clean).join('<br>')}</dd></div>`);
  const message = f.message ? scrubText(f.message, localPaths).trim() : '';
  const seq = f.scenario ? rule.sequences?.find((q) => q.scenario === f.scenario) : undefined;
  const picture = seq ? sequenceSvg(k, seq) : '';
  return `<article class="finding finding-${kind}" id="${anchor(kind, rule.id, variant, String(index))}">
<h3><span class="tag tag-${kind}">${heading}</span> ${clean(rule.id)}${rule.title ? ` — ${clean(rule.title)}` : ''} <span class="sub">Variant ${clean(variant)}${level ? ` · ${clean(level)}` : ''}</span></h3>
${rows.length ? `<dl class="facts">${rows.join('')}</dl>` : ''}
${message ? `<div class="message"><div class="label">${kind === 'not-judged' ? 'Cause' : kind === 'warning' ? 'Finding' : 'Expected vs got'}</div><pre>${escapeHtml(redactor.text(message))}</pre></div>` : kind === 'not-judged' ? '<div class="message"><div class="label">Cause</div><p>No cause was recorded.</p></div>' : ''}
${Array.isArray(f.problems) && f.problems.length ? `<div class="problems"><div class="label">Validation problems (${f.problems.length})</div><ol>${f.problems.map((p) => `<li>${clean(p)}</li>`).join('')}</ol></div>` : ''}
${picture ? `<div class="sequence-of"><div class="label">Sequence (TPP → authorisation server → PSU's browser → bank)</div>${picture}</div>` : ''}
${exchanges.length ? `<div class="exchanges"><div class="label">Exchanges (${exchanges.length}, oldest first, redacted)</div>${exchanges.map((x, i) => exchange(k, x, i + 1)).join('\n')}</div>` : ''}
${typeof f.evidence === 'string' && f.evidence.trim() ? `<div class="message"><div class="label">Evidence</div><pre>${clean(f.evidence.slice(0, MAX_BODY))}</pre></div>` : ''}
${typeof ev?.url === 'string' ? `<div class="facts-line">Page: <span class="mono">${escapeHtml(redactor.url(scrubText(ev.url, localPaths)))}</span></div>` : ''}
${shots.length ? `<div class="screenshots"><div class="label">Screenshots of the bank's pages</div>${shots.map((name) => screenshot(k, name)).join('')}</div>` : ''}
</article>`;
}

function screenshot(k: ReportContext, name: string): string {
  const { options } = k;
  const found = options.screenshots?.[name];
  if (found?.dataUri?.startsWith('data:image/')) return `<figure><img src="${escapeHtml(found.dataUri)}" alt="screenshot ${escapeHtml(name)}"><figcaption>${escapeHtml(name)}</figcaption></figure>`;
  if (found?.href) return `<figure><a href="${escapeHtml(found.href)}">${escapeHtml(name)}</a><figcaption>kept beside this report</figcaption></figure>`;
  return `<figure><span class="mono">${escapeHtml(name)}</span><figcaption>file not kept with this report</figcaption></figure>`;
}

function exchange(k: ReportContext, raw: unknown, n: number): string {
  const { redactor, clean } = k;
  if (!raw || typeof raw !== 'object') return '';
  const x = raw as Record<string, any>;
  const method = typeof x.method === 'string' ? x.method : '?';
  const url = typeof x.url === 'string' ? redactor.url(x.url) : '';
  const res = x.response && typeof x.response === 'object' ? x.response : undefined;
  const outcome = res ? `${str(res.status) ?? '?'}` : `no response${x.error?.message ? `: ${x.error.message}` : ''}`;
  const ms = typeof x.timings?.durationMs === 'number' ? ` · ${x.timings.durationMs} ms` : '';
  const bad = !res || Number(res.status) >= 400;
  return `<div class="exchange">
<div class="exchange-line"><span class="n">#${n}</span> <b>${clean(method)}</b> <span class="mono url">${clean(url)}</span> <span class="outcome${bad ? ' outcome-bad' : ''}">→ ${clean(outcome)}${escapeHtml(ms)}</span></div>
<div class="exchange-parts">
<div class="part"><div class="part-title">Request</div>${headers(k, x.request?.headers)}${body(k, x.request?.body)}</div>
<div class="part"><div class="part-title">Response${res ? ` ${clean(res.status)}` : ''}</div>${res ? headers(k, res.headers) + body(k, res.body) : `<p>${clean(x.error?.message ?? 'no response')}</p>`}</div>
</div>
</div>`;
}

function headers(k: ReportContext, h: unknown): string {
  const { redactor, clean } = k;
  if (!h || typeof h !== 'object') return '';
  const safe = redactor.headers(h as Record<string, string>);
  const entries = Object.entries(safe);
  if (!entries.length) return '';
  return `<table class="headers"><tbody>${entries.map(([k, v]) => `<tr><th>${clean(k)}</th><td>${clean(v)}</td></tr>`).join('')}</tbody></table>`;
}

function body(k: ReportContext, b: unknown): string {
  const { redactor, clean } = k;
  if (b === undefined || b === null || b === '') return '';
  let text = typeof b === 'string' ? b : JSON.stringify(redactor.json(b), null, 2);
  let cut = '';
  if (text.length > MAX_BODY) {
    cut = `\n… ${text.length - MAX_BODY} more characters not shown`;
    text = text.slice(0, MAX_BODY);
  }
  return `<pre class="body">${clean(text + cut)}</pre>`;
}

/**
 * Writes report.html into `reportDir`: the screenshots the findings name are read from the
 * report's evidence/ folder and embedded (a very large one is linked instead). The file appears
 * whole or not at all (written beside, then renamed).
 */
export async function writeHtmlReport(
  reportDir: string,
  summary: ReportSummary,
  options: HtmlReportOptions & { maxEmbedBytes?: number } = {},
): Promise<void> {
  const maxEmbed = options.maxEmbedBytes ?? 4 * 1024 * 1024;
  const names = new Set<string>();
  for (const v of normalise(summary).variants ?? []) {
    for (const r of v.rules ?? []) {
      for (const f of [...(r?.failures ?? []), ...(r?.warnings ?? []), ...(r?.notJudged ?? [])]) {
        const ev = f?.evidence as { screenshots?: unknown; screenshot?: unknown } | undefined;
        if (!ev || typeof ev !== 'object') continue;
        for (const s of [...(Array.isArray(ev.screenshots) ? ev.screenshots : []), ev.screenshot]) if (typeof s === 'string') names.add(baseName(s));
      }
    }
  }
  const screenshots: NonNullable<HtmlReportOptions['screenshots']> = { ...options.screenshots };
  for (const name of names) {
    if (!name || screenshots[name] || name.startsWith('.')) continue;
    const file = join(reportDir, 'evidence', name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) continue;
    const type = /\.jpe?g$/i.test(name) ? 'image/jpeg' : /\.png$/i.test(name) ? 'image/png' : undefined;
    if (type && info.size <= maxEmbed) screenshots[name] = { dataUri: `data:${type};base64,${(await readFile(file)).toString('base64')}` };
    else screenshots[name] = { href: `evidence/${encodeURIComponent(name)}` };
  }
  const localPaths = [...(options.localPaths ?? []), reportDir, homedir(), tmpdir()];
  const html = renderHtmlReport(summary, { ...options, screenshots, localPaths });
  const target = join(reportDir, 'report.html');
  const partial = `${target}.partial`;
  await writeFile(partial, html);
  await rename(partial, target);
}

let css: string | undefined;
/**
 * The report's stylesheet, report.css beside this module (the build copies it into dist/; a build
 * by tsc alone finds it in the sources).
 */
function stylesheet(): string {
  for (const at of ['./report.css', '../../../src/conformance/report.css']) {
    try {
      return (css ??= readFileSync(new URL(at, import.meta.url), 'utf8'));
    } catch {
      // The next place.
    }
  }
  throw new Error('report.css is missing beside html-report.js: build with npm run build');
}

