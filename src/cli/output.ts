/**
 * Printing for the terminal client: one JSON document on stdout with --json; otherwise tables
 * (colours only when io.color), spinners on stderr only on an interactive terminal, and with
 * --verbose every redacted exchange on stderr as it happens.
 */
import type { Io } from './io.ts';
import type { Exchange } from '../client/exchange.ts';
import { exchangeLine } from '../client/exchange.ts';
import { forTerminal, inline, jsonForTerminal, painter } from './terminal.ts';

/** The flags every session command takes (see withCommon). */
export interface CommonFlags {
  profile?: string;
  json?: boolean;
  verbose?: boolean;
  state?: string;
  variant?: string;
}

/** A minimal colour API (chalk's shape), so that plain output needs no chalk at all. */
export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const plain: Paint = { bold: (s) => s, dim: (s) => s, green: (s) => s, red: (s) => s, yellow: (s) => s, cyan: (s) => s };

export interface Out {
  io: Io;
  json: boolean;
  c: Paint;
  /** Writes the one JSON document (only with --json). */
  document(value: unknown): void;
  /** A line on stdout (human output only): a newline or control character in it is shown escaped. */
  line(text?: string): void;
  /** Several lines on stdout (a table): newlines kept, other control characters escaped (cells are escaped by `table`). */
  block(text: string): void;
  /** A note on stderr (human output only), one line like `line`. */
  note(text: string): void;
  /**
   * The last line of redaction: every text written passes through it (the session's redactor, set
   * by withSession), so a secret a server echoed into a value the command prints is scrubbed.
   */
  redact: (text: string) => string;
  /** Set by the few commands whose job is to print a secret (token show, register show --reveal). */
  revealSecrets: boolean;
  /** Runs `work` under a spinner (interactive terminal, no --json), or silently. */
  step<T>(text: string, work: () => Promise<T>, done?: (value: T) => string): Promise<T>;
  /** Progress of a multi-step command: a ✓ line on stderr per step (none with --json). */
  progress: boolean;
  /** Passed to the session: prints each redacted exchange with --verbose. */
  onExchange?: (exchange: Exchange) => void;
}

export async function makeOut(io: Io, flags: CommonFlags, options: { progress?: boolean } = {}): Promise<Out> {
  const json = flags.json === true;
  let c = plain;
  if (io.color) {
    const { Chalk } = await import('chalk');
    c = painter(new Chalk({ level: 1 }) as unknown as Paint, ['bold', 'dim', 'green', 'red', 'yellow', 'cyan']);
  }
  const spinning = io.interactive && !json;
  const ora = spinning ? (await import('ora')).default : undefined;
  const progress = options.progress === true && !json;
  const scrub = (text: string) => (out.revealSecrets ? text : out.redact(text));
  const out: Out = {
    io,
    json,
    c,
    progress,
    redact: (text) => text,
    revealSecrets: false,
    document: (value) => void io.stdout.write(scrub(jsonForTerminal(value)) + '\n'),
    line: (text = '') => void (!json && io.stdout.write(forTerminal(scrub(text), 'inline') + '\n')),
    block: (text) => void (!json && io.stdout.write(forTerminal(scrub(text), 'block') + '\n')),
    note: (text) => void (!json && io.stderr.write(forTerminal(scrub(text), 'inline') + '\n')),
    async step(text, work, done) {
      if (ora) {
        // ora paints its frame and its ✔/✖ with its own chalk, which knows nothing of NO_COLOR: the
        // frame is left unpainted and the marks are obtpp's own, painted only under the colour policy.
        const spinner = ora({ text: forTerminal(scrub(text), 'inline'), stream: io.stderr as NodeJS.WriteStream, isEnabled: true, color: io.color ? 'cyan' : false }).start();
        try {
          const value = await work();
          if (progress) spinner.stopAndPersist({ symbol: forTerminal(c.green('✓')), text: forTerminal(scrub(done ? done(value) : text), 'inline') });
          else spinner.stop();
          return value;
        } catch (error) {
          spinner.stopAndPersist({ symbol: forTerminal(c.red('✗')), text: forTerminal(scrub(text), 'inline') });
          throw error;
        }
      }
      const value = await work();
      if (progress) io.stderr.write(forTerminal(scrub(`${c.green('✓')} ${done ? done(value) : text}`), 'inline') + '\n');
      return value;
    },
  };
  // Already redacted at capture; shown escaped (an answer's text may carry control characters).
  if (flags.verbose) out.onExchange = (ex) => io.stderr.write(forTerminal(scrub(renderExchange(ex, c)), 'block') + '\n');
  return out;
}

/** An exchange as --verbose shows it: the line, then request and response headers and bodies (already redacted). */
export function renderExchange(ex: Exchange, c: Paint = plain): string {
  const lines = [c.cyan(`» ${exchangeLine(ex)}`)];
  for (const [k, v] of Object.entries(ex.request.headers)) lines.push(c.dim(`  > ${k}: ${v}`));
  if (ex.request.body !== undefined) lines.push(indent(typeof ex.request.body === 'string' ? ex.request.body : JSON.stringify(ex.request.body, null, 2), '  > '));
  if (ex.response) {
    for (const [k, v] of Object.entries(ex.response.headers)) lines.push(c.dim(`  < ${k}: ${v}`));
    if (ex.response.body !== undefined) lines.push(indent(typeof ex.response.body === 'string' ? ex.response.body : JSON.stringify(ex.response.body, null, 2), '  < '));
  }
  return lines.join('\n');
}

function indent(text: string, prefix: string): string {
  return text.split('\n').map((l) => prefix + l).join('\n');
}

/** A plain text table: a header row (bold) and the rows, columns padded to their widest cell. */
export function table(headers: string[], rows: Array<Array<string | undefined>>, c: Paint = plain): string {
  // A cell is one line whatever the bank put in it: its control characters (newlines too) are shown escaped.
  const cells = rows.map((r) => headers.map((_h, i) => inline(r[i] ?? '')));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd();
  return [c.bold(fmt(headers)), ...cells.map(fmt)].join('\n');
}

/** Reads a nested string member, tolerant of any shape. */
export function str(o: unknown, ...path: string[]): string | undefined {
  let v: unknown = o;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** The first element of a nested list member, when there is one. */
export function first(o: unknown, key: string): unknown {
  const v = o && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined;
  return Array.isArray(v) ? v[0] : v;
}
