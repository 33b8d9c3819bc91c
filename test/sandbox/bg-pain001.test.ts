/**
 * The NextGenPSD2 sandbox's pain.001 products (issue 28, BG-45): a pain.001.001.03 document
 * (application/xml) to POST /v1/payments/pain.001-… and /v1/bulk-payments/pain.001-… answers a
 * JSON 201 valid against the OFFICIAL 1.3.12 file, GET answers the document as sent
 * (application/xml), the status JSON; what the bank refuses (counts that do not match, a single
 * payment of two transactions, a pain.001 standing order, XML where JSON goes and back, XML that
 * is not well-formed or not pain.001); and the two faults of BG-45. No browser, no PSU.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { buildPain001, judgeBg, XML_PAYMENT_PRODUCTS, type BgSchemaName } from '../../src/dialects/berlin-group/index.ts';
import { bgSkip, officialErrors, officialValidator } from '../dialects/berlin-group-official.ts';

type Json = any;
let sb: Sandbox;
let faulty: Sandbox;

before(async () => {
  // Compiled first: compiling the official file takes seconds, in which the sandbox would close the idle keep-alive socket.
  if (!bgSkip) for (const name of ['paymentInitiationRequestResponse-201', 'paymentInitiationStatusResponse-200_json'] as const) officialValidator(name);
  [sb, faulty] = await Promise.all([
    startSandbox({ dialect: 'berlin-group', quiet: true }),
    startSandbox({ dialect: 'berlin-group', quiet: true, faults: ['bg-pain001-read-back-changed', 'bg-pain001-control-sum-unchecked'] }),
  ]);
});
after(async () => {
  await Promise.all([sb?.stop(), faulty?.stop()]);
});

async function call(method: string, url: string, body?: string, type = 'application/xml'): Promise<{ status: number; type: string; text: string; body: Json }> {
  const res = await fetch(url, {
    method,
    headers: { 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': 'https://tpp.example.org/back', ...(body !== undefined ? { 'content-type': type } : {}) },
    body,
  });
  const text = await res.text();
  const json = /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined;
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, body: json };
}

function valid(name: BgSchemaName, body: Json): void {
  const j = judgeBg(name, body);
  assert.deepEqual([...j.must, ...j.should], [], `${name}: ${JSON.stringify(body)}`);
  if (bgSkip) return;
  const fn = officialValidator(name);
  assert.ok(fn(body), `${name}: ${officialErrors(fn)}\n${JSON.stringify(body).slice(0, 400)}`);
}

const today = () => new Date().toISOString().slice(0, 10);
const pain001 = (bank: Sandbox, n: number, o: { nbOfTxs?: string; ctrlSum?: string } = {}) => buildPain001({
  msgId: `MSG-${randomUUID().slice(0, 8)}`, paymentInfoId: 'PMT-1', initiatingParty: 'test TPP', debtorName: 'Alice',
  debtorIban: (bank.psus[0]!.accounts[0] as { iban?: string }).iban!, requestedExecutionDate: today(),
  transactions: Array.from({ length: n }, (_, i) => ({ endToEndId: `E2E-${i}`, amount: `${i + 1}.00`, currency: 'EUR', creditorIban: 'DE02120300000000202051', creditorName: `Payee ${i}`, remittance: `item ${i}` })),
  ...o,
});

test('each pain.001 product takes a single payment: JSON 201, the document read back as sent (application/xml), a JSON status', async () => {
  for (const product of XML_PAYMENT_PRODUCTS) {
    const xml = pain001(sb, 1);
    const created = await call('POST', `${sb.baseUrls.A}/v1/payments/${product}`, xml);
    assert.equal(created.status, 201, `${product}: ${created.text}`);
    valid('paymentInitiationRequestResponse-201', created.body);
    const self = `${sb.baseUrls.A}/v1/payments/${product}/${created.body.paymentId}`;
    const read = await call('GET', self);
    assert.equal(read.status, 200);
    assert.match(read.type, /^application\/xml/);
    assert.equal(read.text, xml);
    const status = await call('GET', `${self}/status`);
    valid('paymentInitiationStatusResponse-200_json', status.body);
    assert.equal(status.body.transactionStatus, 'RCVD');
    // Not under another product, nor another service.
    assert.equal((await call('GET', `${sb.baseUrls.A}/v1/payments/sepa-credit-transfers/${created.body.paymentId}`)).status, 404);
    assert.equal((await call('GET', `${sb.baseUrls.A}/v1/bulk-payments/${product}/${created.body.paymentId}`)).status, 404);
  }
});

test('a bulk of three transactions as one pain.001 reads back as sent', async () => {
  const xml = pain001(sb, 3);
  const created = await call('POST', `${sb.baseUrls.A}/v1/bulk-payments/pain.001-sepa-credit-transfers`, xml);
  assert.equal(created.status, 201, created.text);
  valid('paymentInitiationRequestResponse-201', created.body);
  const read = await call('GET', `${sb.baseUrls.A}/v1/bulk-payments/pain.001-sepa-credit-transfers/${created.body.paymentId}`);
  assert.equal(read.text, xml);
});

test('what the bank refuses: counts that do not match, a single payment of two, a pain.001 standing order, the wrong media type, XML that is not a pain.001', async () => {
  const at = (service: string, product = 'pain.001-sepa-credit-transfers') => `${sb.baseUrls.A}/v1/${service}/${product}`;
  const refusals: Array<[string, string, string | undefined, number, RegExp, string?]> = [
    ['NbOfTxs off', at('bulk-payments'), pain001(sb, 2, { nbOfTxs: '3' }), 400, /NbOfTxs says 3/],
    ['CtrlSum off', at('bulk-payments'), pain001(sb, 2, { ctrlSum: '3.50' }), 400, /CtrlSum says 3.50/],
    ['two in a single payment', at('payments'), pain001(sb, 2), 400, /one CdtTrfTxInf/],
    ['a standing order', at('periodic-payments'), pain001(sb, 1), 400, /multipart/],
    ['JSON to a pain.001 product', at('payments'), '{}', 415, /pain.001.001.03 document/, 'application/json'],
    ['XML to a JSON product', at('payments', 'sepa-credit-transfers'), pain001(sb, 1), 415, /is JSON/],
    ['not well-formed', at('payments'), pain001(sb, 1).replace('</GrpHdr>', ''), 400, /not well-formed/],
    ['a DOCTYPE', at('payments'), `<!DOCTYPE Document [<!ENTITY e "x">]>${pain001(sb, 1).replace(/^<\?xml[^>]*>/, '')}`, 400, /declaration/],
    ['another namespace', at('payments'), pain001(sb, 1).replace('pain.001.001.03', 'pain.001.001.09'), 400, /namespace/],
    ['no creditor IBAN', at('payments'), pain001(sb, 1).replace(/<CdtrAcct>[\s\S]*?<\/CdtrAcct>/, ''), 400, /CdtrAcct\/Id\/IBAN is required/],
  ];
  for (const [what, url, body, status, text, type] of refusals) {
    const r = await call('POST', url, body, type);
    assert.equal(r.status, status, `${what}: ${r.text}`);
    assert.match(r.body.tppMessages[0].text, text, what);
  }
});

test('the faults of BG-45: the read-back changed, the counts unchecked', async () => {
  const xml = pain001(faulty, 1);
  const created = await call('POST', `${faulty.baseUrls.A}/v1/payments/pain.001-sepa-credit-transfers`, xml);
  const read = await call('GET', `${faulty.baseUrls.A}/v1/payments/pain.001-sepa-credit-transfers/${created.body.paymentId}`);
  assert.notEqual(read.text, xml);
  assert.match(read.text, /<MsgId>XMSG-/);
  assert.match(read.text, /<InstdAmt Ccy="EUR">1.01</);
  const mismatched = await call('POST', `${faulty.baseUrls.A}/v1/bulk-payments/pain.001-sepa-credit-transfers`, pain001(faulty, 2, { nbOfTxs: '3', ctrlSum: '6.00' }));
  assert.equal(mismatched.status, 201, mismatched.text);
});
