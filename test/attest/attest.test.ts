// Attestation: a real conformance run of the embedded sandbox (one rule, both variants) is signed;
// the folder verifies as signed, and every way of spoiling it — one byte of any report, a file
// removed or added, the manifest edited or re-signed, the signature altered, the wrong key — is
// refused and named, by the library and by `obtpp verify`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { readFile, rm, writeFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { CompactSign, exportJWK, calculateJwkThumbprint } from 'jose';
import { stringify } from 'yaml';
import { createAttestation, verifyAttestation, ATTESTATION_FILE } from '../../src/attest/attest.ts';
import { packageDigest } from '../../src/attest/digest.ts';
import { loadProfile } from '../../src/profile/load.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { listenLoopback } from '../helpers/loopback.ts';
import { obtpp, show, workDir, keyPair, copyDir } from './helpers.ts';

let work: string;
let runDir: string;
let signed: string;
let rsa: Awaited<ReturnType<typeof keyPair>>;
let other: Awaited<ReturnType<typeof keyPair>>;
let copies = 0;

const payloadOf = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8'));
const spoiled = async () => copyDir(signed, join(work, `copy-${++copies}`));

before(async () => {
  work = await workDir('attest');
  runDir = join(work, 'run');
  const run = await obtpp(['conform', '--tags', '@COF-04', '--report-dir', runDir]);
  assert.equal(run.code, 0, show(run));
  rsa = await keyPair(work, 'signer', 'rsa');
  other = await keyPair(work, 'other', 'rsa');
  signed = await copyDir(runDir, join(work, 'signed'));
  const summary = JSON.parse(await readFile(join(signed, 'summary.json'), 'utf8'));
  await createAttestation({ reportDir: signed, privateKey: rsa.privatePem, meta: { summary } });
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

test('a signed run verifies and prints the verdict it attests', async () => {
  const r = await obtpp(['verify', signed, '--key', rsa.publicFile]);
  assert.equal(r.code, 0, show(r));
  assert.match(r.stdout, /^VERIFIED: \d+ files as signed \(PS256, kid /m);
  assert.match(r.stdout, /attests: CONFORMANT \(verdict pass\)/);
  assert.match(r.stdout, /standard: UK Open Banking Read\/Write v3\.1\.11/);

  const j = await obtpp(['verify', signed, '--key', rsa.publicFile, '--json']);
  assert.equal(j.code, 0, show(j));
  const doc = JSON.parse(j.stdout);
  assert.equal(doc.ok, true);
  assert.equal(doc.verdict, 'pass');
  assert.deepEqual(doc.rules.filter((x: any) => x.id === 'COF-04'), [{ id: 'COF-04', variant: 'A', status: 'passed' }, { id: 'COF-04', variant: 'B', status: 'passed' }]);

  const manifest = payloadOf(await readFile(join(signed, ATTESTATION_FILE), 'utf8'));
  const paths = manifest.files.map((f: any) => f.path);
  assert.deepEqual(paths, [...paths].sort(), 'files are listed sorted');
  for (const p of ['summary.json', 'junit.xml', 'report.html', 'messages.ndjson', 'features/A/funds-confirmation.feature', 'features/B/funds-confirmation.feature']) assert.ok(paths.includes(p), `${p} is attested`);
  assert.ok(!paths.includes(ATTESTATION_FILE));
  assert.ok(manifest.features.length >= 2 && manifest.features.every((f: any) => f.path.startsWith('features/') && /^[0-9a-f]{64}$/.test(f.sha256)));
  assert.match(manifest.tool.package.sha256, /^[0-9a-f]{64}$/);
  assert.ok(manifest.tool.package.files > 10);
  assert.ok(Date.parse(manifest.run.endedAt) >= Date.parse(manifest.run.startedAt));
});

test('one byte changed in any report file is detected and the file named', async () => {
  const manifest = payloadOf(await readFile(join(signed, ATTESTATION_FILE), 'utf8'));
  const dir = await spoiled();
  for (const { path } of manifest.files) {
    const file = join(dir, path);
    const original = await readFile(file);
    const bytes = Buffer.from(original);
    if (bytes.length) bytes[bytes.length >> 1]! ^= 0x01;
    await writeFile(file, bytes.length ? bytes : Buffer.from('x'));
    const result = await verifyAttestation(dir, { key: rsa.publicPem });
    assert.equal(result.ok, false, `${path} changed`);
    assert.equal(result.signature, 'valid');
    assert.deepEqual(result.firstMismatch, { file: path, reason: 'changed' });
    await writeFile(file, original);
  }
  assert.equal((await verifyAttestation(dir, { key: rsa.publicPem })).ok, true, 'restored, the folder verifies again');

  // Through the binary: exit 1, the file named.
  const summary = join(dir, 'summary.json');
  const text = await readFile(summary, 'utf8');
  await writeFile(summary, text.replace('"verdict": "pass"', '"verdict": "fail"'));
  const r = await obtpp(['verify', dir, '--key', rsa.publicFile]);
  assert.equal(r.code, 1, show(r));
  assert.match(r.stdout, /NOT VERIFIED: summary\.json: changed since it was signed/);
});

test('the installed package is digested once per process and root: every signature and verification after the first reuses it', async () => {
  const first = packageDigest();
  assert.equal(packageDigest(), first, 'the same digest, not computed again');
  const here = await first;
  assert.ok(here && /^[0-9a-f]{64}$/.test(here.sha256) && here.files > 10);
  // Another root is digested on its own.
  const other = await workDir('attest-package');
  try {
    await writeFile(join(other, 'package.json'), JSON.stringify({ name: 'obtpp', version: '9.9.9', files: ['README.md'] }));
    await writeFile(join(other, 'README.md'), 'another obtpp\n');
    const there = await packageDigest(other);
    assert.notEqual(packageDigest(other), first);
    assert.equal(there?.version, '9.9.9');
    assert.equal(there?.files, 2);
    assert.notEqual(there?.sha256, here.sha256);
  } finally {
    await rm(other, { recursive: true, force: true });
  }
});

test('a file removed or added after signing is named as missing or extra', async () => {
  const gone = await spoiled();
  await unlink(join(gone, 'junit.xml'));
  const a = await verifyAttestation(gone, { key: rsa.publicPem });
  assert.deepEqual(a.firstMismatch, { file: 'junit.xml', reason: 'missing' });

  const added = await spoiled();
  await writeFile(join(added, 'evidence', 'extra.json'), '{}');
  const r = await obtpp(['verify', added, '--key', rsa.publicFile, '--json']);
  assert.equal(r.code, 1, show(r));
  assert.deepEqual(JSON.parse(r.stdout).firstMismatch, { file: 'evidence/extra.json', reason: 'extra' });
});

test('the manifest edited, re-signed with another key, or its signature altered is refused', async () => {
  const jws = (await readFile(join(signed, ATTESTATION_FILE), 'utf8')).trim();
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const manifest = payloadOf(jws);
  const summaryEntry = manifest.files.find((f: any) => f.path === 'summary.json');

  // The payload edited (a digest made to match an edited summary), the signature kept.
  const edited = structuredClone(manifest);
  edited.verdict = 'fail';
  edited.files.find((f: any) => f.path === 'summary.json').sha256 = '0'.repeat(64);
  const d1 = await spoiled();
  await writeFile(join(d1, ATTESTATION_FILE), `${header}.${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${signature}\n`);
  const r1 = await obtpp(['verify', d1, '--key', rsa.publicFile]);
  assert.equal(r1.code, 1, show(r1));
  assert.match(r1.stdout, /bad signature/);

  // Re-signed with another key, under its own header: the key is not the signer's.
  const otherKey = createPrivateKey(other.privatePem);
  const d2 = await spoiled();
  await writeFile(join(d2, ATTESTATION_FILE), await new CompactSign(Buffer.from(JSON.stringify(edited)))
    .setProtectedHeader({ alg: 'PS256', typ: 'obtpp-attestation+jws', kid: 'x', jkt: await calculateJwkThumbprint(await exportJWK(createPublicKey(otherKey))) }).sign(otherKey));
  const r2 = await obtpp(['verify', d2, '--key', rsa.publicFile]);
  assert.equal(r2.code, 1, show(r2));
  assert.match(r2.stdout, /wrong key/);

  // Re-signed with another key under the genuine header (kid and thumbprint copied): the signature does not hold.
  const d3 = await spoiled();
  const genuine = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  await writeFile(join(d3, ATTESTATION_FILE), await new CompactSign(Buffer.from(JSON.stringify(edited))).setProtectedHeader(genuine).sign(otherKey));
  assert.equal((await verifyAttestation(d3, { key: rsa.publicPem })).signature, 'bad');

  // One character of the signature changed.
  const d4 = await spoiled();
  const flipped = signature.slice(0, 10) + (signature[10] === 'A' ? 'B' : 'A') + signature.slice(11);
  await writeFile(join(d4, ATTESTATION_FILE), `${header}.${payload}.${flipped}\n`);
  const r4 = await obtpp(['verify', d4, '--key', rsa.publicFile]);
  assert.equal(r4.code, 1, show(r4));
  assert.match(r4.stdout, /bad signature/);

  // The attestation removed, or not a JWS at all.
  const d5 = await spoiled();
  await unlink(join(d5, ATTESTATION_FILE));
  const r5 = await obtpp(['verify', d5, '--key', rsa.publicFile]);
  assert.equal(r5.code, 1, show(r5));
  assert.match(r5.stdout, /no attestation in this folder/);
  await writeFile(join(d5, ATTESTATION_FILE), 'hello');
  assert.equal((await verifyAttestation(d5, { key: rsa.publicPem })).signature, 'malformed');
  assert.ok(summaryEntry, 'summary.json was attested');
});

test('a wrong key is refused, given as a key or as a JWKS; the right JWKS, from a file or a URL, verifies', async () => {
  const wrong = await obtpp(['verify', signed, '--key', other.publicFile]);
  assert.equal(wrong.code, 1, show(wrong));
  assert.match(wrong.stdout, /NOT VERIFIED: wrong key: the attestation was signed by kid \S+; the key given has thumbprint/);

  const header = JSON.parse(Buffer.from((await readFile(join(signed, ATTESTATION_FILE), 'utf8')).split('.')[0]!, 'base64url').toString('utf8'));
  const otherJwk = { ...(await exportJWK(createPublicKey(other.publicPem))), kid: 'other', use: 'sig' };
  const rightJwk = { ...(await exportJWK(createPublicKey(rsa.publicPem))), kid: header.kid, use: 'sig' };
  const wrongSet = join(work, 'wrong-jwks.json');
  await writeFile(wrongSet, JSON.stringify({ keys: [otherJwk] }));
  const w = await obtpp(['verify', signed, '--jwks', wrongSet]);
  assert.equal(w.code, 1, show(w));
  assert.match(w.stdout, /wrong key: no key of the JWKS matches the signer/);

  const rightSet = join(work, 'jwks.json');
  await writeFile(rightSet, JSON.stringify({ keys: [otherJwk, rightJwk] }));
  const ok = await obtpp(['verify', signed, '--jwks', rightSet]);
  assert.equal(ok.code, 0, show(ok));

  // A JWKS whose key has another kid is still found by the thumbprint the attestation names.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/jwk-set+json' });
    res.end(JSON.stringify({ keys: [otherJwk, { ...rightJwk, kid: 'published-under-another-name' }] }));
  });
  const { base, close } = await listenLoopback(server);
  try {
    const url = await obtpp(['verify', signed, '--jwks', `${base}/jwks.json`]);
    assert.equal(url.code, 0, show(url));
    assert.match(url.stdout, /^VERIFIED/);
  } finally {
    await close();
  }
});

test('EC P-256, Ed25519 and JWK keys sign ES256, EdDSA, and verify; a public key cannot sign', async () => {
  for (const [type, alg] of [['ec', 'ES256'], ['ed25519', 'EdDSA']] as const) {
    const k = await keyPair(work, `k-${type}`, type);
    const dir = await spoiled();
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    const made = await createAttestation({ reportDir: dir, privateKey: k.privatePem, kid: `my-${type}`, meta: { summary } });
    assert.equal(made.alg, alg);
    const result = await verifyAttestation(dir, { key: k.publicPem });
    assert.equal(result.ok, true, result.problem);
    assert.equal(result.kid, `my-${type}`);
    // The private key given as a JWK, verified by the public JWK.
    const jwk = await exportJWK(createPrivateKey(k.privatePem));
    await createAttestation({ reportDir: dir, privateKey: JSON.stringify({ ...jwk, kid: 'from-jwk' }), meta: { summary } });
    const pub = await exportJWK(createPublicKey(k.publicPem));
    const again = await verifyAttestation(dir, { key: JSON.stringify(pub) });
    assert.equal(again.ok, true, again.problem);
    assert.equal(again.kid, 'from-jwk');
  }
  const dir = await spoiled();
  await assert.rejects(createAttestation({ reportDir: dir, privateKey: rsa.publicPem, meta: { summary: { verdict: 'pass', variants: [] } } }), /not a private key/);
});

test('no secret of the profile reaches the attestation; its public fields and digest do', async () => {
  const sb = await startSandbox({ quiet: true });
  try {
    const jwtClient = sb.clients.find((c) => c.authMethod === 'private_key_jwt')!;
    const psu = sb.psus[0]!;
    const p = sb.profile('all', sb.clients.indexOf(jwtClient)) as any;
    p.auth.clientAuth.privateKey = '${env:T_PRIVATE_KEY}';
    p.psu.password = '${env:T_PSU_PASSWORD}';
    p.auth.clientId = '${env:T_CLIENT_ID}';
    const file = join(work, 'jwt.yaml');
    await writeFile(file, stringify(p), { mode: 0o600 });
    const env = { T_PRIVATE_KEY: jwtClient.privateKeyPem!, T_PSU_PASSWORD: psu.password, T_CLIENT_ID: jwtClient.clientId };
    const profile = await loadProfile(file, { env });
    const dir = await spoiled();
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    await createAttestation({ reportDir: dir, privateKey: rsa.privatePem, meta: { summary, profile } });
    const jws = await readFile(join(dir, ATTESTATION_FILE), 'utf8');
    const text = Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8');
    const keyLines = jwtClient.privateKeyPem!.split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'));
    for (const secret of [env.T_PRIVATE_KEY, env.T_PSU_PASSWORD, env.T_CLIENT_ID, ...keyLines, ...rsa.privatePem.split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'))]) {
      assert.ok(!text.includes(secret) && !jws.includes(secret), `a secret (${secret.slice(0, 6)}…) is in the attestation`);
    }
    const manifest = JSON.parse(text);
    assert.equal(manifest.profile.issuer, sb.issuer);
    assert.equal(manifest.profile.baseUrl, p.baseUrl.replace(/\/+$/, ''));
    assert.deepEqual(manifest.profile.variants, ['A', 'B']);
    assert.match(manifest.profile.sha256, /^[0-9a-f]{64}$/);
    // A client id that came from the environment is treated as a secret: withheld, not shown.
    assert.deepEqual(manifest.profile.withheld, ['clientId']);
    assert.equal(manifest.profile.clientId, undefined);
  } finally {
    await sb.stop();
  }
});

test('verify: bad usage is exit 2', async () => {
  for (const args of [
    ['verify', signed],
    ['verify', signed, '--key', rsa.publicFile, '--jwks', 'x.json'],
    ['verify', join(work, 'no-such-dir'), '--key', rsa.publicFile],
    ['verify', signed, '--key', join(work, 'no-such.pem')],
    ['verify', signed, '--key', join(signed, 'summary.json')],
  ]) {
    const r = await obtpp(args);
    assert.equal(r.code, 2, show(r));
    assert.match(r.stderr, /^obtpp: /);
  }
});
