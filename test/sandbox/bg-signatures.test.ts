/**
 * The NextGenPSD2 HTTP signature end to end, without a browser: the tpp client signs every
 * request where the profile gives signing.certificate and verifies the bank's signed answers
 * against bank.signingCertificate; the berlin-group sandbox started with `signatures` refuses
 * what is unsigned or falsely signed with the file's codes. The profile fields are validated.
 * One sandbox for the file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { TppClient } from '../../src/client/operations.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { digestOf, keyIdOf, parseSignature, signRequest, verifyAnswer, requestSigner } from '../../src/client/http-signature.ts';
import { ProfileError } from '../../src/errors.ts';
import type { Profile } from '../../src/profile/types.ts';

let sb: Sandbox;
let raw: Record<string, any>;
let profile: Profile;
let client: TppClient;
const exchanges: string[] = [];
before(async () => {
  sb = await startSandbox({ dialect: 'berlin-group', signatures: true, sca: ['redirect'] });
  raw = sb.profile('A');
  profile = await profileFromObject(raw, { source: 'sandbox', env: {} });
  client = new TppClient(profile, 'A', httpFromProfile(profile, { onExchange: (e) => exchanges.push(JSON.stringify(e)) }));
});
after(() => sb?.stop());

const consent = () => ({
  access: { availableAccounts: 'allAccounts' }, recurringIndicator: false, frequencyPerDay: 1, combinedServiceIndicator: false,
  validUntil: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
});
const headers = () => ({ 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': 'http://127.0.0.1/cb', 'TPP-Redirect-Preferred': 'true' });
const call = (o: Record<string, unknown> = {}) => ({ token: null, interactionId: false as const, idempotencyKey: false as const, headers: headers(), ...o });
const codeOf = (body: any) => body?.tppMessages?.[0]?.code;

test('the sandbox profile carries both certificates and says the bank requires signed requests', () => {
  assert.equal(profile.bank.requiresSignedRequests, true);
  assert.ok(new X509Certificate(profile.signing!.certificate!).subject.includes('obtpp sandbox TPP'));
  assert.ok(new X509Certificate(profile.bank.signingCertificate!));
  assert.equal(client.httpSigns, true);
});

test('a signed request is served, and its answer verifies: Digest of the body, Signature by the bank\'s certificate', async () => {
  const r = await client.createAccountAccessConsent(consent(), call());
  assert.equal(r.status, 201, r.text);
  assert.deepEqual(r.httpSignature, { valid: true, keyId: keyIdOf(new X509Certificate(profile.bank.signingCertificate!)) });
  assert.equal(r.headers.digest, digestOf(r.text));
  // A GET (no body) is signed too: its Digest is the empty body's.
  const s = await client.getConsentStatus(r.body.consentId, call({ headers: { 'X-Request-ID': randomUUID() } }));
  assert.equal(s.status, 200, s.text);
  assert.equal(s.httpSignature?.valid, true);
});

test('the request carries Digest, a Signature over digest, x-request-id and the redirect URI, and the certificate; never the key', async () => {
  const seen: Record<string, string>[] = [];
  const spy = new TppClient(profile, 'A', httpFromProfile(profile, { onExchange: (e: any) => seen.push(e.request?.headers ?? {}) }));
  const r = await spy.createAccountAccessConsent(consent(), call());
  assert.equal(r.status, 201, r.text);
  const sent = seen.at(-1)!;
  assert.equal(sent.digest, digestOf(JSON.stringify(consent()).replace(/"validUntil":"[^"]+"/, `"validUntil":"${consent().validUntil}"`)));
  const parts = parseSignature(sent.signature!);
  assert.equal(parts.algorithm, 'rsa-sha256');
  assert.deepEqual(parts.headers!.split(' '), ['digest', 'x-request-id', 'tpp-redirect-uri', 'date']);
  assert.match(parts.keyId!, /^SN=[0-9A-F]+,CA=.*obtpp sandbox TPP/);
  assert.equal(new X509Certificate(Buffer.from(sent['tpp-signature-certificate']!, 'base64')).fingerprint256, new X509Certificate(profile.signing!.certificate!).fingerprint256);
  const keyBody = profile.signing!.key.split('\n').slice(1, 3).join('');
  assert.ok(!exchanges.concat(JSON.stringify(seen)).some((e) => e.includes(keyBody)), 'the signing key is in no exchange');
});

test('the sandbox refuses an unsigned request (401 SIGNATURE_MISSING), a Digest not of the body and a false signature (401 SIGNATURE_INVALID), an unknown certificate (401 CERTIFICATE_INVALID)', async () => {
  const unsigned = await client.createAccountAccessConsent(consent(), call({ httpSignature: false }));
  assert.deepEqual([unsigned.status, codeOf(unsigned.body)], [401, 'SIGNATURE_MISSING']);
  const digest = await client.createAccountAccessConsent(consent(), call({ httpSignature: { digestOf: '{"other":"body"}' } }));
  assert.deepEqual([digest.status, codeOf(digest.body)], [401, 'SIGNATURE_INVALID']);
  // The signature of other headers than those sent: the Digest is right, the signature is not.
  const signed = signRequest(requestSigner(profile.signing!.key, profile.signing!.certificate!), { 'x-request-id': randomUUID() }, '');
  const forged = await client.getConsentStatus('any', call({ httpSignature: false, headers: { 'X-Request-ID': randomUUID(), ...signed } }));
  assert.deepEqual([forged.status, codeOf(forged.body)], [401, 'SIGNATURE_INVALID']);
  // A certificate the bank does not know for a TPP (its own, here).
  const foreign = { ...signed, 'tpp-signature-certificate': new X509Certificate(profile.bank.signingCertificate!).raw.toString('base64') };
  const unknown = await client.getConsentStatus('any', call({ httpSignature: false, headers: { 'X-Request-ID': randomUUID(), ...foreign } }));
  assert.deepEqual([unknown.status, codeOf(unknown.body)], [401, 'CERTIFICATE_INVALID']);
});

test('verifyAnswer: a body changed after signing, a signature by another certificate, a Digest missing are each named', () => {
  const bankCert = new X509Certificate(profile.bank.signingCertificate!);
  const tpp = requestSigner(profile.signing!.key, profile.signing!.certificate!);
  const body = '{"consentStatus":"valid"}';
  const h = signRequest(tpp, { 'x-request-id': randomUUID() }, body);
  const ok = verifyAnswer({ ...h, 'x-request-id': 'x' }, body, tpp.cert);
  assert.equal(ok.valid, false, 'the x-request-id signed is not the one carried');
  const id = randomUUID();
  const good = signRequest(tpp, { 'x-request-id': id }, body);
  assert.equal(verifyAnswer({ ...good, 'x-request-id': id }, body, tpp.cert).valid, true);
  assert.match((verifyAnswer({ ...good, 'x-request-id': id }, body + ' ', tpp.cert) as { problem: string }).problem, /not the SHA-256 of the answer's body/);
  assert.match((verifyAnswer({ ...good, 'x-request-id': id }, body, bankCert) as { problem: string }).problem, /keyId .* does not name the bank's signing certificate/);
  assert.match((verifyAnswer({ signature: good.signature, 'x-request-id': id }, body, tpp.cert) as { problem: string }).problem, /no Digest/);
  assert.equal(digestOf(''), `SHA-256=${createHash('sha256').update('').digest('base64')}`);
});

test('profile: the signing certificate and the bank\'s signing fields are berlin-group only, validated, and requiresSignedRequests needs a certificate', async () => {
  const problems = async (p: Record<string, unknown>) => {
    try {
      await profileFromObject(p, { source: 'test.yaml', env: {} });
      return [];
    } catch (error) {
      assert.ok(error instanceof ProfileError, String(error));
      return error.problems;
    }
  };
  const { certificate: _c, ...signingWithout } = raw.signing;
  assert.deepEqual(await problems({ ...raw, signing: signingWithout }), ['$.signing.certificate: is required when bank.requiresSignedRequests is true (obtpp must sign its requests to be served)']);
  assert.deepEqual(await problems({ ...raw, signing: signingWithout, bank: { jwks: raw.bank.jwks } }), []);
  assert.deepEqual(await problems({ ...raw, signing: { ...raw.signing, certificate: 'not a certificate' } }), ['$.signing.certificate']);
  assert.deepEqual(await problems({ ...raw, bank: { ...raw.bank, signingCertificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' } }), ['$.bank.signingCertificate']);
  const uk = (await startSandboxProfileUk());
  const ukProblems = await problems({ ...uk, signing: { ...uk.signing, certificate: raw.signing.certificate }, bank: { ...uk.bank, requiresSignedRequests: true } });
  assert.ok(ukProblems.some((p) => p.startsWith('$.signing.certificate: only for dialect berlin-group')), ukProblems.join('\n'));
  assert.ok(ukProblems.some((p) => p.startsWith('$.bank.requiresSignedRequests: only for dialect berlin-group')), ukProblems.join('\n'));
  // The delta reports the bank offers are a berlin-group field too.
  assert.ok((await problems({ ...uk, deltaReports: { deltaList: true } })).some((p) => p.startsWith('$.deltaReports: only for dialect berlin-group')));
  assert.deepEqual(profile.deltaReports, { entryReferenceFrom: true, deltaList: true, cards: true });
  // A certificate of another key than signing.key: refused when obtpp would first sign, as a profile error (exit 2).
  const mismatched = await profileFromObject({ ...raw, signing: { ...raw.signing, certificate: raw.bank.signingCertificate } }, { source: 'test.yaml', env: {} });
  const c = new TppClient(mismatched, 'A', httpFromProfile(mismatched));
  await assert.rejects(c.getConsentStatus('x', call()), (e: any) => e.code === 'profile_invalid' && /not the certificate of the signing key/.test(e.message) && !e.message.includes('PRIVATE KEY'));
});

/** A UK profile shape (the sandbox's obie profile without starting a bank: its fields are what matter). */
async function startSandboxProfileUk(): Promise<Record<string, any>> {
  return {
    name: 'uk', variants: ['A'], baseUrl: 'https://ob.bank.example/open-banking/v3.1',
    auth: { issuer: 'https://auth.bank.example', clientId: 'c', clientAuth: { method: 'client_secret_post', secret: 's3cret-value' }, redirectUri: 'https://tpp.example/cb' },
    psu: { username: 'u', password: 'p4ssword', driver: { kind: 'sandbox' } },
    signing: { key: raw.signing.key, kid: 'k' }, bank: {},
  };
}

test('the CLI warns when the bank\'s signed answer does not hold (bank.signingCertificate), and still works', async () => {
  const { runObtpp, bin } = await import('../helpers/obtpp.ts');
  const { existsSync } = await import('node:fs');
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build)`);
  const faulty = await startSandbox({ dialect: 'berlin-group', signatures: true, sca: ['redirect'], faults: ['bg-answer-digest-wrong'] });
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-sig-'));
  try {
    const file = join(dir, 'bg.json');
    await writeFile(file, JSON.stringify(faulty.profile('A')));
    const r = await runObtpp(['consent', 'create', 'ais', '--profile', file, '--state', join(dir, 'state.json')], { cwd: dir, env: { HOME: dir } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /WARNING: the bank's signature on POST .*\/v1\/consents does not hold \(bank.signingCertificate\): the Digest is not the SHA-256 of the answer's body/);
    assert.ok(!r.stderr.includes('PRIVATE KEY') && !r.stdout.includes('PRIVATE KEY'));
  } finally {
    await faulty.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
