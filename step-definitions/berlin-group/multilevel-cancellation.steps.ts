/**
 * Multilevel SCA of a payment's cancellation (features/berlin-group/multilevel-sca.feature,
 * SCA-03), where the profile's sca.multilevel.cancellation says the bank needs both PSUs' SCA to
 * cancel a payment from the joint account: a payment from it due in 7 days, authorised by both
 * PSUs (one authorisation the TPP starts for each), then cancelled (DELETE, 202); the TPP starts
 * one cancellation authorisation per PSU (POST …/cancellation-authorisations with its PSU-ID),
 * each walked by the run's approach (support.ts). After the first the payment is not cancelled;
 * after the second it reads CANC.
 *
 * In SCA-03 rather than BG-41: what is judged is the multilevel SCA (one authorisation per PSU,
 * nothing applied until the last), and it applies only where sca.multilevel says the bank offers
 * it; BG-41 judges a single PSU's cancellation authorisation, which every bank with cancellations has.
 */
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import {
  authorisationIdOf, bgHeaders, buildPaymentInitiation, isoDate, linkOf, linksOf, paymentIdOf, transactionStatusOf,
} from '../../src/dialects/berlin-group/index.ts';
import { expectAuthorisationsListed, approachOf, BgNotApplicable, expectBgSchema, plain, psuIp, sca, scaHeaders, type Approach, type ScaPsu, type ScaTrail } from './support.ts';
import { judgeSecondAuthorisation } from './sca.steps.ts';
import { authorisationOps } from '../../src/session/berlin-group-authorisations.ts';

/** A SEPA account of another bank to pay (a valid German IBAN no PSU of any bank here holds). */
const CREDITOR_IBAN = 'DE02120300000000202051';
/** The file's statuses of a payment accepted for execution. */
const ACCEPTED = ['ACCC', 'ACCP', 'ACSC', 'ACSP', 'ACTC', 'ACWC', 'ACWP', 'ACFC'];
/** The approaches obtpp walks for another PSU than the profile's (the OAuth2 journey knows one PSU). */
const WALKED: readonly Approach[] = ['redirect', 'decoupled', 'embedded'];

interface JointCancellation {
  id: string;
  approach: Approach;
  first: ScaPsu;
  second: ScaPsu;
  /** The payment's status once both PSUs authorised it (before the DELETE). */
  before?: string;
  deleted?: ApiResult;
  authorisations: Array<{ psu: string; id: string; trail?: ScaTrail }>;
}
const states = new WeakMap<ConformanceWorld, JointCancellation>();

function theCancellation(world: ConformanceWorld): JointCancellation {
  const m = states.get(world);
  if (!m) throw world.blocked('PIS-01', 'the bank did not initiate the payment from the joint account');
  return m;
}

async function statusNow(world: ConformanceWorld, id: string): Promise<string | undefined> {
  const r = await world.call('reading the payment\'s status', (c) => c.getPaymentStatus(id, plain(world, bgHeaders())));
  expectStatus(world, r, [200]);
  return transactionStatusOf(r.body);
}

/**
 * One PSU's SCA, by the run's approach, from an authorisation the TPP starts with that PSU's PSU-ID
 * (POST …/authorisations, or …/cancellation-authorisations): 201 and a valid startScaprocessResponse.
 */
async function authoriseAs(world: ConformanceWorld, m: JointCancellation, psu: ScaPsu, what: string, cancellation: boolean): Promise<{ psu: string; id: string; trail?: ScaTrail }> {
  const headers = plain(world, { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...scaHeaders(world, m.approach), 'PSU-ID': psu.username });
  const started = await world.call(`starting ${what}`, (c) => authorisationOps(c, cancellation ? 'cancellation' : 'payment', m.id).start({}, headers));
  expectStatus(world, started, [201], `POST …/${cancellation ? 'cancellation-authorisations' : 'authorisations'} starts ${what}: expected 201`);
  expectBgSchema(world, started, 'startScaprocessResponse');
  const id = authorisationIdOf(started.body);
  if (!id) throw world.violation(`the start of ${what} carries no authorisationId: ${describeAnswer(started)}`);
  if (m.approach === 'redirect' && !linkOf(started.body, 'scaRedirect', started.exchange.url)) {
    throw world.violation(`the TPP asked for the redirect SCA approach, but the start of ${what} gives no scaRedirect: ${describeAnswer(started)}`);
  }
  const resource = { id: m.id, created: started, approach: m.approach } as Parameters<typeof sca>[1];
  // The redirect page of a cancellation authorisation is the bank's own; decoupled and embedded walk the cancellation's sub-resource.
  await sca(world, resource, { fn: 'pis', psu, ...(cancellation && m.approach !== 'redirect' ? { of: 'cancellation' as const } : {}) });
  return { psu: psu.username, id, ...(resource.trail ? { trail: resource.trail } : {}) };
}

Given('a NextGenPSD2 payment from the joint account, due in 7 days, that both PSUs authorised and whose cancellation needs both', async function (this: ConformanceWorld) {
  const p = this.ctx.profile;
  const multilevel = p.sca?.multilevel;
  if (!multilevel) throw new BgNotApplicable('createPaymentConsent', this.variant, 'the profile\'s sca.multilevel does not say the bank offers multilevel SCA (an account whose payments need a second PSU\'s SCA, and that PSU)');
  if (!multilevel.cancellation) throw new BgNotApplicable('cancelPayment', this.variant, 'the profile\'s sca.multilevel.cancellation does not say the bank needs both PSUs\' SCA to cancel a payment from that account');
  for (const op of ['createPaymentConsent', 'startPaymentAuthorisation', 'getPaymentStatus', 'cancelPayment', 'startPaymentCancellationAuthorisation'] as const) if (!this.client.supports(op)) throw this.client.unsupported(op);
  const approach = approachOf(this, WALKED);
  const body = {
    ...buildPaymentInitiation({
      debtor: { iban: multilevel.iban }, amount: '1.00', currency: 'EUR',
      creditor: { iban: CREDITOR_IBAN }, creditorName: 'obtpp test creditor', endToEndIdentification: this.uniqueRef('obtpp'),
    }),
    requestedExecutionDate: isoDate(new Date(Date.now() + 7 * 86_400_000)),
  };
  const r = await this.call('initiating a payment from the account of two PSUs, due in 7 days', (c) => c.createPaymentConsent(body, plain(this, { ...bgHeaders({ psuIpAddress: psuIp(this) }), ...scaHeaders(this, approach) })));
  const id = paymentIdOf(r.body);
  // A scheduled payment is the bank's to offer: a refusal leaves nothing to cancel.
  if (r.status !== 201 || !id) throw this.blocked(undefined, `the bank did not initiate a payment from ${multilevel.iban} due in 7 days: ${describeAnswer(r)}`);
  if (!Object.keys(linksOf(r.body)).some((l) => l.startsWith('startAuthorisation'))) throw this.blocked(undefined, `the payment needs both PSUs' SCA, but its 201 gives no startAuthorisation link (the other SCA-03 scenario judges that): ${describeAnswer(r)}`);
  const m: JointCancellation = { id, approach, first: { username: p.psu.username, password: p.psu.password }, second: multilevel.psu, authorisations: [] };
  states.set(this, m);
  await authoriseAs(this, m, m.first, 'the first PSU\'s authorisation of the payment', false);
  await authoriseAs(this, m, m.second, 'the second PSU\'s authorisation of the payment', false);
  m.before = await statusNow(this, id);
  if (!ACCEPTED.includes(m.before ?? '')) throw this.blocked(undefined, `the payment both PSUs authorised reads ${quote(m.before)}, not a status accepted for execution: no cancellation to judge`);
});

When('the TPP cancels the payment from the joint account', async function (this: ConformanceWorld) {
  const m = theCancellation(this);
  m.deleted = await this.call('cancelling the payment', (c) => c.cancelPayment(m.id, plain(this, bgHeaders({ psuIpAddress: psuIp(this) }))));
  if (m.deleted.status === 405) throw this.blocked(undefined, `the bank does not cancel this payment: ${describeAnswer(m.deleted)}`);
  if (m.deleted.status === 204) throw this.violation(`the profile says the bank needs both PSUs' SCA to cancel a payment from ${this.ctx.profile.sca!.multilevel!.iban}, but DELETE of the payment answered 204 (cancelled at once, without the PSUs)`);
  expectStatus(this, m.deleted, [202], 'DELETE of a scheduled payment whose cancellation needs both PSUs\' SCA');
  expectBgSchema(this, m.deleted, 'paymentInitiationCancelResponse-202');
});

for (const which of ['first', 'second'] as const) {
  When(`the ${which} PSU authorises the cancellation in an authorisation the TPP starts`, async function (this: ConformanceWorld) {
    const m = theCancellation(this);
    m.authorisations.push(await authoriseAs(this, m, which === 'first' ? m.first : m.second, `the ${which} PSU's authorisation of the cancellation`, true));
  });
}

Then('the payment from the joint account is not cancelled yet', async function (this: ConformanceWorld) {
  const m = theCancellation(this);
  const status = await statusNow(this, m.id);
  if (status === 'CANC') throw this.violation(`after the first of the two PSUs authorised the cancellation, the payment reads CANC: the second PSU's authorisation of the cancellation was not awaited (it read ${quote(m.before)} before the DELETE)`);
});

Then('the second PSU\'s authorisation of the cancellation is finalised, its scaStatus moving only forward through the standard\'s values', async function (this: ConformanceWorld) {
  const m = theCancellation(this);
  await judgeSecondAuthorisation(this, {
    authorisations: m.authorisations, approach: m.approach, of: 'the cancellation',
    read: (id) => this.call('reading the second PSU\'s SCA status of the cancellation', (c) => authorisationOps(c, 'cancellation', m.id).read(id, plain(this, bgHeaders({ psuIpAddress: psuIp(this) })))),
  });
});

Then('the payment from the joint account reads CANC', async function (this: ConformanceWorld) {
  const status = await statusNow(this, theCancellation(this).id);
  if (status !== 'CANC') throw this.violation(`both PSUs authorised the payment's cancellation, but it reads transactionStatus ${quote(status)}, not CANC`);
});

Then('the cancellation\'s authorisations are listed, both PSUs\' among them', async function (this: ConformanceWorld) {
  const m = theCancellation(this);
  if (!this.client.supports('listPaymentCancellationAuthorisations')) return;
  const r = await this.call('listing the cancellation\'s authorisations', (c) => authorisationOps(c, 'cancellation', m.id).list(plain(this, bgHeaders({ psuIpAddress: psuIp(this) }))));
  expectAuthorisationsListed(this, r, 'GET …/{paymentId}/cancellation-authorisations', m.authorisations);
});
