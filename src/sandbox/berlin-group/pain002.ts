/**
 * The bank's status report of a pain.001 payment (GET …/{paymentId}/status with Accept:
 * application/xml): a pain.002.001.03 CustomerPaymentStatusReport naming the original pain.001
 * (its MsgId, message name, creation time and counts) and the payment's transaction status as its
 * group status; the payment information's status beside it. The file: "The status is returned as
 * a pain.002 structure … following the XML schema definitions of the original pain.001 schema."
 */
import xmlbuilder from 'xmlbuilder';
import type { Pain001Read } from './pain001.ts';

const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.03';

let reports = 0;

/** Whether the TPP's Accept asks for XML before JSON (the first of the two it names; none: JSON). */
export function wantsXml(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const xml = types.findIndex((t) => t === 'application/xml' || t === 'text/xml');
  const json = types.findIndex((t) => t === 'application/json' || t === '*/*' || t === 'application/*');
  return xml >= 0 && (json < 0 || xml < json);
}

/** The pain.002.001.03 document reporting `status` of the payment whose pain.001 said `original`. */
export function buildPain002(original: Pain001Read, status: string, now: Date, o: { originalMsgId?: string } = {}): string {
  const doc = xmlbuilder.create('Document', { version: '1.0', encoding: 'UTF-8' }).att('xmlns', NAMESPACE);
  const report = doc.ele('CstmrPmtStsRpt');
  const grp = report.ele('GrpHdr');
  grp.ele('MsgId', `OBTPSTS${now.getTime().toString(36).toUpperCase()}${(++reports).toString(36).toUpperCase()}`);
  grp.ele('CreDtTm', now.toISOString());
  const orig = report.ele('OrgnlGrpInfAndSts');
  orig.ele('OrgnlMsgId', o.originalMsgId ?? original.msgId);
  orig.ele('OrgnlMsgNmId', 'pain.001.001.03');
  orig.ele('OrgnlCreDtTm', original.created);
  orig.ele('OrgnlNbOfTxs', original.nbOfTxs);
  if (original.ctrlSum !== undefined) orig.ele('OrgnlCtrlSum', original.ctrlSum);
  orig.ele('GrpSts', status);
  const inf = report.ele('OrgnlPmtInfAndSts');
  inf.ele('OrgnlPmtInfId', original.paymentInfoId);
  inf.ele('OrgnlNbOfTxs', original.nbOfTxs);
  if (original.ctrlSum !== undefined) inf.ele('OrgnlCtrlSum', original.ctrlSum);
  inf.ele('PmtInfSts', status);
  return doc.end({ pretty: true });
}
