/**
 * Multilevel SCA of a consent (features/berlin-group/multilevel-sca.feature, SCA-03): a one-off
 * consent whose access names the joint account the profile's sca.multilevel names, authorised by
 * the first PSU (the bank's implicit start, or one the TPP starts with that PSU's PSU-ID) and then
 * by the second (POST /v1/consents/{consentId}/authorisations with the second PSU's PSU-ID), each
 * walked by the run's approach (support.ts). In between the consent reads partiallyAuthorised
 * ("some but not all mandated authorisations have been performed yet") and opens no data.
 * One-off, so that its authorisation expires none of the PSU's recurring consents.
 */
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { accountsOf, authorisationIdOf, bgHeaders, consentIdOf, consentStatusOf, detailedAccess, linkOf, linksOf } from '../../src/dialects/berlin-group/index.ts';
import {
  expectAuthorisationsListed, approachOf, BgNotApplicable, consentRequest, dataOptions, expectBgError, expectBgSchema, plain, postConsent, psuIp, sca, scaHeaders,
  type Approach, type ScaPsu, type ScaTrail,
} from './support.ts';
import { judgeSecondAuthorisation } from './sca.steps.ts';
import { authorisationOps } from '../../src/session/berlin-group-authorisations.ts';

/** The approaches obtpp walks for another PSU than the profile's (the OAuth2 journey knows one PSU). */
const WALKED: readonly Approach[] = ['redirect', 'decoupled', 'embedded'];

interface JointConsent { id?: string; created?: ApiResult; iban: string; approach: Approach; second: ScaPsu; authorisations: Array<{ psu: string; id: string; trail?: ScaTrail }> }
const states = new WeakMap<ConformanceWorld, JointConsent>();

function theJointConsent(world: ConformanceWorld): JointConsent & { id: string; created: ApiResult } {
  const m = states.get(world);
  if (!m?.id || !m.created) throw world.blocked('AIS-01', `the bank did not create the consent: ${m?.created ? describeAnswer(m.created) : 'no answer'}`);
  return m as JointConsent & { id: string; created: ApiResult };
}

Given('a NextGenPSD2 one-off consent to the account whose access needs a second PSU\'s SCA', async function (this: ConformanceWorld) {
  const multilevel = this.ctx.profile.sca?.multilevel;
  if (!multilevel) throw new BgNotApplicable('createAccountAccessConsent', this.variant, 'the profile\'s sca.multilevel does not say the bank offers multilevel SCA (an account whose payments need a second PSU\'s SCA, and that PSU)');
  for (const op of ['createAccountAccessConsent', 'startConsentAuthorisation', 'getConsentStatus', 'listAccounts'] as const) if (!this.client.supports(op)) throw this.client.unsupported(op);
  const approach = approachOf(this, WALKED);
  const state: JointConsent = { iban: multilevel.iban, approach, second: multilevel.psu, authorisations: [] };
  states.set(this, state);
  const body = consentRequest(detailedAccess([{ iban: multilevel.iban }], { balances: true, transactions: true }), { recurringIndicator: false, frequencyPerDay: 1 });
  const r = await postConsent(this, body, approach);
  state.created = r;
  const id = consentIdOf(r.body);
  if ((r.status !== 201 && r.status !== 200) || !id) throw this.blocked('AIS-01', `the bank did not create the consent to ${multilevel.iban}: ${describeAnswer(r)}`);
  state.id = id;
  expectBgSchema(this, r, 'consentsResponse-201');
});

/**
 * One PSU's authorisation of the joint consent: the first PSU's may be the one the bank started
 * with the consent (its scaRedirect, update or scaStatus link); otherwise the TPP starts one with
 * that PSU's PSU-ID (201, a valid startScaprocessResponse). Then that PSU's SCA by the run's approach.
 */
async function authorise(world: ConformanceWorld, psu: ScaPsu, which: 'first' | 'second'): Promise<void> {
  const m = theJointConsent(world);
  const implicit = which === 'first' && !Object.keys(linksOf(m.created.body)).some((l) => l.startsWith('startAuthorisation'));
  let created = m.created;
  if (!implicit) {
    const headers = { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...scaHeaders(world, m.approach), 'PSU-ID': psu.username };
    const started = await world.call(`starting the ${which} PSU's authorisation of the consent`, (c) => authorisationOps(c, 'consent', m.id).start({}, plain(world, headers)));
    expectStatus(world, started, [201], `POST /v1/consents/{consentId}/authorisations starts the ${which} PSU's authorisation: expected 201`);
    expectBgSchema(world, started, 'startScaprocessResponse');
    const id = authorisationIdOf(started.body);
    if (!id) throw world.violation(`the start of the ${which} PSU's authorisation of the consent carries no authorisationId: ${describeAnswer(started)}`);
    if (m.authorisations.some((a) => a.id === id)) throw world.violation(`the ${which} PSU's authorisation of the consent has the id ${quote(id)} of the authorisation before it: each PSU's SCA is an authorisation of its own`);
    if (m.approach === 'redirect' && !linkOf(started.body, 'scaRedirect', started.exchange.url)) {
      throw world.violation(`the TPP asked for the redirect SCA approach, but the start of the ${which} PSU's authorisation of the consent gives no scaRedirect: ${describeAnswer(started)}`);
    }
    created = started;
  }
  // The authorisation the PSU's SCA goes on from: the started one, or the one the bank started with the consent.
  const resource = { id: m.id, created, approach: m.approach } as Parameters<typeof sca>[1];
  await sca(world, resource, { fn: 'ais', psu });
  // The bank's implicit start names its authorisation only in a link (…/authorisations/{authorisationId}).
  const linked = /authorisations\/([^/?#]+)\/?(?:[?#].*)?$/.exec(linkOf(created.body, 'scaStatus', created.exchange.url) ?? '')?.[1];
  const id = authorisationIdOf(created.body) ?? resource.trail?.authorisationId ?? (linked ? decodeURIComponent(linked) : '');
  m.authorisations.push({ psu: psu.username, id, ...(resource.trail ? { trail: resource.trail } : {}) });
}

When('the first PSU authorises the consent', async function (this: ConformanceWorld) {
  const p = this.ctx.profile;
  await authorise(this, { username: p.psu.username, password: p.psu.password }, 'first');
});

When('the second PSU authorises the consent in an authorisation the TPP starts', async function (this: ConformanceWorld) {
  await authorise(this, theJointConsent(this).second, 'second');
});

/** The consent's status (GET …/status) and what GET /v1/accounts answers under it. */
async function readConsent(world: ConformanceWorld): Promise<{ status: string | undefined; accounts: ApiResult }> {
  const m = theJointConsent(world);
  const r = await world.call('reading the consent\'s status', (c) => c.getConsentStatus(m.id, plain(world, bgHeaders({ psuIpAddress: psuIp(world) }))));
  expectStatus(world, r, [200]);
  expectBgSchema(world, r, 'consentStatusResponse-200');
  const accounts = await world.call('listing the accounts under the consent', (c) => c.listAccounts(dataOptions(world, { id: m.id })));
  return { status: consentStatusOf(r.body), accounts };
}

Then('the consent reads partiallyAuthorised and opens no data', async function (this: ConformanceWorld) {
  const { status, accounts } = await readConsent(this);
  if (status === 'rejected') throw this.blocked(undefined, 'the bank rejected the consent after the first PSU\'s SCA: no second authorisation to judge');
  if (status !== 'partiallyAuthorised') {
    throw this.violation(`after the first of the two PSUs authorised it, the consent reads consentStatus ${quote(status)}, not "partiallyAuthorised" ("some but not all mandated authorisations have been performed yet")`);
  }
  if (accounts.status >= 200 && accounts.status < 300) throw this.violation(`the consent reads partiallyAuthorised, but GET /v1/accounts under it answers ${describeAnswer(accounts)}: a consent one of its two PSUs has not authorised opens no data`);
  expectStatus(this, accounts, [400, 401, 403], 'GET /v1/accounts under a consent not yet authorised is refused');
  expectBgError(this, accounts);
});

Then('the second PSU\'s authorisation of the consent is finalised, its scaStatus moving only forward through the standard\'s values', async function (this: ConformanceWorld) {
  const m = theJointConsent(this);
  await judgeSecondAuthorisation(this, {
    authorisations: m.authorisations, approach: m.approach, of: 'the consent',
    read: (id) => this.call('reading the second PSU\'s SCA status', (c) => authorisationOps(c, 'consent', m.id).read(id, plain(this, bgHeaders({ psuIpAddress: psuIp(this) })))),
  });
});

Then('the consent reads valid and opens the joint account', async function (this: ConformanceWorld) {
  const m = theJointConsent(this);
  const { status, accounts } = await readConsent(this);
  if (status !== 'valid') throw this.violation(`both PSUs authorised the consent, but it reads consentStatus ${quote(status)}, not "valid"`);
  expectStatus(this, accounts, [200], 'GET /v1/accounts under the consent both PSUs authorised');
  expectBgSchema(this, accounts, 'accountList');
  const ibans = accountsOf(accounts.body).map((a) => a.iban).filter((i): i is string => typeof i === 'string').map((i) => i.replace(/\s/g, ''));
  if (!ibans.includes(m.iban.replace(/\s/g, ''))) throw this.violation(`the consent names ${m.iban} and both its PSUs authorised it, but GET /v1/accounts lists ${quote(ibans)}`);
});

Then('the consent\'s authorisations are listed, both PSUs\' among them', async function (this: ConformanceWorld) {
  const m = theJointConsent(this);
  // A bank without the list (its profile's implements) leaves this last check out; the rest of the rule stands.
  if (!this.client.supports('listConsentAuthorisations')) return;
  const r = await this.call('listing the consent\'s authorisations', (c) => authorisationOps(c, 'consent', m.id).list(plain(this, bgHeaders({ psuIpAddress: psuIp(this) }))));
  // An authorisation the bank started itself and named nowhere (no id) cannot be looked for.
  expectAuthorisationsListed(this, r, 'GET /v1/consents/{consentId}/authorisations', m.authorisations.filter((a) => a.id));
});
