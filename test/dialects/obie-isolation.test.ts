import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

// The examiner must not share the bank's mistakes: nothing in src/dialects imports src/sandbox.
test('src/dialects imports nothing from src/sandbox', () => {
  const root = fileURLToPath(new URL('../../src/dialects/', import.meta.url));
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  assert.ok(files.length >= 8, `found ${files.length} files`);
  for (const f of files) {
    const source = readFileSync(join(root, f), 'utf8');
    assert.doesNotMatch(source, /from\s+['"][^'"]*sandbox[^'"]*['"]|import\(\s*['"][^'"]*sandbox/, f);
  }
});

// …and the bank imports nothing of its examiner: no dialect, client, step or conformance code.
test('src/sandbox imports nothing from src/dialects, src/client, src/conformance or the steps', () => {
  const root = fileURLToPath(new URL('../../src/sandbox/', import.meta.url));
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  assert.ok(files.some((f) => f.startsWith('berlin-group')), 'the berlin-group bank is scanned too');
  for (const f of files) {
    const source = readFileSync(join(root, f), 'utf8');
    assert.doesNotMatch(source, /from\s+['"][^'"]*\/(dialects|client|conformance|step-definitions)\/[^'"]*['"]|import\(\s*['"][^'"]*\/(dialects|client|conformance)\//, f);
  }
});
