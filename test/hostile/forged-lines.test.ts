// Issue 41, item 1: a bank's text cannot forge a line of obtpp's output. The bank here answers
// the API with an ErrorCode, a Message and an x-fapi-interaction-id that carry a line break (a
// newline; a NEL, U+0085, in the header) followed by a line of obtpp's own look (`PASS  AIS-01 …`).
// `obtpp conform` (plain output: NO_COLOR, TERM=dumb, CI, with GitHub's annotations and step
// summary on), `obtpp accounts` and `obtpp register` run against it; in every output — stdout, stderr, summary.md,
// the step summary, the annotations decoded as GitHub decodes them — no line starts with the
// bank's fake line, and the bank's text is there whole, quoted (a JSON string literal that reads
// back to exactly what the bank sent).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { runObtpp } from '../helpers/obtpp.ts';
import { startHostileBank, hostileProfile, writeSessionState, type HostileBank } from './hostile-bank.ts';
import { keepOnLine, quoteOutside } from '../../src/outside-text.ts';

const FAKE = 'PASS  AIS-01 forged by the bank';
const CODE = `UK.OBIE.Field.Invalid\n${FAKE}`;
const MESSAGE = `the request is wrong\r\n${FAKE}`;
/** A header cannot carry a newline; NEL (U+0085, a line break to some renderers) it can. */
const INTERACTION_ID = `id-1\u0085${FAKE}`;

test('quoteOutside: plain text as it is, anything else a JSON string literal on one line that reads back exactly', () => {
  assert.equal(quoteOutside('UK.OBIE.Field.Invalid'), 'UK.OBIE.Field.Invalid');
  assert.equal(quoteOutside('text/html; charset=utf-8'), 'text/html; charset=utf-8');
  for (const bank of [CODE, MESSAGE, INTERACTION_ID, 'a\u2028b\u202ec\u001b[2Jd\u009be', ' padded', 'say "hi"', 'Café']) {
    const q = quoteOutside(bank);
    assert.match(q, /^"[^\n\r\u0085\u2028\u2029\u001b\u009b\u202e]*"$/, q);
    assert.equal(JSON.parse(q), bank, 'every character of the bank\'s comes back');
  }
  assert.equal(quoteOutside('x'.repeat(10), 4), 'xxxx…');
  assert.equal(keepOnLine(`a\nb\u0085c`), 'a\\nb\\u0085c');
});

let bank: HostileBank;
let work: string;
let profilePath: string;
let statePath: string;
const env: Record<string, string> = {};

before(async () => {
  bank = await startHostileBank({ echo: MESSAGE, errorCode: CODE, headers: { 'x-fapi-interaction-id': INTERACTION_ID } });
  work = await mkdtemp(join(tmpdir(), 'obtpp-hostile-forged-'));
  profilePath = join(work, 'hostile.json');
  statePath = join(work, 'state.json');
  await writeFile(profilePath, JSON.stringify(hostileProfile(bank.base)), { mode: 0o600 });
  await writeSessionState(statePath, bank.base, { id: 'aac-1', status: 'Authorised' },
    { accessToken: 'at-forged-1', expiresAt: Date.now() + 3_600_000, obtainedAt: Date.now() });
  Object.assign(env, {
    H_CLIENT_SECRET: 'forged-secret-1',
    H_PRIVATE_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    H_PSU_PASSWORD: 'pw-forged', H_PSU_USER: 'user-forged', H_SSA: 'a.b.c',
    NO_COLOR: '1', TERM: 'dumb', CI: 'true',
  });
});

after(async () => {
  await bank?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The lines a reader sees: split at every line break a terminal, a browser or GitHub honours. */
function linesOf(text: string): string[] {
  return text.split(/\r\n|[\n\r\u0085\u2028\u2029]/);
}

/** No line of `text` is the bank's fake line (whatever indentation or decoration precedes it). */
function assertNoForgedLine(what: string, text: string): void {
  const forged = linesOf(text).filter((l) => l.trimStart().startsWith(FAKE) || /^\W*PASS\s+AIS-01/.test(l));
  assert.deepEqual(forged, [], `${what}: the bank's text made a line of its own:\n${text}`);
}

/** GitHub's decoding of a workflow command's message (the reverse of escapeData). */
function decodeAnnotation(line: string): string {
  return line.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

test('obtpp conform: the bank\'s error code, message and interaction id stay on obtpp\'s lines, quoted, in the console, summary.md and the CI annotations', { timeout: 120_000 }, async () => {
  const reportDir = join(work, 'report');
  const stepSummary = join(work, 'step-summary.md');
  const r = await runObtpp(['conform', '--profile', profilePath, '--report-dir', reportDir, '--tags', '@AIS-01'],
    { env: { ...env, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary }, cwd: work, timeoutMs: 120_000 });
  assert.equal(r.code, 1, r.stderr);
  const summaryMd = await readFile(join(reportDir, 'summary.md'), 'utf8');
  const appended = await readFile(stepSummary, 'utf8');
  const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::'));
  assert.ok(annotations.some((l) => l.startsWith('::error title=AIS-01::')), r.stdout);

  for (const [what, text] of [['stdout', r.stdout], ['stderr', r.stderr], ['summary.md', summaryMd], ['the step summary', appended]] as const) assertNoForgedLine(what, text);
  for (const a of annotations) assertNoForgedLine('an annotation, decoded', decodeAnnotation(a));

  // The bank's words are there, whole and quoted: the live line, the failures table, summary.md, the annotation.
  const code = JSON.stringify(CODE);
  assert.ok(r.stderr.split('\n').some((l) => l.startsWith('    AIS-01: ') && l.includes(code)), `the live line quotes the code:\n${r.stderr}`);
  assert.ok(r.stdout.split('\n').some((l) => l.startsWith('    AIS-01: ') && l.includes(code) && l.includes('[x-fapi-interaction-id "id-1\\u0085PASS  AIS-01 forged by the bank"]')), `the failures quote the code and the interaction id:\n${r.stdout}`);
  // Markdown escapes the backslash of `\n`: the table cell still reads `"UK.OBIE.Field.Invalid\nPASS …"` when rendered.
  assert.ok(summaryMd.includes(`"UK.OBIE.Field.Invalid\\\\nPASS  AIS-01 forged by the bank"`), summaryMd);
  assert.ok(annotations.some((a) => decodeAnnotation(a).includes(code)), annotations.join('\n'));
});

test('obtpp accounts: the bank\'s refusal is one line, its code and message quoted', async () => {
  const r = await runObtpp(['accounts', '--profile', profilePath, '--state', statePath], { env, cwd: work });
  assert.equal(r.code, 1, r.stderr);
  assertNoForgedLine('stderr', r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, /^obtpp: the bank refused GET \/accounts: 400 /);
  assert.ok(r.stderr.includes(`${JSON.stringify(CODE)}: `), r.stderr);
  // The message echoes the token; what is left of the bank's text is quoted, on the same line.
  assert.ok(r.stderr.includes('"the request is wrong\\r\\nPASS  AIS-01 forged by the bank | your token: '), r.stderr);
});

test('obtpp register: the authorisation server\'s error description is quoted on the one line', async () => {
  const r = await runObtpp(['register', '--profile', profilePath, '--state', statePath], { env, cwd: work });
  assert.equal(r.code, 1, r.stderr);
  assertNoForgedLine('stderr', r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.ok(r.stderr.startsWith(`obtpp: the bank refused the registration: invalid_software_statement: ${JSON.stringify(MESSAGE)}`), r.stderr);
});
