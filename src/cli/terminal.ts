/**
 * Text for the terminal. Whatever came from outside (a bank's error description, an id, a name, a
 * tppMessage, a profile's value) may carry control characters: ESC sequences that recolour,
 * move the cursor or rewrite the title, a carriage return that overwrites a line, a newline that
 * fakes a line of obtpp's own, bidi overrides that reorder what is shown. What the CLI writes of
 * it passes through here (Out's line/block/note/document, the errors runCli prints, conform's
 * reporter, diff and verify): such characters are shown escaped (`\x1b`, `\u202e`), never sent.
 *
 * obtpp's own colours are painted with private-use markers (see `painter`) and turned into ESC
 * sequences only after the text was made safe, so that no outside text can reach the terminal
 * as a control sequence, not even one that looks like a colour.
 */

let mark: string | undefined;
/**
 * Marks where obtpp's own ESC goes: random per process and never written as such, so that no
 * outside text can contain it. Made when first needed: node:crypto is then loaded, not at every
 * start (`obtpp --help` writes no outside text).
 */
function MARK(): string {
  return (mark ??= `\uE000${process.getBuiltinModule('node:crypto').randomBytes(8).toString('hex')}\uE001`);
}
// C0 (but newline and tab), DEL, C1, bidi embeddings/overrides/isolates.
// eslint-disable-next-line no-control-regex
const UNSAFE_BLOCK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_INLINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Outside text that must stay on one line: every control character (newlines too) shown escaped. */
export function inline(text: string): string {
  return text.replace(UNSAFE_INLINE, visible);
}

/** Text of several lines of obtpp's own making: newlines and tabs kept, every other control character shown escaped. */
export function block(text: string): string {
  return text.replace(UNSAFE_BLOCK, visible);
}

/**
 * What is finally written: `text` made safe (`inline` for a line, `block` for several), then
 * obtpp's own colour markers turned into ESC. The only function that may emit an ESC.
 */
export function forTerminal(text: string, lines: 'inline' | 'block' = 'block'): string {
  return text.split(MARK()).map(lines === 'inline' ? inline : block).join('\u001b');
}

/**
 * Wraps a chalk-like painter so that its ESC sequences become markers (restored by `forTerminal`),
 * and the text it paints is made safe first (so that no ESC inside it can become a marker).
 */
export function painter<P extends object>(chalk: P, names: ReadonlyArray<keyof P & string>): P {
  const out: Record<string, (s: string) => string> = {};
  for (const name of names) {
    const paint = (chalk as Record<string, (s: string) => string>)[name]!.bind(chalk);
    out[name] = (s: string) => paint(String(s).split('\u001b').join('\\x1b')).split('\u001b').join(MARK());
  }
  return out as unknown as P;
}

/** JSON for stdout: JSON.stringify escapes C0 but not DEL, C1 or bidi controls; these are escaped too. */
export function jsonForTerminal(value: unknown, space = 2): string {
  return JSON.stringify(value, null, space).replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
