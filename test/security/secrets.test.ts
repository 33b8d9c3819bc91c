// Secrets never travel: a whole `obtpp conform` and a CLI session run with known secrets — the
// client secret, a private key, the PSU's password — and every token the bank issued along the
// way; then every file of the report dir, and every stdout and stderr, is scanned for them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { generateKeyPairSync } from 'node:crypto';
import { startSandbox } from '../../src/sandbox/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';

interface Run { args: string[]; code: number; stdout: string; stderr: string }

/**
 * `obtpp …args` with the secrets in its environment, everything it printed kept. The whole
 * conformance run is the real binary (`process`: a process of its own, its own streams); the CLI
 * session's commands run in the test run's warm workers (test/helpers/warm-cli.ts), which hand back
 * every byte a command writes to its streams, as its process would print them (a cold process per
 * command cost about half a second of CPU each, for the same output).
 */
async function obtpp(args: string[], env: Record<string, string>, o: { process?: boolean } = {}): Promise<Run> {
  const { code, stdout, stderr } = await runObtpp(args, { env, ...o });
  return { args, code, stdout, stderr };
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}

/** The forms a secret may take in a file: as is, URL-encoded, JSON-escaped, base64 (HTML report attachments). */
function forms(secret: string): string[] {
  return [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), Buffer.from(secret).toString('base64')])];
}

const JWT = /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+/;

test('no secret and no token reaches a report, stdout or stderr', { timeout: 600_000 }, async () => {
  const sb = await startSandbox({ quiet: true });
  const work = await mkdtemp(join(tmpdir(), 'obtpp-secrets-'));
  try {
    // Two profiles: private_key_jwt for the conformance run, client_secret_basic for the CLI session.
    // Their secrets come from the environment, as a real bank's would.
    const jwtClient = sb.clients.find((c) => c.authMethod === 'private_key_jwt')!;
    const basicClient = sb.clients.find((c) => c.authMethod === 'client_secret_basic')!;
    const psu = sb.psus[0]!;
    const env = {
      SB_CLIENT_SECRET: basicClient.clientSecret!,
      SB_PRIVATE_KEY: jwtClient.privateKeyPem!,
      SB_PSU_PASSWORD: psu.password,
      // The x-jws-signature key (the one the sandbox trusts for every client).
      SB_SIGNING_KEY: sb.tppSigning.privateKeyPem,
      SB_SSA: sb.registration.softwareStatement,
      SB_ATTEST_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      OBTPP_STATE: join(work, 'state.json'),
    };
    const withEnvSecrets = (index: number, file: string) => {
      const p = sb.profile('all', index) as any;
      if (p.auth.clientAuth.secret) p.auth.clientAuth.secret = '${env:SB_CLIENT_SECRET}';
      if (p.auth.clientAuth.privateKey) p.auth.clientAuth.privateKey = '${env:SB_PRIVATE_KEY}';
      p.psu.password = '${env:SB_PSU_PASSWORD}';
      // One profile takes the signing key from the environment, the other from a file (file:PATH).
      p.signing.key = file.endsWith('jwt.yaml') ? '${env:SB_SIGNING_KEY}' : 'file:signing-key.pem';
      // DCR: the software statement and the key that signs registrations (the client's own).
      p.registration.softwareStatement = '${env:SB_SSA}';
      p.registration.key = '${env:SB_PRIVATE_KEY}';
      return writeFile(file, stringify(p), { mode: 0o600 });
    };
    const jwtProfile = join(work, 'jwt.yaml');
    const basicProfile = join(work, 'basic.yaml');
    await withEnvSecrets(sb.clients.indexOf(jwtClient), jwtProfile);
    await withEnvSecrets(sb.clients.indexOf(basicClient), basicProfile);
    await writeFile(join(work, 'signing-key.pem'), env.SB_SIGNING_KEY, { mode: 0o600 });

    const reportDir = join(work, 'reports');
    const runs: Run[] = [];
    const conform = await obtpp(['conform', '--profile', jwtProfile, '--report-dir', reportDir, '--attest', '${env:SB_ATTEST_KEY}'], env, { process: true });
    runs.push(conform);
    assert.equal(conform.code, 0, `the conformance run against the sandbox passes: ${conform.stdout.slice(-2000)}`);

    // A CLI session, verbose (every exchange on stderr), through AIS, COF and PIS.
    const p = ['--profile', basicProfile];
    const session: string[][] = [
      ['consent', 'create', 'ais', ...p, '--verbose'],
      ['consent', 'authorise', ...p, '--verbose'],
      ['accounts', ...p, '--verbose'],
      ['accounts', ...p, '--json'],
      ['flow', 'cof', ...p, '--verbose'],
      ['flow', 'pis', ...p, '--creditor-id', '30963452000417', '--creditor-name', 'Bob Baker', '--json', '--verbose'],
      ['consent', 'create', 'pis', ...p, '--amount', '2.00', '--creditor-id', '30963452000417', '--creditor-name', 'Bob Baker', '--verbose'],
      ['consent', 'authorise', ...p, '--verbose'],
      ['payment', 'submit', ...p, '--verbose'],
      ['token', 'refresh', ...p, '--verbose'],
      ['consent', 'list', ...p, '--json'],
      ['register', ...p, '--verbose'],
      ['register', 'show', ...p, '--remote', '--verbose'],
      ['register', 'update', ...p, '--verbose'],
      ['profile', 'check', basicProfile],
      ['profile', 'check', jwtProfile, '--json'],
    ];
    for (const args of session) {
      const run = await obtpp(args, env);
      runs.push(run);
      assert.equal(run.code, 0, `obtpp ${args.join(' ')}: ${run.stderr}`);
    }
    const shown = await obtpp(['token', 'show', ...p, '--json'], env);
    assert.equal(shown.code, 0, shown.stderr);
    // The registration's secrets, as the state holds them; then the registration is deleted (verbose).
    const registered = JSON.parse(await readFile(env.OBTPP_STATE, 'utf8'));
    const dcr = [...JSON.stringify(registered).matchAll(/"(?:clientSecret|registrationAccessToken)":"([^"]+)"/g)].map((m) => m[1]!);
    assert.equal(dcr.length, 2, 'register kept the client secret and the registration access token in the state');
    const unregistered = await obtpp(['register', 'delete', ...p, '--verbose'], env);
    runs.push(unregistered);
    assert.equal(unregistered.code, 0, unregistered.stderr);

    // What must never appear: the configured secrets and every token the bank issued.
    const state = JSON.parse(await readFile(env.OBTPP_STATE, 'utf8'));
    const stateTokens = [...JSON.stringify(state).matchAll(/"(?:accessToken|refreshToken|idToken)":"([^"]+)"/g)].map((m) => m[1]!);
    const issued = sb.issuedTokens();
    assert.ok(issued.length > 20, `the bank issued tokens during the runs (${issued.length})`);
    assert.ok(stateTokens.length > 0, 'the session kept tokens in its state file');
    assert.ok(JSON.parse(shown.stdout).accessToken, 'token show is the one command that prints a token');
    const keyLines = jwtClient.privateKeyPem!.split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'));
    const signingKeyLines = env.SB_SIGNING_KEY.split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'));
    const attestKeyLines = env.SB_ATTEST_KEY.split('\n').filter((l) => l.length >= 40 && !l.startsWith('-----'));
    // DCR adds three kinds: the software statement, the registered clients' secrets (conform's and the CLI's) and the registration access tokens.
    assert.ok(issued.length > dcr.length, 'the bank recorded the registrations\' secrets');
    const secrets = [env.SB_CLIENT_SECRET, env.SB_PRIVATE_KEY, env.SB_PSU_PASSWORD, env.SB_SIGNING_KEY, ...signingKeyLines, env.SB_ATTEST_KEY, env.SB_SSA, ...dcr, ...attestKeyLines, ...keyLines, ...issued, ...stateTokens].filter((s) => s.length >= 8);

    const files = await filesUnder(reportDir);
    assert.ok(files.some((f) => f.endsWith('report.html')) && files.some((f) => f.endsWith('messages.ndjson')), 'the report dir holds the reports');
    const haystacks: Array<{ where: string; text: string }> = [
      ...(await Promise.all(files.map(async (f) => ({ where: f, text: (await readFile(f)).toString('latin1') })))),
      ...runs.flatMap((r) => [
        { where: `stdout of obtpp ${r.args.join(' ')}`, text: r.stdout },
        { where: `stderr of obtpp ${r.args.join(' ')}`, text: r.stderr },
      ]),
      { where: 'stderr of obtpp token show', text: shown.stderr },
      // The attestation's payload is base64url: scanned decoded as well.
      ...files.filter((f) => f.endsWith('attestation.jws')).map((f) => ({ where: `${f} (payload)`, text: Buffer.from(readFileSync(f, 'utf8').split('.')[1] ?? '', 'base64url').toString('utf8') })),
    ];
    assert.ok(files.some((f) => f.endsWith('attestation.jws')), 'the run was attested');
    const scan = (where: string, text: string): string[] => {
      const found = secrets.filter((secret) => forms(secret).some((f) => text.includes(f))).map((secret) => `${where}: ${secret.slice(0, 6)}… (${secret.length} chars)`);
      // attestation.jws is a JWS obtpp signs on purpose, not a token.
      if (JWT.test(text) && !where.endsWith('attestation.jws')) found.push(`${where}: a JWT (${JWT.exec(text)![0].slice(0, 12)}…)`);
      return found;
    };
    // The control: the one place tokens belong (the 0600 state file) and token show's stdout are found.
    assert.ok(scan('state file', await readFile(env.OBTPP_STATE, 'utf8')).length >= stateTokens.length, 'the scan finds tokens where they are');
    assert.ok(scan('token show', shown.stdout).length > 0, 'the scan finds the token token show prints');
    const hits = haystacks.flatMap(({ where, text }) => scan(where, text));
    process.stdout.write(`# secret scan: ${secrets.length} secrets and tokens, ${files.length} report files, ${runs.length * 2 + 1} outputs scanned, ${hits.length} hits\n`);
    assert.deepEqual(hits, []);
  } finally {
    await sb.stop();
    await rm(work, { recursive: true, force: true });
  }
});
