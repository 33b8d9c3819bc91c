/** NextGenPSD2 payments at the terminal: a payment and its status (a pain.001 one's as the bank's XML), its cancellation. */
import type { Out } from '../output.ts';
import { str } from '../output.ts';
import type { Session } from '../../session/index.ts';
import { consentArg } from '../commands/common.ts';
import { UsageError } from '../../errors.ts';

/** The payment to read: the argument (known or not: the bank decides) or the current payment. */
async function paymentId(session: Session, id: string | undefined): Promise<string> {
  if (id) return id;
  return (await session.consent('pis', undefined)).id;
}

/** berlin-group: GET /v1/payments/{payment-product}/{paymentId} or its /status. */
async function read(session: Session, out: Out, pid: string, what: 'payment' | 'status' | 'pain.002'): Promise<void> {
  const { readBgPayment } = await import('../../session/berlin-group.ts');
  const record = (await session.read()).consents[pid];
  const result = await out.step(`reading ${what === 'payment' ? '' : 'the status of '}payment ${pid}`, () => readBgPayment(session, pid, what, record ?? {}));
  // A pain.001 product's payment is the bank's XML (a standing order's: multipart/form-data): shown as it came.
  if (!result.json && result.text) {
    const text = session.http.redactor.text(result.text);
    if (out.json) return out.document({ paymentId: pid, contentType: result.headers['content-type'] ?? null, text });
    for (const line of text.trimEnd().split(/\r?\n/)) out.line(line);
    return;
  }
  if (out.json) return out.document(result.body);
  const b = (result.body ?? {}) as Record<string, any>;
  if (what === 'status') return out.line(`payment ${pid}: ${str(b, 'transactionStatus') ?? 'no status'}`);
  const rows: Array<[string, string | undefined]> = [
    ['paymentId', pid], ['Status', str(b, 'transactionStatus')],
    ['Amount', str(b, 'instructedAmount', 'amount') && `${str(b, 'instructedAmount', 'amount')} ${str(b, 'instructedAmount', 'currency') ?? ''}`],
    ['Creditor', str(b, 'creditorAccount', 'iban') && `${str(b, 'creditorAccount', 'iban')} (${str(b, 'creditorName') ?? ''})`],
    ['Debtor', str(b, 'debtorAccount', 'iban')], ['Reference', str(b, 'remittanceInformationUnstructured')],
    // A standing order's terms; a bulk's payments.
    ['Frequency', str(b, 'frequency')], ['Start', str(b, 'startDate')], ['End', str(b, 'endDate')], ['Day', str(b, 'dayOfExecution')],
    ['Payments', Array.isArray(b.payments) ? String(b.payments.length) : undefined],
  ];
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
}

export async function get(session: Session, out: Out, id: string | undefined, flags: { consent?: string }): Promise<void> {
  const pid = await paymentId(session, consentArg(id, flags));
  return read(session, out, pid, 'payment');
}

export async function status(session: Session, out: Out, id: string | undefined, flags: { consent?: string; xml?: boolean }): Promise<void> {
  const pid = await paymentId(session, consentArg(id, flags));
  return read(session, out, pid, flags.xml ? 'pain.002' : 'status');
}

export async function submit(): Promise<void> {
  throw new UsageError('payment submit is a UK step: a berlin-group payment is initiated by obtpp consent create pis and executed once its SCA is done (obtpp payment status reads it)');
}

/** DELETE /v1/payments/{payment-product}/{paymentId}, and the cancellation's authorisation where the bank asks for it. */
export async function cancel(session: Session, out: Out, id: string | undefined, flags: { consent?: string }): Promise<void> {
  const pid = await paymentId(session, consentArg(id, flags));
  const { cancelBgPayment } = await import('../../session/berlin-group.ts');
  const record = (await session.read()).consents[pid];
  const c = await out.step(`cancelling payment ${pid}`, () => cancelBgPayment(session, pid, record ?? {}));
  if (out.json) return out.document({ status: c.deleted.status, body: c.deleted.body ?? null, ...(c.started ? { authorisation: c.started.body } : {}) });
  if (c.done) return out.line(`payment ${pid} cancelled (${(await session.read()).consents[pid]?.status ?? 'status unknown'}): obtpp payment status reads it`);
  out.line(`the bank asks the PSU to authorise the cancellation of payment ${pid}${c.authorisationId ? ` (authorisation ${c.authorisationId})` : ''}`);
  if (c.scaRedirect) {
    out.line(`the PSU authorises it at: ${c.scaRedirect}`);
    out.line(`then: obtpp payment status ${pid}`);
  }
  else out.line('the bank gave no page for it (obtpp walks a cancellation by redirect); obtpp payment status reads the payment');
}
