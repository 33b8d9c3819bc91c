/**
 * Where a berlin-group payment lives: /v1/{payment-service}/{payment-product}/{paymentId}. The
 * terminal client's payment calls and its SCA walks share this, so that a standing order or a
 * bulk is read, authorised and cancelled at its own paths.
 */
import { UsageError } from '../errors.ts';
import { TppClient } from '../client/operations.ts';
import type { ConsentRecord } from './state.ts';
import type { Session } from './index.ts';

/** A payment service other than the single payment (standing orders, bulks). */
export type PaymentService = NonNullable<ConsentRecord['service']>;

/** Where a payment lives: its product, and its service where not `payments`. */
export type PaymentPlace = Pick<ConsentRecord, 'product' | 'service'>;

/**
 * The tpp client whose payment paths are the payment's: its product in /{payment-product}, and
 * its service in the prefix (/v1/payments, /v1/periodic-payments, /v1/bulk-payments share all
 * but that segment), so one set of operations serves every service.
 */
export function paymentClient(session: Session, place: PaymentPlace = {}): TppClient {
  const p = session.profile;
  const product = place.product ?? p.paths.paymentProduct;
  let prefix = p.paths.paymentsPrefix;
  if (place.service) {
    if (!/\/payments$/.test(prefix)) throw new UsageError(`the profile's paths.paymentsPrefix ${prefix} does not end in /payments: obtpp cannot tell where the bank's ${place.service} live`);
    prefix = prefix.replace(/\/payments$/, `/${place.service}`);
  }
  if (product === p.paths.paymentProduct && prefix === p.paths.paymentsPrefix) return session.client;
  return new TppClient({ ...p, paths: { ...p.paths, paymentProduct: product, paymentsPrefix: prefix } }, session.variant, session.http);
}

