// The sandbox's chaos faults each do what their sentence in the fault table says, on the endpoint
// family it names and nowhere else. Checked on the wire (undici, node:tls, Chromium), with nothing
// of the harness: test/conformance/chaos.test.ts shows that the harness survives them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import type { Browser } from 'puppeteer';
import { Agent, request } from 'undici';
import { listFaults, SANDBOX_MAX_BODY_BYTES, SANDBOX_TIMEOUTS, startSandbox } from '../../src/sandbox/index.ts';
import { JSON_BOMB_DEPTH } from '../../src/sandbox/faults.ts';
import type { ChaosFaultName, Sandbox } from '../../src/sandbox/index.ts';
import { aisBody, cofBody, fundsBody, launchBrowser, paymentBody, Tpp, tppSignature } from './tpp.ts';
import { RULE_ID } from '../../src/conformance/rule-id.ts';

const JOINT = '40400411290147';

interface World {
  sb: Sandbox;
  tpp: Tpp;
  browser: Browser;
}

/** One raw request: status, headers and the body read to its end (or the error that cut it). */
async function raw(sb: Sandbox, variant: 'A' | 'B', method: string, path: string, o: { token?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}) {
  const headers: Record<string, string> = { accept: 'application/json', ...(o.headers ?? {}) };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (method === 'POST' && path === '/domestic-payments' && o.body !== undefined) headers['x-jws-signature'] = await tppSignature(sb, JSON.stringify(o.body));
  const dispatcher = new Agent({ connect: sb.tls ? { ca: sb.tls.caPem } : undefined });
  try {
    const res = await request(sb.baseUrls[variant] + path, {
      method: method as 'GET', headers, body: o.body === undefined ? undefined : JSON.stringify(o.body), dispatcher,
      signal: o.timeoutMs ? AbortSignal.timeout(o.timeoutMs) : undefined,
    });
    const chunks: Buffer[] = [];
    let cut: unknown;
    try {
      for await (const chunk of res.body) chunks.push(chunk as Buffer);
    } catch (error) {
      cut = error;
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const h = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    };
    return { status: res.statusCode, header: h, text, bytes: Buffer.concat(chunks).length, cut };
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

async function authorisedAis(w: World): Promise<string> {
  const created = await w.tpp.api('A', 'POST', '/account-access-consents', { token: await w.tpp.cc('accounts'), body: aisBody() });
  return (await w.tpp.authorise(w.browser, created.body.Data.ConsentId, 'accounts')).tokens!.access_token;
}

async function payment(w: World): Promise<{ id: string; cc: string }> {
  const cc = await w.tpp.cc('payments');
  const created = await w.tpp.api('A', 'POST', '/domestic-payments', { token: cc, body: paymentBody(), headers: { 'x-idempotency-key': `k-${Date.now()}` } });
  assert.equal(created.status, 201, created.text);
  return { id: created.body.Data.ConsentId, cc };
}

/** The PSU's login page for a consent, opened in a fresh browser context; resolves with how far the page got. */
async function openLogin(w: World, intentId: string, scope: string, timeoutMs: number) {
  const { url } = await w.tpp.authorizationUrl(intentId, scope);
  const context = await w.browser.createBrowserContext();
  try {
    const page = await context.newPage();
    const loaded = await page.goto(url.href, { waitUntil: 'domcontentloaded', timeout: timeoutMs }).then(() => true, (e: Error) => (e.name === 'TimeoutError' ? false : Promise.reject(e)));
    const banner = await page.$('[data-testid=sandbox-banner]');
    const username = await page.$('[data-testid=username]');
    return { loaded, banner: banner !== null, username: username !== null };
  } finally {
    await context.close();
  }
}

/** The consent page for a consent (after logging in), with whether it has Approve and Reject. */
async function consentButtons(w: World, intentId: string, scope: string) {
  let buttons = { approve: false, reject: false };
  await w.tpp.authorise(w.browser, intentId, scope, {
    decision: 'reject',
    onConsentPage: async (page) => {
      buttons = { approve: (await page.$('[data-testid=approve]')) !== null, reject: (await page.$('[data-testid=reject]')) !== null };
    },
  });
  return buttons;
}

/** What each chaos fault must visibly do, and that the neighbouring endpoints are untouched. */
const PROOFS: Record<ChaosFaultName, (w: World) => Promise<void>> = {
  'slow-response': async (w) => {
    const token = await authorisedAis(w);
    const quick = await raw(w.sb, 'A', 'GET', '/accounts/alice-current/transactions', { token, timeoutMs: SANDBOX_TIMEOUTS.requestMs });
    assert.equal(quick.status, 200, 'other data calls answer within the time-out');
    await assert.rejects(raw(w.sb, 'A', 'GET', '/accounts/alice-current/balances', { token, timeoutMs: SANDBOX_TIMEOUTS.requestMs }),
      (e: Error) => e.name === 'TimeoutError' || e.name === 'AbortError', 'no answer within the profile\'s request time-out');
    const late = await raw(w.sb, 'A', 'GET', '/accounts/alice-current/balances', { token });
    assert.equal(late.status, 200, 'the answer comes, late');
    assert.ok(JSON.parse(late.text).Data.Balance.length > 0);
  },
  'connection-reset': async (w) => {
    const token = await authorisedAis(w);
    const r = await raw(w.sb, 'A', 'GET', '/accounts/alice-current/transactions', { token });
    assert.equal(r.status, 200, 'the headers arrive');
    assert.ok(r.cut, 'the body is cut off');
    assert.ok(r.bytes > 0 && r.bytes < Number(r.header('content-length')), `part of the body arrived: ${r.bytes} of ${r.header('content-length')} bytes`);
    assert.equal((await raw(w.sb, 'A', 'GET', '/accounts/alice-current/balances', { token })).cut, undefined, 'balances are whole');
  },
  'html-body': async (w) => {
    const token = await authorisedAis(w);
    const r = await raw(w.sb, 'A', 'GET', '/accounts/alice-current', { token });
    assert.equal(r.status, 200, 'status unchanged');
    assert.match(r.header('content-type') ?? '', /^text\/html/);
    assert.match(r.text, /^<!doctype html>/);
    const refused = await raw(w.sb, 'A', 'GET', '/accounts/no-such-account', { token });
    assert.equal(refused.status, 403, 'a refusal keeps its status');
    assert.match(refused.header('content-type') ?? '', /^text\/html/);
    const list = await raw(w.sb, 'A', 'GET', '/accounts', { token });
    assert.match(list.header('content-type') ?? '', /^application\/json/, 'the account list is JSON');
  },
  'json-bomb': async (w) => {
    const token = await authorisedAis(w);
    const r = await raw(w.sb, 'A', 'GET', '/accounts', { token });
    assert.equal(r.status, 200, 'status unchanged');
    assert.match(r.header('content-type') ?? '', /^application\/json/);
    assert.equal(r.bytes, 2 * JSON_BOMB_DEPTH);
    assert.ok(r.text.startsWith('[['.repeat(1000)) && r.text.endsWith(']]'.repeat(1000)), 'nested arrays, opened then closed');
    const refused = await raw(w.sb, 'A', 'GET', '/accounts');
    assert.equal(refused.status, 401, 'a refusal is left alone');
    const detail = await raw(w.sb, 'A', 'GET', '/accounts/alice-current', { token });
    assert.equal(JSON.parse(detail.text).Data.Account[0].AccountId, 'alice-current', 'the account detail is whole');
  },
  'invalid-json': async (w) => {
    // With a client-credentials token the bank refuses the confirmation: its error body is what gets cut.
    const r = await raw(w.sb, 'A', 'POST', '/funds-confirmations', { token: await w.tpp.cc('fundsconfirmations'), body: fundsBody('cof-0000', '1.00') });
    assert.equal(r.status, 403);
    assert.match(r.header('content-type') ?? '', /^application\/json/);
    assert.ok(r.text.startsWith('{"Code"') && !parses(r.text), `a JSON body cut short: ${r.text}`);
    const consent = await raw(w.sb, 'A', 'POST', '/funds-confirmation-consents', { token: await w.tpp.cc('fundsconfirmations'), body: cofBody(JOINT) });
    assert.equal(consent.status, 201);
    assert.ok(parses(consent.text), 'funds consents are whole');
  },
  'wrong-content-type': async (w) => {
    const { id, cc } = await payment(w);
    const r = await raw(w.sb, 'A', 'GET', `/domestic-payments/${id}/status`, { token: cc });
    assert.equal(r.status, 200);
    assert.match(r.header('content-type') ?? '', /^text\/plain/);
    assert.equal(JSON.parse(r.text).Data.Status, 'AwaitingAuthorisation', 'the body is the right JSON');
    const read = await raw(w.sb, 'A', 'GET', `/domestic-payments/${id}`, { token: cc });
    assert.match(read.header('content-type') ?? '', /^application\/json/, 'the payment itself is labelled JSON');
  },
  'oversized-body': async (w) => {
    const token = await authorisedAis(w);
    const list = await raw(w.sb, 'A', 'GET', '/accounts/alice-current/transactions', { token });
    const first = JSON.parse(list.text).Data.Transaction[0].TransactionId;
    assert.ok(list.bytes < SANDBOX_MAX_BODY_BYTES, 'the transaction list is small');
    const r = await raw(w.sb, 'A', 'GET', `/alice-current/transactions/${first}`, { token });
    assert.equal(r.status, 200);
    assert.equal(r.header('content-length'), undefined, 'no Content-Length: the size shows only while reading');
    assert.equal(r.bytes, 2 * SANDBOX_MAX_BODY_BYTES);
    assert.equal(JSON.parse(r.text).Data.Transaction[0].TransactionId, first, 'valid JSON, the right transaction, padded');
  },
  '500-no-body': async (w) => {
    const cc = await w.tpp.cc('fundsconfirmations');
    const created = await raw(w.sb, 'A', 'POST', '/funds-confirmation-consents', { token: cc, body: cofBody(JOINT) });
    assert.equal(created.status, 201, 'creating works');
    const r = await raw(w.sb, 'A', 'GET', `/funds-confirmation-consents/${JSON.parse(created.text).Data.ConsentId}`, { token: cc });
    assert.equal(r.status, 500);
    assert.equal(r.text, '');
    assert.ok(r.header('x-fapi-interaction-id'), 'the interaction id is still there');
  },
  '503-no-body': async (w) => {
    const r = await raw(w.sb, 'A', 'POST', '/domestic-payments', { token: await w.tpp.cc('payments'), body: paymentBody(), headers: { 'x-idempotency-key': 'k-503' } });
    assert.equal(r.status, 503);
    assert.equal(r.text, '');
    assert.equal(r.header('content-type'), undefined);
    assert.equal((await raw(w.sb, 'A', 'POST', '/funds-confirmation-consents', { token: await w.tpp.cc('fundsconfirmations'), body: cofBody(JOINT) })).status, 201, 'other creates work');
  },
  '429-retry-after': async (w) => {
    const cc = await w.tpp.cc('payments');
    const created = await raw(w.sb, 'A', 'POST', '/domestic-payments', { token: cc, body: paymentBody(), headers: { 'x-idempotency-key': 'k-429' } });
    assert.equal(created.status, 201, 'creating the payment works');
    const id = JSON.parse(created.text).Data.ConsentId;
    const r = await raw(w.sb, 'A', 'GET', `/domestic-payments/${id}`, { token: cc });
    assert.equal(r.status, 429);
    assert.equal(r.header('retry-after'), '30');
    assert.equal(r.text, '');
    assert.equal((await raw(w.sb, 'A', 'GET', `/domestic-payments/${id}/status`, { token: cc })).status, 200, 'the status still reads');
  },
  'redirect-other-host': async (w) => {
    const r = await raw(w.sb, 'A', 'POST', '/funds-confirmation-consents', { token: await w.tpp.cc('fundsconfirmations'), body: cofBody(JOINT) });
    assert.equal(r.status, 307);
    const location = new URL(r.header('location')!);
    assert.notEqual(location.host, new URL(w.sb.issuer).host);
    assert.equal(location.hostname, 'gateway.other-bank.invalid');
    assert.equal(location.pathname, '/A/open-banking/v3.1/funds-confirmation-consents', 'the same path, on another host');
  },
  'tls-host-mismatch': async (w) => {
    assert.ok(w.sb.tls, 'the fault brings TLS with it');
    assert.match(w.sb.issuer, /^https:\/\/127\.0\.0\.1:/);
    const { hostname, port } = new URL(w.sb.issuer);
    const handshake = (servername?: string) => new Promise<string>((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port), ca: w.sb.tls!.caPem, servername, ...(servername ? { checkServerIdentity: () => undefined } : {}) }, () => {
        const san = socket.getPeerCertificate().subjectaltname ?? '';
        socket.end();
        resolve(san);
      });
      socket.once('error', reject);
    });
    await assert.rejects(handshake(), (e: NodeJS.ErrnoException) => e.code === 'ERR_TLS_CERT_ALTNAME_INVALID', 'the certificate is not for the host connected to');
    assert.equal(await handshake('other-bank.invalid'), 'DNS:other-bank.invalid', 'a certificate of the sandbox CA, for another name only');
    assert.equal(w.sb.profile().mtls && typeof (w.sb.profile().mtls as { ca?: string }).ca, 'string', 'the profile trusts the CA: only the name is wrong');
  },
  'login-page-hangs': async (w) => {
    const { id } = await payment(w);
    const stuck = await openLogin(w, id, 'payments', 3_000);
    assert.equal(stuck.loaded, false, 'the login page never finishes loading');
    assert.equal(stuck.banner, true, 'its first bytes arrived');
    assert.equal(stuck.username, false, 'the login form never came');
    const cof = await w.tpp.api('A', 'POST', '/funds-confirmation-consents', { token: await w.tpp.cc('fundsconfirmations'), body: cofBody(JOINT) });
    const fine = await openLogin(w, cof.body.Data.ConsentId, 'fundsconfirmations', 10_000);
    assert.deepEqual(fine, { loaded: true, banner: true, username: true }, 'a funds-confirmation login page loads');
  },
  'no-approve-button': async (w) => {
    const { id } = await payment(w);
    assert.deepEqual(await consentButtons(w, id, 'payments'), { approve: false, reject: true }, 'a payment can only be rejected');
    const ais = await w.tpp.api('A', 'POST', '/account-access-consents', { token: await w.tpp.cc('accounts'), body: aisBody() });
    assert.deepEqual(await consentButtons(w, ais.body.Data.ConsentId, 'accounts'), { approve: true, reject: true }, 'other consents keep Approve');
  },
};

describe('sandbox chaos faults', { concurrency: 4 }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser({ insecure: true });
  });
  after(async () => {
    await browser?.close();
  });

  test('each is listed, as chaos, with its scope and CHAOS in place of a rule, and has a proof here', () => {
    const chaos = listFaults().filter((f) => f.kind === 'chaos');
    assert.deepEqual(chaos.map((f) => f.name).sort(), Object.keys(PROOFS).sort());
    for (const f of chaos) {
      assert.equal(f.rule, 'CHAOS', f.name);
      assert.match(f.description, /^[a-z][\w -]*(\([AB]\))?: /, `${f.name}: the sentence starts with its scope`);
    }
    assert.ok(listFaults().filter((f) => f.kind === 'rule').every((f) => RULE_ID.test(f.rule)));
  });

  test('the sandbox profile carries the tight time-outs and the body limit the chaos faults are sized against', async () => {
    const sb = await startSandbox();
    try {
      assert.deepEqual(sb.profile().timeouts, SANDBOX_TIMEOUTS);
      assert.deepEqual(sb.profile().limits, { maxBodyBytes: SANDBOX_MAX_BODY_BYTES });
    } finally {
      await sb.stop();
    }
  });

  for (const { name, description } of listFaults().filter((f) => f.kind === 'chaos')) {
    test(`${name}: ${description}`, async () => {
      const sb = await startSandbox({ faults: [name] });
      try {
        // Over the mismatched certificate not even discovery works: that proof needs no TPP.
        const tpp = name === 'tls-host-mismatch' ? (undefined as never) : await Tpp.connect(sb);
        await PROOFS[name as ChaosFaultName]({ sb, tpp, browser });
      } finally {
        await sb.stop();
      }
    });
  }
});
