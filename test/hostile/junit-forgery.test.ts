// Issue 25, item 3: a bank string with `]]>` must not break out of the JUnit report's CDATA. The
// writer (cucumber's JUnit formatter with our CDATA stringifier) is fed texts full of breakouts;
// then a whole run against a bank that puts `]]><testcase …>` in every field it controls. Each
// JUnit is read by a strict XML reader: it must be well-formed and hold exactly the run's test
// cases, with the bank's text kept, verbatim, inside its CDATA.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { runObtpp } from '../helpers/obtpp.ts';
import { startHostileBank, hostileProfile, type HostileBank } from './hostile-bank.ts';
import { cdataSafe } from '../../src/conformance/junit-formatter.ts';
import { quoteOutside } from '../../src/outside-text.ts';

const FORGED = ']]><testcase classname="forged" name="forged - passes"></testcase><![CDATA[ ]]> ]]]]> <testcase name="forged2"/>]]>';

interface Element { name: string; attrs: Record<string, string>; cdata: string; children: Element[] }

/**
 * A strict reader for the XML a JUnit report is: elements, attributes in double quotes, text,
 * CDATA, the XML declaration. Anything else, or an unbalanced tag, throws.
 */
function parseXml(xml: string): Element {
  let i = 0;
  const root: Element = { name: '#document', attrs: {}, cdata: '', children: [] };
  const stack: Element[] = [root];
  const fail = (why: string): never => {
    throw new Error(`not well-formed at ${i}: ${why}: ${JSON.stringify(xml.slice(i, i + 60))}`);
  };
  if (xml.startsWith('<?xml')) i = xml.indexOf('?>') + 2;
  while (i < xml.length) {
    const top = stack.at(-1)!;
    if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i + 9);
      if (end < 0) fail('unterminated CDATA');
      top.cdata += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('</', i)) {
      const m = /^<\/([A-Za-z_][\w.-]*)\s*>/.exec(xml.slice(i));
      if (!m || m[1] !== top.name) fail(`closing tag does not match <${top.name}>`);
      stack.pop();
      i += m![0].length;
    } else if (xml[i] === '<') {
      const m = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/.exec(xml.slice(i));
      if (!m) fail('bad start tag');
      const attrs: Record<string, string> = {};
      for (const a of m![2].matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
        if (a[1]! in attrs) fail(`attribute ${a[1]} twice`);
        attrs[a[1]!] = a[2]!;
      }
      const el: Element = { name: m![1]!, attrs, cdata: '', children: [] };
      top.children.push(el);
      if (!m![3]) stack.push(el);
      i += m![0].length;
    } else {
      const next = xml.indexOf('<', i);
      const text = xml.slice(i, next < 0 ? xml.length : next);
      if (/]]>/.test(text)) fail('`]]>` in text');
      if (stack.length === 1 && text.trim()) fail('text outside the root element');
      i = next < 0 ? xml.length : next;
    }
  }
  if (stack.length !== 1) fail(`unclosed <${stack.at(-1)!.name}>`);
  if (root.children.length !== 1) fail('not exactly one root element');
  return root.children[0]!;
}

test('cdataSafe: every `]]>` is split across two sections, so the text reads back verbatim', () => {
  const text = `a${FORGED}b]]>c`;
  const xml = `<x><![CDATA[${cdataSafe(text)}]]></x>`;
  const el = parseXml(xml);
  assert.equal(el.children.length, 0, 'no element came out of the text');
  assert.equal(el.cdata, text);
  // The reader is strict: the text as xmlbuilder alone wrote it (first `]]>` only) is refused or forges.
  const once = `<x><![CDATA[${text.replace(']]>', ']]]]><![CDATA[>')}]]></x>`;
  assert.throws(() => parseXml(once));
});

let bank: HostileBank;
let work: string;

before(async () => {
  bank = await startHostileBank({ echo: FORGED, headers: { 'x-note': FORGED } });
  work = await mkdtemp(join(tmpdir(), 'obtpp-hostile-junit-'));
});

after(async () => {
  await bank?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

test('a bank putting `]]><testcase …>` in every field: the JUnit parses as exactly the run\'s test cases', { timeout: 300_000 }, async () => {
  const profilePath = join(work, 'hostile.json');
  await writeFile(profilePath, JSON.stringify(hostileProfile(bank.base)), { mode: 0o600 });
  const reportDir = join(work, 'report');
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const env = { H_CLIENT_SECRET: 'junit-secret-1', H_PRIVATE_KEY: key, H_PSU_PASSWORD: 'pw-junit', H_PSU_USER: 'user-junit', H_SSA: 'a.b.c' };
  const run = await runObtpp(['conform', '--profile', profilePath, '--report-dir', reportDir, '--tags', '@AIS-01 or @COF-01 or @DCR-01'], { env });
  assert.equal(run.code, 1, run.stderr);

  const xml = await readFile(join(reportDir, 'junit.xml'), 'utf8');
  const suite = parseXml(xml);
  assert.equal(suite.name, 'testsuite');
  const cases = suite.children.filter((c) => c.name === 'testcase');
  assert.deepEqual(suite.children.filter((c) => c.name !== 'testcase'), [], 'only test cases in the suite');
  // Exactly the run's test cases: as many as cucumber started, none forged.
  const started = (await readFile(join(reportDir, 'messages.ndjson'), 'utf8')).split('\n').filter((l) => l.includes('"testCaseStarted"')).length;
  const foreign = cases.filter((c) => c.attrs.classname?.startsWith('Rules of another dialect')).length;
  assert.ok(started > 0);
  assert.equal(cases.length, started + foreign);
  assert.equal(Number(suite.attrs.tests), cases.length);
  assert.deepEqual(cases.filter((c) => /forged/.test(`${c.attrs.name} ${c.attrs.classname}`)), []);
  // The bank's words are kept, verbatim, inside a failure's CDATA (read back as text).
  const failures = cases.flatMap((c) => c.children.filter((x) => x.name === 'failure'));
  assert.ok(failures.length > 0, 'the run has failures');
  // …verbatim, or quoted as obtpp quotes every bank text it shows (src/outside-text.ts: a JSON string
  // literal from which every character reads back).
  assert.ok(failures.some((f) => f.cdata.includes(FORGED) || f.cdata.includes(quoteOutside(FORGED))), 'a failure quotes the bank, every character readable back');
});
