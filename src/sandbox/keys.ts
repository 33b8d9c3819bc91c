/**
 * Keys and certificates of the sandbox: RSA keys (the authorisation server's signing key, the
 * private_key_jwt client's key pair, the directory's key; made once per process, see
 * startSandbox) and, with TLS, a private CA, a server certificate for the loopback names and a
 * TPP client certificate, made once per process and host and kept a day (see tlsMaterial).
 */
import { execFile } from 'node:child_process';
import { generateKeyPair as generateKeyPairCb, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { JsonWebKey } from 'node:crypto';
import { KeptPromises } from '../kept.ts';

const generateKeyPair = promisify(generateKeyPairCb);
const run = promisify(execFile);

/** An RSA key pair for PS256/RS256, as a private JWK (with kid) and a PKCS#8 PEM. */
export interface RsaKey {
  kid: string;
  privateJwk: JsonWebKey & { kid: string };
  publicJwk: JsonWebKey & { kid: string; use: 'sig' };
  privatePem: string;
}

/** A fresh 2048-bit RSA key (PS256 needs RSA; 2048 keeps start-up in the tens of milliseconds). */
export async function rsaKey(): Promise<RsaKey> {
  const { privateKey, publicKey } = await generateKeyPair('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  return {
    kid,
    privateJwk: { ...privateKey.export({ format: 'jwk' }), kid },
    publicJwk: { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig' },
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string,
  };
}

/** PEMs of the sandbox's private PKI. */
export interface TlsMaterial {
  caPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  /** The client certificate's subject in RFC 4514 order, as registered for tls_client_auth. */
  clientSubjectDn: string;
}

/** The PKI made in this process, per host and server names, kept a day: well inside the certificates' 7 days (see tlsMaterial). */
const pkiMade = new KeptPromises<string, TlsMaterial>({ maxAgeMs: 86_400_000 });

/**
 * A CA, a server certificate for 127.0.0.1/localhost (and `host`), and a client certificate.
 * Made once per process and host (and kept a day), like the RSA keys: making them takes five
 * openssl processes, and a process that starts many sandboxes (a library caller, a test run's
 * workers) would otherwise pay that at every start. The CA's key never leaves the process, so
 * sandboxes of the same process trusting each other's certificates gives nothing away.
 * `serverNames` (subjectAltName entries such as `DNS:x.invalid`) replace the loopback names: a
 * certificate that does not match the host (the tls-host-mismatch fault), made apart.
 */
export function tlsMaterial(host: string, options: { serverNames?: string[] } = {}): Promise<TlsMaterial> {
  // A failure is not kept: the next start tries again.
  return pkiMade.get(`${host}\0${options.serverNames?.join(',') ?? ''}`, () => makeTlsMaterial(host, options));
}

/**
 * Makes the PKI of {@link tlsMaterial} with the openssl command line (node:crypto cannot issue
 * certificates). EC P-256 keys keep it fast.
 */
async function makeTlsMaterial(host: string, options: { serverNames?: string[] }): Promise<TlsMaterial> {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-sandbox-pki-'));
  const f = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const san = ['IP:127.0.0.1', 'IP:::1', 'DNS:localhost'];
  if (!['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::'].includes(host)) san.push(/^[\d.]+$|:/.test(host) ? `IP:${host}` : `DNS:${host}`);
  if (options.serverNames) san.splice(0, san.length, ...options.serverNames);
  try {
    await writeFile(f('server.ext'), `subjectAltName=${san.join(',')}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
    await writeFile(f('client.ext'), 'extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n');
    await run('openssl', ['req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '7',
      '-subj', '/O=obtpp sandbox/CN=obtpp sandbox CA — not a bank', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
    await Promise.all([
      issue('server', `/CN=${options.serverNames?.[0]?.replace(/^(DNS|IP):/, '') ?? 'localhost'}`),
      issue('client', '/C=GB/O=OpenBanking/OU=obtpp-sandbox/CN=tpp-tls-client'),
    ]);
    const [caPem, serverCertPem, serverKeyPem, clientCertPem, clientKeyPem] = await Promise.all(
      ['ca.pem', 'server.pem', 'server.key', 'client.pem', 'client.key'].map((n) => readFile(f(n), 'utf8')));
    // Shared by every sandbox of the process that asks for the same names: frozen, so none changes another's.
    return Object.freeze({ caPem, serverCertPem, serverKeyPem, clientCertPem, clientKeyPem, clientSubjectDn: 'CN=tpp-tls-client,OU=obtpp-sandbox,O=OpenBanking,C=GB' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  async function issue(name: string, subject: string): Promise<void> {
    await run('openssl', ['req', ...ec, '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', subject]);
    await run('openssl', ['x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.pem'), '-CAkey', f('ca.key'),
      '-set_serial', String(Date.now() + (name === 'server' ? 1 : 2)), '-days', '7', '-extfile', f(`${name}.ext`), '-out', f(`${name}.pem`)]);
  }
}

/** A distinguished name compared without regard to order or the separator (RFC 4514 commas or node's newlines). */
export function sameDn(a: string, b: string): boolean {
  const norm = (dn: string) => dn.split(/[,\n]/).map((p) => p.trim()).filter(Boolean).sort().join(',');
  return norm(a) === norm(b);
}

/**
 * A self-signed certificate for an existing key (PKCS#8 PEM), with the openssl command line:
 * the NextGenPSD2 HTTP signature names its signer by certificate (serial number and CA).
 */
export async function selfSignedCertificate(keyPem: string, subject: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-sandbox-seal-'));
  try {
    await writeFile(join(dir, 'key.pem'), keyPem, { mode: 0o600 });
    await run('openssl', ['req', '-x509', '-key', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '7', '-subj', subject,
      '-set_serial', String(Date.now()), '-addext', 'keyUsage=critical,digitalSignature,nonRepudiation']);
    return await readFile(join(dir, 'cert.pem'), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
