/**
 * Profiles with `dialect: berlin-group` (issue 15, preview): the loader accepts them with the
 * NextGenPSD2 defaults, the berlin-group sandbox writes one that loads, the Berlin Group fields are
 * refused on a UK profile, the TPP commands that do not speak the dialect yet refuse such a profile
 * in one line (exit 2), and conform judges it — through the real binary.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { profileFromObject } from '../../src/profile/load.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const bin = join(root, 'dist/src/cli/main.js');
let dir: string;
let child: ChildProcess | undefined;

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bgprofile-'));
});
after(async () => {
  if (child?.pid && child.exitCode === null) child.kill('SIGINT');
  await rm(dir, { recursive: true, force: true });
});

/** `obtpp …args` in the test's folder, with a bare environment (in a warm worker: test/helpers/obtpp.ts). */
async function obtpp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runObtpp(args, { cwd: dir, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: dir }, inherit: false });
  return { code, stdout, stderr };
}

test('the berlin-group sandbox\'s profile loads with the NextGenPSD2 defaults', async () => {
  const sb = await startSandbox({ dialect: 'berlin-group' });
  try {
    const raw = sb.profile();
    delete (raw as { paths?: unknown }).paths;
    const p = await profileFromObject(raw, { source: 'sandbox' });
    assert.equal(p.dialect, 'berlin-group');
    // Multilevel SCA: payments from alice's joint account need bob's SCA too (SCA-03).
    assert.deepEqual(p.sca, { approaches: ['redirect', 'oauth'], multilevel: { iban: sb.psus[0]!.accounts.find((a) => a.AccountId === 'alice-joint')!.iban, psu: { username: 'bob', password: 'bob-pass-1' } } });
    assert.equal(p.psuIpAddress, '127.0.0.1');
    assert.equal(p.paths.accountAccessConsents, '/v1/consents');
    assert.equal(p.paths.paymentsPrefix, '/v1/payments');
    assert.equal(p.paths.paymentProduct, 'sepa-credit-transfers');
    assert.deepEqual(p.auth.scopes, { ais: 'AIS', cof: 'PIIS', pis: 'PIS' });
    assert.deepEqual(p.auth.intentBinding, { method: 'scope', scopeTemplate: '{scope}:{intentId}' });
    assert.equal(p.baseUrl, sb.baseUrls.A);
    assert.ok(!p.implements?.B?.includes('createPaymentConsent'), 'no payments in variant B');
  } finally {
    await sb.stop();
  }
});

test('a UK profile may not carry the Berlin Group fields', async () => {
  const sb = await startSandbox();
  try {
    const raw = { ...sb.profile(), sca: { approaches: ['redirect'] } };
    await assert.rejects(profileFromObject(raw, { source: 'uk.yaml' }), /\$\.sca/);
    const bg = { ...sb.profile(), dialect: 'berlin-group', sca: { approaches: ['carrier-pigeon'] } };
    await assert.rejects(profileFromObject(bg, { source: 'bg.yaml' }), /\$\.sca\.approaches\[0\]/);
  } finally {
    await sb.stop();
  }
});

test('obtpp sandbox --dialect berlin-group --write-profile writes a loadable profile; consent create ais → consent authorise (redirect SCA, Chromium) → accounts work against it; the other commands refuse it in one line, conform judges it', async () => {
  const file = join(dir, 'bg.yaml');
  child = spawn(process.execPath, [bin, 'sandbox', '--dialect', 'berlin-group', '--write-profile', file], { cwd: dir, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  await new Promise<void>((ready, fail) => {
    child!.stdout!.on('data', () => out.includes('profile:') && ready());
    child!.once('exit', (code) => fail(new Error(`the sandbox exited ${code}`)));
  });
  assert.match(out, /variant A: http:\/\/127\.0\.0\.1:\d+\/A\/xs2a/);
  const doc = parse(await readFile(file, 'utf8'));
  assert.equal(doc.dialect, 'berlin-group');
  const check = await obtpp(['profile', 'check', file]);
  assert.equal(check.code, 0, check.stderr);
  const state = ['--profile', file, '--state', join(dir, 'state.json')];
  const created = await obtpp(['consent', 'create', 'ais', ...state, '--expires', '+30d', '--json']);
  assert.equal(created.code, 0, created.stderr);
  const consent = JSON.parse(created.stdout);
  assert.equal(consent.consentStatus, 'received');
  assert.ok(consent._links.scaRedirect.href, 'the redirect approach, the profile\'s first');
  const authorised = await obtpp(['consent', 'authorise', ...state, '--accounts', 'alice-savings', '--json']);
  assert.equal(authorised.code, 0, authorised.stderr);
  assert.deepEqual(JSON.parse(authorised.stdout), { status: 'authorised', consentId: consent.consentId, fn: 'ais', accounts: ['alice-savings'] });
  const accounts = await obtpp(['accounts', ...state, '--json']);
  assert.equal(accounts.code, 0, accounts.stderr);
  assert.deepEqual(JSON.parse(accounts.stdout).accounts.map((a: { resourceId: string }) => a.resourceId), ['alice-savings']);
  const table = await obtpp(['accounts', ...state]);
  assert.match(table.stdout, /alice-savings\s+Rainy day\s+EUR\s+SVGS\s+DE\d{2}/);
  const listed = await obtpp(['consent', 'list', ...state, '--json']);
  assert.equal(JSON.parse(listed.stdout).consents[0].status, 'valid');
  // A command that does not speak the dialect (balances, transactions and payments do: test/cli/berlin-group-session.test.ts).
  const cof = await obtpp(['consent', 'create', 'cof', ...state, '--debtor-id', 'alice-savings']);
  assert.equal(cof.code, 2);
  assert.equal(cof.stderr.trim().split('\n').length, 1, cof.stderr);
  assert.match(cof.stderr, /speaks berlin-group: this command speaks only the obie dialect so far/);
  // consent get / delete, funds confirm and payment status speak the dialect too.
  const got = await obtpp(['consent', 'get', ...state, '--json']);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(JSON.parse(got.stdout).consentStatus, 'valid');
  const iban = /DE\d{20}/.exec(out)?.[0];
  assert.ok(iban, 'the sandbox prints its IBANs');
  const funds = await obtpp(['funds', 'confirm', ...state, '--iban', iban!, '--amount', '0.01', '--json']);
  assert.equal(funds.code, 0, funds.stderr);
  assert.deepEqual(JSON.parse(funds.stdout), { fundsAvailable: true });
  const noIban = await obtpp(['funds', 'confirm', ...state, '--amount', '1']);
  assert.equal(noIban.code, 2);
  assert.match(noIban.stderr, /--iban is required/);
  const unknownPayment = await obtpp(['payment', 'status', 'no-such-payment', ...state]);
  assert.equal(unknownPayment.code, 1);
  assert.match(unknownPayment.stderr, /refused GET \/v1\/payments\/sepa-credit-transfers\/no-such-payment\/status: 404/);
  assert.doesNotMatch(unknownPayment.stderr, /x-jws-signature/, 'no UK message signing in this dialect');
  const uk = await obtpp(['consent', 'create', 'ais', ...state, '--permissions', 'ReadBalances']);
  assert.equal(uk.code, 2);
  assert.match(uk.stderr, /UK Open Banking terms/);
  // The same with SCA by OAuth2: the consent in the scope, the token kept and sent with Consent-ID.
  const oauthFile = join(dir, 'bg-oauth.yaml');
  await writeFile(oauthFile, (await readFile(file, 'utf8')).replace(/sca:\n  approaches:\n    - redirect\n    - oauth/, 'sca:\n  approaches:\n    - oauth'));
  const oauthState = ['--profile', oauthFile, '--state', join(dir, 'state-oauth.json')];
  const oauthCreated = await obtpp(['consent', 'create', 'ais', ...oauthState, '--json']);
  assert.equal(oauthCreated.code, 0, oauthCreated.stderr);
  assert.ok(JSON.parse(oauthCreated.stdout)._links.scaOAuth, oauthCreated.stdout);
  const oauthAuthorised = await obtpp(['consent', 'authorise', ...oauthState, '--accounts', 'alice-current', '--json']);
  assert.equal(oauthAuthorised.code, 0, oauthAuthorised.stderr);
  assert.match(JSON.parse(oauthAuthorised.stdout).scope, /AIS:consent-/);
  const oauthAccounts = await obtpp(['accounts', ...oauthState, '--json']);
  assert.equal(oauthAccounts.code, 0, oauthAccounts.stderr);
  assert.deepEqual(JSON.parse(oauthAccounts.stdout).accounts.map((a: { resourceId: string }) => a.resourceId), ['alice-current']);

  // conform judges the dialect (test/conformance/berlin-group-conform.test.ts runs all of it): one rule here.
  const deleted = await obtpp(['consent', 'delete', consent.consentId, ...state]);
  assert.equal(deleted.code, 0, deleted.stderr);
  const after = await obtpp(['consent', 'get', consent.consentId, ...state, '--json']);
  assert.equal(JSON.parse(after.stdout).consentStatus, 'terminatedByTpp');
  const conform = await obtpp(['conform', '--profile', file, '--variant', 'B', '--tags', '@BG-01', '--report-dir', join(dir, 'r'), '--json']);
  assert.equal(conform.code, 0, conform.stderr);
  assert.equal(JSON.parse(conform.stdout).variants[0].rules.find((r: { id: string }) => r.id === 'BG-01').status, 'passed');
  child.kill('SIGINT');
  await new Promise((r) => child!.once('exit', r));
});

test('a profile file with dialect berlin-group and no paths loads (obtpp profile check)', async () => {
  const file = join(dir, 'mini.yaml');
  await writeFile(file, `name: a NextGenPSD2 bank
dialect: berlin-group
variants: [A]
baseUrl: https://api.bank.example/psd2
auth: { issuer: https://auth.bank.example, clientId: tpp, clientAuth: { method: client_secret_basic, secret: s3cr3t-value }, redirectUri: https://tpp.example/cb }
psu: { username: u, password: p4ssw0rd, driver: { kind: manual } }
`);
  const check = await obtpp(['profile', 'check', file, '--json']);
  assert.equal(check.code, 0, check.stderr);
  const p = JSON.parse(check.stdout);
  assert.equal(p.paths.accounts, '/v1/accounts');
  assert.deepEqual(p.sca, { approaches: ['redirect', 'oauth'] });
});
