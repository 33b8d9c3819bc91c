/** UK payments at the terminal: a payment-order consent's payment and status, its order submitted, and the printers. */
import type { Out } from '../output.ts';
import { str } from '../output.ts';
import type { CommonFlags } from '../flags.ts';
import { consentArg } from '../commands/common.ts';
import type { Session } from '../../session/index.ts';
import { submitPayment } from '../../session/obie.ts';
import { statusOf } from '../../dialects/obie/builders.ts';
import { UsageError } from '../../errors.ts';

/** The payment to read: the argument (known or not: the bank decides) or the current payment-order consent. */
export async function paymentId(session: Session, id: string | undefined): Promise<string> {
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

export async function get(session: Session, out: Out, id: string | undefined, flags: { consent?: string }): Promise<void> {
  const pid = await paymentId(session, consentArg(id, flags));
  const result = await out.step(`reading payment ${pid}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getPayment(pid, { token })), [200]));
  await session.rememberStatus(pid, statusOf(result.body));
  if (out.json) return out.document(result.body);
  printPayment(out, result.body);
}

export async function status(session: Session, out: Out, id: string | undefined, flags: { consent?: string; xml?: boolean }): Promise<void> {
  if (flags.xml) throw new UsageError('--xml asks a berlin-group pain.001 payment\'s status as its pain.002 report; a UK payment\'s status is JSON');
  const pid = await paymentId(session, consentArg(id, flags));
  const result = await out.step(`reading the status of payment ${pid}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getPaymentStatus(pid, { token })), [200]));
  await session.rememberStatus(pid, statusOf(result.body));
  if (out.json) return out.document(result.body);
  out.line(`payment ${pid}: ${statusOf(result.body) ?? 'no status'}${str(result.body, 'Data', 'StatusUpdateDateTime') ? ` (since ${str(result.body, 'Data', 'StatusUpdateDateTime')})` : ''}`);
}

export async function submit(session: Session, out: Out, id: string | undefined, flags: CommonFlags & { consent?: string; idempotencyKey?: string }): Promise<void> {
  const record = await session.consent('pis', consentArg(id, flags));
  const { result, orderId } = await out.step(`submitting the payment order of ${record.id}`, () => submitPayment(session, record, flags.idempotencyKey), (r) => `payment order ${r.orderId}: ${statusOf(r.result.body)}`);
  await session.rememberStatus(record.id, 'Consumed');
  if (out.json) return out.document(result.body);
  printPaymentOrder(out, result.body);
  out.line(`read it back: obtpp payment get ${orderId}`);
}
