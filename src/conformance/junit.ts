import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { FcsSection } from './fcs-verdicts.ts';

/**
 * cucumber's JUnit report marks a scenario that was neither passed nor failed with a bare
 * `<skipped/>`: a CI server then shows "skipped" and nothing more. This writes the cause into the
 * element's `message` (not applicable and why; not judged and which rule blocked it), matching
 * test cases by their class name (the feature) and name (`<rule> - <scenario>`).
 */
export function annotateSkipped(xml: string, causes: ReadonlyMap<string, string>): string {
  if (!causes.size) return xml;
  return xml.replace(
    /(<testcase\b[^>]*?\bclassname="([^"]*)"[^>]*?\bname="([^"]*)"[^>]*>\s*)<skipped\s*\/>/g,
    (whole, head: string, classname: string, name: string) => {
      const cause = causes.get(`${unescapeXml(classname)}\u0000${unescapeXml(name)}`);
      return cause ? `${head}<skipped message="${escapeXml(cause)}"/>` : whole;
    },
  );
}

/** A rule no scenario of the run judged because it belongs to another dialect: one skipped test case each. */
export interface ForeignRule { variant: string; id: string; title: string; reason: string }

/**
 * Adds a skipped test case for each rule of another dialect (no scenario of it ran), with the
 * reason, so that a CI server lists every rule of the catalogue and shows none of those as passed.
 */
export function appendForeignRules(xml: string, rules: readonly ForeignRule[]): string {
  if (!rules.length) return xml;
  const cases = rules.map((r) => `  <testcase classname="${escapeXml(`Rules of another dialect (variant ${r.variant})`)}" name="${escapeXml(`${r.id} — ${r.title}`)}" time="0">\n    <skipped message="${escapeXml(`not applicable: ${r.reason}`)}"/>\n  </testcase>\n`).join('');
  const bump = (name: string) => (head: string) => head.replace(new RegExp(`\\b${name}="(\\d+)"`), (_m, n: string) => `${name}="${Number(n) + rules.length}"`);
  return xml
    .replace(/<testsuite\b[^>]*>/, (head) => bump('skipped')(bump('tests')(head)))
    .replace(/<\/testsuite>\s*$/, `${cases}</testsuite>\n`);
}

/**
 * Adds one test case per official FCS test of the run's version, in the suite's order (classname
 * `FCS v3.1`), passed, failed (`<failure type="FcsTestFailed">` with the finding), or skipped with
 * `not judged: …` / `not applicable: …`: a CI server lists them beside the rules, as the suite's
 * export lists them.
 */
export function appendFcsTests(xml: string, fcs: FcsSection | undefined): string {
  if (!fcs?.tests.length) return xml;
  const classname = escapeXml(`FCS v${fcs.version}`);
  const cases = fcs.tests.map((t) => {
    const head = `  <testcase classname="${classname}" name="${escapeXml(t.test ? `${t.id} — ${t.test}` : t.id)}" time="0">`;
    if (t.status === 'passed') return `${head}\n  </testcase>\n`;
    if (t.status === 'failed') {
      const text = [`FCS test: ${t.id}`, `finding: ${t.reason ?? 'failed'}`, ...t.scenarios.map((s) => `scenario: ${s}`)].join('\n');
      return `${head}\n    <failure type="FcsTestFailed" message="${escapeXml(t.reason ?? 'failed')}"><![CDATA[${cdataSafe(text)}]]></failure>\n  </testcase>\n`;
    }
    return `${head}\n    <skipped message="${escapeXml(`${t.status === 'not-judged' ? 'not judged' : 'not applicable'}: ${t.reason ?? ''}`)}"/>\n  </testcase>\n`;
  }).join('');
  const skipped = fcs.counts.notJudged + fcs.counts.notApplicable;
  const bump = (name: string, by: number) => (head: string) => head.replace(new RegExp(`\\b${name}="(\\d+)"`), (_m, n: string) => `${name}="${Number(n) + by}"`);
  return xml
    .replace(/<testsuite\b[^>]*>/, (head) => bump('failures', fcs.counts.failed)(bump('skipped', skipped)(bump('tests', fcs.tests.length)(head))))
    .replace(/<\/testsuite>\s*$/, `${cases}</testsuite>\n`);
}

/**
 * cucumber's JUnit failure is the thrown error with its stack: `at ConformanceWorld.violation
 * (file:///home/…/dist/step-definitions/…)`, obtpp's internals and the machine's paths. Each failure
 * is rewritten to what the bank's engineer needs, from `texts` (keyed like `annotateSkipped`:
 * the rule, the expectation, the evidence); a failure with no text keeps its own lines without the
 * stack frames, and `localPaths` (obtpp's install folder) is shown as `<obtpp>` wherever it is left.
 */
export function rewriteFailures(xml: string, texts: ReadonlyMap<string, string>, localPaths: readonly string[] = [], errors: ReadonlyMap<string, string> = new Map()): string {
  let converted = 0;
  const out = xml.replace(/(<testcase\b[^>]*?\bclassname="([^"]*)"[^>]*?\bname="([^"]*)"[^>]*>)([\s\S]*?)(<\/testcase>)/g,
    (whole, head: string, classname: string, name: string, body: string, tail: string) => {
      if (!/<failure\b/.test(body)) return whole;
      const key = `${unescapeXml(classname)}\u0000${unescapeXml(name)}`;
      const error = errors.get(key);
      if (error) {
        // obtpp's own failure is JUnit's <error> (the harness broke), not a <failure> of the bank.
        converted++;
        return head + body.replace(/<failure\b[^>]*?(?:\/>|>[\s\S]*?<\/failure>)/, `<error type="ObtppInternalError" message="${escapeXml(error.split('\n')[0]!)}"><![CDATA[${cdataSafe(error)}]]></error>`) + tail;
      }
      const text = texts.get(key);
      const rewritten = body.replace(/<failure\b([^>]*?)(?:\/>|>([\s\S]*?)<\/failure>)/, (_f, attrs: string, content: string | undefined) => {
        const type = /\btype="([^"]*)"/.exec(attrs)?.[1];
        const old = unescapeXml(/\bmessage="([^"]*)"/.exec(attrs)?.[1] ?? '');
        const full = text ?? withoutInternals(cdataText(content ?? '') || old, localPaths);
        const message = text ? (/^finding: (.*)$/m.exec(text)?.[1] ?? full.split('\n')[0]) : withoutInternals(old, localPaths);
        return `<failure${type ? ` type="${type}"` : ''} message="${escapeXml(message!)}"><![CDATA[${cdataSafe(full)}]]></failure>`;
      });
      return head + rewritten + tail;
    });
  if (!converted) return out;
  const shift = (head: string, name: string, by: number) => head.replace(new RegExp(`\\b${name}="(\\d+)"`), (_m, n: string) => `${name}="${Math.max(0, Number(n) + by)}"`);
  return out.replace(/<testsuite\b[^>]*>/, (head) => shift(shift(head, 'failures', -converted), 'errors', converted));
}

/** CDATA text that cannot close its section early (as junit-formatter.ts does, without loading cucumber's printer). */
function cdataSafe(text: string): string {
  return text.split(']]>').join(']]]]><![CDATA[>');
}

/** The text of a run of CDATA sections (a `]]>` inside is split across two of them). */
function cdataText(content: string): string {
  const parts = [...content.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>/g)].map((m) => m[1]);
  return parts.length ? parts.join('') : unescapeXml(content.trim());
}

/** A message without stack frames, and without the install folder's path. */
function withoutInternals(text: string, localPaths: readonly string[]): string {
  let out = text.split('\n').filter((l) => !/^\s+at\s/.test(l)).join('\n').trim();
  for (const p of localPaths.filter(Boolean)) {
    out = out.split(pathToFileURL(p).href).join('<obtpp>').split(p).join('<obtpp>');
  }
  return out;
}

/**
 * Rewrites junit.xml in place with the causes of its skipped test cases, the texts of its failures
 * and the rules of another dialect. A missing file is left missing.
 */
export async function annotateJunitFile(file: string, causes: ReadonlyMap<string, string>, foreign: readonly ForeignRule[] = [], failures?: { texts: ReadonlyMap<string, string>; localPaths: readonly string[]; errors?: ReadonlyMap<string, string> }, fcs?: FcsSection): Promise<void> {
  if (!causes.size && !foreign.length && !failures && !fcs) return;
  let xml: string;
  try {
    xml = await readFile(file, 'utf8');
  } catch {
    return;
  }
  let annotated = appendForeignRules(annotateSkipped(xml, causes), foreign);
  if (failures) annotated = rewriteFailures(annotated, failures.texts, failures.localPaths, failures.errors);
  annotated = appendFcsTests(annotated, fcs);
  if (annotated !== xml) await writeFile(file, annotated);
}

export function escapeXml(text: string): string {
  // Control characters are not allowed in XML 1.0 attributes.
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#(\d+)|#x([0-9a-f]+));/gi, (_m, name: string, dec?: string, hex?: string) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[name.toLowerCase()]!,
  );
}
