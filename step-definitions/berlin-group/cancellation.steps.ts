/**
 * The berlin-group scenarios of payment cancellation (features/berlin-group/payment-cancellation.feature):
 * DELETE /v1/payments/{payment-product}/{paymentId}, and the cancellation's authorisation
 * (…/cancellation-authorisations: POST, GET the list, GET one's scaStatus), walked by the
 * profile's first approach of redirect, decoupled and embedded (PUT …/cancellation-authorisations/{id}).
 */
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import {
  authorisationIdOf, bgHeaders, CANCEL_LINKS, isoDate, linkOf, linksOf, SCA_STATUSES, scaStatusOf, transactionStatusOf,
} from '../../src/dialects/berlin-group/index.ts';
import { expectAuthorisationsListed, approachOf, bg, BgNotApplicable, expectBgSchema, plain, psuIp, sca, scaHeaders, type Approach, type ScaResource } from './support.ts';
import { judgeScaTrail } from './sca.steps.ts';
import { initiate, thePayment } from './payments.steps.ts';
import { authorisationOps } from '../../src/session/berlin-group-authorisations.ts';

/** What the scenario keeps of the cancellation. */
interface Cancellation { deleted: ApiResult; started?: ApiResult; authorisationId?: string; approach?: Approach }
const cancellations = new WeakMap<ConformanceWorld, Cancellation>();

function theCancellation(world: ConformanceWorld): Cancellation {
  const c = cancellations.get(world);
  if (!c) throw world.blocked(undefined, 'the payment was not cancelled');
  return c;
}

/** The headers of the cancellation's calls: the PSU's SCA of it goes by redirect where the bank offers that. */
function headers(world: ConformanceWorld): Record<string, string> {
  const back = world.ctx.profile.auth.redirectUri;
  return bgHeaders({ psuIpAddress: psuIp(world), ...(back ? { tppRedirectUri: back, tppRedirectPreferred: true } : {}) });
}

/** Reads the payment's transactionStatus (GET …/status). */
async function statusNow(world: ConformanceWorld, id: string): Promise<{ r: ApiResult; status: string | undefined }> {
  const r = await world.call('reading the payment\'s status', (c) => c.getPaymentStatus(id, plain(world, bgHeaders())));
  return { r, status: r.status === 200 ? transactionStatusOf(r.body) : undefined };
}

/** A 405 (CANCELLATION_INVALID): the bank does not cancel this payment, its right; nothing to judge. */
function refusedCancelling(world: ConformanceWorld, r: ApiResult): void {
  if (r.status === 405) throw world.blocked(undefined, `the bank does not cancel this payment: ${describeAnswer(r)}`);
}

When('the TPP initiates a NextGenPSD2 payment from the PSU\'s first account, due in {int} days', async function (this: ConformanceWorld, days: number) {
  await initiate(this, true, { requestedExecutionDate: isoDate(new Date(Date.now() + days * 86_400_000)) });
  const r = this.answer();
  // A scheduled single payment is the bank's to offer: a refusal of it leaves nothing to cancel.
  if (!bg(this).payment && r.status >= 400 && r.status < 500) throw this.blocked(undefined, `the bank does not take a payment due in ${days} days: ${describeAnswer(r)}`);
});

When('the TPP cancels the NextGenPSD2 payment', async function (this: ConformanceWorld) {
  const payment = thePayment(this);
  const deleted = await this.call('cancelling the payment', (c) => c.cancelPayment(payment.id, plain(this, headers(this))));
  cancellations.set(this, { deleted });
});

/** Judges a 202: a valid paymentInitiationCancelResponse-202 that says where the cancellation's authorisation starts. */
function judge202(world: ConformanceWorld, r: ApiResult): void {
  expectBgSchema(world, r, 'paymentInitiationCancelResponse-202');
  const links = Object.keys(linksOf(r.body));
  // The file: "If an authorisation of the payment cancellation is mandated by the ASPSP, a corresponding hyperlink will be contained in the response message."
  if (!links.some((l) => (CANCEL_LINKS as readonly string[]).includes(l) || l === 'scaRedirect')) {
    throw world.violation(`DELETE of the payment answered 202 (the cancellation needs the PSU's authorisation) without a link to start it (${CANCEL_LINKS.join(', ')}): links ${quote(links)}`);
  }
}

Then('the cancellation is done \\(204, the payment then reads CANC) or awaits the PSU\'s authorisation \\(a valid 202 with the link to start it)', async function (this: ConformanceWorld) {
  const { deleted } = theCancellation(this);
  refusedCancelling(this, deleted);
  expectStatus(this, deleted, [204, 202]);
  if (deleted.status === 202) return judge202(this, deleted);
  const { r, status } = await statusNow(this, thePayment(this).id);
  expectStatus(this, r, [200]);
  if (status !== 'CANC') throw this.violation(`DELETE of the payment answered 204 (cancelled), but the payment then reads transactionStatus ${quote(status)}, not CANC`);
});

Then('the bank asks the PSU to authorise the cancellation', function (this: ConformanceWorld) {
  const { deleted } = theCancellation(this);
  refusedCancelling(this, deleted);
  expectStatus(this, deleted, [204, 202]);
  // A bank that cancels the payment without asking the PSU has no cancellation authorisation to judge (BG-40 judges the 204).
  if (deleted.status === 204) throw this.blocked(undefined, 'the bank cancelled the scheduled payment without asking the PSU to authorise it: no cancellation authorisation to judge');
  judge202(this, deleted);
});

/** The approach of the cancellation's SCA: the profile's first obtpp walks here (no OAuth2: a cancellation has no scope of its own). */
function cancellationApproach(world: ConformanceWorld): Approach {
  try {
    return approachOf(world, ['redirect', 'decoupled', 'embedded']);
  } catch (error) {
    if (error instanceof BgNotApplicable) throw world.blocked(undefined, `the cancellation's SCA cannot be walked: ${error.message}`);
    throw error;
  }
}

When('the TPP starts the authorisation of the cancellation', async function (this: ConformanceWorld) {
  const c = theCancellation(this);
  const payment = thePayment(this);
  const approach = cancellationApproach(this);
  c.approach = approach;
  // The bank may have started it itself (an scaRedirect in the 202): then there is nothing to start.
  if (linkOf(c.deleted.body, 'scaRedirect', c.deleted.exchange.url) && !CANCEL_LINKS.some((l) => linkOf(c.deleted.body, l))) {
    throw this.blocked(undefined, 'the bank started the cancellation\'s authorisation itself (scaRedirect in the 202): no start to judge');
  }
  const h = { ...bgHeaders({ psuIpAddress: psuIp(this) }), ...scaHeaders(this, approach) };
  c.started = await this.call('starting the authorisation of the cancellation', (client) => authorisationOps(client, 'cancellation', payment.id).start({}, plain(this, h)));
  c.authorisationId = authorisationIdOf(c.started.body);
});

Then('the cancellation\'s authorisations are listed with it, and its scaStatus read, as the standard says', async function (this: ConformanceWorld) {
  const c = theCancellation(this);
  const payment = thePayment(this);
  if (!c.authorisationId) throw this.violation(`the start of the cancellation's authorisation carries no authorisationId: ${c.started ? describeAnswer(c.started) : 'no answer'}`);
  const list = await this.call('listing the cancellation\'s authorisations', (client) => authorisationOps(client, 'cancellation', payment.id).list(plain(this, bgHeaders())));
  expectAuthorisationsListed(this, list, 'GET …/cancellation-authorisations', [{ id: c.authorisationId }]);
  const read = await this.call('reading the cancellation\'s SCA status', (client) => authorisationOps(client, 'cancellation', payment.id).read(c.authorisationId!, plain(this, bgHeaders())));
  expectStatus(this, read, [200]);
  expectBgSchema(this, read, 'scaStatusResponse');
  const status = scaStatusOf(read.body);
  if (!status || !(SCA_STATUSES as readonly string[]).includes(status)) throw this.violation(`the cancellation's scaStatus is ${quote(status)}, not one of the standard's (${SCA_STATUSES.join(', ')})`);
});

When('the PSU authorises the cancellation', async function (this: ConformanceWorld) {
  const c = theCancellation(this);
  const started = c.started ?? c.deleted;
  const approach = c.started ? (c.approach ?? 'redirect') : 'redirect';
  // Decoupled and embedded: the same walk as a payment's, on the cancellation's authorisation sub-resource.
  if (approach !== 'redirect') {
    const walked: ScaResource = { id: thePayment(this).id, created: started, approach };
    await sca(this, walked, { fn: 'pis', of: 'cancellation' });
    // What the TPP followed of the cancellation's scaStatus, judged as SCA-01 judges a payment's.
    if (walked.trail) judgeScaTrail(this, walked.trail);
    return;
  }
  if (!linkOf(started.body, 'scaRedirect', started.exchange.url)) throw this.blocked(undefined, `the bank gave no scaRedirect for the cancellation's authorisation, which the TPP asked to take by redirect: ${describeAnswer(started)}`);
  await sca(this, { id: thePayment(this).id, created: started, approach: 'redirect' }, { fn: 'pis' });
});

Then('the NextGenPSD2 payment reads CANC', async function (this: ConformanceWorld) {
  const payment = thePayment(this);
  const { r, status } = await statusNow(this, payment.id);
  expectStatus(this, r, [200]);
  if (status !== 'CANC') throw this.violation(`the PSU authorised the payment's cancellation, but the payment reads transactionStatus ${quote(status)}, not CANC`);
});
