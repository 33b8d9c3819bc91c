/** Median, min and max of a list of milliseconds. */
export function stats(ms: number[]): { runs: number; medianMs: number; minMs: number; maxMs: number } {
  const s = [...ms].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { runs: s.length, medianMs: median, minMs: s[0]!, maxMs: s[s.length - 1]! };
}
