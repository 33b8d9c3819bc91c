/**
 * The bank's reading of a pain.001.001.03 payment initiation (the `pain.001-*` products): the XML
 * is read into the payment's JSON members (so the JSON checks of payments.ts judge it as they judge
 * a JSON payment) after the document's own consistency is checked (NbOfTxs and CtrlSum agree with
 * its transactions). The bank's own reader, apart from the harness's (src/dialects): a bank and its
 * examiner must not share their mistakes.
 */
import { parseBgAmount } from './data.ts';
import { BgError, format } from './plumbing.ts';

export const XML_PRODUCTS = ['pain.001-sepa-credit-transfers', 'pain.001-instant-sepa-credit-transfers', 'pain.001-target-2-payments', 'pain.001-cross-border-credit-transfers'];
const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';

interface Node { tag: string; attrs: Record<string, string>; kids: Node[]; text: string }

// One token at a time: a comment, a processing instruction, CDATA, a closing tag, an opening (or empty) tag, a declaration's start (refused), or text.
const TOKEN = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<\/([A-Za-z_][\w.:-]*)\s*>|<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<!(?=[A-Z])|([^<]+)/y;
const ATTR = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g;
const ENTITY: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function unescape(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);|&/g, (m, ref?: string) => {
    if (!ref) throw format('the XML body has a bare & (not well-formed)');
    if (ref.startsWith('#')) return String.fromCodePoint(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    if (!(ref in ENTITY)) throw format(`the XML body refers to an unknown entity &${ref};`);
    return ENTITY[ref]!;
  });
}

/** The document's root element; 400 FORMAT_ERROR when it is not well-formed (a DOCTYPE included: nothing is expanded). */
function parse(xml: string): Node {
  const doc: Node = { tag: '', attrs: {}, kids: [], text: '' };
  const open: Node[] = [doc];
  TOKEN.lastIndex = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (TOKEN.lastIndex < xml.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(xml);
    if (!m) throw format(`the XML body is not well-formed at offset ${at}`);
    const [whole, cdata, close, tag, attrs, empty, text] = m;
    const top = open.at(-1)!;
    if (close !== undefined) {
      if (top === doc || top.tag !== close) throw format(`the XML body is not well-formed: </${close}> closes ${top === doc ? 'nothing' : `<${top.tag}>`}`);
      open.pop();
    } else if (tag !== undefined) {
      if (top === doc && doc.kids.length) throw format('the XML body has more than one root element');
      // The tag as written, to match its closing tag; local() strips the prefix for reading.
      const node: Node = { tag, attrs: {}, kids: [], text: '' };
      for (const a of (attrs ?? '').matchAll(ATTR)) node.attrs[a[1]!] = unescape(a[2] ?? a[3] ?? '');
      top.kids.push(node);
      if (!empty) open.push(node);
    } else if (cdata !== undefined || text !== undefined) {
      if (top === doc) { if ((cdata ?? text ?? '').trim()) throw format('the XML body has text outside its root element'); } else top.text += cdata ?? unescape(text!);
    } else if (whole.startsWith('<!') && !whole.startsWith('<!--')) throw format('the XML body has a declaration the bank does not read');
  }
  if (open.length > 1) throw format(`the XML body is not well-formed: <${open.at(-1)!.tag}> is never closed`);
  if (doc.kids.length !== 1) throw format('the XML body has no root element');
  return doc.kids[0]!;
}

const local = (n: Node) => n.tag.replace(/^[^:]*:/, '');
const kid = (n: Node | undefined, name: string) => n?.kids.find((k) => local(k) === name);
const kids = (n: Node | undefined, name: string) => n?.kids.filter((k) => local(k) === name) ?? [];

/** The text at a path below `n`, required (400 FORMAT_ERROR naming the path when missing or empty, or longer than `max`). */
function need(n: Node | undefined, path: string, where: string, max = 140): string {
  let at = n;
  for (const step of path.split('/')) at = kid(at, step);
  const v = at?.text.trim();
  if (!v) throw format(`${where}/${path} is required in the pain.001 document`, `${where}/${path}`);
  if (v.length > max) throw format(`${where}/${path} is longer than ${max} characters`, `${where}/${path}`);
  return v;
}

/** A pain.001 decimal ("1", "1.5", "1.00") in minor units; undefined when not one (ISO 20022: up to 18 digits, 5 decimals; EUR takes 2). */
function decimalMinor(v: string): number | undefined {
  return /^[0-9]{1,15}(\.[0-9]{1,2})?$/.test(v) ? parseBgAmount(v) : undefined;
}

/** What the XML says, as the members of a JSON payment: the debtor and date, and each transaction as a bulk's payment. */
export interface Pain001Read {
  debtorAccount: { iban: string }; requestedExecutionDate: string; payments: Array<Record<string, any>>;
  /** The group header's and payment information's identifiers and counts, as written (a pain.002 status report names them). */
  msgId: string; created: string; nbOfTxs: string; ctrlSum?: string; paymentInfoId: string;
}

/**
 * Reads a pain.001.001.03 document: GrpHdr (MsgId, CreDtTm, NbOfTxs, CtrlSum, InitgPty), one PmtInf
 * (PmtInfId, PmtMtd TRF, ReqdExctnDt, Dbtr, DbtrAcct/Id/IBAN) and its CdtTrfTxInf (PmtId/EndToEndId,
 * Amt/InstdAmt with Ccy, Cdtr/Nm, CdtrAcct/Id/IBAN, RmtInf/Ustrd optional). NbOfTxs must count the
 * transactions and CtrlSum (where given) be their sum, unless `unchecked` (the fault).
 */
export function readPain001(xml: string, o: { unchecked?: boolean } = {}): Pain001Read {
  const root = parse(xml);
  if (local(root) !== 'Document') throw format(`the root element is <${root.tag}>, not a pain.001 <Document>`);
  const ns = Object.entries(root.attrs).find(([k]) => k === 'xmlns' || k.startsWith('xmlns:'))?.[1];
  if (ns !== NAMESPACE) throw format(`the document's namespace is ${ns ?? 'missing'}, not ${NAMESPACE}`);
  const init = kid(root, 'CstmrCdtTrfInitn');
  if (!init) throw format('CstmrCdtTrfInitn is required in the pain.001 document', 'CstmrCdtTrfInitn');
  const g = kid(init, 'GrpHdr');
  const msgId = need(g, 'MsgId', 'GrpHdr', 35);
  const created = need(g, 'CreDtTm', 'GrpHdr');
  if (Number.isNaN(Date.parse(created))) throw format('GrpHdr/CreDtTm must be an ISODateTime', 'GrpHdr/CreDtTm');
  const nb = need(g, 'NbOfTxs', 'GrpHdr', 15);
  need(g, 'InitgPty/Nm', 'GrpHdr', 140);
  const infs = kids(init, 'PmtInf');
  if (infs.length !== 1) throw format('this bank takes one PmtInf per pain.001 document (one debtor account)', 'PmtInf');
  const inf = infs[0]!;
  const paymentInfoId = need(inf, 'PmtInfId', 'PmtInf', 35);
  if (need(inf, 'PmtMtd', 'PmtInf') !== 'TRF') throw format('PmtInf/PmtMtd must be TRF (a credit transfer)', 'PmtInf/PmtMtd');
  const date = need(inf, 'ReqdExctnDt', 'PmtInf', 10);
  need(inf, 'Dbtr/Nm', 'PmtInf', 140);
  const debtor = need(inf, 'DbtrAcct/Id/IBAN', 'PmtInf', 34);
  const txs = kids(inf, 'CdtTrfTxInf');
  if (txs.length === 0) throw format('PmtInf has no CdtTrfTxInf', 'PmtInf/CdtTrfTxInf');
  let sum = 0;
  const payments = txs.map((tx, i) => {
    const where = `CdtTrfTxInf[${i}]`;
    const amt = kid(kid(tx, 'Amt'), 'InstdAmt');
    const value = need(tx, 'Amt/InstdAmt', where, 18);
    const minor = decimalMinor(value);
    if (minor === undefined) throw format(`${where}/Amt/InstdAmt must be a decimal amount (at most 2 decimals)`, `${where}/Amt/InstdAmt`);
    sum += minor;
    const remittance = kid(kid(tx, 'RmtInf'), 'Ustrd')?.text.trim();
    return {
      endToEndIdentification: need(tx, 'PmtId/EndToEndId', where, 35),
      instructedAmount: { currency: amt?.attrs.Ccy ?? '', amount: value },
      creditorName: need(tx, 'Cdtr/Nm', where, 70),
      creditorAccount: { iban: need(tx, 'CdtrAcct/Id/IBAN', where, 34) },
      ...(remittance ? { remittanceInformationUnstructured: remittance } : {}),
    };
  });
  if (!o.unchecked) {
    const sums = [['GrpHdr', g], ['PmtInf', inf]] as const;
    for (const [where, n] of sums) {
      const count = kid(n, 'NbOfTxs')?.text.trim();
      if (count !== undefined && count !== String(txs.length)) throw format(`${where}/NbOfTxs says ${count}, the document has ${txs.length} CdtTrfTxInf`, `${where}/NbOfTxs`);
      const ctrl = kid(n, 'CtrlSum')?.text.trim();
      if (ctrl !== undefined && decimalMinor(ctrl) !== sum) throw format(`${where}/CtrlSum says ${ctrl}, the document's amounts sum to ${(sum / 100).toFixed(2)}`, `${where}/CtrlSum`);
    }
  } else if (!/^[0-9]+$/.test(nb)) throw format('GrpHdr/NbOfTxs must be a number', 'GrpHdr/NbOfTxs');
  const ctrlSum = kid(g, 'CtrlSum')?.text.trim();
  return { debtorAccount: { iban: debtor }, requestedExecutionDate: date, payments, msgId, created, nbOfTxs: nb, ...(ctrlSum ? { ctrlSum } : {}), paymentInfoId };
}

/**
 * The JSON members of the payment the document initiates for the service: a single payment holds
 * one transaction; a bulk has `payments`; a standing order's pain.001 is a single payment's, its
 * terms come in a second part of a multipart body (payments.ts).
 */
export function pain001Body(service: string, read: Pain001Read): Record<string, any> {
  const { debtorAccount, requestedExecutionDate, payments } = read;
  if (service === 'payments') {
    if (payments.length !== 1) throw format(`a single payment's pain.001 holds one CdtTrfTxInf, not ${payments.length} (bulk-payments takes several)`, 'PmtInf/CdtTrfTxInf');
    return { ...payments[0], debtorAccount, requestedExecutionDate };
  }
  return { debtorAccount, requestedExecutionDate, payments };
}
