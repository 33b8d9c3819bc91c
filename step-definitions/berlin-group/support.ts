/**
 * The berlin-group scenarios' own plumbing, on the shared world, judge and evidence machinery:
 * NextGenPSD2 requests (built by src/dialects/berlin-group, sent through the tpp client), the
 * PSU's SCA (the scaRedirect page in the one browser, or the authorisation server with the consent
 * in the scope), and the judging of bodies at two levels (MUST fails, SHOULD warns).
 */
import { randomUUID } from 'node:crypto';
import type { ApiResult, CallOptions, TppClient } from '../../src/client/operations.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { authorisationOps, type AuthorisedResource } from '../../src/session/berlin-group-authorisations.ts';
import { NotApplicableError, type Operation } from '../../src/client/operations.ts';
import type { AccountChoice, Variant } from '../../src/profile/types.ts';
import type { RunContext } from '../../src/conformance/context.ts';
import {
  accountsOf, authorisationIdOf, bgHeaders, buildConsent, consentIdOf, consentStatusOf, isoDate, judgeBg, judgeBgError, linkOf, linksOf, scaStatusOf, transactionStatusOf,
  updateAnswerSchemaOf,
  type AccountAccess, type BgSchemaName, type ConsentRequestBody,
} from '../../src/dialects/berlin-group/index.ts';
import { AuthorisationError } from '../../src/errors.ts';
import { ConformanceWorld, NotJudgeable } from '../support/world.ts';
import { describeAnswer, expectStatus, quote, violationWithProblems, warn, type BodyJudgement } from '../support/judge.ts';

export type Approach = 'redirect' | 'oauth' | 'decoupled' | 'embedded';

/** One scaStatus the TPP saw during an authorisation, and when (what the TPP had done by then). */
export interface ScaSighting {
  status: string | undefined;
  /** `after the password`, `polling while the PSU approves`, `read again once final` … */
  when: string;
  /**
   * Whether the TPP had sent the second factor (embedded: the OTP) or the PSU had decided
   * (decoupled) by then; undefined while the PSU is at it (the TPP cannot know).
   */
  factorsDone: boolean | undefined;
  /** The consent's status (or the payment's transactionStatus) read the moment a finalised scaStatus was first seen. */
  resourceStatus?: string;
}

/** What the TPP followed of a decoupled or embedded authorisation (the SCA rules judge it). */
export interface ScaTrail {
  /** decoupled or embedded; redirect (or oauth) where only the reads after the PSU's journey are followed (SCA-03). */
  approach: Approach;
  authorisationId: string;
  /** Whether the TPP started it explicitly (POST …/authorisations). */
  explicit: boolean;
  sightings: ScaSighting[];
  /**
   * The official schema's problems in the answers that have one (startScaprocessResponse,
   * scaStatusResponse, each PUT's answer by what it sent): the rule that walks it judges them.
   */
  schemaProblems: string[];
}

/** Keeps the official schema's problems of an answer in the trail (MUST level only). */
export function judgeInto(trail: ScaTrail, r: ApiResult, schema: BgSchemaName): void {
  for (const p of judgeBg(schema, r.body).must) trail.schemaProblems.push(`${describeAnswer(r)} as ${schema}: ${line(p)}`);
}

/** A consent of the scenario: what was asked, what came back, and how the PSU's SCA went. */
export interface BgConsent {
  id: string;
  request: ConsentRequestBody;
  created: ApiResult;
  approach: Approach;
  /** The access token of an OAuth2 SCA (data calls need it). */
  token?: string;
  /** The accounts the PSU ticked on the bank's page (resourceIds), and those offered. */
  selected?: string[];
  offered?: string[];
  /** A decoupled or embedded SCA: the scaStatus as the TPP followed it. */
  trail?: ScaTrail;
}

/** A consent with the accounts it opens (GET /v1/accounts). */
export interface BgFullConsent extends BgConsent {
  accounts: Array<{ resourceId: string; iban?: string; currency?: string }>;
}

/** What a berlin-group scenario keeps between its steps. */
export interface BgState {
  consent?: BgConsent;
  consents: BgConsent[];
  full?: BgFullConsent;
  payment?: { id: string; created: ApiResult; approach: Approach; trail?: ScaTrail };
  /** The X-Request-ID of the last request. */
  requestId?: string;
  /** The validUntil the last consent asked for. */
  askedValidUntil?: string;
}

const states = new WeakMap<ConformanceWorld, BgState>();

/**
 * The set-up worlds preparing a scenario's consent ahead of it (ahead.ts): their PSU journeys
 * yield to those a running scenario waits for.
 */
export const preparedAhead = new WeakSet<ConformanceWorld>();
const journeyPriority = (world: ConformanceWorld) => (preparedAhead.has(world) ? 3 : 2);

/** The scenario's berlin-group state. */
export function bg(world: ConformanceWorld): BgState {
  let s = states.get(world);
  if (!s) states.set(world, (s = { consents: [] }));
  return s;
}

/** An operation the bank cannot be asked for in this dialect or with this profile: the scenario does not apply. */
export class BgNotApplicable extends NotApplicableError {
  constructor(operation: Operation, variant: Variant, message: string) {
    super(operation, variant);
    this.message = message;
  }
}

/** The PSU-IP-Address the TPP sends (the profile's). */
export const psuIp = (world: ConformanceWorld): string => world.ctx.profile.psuIpAddress ?? '127.0.0.1';

/** Call options without the UK headers (x-fapi-interaction-id, x-idempotency-key): NextGenPSD2 has X-Request-ID. */
export function plain(world: ConformanceWorld, headers: Record<string, string>, token?: string, accept?: string): CallOptions {
  bg(world).requestId = headers['X-Request-ID'];
  return { token: token ?? null, interactionId: false, idempotencyKey: false, headers: accept ? { ...headers, Accept: accept } : headers };
}

/** Why an approach the profile offers cannot be walked by obtpp with this profile (undefined: it can). */
function unwalkable(world: ConformanceWorld, a: Approach): string | undefined {
  const p = world.ctx.profile;
  if (a === 'oauth' && p.auth.absent) return 'the OAuth2 SCA approach needs the bank\'s authorisation server, and the profile has no auth block';
  if (a === 'decoupled' && !p.sca?.decoupledUrl) return 'the decoupled SCA approach needs sca.decoupledUrl (where the PSU approves) in the profile';
  if (a === 'embedded' && !p.sca?.otp) return 'the embedded SCA approach needs sca.otp (the PSU\'s one-time password) in the profile';
  return undefined;
}

const APPROACH_WORDS: Record<Approach, string> = { redirect: 'the redirect SCA approach', oauth: 'the OAuth2 SCA approach', decoupled: 'the decoupled SCA approach', embedded: 'the embedded SCA approach' };

/**
 * The approach the TPP asks for: the profile's first that obtpp can walk (sca.approaches, in its
 * order), unless a scenario needs one.
 */
export function approachOf(world: ConformanceWorld, wanted?: Approach | readonly Approach[]): Approach {
  const listed = (world.ctx.profile.sca?.approaches ?? ['redirect']) as Approach[];
  if (wanted) {
    const choices = typeof wanted === 'string' ? [wanted] : wanted;
    const offered = listed.filter((a) => choices.includes(a));
    if (!offered.length) throw new BgNotApplicable('createAccountAccessConsent', world.variant, `the profile's sca.approaches does not offer ${choices.map((a) => APPROACH_WORDS[a]).join(' or ')}`);
    const walkable = offered.find((a) => !unwalkable(world, a));
    if (!walkable) throw new BgNotApplicable('createAccountAccessConsent', world.variant, unwalkable(world, offered[0]!)!);
    return walkable;
  }
  const walkable = listed.find((a) => !unwalkable(world, a));
  if (!walkable) throw new BgNotApplicable('createAccountAccessConsent', world.variant, `obtpp cannot walk any SCA approach the profile offers: ${listed.map((a) => unwalkable(world, a)).join('; ')}`);
  return walkable;
}

/**
 * The headers that ask the bank for an approach (FACTS §6.2): redirect with TPP-Redirect-URI;
 * decoupled and embedded name the PSU (PSU-ID) and say the TPP prefers not to be redirected
 * (decoupled: TPP-Decoupled-Preferred); OAuth2 asks nothing.
 */
export function scaHeaders(world: ConformanceWorld, approach: Approach, o: { explicit?: boolean } = {}): Record<string, string> {
  const p = world.ctx.profile;
  const explicit: Record<string, string> = o.explicit ? { 'TPP-Explicit-Authorisation-Preferred': 'true' } : {};
  switch (approach) {
    case 'redirect': return bgHeaders({ tppRedirectUri: p.auth.redirectUri, tppRedirectPreferred: true });
    case 'oauth': return {};
    case 'decoupled': return { 'PSU-ID': p.psu.username, 'TPP-Redirect-Preferred': 'false', 'TPP-Decoupled-Preferred': 'true', ...explicit };
    case 'embedded': return { 'PSU-ID': p.psu.username, 'TPP-Redirect-Preferred': 'false', 'TPP-Decoupled-Preferred': 'false', ...explicit };
  }
}

/** A bank-offered access: the PSU ticks the accounts on the bank's page; balances and transactions as asked. */
export function bankOffered(what: { balances: boolean; transactions: boolean }): AccountAccess {
  return { accounts: [], ...(what.balances ? { balances: [] } : {}), ...(what.transactions ? { transactions: [] } : {}) } as AccountAccess;
}

/** A consent request valid for 30 days (recurring, 4 a day, unless told otherwise). */
export function consentRequest(access: AccountAccess, o: { recurringIndicator?: boolean; frequencyPerDay?: number } = {}): ConsentRequestBody {
  return buildConsent({ access, validUntil: isoDate(new Date(Date.now() + 30 * 86_400_000)), ...o });
}

/** POST /v1/consents with the headers of the approach (and an Accept header when given). */
export async function postConsent(world: ConformanceWorld, body: unknown, approach: Approach, accept?: string, o: { explicit?: boolean } = {}): Promise<ApiResult> {
  const { 'X-Request-ID': _drop, ...sca } = scaHeaders(world, approach, o);
  const headers = { ...bgHeaders({ requestId: randomUUID(), psuIpAddress: psuIp(world) }), ...sca };
  return world.call('creating the consent', (c) => c.createAccountAccessConsent(body, plain(world, headers, undefined, accept)));
}

/**
 * A consent created and taken through the PSU's SCA (approve or reject). A bank that does not
 * create it, or whose SCA cannot be walked, leaves the scenario not judged, blocked by AIS-01.
 */
export async function consentThroughSca(world: ConformanceWorld, request: ConsentRequestBody, o: { approach?: Approach | readonly Approach[]; accounts?: AccountChoice; reject?: boolean; authorise?: boolean; explicit?: boolean } = {}): Promise<BgConsent> {
  const approach = approachOf(world, o.approach);
  bg(world).askedValidUntil = request.validUntil;
  const created = await postConsent(world, request, approach, undefined, { explicit: o.explicit });
  const id = consentIdOf(created.body);
  if ((created.status !== 201 && created.status !== 200) || !id) throw world.blocked('AIS-01', `the bank did not create the consent: ${describeAnswer(created)}`);
  const consent: BgConsent = { id, request, created, approach };
  if (o.authorise !== false) {
    await sca(world, consent, o);
    if (!o.reject && request.recurringIndicator) recurringAuthorised(world.ctx);
  }
  bg(world).consent = consent;
  bg(world).consents.push(consent);
  return consent;
}

/** A PSU who authorises: its PSU-ID (the login) and password. */
export interface ScaPsu { username: string; password: string }

/**
 * The PSU's SCA of a consent or payment: by the scaRedirect page, or the authorisation server with
 * the intent in the scope. `psu`: another PSU than the profile's (multilevel SCA's second PSU).
 */
export async function sca(world: ConformanceWorld, resource: ScaResource, o: { accounts?: AccountChoice; reject?: boolean; fn?: 'ais' | 'pis'; psu?: ScaPsu; of?: ScaSubject } = {}): Promise<void> {
  const ctx = world.ctx;
  const fn = o.fn ?? 'ais';
  const psu: ScaPsu = o.psu ?? { username: ctx.profile.psu.username, password: ctx.profile.psu.password ?? '' };
  if (resource.approach === 'embedded' && o.accounts && !('pick' in o.accounts && o.accounts.pick === 'all')) {
    // The PSU's data go through the TPP: the bank has no page on which the PSU chooses accounts.
    throw new BgNotApplicable('createAccountAccessConsent', world.variant, 'the embedded SCA approach has no bank page on which the PSU chooses the accounts');
  }
  if (resource.approach === 'embedded') return embeddedSca(world, resource, { reject: o.reject, fn, psu, of: o.of });
  if (resource.approach === 'decoupled') return decoupledSca(world, resource, { reject: o.reject, fn, accounts: o.accounts, psu, of: o.of });
  try {
    if (resource.approach === 'oauth') {
      const result = await ctx.authorise(world.lane, resource.id, fn, { accounts: o.accounts ?? { pick: 'all' }, reject: o.reject, priority: journeyPriority(world) });
      if (result.outcome !== 'denied') resource.token = result.tokens.accessToken;
      resource.selected = [...result.journey.selectedAccounts];
      resource.offered = result.journey.offeredAccounts.map((a) => a.id);
      return;
    }
    const href = linkOf(resource.created.body, 'scaRedirect', resource.created.exchange.url);
    if (!href) throw world.blocked(fn === 'pis' ? 'PIS-01' : 'AIS-01', `the bank's answer carries no scaRedirect link to start the PSU's SCA: ${describeAnswer(resource.created)}`);
    const p = ctx.profile;
    const started = Date.now();
    const noted = (outcome: string) => ctx.noteJourney({ intentId: resource.id, fn, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, outcome });
    const journey = await ctx.withJourneySlot(() => ctx.browserJourney(`the PSU's SCA in the browser (${fn} ${resource.id})`, () => ctx.browser().journey(href, {
      redirectUri: p.auth.redirectUri,
      driver: p.psu.driver,
      username: psu.username,
      password: psu.password,
      reject: o.reject,
      accounts: o.accounts ?? { pick: 'all' },
      stepTimeoutMs: p.timeouts.browserStepMs,
      totalTimeoutMs: p.timeouts.authorisationMs,
      evidenceDir: ctx.params.evidenceDir,
      urlName: 'scaRedirect',
      trust: { caPem: p.mtls?.ca, insecure: p.tls.insecure },
    })), journeyPriority(world)).then((j) => (noted(o.reject ? 'rejected' : 'authorised'), j), (e: unknown) => {
      noted(`failed: ${ctx.redactor.text(String((e as Error)?.message ?? e)).split('\n')[0]!.slice(0, 200)}`);
      throw e;
    });
    resource.selected = [...journey.selectedAccounts];
    resource.offered = journey.offeredAccounts.map((a) => a.id);
  } catch (error) {
    if (error instanceof NotJudgeable) throw error;
    // A link or page the browser refused to open (file:, data:, chrome: …) is the bank's fault: a failed verdict, not an incomplete run.
    if (error instanceof AuthorisationError && error.oauthError === 'unsafe_url') throw world.violation(`the PSU's SCA was refused: ${error.message}`);
    throw world.blocked(undefined, `the PSU's SCA could not be completed: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** A consent or payment whose SCA the TPP walks. */
export interface ScaResource { id: string; created: ApiResult; approach: Approach; token?: string; selected?: string[]; offered?: string[]; trail?: ScaTrail }

const FINAL_SCA = new Set(['finalised', 'failed', 'exempted']);
/** The decoupled SCA's polls of the scaStatus: the first pause, and the longest. */
const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1_000;

/**
 * What an authorisation authorises besides a consent or payment itself: a payment's cancellation
 * (`resource.id` the payment's; …/cancellation-authorisations) or a signing basket (the basket's).
 */
export type ScaSubject = 'cancellation' | 'basket';

/** What the steps call each authorisation's calls and the resource's status read, in the words of a failure. */
const SCA_WORDS: Readonly<Record<AuthorisedResource, { start: string; update: string; read: string; status: string }>> = {
  cancellation: { start: 'starting the authorisation of the cancellation', update: 'sending the PSU\'s data for the cancellation', read: 'reading the cancellation\'s SCA status', status: 'reading the payment\'s status' },
  basket: { start: 'starting the signing basket\'s authorisation', update: 'sending the PSU\'s data for the signing basket', read: 'reading the signing basket\'s SCA status', status: 'reading the signing basket\'s status' },
  consent: { start: 'starting the consent\'s authorisation', update: 'sending the PSU\'s data', read: 'reading the SCA status', status: 'reading the consent\'s status' },
  payment: { start: 'starting the payment\'s authorisation', update: 'sending the PSU\'s data', read: 'reading the SCA status', status: 'reading the payment\'s status' },
};

/** The authorisation sub-resource's operations of the resource's kind (the terminal client's, src/session/berlin-group-authorisations.ts), and its status read. */
function scaCalls(world: ConformanceWorld, resource: ScaResource, fn: 'ais' | 'pis', of?: ScaSubject) {
  const h = (extra: Record<string, string> = {}) => plain(world, { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...extra });
  const kind: AuthorisedResource = of ?? (fn === 'ais' ? 'consent' : 'payment');
  const words = SCA_WORDS[kind];
  const ops = (c: TppClient) => authorisationOps(c, kind, resource.id);
  const status = async () => {
    const read = (c: TppClient) => (kind === 'basket' ? c.getSigningBasketStatus(resource.id, h()) : kind === 'consent' ? c.getConsentStatus(resource.id, h()) : c.getPaymentStatus(resource.id, h()));
    const body = (await world.call(words.status, read)).body;
    return kind === 'consent' ? consentStatusOf(body) : transactionStatusOf(body);
  };
  return {
    start: (body: unknown, extra?: Record<string, string>) => world.call(words.start, (c) => ops(c).start(body, h(extra))),
    update: (id: string, body: unknown, extra?: Record<string, string>) => world.call(words.update, (c) => ops(c).update(id, body, h(extra))),
    read: (id: string) => world.call(words.read, (c) => ops(c).read(id, h())),
    status,
  };
}

/** The authorisation id a link names (…/authorisations/{authorisationId}). */
function authorisationOfLink(href: string | undefined): string | undefined {
  if (!href) return undefined;
  // …/authorisations/{id}, …/cancellation-authorisations/{id}
  const m = /authorisations\/([^/?#]+)\/?(?:[?#].*)?$/.exec(href);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

/**
 * Starts the authorisation the TPP follows: explicitly where the bank's answer offers a start
 * link (POST …/authorisations, with the PSU's password for the embedded approach when the link
 * says so), else the one the bank started implicitly (its update or scaStatus link).
 */
async function startedAuthorisation(world: ConformanceWorld, resource: ScaResource, fn: 'ais' | 'pis', trail: ScaTrail, calls: ReturnType<typeof scaCalls>): Promise<{ id: string; authenticated?: ApiResult }> {
  const links = linksOf(resource.created.body, resource.created.exchange.url);
  const p = world.ctx.profile;
  const psu = { 'PSU-ID': p.psu.username };
  const withPassword = links.startAuthorisationWithPsuAuthentication;
  if (withPassword || links.startAuthorisation) {
    trail.explicit = true;
    const started = await calls.start(withPassword ? { psuData: { password: p.psu.password } } : undefined, psu);
    const id = authorisationIdOf(started.body) ?? authorisationOfLink(linkOf(started.body, 'scaStatus', started.exchange.url));
    if (started.status !== 201 || !id) throw world.blocked(fn === 'ais' ? 'AIS-01' : 'PIS-01', `the bank did not start the authorisation: ${describeAnswer(started)}`);
    judgeInto(trail, started, 'startScaprocessResponse');
    trail.sightings.push({ status: scaStatusOf(started.body), when: withPassword ? 'after the password (explicit start)' : 'at the explicit start', factorsDone: false });
    return { id, ...(withPassword ? { authenticated: started } : {}) };
  }
  const id = authorisationOfLink(links.updatePsuAuthentication ?? links.updatePsuIdentification ?? links.scaStatus);
  if (!id) throw world.blocked(fn === 'ais' ? 'AIS-01' : 'PIS-01', `the bank's answer carries no link to an authorisation (startAuthorisation*, updatePsu*, scaStatus) for the ${trail.approach} SCA: ${describeAnswer(resource.created)}`);
  return { id };
}

/**
 * The embedded SCA: the PSU's password (psuData), the SCA method (authenticationMethodId, the
 * profile's or the first the bank offers) and the one-time password (scaAuthenticationData; a
 * wrong one when the PSU rejects), each through the authorisation sub-resource; the scaStatus of
 * each answer and of a last read is kept for the SCA rules. Stops where the bank says final.
 */
async function embeddedSca(world: ConformanceWorld, resource: ScaResource, o: { reject?: boolean; fn: 'ais' | 'pis'; psu: ScaPsu; of?: ScaSubject }): Promise<void> {
  const p = world.ctx.profile;
  const calls = scaCalls(world, resource, o.fn, o.of);
  const trail: ScaTrail = { approach: 'embedded', authorisationId: '', explicit: false, sightings: [], schemaProblems: [] };
  resource.trail = trail;
  const { id, authenticated } = await startedAuthorisation(world, resource, o.fn, trail, calls);
  trail.authorisationId = id;
  const step = async (body: unknown, when: string, factorsDone: boolean, extra?: Record<string, string>): Promise<ApiResult> => {
    const r = await calls.update(id, body, extra);
    if (r.status !== 200 && r.status !== 201) throw world.blocked(undefined, `the bank refused ${when.replace(/^after /, '')} of the embedded SCA: ${describeAnswer(r)}`);
    // The file's answer is a oneOf of one body per kind of update: judged as the one for what was sent.
    judgeInto(trail, r, updateAnswerSchemaOf(body));
    const sighting: ScaSighting = { status: scaStatusOf(r.body), when, factorsDone };
    // The moment the bank says finalised, the consent or payment must say so too.
    if (sighting.status === 'finalised' && !trail.sightings.some((x) => x.status === 'finalised')) sighting.resourceStatus = await calls.status();
    trail.sightings.push(sighting);
    return r;
  };
  let last = authenticated ?? await step({ psuData: { password: o.psu.password } }, 'after the password', false, { 'PSU-ID': o.psu.username });
  let status = scaStatusOf(last.body);
  if (status === 'psuAuthenticated') {
    const methods = Array.isArray((last.body as { scaMethods?: unknown })?.scaMethods) ? (last.body as { scaMethods: Array<{ authenticationMethodId?: unknown }> }).scaMethods : [];
    const method = p.sca?.authenticationMethodId ?? methods.map((m) => m?.authenticationMethodId).find((m): m is string => typeof m === 'string');
    if (!method) throw world.blocked(undefined, `the bank offered no SCA method (scaMethods) after the PSU's password: ${describeAnswer(last)}`);
    last = await step({ authenticationMethodId: method }, 'after choosing the SCA method', false);
    status = scaStatusOf(last.body);
  }
  if (status === 'scaMethodSelected') {
    // A rejection in the embedded approach: the PSU gives no valid second factor.
    const otp = o.reject ? `${p.sca!.otp!}0` : p.sca!.otp!;
    last = await step({ scaAuthenticationData: otp }, 'after the one-time password', true);
    status = scaStatusOf(last.body);
  }
  await finalReads(world, trail, calls);
}

/**
 * The decoupled SCA: the TPP reads the scaStatus before the PSU acts, then polls it while the PSU
 * approves (or rejects) on the bank's app page (the profile's sca.decoupledUrl, in the run's one
 * browser, walked by the profile's driver), until it is final; then reads it once more.
 */
async function decoupledSca(world: ConformanceWorld, resource: ScaResource, o: { reject?: boolean; fn: 'ais' | 'pis'; accounts?: AccountChoice; psu: ScaPsu; of?: ScaSubject }): Promise<void> {
  const ctx = world.ctx;
  const p = ctx.profile;
  const calls = scaCalls(world, resource, o.fn, o.of);
  const trail: ScaTrail = { approach: 'decoupled', authorisationId: '', explicit: false, sightings: [], schemaProblems: [] };
  resource.trail = trail;
  const { id } = await startedAuthorisation(world, resource, o.fn, trail, calls);
  trail.authorisationId = id;
  const sight = async (when: string, factorsDone: boolean | undefined): Promise<string | undefined> => {
    const r = await calls.read(id);
    const status = r.status === 200 ? scaStatusOf(r.body) : undefined;
    if (r.status !== 200) throw world.blocked(undefined, `the bank did not answer the SCA status: ${describeAnswer(r)}`);
    judgeInto(trail, r, 'scaStatusResponse');
    const before = trail.sightings.at(-1)?.status;
    if (status !== before || !trail.sightings.length) {
      const sighting: ScaSighting = { status, when, factorsDone };
      // The moment the bank says finalised, the consent or payment must say so too.
      if (status === 'finalised' && !trail.sightings.some((s) => s.status === 'finalised')) sighting.resourceStatus = await calls.status();
      trail.sightings.push(sighting);
    }
    return status;
  };
  await sight('before the PSU acted', false);
  const url = p.sca!.decoupledUrl!.split('{authorisationId}').join(encodeURIComponent(id));
  let journeyDone = false;
  // Each step of the PSU's on the bank's page (a step starts once the one before is done) wakes the poll.
  let acted = false;
  let wake: (() => void) | undefined;
  const journey = ctx.withJourneySlot(() => ctx.browser().journey(url, {
    onStep: () => {
      acted = true;
      wake?.();
    },
    redirectUri: p.auth.redirectUri,
    doneSelector: p.sca?.decoupledDoneSelector ?? '[data-testid="sca-done"]',
    driver: p.psu.driver,
    username: o.psu.username,
    password: o.psu.password,
    reject: o.reject,
    accounts: o.accounts ?? { pick: 'all' },
    stepTimeoutMs: p.timeouts.browserStepMs,
    totalTimeoutMs: p.timeouts.authorisationMs,
    evidenceDir: ctx.params.evidenceDir,
    urlName: 'sca.decoupledUrl',
    trust: { caPem: p.mtls?.ca, insecure: p.tls.insecure },
  }), journeyPriority(world)).finally(() => (journeyDone = true));
  journey.catch(() => undefined);
  // The TPP polls while the PSU is at it; the poll ends once the PSU is done and the status is final.
  // NextGenPSD2 gives the scaStatus no Retry-After. The PSU's page is the TPP's to watch here, so
  // the TPP reads soon after each thing the PSU did (a step of the page done, the decision) and,
  // in between, after a pause that starts short and doubles up to a second, bounded by the
  // profile's time-out: the reads follow the PSU and the bank, and a quiet spell costs few.
  const deadline = Date.now() + p.timeouts.authorisationMs;
  // Once final is final: what the bank says after that is SCA-01's to judge, not a reason to poll on.
  const wasFinal = () => trail.sightings.some((x) => FINAL_SCA.has(x.status ?? ''));
  const decided = journey.then(() => undefined, () => undefined);
  let pause = FIRST_POLL_MS;
  while (Date.now() < deadline) {
    const done = journeyDone;
    acted = false;
    await sight(done ? 'after the PSU decided' : 'polling while the PSU approves', done ? true : undefined);
    if (done && wasFinal()) break;
    if (!acted && !(journeyDone && !done)) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, Math.min(pause, deadline - Date.now()))))),
        ...(journeyDone ? [] : [decided, new Promise<void>((r) => (wake = r))]),
      ]);
      wake = undefined;
      clearTimeout(timer);
    }
    // The PSU did something (or decided) since the last read: the next pause is short again.
    pause = acted || journeyDone !== done ? FIRST_POLL_MS : Math.min(2 * pause, MAX_POLL_MS);
  }
  try {
    const result = await journey;
    resource.selected = [...result.selectedAccounts];
    resource.offered = result.offeredAccounts.map((a) => a.id);
  } catch (error) {
    throw world.blocked(undefined, `the PSU's decoupled approval could not be completed: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!wasFinal()) throw world.blocked('SCA-01', `the authorisation's scaStatus was still ${trail.sightings.at(-1)?.status ?? 'unreadable'} ${p.timeouts.authorisationMs} ms after the PSU decided`);
  await finalReads(world, trail, calls);
}

/** Two more reads of a final scaStatus: a final status stays (SCA-01). */
async function finalReads(world: ConformanceWorld, trail: ScaTrail, calls: ReturnType<typeof scaCalls>): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const r = await calls.read(trail.authorisationId);
    if (r.status === 200) judgeInto(trail, r, 'scaStatusResponse');
    trail.sightings.push({ status: r.status === 200 ? scaStatusOf(r.body) : `(HTTP ${r.status})`, when: 'read again once final', factorsDone: true });
  }
}

/** Headers of a data call under a consent: Consent-ID, and PSU-IP-Address unless the PSU is absent. */
export function dataOptions(world: ConformanceWorld, consent: Pick<BgConsent, 'id' | 'token'> | undefined, o: { withoutPsu?: boolean; consentId?: string | null; token?: string } = {}): CallOptions {
  const consentId = o.consentId === null ? undefined : (o.consentId ?? consent?.id);
  return plain(world, bgHeaders({ ...(consentId ? { consentId } : {}), ...(o.withoutPsu ? {} : { psuIpAddress: psuIp(world) }) }), o.token ?? consent?.token);
}

/** The scenario's consent, which an earlier step made. */
export function theConsent(world: ConformanceWorld): BgConsent {
  const c = bg(world).consent ?? bg(world).full;
  if (!c) throw new Error('no NextGenPSD2 consent was made before this step');
  return c;
}

/**
 * How many recurring consents this run has had the PSU authorise, and the full consent made after
 * the last of them, per variant. POST /v1/consents ("Side Effects"): once a new recurring consent
 * is authorised, the PSU's former recurring consent expires; a full consent made before another
 * recurring consent was authorised is no longer valid, and a scenario must not blame the bank for
 * that. Kept per run (worker): scenarios of one worker run one after another.
 */
interface RecurringLedger {
  authorised: number;
  full: Map<Variant, { after: number; made: Promise<BgFullConsent> }>;
  /** The recurring consent each sharing Given made last, by variant and Given ({@link sharedRecurring}). */
  shared: Map<string, { after: number; consent: BgConsent }>;
}
const ledgers = new WeakMap<RunContext, RecurringLedger>();

function ledger(ctx: RunContext): RecurringLedger {
  let l = ledgers.get(ctx);
  if (!l) ledgers.set(ctx, (l = { authorised: 0, full: new Map(), shared: new Map() }));
  return l;
}

/** Notes that the PSU authorised a recurring consent: every full consent made before is expired. */
export function recurringAuthorised(ctx: RunContext): void {
  ledger(ctx).authorised++;
}

/**
 * The PSU's full consent (every account, with balances and transactions), with the accounts it
 * opens: valid when used. It is shared by the scenarios that only read through it until another
 * recurring consent is authorised; then the next scenario gets a new one. `accountsOnly`: the
 * scenario reads only the accounts' identifiers (an IBAN to name), not data under the consent, so
 * any full consent of the run will do.
 */
export function fullConsent(world: ConformanceWorld, o: { accountsOnly?: boolean } = {}): Promise<BgFullConsent> {
  const ctx: RunContext = world.ctx;
  const l = ledger(ctx);
  const known = l.full.get(world.variant);
  if (known && (o.accountsOnly || known.after === l.authorised)) return known.made;
  const entry = { after: Number.NaN, made: Promise.resolve() as unknown as Promise<BgFullConsent> };
  entry.made = (async () => {
    const setup = ConformanceWorld.forSetup(ctx, world.variant, world.parameters, world.ruleId);
    try {
      const consent = await consentThroughSca(setup, consentRequest(bankOffered({ balances: true, transactions: true })), { accounts: { pick: 'all' } });
      const list = await setup.call('listing the accounts', (c) => c.listAccounts(dataOptions(setup, consent)));
      if (list.status !== 200) throw setup.blocked('AIS-05', `the PSU's full consent opens no account list: ${describeAnswer(list)}`);
      const accounts = accountsOf(list.body).filter((a) => typeof a.resourceId === 'string')
        .map((a) => ({ resourceId: a.resourceId as string, ...(typeof a.iban === 'string' ? { iban: a.iban } : {}), ...(typeof a.currency === 'string' ? { currency: a.currency } : {}) }));
      if (!accounts.length) throw setup.blocked('AIS-04', 'the PSU\'s full consent lists no account with a resourceId');
      return { ...consent, accounts };
    } finally {
      // A set-up that failed fails each scenario that needs it, with the same evidence, until a
      // new recurring consent gives a reason to try again.
      entry.after = l.authorised;
    }
  })();
  entry.made.catch(() => undefined);
  l.full.set(world.variant, entry);
  return entry.made;
}

/** Consents a scenario deleted (DELETE /v1/consents/{consentId} sent): no later scenario shares them. */
export const deletedConsents = new WeakSet<BgConsent>();

/**
 * A consent another scenario made, as this scenario's own: the current consent, its creation in
 * this scenario's evidence.
 */
function adoptConsent(world: ConformanceWorld, consent: BgConsent): BgConsent {
  const state = bg(world);
  state.askedValidUntil = consent.request.validUntil;
  state.consent = consent;
  if (!state.consents.includes(consent)) state.consents.push(consent);
  if (!world.exchanges.includes(consent.created.exchange)) world.exchanges.push(consent.created.exchange);
  return consent;
}

/**
 * A recurring consent through the PSU's SCA, shared by the scenarios that ask for it by the same
 * Given (`name`) for as long as the standard keeps it as it was: until the PSU authorises another
 * recurring consent (which expires it: POST /v1/consents, "Side Effects") or a scenario deletes it.
 * The scenarios that share it read through it (its status, its accounts, their data); a scenario
 * that deletes it takes it too, and the next one gets a new one.
 */
export async function sharedRecurring(world: ConformanceWorld, name: string, request: () => ConsentRequestBody, o: { accounts: AccountChoice }): Promise<BgConsent> {
  const l = ledger(world.ctx);
  const key = `${world.variant}:${name}`;
  const known = l.shared.get(key);
  if (known && known.after === l.authorised && !deletedConsents.has(known.consent)) return adoptConsent(world, known.consent);
  const consent = await consentThroughSca(world, request(), o);
  if (consent.request.recurringIndicator) l.shared.set(key, { after: l.authorised, consent });
  return consent;
}

/**
 * A consent the PSU rejected, one per run and variant for every scenario that asks for one
 * (`make` on a set-up world of its own): a rejected consent stays as it is (no SCA, access or
 * expiry moves it), so each scenario judges it as it would its own.
 */
export async function sharedRejected(world: ConformanceWorld, make: (setup: ConformanceWorld) => Promise<BgConsent>): Promise<BgConsent> {
  const made = world.ctx.shared(`${world.variant}:bg:rejected`, async () => {
    const setup = ConformanceWorld.forSetup(world.ctx, world.variant, world.parameters, world.ruleId);
    if (preparedAhead.has(world)) preparedAhead.add(setup);
    const exchanges: Exchange[] = [];
    const stop = setup.lane.record(exchanges);
    try {
      return { consent: await make(setup), exchanges };
    } catch (error) {
      throw Object.assign(error as object, { exchanges });
    } finally {
      stop();
    }
  });
  const evidence = (exchanges: Exchange[] = []) => {
    for (const ex of exchanges) if (!world.exchanges.includes(ex)) world.exchanges.push(ex);
  };
  try {
    const { consent, exchanges } = await made;
    evidence(exchanges);
    return adoptConsent(world, consent);
  } catch (error) {
    evidence((error as { exchanges?: Exchange[] }).exchanges);
    // A verdict met while making it is each sharing scenario's, under its own rule.
    if (error instanceof Error && error.name === 'RuleViolation') throw world.violation(error.message.replace(/^[A-Z]{2,5}-\d{2,3}: /, ''));
    throw error;
  }
}

/**
 * The link the bank must give to start the PSU's SCA in the approach it announced
 * (`ASPSP-SCA-Approach`, else the one the TPP asked for): `scaRedirect` for REDIRECT, `scaOAuth`
 * for OAUTH, or, when the bank wants an explicit start, a `startAuthorisation…` link. Undefined
 * when the answer has one, or when the approach is one that needs no such link (embedded,
 * decoupled); else what is missing.
 */
export function missingScaLink(created: ApiResult, asked: string): string | undefined {
  const announced = String(created.headers['aspsp-sca-approach'] ?? '').trim().toUpperCase();
  const approach = (announced || asked).toLowerCase();
  // Embedded and decoupled SCA go on through the authorisation sub-resource: no link to open.
  if (approach !== 'redirect' && approach !== 'oauth') return undefined;
  const links = Object.keys(linksOf(created.body));
  if (links.some((l) => l.startsWith('startAuthorisation'))) return undefined;
  const needed = approach === 'redirect' ? 'scaRedirect' : 'scaOAuth';
  if (links.includes(needed)) return undefined;
  // The file subsumes OAuth2 under REDIRECT: a REDIRECT answer may give the scaOAuth link instead.
  if (approach === 'redirect' && links.includes('scaOAuth')) return undefined;
  return `the ${approach === 'redirect' ? 'redirect' : 'OAuth2'} SCA approach${announced ? ` the bank announced (ASPSP-SCA-Approach ${announced})` : ''} needs _links.${needed} (or a startAuthorisation link for an explicit start), and the answer has ${links.length ? `only ${links.join(', ')}` : 'no link'}`;
}

/** Fails the creating rule (MUST) when the answer gives no way to start the PSU's SCA. */
export function expectScaLink(world: ConformanceWorld, created: ApiResult, asked: string, what: string): void {
  const missing = missingScaLink(created, asked);
  if (missing) throw world.violation(`the bank created the ${what} but gave no way to start the PSU's SCA: ${missing} (${describeAnswer(created)})`);
}

/** The consent's own URL (`{base}/v1/consents/{consentId}`). */
export function consentUrl(world: ConformanceWorld, consentId: string): string {
  return world.client.baseUrlOf('ais') + world.client.pathOf('getAccountAccessConsent', { consentId });
}

function line(p: { path: string; message: string }): string {
  return p.message.startsWith(p.path) ? p.message : `${p.path}: ${p.message}`;
}

/** A judgement of the dialect as lines: MUST problems fail, SHOULD ones warn. */
function lines(j: ReturnType<typeof judgeBg>): BodyJudgement {
  return { must: j.must.map(line), should: j.should.map((p) => ({ text: line(p), source: (p as { source?: string }).source })) };
}

/** Judges an answer's body against a NextGenPSD2 schema: MUST problems fail the rule, SHOULD ones are its warnings. */
export function expectBgSchema(world: ConformanceWorld, r: ApiResult, schema: BgSchemaName): void {
  const type = r.headers['content-type'];
  if (r.json && (!type || !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type))) {
    throw world.violation(`the body of ${describeAnswer(r)} is not a valid ${schema}: it must come with Content-Type application/json`);
  }
  judged(world, `the body of ${describeAnswer(r)} as ${schema}`, `is not a valid ${schema}`, lines(judgeBg(schema, r.json ? r.body : r.text.trim() ? r.text : undefined)), r);
}

/** Judges an error answer's body (tppMessages, or RFC 7807 for application/problem+json). */
export function expectBgError(world: ConformanceWorld, r: ApiResult): void {
  const type = r.headers['content-type'];
  const shape = /problem\+json/i.test(type ?? '') ? 'RFC 7807 problem' : 'tppMessages error body';
  judged(world, `the error body of ${describeAnswer(r)}`, `is not a valid ${shape}`, lines(judgeBgError(r.json ? r.body : r.text.trim() ? r.text : undefined, type, r.status)), r);
}

/**
 * A list of a resource's authorisations (`GET …/authorisations`, `…/cancellation-authorisations`):
 * 200, the file's `authorisations` schema, and every authorisation the TPP knows of among its
 * `authorisationIds` (named with its PSU where there are several). Returns the list as listed.
 */
export function expectAuthorisationsListed(world: ConformanceWorld, r: ApiResult, what: string, expected: ReadonlyArray<{ id: string; psu?: string }>): unknown {
  expectStatus(world, r, [200], `${what}: expected HTTP 200`);
  expectBgSchema(world, r, 'authorisations');
  const listed = (r.body as { authorisationIds?: unknown }).authorisationIds;
  const missing = expected.filter((a) => !Array.isArray(listed) || !listed.includes(a.id));
  if (missing.length) {
    const named = missing.map((a) => (a.psu ? `${a.psu} (${quote(a.id)})` : quote(a.id))).join(' and ');
    throw world.violation(`${what} lists ${quote(listed)}, without the authorisation${missing.length > 1 ? 's' : ''} ${missing.some((a) => a.psu) ? 'of ' : ''}${named} the TPP started`);
  }
  return listed;
}

function judged(world: ConformanceWorld, what: string, invalid: string, j: BodyJudgement, r: ApiResult): void {
  warn(world, what, j.should);
  if (j.must.length) throw violationWithProblems(world, `the body of ${describeAnswer(r)} ${invalid} (${j.must.length} problem${j.must.length === 1 ? '' : 's'}):`, j.must);
}
