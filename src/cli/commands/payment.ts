import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { str } from '../output.ts';
import { consentArg, withSession } from './common.ts';
import type { Session } from '../../session/index.ts';
import { statusOf } from '../../dialects/obie/builders.ts';
import { UsageError } from '../../errors.ts';

/** The payment to read: the argument (known or not: the bank decides) or the current payment-order consent. */
async function paymentId(session: Session, id: string | undefined): Promise<string> {
  if (id) return id;
  return (await session.consent('pis', undefined)).id;
}

export function printPayment(out: Out, body: unknown): void {
  const d = (body as { Data?: Record<string, unknown> })?.Data;
  const rows: Array<[string, string | undefined]> = [
    ['PaymentId', str(d, 'ConsentId')], ['Status', str(d, 'Status')], ['Created', str(d, 'CreationDateTime')], ['Status updated', str(d, 'StatusUpdateDateTime')],
    ['Amount', str(d, 'Initiation', 'InstructedAmount', 'Amount') && `${str(d, 'Initiation', 'InstructedAmount', 'Amount')} ${str(d, 'Initiation', 'InstructedAmount', 'Currency')}`],
    ['Creditor', str(d, 'Initiation', 'CreditorAccount', 'Identification') && `${str(d, 'Initiation', 'CreditorAccount', 'Identification')} (${str(d, 'Initiation', 'CreditorAccount', 'Name') ?? ''})`],
    ['Debtor', (str(d, 'Initiation', 'DebtorAccount', 'Identification') ?? str(d, 'Debtor', 'Identification'))],
    ['Reference', str(d, 'Initiation', 'RemittanceInformation', 'Reference')],
  ];
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
}

/** The speakers of both dialects. */
const BOTH = { dialects: ['obie', 'berlin-group'] } as const;

/** berlin-group: GET /v1/payments/{payment-product}/{paymentId} or its /status. */
async function readBg(session: Session, out: Out, pid: string, what: 'payment' | 'status' | 'pain.002'): Promise<void> {
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

export async function get(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const pid = await paymentId(session, consentArg(id, flags));
    if (session.profile.dialect === 'berlin-group') return readBg(session, out, pid, 'payment');
    const result = await out.step(`reading payment ${pid}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getPayment(pid, { token })), [200]));
    await session.rememberStatus(pid, statusOf(result.body));
    if (out.json) return out.document(result.body);
    printPayment(out, result.body);
  }, BOTH);
}

export async function status(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; xml?: boolean }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (flags.xml && session.profile.dialect !== 'berlin-group') throw new UsageError('--xml asks a berlin-group pain.001 payment\'s status as its pain.002 report; a UK payment\'s status is JSON');
    const pid = await paymentId(session, consentArg(id, flags));
    if (session.profile.dialect === 'berlin-group') return readBg(session, out, pid, flags.xml ? 'pain.002' : 'status');
    const result = await out.step(`reading the status of payment ${pid}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getPaymentStatus(pid, { token })), [200]));
    await session.rememberStatus(pid, statusOf(result.body));
    if (out.json) return out.document(result.body);
    out.line(`payment ${pid}: ${statusOf(result.body) ?? 'no status'}${str(result.body, 'Data', 'StatusUpdateDateTime') ? ` (since ${str(result.body, 'Data', 'StatusUpdateDateTime')})` : ''}`);
  }, BOTH);
}

/** Prints a payment order (OBWriteDomesticResponse5). */
export function printPaymentOrder(out: Out, body: unknown): void {
  const d = (body as { Data?: Record<string, unknown> })?.Data;
  const rows: Array<[string, string | undefined]> = [
    ['Payment order', str(d, 'DomesticPaymentId')], ['PaymentId', str(d, 'ConsentId')], ['Status', str(d, 'Status')], ['Created', str(d, 'CreationDateTime')],
    ['Amount', str(d, 'Initiation', 'InstructedAmount', 'Amount') && `${str(d, 'Initiation', 'InstructedAmount', 'Amount')} ${str(d, 'Initiation', 'InstructedAmount', 'Currency')}`],
    ['Creditor', str(d, 'Initiation', 'CreditorAccount', 'Identification')],
    ['Debtor', str(d, 'Initiation', 'DebtorAccount', 'Identification') ?? str(d, 'Debtor', 'Identification')],
  ];
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
}

export async function submit(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; idempotencyKey?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') {
      throw new UsageError('payment submit is a UK step: a berlin-group payment is initiated by obtpp consent create pis and executed once its SCA is done (obtpp payment status reads it)');
    }
    const record = await session.consent('pis', consentArg(id, flags));
    const { result, orderId } = await out.step(`submitting the payment order of ${record.id}`, () => session.submitPayment(record, flags.idempotencyKey), (r) => `payment order ${r.orderId}: ${statusOf(r.result.body)}`);
    await session.rememberStatus(record.id, 'Consumed');
    if (out.json) return out.document(result.body);
    printPaymentOrder(out, result.body);
    out.line(`read it back: obtpp payment get ${orderId}`);
  }, BOTH);
}

/** berlin-group: DELETE /v1/payments/{payment-product}/{paymentId}, and the cancellation's authorisation where the bank asks for it. */
export async function cancel(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect !== 'berlin-group') {
      throw new UsageError('payment cancel is a Berlin Group step (DELETE /v1/payments/{payment-product}/{paymentId}); a UK payment-order consent is not cancelled by the PISP');
    }
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
  }, { dialects: ['berlin-group'] } as const);
}
