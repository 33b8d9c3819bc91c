// The README stays a front door (issue 40): at most 400 lines, its Layout naming every folder
// there is, and no relative link of the README or a docs page pointing nowhere (a file that is not
// there, or a heading that is not on the page it names).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The Markdown pages whose links are checked: the README, every docs page, and the other READMEs. */
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`),
  'bench/README.md',
  'profiles/README.md',
];

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '').replace(/\s/g, '-');
}

/** Every anchor of a page, as GitHub numbers repeated headings (`x`, `x-1`, …); fenced code is not a heading. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative links of a page (`[text](target)`), outside fenced code and inline code. */
export function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** What is wrong with each relative link of a page: its file missing, or its #anchor not a heading of it. */
export function brokenLinks(page: string, markdown: string, read: (path: string) => string | undefined): string[] {
  const wrong: string[] = [];
  for (const link of relativeLinks(markdown)) {
    const [path, anchor] = link.split('#') as [string, string | undefined];
    const target = path ? join(dirname(page), path) : page;
    const text = read(target);
    if (text === undefined) {
      wrong.push(`${page}: ${link}: no such file`);
      continue;
    }
    if (anchor && target.endsWith('.md') && !anchors(text).has(anchor)) wrong.push(`${page}: ${link}: no heading #${anchor} on ${target}`);
  }
  return wrong;
}

function readPath(path: string): string | undefined {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
}

test('the README is a front door of at most 400 lines', () => {
  const lines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 400, `README.md has ${lines} lines`);
  for (const page of ['docs/uk.md', 'docs/berlin-group.md', 'docs/cli.md', 'docs/ci.md', 'docs/library.md', 'docs/security.md', 'bench/README.md']) {
    assert.ok(relativeLinks(readme).some((l) => l.split('#')[0] === page), `the README links to ${page}`);
  }
});

test('the README\'s Layout names every top-level folder and every folder of src/', () => {
  const at = readme.indexOf('## Layout');
  assert.ok(at >= 0, 'the README has its Layout');
  const block = /```\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
  const named = new Set([...block.matchAll(/^(\S+\/)/gm)].map((m) => m[1]!));
  for (const path of [...named]) named.add(path.replace(/\/.*$/, '/'));   // src/cli/ names src/ too
  // What git keeps: not the dependencies, the build's output or the reports.
  const ignored = new Set(['.git', 'node_modules', 'dist', 'reports']);
  const folders = (dir: string) => readdirSync(join(root, dir), { withFileTypes: true }).filter((e) => e.isDirectory() && !ignored.has(e.name)).map((e) => `${dir ? `${dir}/` : ''}${e.name}/`);
  const missing = [...folders(''), ...folders('src')].filter((f) => !named.has(f));
  assert.deepEqual(missing, [], 'folders the Layout does not name');
  const stale = [...named].filter((f) => !existsSync(join(root, f)));
  assert.deepEqual(stale, [], 'folders the Layout names that are not there');
});

test('every relative link of the README and the docs points to a file there, and to a heading there', () => {
  const wrong = pages.flatMap((page) => brokenLinks(page, readFileSync(join(root, page), 'utf8'), readPath));
  assert.deepEqual(wrong, []);
  assert.ok(pages.reduce((n, p) => n + relativeLinks(readFileSync(join(root, p), 'utf8')).length, 0) >= 30, 'the links were found');
});

test('the link checker finds a missing file and a missing heading', () => {
  const files: Record<string, string> = { 'docs/a.md': '# A page\n\n## Node and the browser\n\n## Node and the browser\n', 'README.md': '' };
  const read = (p: string) => files[p];
  assert.deepEqual(brokenLinks('README.md', '[a](docs/a.md#node-and-the-browser) [b](docs/a.md#node-and-the-browser-1) [c](https://x.example/y)', read), []);
  assert.deepEqual(brokenLinks('docs/a.md', '[r](../README.md) [s](#a-page)', read), []);
  assert.deepEqual(brokenLinks('README.md', '[a](docs/b.md) [b](docs/a.md#nowhere) `[c](docs/c.md)`', read), [
    'README.md: docs/b.md: no such file',
    'README.md: docs/a.md#nowhere: no heading #nowhere on docs/a.md',
  ]);
  assert.equal(slug('Variable Recurring Payments (UK Read/Write v3.1.11)'), 'variable-recurring-payments-uk-readwrite-v3111');
  assert.equal(slug('The TPP commands (a berlin-group profile)'), 'the-tpp-commands-a-berlin-group-profile');
});
