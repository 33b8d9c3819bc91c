// Issue 41, item 3: a bank that answers GET /accounts with JSON nested 200 000 levels deep (a JSON
// bomb, 400 KB) fails the rule that reads it — here AIS-04 in a run scoped to it — with the
// exchange as evidence and exit 1: never "not judged" (blocked by AIS-11, which a scoped run does
// not run), never an INCOMPLETE run that exits 0. The bank is the embedded sandbox behind a proxy
// written here: every call passes through, except the account lists, which are the bomb.
// Real sandbox, real Chromium, real sockets; the same by a sandbox fault is test/conformance/chaos.test.ts's json-bomb.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObtpp } from '../helpers/obtpp.ts';
import { listenLoopback } from '../helpers/loopback.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { HttpClient } from '../../src/client/http.ts';

const DEPTH = 200_000;

let sb: Sandbox;
let proxy: { base: string; close: () => Promise<void> };
let dir: string;
let bombs = 0;

before(async () => {
  sb = await startSandbox({ quiet: true });
  const real = new URL(sb.profile().baseUrl as string).origin;
  proxy = await listenLoopback(createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
    const answer = await fetch(real + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: 'manual' });
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => { if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v; });
    const body = Buffer.from(await answer.arrayBuffer());
    // The hostile part: an account list the bank would have given is a JSON bomb instead.
    if (req.method === 'GET' && answer.status === 200 && /\/accounts$/.test(new URL(req.url ?? '/', 'http://x').pathname)) {
      bombs++;
      return void res.writeHead(200, { ...out, 'content-type': 'application/json' }).end('['.repeat(DEPTH) + ']'.repeat(DEPTH));
    }
    res.writeHead(answer.status, out).end(body);
  }));
  dir = await mkdtemp(join(tmpdir(), 'obtpp-hostile-bomb-'));
});

after(async () => {
  await proxy?.close();
  await sb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('GET /accounts answered with JSON nested 200 000 deep: AIS-04 fails with the exchange as evidence, exit 1, nothing "not judged"', { timeout: 180_000 }, async () => {
  const real = new URL(sb.profile().baseUrl as string).origin;
  const profile = sb.profile('all') as { baseUrl: string; variantBaseUrls: Record<string, string> };
  // Only the resource server moves behind the proxy: the authorisation server stays the sandbox's.
  profile.baseUrl = profile.baseUrl.replace(real, proxy.base);
  for (const v of Object.keys(profile.variantBaseUrls)) profile.variantBaseUrls[v] = profile.variantBaseUrls[v]!.replace(real, proxy.base);
  const file = join(dir, 'bomb.json');
  await writeFile(file, JSON.stringify(profile), { mode: 0o600 });
  const reports = join(dir, 'report');
  const r = await runObtpp(['conform', '--profile', file, '--variant', 'A', '--tags', '@AIS-04', '--report-dir', reports], { cwd: dir, timeoutMs: 150_000 });
  assert.ok(bombs > 0, 'the bank sent its bomb');
  assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
  assert.doesNotMatch(r.stdout + r.stderr, /RangeError|Maximum call stack|INCOMPLETE/);
  assert.match(r.stdout, /^NOT CONFORMANT: 0 rule results passed, 1 failed, 0 waived, 0 not judged/m);
  const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
  assert.equal(summary.verdict, 'fail');
  const rule = summary.variants[0].rules.find((x: { id: string }) => x.id === 'AIS-04');
  assert.equal(rule.status, 'failed', JSON.stringify(rule));
  assert.deepEqual(rule.notJudged ?? [], [], 'no scenario of AIS-04 left unjudged');
  // Both scenarios that read the list fail on it, each naming the answer and carrying it as evidence.
  const reading = rule.failures.filter((f: any) => /listing the accounts: the bank answered GET \/A\/open-banking\/v3\.1\/accounts with 200 and a body obtpp cannot use \(JSON nested deeper than 256 levels, not parsed\)/.test(f.message));
  assert.deepEqual(reading.map((f: any) => f.scenario).sort(), ['Only the selected account is returned', 'The accounts the PSU did not select are refused'], JSON.stringify(rule.failures.map((f: any) => f.message)));
  for (const f of reading) {
    const list = f.evidence?.exchanges?.find((e: any) => e.method === 'GET' && new URL(e.url).pathname.endsWith('/accounts'));
    assert.ok(list, `${f.scenario}: the GET /accounts exchange is in the evidence`);
    assert.equal(list.response.status, 200);
    assert.match(String(list.response.body), /^\[\[\[\[.*…\[cut: \d+ more characters not kept\]$/, 'the body is in the evidence, cut');
  }
});

test('only a body that opens as JSON is a bomb: a PDF or a text full of brackets is merely not JSON', async () => {
  const bodies: Record<string, string> = {
    '/bomb': ` \n${'['.repeat(300)}${']'.repeat(300)}`,
    '/object-bomb': '{"a":'.repeat(300) + '1' + '}'.repeat(300),
    '/pdf': `%PDF-1.7\n${'[<<'.repeat(2000)}binary\n%%EOF`,
    '/log': `INFO ${'['.repeat(2000)} not JSON`,
  };
  const server = await listenLoopback(createServer((req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bodies[req.url ?? ''] ?? '')));
  const http = new HttpClient();
  try {
    const note = async (path: string) => (await http.request('GET', `${server.base}${path}`)).exchange.response?.note;
    assert.match(String(await note('/bomb')), /^JSON nested deeper than 256 levels, not parsed$/);
    assert.match(String(await note('/object-bomb')), /^JSON nested deeper than 256 levels, not parsed$/);
    assert.equal(await note('/pdf'), undefined);
    assert.equal(await note('/log'), undefined);
  } finally {
    await http.close();
    await server.close();
  }
});
