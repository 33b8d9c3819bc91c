/**
 * The embedded SCA of what is not a consent or payment itself: a payment's cancellation (PUT
 * …/{paymentId}/cancellation-authorisations/{authorisationId}) and a signing basket (PUT
 * /v1/signing-baskets/{basketId}/authorisations/{authorisationId}), through the same steps as a
 * payment's (sca.ts); the PSU's approval does what the bank's pages do (pages.ts). Apart from
 * payments.ts and baskets.ts, which the pages import (an import circle otherwise).
 */
import { BgError, A, route, type BgRoute, type Req, type Xs2aContext } from './plumbing.ts';
import { decideBasket, decideCancellation } from './pages.ts';
import { updateTargetPsuData } from './sca.ts';
import { SERVICES } from './payments.ts';

function cancellationPut(k: Xs2aContext, r: Req, service: string) {
  const p = k.store.payments.get(r.params.paymentId);
  if (!p || p.product !== r.params.product || p.service !== service) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such payment');
  return updateTargetPsuData(k, r, {
    authorisations: p.cancellations,
    base: `${r.base}/v1/${service}/${r.params.product}/${p.id}/cancellation-authorisations`,
    pending: () => p.cancelRequested === true && !['ACSC', 'ACCC', 'RJCT', 'CANC'].includes(p.transactionStatus),
    approve: (psu) => decideCancellation(k, p, psu),
    // A failed SCA of the cancellation leaves the payment as it was.
    reject: () => void (p.cancelRequested = false),
  });
}

function basketPut(k: Xs2aContext, r: Req) {
  const basket = k.store.baskets.get(r.params.basketId);
  if (!basket) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such signing basket');
  return updateTargetPsuData(k, r, {
    authorisations: basket.authorisations,
    base: `${r.base}/v1/signing-baskets/${basket.id}/authorisations`,
    pending: () => basket.transactionStatus === 'RCVD',
    approve: (psu) => decideBasket(k, basket, psu, true),
    reject: (psu) => void decideBasket(k, basket, psu, false),
  });
}

/** The PUT routes of these authorisations, in matching order. */
export const SCA_ROUTES: BgRoute[] = [
  ...SERVICES.map((service) => route(A, 'PUT', `/v1/${service}/:product/:paymentId/cancellation-authorisations/:authorisationId`, (k, r) => cancellationPut(k, r, service), 'updatePaymentCancellationPsuData')),
  route(A, 'PUT', '/v1/signing-baskets/:basketId/authorisations/:authorisationId', basketPut, 'updateSigningBasketPsuData'),
];
