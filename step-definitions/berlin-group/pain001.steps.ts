/**
 * The berlin-group scenarios of the pain.001 payment products (features/berlin-group/pain001-payments.feature):
 * POST /v1/payments/pain.001-… and /v1/bulk-payments/pain.001-… with a pain.001.001.03 document
 * (application/xml), the JSON 201, the XML read-back (GET …/{paymentId}) and the JSON status; a
 * standing order (POST /v1/periodic-payments/pain.001-…) as the file's multipart/form-data of the
 * document and its terms in JSON, read back as both parts. No PSU journey, as for the JSON products (BG-44).
 */
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { TppClient, type ApiResult } from '../../src/client/operations.ts';
import {
  bgHeaders, buildPain001, isoDate, paymentIdOf, pain001Differences, readMultipart, readPain001, readPain002, standingOrderMultipart, TRANSACTION_STATUSES, transactionStatusOf,
  XML_PAYMENT_PRODUCTS, XmlReadError, type Pain001Options, type Pain001Summary, type Pain002Summary, type StandingOrderTerms,
} from '../../src/dialects/berlin-group/index.ts';
import { approachOf, bg, BgNotApplicable, expectBgSchema, plain, psuIp, scaHeaders } from './support.ts';
import { thePayment } from './payments.steps.ts';
import { CREDITORS, debtor } from './payment-services.steps.ts';

interface Pain001State { client: TppClient; service: 'payments' | 'bulk-payments' | 'periodic-payments'; sent: Pain001Summary; terms?: StandingOrderTerms }
const state = new WeakMap<ConformanceWorld, Pain001State>();

/** The profile's pain.001 products, in its order. */
function xmlProducts(world: ConformanceWorld): string[] {
  const offered = world.ctx.profile.paymentProducts ?? [world.ctx.profile.paths.paymentProduct];
  return offered.filter((p) => (XML_PAYMENT_PRODUCTS as readonly string[]).includes(p));
}

/** The tpp client whose {payment-product} is `product`. */
function clientOf(world: ConformanceWorld, product: string): TppClient {
  return new TppClient({ ...world.ctx.profile, paths: { ...world.ctx.profile.paths, paymentProduct: product } }, world.variant, world.lane.http);
}

/** A pain.001 of `n` transactions from the PSU's first account (1.00, 2.00, …), with the counts given or its own. */
async function document(world: ConformanceWorld, n: number, counts: Pick<Pain001Options, 'nbOfTxs' | 'ctrlSum'> = {}): Promise<string> {
  const from = await debtor(world);
  return buildPain001({
    msgId: world.uniqueRef('obtpp-msg'), paymentInfoId: world.uniqueRef('obtpp-pmt'), initiatingParty: 'obtpp conformance TPP',
    debtorName: 'obtpp test PSU', debtorIban: from.iban,
    transactions: Array.from({ length: n }, (_, i) => ({
      endToEndId: world.uniqueRef(`obtpp-e2e${i}`), amount: `${i + 1}.00`, currency: from.currency,
      creditorIban: CREDITORS[(i + 1) % CREDITORS.length]!, creditorName: `obtpp test payee ${i + 1}`, remittance: `obtpp pain.001 item ${i + 1}`,
    })),
    ...counts,
  });
}

/** POSTs the document as application/xml (a standing order: with its terms, multipart/form-data); keeps the payment as the scenario's. */
async function initiate(world: ConformanceWorld, product: string, service: Pain001State['service'], xml: string, terms?: StandingOrderTerms): Promise<void> {
  const client = clientOf(world, product);
  state.set(world, { client, service, sent: readPain001(xml), ...(terms ? { terms } : {}) });
  const approach = approachOf(world);
  const multipart = terms ? await standingOrderMultipart(xml, terms) : undefined;
  const headers = { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...scaHeaders(world, approach), 'Content-Type': multipart?.contentType ?? 'application/xml' };
  const body = multipart?.body ?? xml;
  const post = service === 'payments' ? 'createPaymentConsent' : service === 'bulk-payments' ? 'createBulkPayment' : 'createPeriodicPayment';
  const what = service === 'payments' ? 'payment' : service === 'bulk-payments' ? 'bulk payment' : 'standing order';
  const r = await world.call(`initiating a ${what} of ${product} (pain.001)`, () => client[post](body as never, { ...plain(world, headers, undefined, 'application/json'), bodyText: body }));
  const id = paymentIdOf(r.body);
  if (id) bg(world).payment = { id, created: r, approach };
}

function theState(world: ConformanceWorld): Pain001State {
  const s = state.get(world);
  if (!s) throw world.blocked('BG-45', 'no pain.001 payment was initiated');
  return s;
}

When('the TPP initiates a NextGenPSD2 payment of the pain.001 product {string} from the PSU\'s first account', async function (this: ConformanceWorld, product: string) {
  const offered = xmlProducts(this);
  if (!offered.includes(product)) throw new BgNotApplicable('createPaymentConsent', this.variant, `the profile's paymentProducts does not offer ${product} (pain.001 products offered: ${offered.join(', ') || 'none'})`);
  await initiate(this, product, 'payments', await document(this, 1));
});

/** The first pain.001 product the profile offers, for a bulk (not applicable without one, or without bulk payments). */
function bulkProduct(world: ConformanceWorld): string {
  const product = xmlProducts(world)[0];
  if (!product) throw new BgNotApplicable('createBulkPayment', world.variant, 'the profile\'s paymentProducts offers no pain.001 product');
  if (!world.client.supports('createBulkPayment')) throw new BgNotApplicable('createBulkPayment', world.variant, 'the profile does not implement createBulkPayment');
  return product;
}

When('the TPP initiates a NextGenPSD2 bulk of {int} payments as one pain.001 of the bank\'s first pain.001 product', async function (this: ConformanceWorld, n: number) {
  await initiate(this, bulkProduct(this), 'bulk-payments', await document(this, n));
});

When('the TPP initiates a NextGenPSD2 standing order as a pain.001 with its terms in JSON, of the bank\'s first pain.001 product', async function (this: ConformanceWorld) {
  const product = xmlProducts(this)[0];
  if (!product) throw new BgNotApplicable('createPeriodicPayment', this.variant, 'the profile\'s paymentProducts offers no pain.001 product');
  if (!this.client.supports('createPeriodicPayment')) throw new BgNotApplicable('createPeriodicPayment', this.variant, 'the profile does not implement createPeriodicPayment');
  // Monthly from next month's 5th for a year: a start the bank cannot find past, whatever its clock.
  const now = new Date();
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 5));
  const end = new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), 4));
  const terms: StandingOrderTerms = { startDate: isoDate(start), endDate: isoDate(end), executionRule: 'following', frequency: 'Monthly', dayOfExecution: '5' };
  await initiate(this, product, 'periodic-payments', await document(this, 1), terms);
});

When('the TPP initiates a NextGenPSD2 bulk of {int} payments as one pain.001 whose NbOfTxs and CtrlSum count {int}', async function (this: ConformanceWorld, n: number, claimed: number) {
  // The counts of `claimed` transactions of 1.00, 2.00, …: both disagree with the document's own.
  const ctrlSum = ((claimed * (claimed + 1)) / 2).toFixed(2);
  await initiate(this, bulkProduct(this), 'bulk-payments', await document(this, n, { nbOfTxs: String(claimed), ctrlSum }));
});

When('the TPP reads the pain.001 payment under its product', async function (this: ConformanceWorld) {
  const payment = thePayment(this);
  const s = theState(this);
  const get = s.service === 'payments' ? 'getPayment' : s.service === 'bulk-payments' ? 'getBulkPayment' : 'getPeriodicPayment';
  const accept = s.service === 'periodic-payments' ? 'multipart/form-data' : 'application/xml';
  await this.call('reading the pain.001 payment', () => s.client[get](payment.id, plain(this, bgHeaders(), undefined, accept)));
});

When('the TPP reads the pain.001 payment\'s status as JSON', async function (this: ConformanceWorld) {
  const payment = thePayment(this);
  const s = theState(this);
  const get = s.service === 'payments' ? 'getPaymentStatus' : s.service === 'bulk-payments' ? 'getBulkPaymentStatus' : 'getPeriodicPaymentStatus';
  await this.call('reading the pain.001 payment\'s status', () => s.client[get](payment.id, plain(this, bgHeaders(), undefined, 'application/json')));
});

Then('the bank reads back the pain.001 document as sent: well-formed, with the same MsgId, counts, amounts and IBANs', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const type = String(r.headers['content-type'] ?? '');
  if (!/^(application|text)\/xml\b/i.test(type)) throw this.violation(`GET of a pain.001 payment answers ${type || 'no Content-Type'}, not application/xml (${describeAnswer(r)})`);
  let got: Pain001Summary;
  try {
    got = readPain001(r.text);
  } catch (error) {
    if (error instanceof XmlReadError) throw this.violation(`GET of a pain.001 payment answers XML that is not a well-formed pain.001 document: ${error.message}`);
    throw error;
  }
  const s = theState(this);
  const wrong = pain001Differences(s.sent, got);
  if (got.namespace !== s.sent.namespace) wrong.unshift(`the namespace: sent ${s.sent.namespace}, read back ${got.namespace ?? 'none'}`);
  if (wrong.length) throw this.violation(`the pain.001 reads back otherwise than sent: ${wrong.join('; ')}`);
});

Then('the bank reads back the standing order as sent: its pain.001 document and its terms, as multipart\\/form-data', async function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const type = String(r.headers['content-type'] ?? '');
  if (!/^multipart\/form-data\b/i.test(type)) throw this.violation(`GET of a standing order with a pain.001 body answers ${type || 'no Content-Type'}, not the file's multipart/form-data (${describeAnswer(r)})`);
  let parts: Map<string, string>;
  try {
    parts = await readMultipart(r.text, type);
  } catch (error) {
    if (error instanceof XmlReadError) throw this.violation(`GET of a standing order with a pain.001 body answers a body that is ${error.message}`);
    throw error;
  }
  const s = theState(this);
  const wrong: string[] = [];
  const xml = parts.get('xml_sct');
  const terms = parts.get('json_standingorderType');
  if (xml === undefined) wrong.push('no part xml_sct (the pain.001 document)');
  if (terms === undefined) wrong.push('no part json_standingorderType (the terms)');
  if (xml !== undefined) {
    try {
      wrong.push(...pain001Differences(s.sent, readPain001(xml)).map((w) => `xml_sct: ${w}`));
    } catch (error) {
      if (!(error instanceof XmlReadError)) throw error;
      wrong.push(`xml_sct is not a well-formed pain.001 document: ${error.message}`);
    }
  }
  if (terms !== undefined) {
    let got: Record<string, unknown> | undefined;
    try {
      got = JSON.parse(terms) as Record<string, unknown>;
    } catch {
      wrong.push('json_standingorderType is not JSON');
    }
    if (got) for (const [key, value] of Object.entries(s.terms ?? {})) if (JSON.stringify(got[key]) !== JSON.stringify(value)) wrong.push(`json_standingorderType.${key}: sent ${JSON.stringify(value)}, read back ${JSON.stringify(got[key]) ?? 'nothing'}`);
  }
  if (wrong.length) throw this.violation(`the standing order reads back otherwise than sent: ${wrong.join('; ')}`);
});

When('the TPP initiates a NextGenPSD2 payment of the bank\'s first pain.001 product from the PSU\'s first account', async function (this: ConformanceWorld) {
  const product = xmlProducts(this)[0];
  if (!product) throw new BgNotApplicable('createPaymentConsent', this.variant, 'the profile\'s paymentProducts offers no pain.001 product');
  await initiate(this, product, 'payments', await document(this, 1));
});

/** The status as JSON just before and just after the XML one: a bank whose status moves between two reads is judged by either. */
When('the TPP reads the pain.001 payment\'s status as XML, and as JSON just before and just after it', async function (this: ConformanceWorld) {
  const payment = thePayment(this);
  const s = theState(this);
  const get = s.service === 'payments' ? 'getPaymentStatus' : s.service === 'bulk-payments' ? 'getBulkPaymentStatus' : 'getPeriodicPaymentStatus';
  const read = (accept: string, what: string) => this.call(what, () => s.client[get](payment.id, plain(this, bgHeaders(), undefined, accept)));
  const before = await read('application/json', 'reading the pain.001 payment\'s status as JSON');
  const xml = await read('application/xml', 'reading the pain.001 payment\'s status as XML (pain.002)');
  const after = await read('application/json', 'reading the pain.001 payment\'s status as JSON again');
  this.batch = [before, xml, after];
});

Then('the bank answers the status as a pain.002 report of the pain.001 sent, its status the transaction status read as JSON', function (this: ConformanceWorld) {
  const [before, r, after] = this.batch as [ApiResult, ApiResult, ApiResult];
  for (const json of [before, after]) {
    expectStatus(this, json, [200]);
    expectBgSchema(this, json, 'paymentInitiationStatusResponse-200_json');
  }
  expectStatus(this, r, [200]);
  const type = String(r.headers['content-type'] ?? '');
  if (!/^application\/xml\b/i.test(type)) throw this.violation(`GET …/status of a pain.001 payment with Accept: application/xml answers ${type || 'no Content-Type'}, not the file's application/xml pain.002 (${describeAnswer(r)})`);
  let got: Pain002Summary;
  try {
    got = readPain002(r.text);
  } catch (error) {
    if (error instanceof XmlReadError) throw this.violation(`GET …/status of a pain.001 payment answers XML that is not a pain.002.001.03 status report: ${error.message}`);
    throw error;
  }
  const { sent } = theState(this);
  const wrong: string[] = [];
  if (got.originalMsgId !== sent.msgId) wrong.push(`OrgnlGrpInfAndSts/OrgnlMsgId is ${quote(got.originalMsgId)}, not the MsgId of the pain.001 sent (${quote(sent.msgId)})`);
  if (!/^pain\.001\b/.test(got.originalMsgNameId)) wrong.push(`OrgnlGrpInfAndSts/OrgnlMsgNmId is ${quote(got.originalMsgNameId)}, not the pain.001 message sent`);
  got.paymentInfos.forEach((inf, i) => {
    if (sent.paymentInfoId !== undefined && inf.originalPaymentInfoId !== sent.paymentInfoId) wrong.push(`OrgnlPmtInfAndSts[${i}]/OrgnlPmtInfId is ${quote(inf.originalPaymentInfoId)}, not the PmtInfId sent (${quote(sent.paymentInfoId)})`);
    const ids = sent.transactions.map((t) => t.endToEndId);
    for (const tx of inf.transactions) if (tx.originalEndToEndId !== undefined && !ids.includes(tx.originalEndToEndId)) wrong.push(`TxInfAndSts/OrgnlEndToEndId ${quote(tx.originalEndToEndId)} is no EndToEndId of the pain.001 sent`);
  });
  if (!(TRANSACTION_STATUSES as readonly string[]).includes(got.status)) wrong.push(`the status ${quote(got.status)} is no transaction status code of the standard (${TRANSACTION_STATUSES.join(', ')})`);
  const json = [transactionStatusOf(before.body), transactionStatusOf(after.body)];
  if (!json.includes(got.status)) wrong.push(`the pain.002 gives the status ${got.groupStatus !== undefined ? 'GrpSts' : 'PmtInfSts'} ${quote(got.status)}, while the JSON status read just before and just after it is ${quote(json[0])} and ${quote(json[1])}`);
  if (wrong.length) throw this.violation(`the pain.002 status report does not report the payment sent: ${wrong.join('; ')}`);
});
