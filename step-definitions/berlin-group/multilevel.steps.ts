/**
 * The berlin-group scenario of multilevel SCA (features/berlin-group/multilevel-sca.feature): a
 * payment from the account the profile's sca.multilevel names, one authorisation the TPP starts
 * for each PSU (POST …/{paymentId}/authorisations with that PSU's PSU-ID), each walked by the
 * run's approach (support.ts), the payment's status after each.
 */
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { authorisationIdOf, bgHeaders, buildPaymentInitiation, linkOf, linksOf, paymentIdOf, transactionStatusOf } from '../../src/dialects/berlin-group/index.ts';
import { expectAuthorisationsListed, approachOf, BgNotApplicable, expectBgSchema, plain, psuIp, sca, scaHeaders, type Approach, type ScaPsu, type ScaTrail } from './support.ts';
import { judgeSecondAuthorisation } from './sca.steps.ts';
import { authorisationOps } from '../../src/session/berlin-group-authorisations.ts';

/** A SEPA account of another bank to pay (a valid German IBAN no PSU of any bank here holds). */
const CREDITOR_IBAN = 'DE02120300000000202051';
/** The file's statuses of a payment accepted for execution (past the authorisations; not RJCT, CANC, PATC or RCVD). */
const ACCEPTED = ['ACCC', 'ACCP', 'ACSC', 'ACSP', 'ACTC', 'ACWC', 'ACWP', 'ACFC'];
/** The approaches obtpp walks for another PSU than the profile's (the OAuth2 journey knows one PSU). */
const WALKED: readonly Approach[] = ['redirect', 'decoupled', 'embedded'];

/** What the scenario keeps of the multilevel payment. */
interface Multilevel { id?: string; created?: ApiResult; approach: Approach; second: ScaPsu; authorisations: Array<{ psu: string; id: string; trail?: ScaTrail }> }
const states = new WeakMap<ConformanceWorld, Multilevel>();

function theMultilevel(world: ConformanceWorld): Multilevel & { id: string; created: ApiResult } {
  const m = states.get(world);
  if (!m?.id || !m.created) throw world.blocked('PIS-01', `the bank did not initiate the payment: ${m?.created ? describeAnswer(m.created) : 'no answer'}`);
  return m as Multilevel & { id: string; created: ApiResult };
}

Given('a NextGenPSD2 payment from the account whose payments need a second PSU\'s SCA', async function (this: ConformanceWorld) {
  const p = this.ctx.profile;
  const multilevel = p.sca?.multilevel;
  if (!multilevel) throw new BgNotApplicable('createPaymentConsent', this.variant, 'the profile\'s sca.multilevel does not say the bank offers multilevel SCA (an account whose payments need a second PSU\'s SCA, and that PSU)');
  for (const op of ['createPaymentConsent', 'startPaymentAuthorisation', 'getPaymentScaStatus'] as const) if (!this.client.supports(op)) throw this.client.unsupported(op);
  const approach = approachOf(this, WALKED);
  const state: Multilevel = { approach, second: multilevel.psu, authorisations: [] };
  states.set(this, state);
  const body = buildPaymentInitiation({
    debtor: { iban: multilevel.iban }, amount: '1.00', currency: 'EUR',
    creditor: { iban: CREDITOR_IBAN }, creditorName: 'obtpp test creditor', endToEndIdentification: this.uniqueRef('obtpp'),
  });
  const r = await this.call('initiating the payment from the account of two PSUs', (c) => c.createPaymentConsent(body, plain(this, { ...bgHeaders({ psuIpAddress: psuIp(this) }), ...scaHeaders(this, approach) })));
  state.created = r;
  const id = paymentIdOf(r.body);
  if (r.status !== 201 || !id) throw this.blocked('PIS-01', `the bank did not initiate the payment from ${multilevel.iban}: ${describeAnswer(r)}`);
  state.id = id;
});

Then('the bank leaves the start of each PSU\'s authorisation to the TPP', function (this: ConformanceWorld) {
  const { created } = theMultilevel(this);
  expectBgSchema(this, created, 'paymentInitiationRequestResponse-201');
  const links = Object.keys(linksOf(created.body));
  // The file: "this specification requires an explicit start of the authorisation, i.e. links directly associated with SCA processing like 'scaRedirect' or 'scaOAuth' cannot be contained".
  const sca = links.filter((l) => l === 'scaRedirect' || l === 'scaOAuth' || l.startsWith('updatePsu') || l === 'selectAuthenticationMethod' || l === 'authoriseTransaction');
  if (sca.length) throw this.violation(`the payment needs a second PSU's SCA, so the file requires an explicit start of each authorisation, with no link of an SCA already started; the 201 has ${sca.join(', ')}: ${describeAnswer(created)}`);
  if (!links.some((l) => l.startsWith('startAuthorisation'))) throw this.violation(`the payment needs a second PSU's SCA, but the 201 carries no startAuthorisation link to start the PSUs' authorisations (links: ${quote(links)})`);
});

/** POST …/authorisations for one PSU (its PSU-ID), judged as startScaprocessResponse; then that PSU's SCA by the run's approach. */
async function authorise(world: ConformanceWorld, psu: ScaPsu, which: string): Promise<{ id: string; trail?: ScaTrail }> {
  const m = theMultilevel(world);
  const headers = { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...scaHeaders(world, m.approach), 'PSU-ID': psu.username };
  const started = await world.call(`starting the ${which} PSU's authorisation of the payment`, (c) => authorisationOps(c, 'payment', m.id).start({}, plain(world, headers)));
  expectStatus(world, started, [201], `POST …/authorisations starts the ${which} PSU's authorisation: expected 201`);
  expectBgSchema(world, started, 'startScaprocessResponse');
  const id = authorisationIdOf(started.body);
  if (!id) throw world.violation(`the start of the ${which} PSU's authorisation carries no authorisationId: ${describeAnswer(started)}`);
  if (m.authorisations.some((a) => a.id === id)) throw world.violation(`the ${which} PSU's authorisation has the id ${quote(id)} of the authorisation before it: each PSU's SCA is an authorisation of its own`);
  // The started authorisation is what the PSU's SCA goes on from (its scaRedirect, update or scaStatus link).
  const resource = { id: m.id, created: started, approach: m.approach } as Parameters<typeof sca>[1];
  if (m.approach === 'redirect' && !linkOf(started.body, 'scaRedirect', started.exchange.url)) {
    throw world.violation(`the TPP asked for the redirect SCA approach, but the start of the ${which} PSU's authorisation gives no scaRedirect: ${describeAnswer(started)}`);
  }
  await sca(world, resource, { fn: 'pis', psu });
  const done = { psu: psu.username, id, ...(resource.trail ? { trail: resource.trail } : {}) };
  m.authorisations.push(done);
  return done;
}

/** The payment's transactionStatus (GET …/status). */
async function statusNow(world: ConformanceWorld, id: string): Promise<string | undefined> {
  const r = await world.call('reading the payment\'s status', (c) => c.getPaymentStatus(id, plain(world, bgHeaders())));
  expectStatus(world, r, [200]);
  return transactionStatusOf(r.body);
}

When('the first PSU authorises the payment in an authorisation the TPP starts', async function (this: ConformanceWorld) {
  const p = this.ctx.profile;
  await authorise(this, { username: p.psu.username, password: p.psu.password }, 'first');
});

Then('the payment reads PATC, not executed', async function (this: ConformanceWorld) {
  const status = await statusNow(this, theMultilevel(this).id);
  if (status === 'RJCT') throw this.blocked(undefined, 'the bank rejected the payment after the first PSU\'s SCA (RJCT): no second authorisation to judge');
  if (status !== 'PATC') {
    const executed = ACCEPTED.includes(status ?? '') ? ': the payment was accepted for execution on one PSU\'s SCA' : '';
    throw this.violation(`after the first of the two PSUs authorised it, the payment reads transactionStatus ${quote(status)}, not PATC ("some but not yet all [authentications] have been performed")${executed}`);
  }
});

When('the second PSU authorises the payment in an authorisation the TPP starts', async function (this: ConformanceWorld) {
  await authorise(this, theMultilevel(this).second, 'second');
});

Then('the second PSU\'s authorisation is finalised, its scaStatus moving only forward through the standard\'s values', async function (this: ConformanceWorld) {
  const m = theMultilevel(this);
  await judgeSecondAuthorisation(this, {
    authorisations: m.authorisations, approach: m.approach, of: 'the payment',
    read: (id) => this.call('reading the second PSU\'s SCA status', (c) => authorisationOps(c, 'payment', m.id).read(id, plain(this, bgHeaders({ psuIpAddress: psuIp(this) })))),
  });
});

Then('the payment has moved on from PATC to an accepted status', async function (this: ConformanceWorld) {
  const status = await statusNow(this, theMultilevel(this).id);
  // A bank may still reject the payment after both SCAs (its own checks, e.g. funds): not the SCA's to judge.
  if (status === 'RJCT') throw this.blocked(undefined, 'the bank rejected the payment after both PSUs\' SCA (RJCT): its reasons are not the SCA\'s');
  if (!ACCEPTED.includes(status ?? '')) throw this.violation(`both PSUs authorised the payment, but it reads transactionStatus ${quote(status)}, not one accepted for execution (${ACCEPTED.join(', ')})`);
});

Then('the payment\'s authorisations are listed, both PSUs\' among them', async function (this: ConformanceWorld) {
  const m = theMultilevel(this);
  // A bank without the list (its profile's implements) leaves this last check out; the rest of the rule stands.
  if (!this.client.supports('listPaymentAuthorisations')) return;
  const r = await this.call('listing the payment\'s authorisations', (c) => authorisationOps(c, 'payment', m.id).list(plain(this, bgHeaders({ psuIpAddress: psuIp(this) }))));
  expectAuthorisationsListed(this, r, 'GET …/{paymentId}/authorisations', m.authorisations);
});
