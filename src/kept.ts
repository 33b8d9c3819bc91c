/**
 * What a process works out once and shares: a promise per key (keys, certificates, digests,
 * libraries), and values computed from texts, kept within a bound.
 */

/**
 * A promise per key, made at the first call and given to every later one. A promise that rejects
 * is forgotten, so the next call makes it again; with `maxAgeMs`, so is one made longer ago.
 */
export class KeptPromises<K, V> {
  private readonly made = new Map<K, { at: number; value: Promise<V> }>();
  private readonly options: { maxAgeMs?: number };

  constructor(options: { maxAgeMs?: number } = {}) {
    this.options = options;
  }

  get(key: K, make: () => Promise<V>): Promise<V> {
    const kept = this.made.get(key);
    const { maxAgeMs } = this.options;
    if (kept && (maxAgeMs === undefined || Date.now() - kept.at < maxAgeMs)) return kept.value;
    const entry = { at: Date.now(), value: make() };
    this.made.set(key, entry);
    entry.value.catch(() => this.made.get(key) === entry && this.made.delete(key));
    return entry.value;
  }
}

/** Values computed once per key (a text, say), at most `max` of them: a new key past that drops the oldest. */
export class KeptValues<V> {
  private readonly made = new Map<string, V>();
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  get(key: string, make: () => V): V {
    if (this.made.has(key)) return this.made.get(key)!;
    const value = make();
    if (this.made.size >= this.max) this.made.delete(this.made.keys().next().value!);
    this.made.set(key, value);
    return value;
  }
}
