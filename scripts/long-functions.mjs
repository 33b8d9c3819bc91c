// Lists the functions of src/ and step-definitions/ longer than a number of lines (default 60),
// longest first, with their file and line: the house's "functions of one concern" (docs/house.md).
//
//   node scripts/long-functions.mjs [LINES] [--count] [--root DIR]
//
// A function whose comment gives the reason it is long (a line with `Long:` in the comment right
// above it) is listed as such, and `--count` counts only the others.
//
// A function is a body in braces after a parameter list (a declaration, a method, an accessor, a
// constructor, a function expression) or after `=>` (a nested one is counted on its own too); its
// length is from the line of its opening brace to the line of its closing one. The scanner knows
// strings, template literals, comments and regular expressions; it does not type-check.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? resolve(args[rootAt + 1]) : new URL('..', import.meta.url).pathname;
const limit = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--root') ?? 60);
const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);

/** The functions of one file: [name, first line, last line]. */
function functionsOf(text) {
  const out = [];
  const stack = []; // open braces: { fn, line, name }
  const parens = []; // open parens: the word before each
  let lastParen; // the word before the ( matched by the last )
  let line = 1;
  let prev = ''; // the last significant character or word
  let i = 0;
  const word = (at) => /[\w$#]+$/.exec(text.slice(Math.max(0, at - 40), at).replace(/\s+$/, ''))?.[0] ?? '';
  const regexAllowed = () => prev === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(prev) || /^(return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/.test(prev);
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') { line++; i++; continue; }
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && text[i + 1] === '/') { while (i < text.length && text[i] !== '\n') i++; continue; }
    if (c === '/' && text[i + 1] === '*') { const end = text.indexOf('*/', i + 2); line += (text.slice(i, end).match(/\n/g) ?? []).length; i = end + 2; continue; }
    if (c === '"' || c === "'") { i++; while (text[i] !== c) { if (text[i] === '\\') i++; i++; } i++; prev = 'str'; continue; }
    if (c === '`') { i = template(i + 1); prev = 'str'; continue; }
    if (c === '/' && regexAllowed()) {
      i++; let cls = false;
      while (i < text.length && (text[i] !== '/' || cls)) { if (text[i] === '\\') i++; else if (text[i] === '[') cls = true; else if (text[i] === ']') cls = false; i++; }
      i++; while (/[a-z]/i.test(text[i] ?? '')) i++; prev = 're'; continue;
    }
    if (c === '(') { parens.push(word(i)); prev = '('; i++; continue; }
    if (c === ')') { lastParen = parens.pop(); prev = ')'; i++; continue; }
    if (c === '{') {
      const before = text.slice(Math.max(0, i - 300), i);
      const arrow = /=>\s*$/.test(before);
      // A parameter list, then perhaps a return type: `) {` or `): Promise<X> {`.
      const afterParams = prev === ')' || /\)\s*:\s*[^;{}()=]*$/.test(before) || /\)\s*:\s*[^;{}]*$/.test(before) && !/=\s*[^>]/.test(before.slice(before.lastIndexOf(')')));
      const fn = arrow || (afterParams && !CONTROL.has(lastParen ?? ''));
      stack.push({ fn, line, name: fn ? nameOf(before) : '' });
      prev = '{'; i++; continue;
    }
    if (c === '}') {
      const open = stack.pop();
      if (open?.fn) out.push([open.name, open.line, line]);
      prev = '}'; i++; continue;
    }
    const w = /^[\w$#]+/.exec(text.slice(i, i + 40));
    if (w) { prev = w[0]; i += w[0].length; continue; }
    prev = c; i++;
  }
  return out;

  function template(j) {
    while (j < text.length && text[j] !== '`') {
      if (text[j] === '\\') { j += 2; continue; }
      if (text[j] === '\n') line++;
      if (text[j] === '$' && text[j + 1] === '{') {
        // An expression: scanned for its own braces and strings until its closing brace.
        let depth = 1; j += 2;
        while (j < text.length && depth) {
          const d = text[j];
          if (d === '\n') line++;
          if (d === '`') { j = template(j + 1); continue; }
          if (d === '"' || d === "'") { j++; while (text[j] !== d) { if (text[j] === '\\') j++; j++; } j++; continue; }
          if (d === '{') depth++;
          if (d === '}') depth--;
          j++;
        }
        continue;
      }
      j++;
    }
    return j + 1;
  }
}

/** What a function is called, from the text before its body. */
function nameOf(before) {
  const head = before.slice(before.lastIndexOf('\n', before.length - 2) + 1);
  return /function\s*\*?\s*([\w$]+)/.exec(head)?.[1] ?? /([\w$#]+)\s*(?:<[^>]*>)?\s*\(/.exec(head)?.[1] ?? /([\w$]+)\s*[:=]/.exec(head)?.[1] ?? '(anonymous)';
}

const found = [];
for (const dir of ['src', 'step-definitions']) {
  for (const f of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
    if (!f.endsWith('.ts') || f.endsWith('.d.ts')) continue;
    const file = join(root, dir, f);
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    for (const [name, start, end] of functionsOf(text)) {
      if (end - start + 1 <= limit) continue;
      // The comment right above the function's first lines (its signature may take a few).
      const above = lines.slice(Math.max(0, start - 12), start).join('\n');
      const reason = /(\/\/|\*)[^\n]*\bLong:/.test(above.slice(above.lastIndexOf('/**') >= 0 ? above.lastIndexOf('/**') : 0));
      found.push({ lines: end - start + 1, where: `${relative(root, file)}:${start}`, name, reason });
    }
  }
}
found.sort((a, b) => b.lines - a.lines);
if (args.includes('--count')) console.log(`${found.filter((f) => !f.reason).length} without a reason (${found.length} over ${limit} lines)`);
else for (const f of found) console.log(`${String(f.lines).padStart(4)}  ${f.name}  ${f.where}${f.reason ? '  (its comment says why)' : ''}`);
