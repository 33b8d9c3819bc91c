/**
 * The pain.001 payment products of NextGenPSD2 (`pain.001-sepa-credit-transfers` …): the request
 * body is an ISO 20022 pain.001.001.03 document (Content-Type application/xml), built here with
 * xmlbuilder, and the bank's read-back (GET …/{paymentId}, application/xml) is read here by a
 * small strict XML reader: elements, attributes, text, CDATA and comments; no DTD (nothing to
 * expand, so no entity bombs), which a pain.001 never needs.
 */
import xmlbuilder from 'xmlbuilder';

/** The XML products of the file (the `pain.001-*` payment products, FACTS §6). */
export const XML_PAYMENT_PRODUCTS = [
  'pain.001-sepa-credit-transfers', 'pain.001-instant-sepa-credit-transfers', 'pain.001-target-2-payments', 'pain.001-cross-border-credit-transfers',
] as const;
export type XmlPaymentProduct = (typeof XML_PAYMENT_PRODUCTS)[number];

export const PAIN_001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';

export interface Pain001Transaction {
  endToEndId: string;
  /** The amount as the TPP writes it ("1.00"). */
  amount: string;
  currency: string;
  creditorIban: string;
  creditorName: string;
  remittance?: string;
}

export interface Pain001Options {
  msgId: string;
  /** Default now. */
  created?: Date;
  initiatingParty: string;
  paymentInfoId: string;
  /** ISODate; default today (UTC). */
  requestedExecutionDate?: string;
  debtorName: string;
  debtorIban: string;
  transactions: Pain001Transaction[];
  /** Overrides of the group header's counts (a deliberately inconsistent document); default the transactions' own. */
  nbOfTxs?: string;
  ctrlSum?: string;
}

/** The sum of amounts written as decimals ("1.00" + "2.5" = "3.50"), exactly (in hundredths). */
export function controlSum(amounts: readonly string[]): string {
  const cents = amounts.reduce((s, a) => s + Math.round(Number(a) * 100), 0);
  return (cents / 100).toFixed(2);
}

/** POST /v1/{payment-service}/pain.001-…: a pain.001.001.03 document, one PmtInf holding every transaction. */
export function buildPain001(o: Pain001Options): string {
  const amounts = o.transactions.map((t) => t.amount);
  const nb = o.nbOfTxs ?? String(o.transactions.length);
  const sum = o.ctrlSum ?? controlSum(amounts);
  const created = (o.created ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const doc = xmlbuilder.create('Document', { version: '1.0', encoding: 'UTF-8' }).att('xmlns', PAIN_001_NAMESPACE);
  const init = doc.ele('CstmrCdtTrfInitn');
  const grp = init.ele('GrpHdr');
  grp.ele('MsgId', o.msgId);
  grp.ele('CreDtTm', created);
  grp.ele('NbOfTxs', nb);
  grp.ele('CtrlSum', sum);
  grp.ele('InitgPty').ele('Nm', o.initiatingParty);
  const inf = init.ele('PmtInf');
  inf.ele('PmtInfId', o.paymentInfoId);
  inf.ele('PmtMtd', 'TRF');
  inf.ele('NbOfTxs', nb);
  inf.ele('CtrlSum', sum);
  inf.ele('ReqdExctnDt', o.requestedExecutionDate ?? new Date().toISOString().slice(0, 10));
  inf.ele('Dbtr').ele('Nm', o.debtorName);
  inf.ele('DbtrAcct').ele('Id').ele('IBAN', o.debtorIban);
  for (const t of o.transactions) {
    const tx = inf.ele('CdtTrfTxInf');
    tx.ele('PmtId').ele('EndToEndId', t.endToEndId);
    tx.ele('Amt').ele('InstdAmt', { Ccy: t.currency }, t.amount);
    tx.ele('Cdtr').ele('Nm', t.creditorName);
    tx.ele('CdtrAcct').ele('Id').ele('IBAN', t.creditorIban);
    if (t.remittance !== undefined) tx.ele('RmtInf').ele('Ustrd', t.remittance);
  }
  return doc.end({ pretty: true });
}

// ---- reading ---------------------------------------------------------------------------------

export interface XmlElement {
  /** The name as written, with its prefix (`p:Document`). */
  name: string;
  /** The name without its prefix. */
  local: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (text and CDATA, concatenated). */
  text: string;
}

export class XmlReadError extends Error {}

const NAME = /^[A-Za-z_][\w.\-]*(:[A-Za-z_][\w.\-]*)?/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string, at: number): string {
  return text.replace(/&([^;&<]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new XmlReadError(`an unterminated entity reference near offset ${at}`);
    if (ENTITIES[ref] !== undefined) return ENTITIES[ref]!;
    const m = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(ref);
    if (!m) throw new XmlReadError(`an unknown entity &${ref}; near offset ${at}`);
    const code = m[1]!.startsWith('x') ? parseInt(m[1]!.slice(1), 16) : parseInt(m[1]!, 10);
    if (code > 0x10ffff || code === 0) throw new XmlReadError(`a character reference out of range near offset ${at}`);
    return String.fromCodePoint(code);
  });
}

/**
 * Reads a well-formed XML document into its root element; throws XmlReadError naming what is not
 * well-formed (an unclosed or mismatched tag, text outside the root, a DOCTYPE, a bad entity).
 */
export function readXml(xml: string): XmlElement {
  const top: XmlElement = { name: '#document', local: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [top];
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fail = (why: string): never => { throw new XmlReadError(`${why} (offset ${i})`); };
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? xml.length : lt;
    if (textEnd > i) {
      const raw = xml.slice(i, textEnd);
      if (raw.includes(']]>')) fail('`]]>` in text');
      if (stack.length === 1) { if (raw.trim()) fail('text outside the root element'); } else stack.at(-1)!.text += decode(raw, i);
      i = textEnd;
      continue;
    }
    if (xml.startsWith('<?', i)) {
      const end = xml.indexOf('?>', i);
      if (end < 0) fail('an unterminated processing instruction');
      i = end + 2;
    } else if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      if (end < 0) fail('an unterminated comment');
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i);
      if (end < 0) fail('an unterminated CDATA section');
      if (stack.length === 1) fail('CDATA outside the root element');
      stack.at(-1)!.text += xml.slice(i + 9, end);
      i = end + 3;
    } else if (xml.startsWith('<!', i)) {
      fail('a DOCTYPE or declaration (not allowed in a payment document)');
    } else if (xml.startsWith('</', i)) {
      const close = closingTag(xml, i, fail);
      const open = stack.pop()!;
      if (open === top || open.name !== close.name) fail(`</${close.name}> closes ${open === top ? 'nothing' : `<${open.name}>`}`);
      i = close.end;
    } else {
      const { el, end } = openingTag(xml, i, fail);
      if (stack.length === 1 && top.children.length) fail('a second root element');
      stack.at(-1)!.children.push(el);
      if (xml.startsWith('/>', end)) i = end + 2;
      else { stack.push(el); i = end + 1; }
    }
  }
  if (stack.length !== 1) throw new XmlReadError(`<${stack.at(-1)!.name}> is never closed`);
  if (top.children.length !== 1) throw new XmlReadError('no root element');
  return top.children[0]!;
}

/** A closing tag at `i`: its name, and where it ends. */
function closingTag(xml: string, i: number, fail: (why: string) => never): { name: string; end: number } {
  const m = NAME.exec(xml.slice(i + 2));
  if (!m) fail('a closing tag without a name');
  const after = i + 2 + m![0].length;
  const close = /^\s*>/.exec(xml.slice(after));
  if (!close) fail(`a malformed closing tag </${m![0]}`);
  return { name: m![0], end: after + close![0].length };
}

/** An opening tag at `i`: its element with its attributes, and where its `>` or `/>` is. */
function openingTag(xml: string, i: number, fail: (why: string) => never): { el: XmlElement; end: number } {
  const m = NAME.exec(xml.slice(i + 1));
  if (!m) fail('a tag without a name');
  const name = m![0];
  const el: XmlElement = { name, local: name.includes(':') ? name.slice(name.indexOf(':') + 1) : name, attrs: {}, children: [], text: '' };
  let j = i + 1 + name.length;
  for (;;) {
    const ws = /^\s*/.exec(xml.slice(j))![0];
    j += ws.length;
    if (xml.startsWith('/>', j) || xml.startsWith('>', j)) break;
    if (!ws) fail(`no space before an attribute of <${name}>`);
    const a = /^([A-Za-z_][\w.\-:]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(xml.slice(j));
    if (!a) fail(`a malformed attribute of <${name}>`);
    if (el.attrs[a![1]!] !== undefined) fail(`the attribute ${a![1]} twice on <${name}>`);
    el.attrs[a![1]!] = decode(a![3] ?? a![4] ?? '', j);
    j += a![0].length;
  }
  return { el, end: j };
}

/** The first child of `el` by local name along a path (`'GrpHdr/MsgId'`). */
export function xmlChild(el: XmlElement | undefined, path: string): XmlElement | undefined {
  let at = el;
  for (const step of path.split('/')) at = at?.children.find((c) => c.local === step);
  return at;
}

const textOf = (el: XmlElement | undefined, path: string): string | undefined => {
  const c = xmlChild(el, path);
  return c === undefined ? undefined : c.text.trim();
};

/** What a pain.001 document says, as far as the harness compares it; members it lacks are undefined. */
export interface Pain001Summary {
  namespace?: string;
  msgId?: string;
  /** The first PmtInf's PmtInfId. */
  paymentInfoId?: string;
  nbOfTxs?: string;
  ctrlSum?: string;
  debtorIban?: string;
  transactions: Array<{ endToEndId?: string; amount?: string; currency?: string; creditorIban?: string }>;
}

/** Reads a pain.001 document's identifiers, counts, IBANs and amounts (every PmtInf's transactions). Throws XmlReadError when it is not well-formed. */
export function readPain001(xml: string): Pain001Summary {
  const root = readXml(xml);
  if (root.local !== 'Document') throw new XmlReadError(`the root element is <${root.name}>, not <Document>`);
  const init = xmlChild(root, 'CstmrCdtTrfInitn');
  const infs = init?.children.filter((c) => c.local === 'PmtInf') ?? [];
  const namespace = root.attrs[root.name.includes(':') ? `xmlns:${root.name.split(':')[0]}` : 'xmlns'];
  return {
    ...(namespace !== undefined ? { namespace } : {}),
    msgId: textOf(init, 'GrpHdr/MsgId'),
    paymentInfoId: textOf(infs[0], 'PmtInfId'),
    nbOfTxs: textOf(init, 'GrpHdr/NbOfTxs'),
    ctrlSum: textOf(init, 'GrpHdr/CtrlSum'),
    debtorIban: textOf(infs[0], 'DbtrAcct/Id/IBAN')?.replace(/\s/g, ''),
    transactions: infs.flatMap((inf) => inf.children.filter((c) => c.local === 'CdtTrfTxInf')).map((tx) => {
      const amt = xmlChild(tx, 'Amt/InstdAmt');
      return { endToEndId: textOf(tx, 'PmtId/EndToEndId'), amount: amt?.text.trim(), currency: amt?.attrs.Ccy, creditorIban: textOf(tx, 'CdtrAcct/Id/IBAN')?.replace(/\s/g, '') };
    }),
  };
}

/**
 * Where a read-back pain.001 differs from the one sent: the MsgId, the counts, the debtor's IBAN,
 * and each transaction's end-to-end id, amount (by value: "1" and "1.00" are one amount), currency
 * and creditor IBAN. Empty when they agree.
 */
export function pain001Differences(sent: Pain001Summary, got: Pain001Summary): string[] {
  const out: string[] = [];
  const cmp = (what: string, a: string | undefined, b: string | undefined, numeric = false) => {
    const same = numeric ? a !== undefined && b !== undefined && Number(a) === Number(b) : a === b;
    if (!same) out.push(`${what}: sent ${a === undefined ? 'none' : JSON.stringify(a)}, read back ${b === undefined ? 'none' : JSON.stringify(b)}`);
  };
  cmp('GrpHdr/MsgId', sent.msgId, got.msgId);
  cmp('GrpHdr/NbOfTxs', sent.nbOfTxs, got.nbOfTxs, true);
  cmp('GrpHdr/CtrlSum', sent.ctrlSum, got.ctrlSum, true);
  cmp('PmtInf/DbtrAcct/Id/IBAN', sent.debtorIban, got.debtorIban);
  if (got.transactions.length !== sent.transactions.length) out.push(`${sent.transactions.length} CdtTrfTxInf sent, ${got.transactions.length} read back`);
  sent.transactions.forEach((t, i) => {
    const g = got.transactions.find((x) => x.endToEndId === t.endToEndId) ?? got.transactions[i];
    const at = `CdtTrfTxInf[${i}]`;
    cmp(`${at}/PmtId/EndToEndId`, t.endToEndId, g?.endToEndId);
    cmp(`${at}/Amt/InstdAmt`, t.amount, g?.amount, true);
    cmp(`${at}/Amt/InstdAmt/@Ccy`, t.currency, g?.currency);
    cmp(`${at}/CdtrAcct/Id/IBAN`, t.creditorIban, g?.creditorIban);
  });
  return out;
}

/** The terms of a standing order whose transfer is a pain.001 (the file's `json_standingorderType` part). */
export interface StandingOrderTerms {
  startDate: string;
  endDate?: string;
  executionRule?: 'following' | 'preceding';
  frequency: string;
  dayOfExecution?: string;
  monthsOfExecution?: string[];
}

/**
 * The body of a standing order with a pain.001 product (POST /v1/periodic-payments/pain.001-…): a
 * multipart/form-data message of two parts, `xml_sct` (the pain.001 document, application/xml) and
 * `json_standingorderType` (the terms, application/json), encoded by Node's own FormData; the
 * Content-Type carries the boundary.
 */
export async function standingOrderMultipart(xml: string, terms: StandingOrderTerms): Promise<{ body: string; contentType: string }> {
  const form = new FormData();
  form.append('xml_sct', new Blob([xml], { type: 'application/xml' }));
  form.append('json_standingorderType', new Blob([JSON.stringify(terms)], { type: 'application/json' }));
  const encoded = new Response(form);
  return { body: await encoded.text(), contentType: encoded.headers.get('content-type')! };
}

/** The parts of a multipart/form-data answer by name, read as text; a body that is no such message is an XmlReadError. */
export async function readMultipart(text: string, contentType: string): Promise<Map<string, string>> {
  let form: FormData;
  try {
    form = await new Response(text, { headers: { 'content-type': contentType } }).formData();
  } catch (error) {
    throw new XmlReadError(`not a well-formed multipart/form-data message (${(error as Error).message})`);
  }
  const parts = new Map<string, string>();
  for (const [name, value] of form) parts.set(name, typeof value === 'string' ? value : await value.text());
  return parts;
}
