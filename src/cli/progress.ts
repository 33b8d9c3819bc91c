/*
 * What a conformance run is waiting for, told while it waits: a PSU journey in the browser, the
 * bank's answer, a consent's expiry before its probe. In a terminal, the spinner's text says it
 * (with the seconds waited); in CI or a pipe, a plain line, only for a wait that lasts, and at most
 * one between two scenario lines, so a log grows no faster than a line per scenario.
 */

/** A wait as the runner tells it (runner.ts's `wait` event). */
export interface WaitEvent {
  id: number;
  state: 'start' | 'end';
  kind: 'journey' | 'answer' | 'expiry';
  what: string;
}

export interface WaitProgressOptions {
  /** A terminal: the spinner whose text is extended with the wait. */
  spinner?: { text: string };
  /** CI or a pipe: where a plain line goes. */
  write?: (line: string) => void;
  /** A plain line is written once a wait has lasted this long. Default 10 s. */
  plainAfterMs?: number;
  /** The spinner shows the bank's answer once it has been awaited this long (quick answers would flicker). Default 500 ms. */
  answerAfterMs?: number;
  now?: () => number;
  /** Makes a text safe for the terminal (a consent id is the bank's text). Default: as it is. */
  clean?: (text: string) => string;
}

export class WaitProgress {
  private readonly active = new Map<number, { kind: WaitEvent['kind']; what: string; since: number }>();
  private readonly o: WaitProgressOptions;
  private readonly now: () => number;
  /** The spinner's own text (the run's count and last scenario), without the wait. */
  private base = '';
  /** Whether a plain wait line was written since the last scenario finished. */
  private told = false;
  private timer?: ReturnType<typeof setInterval>;

  constructor(options: WaitProgressOptions) {
    this.o = options;
    this.now = options.now ?? Date.now;
    this.base = options.spinner?.text ?? '';
  }

  /** Starts refreshing once a second (the seconds waited, the plain line when due). */
  start(): this {
    this.timer ??= setInterval(() => this.tick(), 1_000);
    this.timer.unref?.();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.active.clear();
  }

  wait(event: WaitEvent): void {
    if (event.state === 'start') this.active.set(event.id, { kind: event.kind, what: this.o.clean ? this.o.clean(event.what) : event.what, since: this.now() });
    else this.active.delete(event.id);
    this.tick();
  }

  /** A scenario finished: the caller has written its line or set the spinner's text, which becomes the base. */
  scenario(): void {
    this.told = false;
    this.rebase();
  }

  /** The spinner's text was set by the caller (a note, a scenario): kept as the base the wait is added to. */
  rebase(): void {
    if (this.o.spinner) this.base = this.o.spinner.text;
    this.tick();
  }

  /** What is waited for now, in words, or undefined: the longest wait worth telling. */
  current(): string | undefined {
    const now = this.now();
    const shown = [...this.active.values()]
      .filter((w) => w.kind !== 'answer' || now - w.since >= (this.o.answerAfterMs ?? 500))
      // A journey or an expiry is the reason for a long wait; an answer inside it is not.
      .sort((a, b) => rank(a.kind) - rank(b.kind) || a.since - b.since);
    const w = shown[0];
    return w ? `waiting ${Math.floor((now - w.since) / 1000)} s for ${w.what}` : undefined;
  }

  tick(): void {
    const now = this.now();
    if (this.o.spinner) {
      const wait = this.current();
      this.o.spinner.text = wait ? `${this.base}${this.base ? ' — ' : ''}${wait}` : this.base;
      return;
    }
    if (!this.o.write || this.told) return;
    const longest = [...this.active.values()].sort((a, b) => rank(a.kind) - rank(b.kind) || a.since - b.since)[0];
    if (!longest || now - longest.since < (this.o.plainAfterMs ?? 10_000)) return;
    this.told = true;
    this.o.write(`  … waiting ${Math.floor((now - longest.since) / 1000)} s for ${longest.what}`);
  }
}

function rank(kind: WaitEvent['kind']): number {
  return kind === 'journey' ? 0 : kind === 'expiry' ? 1 : 2;
}
