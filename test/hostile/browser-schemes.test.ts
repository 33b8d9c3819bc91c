/**
 * Issue 25, item 2: the PSU's browser opens only http(s) pages, whatever the bank says. A hostile
 * bank on loopback hands the browser file:///… of a 0600 canary file, data:, javascript:,
 * chrome:, view-source: links, and its pages redirect and script their way to them mid-journey.
 * Each journey fails (unsafe_url, or a failed step), the canary's contents appear in no error,
 * evidence or report, and no screenshot is left outside the evidence folder (those inside are
 * 0600). A Berlin Group run whose scaRedirect is file:///… fails its rule (exit 1), not
 * "incomplete" with exit 0. Build first (npm run build): the last test runs the binary.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PsuBrowser } from '../../src/psu/index.ts';
import { AuthorisationError } from '../../src/errors.ts';
import { unsafeUrlProblem } from '../../src/psu/url-policy.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { listenLoopback } from '../helpers/loopback.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const CANARY = `canary-${Math.random().toString(36).slice(2)}-do-not-show`;
let dir: string;
let canaryFile: string;
let evidenceDir: string;
let browser: PsuBrowser;
let bank: { base: string; close: () => Promise<void> };
let tmpBefore: Set<string>;

/** Pages of a hostile bank: each leads the browser somewhere it must not go. */
function pages(): Record<string, (res: import('node:http').ServerResponse) => void> {
  const file = `file://${canaryFile}`;
  const html = (body: string) => (res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><html><body>${body}</body></html>`);
  };
  return {
    '/redirect-file': (res) => (res.writeHead(302, { location: file }), res.end()),
    '/redirect-data': (res) => (res.writeHead(302, { location: `data:text/html,<p>${CANARY}</p>` }), res.end()),
    '/script-file': html(`<script>location.href = ${JSON.stringify(file)}</script>`),
    '/script-data': html(`<script>location.href = 'data:text/html,<p>phished</p>'</script>`),
    '/script-view-source': html(`<script>location.href = ${JSON.stringify(`view-source:${file}`)}</script>`),
    '/script-chrome': html(`<script>location.href = 'chrome://version'</script>`),
    '/frame-file': html(`<iframe src="${file}"></iframe><img src="${file}">`),
    '/blob-document': html(`<script>location.href = URL.createObjectURL(new Blob(['<p>blob page</p>'], { type: 'text/html' }))</script>`),
  };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-hostile-browser-'));
  canaryFile = join(dir, 'state.json');
  await writeFile(canaryFile, JSON.stringify({ secret: CANARY }), { mode: 0o600 });
  await chmod(canaryFile, 0o600);
  evidenceDir = join(dir, 'report', 'evidence');
  await mkdir(evidenceDir, { recursive: true });
  const routes = pages();
  bank = await listenLoopback(createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) return route(res);
    res.writeHead(404).end();
  }));
  tmpBefore = new Set((await readdir(tmpdir())).filter((f) => f.endsWith('.png')));
  browser = new PsuBrowser();
});

after(async () => {
  await browser?.close();
  await bank?.close();
  await rm(dir, { recursive: true, force: true });
});

const journeyOptions = (o: { insecure?: boolean } = {}) => ({
  redirectUri: `${bank.base}/tpp/callback`,
  driver: { kind: 'steps' as const, steps: [] },
  username: 'alice',
  password: 'pw',
  stepTimeoutMs: 2_000,
  totalTimeoutMs: 4_000,
  evidenceDir,
  urlName: 'scaRedirect',
  trust: { insecure: o.insecure },
});

/** Everything a failed journey says about itself, to scan for the canary. */
function said(error: unknown): string {
  return JSON.stringify({ message: (error as Error).message, evidence: (error as AuthorisationError).evidence });
}

test('a link the bank hands over that is not http(s) is refused before the browser opens it, naming the link', async () => {
  const links = [`file://${canaryFile}`, `data:text/html,<p>${CANARY}</p>`, 'javascript:alert(1)', 'chrome://version', `view-source:file://${canaryFile}`, 'blob:http://127.0.0.1/x', 'about:blank', 'not a url'];
  for (const link of links) {
    await assert.rejects(browser.journey(link, journeyOptions()), (e: unknown) => {
      assert.ok(e instanceof AuthorisationError, String(e));
      assert.equal(e.oauthError, 'unsafe_url');
      assert.match(e.message, /^the bank's scaRedirect is .*(not http\(s\)|not a URL)/);
      assert.ok(!said(e).includes(CANARY));
      return true;
    }, link);
  }
  // http only on this machine or with tls.insecure; https always.
  assert.match(unsafeUrlProblem('http://bank.example/sca', false) ?? '', /not https/);
  assert.equal(unsafeUrlProblem('http://bank.example/sca', true), undefined);
  assert.equal(unsafeUrlProblem('http://127.0.0.1:9/sca', false), undefined);
  assert.equal(unsafeUrlProblem('https://bank.example/sca', false), undefined);
});

test('pages that redirect or script the browser to file:, data:, chrome:, view-source: or blob: documents end the journey, and nothing shows the file', async () => {
  const started = Date.now();
  // The blob: page first and alone (its refusal by name is asserted: on a busy machine, eight
  // contexts made at once may not be ready within its time-out); the others together.
  const paths = ['/blob-document', ...Object.keys(pages()).filter((p) => p !== '/blob-document')];
  const first = await Promise.allSettled([browser.journey(`${bank.base}${paths[0]}`, journeyOptions())]);
  const outcomes = [...first, ...(await Promise.allSettled(paths.slice(1).map((path) => browser.journey(`${bank.base}${path}`, journeyOptions()))))];
  outcomes.forEach((o, i) => {
    assert.equal(o.status, 'rejected', `${paths[i]} came back`);
    const e = (o as PromiseRejectedResult).reason;
    assert.ok(e instanceof AuthorisationError, `${paths[i]}: ${e}`);
    assert.ok(!said(e).includes(CANARY), `${paths[i]}: ${said(e)}`);
    // Chromium itself refuses a page's links and redirects to file:, data:, chrome: documents (the
    // journey then waits in vain); a blob: document it would show is refused by obtpp, by name.
    if (paths[i] === '/blob-document') assert.equal(e.oauthError, 'unsafe_url', `${paths[i]}: ${e.message}`);
  });
  assert.ok(Date.now() - started < 30_000);
  // Screenshots only in the evidence folder, 0600; none left in the temp folder.
  for (const f of await readdir(evidenceDir)) assert.equal((await stat(join(evidenceDir, f))).mode & 0o777, 0o600, f);
  const leftInTmp = (await readdir(tmpdir())).filter((f) => f.endsWith('.png') && f.startsWith('obtpp-psu-') && !tmpBefore.has(f));
  assert.deepEqual(leftInTmp, []);
});

test('a Berlin Group bank whose scaRedirect is file:///… fails the rule (exit 1), and the file is in no artefact', async () => {
  const sb: Sandbox = await startSandbox({ dialect: 'berlin-group', quiet: true });
  const real = new URL(sb.profile().baseUrl as string).origin;
  // The hostile bank: the sandbox behind a proxy that swaps every scaRedirect for a local file.
  const proxy = await listenLoopback(createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
    const answer = await fetch(real + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: 'manual' });
    let body = Buffer.from(await answer.arrayBuffer()).toString('utf8');
    body = body.replace(/"scaRedirect":\{"href":"[^"]*"\}/g, `"scaRedirect":{"href":"file://${canaryFile}"}`);
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => { if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v; });
    res.writeHead(answer.status, out).end(body);
  }));
  try {
    const profile = JSON.parse(JSON.stringify(sb.profile()).replaceAll(`${real}/A/`, `${proxy.base}/A/`).replaceAll(`${real}/B/`, `${proxy.base}/B/`));
    profile.sca = { approaches: ['redirect'] };
    const file = join(dir, 'bg.json');
    await writeFile(file, JSON.stringify(profile), { mode: 0o600 });
    const reportDir = join(dir, 'bg-report');
    const r = await runObtpp(['conform', '--profile', file, '--variant', 'A', '--tags', '@AIS-04', '--report-dir', reportDir], { cwd: dir, timeoutMs: 120_000 });
    assert.equal(r.code, 1, r.stderr);
    const summary = await readFile(join(reportDir, 'summary.json'), 'utf8');
    assert.match(summary, /scaRedirect is file:…, not http\(s\)/);
    for (const f of await readdir(reportDir, { recursive: true })) {
      const p = join(reportDir, f);
      if ((await stat(p)).isFile()) assert.ok(!(await readFile(p)).includes(CANARY), `${f} holds the file's contents`);
    }
    assert.ok(!(r.stdout + r.stderr).includes(CANARY));
  } finally {
    await proxy.close();
    await sb.stop();
  }
});
