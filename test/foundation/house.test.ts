// The house stays tidy as it grows (docs/house.md): no import circle anywhere in src/ or
// step-definitions/ (type-only imports counted too: a circle of types is still two modules that
// cannot be understood apart), and the checker finds one when there is one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every relative static import and re-export of each module, resolved to a file path. */
function importGraph(files: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const deps = [
      ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/gm),
      // A type named through an inline import (`import('./x.ts').Name`) is a type import too.
      ...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)\s*\.\s*[A-Z]/g),
    ].map((m) => resolve(dirname(file), m[1]!));
    graph.set(file, deps.filter((d) => files.has(d)));
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

function sources(): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of ['src', 'step-definitions']) {
    for (const f of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (f.endsWith('.ts')) files.set(join(root, dir, f), readFileSync(join(root, dir, f), 'utf8'));
    }
  }
  return files;
}

test('no import circle in src/ or step-definitions/', () => {
  const files = sources();
  assert.ok(files.size > 100, `the modules were found (${files.size})`);
  const found = circles(importGraph(files)).map((c) => c.map((f) => relative(root, f)).join(' ↔ '));
  assert.deepEqual(found, [], `import circles:\n${found.join('\n')}`);
});

test('the checker finds a circle, type-only imports included', () => {
  const files = new Map([
    ['/x/a.ts', "import { b } from './b.ts';"],
    ['/x/b.ts', "import type { C } from './c.ts';\nexport const b = 1;"],
    ['/x/c.ts', "export type { A } from './a.ts';\nexport type C = 1;"],
    ['/x/d.ts', "import { b } from './b.ts';"],
  ]);
  assert.deepEqual(circles(importGraph(files)), [['/x/a.ts', '/x/b.ts', '/x/c.ts']]);
});

/**
 * The standards' folders: in every room, a folder named after a standard (src/dialects/obie/,
 * src/sandbox/berlin-group/ …) or a file named after one (src/session/berlin-group-sca.ts) is that
 * standard's; every other file under src/ and step-definitions/support/ is shared.
 */
function standardsFile(path: string, names: readonly string[]): boolean {
  const parts = relative(root, path).split(/[\\/]/);
  return parts.slice(0, -1).some((p) => names.includes(p)) || names.some((n) => parts.at(-1)!.startsWith(`${n}-`) || parts.at(-1)!.startsWith(`${n}.`));
}

/** Lines of `text` spelling one of `words` as a whole string literal ('obie', "uk-3.1", `berlin-group`). */
function spellings(text: string, words: readonly string[]): string[] {
  const quoted = new RegExp(`(['"\`])(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|')})\\1`);
  return text.split('\n').filter((line) => quoted.test(line));
}

test('no shared file spells a standard\'s name or a published version\'s: it asks the registry', async () => {
  const { standards, versionNames } = await import('../../src/standards/registry.ts');
  const names = standards().map((s) => s.name);
  const words = [...names, ...versionNames()];
  assert.deepEqual(names.slice(0, 2), ['obie', 'berlin-group'], 'the package\'s standards are registered');
  const found: string[] = [];
  for (const [file, text] of sources()) {
    const rel = relative(root, file);
    const shared = rel.startsWith('src') || rel.startsWith(join('step-definitions', 'support'));
    if (!shared || standardsFile(file, names)) continue;
    for (const line of spellings(text, words)) found.push(`${rel}: ${line.trim()}`);
  }
  assert.deepEqual(found, [], `shared files spelling a standard:\n${found.join('\n')}`);
});

test('the name check finds a spelled standard, and leaves a standard\'s own folder alone', () => {
  const words = ['obie', 'berlin-group', 'uk-3.1'];
  assert.deepEqual(spellings("if (d === 'berlin-group') x();\nconst y = `obie`;\n// the obie dialect\nconst z = 'uk-3.10';", words), ["if (d === 'berlin-group') x();", 'const y = `obie`;']);
  assert.equal(standardsFile(join(root, 'src/sandbox/berlin-group/xs2a.ts'), words), true);
  assert.equal(standardsFile(join(root, 'src/session/berlin-group-sca.ts'), words), true);
  assert.equal(standardsFile(join(root, 'src/conformance/runner.ts'), words), false);
});
