// Issue 28, the pain.002 status of a pain.001 payment (BG-45): the harness's strict pain.002
// reader (src/dialects/berlin-group/pain002.ts) on documents written here; the NextGenPSD2
// sandbox answering GET …/status with Accept: application/xml by a pain.002.001.03 report of the
// pain.001 sent (JSON otherwise); and one scoped `conform --tags @BG-45` run through runObtpp
// under the fault bg-pain002-status-differs, failing BG-45 on that scenario alone. The clean run
// of BG-45 is test/conformance/bg-xml.test.ts's; every fault is also proven by conform.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { buildPain001, PAIN_002_NAMESPACE, readPain002, XmlReadError } from '../../src/dialects/berlin-group/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';

/** A pain.002.001.03 report as a bank may write it; `edit` bends its text. */
function report(edit: (xml: string) => string = (x) => x): string {
  return edit(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${PAIN_002_NAMESPACE}">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>STS-1</MsgId><CreDtTm>2026-11-26T10:00:00Z</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts>
      <OrgnlMsgId>MSG-1</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId><OrgnlNbOfTxs>1</OrgnlNbOfTxs><GrpSts>ACTC</GrpSts>
    </OrgnlGrpInfAndSts>
    <OrgnlPmtInfAndSts>
      <OrgnlPmtInfId>PMT-1</OrgnlPmtInfId><PmtInfSts>ACTC</PmtInfSts>
      <TxInfAndSts><OrgnlEndToEndId>E2E-1</OrgnlEndToEndId><TxSts>ACTC</TxSts></TxInfAndSts>
    </OrgnlPmtInfAndSts>
  </CstmrPmtStsRpt>
</Document>`);
}

const refused = (xml: string, names: RegExp) => assert.throws(() => readPain002(xml), (e: Error) => e instanceof XmlReadError && names.test(e.message), names.source);

describe('the pain.002 reader', () => {
  test('reads a status report: the original MsgId, its message name, GrpSts, each payment information and transaction', () => {
    const got = readPain002(report());
    assert.equal(got.msgId, 'STS-1');
    assert.equal(got.originalMsgId, 'MSG-1');
    assert.equal(got.originalMsgNameId, 'pain.001.001.03');
    assert.equal(got.status, 'ACTC');
    assert.deepEqual(got.paymentInfos, [{ originalPaymentInfoId: 'PMT-1', status: 'ACTC', transactions: [{ originalEndToEndId: 'E2E-1', status: 'ACTC' }] }]);
    // A prefixed namespace reads the same; without GrpSts (0..1 in ISO 20022) the one PmtInfSts gives the status.
    const prefixed = report((x) => x.replace(/<(\/?)(\w+)/g, '<$1p:$2').replace('<p:Document xmlns=', '<p:Document xmlns:p=').replace('<p:?xml', '<?xml'));
    assert.equal(readPain002(prefixed).originalMsgId, 'MSG-1');
    assert.equal(readPain002(report((x) => x.replace('<GrpSts>ACTC</GrpSts>', '').replace('<PmtInfSts>ACTC', '<PmtInfSts>RCVD'))).status, 'RCVD');
  });

  test('refuses what is not a pain.002 report, naming what is wrong', () => {
    refused(report((x) => x.replace('</GrpHdr>', '')), /closes|never closed/);
    refused(report((x) => x.replace('<Document', '<!DOCTYPE Document [<!ENTITY x "y">]>\n<Document')), /DOCTYPE/);
    refused(report((x) => x.replace('pain.002.001.03"', 'pain.002.001.10"')), /namespace/);
    refused(report((x) => x.replace(/CstmrPmtStsRpt/g, 'CstmrCdtTrfInitn')), /CstmrPmtStsRpt/);
    refused(report((x) => x.replace('<OrgnlMsgId>MSG-1</OrgnlMsgId>', '')), /OrgnlMsgId/);
    refused(report((x) => x.replace('<OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId>', '')), /OrgnlMsgNmId/);
    refused(report((x) => x.replace('<MsgId>STS-1</MsgId>', '')), /GrpHdr\/MsgId/);
    refused(report((x) => x.replace('2026-11-26T10:00:00Z', 'yesterday')), /CreDtTm/);
    refused(report((x) => x.replace('<OrgnlPmtInfId>PMT-1</OrgnlPmtInfId>', '')), /OrgnlPmtInfId/);
    refused(report((x) => x.replace('<GrpSts>ACTC</GrpSts>', '').replace('<PmtInfSts>ACTC</PmtInfSts>', '')), /GrpSts/);
  });
});

describe('the sandbox\'s pain.002 status', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ dialect: 'berlin-group', quiet: true });
  });
  after(async () => {
    await sb?.stop();
  });

  const get = async (url: string, accept: string) => {
    const res = await fetch(url, { headers: { 'X-Request-ID': randomUUID(), Accept: accept } });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  test('Accept: application/xml on a pain.001 payment\'s status is a pain.002 of the pain.001 sent, its status the JSON one; JSON otherwise', async () => {
    const msgId = `MSG-${randomUUID().slice(0, 8)}`;
    const xml = buildPain001({
      msgId, paymentInfoId: 'PMT-7', initiatingParty: 'test TPP', debtorName: 'Alice', debtorIban: (sb.psus[0]!.accounts[0] as { iban?: string }).iban!,
      transactions: [{ endToEndId: 'E2E-7', amount: '3.00', currency: 'EUR', creditorIban: 'DE02120300000000202051', creditorName: 'Payee' }],
    });
    const created = await fetch(`${sb.baseUrls.A}/v1/payments/pain.001-sepa-credit-transfers`, {
      method: 'POST', body: xml, headers: { 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': 'https://tpp.example.org/back', 'content-type': 'application/xml' },
    });
    assert.equal(created.status, 201);
    const status = `${sb.baseUrls.A}/v1/payments/pain.001-sepa-credit-transfers/${(await created.json() as { paymentId: string }).paymentId}/status`;
    const asXml = await get(status, 'application/xml');
    assert.equal(asXml.status, 200);
    assert.match(asXml.type, /^application\/xml/);
    const got = readPain002(asXml.text);
    assert.equal(got.originalMsgId, msgId);
    assert.equal(got.originalMsgNameId, 'pain.001.001.03');
    assert.deepEqual(got.paymentInfos.map((p) => p.originalPaymentInfoId), ['PMT-7']);
    const asJson = await get(status, 'application/json');
    assert.match(asJson.type, /^application\/json/);
    assert.equal(got.status, JSON.parse(asJson.text).transactionStatus);
    // The first of the two the TPP names wins.
    assert.match((await get(status, 'application/json, application/xml')).type, /^application\/json/);
    assert.match((await get(status, 'application/xml;q=0.9, application/json')).type, /^application\/xml/);
  });
});

test('conform --tags @BG-45 under bg-pain002-status-differs: BG-45 fails on the pain.002 scenario alone, naming GrpSts and the JSON status', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-pain002-'));
  try {
    const run = await runObtpp(['conform', '--dialect', 'berlin-group', '--variant', 'A', '--tags', '@BG-45', '--sandbox-fault', 'bg-pain002-status-differs', '--report-dir', dir]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    const rule = summary.variants[0].rules.find((r: { id: string }) => r.id === 'BG-45');
    assert.equal(rule.status, 'failed');
    assert.equal(rule.counts.failed, 1, JSON.stringify(rule.counts));
    assert.match(JSON.stringify(rule), /GrpSts \\"ACSC\\", while the JSON status read just before and just after it is \\"RCVD\\"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
