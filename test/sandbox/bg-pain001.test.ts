/**
 * The NextGenPSD2 sandbox's pain.001 products (issue 28, BG-45): a pain.001.001.03 document
 * (application/xml) to POST /v1/payments/pain.001-… and /v1/bulk-payments/pain.001-… answers a
 * JSON 201 valid against the OFFICIAL 1.3.12 file, GET answers the document as sent
 * (application/xml), the status JSON; what the bank refuses (counts that do not match, a single
 * payment of two transactions, a pain.001 standing order without its terms, XML where JSON goes and
 * back, XML that is not well-formed or not pain.001); a standing order as the file's multipart/form-data
 * (the document and its terms in JSON), read back as both parts; and the faults of BG-45. No browser, no PSU.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { buildPain001, XML_PAYMENT_PRODUCTS } from '../../src/dialects/berlin-group/index.ts';
import { bgSkip, officialValidator } from '../dialects/berlin-group-official.ts';
import { assertValid } from '../helpers/bg-sandbox.ts';

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

const valid = assertValid;

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
    ['a standing order as XML alone', at('periodic-payments'), pain001(sb, 1), 415, /multipart/],
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

/** A standing order's multipart body (the document and its terms), written by the platform's FormData. */
async function standingOrder(bank: Sandbox, terms: Record<string, unknown>, parts: { xml?: boolean; terms?: boolean } = {}): Promise<{ xml: string; body: string; type: string }> {
  const xml = pain001(bank, 1);
  const form = new FormData();
  if (parts.xml !== false) form.append('xml_sct', new Blob([xml], { type: 'application/xml' }));
  if (parts.terms !== false) form.append('json_standingorderType', new Blob([JSON.stringify(terms)], { type: 'application/json' }));
  const encoded = new Response(form);
  return { xml, body: await encoded.text(), type: encoded.headers.get('content-type')! };
}

test('a standing order with a pain.001 body: multipart/form-data of the document and its terms, read back as both parts; a part missing, or the terms wrong, refused', async () => {
  const next = new Date();
  const start = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 5)).toISOString().slice(0, 10);
  const terms = { startDate: start, executionRule: 'following', frequency: 'Monthly', dayOfExecution: '5' };
  const url = `${sb.baseUrls.A}/v1/periodic-payments/pain.001-sepa-credit-transfers`;
  const sent = await standingOrder(sb, terms);
  const created = await call('POST', url, sent.body, sent.type);
  assert.equal(created.status, 201, created.text);
  valid('paymentInitiationRequestResponse-201', created.body);
  const read = await call('GET', `${url}/${created.body.paymentId}`);
  assert.match(read.type, /^multipart\/form-data; boundary=/);
  const parts = await new Response(read.text, { headers: { 'content-type': read.type } }).formData();
  assert.equal(await (parts.get('xml_sct') as Blob).text(), sent.xml);
  assert.deepEqual(JSON.parse(await (parts.get('json_standingorderType') as Blob).text()), terms);
  const status = await call('GET', `${url}/${created.body.paymentId}/status`);
  valid('paymentInitiationStatusResponse-200_json', status.body);

  for (const [what, body, code, text] of [
    ['no terms', await standingOrder(sb, terms, { terms: false }), 400, /json_standingorderType .*is missing/],
    ['no document', await standingOrder(sb, terms, { xml: false }), 400, /xml_sct .*is missing/],
    ['a frequency the standard does not have', await standingOrder(sb, { ...terms, frequency: 'Fortnightly' }), 400, /frequency is required/],
    ['a member the terms do not have', await standingOrder(sb, { ...terms, amount: '5.00' }), 400, /no member amount/],
  ] as const) {
    const r = await call('POST', url, body.body, body.type);
    assert.equal(r.status, code, `${what}: ${r.text}`);
    assert.match(r.body.tppMessages[0].text, text, what);
  }
  // Multipart is a standing order's body only.
  const single = await call('POST', `${sb.baseUrls.A}/v1/payments/pain.001-sepa-credit-transfers`, sent.body, sent.type);
  assert.equal(single.status, 415, single.text);

  const bent = await startSandbox({ dialect: 'berlin-group', quiet: true, faults: ['bg-pain001-standing-order-changed'] });
  try {
    const order = await standingOrder(bent, terms);
    const made = await call('POST', `${bent.baseUrls.A}/v1/periodic-payments/pain.001-sepa-credit-transfers`, order.body, order.type);
    const back = await call('GET', `${bent.baseUrls.A}/v1/periodic-payments/pain.001-sepa-credit-transfers/${made.body.paymentId}`);
    const got = await new Response(back.text, { headers: { 'content-type': back.type } }).formData();
    assert.equal(JSON.parse(await (got.get('json_standingorderType') as Blob).text()).frequency, 'Weekly');
  } finally {
    await bent.stop();
  }
});
