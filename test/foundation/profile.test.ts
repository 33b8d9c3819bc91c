// `obtpp profile check` and the CLI's surface, as the built CLI (dist/src/cli/main.js) answers with
// a controlled environment: exit codes, stdout, stderr, masking. Each command runs in a warm worker
// as its own process would (test/helpers/warm-cli.ts; OBTPP_TEST_REAL_CLI=1 starts the binary).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { makeCerts, type TestCerts } from '../helpers/certs.ts';
import { profileSchema, driverStepSchema } from '../../src/profile/schema.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const bin = join(root, 'dist/src/cli/main.js');
const ANSI = /\x1b\[/;

let dir: string;
let certs: TestCerts;

before(async () => {
  assert.ok(existsSync(bin), `${bin} is missing: build first (npm run build, or npm test which builds)`);
  dir = await mkdtemp(join(tmpdir(), 'obtpp-profile-'));
  certs = await makeCerts();
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
  await certs.cleanup();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with only the environment given (plus PATH), colours off. */
async function obtpp(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const { code, stdout, stderr } = await runObtpp(args, { inherit: false, env: { PATH: process.env.PATH ?? '', HOME: dir, NO_COLOR: '1', ...env }, cwd: dir, timeoutMs: 30_000 });
  // NO_COLOR is set on every run: no ANSI escape may appear, whatever the command
  assert.ok(!ANSI.test(stdout) && !ANSI.test(stderr), `ANSI escape in output of obtpp ${args.join(' ')}`);
  return { code, stdout, stderr };
}

const fake = (prefix: string) => `${prefix}-${randomBytes(10).toString('hex')}`;

/** A valid profile as YAML text; `secretRef` is written where the client secret goes. */
function yamlProfile(over: { secretRef?: string; extra?: string; auth?: string; variants?: string } = {}): string {
  return `# a test profile
name: Test Bank
variants: ${over.variants ?? '[A, B]'}
baseUrl: https://bank.example/open-banking/v3.1
auth:
  issuer: https://auth.bank.example
${over.auth ?? '  clientId: tpp-client-1\n'}  clientAuth:
    method: client_secret_basic
    secret: "${over.secretRef ?? '${env:BANK_SECRET}'}"
  redirectUri: https://tpp.example/cb
psu:
  username: alice
  password: \${env:PSU_PASSWORD}
  driver: { kind: manual }
${over.extra ?? ''}`;
}

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

/** Asserts a profile error: exit 2, nothing on stdout, and each expected line on stderr. */
function assertProblems(run: Run, file: string, lines: string[]): void {
  assert.equal(run.code, 2, `exit code; stderr: ${run.stderr}`);
  assert.equal(run.stdout, '');
  const got = run.stderr.split('\n');
  for (const line of lines) {
    const expected = `profile ${file}: ${line}`;
    assert.ok(got.some((l) => l.startsWith(expected)), `stderr lacks a line starting "${expected}":\n${run.stderr}`);
  }
}

test('a valid YAML profile: exit 0, resolved profile on stdout, secrets masked', async () => {
  const secret = fake('client-secret');
  const password = fake('psu-password');
  const file = await write('valid.yaml', yamlProfile());
  const run = await obtpp(['profile', 'check', file], { BANK_SECRET: secret, PSU_PASSWORD: password });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, new RegExp(`profile ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: valid`));
  assert.match(run.stdout, /name: Test Bank/);
  assert.match(run.stdout, /clientId: tpp-client-1/);
  // defaults are applied and shown
  assert.match(run.stdout, /accountAccessConsents: \/account-access-consents/);
  assert.match(run.stdout, /requestMs: 10000/);
  assert.match(run.stdout, /secret: "\*{8}"/);
  for (const s of [secret, password]) {
    assert.ok(!run.stdout.includes(s), 'a secret reached stdout');
    assert.ok(!run.stderr.includes(s), 'a secret reached stderr');
  }
});

test('a valid JSON profile, and --json output that parses, secrets masked', async () => {
  const secret = fake('client-secret');
  const password = fake('psu-password');
  const profile = {
    name: 'JSON Bank', variants: ['A'], baseUrl: 'https://bank.example/ob/',
    auth: { discoveryUrl: 'https://auth.bank.example/.well-known/openid-configuration', clientId: 'c1', clientAuth: { method: 'client_secret_post', secret: '${env:BANK_SECRET}' }, redirectUri: 'https://tpp.example/cb', intentBinding: { method: 'query', parameter: 'consent_id' } },
    psu: { username: 'bob', password: '${env:PSU_PASSWORD}', driver: { kind: 'sandbox' } },
    paths: { accountAccessConsents: '/consents' },
  };
  const file = await write('valid.json', JSON.stringify(profile, null, 2));
  const plain = await obtpp(['profile', 'check', file], { BANK_SECRET: secret, PSU_PASSWORD: password });
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /name: JSON Bank/);

  const json = await obtpp(['profile', 'check', file, '--json'], { BANK_SECRET: secret, PSU_PASSWORD: password });
  assert.equal(json.code, 0, json.stderr);
  const out = JSON.parse(json.stdout) as Record<string, any>;
  assert.equal(out.name, 'JSON Bank');
  assert.equal(out.baseUrl, 'https://bank.example/ob'); // trailing slash removed
  assert.equal(out.paths.accountAccessConsents, '/consents');
  assert.equal(out.paths.accounts, '/accounts');
  assert.deepEqual(out.auth.intentBinding, { method: 'query', parameter: 'consent_id' });
  assert.equal(out.auth.clientAuth.secret, '********');
  assert.equal(out.psu.password, '********');
  assert.equal(out.secrets, undefined);
  for (const s of [secret, password]) assert.ok(!json.stdout.includes(s) && !json.stderr.includes(s), 'a secret was printed');
});

test('a missing required field: exit 2, `$.auth.clientId: is required but missing`', async () => {
  const file = await write('no-client-id.yaml', yamlProfile({ secretRef: 'not-from-env', auth: '' }));
  const run = await obtpp(['profile', 'check', file], { PSU_PASSWORD: 'x1234567' });
  assertProblems(run, file, ['$.auth.clientId: is required but missing']);
});

test('a wrong type: exit 2, `$.variants: expected array`', async () => {
  const file = await write('variants-string.yaml', yamlProfile({ secretRef: 'not-from-env', variants: '"A"' }));
  const run = await obtpp(['profile', 'check', file], { PSU_PASSWORD: 'x1234567' });
  assertProblems(run, file, ['$.variants: expected array']);
});

test('an unknown field: exit 2, `$.auth.clientSecretz: unknown field`', async () => {
  const file = await write('typo.yaml', yamlProfile({ secretRef: 'not-from-env', auth: '  clientId: c1\n  clientSecretz: oops\n' }));
  const run = await obtpp(['profile', 'check', file], { PSU_PASSWORD: 'x1234567' });
  assertProblems(run, file, ['$.auth.clientSecretz: unknown field']);
});

test('an environment variable that is not set: the line names the variable and the field, once', async () => {
  const file = await write('env.yaml', yamlProfile());
  const run = await obtpp(['profile', 'check', file], { PSU_PASSWORD: 'x1234567' });
  assertProblems(run, file, ['$.auth.clientAuth.secret: environment variable BANK_SECRET is not set']);
  // reported as the missing variable, not a second time as the empty string it left
  assert.equal(run.stderr.split('\n').filter((l) => l.includes('$.auth.clientAuth.secret')).length, 1, run.stderr);
  // an empty variable counts as unset
  const empty = await obtpp(['profile', 'check', file], { PSU_PASSWORD: 'x1234567', BANK_SECRET: '' });
  assertProblems(empty, file, ['$.auth.clientAuth.secret: environment variable BANK_SECRET is not set']);
});

test('a value outside an enum: exit 2, the allowed values listed', async () => {
  const file = await write('enum.yaml', yamlProfile({ secretRef: 'not-from-env', extra: 'dialect: berlin\n' }).replace('method: client_secret_basic', 'method: client_secret_jwt'));
  const run = await obtpp(['profile', 'check', file], { PSU_PASSWORD: 'x1234567' });
  assertProblems(run, file, [
    '$.auth.clientAuth.method: expected one of "client_secret_basic", "client_secret_post", "private_key_jwt", "tls_client_auth"',
    '$.dialect: expected one of "obie"',
  ]);
});

test('several problems are reported together, one line each, then one hint', async () => {
  const text = `name: ""
variants: [C]
baseUrl: ftp://bank.example
auth:
  clientAuth: { method: private_key_jwt }
  redirectUri: https://tpp.example/cb
  intentBinding: { method: query }
psu:
  username: alice
  password: \${env:NOPE_PASSWORD}
  driver:
    kind: steps
    steps:
      - { action: fill, selector: "#u" }
      - { action: clik, selector: "#b" }
      - { action: click, selector: "#c", waitForNav: true }
timeouts: { requestMs: "10" }
mtls: { certFile: 5 }
`;
  const file = await write('many.yaml', text);
  const run = await obtpp(['profile', 'check', file]);
  const lines = [
    '$.psu.password: environment variable NOPE_PASSWORD is not set',
    '$.name: expected a non-empty string',
    '$.variants[0]: expected one of "A", "B"',
    '$.baseUrl: expected an absolute http(s) URL',
    '$.auth.clientId: is required but missing',
    '$.auth: expected issuer or discoveryUrl',
    '$.auth.clientAuth: expected privateKey or privateKeyFile',
    '$.auth.intentBinding.parameter: is required but missing',
    '$.psu.driver.steps[0].value: is required but missing',
    '$.psu.driver.steps[1].action: expected one of',
    '$.psu.driver.steps[2].waitForNav: unknown field',
    '$.timeouts.requestMs: expected integer',
    '$.mtls.certFile: expected string',
  ];
  assertProblems(run, file, lines);
  const problemLines = run.stderr.trimEnd().split('\n');
  // exactly those problems (no duplicates, no noise), and a last line telling where fields are documented
  assert.equal(problemLines.length, lines.length + 1, run.stderr);
  assert.match(problemLines.at(-1)!, /^obtpp: .*profiles\/example-bank\.yaml/);
});

test('a profile that is not valid YAML, or names a file that cannot be read: exit 2 with the reason', async () => {
  const broken = await write('broken.yaml', 'name: [unclosed\n');
  const run = await obtpp(['profile', 'check', broken]);
  assert.equal(run.code, 2);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /not valid YAML/);
  // The message ends with the offending line, not with `column 1:` and nothing after it.
  const first = run.stderr.split('\n')[0];
  assert.match(first, /at line 2, column 1 \(after line 1\): "name: \[unclosed"$/);

  // An error in the middle of the file shows that line; a value under a secret-looking key is masked.
  const middle = await write('middle.yaml', 'name: x\nauth: [\nclientSecret: s3cr3t-value: e\nvariants: [A]\n');
  const run3 = await obtpp(['profile', 'check', middle]);
  assert.equal(run3.code, 2);
  const line = run3.stderr.split('\n')[0];
  assert.match(line, /^profile .*middle\.yaml: not valid YAML: .* at line 3, column 1: "clientSecret: \*\*\*"$/);
  assert.ok(!run3.stderr.includes('s3cr3t-value'), 'a literal secret on the offending line is not printed');

  const missingFile = await write('missing-cert.yaml', yamlProfile({ secretRef: 'not-from-env', extra: 'mtls: { certFile: ./nowhere/client.crt, keyFile: ./nowhere/client.key }\n' }));
  const run2 = await obtpp(['profile', 'check', missingFile], { PSU_PASSWORD: 'x1234567' });
  assert.equal(run2.code, 2);
  assert.equal(run2.stdout, '');
  assert.match(run2.stderr, /\$\.mtls\.certFile: file .*nowhere\/client\.crt cannot be read/);

  const nothing = await obtpp(['profile', 'check', join(dir, 'no-such-profile.yaml')]);
  assert.equal(nothing.code, 2);
  assert.match(nothing.stderr, /no such file/);
});

test('cross-field rules: tls_client_auth needs a client certificate; a request object needs a signing key', async () => {
  const mtlsless = await write('tls-client-auth.yaml', yamlProfile({ secretRef: 'not-from-env' }).replace('method: client_secret_basic', 'method: tls_client_auth'));
  const run = await obtpp(['profile', 'check', mtlsless], { PSU_PASSWORD: 'x1234567' });
  assertProblems(run, mtlsless, ['$.mtls: a client certificate and key are required']);

  const jar = await write('jar.yaml', yamlProfile({ secretRef: 'not-from-env', auth: '  clientId: c1\n  intentBinding: { method: request-object }\n' }));
  const run2 = await obtpp(['profile', 'check', jar], { PSU_PASSWORD: 'x1234567' });
  assertProblems(run2, jar, ['$.auth.clientAuth.privateKeyFile: a signing key (privateKeyFile or privateKey) is required']);
});

test('relative file names are read from the profile\'s folder, and file names stay visible', async () => {
  await copyFile(certs.client.certFile, join(dir, 'transport.crt'));
  await copyFile(certs.client.keyFile, join(dir, 'transport.key'));
  const file = await write('relative.yaml', yamlProfile({ secretRef: 'not-from-env', extra: 'mtls: { certFile: transport.crt, keyFile: "${env:KEY_FILE}" }\n' }).replace('method: client_secret_basic', 'method: tls_client_auth'));
  const run = await obtpp(['profile', 'check', file, '--json'], { PSU_PASSWORD: 'x1234567', KEY_FILE: 'transport.key' });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as { mtls: Record<string, string> };
  assert.match(out.mtls.cert, /^<certificate, \d+ characters>$/);
  assert.equal(out.mtls.key, '********');
  assert.equal(out.mtls.keyFile, 'transport.key');
  assert.ok(!run.stdout.includes('PRIVATE KEY'));
});

test('the example profile passes when its variables and files exist, and prints none of its secrets', async () => {
  const copy = join(dir, 'my-bank.yaml');
  await copyFile(join(root, 'profiles/example-bank.yaml'), copy);
  const env = {
    BANK_API_URL: 'https://ob.bank.example/open-banking/v3.1',
    BANK_API_URL_B: 'https://ob-b.bank.example/open-banking/v3.1',
    BANK_ISSUER: 'https://auth.bank.example',
    BANK_CLIENT_ID: 'example-client-id',
    BANK_SIGNING_KEY_ID: 'example-kid',
    BANK_PSU_USERNAME: 'example-psu',
    BANK_CLIENT_SECRET: fake('client-secret'),
    BANK_SIGNING_KEY_FILE: certs.client.keyFile,
    BANK_JWKS_URL: 'https://keystore.bank.example/jwks.json',
    BANK_TRANSPORT_CERT_FILE: certs.client.certFile,
    BANK_TRANSPORT_KEY_FILE: certs.client.keyFile,
    BANK_CA_FILE: certs.ca.certFile,
    BANK_PSU_PASSWORD: fake('psu-password'),
  };
  const run = await obtpp(['profile', 'check', copy, '--json'], env);
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout) as Record<string, any>;
  assert.deepEqual(out.variants, ['A', 'B']);
  assert.equal(out.paths.accountAccessConsents, '/consents');
  assert.equal(out.tls.insecure, false);
  assert.equal(out.psu.driver.kind, 'steps');
  assert.deepEqual(out.psu.driver.steps.map((s: { action: string }) => s.action), ['waitFor', 'fill', 'fill', 'click', 'fill', 'click', 'waitFor', 'tickAccounts', 'chooseDebtor', 'decide']);
  assert.equal(out.mtls.caFile, certs.ca.certFile);
  assert.equal(out.signing.key, '********', 'the signing key (read from its file) is masked');
  assert.equal(out.bank.jwks, env.BANK_JWKS_URL);
  for (const s of [env.BANK_CLIENT_SECRET, env.BANK_PSU_PASSWORD, certs.client.key.split('\n')[1]!]) {
    assert.ok(!run.stdout.includes(s) && !run.stderr.includes(s), 'a secret was printed');
  }
  // and each variable it needs is reported by name when missing
  const bare = await obtpp(['profile', 'check', copy]);
  assert.equal(bare.code, 2);
  for (const name of Object.keys(env)) assert.match(bare.stderr, new RegExp(`environment variable ${name} is not set`));
});

test('the example profile explains every field of the schema and uses every driver action', async () => {
  const text = await readFile(join(root, 'profiles/example-bank.yaml'), 'utf8');
  const names = new Set<string>();
  const walk = (schema: unknown): void => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Record<string, unknown>;
    if (s.properties && typeof s.properties === 'object') {
      for (const [k, v] of Object.entries(s.properties)) {
        names.add(k);
        walk(v);
      }
    }
    for (const key of ['items', 'then', 'if'] as const) walk(s[key]);
    if (Array.isArray(s.allOf)) s.allOf.forEach(walk);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties);
  };
  walk(profileSchema);
  walk(driverStepSchema);
  for (const name of names) {
    assert.match(text, new RegExp(`(^|[\\s#{,])${name.replace('$', '\\$')}:`, 'm'), `profiles/example-bank.yaml does not explain "${name}"`);
  }
  for (const action of driverStepSchema.properties.action.enum) {
    assert.match(text, new RegExp(`action: ${action}\\b`), `profiles/example-bank.yaml does not show the ${action} action`);
  }
});

test('obtpp --bogus: one line on stderr, exit 2', async () => {
  const run = await obtpp(['--bogus']);
  assert.equal(run.code, 2);
  assert.equal(run.stdout, '');
  assert.equal(run.stderr, "obtpp: unknown option '--bogus' (see obtpp --help)\n");
});

test('obtpp nosuch: exit 2, naming the command', async () => {
  const run = await obtpp(['nosuch']);
  assert.equal(run.code, 2);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /unknown command 'nosuch'/);
  assert.equal(run.stderr.trimEnd().split('\n').length, 1);
});

test('obtpp profile check without a file: exit 2', async () => {
  const run = await obtpp(['profile', 'check']);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /missing required argument 'file'/);
});

test('obtpp --version prints the package version', async () => {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const run = await obtpp([flag]);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, `${pkg.version}\n`);
    assert.equal(run.stderr, '');
  }
});

test('obtpp --help: exit 0, usage, commands and exit codes on stdout, no colour', async () => {
  const run = await obtpp(['--help']);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^Usage: obtpp/);
  assert.match(run.stdout, /profile/);
  assert.match(run.stdout, /Exit codes: 0 .* 1 .* 2 .* 3 /s);
  assert.equal(run.stderr, '');
  const sub = await obtpp(['profile', 'check', '--help']);
  assert.equal(sub.code, 0);
  assert.match(sub.stdout, /Usage: obtpp profile check \[options\] <file>/);
});
