/**
 * Text that came from outside obtpp — a bank's error code, message, header, id or body — on a line
 * of obtpp's own (a finding, an error, a CLI line). Such text may carry a newline followed by a
 * line that looks like obtpp's (`…\nPASS  AIS-01 …`), a carriage return that overwrites, ESC
 * sequences, C1 controls, Unicode line separators or bidi overrides. Wherever obtpp quotes it, it
 * passes through here: it stays on the line it was quoted in, and it is visibly a quotation.
 *
 * - `quoteOutside` is the quoting: plain printable ASCII (a code, a number, a URL) as it is, any
 *   other text as a JSON string literal (double quotes, `\n`, `\u001b`, `\u202e` …) from which
 *   every byte of the bank's can be read back.
 * - `keepOnLine` is what a finding's constructor applies to each of its lines
 *   (step-definitions/support/world.ts): whatever reached a line without being quoted still cannot
 *   break it. A finding's line breaks are therefore only those obtpp wrote, and every output made
 *   from findings (the console, summary.md, the CI annotations, JUnit, HTML) inherits that.
 *
 * The terminal's own last line of defence (control characters written escaped, src/cli/terminal.ts)
 * stays where the CLI writes.
 */

/**
 * Characters that can break, rewrite or reorder a line: C0 (newline and tab included), DEL, C1
 * (NEL among them), the Unicode line and paragraph separators, and the bidi marks, embeddings,
 * overrides and isolates.
 */
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves as it is of LINE_BREAKING (it escapes C0 itself). */
const LEFT_BY_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Plain: printable ASCII, no quote or backslash, not empty, no space at either end. */
const PLAIN = /^[\x21\x23-\x5b\x5d-\x7e](?:[\x20\x21\x23-\x5b\x5d-\x7e]*[\x21\x23-\x5b\x5d-\x7e])?$/;

function escaped(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every character that could break, rewrite or reorder its line shown escaped (`\n`, `\u001b`); the rest unchanged. */
export function keepOnLine(text: string): string {
  return String(text).replace(LINE_BREAKING, escaped);
}

/**
 * A value as JSON for a message (`"Enabled"`, `12.5`, `{"a":1}`), with what JSON.stringify leaves
 * unescaped (DEL, C1, line separators, bidi controls) escaped too: one line, valid JSON.
 */
export function jsonOutside(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = keepOnLine(String(value));
  }
  return text.replace(LEFT_BY_JSON, escaped);
}

/**
 * Outside text quoted for a line of obtpp's: as it is when plain (printable ASCII, no quote or
 * backslash, no space at either end), else as a JSON string literal (`"UK.OBIE.Field.Invalid\nPASS …"`).
 * With `max`, text longer than that is cut (before quoting) and marked with `…`.
 */
export function quoteOutside(text: string, max?: number): string {
  const s = String(text);
  const cut = max !== undefined && s.length > max;
  const kept = cut ? s.slice(0, max) : s;
  return (PLAIN.test(kept) ? kept : jsonOutside(kept)) + (cut ? '…' : '');
}

/**
 * A message of several lines of obtpp's making (a string is one line): each line kept on its line,
 * then joined with obtpp's own line breaks.
 */
export function linesOf(lines: string | readonly string[]): string {
  return (typeof lines === 'string' ? [lines] : lines).map(keepOnLine).join('\n');
}
