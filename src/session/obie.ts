/**
 * The terminal client's UK Open Banking work that the session hands to the standard: creating a
 * consent of each kind and submitting the domestic payment order of an authorised payment-order
 * consent (the session keeps the state; src/cli/obie/ calls these). Each operation is called under
 * the token its catalogue entry names (Session.invoke).
 */
import { randomUUID } from 'node:crypto';
import { BankError } from '../errors.ts';
import type { Fn } from '../profile/types.ts';
import type { ApiResult, Operation } from '../client/operations.ts';
import { consentIdOf, statusOf } from '../dialects/obie/builders.ts';
import type { ConsentRecord } from './state.ts';
import { FN_NAMES, type Session } from './index.ts';

/** The consent each API's authorisation starts from. */
const CONSENT_OF: Readonly<Record<Fn, Operation>> = { ais: 'createAccountAccessConsent', cof: 'createFundsConsent', pis: 'createPaymentConsent' };

/** Creates a consent (body from the dialect's builder), remembers it, makes it current. */
export async function createConsent(session: Session, fn: Fn, body: unknown, summary: Partial<ConsentRecord>, idempotencyKey?: string): Promise<{ result: ApiResult; record: ConsentRecord }> {
  // One idempotency key for both tries: a retry after a refused token must not create twice.
  const result = await session.invoke(CONSENT_OF[fn], [body], [200, 201], { idempotencyKey: idempotencyKey ?? randomUUID() });
  const id = consentIdOf(result.body);
  if (!id) throw new BankError(result.status, `the bank answered the ${FN_NAMES[fn]} with ${result.status} but no Data.ConsentId`, { exchange: result.exchange });
  const record: ConsentRecord = { ...summary, id, fn, status: statusOf(result.body) ?? 'unknown', createdAt: new Date().toISOString() };
  await session.update((s) => {
    s.consents[id] = record;
    s.current[fn] = id;
    s.last = id;
  });
  return { result, record };
}

/**
 * Submits the payment order of an authorised payment-order consent: the consent as the bank holds
 * it gives the Initiation and Risk, sent unchanged with its ConsentId under the PSU's token.
 */
export async function submitPayment(session: Session, record: ConsentRecord, idempotencyKey?: string): Promise<{ result: ApiResult; orderId: string }> {
  const { buildPaymentOrder, paymentOrderIdOf } = await import('../dialects/obie/builders.ts');
  const consent = await session.invoke('getPayment', [record.id], [200]);
  const data = (consent.body as { Data?: { Initiation?: unknown } } | undefined)?.Data;
  const risk = (consent.body as { Risk?: unknown } | undefined)?.Risk;
  if (!data?.Initiation) throw new BankError(consent.status, `the bank's payment-order consent ${record.id} has no Data.Initiation to submit`, { exchange: consent.exchange });
  const order = buildPaymentOrder(record.id, { Data: { Initiation: data.Initiation as never }, Risk: (risk ?? {}) as Record<string, unknown> });
  // One key for both tries: a retry after a refreshed token must not pay twice.
  const result = await session.invoke('submitPayment', [order], [201], { record, idempotencyKey: idempotencyKey ?? randomUUID() });
  const orderId = paymentOrderIdOf(result.body);
  if (!orderId) throw new BankError(result.status, `the bank accepted the payment order but gave no Data.DomesticPaymentId`, { exchange: result.exchange });
  await session.update((s) => {
    const r = s.consents[record.id];
    if (r) r.paymentOrderId = orderId;
  });
  return { result, orderId };
}
