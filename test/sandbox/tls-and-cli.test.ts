import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Browser } from 'puppeteer';
import { Agent, fetch } from 'undici';
import { runCli } from '../../src/cli/program.ts';
import type { Io } from '../../src/cli/io.ts';
import { loadProfile, profileFromObject } from '../../src/profile/load.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { listFaults } from '../../src/sandbox/faults.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { aisBody, launchBrowser, Tpp } from './tpp.ts';

describe('sandbox over TLS', () => {
  let sb: Sandbox;
  let browser: Browser;

  before(async () => {
    sb = await startSandbox({ tls: true });
    browser = await launchBrowser({ insecure: true });
  });
  after(async () => {
    await browser?.close();
    await sb?.stop();
  });

  test('a second TLS sandbox of the process serves the same PKI, made once; the host-mismatch fault gets a certificate of its own', async () => {
    const again = await startSandbox({ tls: true });
    try {
      assert.equal(again.tls!.caPem, sb.tls!.caPem);
      assert.equal(again.tls!.clientCertPem, sb.tls!.clientCertPem);
      // Still verified against that CA, on the new sandbox's own port.
      const discovery = await fetch(`${again.issuer}/.well-known/openid-configuration`, { dispatcher: new Agent({ connect: { ca: again.tls!.caPem } }) });
      assert.equal(discovery.status, 200);
    } finally {
      await again.stop();
    }
    const bent = await startSandbox({ faults: ['tls-host-mismatch'] });
    try {
      assert.notEqual(bent.tls!.caPem, sb.tls!.caPem);
      await assert.rejects(fetch(`${bent.issuer}/.well-known/openid-configuration`, { dispatcher: new Agent({ connect: { ca: bent.tls!.caPem } }) }));
    } finally {
      await bent.stop();
    }
  });

  test('serves HTTPS, offers tls_client_auth, and binds the PSU token to the client certificate', async () => {
    assert.match(sb.issuer, /^https:\/\/127\.0\.0\.1:\d+$/);
    const mtls = await Tpp.connect(sb, sb.clients.findIndex((c) => c.authMethod === 'tls_client_auth'));
    assert.ok(mtls.config.serverMetadata().token_endpoint_auth_methods_supported?.includes('tls_client_auth'));
    const created = await mtls.api('A', 'POST', '/account-access-consents', { token: await mtls.cc('accounts'), body: aisBody() });
    assert.equal(created.status, 201, created.text);
    const result = await mtls.authorise(browser, created.body.Data.ConsentId, 'accounts');
    const token = result.tokens!.access_token;
    assert.equal((await mtls.api('A', 'GET', '/accounts', { token })).status, 200);
    // The same token from a connection without the client certificate is refused.
    const noCert = await fetch(`${sb.baseUrls.A}/accounts`, { headers: { authorization: `Bearer ${token}` }, dispatcher: new Agent({ connect: { ca: sb.tls!.caPem } }) });
    assert.equal(noCert.status, 401);
    // A client_secret_basic client works over the same TLS server, trusting the sandbox CA.
    const basic = await Tpp.connect(sb, 0);
    assert.ok(await basic.cc('accounts'));
  });

  test('profile() gives every client a profile the loader accepts, with the CA (and the certificate for mTLS)', async () => {
    for (let i = 0; i < sb.clients.length; i++) {
      const profile = await profileFromObject(sb.profile('all', i), { source: 'sandbox', env: {} });
      assert.equal(profile.auth.clientAuth.method, sb.clients[i].authMethod);
      assert.ok(sb.clients[i].redirectUris.includes(profile.auth.redirectUri));
      assert.equal(profile.mtls?.ca, sb.tls!.caPem);
      if (sb.clients[i].authMethod === 'tls_client_auth') assert.equal(profile.mtls?.cert, sb.tls!.clientCertPem);
    }
    const b = await profileFromObject(sb.profile('B'), { source: 'sandbox', env: {} });
    assert.deepEqual(b.variants, ['B']);
    assert.equal(b.baseUrl, sb.baseUrls.B);
  });
});

describe('obtpp sandbox (CLI)', () => {
  function io(waitForSignal?: Io['waitForSignal']) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const text = { out: '', err: '' };
    stdout.on('data', (d) => (text.out += d));
    stderr.on('data', (d) => (text.err += d));
    const value: Io = { stdout, stderr, env: {}, cwd: process.cwd(), color: false, interactive: false, exitCode: 0, waitForSignal };
    return { io: value, text };
  }

  test('--list-faults prints the table, --json the array', async () => {
    const table = io();
    assert.equal(await runCli(['sandbox', '--list-faults'], table.io), 0);
    assert.match(table.text.out, /^create-200\s+SEC-05\s+creates answer 200 instead of 201$/m);
    assert.match(table.text.out, /^slow-response\s+CHAOS\s+balances: /m);
    const json = io();
    assert.equal(await runCli(['sandbox', '--list-faults', '--json'], json.io), 0);
    const list = JSON.parse(json.text.out);
    // Every fault the sandbox knows is listed, each once, with its kind.
    const known = listFaults();
    assert.deepEqual(list.map((f: { name: string }) => f.name), known.map((f) => f.name));
    assert.equal(new Set(list.map((f: { name: string }) => f.name)).size, list.length);
    for (const kind of ['rule', 'chaos', 'data']) {
      assert.equal(list.filter((f: { kind: string }) => f.kind === kind).length, known.filter((f) => f.kind === kind).length, kind);
    }
    assert.ok(list.filter((f: { kind: string }) => f.kind === 'rule').length >= 24, 'the rule faults');
    // Each listed fault appears in the table too.
    for (const f of known) assert.match(table.text.out, new RegExp(`^${f.name}\\s`, 'm'), f.name);
    assert.deepEqual(Object.keys(list[0]), ['name', 'rule', 'description', 'kind']);
  });

  test('an unknown --fault exits 2 with one line naming the valid faults', async () => {
    const run = io();
    assert.equal(await runCli(['sandbox', '--fault', 'nope'], run.io), 2);
    assert.equal(run.text.err.trim().split('\n').length, 1);
    assert.match(run.text.err, /unknown sandbox fault "nope".*interaction-id-not-echoed/);
  });

  test('runs until a signal, prints its URLs and logins, writes a 0600 profile, stops cleanly', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-sandbox-cli-'));
    try {
      const file = join(dir, 'sandbox.yaml');
      let seen: any;
      const run = io(async () => {
        // While the sandbox runs: its discovery answers, and the printed document describes it.
        seen = JSON.parse(run.text.out);
        const discovery = await fetch(`${seen.issuer}/.well-known/openid-configuration`);
        assert.equal(discovery.status, 200);
        return 'SIGTERM';
      });
      assert.equal(await runCli(['sandbox', '--json', '--fault', 'create-200', '--write-profile', file], run.io), 0);
      assert.match(run.text.err, /SANDBOX — not a bank/);
      assert.match(run.text.err, /Faults ON: create-200/);
      assert.match(run.text.err, /SIGTERM: stopping/);
      assert.equal(seen.baseUrls.A, `${seen.issuer}/A/open-banking/v3.1`);
      assert.deepEqual(seen.psus[0], { username: 'alice', password: 'alice-pass-1', accounts: ['alice-current', 'alice-savings', 'alice-joint'] });
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      const profile = await loadProfile(file, { env: {} });
      assert.equal(profile.auth.issuer, seen.issuer);
      assert.ok(profile.auth.clientAuth.secret && !run.text.out.includes(profile.auth.clientAuth.secret) && !run.text.err.includes(profile.auth.clientAuth.secret), 'the client secret is only in the profile');
      await assert.rejects(fetch(`${seen.issuer}/.well-known/openid-configuration`), 'stopped');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('--tls --json gives the CA file it wrote: the sandbox verifies with it, and the file goes at stop', async () => {
    let seen: any;
    let status = 0;
    const run = io(async () => {
      seen = JSON.parse(run.text.out);
      const ca = await readFile(seen.ca, 'utf8');
      const res = await fetch(`${seen.issuer}/.well-known/openid-configuration`, { dispatcher: new Agent({ connect: { ca } }) });
      status = res.status;
      await res.body?.cancel();
      return 'SIGTERM';
    });
    assert.equal(await runCli(['sandbox', '--tls', '--json'], run.io), 0);
    assert.match(seen.issuer, /^https:/);
    assert.equal(status, 200, 'the issuer verified against the CA file');
    await assert.rejects(stat(seen.ca), 'the CA file is removed at stop');
  });
});
