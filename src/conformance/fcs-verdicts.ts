/**
 * One verdict per official test: the FCS ids of a run's version, each passed, failed, not judged or
 * not applicable (with the reason), in the suite's order, from the verdicts of the scenarios tagged
 * with it. A bank sets this list beside the suite's own export. The map (fcs-map.ts) gives the ids,
 * their order, the tests' words and the ids the suite makes inapplicable; without the suite's files
 * (an installed obtpp, no $OBTPP_FCS_DIR) the ids come from the scenarios' tags alone.
 */
import type { FcsMap, FcsVersion } from './fcs-map.ts';

export type FcsStatus = 'passed' | 'failed' | 'not-judged' | 'not-applicable';

/** One official test's verdict in a run. */
export interface FcsVerdict {
  id: string;
  /** The suite's test in words (`GET /accounts: Minimal data returned …`), where its files were read. */
  test?: string;
  status: FcsStatus;
  /** Failed: the first finding; not judged or not applicable: why. */
  reason?: string;
  /** The scenarios that stand for it (`UKAIS-10: the first account … (Examples name)`). */
  scenarios: string[];
  /** Judged in part only (`@fcs-partial:`): the kinds of its assertions no scenario judged. */
  notJudged?: string[];
}

/** The FCS section of summary.json. */
export interface FcsSection {
  version: FcsVersion;
  /** Where the ids came from: the suite's files (every id, in the suite's order), or the scenarios' tags only (ids sorted). */
  source: 'manifests' | 'tags';
  counts: { passed: number; failed: number; notJudged: number; notApplicable: number };
  tests: FcsVerdict[];
}

/** A scenario as it came out of the run, with what the FCS list needs of it. */
export interface FcsRun {
  tags: readonly string[];
  /** `UKAIS-10: the first account … (Examples name)`. */
  name: string;
  status: 'passed' | 'failed' | 'not-judged' | 'not-applicable' | 'skipped';
  /** The failure's message, the not-judged cause or the not-applicable reason. */
  reason?: string;
}

/** Which tags stand for a version's tests when the suite's files are not at hand (v4.0 reuses some v3.1.x ids). */
const OF_VERSION: Readonly<Record<FcsVersion, RegExp>> = { '3.1': /^OB-3\d\d-/, '4.0': /^OB-(4\d\d|31[1-9])-/ };

const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0]!.trim();

/** The run's verdict per FCS id of its version. */
export function fcsVerdicts(version: FcsVersion, runs: readonly FcsRun[], map?: FcsMap): FcsSection {
  const ids = map
    ? map.entries.map((e) => e.id)
    : [...new Set(runs.flatMap((r) => r.tags.map((t) => /^@fcs(?:-partial)?:(.+)$/.exec(t)?.[1]).filter((id): id is string => !!id && OF_VERSION[version].test(id))))].sort();
  const tests = ids.map((id): FcsVerdict => {
    const entry = map?.entries.find((e) => e.id === id);
    const test = entry ? entry.tests.map((t) => `${t.method} ${t.uri}: ${t.description}`).join('; ') : undefined;
    const mine = runs.filter((r) => r.tags.includes(`@fcs:${id}`) || r.tags.includes(`@fcs-partial:${id}`));
    const whole = runs.some((r) => r.tags.includes(`@fcs:${id}`));
    const notJudgedKinds = entry && entry.status === 'partial' ? [...new Set(entry.partial.concat(entry.covers).flatMap((c) => c.missing ?? []))] : undefined;
    const base = { id, ...(test ? { test } : {}), scenarios: mine.map((r) => r.name), ...(mine.length && !whole && notJudgedKinds?.length ? { notJudged: notJudgedKinds } : {}) };
    if (entry?.status === 'not-applicable') return { ...base, status: 'not-applicable', reason: entry.reason };
    if (!mine.length) {
      return { ...base, status: 'not-judged', reason: entry && entry.status === 'not-covered' ? 'obtpp has no scenario for it yet' : 'not selected in this run (--tags)' };
    }
    const failed = mine.find((r) => r.status === 'failed');
    if (failed) return { ...base, status: 'failed', reason: firstLine(failed.reason) || 'failed' };
    const unjudged = mine.find((r) => r.status === 'not-judged' || r.status === 'skipped');
    if (unjudged) return { ...base, status: 'not-judged', reason: firstLine(unjudged.reason) || 'the scenario was not judged' };
    if (mine.every((r) => r.status === 'not-applicable')) return { ...base, status: 'not-applicable', reason: firstLine(mine[0]!.reason) || 'not applicable' };
    return { ...base, status: 'passed' };
  });
  const count = (s: FcsStatus) => tests.filter((t) => t.status === s).length;
  return { version, source: map ? 'manifests' : 'tags', counts: { passed: count('passed'), failed: count('failed'), notJudged: count('not-judged'), notApplicable: count('not-applicable') }, tests };
}

/** A verdict in the words every report uses: `pass`, `FAIL: …`, `not judged: …`, `not applicable: …`. */
export function fcsVerdictText(v: FcsVerdict): string {
  const part = v.notJudged?.length ? ` (in part: ${v.notJudged.join(', ')} not judged)` : '';
  switch (v.status) {
    case 'passed': return `pass${part}`;
    case 'failed': return `FAIL: ${v.reason ?? ''}`;
    case 'not-judged': return `not judged: ${v.reason ?? ''}`;
    default: return `not applicable: ${v.reason ?? ''}`;
  }
}

/** The counts of a section in one line. */
export function fcsCountsLine(s: FcsSection): string {
  const n = s.tests.length;
  return `FCS v${s.version}: ${n} test ids — ${s.counts.passed} passed, ${s.counts.failed} failed, ${s.counts.notJudged} not judged, ${s.counts.notApplicable} not applicable${s.source === 'tags' ? ' (ids from the scenarios\' tags: the suite\'s files were not found; set OBTPP_FCS_DIR)' : ''}`;
}
