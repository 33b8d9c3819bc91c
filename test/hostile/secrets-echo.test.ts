// Issue 25, item 1: an authorisation server (and resource server) that echoes every secret it could
// know — the client secret, the PSU's user name and password (from ${env:…}), the private key (PEM,
// and its JWK `d`), the software statement, the refresh and access tokens — raw, URL-encoded,
// base64 and JSON-escaped, in the body and in headers, from discovery, token, PAR, registration,
// JWKS and the API. obtpp conform (registration, token endpoint and API reached), obtpp register,
// token refresh and consent authorise (PAR) run against it; then every file written and all
// stdout/stderr are scanned for every secret, in every form.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync, randomBytes, createPrivateKey } from 'node:crypto';
import { runObtpp, type Run } from '../helpers/obtpp.ts';
import { startHostileBank, hostileProfile, writeSessionState, type HostileBank } from './hostile-bank.ts';
import { HttpClient } from '../../src/client/http.ts';
import { Redactor } from '../../src/client/redact.ts';
import { loadProfile } from '../../src/profile/load.ts';

const rand = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const jwkD = (createPrivateKey(pem).export({ format: 'jwk' }) as { d: string }).d;
const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const secrets = {
  clientSecret: rand('cs-'),
  psuPassword: rand('pw-'),
  psuUser: rand('user-'),
  ssa: `${part({ alg: 'PS256', typ: 'JWT' })}.${part({ software_id: rand('sw-'), iss: 'directory' })}.${randomBytes(64).toString('base64url')}`,
  refreshToken: rand('rt-'),
  accessToken: rand('at-'),
  privateKey: pem,
  jwkD,
};
const env = {
  H_CLIENT_SECRET: secrets.clientSecret,
  H_PRIVATE_KEY: secrets.privateKey,
  H_PSU_PASSWORD: secrets.psuPassword,
  H_PSU_USER: secrets.psuUser,
  H_SSA: secrets.ssa,
};

/** What the bank says back: every secret in every form a server might use. */
function echoOf(): string {
  return Object.entries(secrets).map(([name, s]) => `${name} ${s} url:${encodeURIComponent(s)} b64:${Buffer.from(s).toString('base64')} json:${JSON.stringify(s)}`).join(' | ');
}
/** Header-safe: the PEM's line breaks as `\n` (JSON), and one header per secret in base64. */
function headersOf(): Record<string, string> {
  const h: Record<string, string> = { 'x-echo': JSON.stringify(echoOf()).slice(1, -1), 'www-authenticate-info': `secret="${secrets.clientSecret}"` };
  for (const [name, s] of Object.entries(secrets)) h[`x-echo-${name.toLowerCase()}`] = Buffer.from(s).toString('base64');
  return h;
}

/** Forms a secret may take in a file or on a terminal. */
function forms(s: string): string[] {
  const out = [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1), Buffer.from(s).toString('base64'), Buffer.from(s).toString('base64url')];
  // A PEM: any one line of its key material is enough to count as a leak.
  if (s.includes('PRIVATE KEY')) out.push(...s.split('\n').filter((l) => l.length === 64).slice(1, 4));
  return [...new Set(out)];
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

/**
 * `heldBySession`: the tokens in the session state are secrets of the CLI commands; the conform
 * run never holds them (it keeps no session), so an echo of them is not its secret to hide.
 */
function leaks(where: string, text: string, heldBySession = true): string[] {
  const found: string[] = [];
  const known: Record<string, string> = { ...secrets, ccToken: bank.ccToken };
  if (!heldBySession) {
    delete known.accessToken;
    delete known.refreshToken;
  }
  for (const [name, s] of Object.entries(known)) {
    for (const f of forms(s)) if (text.includes(f)) found.push(`${name} (as ${f === s ? 'is' : JSON.stringify(f.slice(0, 24))}) in ${where}`);
  }
  return found;
}

let bank: HostileBank;
let work: string;
let profilePath: string;
let statePath: string;
const runs: Array<Run & { args: string[] }> = [];
const run = async (args: string[], e: Record<string, string>) => ({ ...(await runObtpp(args, { env: e })), args });

before(async () => {
  bank = await startHostileBank({ echo: echoOf(), headers: headersOf() });
  work = await mkdtemp(join(tmpdir(), 'obtpp-hostile-secrets-'));
  profilePath = join(work, 'hostile.json');
  statePath = join(work, 'state.json');
  await writeFile(profilePath, JSON.stringify(hostileProfile(bank.base)), { mode: 0o600 });
  // A session that already holds tokens for one consent (as after obtpp consent authorise).
  await writeSessionState(statePath, bank.base, { id: 'aac-hostile-1', status: 'AwaitingAuthorisation' },
    { accessToken: secrets.accessToken, refreshToken: secrets.refreshToken, expiresAt: Date.now() - 1000, obtainedAt: Date.now() - 60_000 });
});

after(async () => {
  await bank?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

test('a bank echoing every secret from every endpoint: no secret in any artefact, stdout or stderr', { timeout: 300_000 }, async () => {
  const reportDir = join(work, 'report');
  const common = ['--profile', profilePath, '--state', statePath];
  const runEnv = { ...env, OBTPP_STATE: statePath };
  // conform: discovery (echo in a member and in headers), the token endpoint (client credentials),
  // the registration endpoint (DCR-01, DCR-02), the API's consent endpoints (AIS-01, with the
  // token it issued; COF-01, whose token it refuses).
  // The conform run and the CLI session (one command after another) side by side.
  const [conformRun, session] = await Promise.all([
    run(['conform', '--profile', profilePath, '--report-dir', reportDir, '--tags', '@DCR-01 or @DCR-02 or @COF-01 or @AIS-01', '--json'], runEnv),
    (async () => [
      await run(['register', ...common, '--verbose'], runEnv),
      await run(['token', 'refresh', ...common, '--verbose'], runEnv),
      await run(['consent', 'authorise', 'aac-hostile-1', ...common, '--verbose'], runEnv),
    ])(),
  ]);
  runs.push(conformRun, ...session);

  // Each endpoint was reached (else the scan proves nothing about it).
  for (const want of ['GET /.well-known/openid-configuration', 'POST /token grant_type=client_credentials', 'POST /token grant_type=refresh_token', 'POST /register', 'POST /par']) {
    assert.ok(bank.seen.some((s) => s.startsWith(want)), `the bank was asked ${want}; it saw ${bank.seen.join(', ')}`);
  }
  assert.ok(bank.seen.some((s) => s.includes('/A/open-banking/v3.1/')), `the API was reached: ${bank.seen.join(', ')}`);

  // The runs failed as they should, each saying why in the bank's (redacted) words.
  const [conform, register, refresh, authorise] = runs;
  assert.equal(conform!.code, 1, `conform: ${conform!.stderr}`);
  assert.match(register!.stderr, /refused the registration: invalid_software_statement/);
  assert.match(refresh!.stderr, /invalid_request/);
  assert.match(authorise!.stderr, /pushed authorization request/);
  assert.match(register!.stderr + refresh!.stderr, /\[REDACTED\]/, 'the echo is shown, redacted');

  const found: string[] = [];
  for (const r of runs) {
    const session = r.args[0] !== 'conform';
    found.push(...leaks(`stdout of obtpp ${r.args.slice(0, 2).join(' ')}`, r.stdout, session), ...leaks(`stderr of obtpp ${r.args.slice(0, 2).join(' ')}`, r.stderr, session));
  }
  const files = await filesUnder(reportDir);
  assert.ok(files.some((f) => f.endsWith('summary.json')) && files.some((f) => f.endsWith('junit.xml')) && files.some((f) => f.endsWith('messages.ndjson')) && files.some((f) => f.endsWith('report.html')), `reports written: ${files.join(', ')}`);
  for (const f of files) {
    const buf = await readFile(f);
    found.push(...leaks(f.slice(reportDir.length + 1), buf.toString('utf8'), false), ...leaks(`${f.slice(reportDir.length + 1)} (latin1)`, buf.toString('latin1'), false));
  }
  assert.deepEqual([...new Set(found)], []);
  // The echo did reach the evidence (redacted), so the scan looked at the bank's words.
  const summary = await readFile(join(reportDir, 'summary.json'), 'utf8');
  assert.match(summary, /\[REDACTED\]/);
});

test('the JWKS endpoint: its echo is redacted in the captured exchange and the error', async () => {
  const profile = await loadProfile(profilePath, { env, cwd: work });
  // As a session's client: the profile's secrets and the tokens the session holds.
  const http = new HttpClient({ secrets: [...profile.secrets, secrets.accessToken, secrets.refreshToken], maxBodyBytes: profile.limits.maxBodyBytes });
  try {
    const r = await http.request('GET', `${bank.base}/jwks`);
    assert.equal(r.status, 500);
    const captured = JSON.stringify(r.exchange);
    assert.match(captured, /\[REDACTED\]/);
    assert.deepEqual(leaks('the JWKS exchange', captured), []);
  } finally {
    await http.close();
  }
});

test('Redactor: a secret in each of its forms, a PEM\'s JWK members, and an error chain quoting the bank', () => {
  const r = new Redactor([secrets.clientSecret, secrets.privateKey]);
  for (const f of [...forms(secrets.clientSecret), jwkD]) assert.equal(r.text(`x ${f} y`), 'x [REDACTED] y', f.slice(0, 20));
  // An openid-client-style error: the bank's body as `cause`, its words in the message and members.
  const bankError = Object.assign(new Error(`invalid_client: secret ${secrets.clientSecret}`), {
    error: 'invalid_client', error_description: `secret ${secrets.clientSecret}`, cause: { error_description: `key ${jwkD}` },
  });
  const ours = new Error(`token: the bank said secret ${secrets.clientSecret}`, { cause: bankError });
  r.error(ours);
  assert.deepEqual(leaks('the error chain', JSON.stringify({ m: ours.message, s: ours.stack, c: bankError.message, cs: bankError.stack, d: bankError.error_description, b: bankError.cause })), []);
  assert.match(ours.message, /\[REDACTED\]/);
});
