// x-jws-signature: the harness's signing and checking (src/client/jws.ts) with jose, and the tpp
// client signing payment POSTs and checking the bank's answers against a JWKS from the profile,
// against a real loopback server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair, exportJWK, exportPKCS8, createLocalJWKSet, FlattenedSign } from 'jose';
import { signDetached, verifyDetached, OB_CRIT, OB_IAT, OB_ISS, OB_TAN, type MessageSigner } from '../../src/client/jws.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { maskProfile } from '../../src/profile/mask.ts';
import { TppClient } from '../../src/client/operations.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { listenLoopback } from '../helpers/loopback.ts';

async function keyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('PS256', { extractable: true });
  return { privateKey, kid, jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, use: 'sig' }] }, pem: await exportPKCS8(privateKey) };
}

const body = JSON.stringify({ Data: { ConsentId: 'pay-1', Initiation: { InstructedAmount: { Amount: '10.00', Currency: 'GBP' } } }, Risk: {} });

test('a detached PS256 signature with the critical claims verifies over the body, and only over it', async () => {
  const k = await keyPair('k1');
  const signer: MessageSigner = { key: k.privateKey, kid: 'k1', issuer: 'org/ssa', trustAnchor: 'openbanking.org.uk' };
  const sig = await signDetached(body, signer);
  const [head, middle] = sig.split('.');
  assert.equal(middle, '', 'detached: no payload between the dots');
  const header = JSON.parse(Buffer.from(head!, 'base64url').toString());
  assert.deepEqual(header.crit, [...OB_CRIT]);
  assert.equal(header.alg, 'PS256');
  assert.equal(header.kid, 'k1');
  assert.equal(header[OB_ISS], 'org/ssa');
  assert.equal(header[OB_TAN], 'openbanking.org.uk');
  assert.equal(typeof header[OB_IAT], 'number');
  assert.equal(header.b64, undefined, 'v3.1.4 on: the payload is base64url-encoded, no b64 header');
  const keys = createLocalJWKSet(k.jwks as never);
  assert.deepEqual((await verifyDetached(sig, body, keys)).valid, true);

  const tampered = await verifyDetached(sig, body.replace('10.00', '11.00'), keys);
  assert.equal(tampered.valid, false);
  assert.equal(!tampered.valid && tampered.code, 'Invalid');

  const other = await keyPair('k1');
  const wrongKey = await verifyDetached(await signDetached(body, { ...signer, key: other.privateKey }), body, keys);
  assert.equal(!wrongKey.valid && wrongKey.code, 'Invalid', 'same kid, another key');
  const unknownKid = await verifyDetached(await signDetached(body, { ...signer, kid: 'k9' }), body, keys);
  assert.match(!unknownKid.valid ? unknownKid.problem : '', /no key with kid "k9"/);
});

test('missing or malformed signatures and critical claims are told apart', async () => {
  const k = await keyPair('k1');
  const keys = createLocalJWKSet(k.jwks as never);
  const sign = async (header: Record<string, unknown>, crit?: Record<string, boolean>) => {
    const jws = await new FlattenedSign(new TextEncoder().encode(body)).setProtectedHeader(header as never).sign(k.privateKey, crit ? { crit } : undefined);
    return `${jws.protected}..${jws.signature}`;
  };
  const all = { [OB_IAT]: true, [OB_ISS]: true, [OB_TAN]: true };
  const claims = { [OB_IAT]: 1_700_000_000, [OB_ISS]: 'org/ssa', [OB_TAN]: 'openbanking.org.uk' };
  const cases: Array<[string, string | undefined, string]> = [
    ['no header', undefined, 'Missing'],
    ['not detached', 'a.b.c', 'Malformed'],
    ['not JSON', 'bm90IGpzb24..c2ln', 'Malformed'],
    ['no critical claims', await sign({ alg: 'PS256', kid: 'k1' }), 'MissingClaim'],
    ['no tan', await sign({ alg: 'PS256', kid: 'k1', [OB_IAT]: 1, [OB_ISS]: 'x', crit: [OB_IAT, OB_ISS] }, { [OB_IAT]: true, [OB_ISS]: true }), 'MissingClaim'],
    ['crit not listing them', await sign({ alg: 'PS256', kid: 'k1', ...claims, crit: [OB_IAT, OB_ISS] }, { [OB_IAT]: true, [OB_ISS]: true }), 'InvalidClaim'],
    ['iat not a number', await sign({ alg: 'PS256', kid: 'k1', ...claims, [OB_IAT]: 'yesterday', crit: [...OB_CRIT] }, all), 'InvalidClaim'],
    ['no kid', await sign({ alg: 'PS256', ...claims, crit: [...OB_CRIT] }, all), 'MissingClaim'],
    ['RS256', 'eyJhbGciOiJSUzI1NiJ9..c2ln', 'InvalidClaim'],
  ];
  for (const [what, header, code] of cases) {
    const check = await verifyDetached(header, body, keys);
    assert.equal(check.valid, false, what);
    assert.equal(!check.valid && check.code, code, what);
  }
  assert.equal((await verifyDetached(await sign({ alg: 'PS256', kid: 'k1', ...claims, crit: [...OB_CRIT] }, all), body, keys)).valid, true, 'the control holds');
});

test('the tpp client signs payment POSTs and checks the bank\'s signed answers against bank.jwks', async () => {
  const tpp = await keyPair('tpp-kid');
  const bank = await keyPair('bank-kid');
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-jws-'));
  const seen: Array<{ url: string; signature?: string; body: string }> = [];
  let answerSignedBy: 'bank' | 'stranger' | 'nobody' = 'bank';
  const stranger = await keyPair('bank-kid');
  const server = await listenLoopback(createServer(async (req, res) => {
    if (req.url === '/jwks') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(bank.jwks));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    seen.push({ url: `${req.method} ${req.url}`, signature: req.headers['x-jws-signature'] as string | undefined, body: Buffer.concat(chunks).toString() });
    const answer = JSON.stringify({ Data: { ConsentId: 'pay-1', Status: 'AwaitingAuthorisation' }, Risk: {} });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (answerSignedBy !== 'nobody') {
      headers['x-jws-signature'] = await signDetached(answer, { key: (answerSignedBy === 'bank' ? bank : stranger).privateKey, kid: 'bank-kid', issuer: 'bank', trustAnchor: 'openbanking.org.uk' });
    }
    res.writeHead(201, headers).end(answer);
  }));
  try {
    await writeFile(join(dir, 'tpp.pem'), tpp.pem, { mode: 0o600 });
    await writeFile(join(dir, 'bank-jwks.json'), JSON.stringify(bank.jwks));
    const raw = {
      name: 'signing bank', variants: ['A'], baseUrl: `${server.base}/ob`,
      auth: { issuer: 'https://auth.bank.example', clientId: 'tpp-client', clientAuth: { method: 'client_secret_post', secret: 's3cret-value' }, redirectUri: 'https://tpp.example/cb' },
      psu: { username: 'u', password: 'p4ssword', driver: { kind: 'sandbox' } },
      signing: { key: 'file:tpp.pem', kid: 'tpp-kid' },
      bank: { jwks: 'bank-jwks.json' },
    };
    const p = await profileFromObject(raw, { source: join(dir, 'profile.yaml'), env: {} });
    assert.equal(p.signing?.key, tpp.pem);
    assert.equal(p.signing?.issuer, 'tpp-client', 'iss defaults to the client id');
    assert.ok(p.secrets.includes(tpp.pem), 'the signing key is a secret to redact');
    assert.equal((maskProfile(p) as any).signing.key, '********');
    const http = httpFromProfile(p);
    const client = new TppClient(p, 'A', http);
    const created = await client.createPaymentConsent({ Data: { Initiation: {} }, Risk: {} }, { token: 't' });
    assert.equal(created.signature?.valid, true);
    const sent = seen.at(-1)!;
    assert.ok(sent.signature);
    assert.equal((await verifyDetached(sent.signature, sent.body, createLocalJWKSet(tpp.jwks as never))).valid, true, 'the request is signed over the bytes sent');
    await client.submitPayment({ Data: { ConsentId: 'pay-1' } }, { token: 't', signature: false });
    assert.equal(seen.at(-1)!.signature, undefined, 'signature: false sends none');
    await client.getPayment('pay-1', { token: 't' });
    assert.equal(seen.at(-1)!.signature, undefined, 'a GET is not signed');
    answerSignedBy = 'stranger';
    const forged = await client.getPayment('pay-1', { token: 't' });
    assert.equal(forged.signature?.valid, false);
    answerSignedBy = 'nobody';
    const unsigned = await client.getPayment('pay-1', { token: 't' });
    assert.equal(!unsigned.signature?.valid && unsigned.signature?.code, 'Missing');
    await http.close();

    // A JWKS URL is fetched through the profile's own HTTP core.
    answerSignedBy = 'bank';
    const byUrl = await profileFromObject({ ...raw, bank: { jwks: `${server.base}/jwks` } }, { source: join(dir, 'profile.yaml'), env: {} });
    const http3 = httpFromProfile(byUrl);
    const urlClient = new TppClient(byUrl, 'A', http3);
    assert.equal((await urlClient.getPayment('pay-1', { token: 't' })).signature?.valid, true);
    assert.equal((await urlClient.getPayment('pay-1', { token: 't' })).signature?.valid, true);
    assert.equal(http3.exchanges.filter((e) => e.url.endsWith('/jwks')).length, 1, 'the JWKS is read once');
    await http3.close();
    const missing = await profileFromObject({ ...raw, bank: { jwks: `${server.base}/no-jwks-here` } }, { source: join(dir, 'profile.yaml'), env: {} });
    const http4 = httpFromProfile(missing);
    const noKeys = await new TppClient(missing, 'A', http4).getPayment('pay-1', { token: 't' });
    assert.match(!noKeys.signature?.valid ? noKeys.signature!.problem : '', /bank's JWKS \(bank\.jwks\) could not be read/);
    await http4.close();

    const off = await profileFromObject({ ...raw, signing: { ...raw.signing, enabled: false } }, { source: join(dir, 'profile.yaml'), env: {} });
    const http2 = httpFromProfile(off);
    const offClient = new TppClient(off, 'A', http2);
    assert.equal(offClient.signs, false);
    const plain = await offClient.createPaymentConsent({ Data: {} }, { token: 't' });
    assert.equal(seen.at(-1)!.signature, undefined, 'signing.enabled: false sends no signature');
    assert.equal(plain.signature, undefined, 'and checks none');
    await http2.close();
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
