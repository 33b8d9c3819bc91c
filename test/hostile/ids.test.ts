/**
 * Issue 25, item 13: ids the bank chooses (`..`, `.`, `__proto__`, 900 KB strings, slashes, `?`,
 * `#`) reach URL paths and object keys. Each id is one percent-encoded path segment (the hostile
 * bank on loopback sees exactly that segment); a dot segment, which URL parsers resolve away even
 * encoded, and an id over 1024 characters are never sent; `__proto__` and `constructor` are
 * consents like any other in the session state; and in a conformance run, a bank whose
 * AccountId is `..` fails the rule that reads the account, by name. Build first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listenLoopback } from '../helpers/loopback.ts';
import { runObtpp } from '../helpers/obtpp.ts';
import { MAX_ID_LENGTH, TppClient, UnusableIdError, pathSegment } from '../../src/client/operations.ts';
import { StateFile, emptyProfileState } from '../../src/session/state.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';

let dir: string;
let sb: Sandbox;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-hostile-ids-'));
  sb = await startSandbox({ quiet: true });
});
after(async () => {
  await sb?.stop();
  await rm(dir, { recursive: true, force: true });
});

test('an id is one percent-encoded path segment; a dot segment or an id over the limit is refused, not sent', async () => {
  const seen: string[] = [];
  const bank = await listenLoopback(createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"Data":{}}');
  }));
  try {
    const raw = { ...sb.profile(), baseUrl: `${bank.base}/A`, variantBaseUrls: { A: `${bank.base}/A`, B: `${bank.base}/B` } };
    delete (raw as { apis?: unknown }).apis;
    const profile = await profileFromObject(raw, { env: {}, cwd: dir, source: 'hostile-ids' });
    const client = new TppClient(profile, 'A', httpFromProfile(profile));
    for (const id of ['a/b?c#d', '__proto__', '%2e%2e', '..a', ' x ']) {
      seen.length = 0;
      await client.getAccount(id);
      assert.equal(seen.length, 1);
      assert.equal(seen[0]!.split('/').at(-1), encodeURIComponent(id), `${id} reached the bank as ${seen[0]}`);
      assert.equal(decodeURIComponent(seen[0]!.split('/').at(-1)!), id);
    }
    seen.length = 0;
    for (const id of ['..', '.', 'x'.repeat(900 * 1024), 'y'.repeat(MAX_ID_LENGTH + 1)]) {
      await assert.rejects(client.getAccount(id), (e: unknown) => e instanceof UnusableIdError && /the bank's accountId (is "\.\.?", a dot segment|is \d+ characters long)/.test(e.message) && e.message.length < 400);
      await assert.rejects(client.getTransaction('ok', id), UnusableIdError);
    }
    assert.deepEqual(seen, [], 'a refused id reached the bank');
    assert.equal(pathSegment('getAccount', 'accountId', 'y'.repeat(MAX_ID_LENGTH)).length, MAX_ID_LENGTH);
  } finally {
    await bank.close();
  }
});

test('consents named __proto__, constructor and toString are kept in the session state like any other', async () => {
  const file = new StateFile(join(dir, 'state.json'));
  const ids = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'ordinary'];
  for (const id of ids) {
    await file.update((doc) => {
      const ps = (doc.profiles.k ??= emptyProfileState({ profile: 'p', baseUrl: 'b', clientId: 'c', variant: 'A' }));
      ps.consents[id] = { id, fn: 'ais', status: 'AwaitingAuthorisation', createdAt: 'now' };
      ps.tokens[id] = { accessToken: `t-${id}`, obtainedAt: 0 };
    });
  }
  const doc = await file.read();
  assert.deepEqual(Object.keys(doc.profiles.k!.consents).sort(), [...ids].sort());
  assert.equal(doc.profiles.k!.consents.__proto__!.id, '__proto__');
  assert.equal(doc.profiles.k!.tokens.constructor!.accessToken, 't-constructor');
  // An id never stored finds nothing inherited.
  const empty = emptyProfileState({ profile: 'p', baseUrl: 'b', clientId: 'c', variant: 'A' });
  assert.equal(empty.consents.valueOf, undefined);
  assert.match(await readFile(join(dir, 'state.json'), 'utf8'), /"__proto__": \{/);
});

test('a bank whose AccountId is ".." fails the rule that reads the account (exit 1), naming it', async () => {
  const real = new URL(sb.profile().baseUrl as string).origin;
  // The hostile bank: the sandbox behind a proxy that renames every account "..".
  const proxy = await listenLoopback(createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
    const answer = await fetch(real + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: 'manual' });
    let body = Buffer.from(await answer.arrayBuffer()).toString('utf8');
    if (/\/accounts$/.test(new URL(req.url ?? '/', 'http://x').pathname)) body = body.replace(/"AccountId":"[^"]*"/g, '"AccountId":".."');
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => { if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v; });
    res.writeHead(answer.status, out).end(body);
  }));
  try {
    const profile = sb.profile('all') as { baseUrl: string; variantBaseUrls: Record<string, string> };
    // Only the resource server moves behind the proxy: the authorisation server stays the sandbox's.
    profile.baseUrl = profile.baseUrl.replace(real, proxy.base);
    for (const v of Object.keys(profile.variantBaseUrls)) profile.variantBaseUrls[v] = profile.variantBaseUrls[v]!.replace(real, proxy.base);
    const file = join(dir, 'hostile.json');
    await writeFile(file, JSON.stringify(profile), { mode: 0o600 });
    const reports = join(dir, 'report');
    const r = await runObtpp(['conform', '--profile', file, '--variant', 'A', '--tags', '@AIS-10', '--report-dir', reports, '--json'], { cwd: dir, timeoutMs: 120_000 });
    assert.equal(r.code, 1, r.stderr);
    const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    const rule = summary.variants[0].rules.find((x: { id: string }) => x.id === 'AIS-10');
    assert.equal(rule.status, 'failed', JSON.stringify(rule));
    assert.match(JSON.stringify(rule.failures), /AIS-10: .*the bank's accountId is \\"\.\.\\", a dot segment/);
  } finally {
    await proxy.close();
  }
});
