/**
 * The status of a pain.001 payment asked as XML (GET …/{paymentId}/status, Accept:
 * application/xml): the file's `paymentInitiationStatusResponse-200_xml`, "returned as a pain.002
 * structure" (urn:iso:std:iso:20022:tech:xsd:pain.002.001.03). Read here by the strict reader of
 * pain001.ts (no DOCTYPE, nothing expanded): the members a status report cannot do without are
 * required, and a missing one is named.
 */
import { readXml, xmlChild, XmlReadError, type XmlElement } from './pain001.ts';

export const PAIN_002_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.03';

/** What a pain.002 status report says, as far as the harness judges it. */
export interface Pain002Summary {
  namespace: string;
  /** GrpHdr: the report's own identification and creation time. */
  msgId: string;
  created: string;
  /** OrgnlGrpInfAndSts: the pain.001 reported on, and its group status (GrpSts, 0..1 in ISO 20022). */
  originalMsgId: string;
  originalMsgNameId: string;
  groupStatus?: string;
  /** OrgnlPmtInfAndSts: each payment information's original id and status, with its transactions' end-to-end ids and statuses. */
  paymentInfos: Array<{ originalPaymentInfoId: string; status?: string; transactions: Array<{ originalEndToEndId?: string; status?: string }> }>;
  /** GrpSts, else the one payment information's PmtInfSts: the status the report gives the payment. */
  status: string;
}

const text = (el: XmlElement | undefined, path: string): string | undefined => {
  const v = xmlChild(el, path)?.text.trim();
  return v === undefined || v === '' ? undefined : v;
};

/**
 * Reads a pain.002.001.03 document. Throws XmlReadError naming what is wrong: not well-formed, a
 * DOCTYPE, another root or namespace, or a member missing (GrpHdr/MsgId, GrpHdr/CreDtTm,
 * OrgnlGrpInfAndSts/OrgnlMsgId, OrgnlMsgNmId, each OrgnlPmtInfAndSts/OrgnlPmtInfId), or no status
 * at all (neither GrpSts nor a single payment information's PmtInfSts).
 */
export function readPain002(xml: string): Pain002Summary {
  const root = readXml(xml);
  if (root.local !== 'Document') throw new XmlReadError(`the root element is <${root.name}>, not a pain.002 <Document>`);
  const namespace = root.attrs[root.name.includes(':') ? `xmlns:${root.name.split(':')[0]}` : 'xmlns'];
  if (namespace !== PAIN_002_NAMESPACE) throw new XmlReadError(`the document's namespace is ${namespace ?? 'missing'}, not ${PAIN_002_NAMESPACE}`);
  const report = xmlChild(root, 'CstmrPmtStsRpt');
  if (!report) throw new XmlReadError('Document/CstmrPmtStsRpt is missing (no CustomerPaymentStatusReport)');
  const need = (el: XmlElement | undefined, path: string, where: string): string => {
    const v = text(el, path);
    if (v === undefined) throw new XmlReadError(`${where}/${path} is missing from the pain.002 document`);
    return v;
  };
  const msgId = need(report, 'GrpHdr/MsgId', 'CstmrPmtStsRpt');
  const created = need(report, 'GrpHdr/CreDtTm', 'CstmrPmtStsRpt');
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(created) || Number.isNaN(Date.parse(created))) throw new XmlReadError(`CstmrPmtStsRpt/GrpHdr/CreDtTm ${JSON.stringify(created)} is no ISODateTime`);
  const group = xmlChild(report, 'OrgnlGrpInfAndSts');
  if (!group) throw new XmlReadError('CstmrPmtStsRpt/OrgnlGrpInfAndSts is missing from the pain.002 document');
  const originalMsgId = need(group, 'OrgnlMsgId', 'OrgnlGrpInfAndSts');
  const originalMsgNameId = need(group, 'OrgnlMsgNmId', 'OrgnlGrpInfAndSts');
  const groupStatus = text(group, 'GrpSts');
  const paymentInfos = report.children.filter((c) => c.local === 'OrgnlPmtInfAndSts').map((inf, i) => ({
    originalPaymentInfoId: need(inf, 'OrgnlPmtInfId', `OrgnlPmtInfAndSts[${i}]`),
    ...(text(inf, 'PmtInfSts') !== undefined ? { status: text(inf, 'PmtInfSts') } : {}),
    transactions: inf.children.filter((c) => c.local === 'TxInfAndSts').map((tx) => ({
      ...(text(tx, 'OrgnlEndToEndId') !== undefined ? { originalEndToEndId: text(tx, 'OrgnlEndToEndId') } : {}),
      ...(text(tx, 'TxSts') !== undefined ? { status: text(tx, 'TxSts') } : {}),
    })),
  }));
  const status = groupStatus ?? (paymentInfos.length === 1 ? paymentInfos[0]!.status : undefined);
  if (status === undefined) throw new XmlReadError('OrgnlGrpInfAndSts/GrpSts is missing, and no single OrgnlPmtInfAndSts/PmtInfSts gives the payment\'s status');
  return { namespace, msgId, created, originalMsgId, originalMsgNameId, ...(groupStatus !== undefined ? { groupStatus } : {}), paymentInfos, status };
}
