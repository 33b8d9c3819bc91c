// profiles/example-bank.yaml as shipped — the file a bank engineer copies — certifies the embedded
// sandbox when only its environment variables point there: steps driver (no built-in one), secret
// client plus signed request objects, mTLS material from files, /consents as the account-access
// consent path. Real sandbox over HTTPS, real Chromium, the real binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.ts';
import { root, runObtpp, type Run } from '../helpers/obtpp.ts';

const example = join(root, 'profiles', 'example-bank.yaml');

function obtpp(args: string[], env: Record<string, string>, timeoutMs = 300_000): Promise<Run> {
  return runObtpp(args, { env, timeoutMs });
}

test('profiles/example-bank.yaml as shipped certifies the sandbox (variants A and B) with no failure', async () => {
  const text = await readFile(example, 'utf8');
  // The example names the redirect URI it registered; the sandbox registers it too.
  const redirectUri = /^\s*redirectUri:\s*(\S+)\s*$/m.exec(text)?.[1];
  assert.ok(redirectUri, 'the example profile has a redirectUri');
  const sb = await startSandbox({ tls: true, redirectUris: [redirectUri!] });
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-example-'));
  try {
    const client = sb.clients[0]!;
    assert.equal(client.authMethod, 'client_secret_basic');
    const keyed = sb.clients.find((c) => c.privateKeyPem)!;
    const files = { key: join(dir, 'signing.pem'), cert: join(dir, 'transport.crt'), tkey: join(dir, 'transport.key'), ca: join(dir, 'ca.pem') };
    await writeFile(files.key, keyed.privateKeyPem!, { mode: 0o600 });
    await writeFile(files.cert, sb.tls!.clientCertPem);
    await writeFile(files.tkey, sb.tls!.clientKeyPem, { mode: 0o600 });
    await writeFile(files.ca, sb.tls!.caPem);
    const psu = sb.psus[0]!;
    const env = {
      BANK_API_URL: sb.baseUrls.A,
      BANK_API_URL_B: sb.baseUrls.B,
      BANK_ISSUER: sb.issuer,
      BANK_CLIENT_ID: client.clientId,
      BANK_CLIENT_SECRET: client.clientSecret!,
      BANK_SIGNING_KEY_ID: keyed.kid!,
      BANK_SIGNING_KEY_FILE: files.key,
      BANK_JWKS_URL: sb.jwksUri,
      BANK_TRANSPORT_CERT_FILE: files.cert,
      BANK_TRANSPORT_KEY_FILE: files.tkey,
      BANK_CA_FILE: files.ca,
      BANK_PSU_USERNAME: psu.username,
      BANK_PSU_PASSWORD: psu.password,
    };
    const reports = join(dir, 'reports');
    const started = Date.now();
    const run = await obtpp(['conform', '--profile', example, '--report-dir', reports, '--json'], env);
    const seconds = (Date.now() - started) / 1000;
    let summary: any;
    try {
      summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    } catch {
      assert.fail(`no summary.json (exit ${run.code}): ${run.stderr.slice(-2000)}`);
    }
    const failures = summary.variants.flatMap((v: any) => v.rules.filter((r: any) => r.status === 'failed').map((r: any) => `${v.variant} ${r.id}: ${r.failures.map((f: any) => f.message).join(' | ')}`));
    assert.deepEqual(failures, [], 'no rule fails on the reference bank through the example profile');
    assert.equal(run.code, 0, run.stderr.slice(-2000));
    assert.ok(['pass', 'incomplete'].includes(summary.verdict), summary.verdict);
    const passed = summary.variants.flatMap((v: any) => v.rules.filter((r: any) => r.status === 'passed').map((r: any) => `${v.variant} ${r.id}`));
    // AIS-04 needs the "first account only" choice, which the example's `by: value` once broke.
    for (const id of ['A AIS-01', 'A AIS-04', 'B AIS-04', 'A COF-02', 'A PIS-01', 'A SEC-02']) assert.ok(passed.includes(id), `${id} passed (passed: ${passed.join(', ')})`);
    // Nothing the environment carried reaches the reports.
    for (const file of ['summary.json', 'junit.xml', 'report.html', 'messages.ndjson']) {
      const body = await readFile(join(reports, file), 'utf8');
      for (const secret of [env.BANK_CLIENT_SECRET, env.BANK_PSU_PASSWORD]) assert.ok(!body.includes(secret), `${file} carries no secret`);
    }
    process.stderr.write(`# example profile against the sandbox: ${seconds.toFixed(1)} s\n`);
  } finally {
    await sb.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
