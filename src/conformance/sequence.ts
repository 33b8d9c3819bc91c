import type { Exchange } from '../client/exchange.ts';
import type { JourneyNote } from './context.ts';

/*
 * A scenario's exchanges as a sequence (TPP → authorisation server → PSU's browser → bank), for the
 * report's picture of each scenario, and the run's time split. The step definitions record what
 * each scenario sent and the journeys it needed; the summary places each item under the step it
 * happened in (by time) and marks the step that failed.
 */

/** Attachment media type of a scenario's sequence (read back by the summary writer). */
export const SEQUENCE_MEDIA_TYPE = 'application/vnd.obtpp.sequence+json';

/** At most this many items of a scenario are kept (the latest: a failure is at the end). */
export const MAX_SEQUENCE_ITEMS = 24;
const MAX_PATH = 120;

/** One arrow of the picture: a call to the authorisation server or the bank, or a PSU journey. */
export type SequenceItem =
  | { kind: 'http'; to: 'AS' | 'bank'; method: string; path: string; status?: number; error?: string; at: string; ms: number; step?: number }
  | { kind: 'journey'; to: 'PSU'; outcome: string; at: string; ms: number; step?: number }
  /** A deliberate wait of the TPP's (a consent's expiry before its probe). */
  | { kind: 'pause'; to: 'TPP'; what: string; at: string; ms: number; step?: number };

/** A deliberate wait a scenario made, as it recorded it. */
export interface PauseNote {
  what: string;
  startedAt: string;
  durationMs: number;
}

/** A scenario's picture, as summary.json carries it. */
export interface ScenarioSequence {
  scenario: string;
  status: string;
  /** The scenario's steps in order, with their outcome and duration; `failed` marks the one that broke. */
  steps: Array<{ text: string; status: string; ms?: number }>;
  /** The arrows, oldest first; `step` is the index in `steps` (absent: a set-up shared with other scenarios, done before). */
  items: SequenceItem[];
  /** How many earlier items were left out (the cap). */
  omitted?: number;
}

/** What a scenario attaches: every item with its time, not yet placed under a step. */
export interface SequenceAttachment {
  items: SequenceItem[];
}

/**
 * The items of one scenario: its exchanges (the authorisation server's or the bank's, told apart by
 * the bank's resource base URLs) and the PSU journeys for the consents it touched (an id the
 * exchanges name, in a URL or a creation answer).
 */
export function sequenceItems(exchanges: readonly Exchange[], journeys: readonly JourneyNote[], bankBases: readonly string[], pauses: readonly PauseNote[] = []): SequenceItem[] {
  const items: SequenceItem[] = pauses.map((p) => ({ kind: 'pause', to: 'TPP', what: p.what.slice(0, 200), at: p.startedAt, ms: p.durationMs }));
  for (const ex of exchanges) {
    const bank = bankBases.some((base) => ex.url.startsWith(base) && (ex.url.length === base.length || '/?#'.includes(ex.url[base.length]!)));
    // The path and query (the header of the report gives the base URLs); the host too where the
    // authorisation server lives apart from the bank's API.
    let path = ex.url;
    try {
      const u = new URL(ex.url);
      const apart = !bank && !bankBases.some((b) => b.startsWith(u.origin));
      path = `${apart ? u.host : ''}${u.pathname}${u.search}`;
    } catch {
      // Not a URL: shown as captured.
    }
    items.push({
      kind: 'http', to: bank ? 'bank' : 'AS', method: ex.method,
      path: path.slice(0, MAX_PATH),
      ...(ex.response ? { status: ex.response.status } : { error: (ex.error?.code ?? 'no response').slice(0, 60) }),
      at: ex.timings.startedAt, ms: ex.timings.durationMs,
    });
  }
  if (exchanges.length && journeys.length) {
    // A journey belongs to the scenario when its exchanges name its consent (a URL, or the answer that created it).
    const texts = exchanges.map((ex) => `${ex.url}\n${ex.method === 'POST' && ex.response && ex.response.status < 300 ? JSON.stringify(ex.response.body ?? '') : ''}`);
    const first = Math.min(...exchanges.map((ex) => Date.parse(ex.timings.startedAt)));
    for (const j of journeys) {
      if (Date.parse(j.startedAt) + j.durationMs < first) continue;
      if (j.intentId && texts.some((t) => t.includes(j.intentId))) items.push({ kind: 'journey', to: 'PSU', outcome: j.outcome.slice(0, 200), at: j.startedAt, ms: j.durationMs });
    }
  }
  return items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/**
 * The picture of a scenario: each item placed under the step whose time it falls in, the latest
 * {@link MAX_SEQUENCE_ITEMS} kept.
 */
export function placeSequence(
  scenario: string,
  status: string,
  steps: Array<{ text: string; status: string; startedMs?: number; finishedMs?: number }>,
  items: SequenceItem[],
): ScenarioSequence {
  const placed = items.map((item) => {
    const at = Date.parse(item.at);
    // The step that was running when the item started; before the first step: a shared set-up.
    let step: number | undefined;
    steps.forEach((s, i) => {
      if (s.startedMs !== undefined && at >= s.startedMs - 1) step = i;
    });
    return step === undefined ? item : { ...item, step };
  });
  const omitted = Math.max(0, placed.length - MAX_SEQUENCE_ITEMS);
  return {
    scenario,
    status,
    steps: steps.map((s) => ({ text: s.text, status: s.status, ...(s.startedMs !== undefined && s.finishedMs !== undefined ? { ms: Math.max(0, s.finishedMs - s.startedMs) } : {}) })),
    items: placed.slice(omitted),
    ...(omitted ? { omitted } : {}),
  };
}

/** Total length of the union of intervals (`[start, end]` in ms), each instant counted once. */
function unionMs(intervals: Array<[number, number]>): number {
  const sorted = intervals.filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let [curA, curB] = [Number.NaN, Number.NaN];
  for (const [a, b] of sorted) {
    if (Number.isNaN(curA) || a > curB) {
      if (!Number.isNaN(curA)) total += curB - curA;
      [curA, curB] = [a, b];
    } else curB = Math.max(curB, b);
  }
  if (!Number.isNaN(curA)) total += curB - curA;
  return total;
}

/**
 * The run's wall time split by what it waited for, each instant counted once even when work ran
 * side by side: inside a PSU journey (authorisations), else waiting on an HTTP answer (HTTP), else
 * the rest (starting up, judging, writing the reports).
 */
export function timeSplit(items: Iterable<SequenceItem>, durationMs: number): { authorisationsMs: number; httpMs: number; waitingMs: number; judgingMs: number } {
  const journeys: Array<[number, number]> = [];
  const http: Array<[number, number]> = [];
  const pauses: Array<[number, number]> = [];
  const seen = new Set<string>();
  for (const item of items) {
    const key = `${item.kind}|${item.at}|${item.ms}|${item.kind === 'http' ? item.path : ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const a = Date.parse(item.at);
    (item.kind === 'journey' ? journeys : item.kind === 'pause' ? pauses : http).push([a, a + item.ms]);
  }
  // Each instant counted once, in this order: a journey, else an HTTP answer, else a deliberate wait.
  const authorisationsMs = Math.round(unionMs(journeys));
  const httpMs = Math.max(0, Math.round(unionMs([...journeys, ...http]) - authorisationsMs));
  const waitingMs = Math.max(0, Math.round(unionMs([...journeys, ...http, ...pauses]) - authorisationsMs - httpMs));
  const total = Math.max(durationMs, authorisationsMs + httpMs + waitingMs);
  return { authorisationsMs, httpMs, waitingMs, judgingMs: Math.max(0, Math.round(total - authorisationsMs - httpMs - waitingMs)) };
}
