/**
 * The terminal's Berlin Group payment services (issue 28): `consent create pis --service
 * periodic-payments|bulk-payments`, the pain.001 products (the document obtpp builds; a standing
 * order's as multipart/form-data), `obtpp basket`, and the multilevel SCA of a payment from an
 * account of two PSUs (`consent authorise --psu-id`), against one in-process NextGenPSD2 sandbox.
 * Embedded SCA (no browser) for all but one multilevel run by redirect (two PSU journeys).
 * Build first (npm run build).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runObtpp, type Run } from '../helpers/obtpp.ts';

let sb: Sandbox;
let uk: Sandbox;
let dir: string;
let embedded: string;
let redirect: string;
let ukProfile: string;

const CREDITOR = 'DE89370400440532013000';

async function profileFile(name: string, raw: unknown): Promise<string> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(raw), { mode: 0o600 });
  return file;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bgservices-'));
  [sb, uk] = await Promise.all([startSandbox({ dialect: 'berlin-group', sca: ['redirect', 'embedded'] }), startSandbox({ quiet: true })]);
  const raw: any = sb.profile('A');
  assert.ok(raw.sca?.multilevel, 'the sandbox profile names the multilevel account and its second PSU');
  redirect = await profileFile('redirect', { ...raw, sca: { ...raw.sca, approaches: ['redirect'] } });
  embedded = await profileFile('embedded', { ...raw, sca: { ...raw.sca, approaches: ['embedded'] } });
  ukProfile = await profileFile('uk', uk.profile());
});
after(async () => {
  await Promise.all([sb?.stop(), uk?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const debtor = () => (sb.psus[0]!.accounts[0] as { iban?: string }).iban!;
const run = (profile: string, state: string, ...args: string[]) => runObtpp([...args, '--profile', profile, '--state', join(dir, `${state}.json`)], { cwd: dir, timeoutMs: 120_000 });
const ok = (r: Run) => (assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`), r);
const refused = (r: Run, pattern: RegExp) => {
  assert.equal(r.code, 2, `${r.stdout}\n${r.stderr}`);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.match(r.stderr, pattern);
};

test('a standing order (JSON): created under /v1/periodic-payments with its terms, authorised, read back with them', async () => {
  const created = ok(await run(embedded, 'so', 'consent', 'create', 'pis', '--service', 'periodic-payments', '--frequency', 'Monthly', '--start-date', '+7d', '--end-date', '+400d',
    '--execution-rule', 'following', '--day-of-execution', '15', '--amount', '50.00', '--debtor-iban', debtor(), '--creditor-iban', CREDITOR, '--creditor-name', 'Landlord', '--json'));
  const id = JSON.parse(created.stdout).paymentId as string;
  assert.match(ok(await run(embedded, 'so', 'consent', 'authorise')).stdout, /authorised payment/);
  // The bank holds it as a standing order: its own path answers, the single payments' does not.
  const at = (service: string) => fetch(`${sb.baseUrls.A}/v1/${service}/sepa-credit-transfers/${id}`, { headers: { 'X-Request-ID': crypto.randomUUID() } });
  assert.equal((await at('periodic-payments')).status, 200);
  assert.notEqual((await at('payments')).status, 200);
  const got = ok(await run(embedded, 'so', 'payment', 'get'));
  assert.match(got.stdout, /^Frequency\s+Monthly$/m);
  assert.match(got.stdout, /^Day\s+15$/m);
  assert.match(got.stdout, new RegExp(`^Start\\s+${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)}$`, 'm'));
  assert.match(ok(await run(embedded, 'so', 'payment', 'status')).stdout, /: AC(TC|SP|SC)$/m);
});

test('a bulk of a pain.001 product: the document obtpp builds holds every payment of the --payments file, with their count and sum', async () => {
  const file = join(dir, 'payments-of-the-bulk.json');
  await writeFile(file, JSON.stringify([
    { creditorIban: CREDITOR, creditorName: 'Ann', amount: '1.50' },
    { creditorIban: 'DE02120300000000202051', creditorName: 'Ben', amount: '2.25', reference: 'invoice 7' },
  ]));
  ok(await run(embedded, 'bulk', 'consent', 'create', 'pis', '--service', 'bulk-payments', '--payments', file, '--debtor-iban', debtor(), '--product', 'pain.001-sepa-credit-transfers', '--debtor-name', 'Alice Adams'));
  ok(await run(embedded, 'bulk', 'consent', 'authorise'));
  const xml = ok(await run(embedded, 'bulk', 'payment', 'get')).stdout;
  assert.match(xml, /^<\?xml/);
  assert.equal(xml.match(/<CdtTrfTxInf>/g)?.length, 2, xml);
  assert.match(xml, /<NbOfTxs>2<\/NbOfTxs>/);
  assert.match(xml, /<CtrlSum>3\.75<\/CtrlSum>/);
  assert.match(xml, /<Ustrd>invoice 7<\/Ustrd>/);
  assert.match(xml, /<Nm>Alice Adams<\/Nm>/);
  assert.match(ok(await run(embedded, 'bulk', 'consent', 'list')).stdout, /3\.75 EUR in 2 payments from /);
  // Its status as the ISO 20022 report (pain.002) of the document sent.
  const msgId = /<MsgId>([^<]+)<\/MsgId>/.exec(xml)![1];
  const report = ok(await run(embedded, 'bulk', 'payment', 'status', '--xml')).stdout;
  assert.match(report, new RegExp(`<OrgnlMsgId>${msgId}</OrgnlMsgId>`));
  assert.match(report, /<GrpSts>AC(TC|SP|SC)<\/GrpSts>/);
  refused(await run(ukProfile, 'bad', 'payment', 'status', 'x', '--xml'), /--xml asks a berlin-group pain\.001 payment's status/);
});

test('a standing order of a pain.001 product: sent and read back as multipart/form-data of the document and the terms', async () => {
  ok(await run(embedded, 'sopain', 'consent', 'create', 'pis', '--service', 'periodic-payments', '--frequency', 'Weekly', '--product', 'pain.001-sepa-credit-transfers',
    '--amount', '1.00', '--debtor-iban', debtor(), '--creditor-iban', CREDITOR, '--creditor-name', 'Ann'));
  const got = JSON.parse(ok(await run(embedded, 'sopain', 'payment', 'get', '--json')).stdout);
  assert.match(got.contentType, /^multipart\/form-data; boundary=/);
  assert.match(got.text, /name="xml_sct"[\s\S]*<InstdAmt Ccy="EUR">1\.00<\/InstdAmt>/);
  assert.match(got.text, /name="json_standingorderType"[\s\S]*"frequency":"Weekly"/);
});

test('the services\' flags are checked before anything is sent: one line, exit 2', async () => {
  refused(await run(embedded, 'bad', 'consent', 'create', 'pis', '--frequency', 'Weekly', '--amount', '1.00', '--debtor-iban', debtor(), '--creditor-iban', CREDITOR, '--creditor-name', 'A'), /--frequency: a standing order's terms; add --service periodic-payments/);
  refused(await run(embedded, 'bad', 'consent', 'create', 'pis', '--service', 'periodic-payments', '--frequency', 'Hourly', '--amount', '1.00', '--debtor-iban', debtor(), '--creditor-iban', CREDITOR, '--creditor-name', 'A'), /--frequency Hourly: expected one of Daily, /);
  refused(await run(embedded, 'bad', 'consent', 'create', 'pis', '--service', 'weekly'), /--service weekly: expected one of payments, periodic-payments, bulk-payments/);
  const empty = join(dir, 'empty.json');
  await writeFile(empty, '[]');
  refused(await run(embedded, 'bad', 'consent', 'create', 'pis', '--service', 'bulk-payments', '--payments', empty, '--debtor-iban', debtor()), /expected a JSON array of 1 to 100 payments/);
  refused(await run(embedded, 'bad', 'consent', 'create', 'pis', '--service', 'bulk-payments', '--payments', empty, '--amount', '1.00', '--debtor-iban', debtor()), /--amount: a bulk's payments come from --payments FILE/);
  refused(await run(embedded, 'bad', 'consent', 'create', 'pis', '--debtor-name', 'A', '--amount', '1.00', '--debtor-iban', debtor(), '--creditor-iban', CREDITOR, '--creditor-name', 'A'), /--debtor-name: .*pain\.001/);
  refused(await run(ukProfile, 'bad', 'consent', 'create', 'pis', '--service', 'periodic-payments', '--amount', '1.00', '--creditor-id', '1', '--creditor-name', 'A'), /--service.*berlin-group terms/);
  refused(await run(ukProfile, 'bad', 'basket', 'status'), /berlin-group/);
});

test('a signing basket: one embedded SCA authorises both payments; an authorised basket cannot be deleted', async () => {
  const ids: string[] = [];
  for (const amount of ['1.00', '2.00']) {
    const r = ok(await run(embedded, 'basket', 'consent', 'create', 'pis', '--amount', amount, '--debtor-iban', debtor(), '--creditor-iban', CREDITOR, '--creditor-name', 'Ann', '--json'));
    ids.push(JSON.parse(r.stdout).paymentId);
  }
  assert.match(ok(await run(embedded, 'basket', 'basket', 'create', ...ids)).stdout, /created signing basket \S+ of 2 payments \(RCVD, SCA by embedded\)/);
  assert.match(ok(await run(embedded, 'basket', 'basket', 'get')).stdout, new RegExp(`Payments\\s+${ids.join(', ')}`));
  const done = JSON.parse(ok(await run(embedded, 'basket', 'basket', 'authorise', '--json')).stdout);
  assert.equal(done.status, 'authorised');
  assert.equal(done.transactionStatus, 'ACTC');
  const list = JSON.parse(ok(await run(embedded, 'basket', 'consent', 'list', '--json')).stdout);
  for (const id of ids) assert.notEqual(list.consents.find((c: { id: string }) => c.id === id)?.status, 'RCVD', `payment ${id} authorised by the basket's SCA`);
  const deleted = await run(embedded, 'basket', 'basket', 'delete');
  assert.equal(deleted.code, 1);
  assert.match(deleted.stderr, /409/);
  refused(await run(embedded, 'basket', 'basket', 'create', 'no-such-payment'), /no-such-payment: no consent or payment of this session/);
});

test('multilevel SCA, embedded: the payment reads PATC after the first PSU, and the next PSU named by --psu-id completes it', async () => {
  const iban = JSON.parse(await (await import('node:fs/promises')).readFile(embedded, 'utf8')).sca.multilevel.iban;
  ok(await run(embedded, 'ml', 'consent', 'create', 'pis', '--amount', '1.00', '--debtor-iban', iban, '--creditor-iban', CREDITOR, '--creditor-name', 'Ann'));
  const first = ok(await run(embedded, 'ml', 'consent', 'authorise'));
  assert.match(first.stdout, /reads PATC: the bank awaits another PSU's SCA; next: obtpp consent authorise \S+ --psu-id bob/);
  assert.match(ok(await run(embedded, 'ml', 'payment', 'status')).stdout, /: PATC$/m);
  ok(await run(embedded, 'ml', 'consent', 'authorise', '--psu-id', 'bob'));
  assert.match(ok(await run(embedded, 'ml', 'payment', 'status')).stdout, /: AC(TC|SP|SC)$/m);
});

test('multilevel SCA by redirect: each PSU\'s authorisation is started by obtpp and walked in the browser', async () => {
  const iban = JSON.parse(await (await import('node:fs/promises')).readFile(redirect, 'utf8')).sca.multilevel.iban;
  ok(await run(redirect, 'mlr', 'consent', 'create', 'pis', '--amount', '1.00', '--debtor-iban', iban, '--creditor-iban', CREDITOR, '--creditor-name', 'Ann'));
  assert.match(ok(await run(redirect, 'mlr', 'consent', 'authorise')).stdout, /reads PATC/);
  const unknown = await run(redirect, 'mlr', 'consent', 'authorise', '--psu-id', 'carol');
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /knows no password for the PSU carol/);
  ok(await run(redirect, 'mlr', 'consent', 'authorise', '--psu-id', 'bob'));
  assert.match(ok(await run(redirect, 'mlr', 'payment', 'status')).stdout, /: AC(TC|SP|SC)$/m);
});

test('transactions over a year follow the report\'s _links.next: every page\'s transactions, each once', async () => {
  ok(await run(embedded, 'pages', 'consent', 'create', 'ais'));
  ok(await run(embedded, 'pages', 'consent', 'authorise'));
  const r = ok(await run(embedded, 'pages', 'transactions', 'alice-current', '--from', '-400d', '--json'));
  const report = JSON.parse(r.stdout).transactions;
  const ids = report.booked.map((t: { transactionId: string }) => t.transactionId);
  assert.ok(ids.length > 200, `a year of alice's current account comes in pages of 100 or so (${ids.length})`);
  assert.equal(new Set(ids).size, ids.length, 'no transaction twice');
  assert.equal(report._links?.next, undefined, 'the last page\'s links: no next');
});
