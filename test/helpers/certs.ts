/**
 * Test certificates made with the real `openssl` binary (execFile, no shell), in a fresh temp
 * directory: a private CA, a server certificate it signs (SAN DNS:localhost, IP:127.0.0.1), a
 * client certificate shaped like an Open Banking transport certificate
 * (`/C=GB/O=OpenBanking/OU=<orgId>/CN=tpp-client`, extendedKeyUsage clientAuth), and a second,
 * self-signed "wrong" server certificate for a host that is not 127.0.0.1.
 *
 * Nothing here is a real secret: every key is generated per call and lives only in the temp dir.
 *
 * @example
 * ```ts
 * import { makeCerts } from '../helpers/certs.ts';
 * const certs = await makeCerts();
 * after(() => certs.cleanup());
 * https.createServer({ key: certs.server.key, cert: certs.server.cert, ca: certs.ca.cert, requestCert: true });
 * new HttpClient({ ca: certs.ca.cert, cert: certs.client.cert, key: certs.client.key });
 * ```
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One key pair as PEM strings, and where they are on disk. */
export interface CertPair {
  /** The certificate, PEM. */
  cert: string;
  /** The private key (PKCS#8), PEM. */
  key: string;
  certFile: string;
  keyFile: string;
}

/** Everything {@link makeCerts} produced. */
export interface TestCerts {
  /** The temp directory holding every file; removed by {@link TestCerts.cleanup}. */
  dir: string;
  /** The private CA (basicConstraints critical, CA:TRUE), self-signed. */
  ca: CertPair;
  /** Signed by `ca`; SAN `DNS:localhost, IP:127.0.0.1`; extendedKeyUsage serverAuth. */
  server: CertPair;
  /** Signed by `ca`; subject `/C=GB/O=OpenBanking/OU=<orgId>/CN=tpp-client`; extendedKeyUsage clientAuth. */
  client: CertPair & { subject: string };
  /**
   * Self-signed (so not trusted by `ca`) for `wrongHost` only (SAN DNS:<wrongHost>). Served on
   * 127.0.0.1 it is both untrusted and a host mismatch; use it with its own cert as the CA to get
   * a pure host mismatch.
   */
  wrong: CertPair & { host: string };
  /** Removes `dir`. */
  cleanup(): Promise<void>;
}

export interface MakeCertsOptions {
  /** The OU of the client certificate (an Open Banking organisation id). Default the obviously fake `0015800000TESTORG`. */
  orgId?: string;
  /** The host the "wrong" certificate is for. Default `other.example`. */
  wrongHost?: string;
  /** Days of validity. Default 2. */
  days?: number;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`openssl ${args[0]} failed: ${e.stderr?.trim() || e.message}`);
  }
}

async function pair(dir: string, name: string): Promise<CertPair> {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8'), certFile, keyFile };
}

/**
 * Makes the CA, server, client and wrong-host certificates in a new temp directory
 * (RSA 2048, SHA-256). Takes a second or so on a slow machine; make them once per test file.
 */
export async function makeCerts(options: MakeCertsOptions = {}): Promise<TestCerts> {
  const orgId = options.orgId ?? '0015800000TESTORG';
  const wrongHost = options.wrongHost ?? 'other.example';
  const days = String(options.days ?? 2);
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-certs-'));
  const newKey = (name: string) => openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', `${name}.key`], dir);

  // CA
  await newKey('ca');
  await openssl(['req', '-new', '-x509', '-key', 'ca.key', '-out', 'ca.crt', '-days', days, '-subj', '/C=GB/O=obtpp test/CN=obtpp test CA', '-sha256', '-extensions', 'v3_ca', '-config', await minimalConfig(dir)], dir);

  // server, signed by the CA
  await newKey('server');
  await openssl(['req', '-new', '-key', 'server.key', '-out', 'server.csr', '-subj', '/C=GB/O=obtpp test/CN=localhost'], dir);
  await writeFile(join(dir, 'server.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n');
  await openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', days, '-sha256', '-extfile', 'server.ext'], dir);

  // client (OB transport-certificate shape), signed by the CA
  const subject = `/C=GB/O=OpenBanking/OU=${orgId}/CN=tpp-client`;
  await newKey('client');
  await openssl(['req', '-new', '-key', 'client.key', '-out', 'client.csr', '-subj', subject], dir);
  await writeFile(join(dir, 'client.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
  await openssl(['x509', '-req', '-in', 'client.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'client.crt', '-days', days, '-sha256', '-extfile', 'client.ext'], dir);

  // wrong: self-signed, for another host
  await newKey('wrong');
  await writeFile(join(dir, 'wrong.ext'), `basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:${wrongHost}\n`);
  await openssl(['req', '-new', '-key', 'wrong.key', '-out', 'wrong.csr', '-subj', `/CN=${wrongHost}`], dir);
  await openssl(['x509', '-req', '-in', 'wrong.csr', '-signkey', 'wrong.key', '-out', 'wrong.crt', '-days', days, '-sha256', '-extfile', 'wrong.ext'], dir);

  return {
    dir,
    ca: await pair(dir, 'ca'),
    server: await pair(dir, 'server'),
    client: { ...(await pair(dir, 'client')), subject },
    wrong: { ...(await pair(dir, 'wrong')), host: wrongHost },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** An openssl config with just a v3_ca section, so the CA extensions do not depend on the system's openssl.cnf. */
async function minimalConfig(dir: string): Promise<string> {
  const file = join(dir, 'openssl-ca.cnf');
  await writeFile(file, [
    '[req]',
    'distinguished_name = dn',
    'prompt = no',
    '[dn]',
    'CN = unused',
    '[v3_ca]',
    'basicConstraints = critical,CA:TRUE',
    'keyUsage = critical,keyCertSign,cRLSign',
    'subjectKeyIdentifier = hash',
    '',
  ].join('\n'));
  return file;
}
