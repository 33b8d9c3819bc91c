// A profile can take the bank's published discovery document (the UK conformance suite's discovery
// shape: per API and version, resourceBaseUri and the endpoints it serves) instead of implements:
// each API's base URL and the operations offered come from it; an endpoint obtpp does not know is a
// note, never an error. The documents are written here, in that shape (no template is copied).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { profileFromObject, loadProfile } from '../../src/profile/load.ts';
import { NotOfferedError, TppClient } from '../../src/client/operations.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { BankUnreachableError, ProfileError } from '../../src/errors.ts';
import { runCli } from '../../src/cli/program.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { Tpp } from '../sandbox/tpp.ts';

type Endpoint = { method: string; path: string };
const item = (name: string, base: string, endpoints: Endpoint[], version = 'v3.1.10') => ({
  apiSpecification: { name, url: 'https://bank.example/spec', version, schemaVersion: 'https://bank.example/schema', manifest: 'file://manifests/x.json' },
  openidConfigurationUri: 'https://as.bank.example/.well-known/openid-configuration',
  resourceBaseUri: base,
  endpoints,
});
const doc = (...items: unknown[]) => ({ discoveryModel: { name: 'bank', description: 'the bank', discoveryVersion: 'v0.4.0', tokenAcquisition: 'psu', discoveryItems: items } });

const AIS: Endpoint[] = [
  { method: 'POST', path: '/account-access-consents' },
  { method: 'GET', path: '/account-access-consents/{ConsentId}' },
  { method: 'DELETE', path: '/account-access-consents/{ConsentId}' },
  { method: 'GET', path: '/accounts' },
  { method: 'GET', path: '/accounts/{AccountId}' },
  { method: 'GET', path: '/accounts/{AccountId}/balances' },
  { method: 'GET', path: '/accounts/{AccountId}/transactions' },
  // Not in obtpp's catalogue (today): a note.
  { method: 'GET', path: '/accounts/{AccountId}/loyalty-points' },
];
const COF: Endpoint[] = [
  { method: 'POST', path: '/funds-confirmation-consents' },
  { method: 'GET', path: '/funds-confirmation-consents/{ConsentId}' },
  { method: 'DELETE', path: '/funds-confirmation-consents/{ConsentId}' },
  { method: 'POST', path: '/funds-confirmations' },
];
const PIS: Endpoint[] = [
  { method: 'POST', path: '/domestic-payment-consents' },
  { method: 'GET', path: '/domestic-payment-consents/{ConsentId}' },
  { method: 'POST', path: '/domestic-payments' },
  { method: 'GET', path: '/domestic-payments/{DomesticPaymentId}' },
];

const base = (extra: Record<string, unknown>) => ({
  name: 'uk bank',
  auth: { issuer: 'https://as.bank.example', clientId: 'c', clientAuth: { method: 'client_secret_basic', secret: 's3cret' }, redirectUri: 'https://tpp.example/cb' },
  psu: { username: 'u', password: 'p', driver: { kind: 'manual' } },
  ...extra,
});

let dir: string;
let server: Server;
let url: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-discovery-'));
  server = createServer((req, res) => {
    const body = JSON.stringify(doc(item('Confirmation of Funds API Specification', 'https://cbpii.bank.example/open-banking/v3.1/cbpii', COF)));
    res.writeHead(req.url === '/discovery.json' ? 200 : 404, { 'content-type': 'application/json' }).end(req.url === '/discovery.json' ? body : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(async () => {
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, value: unknown): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(value));
  return file;
}

describe('discovery: the bank\'s discovery document in place of implements', () => {
  test('sets each API\'s base URL and the operations offered; unknown endpoints and other versions are notes', async () => {
    await write('bank.json', doc(
      item('Account and Transaction API Specification', 'https://ais.bank.example/open-banking/v3.1/aisp/', AIS),
      item('Confirmation of Funds API Specification', 'https://cbpii.bank.example/open-banking/v3.1/cbpii', COF),
      item('Payment Initiation API', 'https://pis.bank.example/open-banking/v3.1/pisp', PIS),
      item('Account and Transaction API Specification', 'https://ais.bank.example/open-banking/v4.0/aisp', AIS, 'v4.0.0'),
    ));
    await write('profile.json', base({ discovery: 'file:bank.json' }));
    const p = await loadProfile(join(dir, 'profile.json'), { env: {} });
    assert.equal(p.standard, 'uk-3.1', 'a discovery document is UK Read/Write v3.1\'s');
    assert.deepEqual(p.variants, ['A']);
    assert.equal(p.apis.ais?.baseUrl, 'https://ais.bank.example/open-banking/v3.1/aisp');
    assert.equal(p.apis.cof?.baseUrl, 'https://cbpii.bank.example/open-banking/v3.1/cbpii');
    assert.equal(p.apis.pis?.baseUrl, 'https://pis.bank.example/open-banking/v3.1/pisp');
    assert.equal(p.baseUrl, 'https://ais.bank.example/open-banking/v3.1/aisp');
    assert.equal(p.absentApis, undefined);
    assert.deepEqual(p.implements, { A: [
      'confirmFunds', 'createAccountAccessConsent', 'createFundsConsent', 'createPaymentConsent', 'deleteAccountAccessConsent', 'deleteFundsConsent',
      'getAccount', 'getAccountAccessConsent', 'getBalances', 'getFundsConsent', 'getPayment', 'getPaymentOrder', 'getTransactions', 'listAccounts', 'submitPayment',
    ] });
    assert.equal(p.discovery?.source, 'file:bank.json');
    assert.equal(p.discovery?.notes.length, 2, p.discovery?.notes.join('\n'));
    assert.match(p.discovery!.notes[0]!, /discoveryItems\[0\]: GET \/accounts\/\{AccountId\}\/loyalty-points is not an operation obtpp knows/);
    assert.match(p.discovery!.notes[1]!, /discoveryItems\[3\] \(Account and Transaction API Specification v4\.0\.0\): obtpp judges UK Read\/Write v3\.1\.x; left out/);
    const c = new TppClient(p, 'A', {} as never);
    assert.equal(c.supports('getBeneficiaries'), false, 'an endpoint the document does not list is not offered');
    assert.ok(c.unsupported('getBeneficiaries') instanceof NotOfferedError);
    assert.equal(c.supports('getPaymentFunds'), false);
    assert.equal(c.supports('confirmFunds'), true);
    assert.equal(c.pathOf('submitPayment'), '/domestic-payments');

    // obtpp profile check prints the notes.
    const [out, err] = [new PassThrough(), new PassThrough()];
    let stderr = '';
    err.on('data', (chunk) => (stderr += chunk));
    out.resume();
    assert.equal(await runCli(['profile', 'check', join(dir, 'profile.json')], { stdout: out, stderr: err, env: {}, cwd: dir, color: false, interactive: false, exitCode: 0 }), 0);
    assert.match(stderr, /valid\n.*note: .*loyalty-points is not an operation obtpp knows/s);
  });

  test('an API the document leaves out is not offered; an item without resourceBaseUri sits at baseUrl + its segment; the profile\'s apis win', async () => {
    await write('two.json', doc(item('Account and Transaction API Specification', '', AIS), item('Payment Initiation API', 'https://pis.bank.example/open-banking/v3.1/pisp', PIS)));
    const p = await profileFromObject(base({ discovery: join(dir, 'two.json'), baseUrl: 'https://bank.example/open-banking/v3.1', apis: { pis: { baseUrl: 'https://elsewhere.example/pisp' } } }), { source: join(dir, 'p.json'), env: {} });
    assert.equal(p.apis.ais?.baseUrl, 'https://bank.example/open-banking/v3.1/aisp');
    assert.equal(p.apis.pis?.baseUrl, 'https://elsewhere.example/pisp');
    assert.deepEqual(p.absentApis, ['cof']);
    const c = new TppClient(p, 'A', {} as never);
    assert.equal(c.supports('createFundsConsent'), false);
    assert.match(c.unsupported('createFundsConsent').message, /no base URL for cof/);
  });

  test('the document read from a URL; an unreachable one is exit 3, a refused one a profile error', async () => {
    const p = await profileFromObject(base({ discovery: `${url}/discovery.json`, baseUrl: 'https://bank.example/open-banking/v3.1' }), { source: 'test', env: {} });
    assert.equal(p.apis.cof?.baseUrl, 'https://cbpii.bank.example/open-banking/v3.1/cbpii');
    assert.deepEqual(p.absentApis, ['ais', 'pis']);
    await assert.rejects(profileFromObject(base({ discovery: `${url}/missing.json`, baseUrl: 'https://bank.example/x' }), { source: 'test', env: {} }),
      (e: unknown) => e instanceof ProfileError && /\$\.discovery: GET .*missing\.json answered 404/.test(e.message));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(profileFromObject(base({ discovery: `http://127.0.0.1:${port}/d.json` }), { source: 'test', env: {} }),
      (e: unknown) => e instanceof BankUnreachableError && e.exitCode === 3 && /\$\.discovery: .* cannot be reached/.test(e.message));
  });

  test('contradictions and unusable documents are refused with the field named', async () => {
    const refused = async (raw: Record<string, unknown>, field: RegExp) => {
      await assert.rejects(profileFromObject(raw, { source: join(dir, 'p.json'), env: {} }), (e: unknown) => e instanceof ProfileError && field.test(e.message), String(field));
    };
    const good = await write('good.json', doc(item('Account and Transaction API Specification', 'https://ais.bank.example/aisp', AIS)));
    await refused(base({ discovery: good, implements: ['listAccounts'] }), /\$\.implements: the discovery document lists the operations/);
    await refused(base({ discovery: good, dialect: 'berlin-group' }), /\$\.discovery: a UK Read\/Write v3\.1 discovery document; a berlin-group profile has none/);
    await refused(base({ discovery: good, variants: ['A', 'B'] }), /\$\.variants: a uk-3\.1 profile is judged by variant A's rules only/);
    await refused(base({ discovery: await write('not.json', { accounts: [] }) }), /not a discovery document: expected discoveryModel\.discoveryItems/);
    await refused(base({ discovery: await write('v4.json', doc(item('Account and Transaction API Specification', 'https://x.example/aisp', AIS, 'v4.0.0'))) }), /lists no UK Read\/Write v3\.1 API obtpp judges/);
    await refused(base({ discovery: await write('nobase.json', doc(item('Account and Transaction API Specification', '', AIS))) }), /ais has no resourceBaseUri, and the profile gives no baseUrl/);
    await refused(base({ discovery: await write('noendpoints.json', doc(item('Account and Transaction API Specification', 'https://x.example/aisp', []))) }), /endpoints: the endpoints the bank serves .* are required/);
    await refused(base({ discovery: join(dir, 'no-such.json') }), /\$\.discovery: file .*no-such\.json cannot be read/);
  });
});

describe('discovery: the sandbox in the UK layout, described by a discovery document only', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ quiet: true });
  });
  after(async () => sb?.stop());

  test('a profile with the document, the client and no base URL reaches the bank at the document\'s URLs', async () => {
    const uk = `${sb.issuer}/open-banking/v3.1`;
    await write('sandbox.json', doc(item('Confirmation of Funds API Specification', `${uk}/cbpii`, COF), item('Account and Transaction API Specification', `${uk}/aisp`, AIS)));
    const { baseUrl: _b, standard: _s, ...rest } = sb.profile('uk-3.1') as Record<string, unknown>;
    const p = await profileFromObject({ ...rest, discovery: join(dir, 'sandbox.json') }, { source: join(dir, 'sandbox-profile.json'), env: {} });
    const client = new TppClient(p, 'A', httpFromProfile(p));
    const tpp = await Tpp.connect(sb);
    const created = await client.createFundsConsent({ Data: { DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400411290147', Name: 'Debtor' } } }, { token: await tpp.cc('fundsconfirmations') });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.Links.Self, `${uk}/cbpii/funds-confirmation-consents/${created.body.Data.ConsentId}`);
    assert.equal(client.supports('createPaymentConsent'), false, 'the document lists no payment initiation');
  });
});
