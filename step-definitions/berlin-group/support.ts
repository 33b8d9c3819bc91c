/**
 * The berlin-group scenarios' own plumbing, on the shared world, judge and evidence machinery:
 * NextGenPSD2 requests (built by src/dialects/berlin-group, sent through the tpp client), the
 * PSU's SCA (the scaRedirect page in the one browser, or the authorisation server with the consent
 * in the scope), and the judging of bodies at two levels (MUST fails, SHOULD warns).
 */
import { randomUUID } from 'node:crypto';
import type { ApiResult, CallOptions, TppClient } from '../../src/client/operations.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { authorisationOps, type AuthorisationOps, type AuthorisedResource } from '../../src/session/berlin-group-authorisations.ts';
import { beginningOf, walkSca, type InAppApproach, type PollPace, type ScaCall, type ScaSeen } from '../../src/session/berlin-group-sca-walk.ts';
import { approachHeaders, postConsent as postBgConsent, type Approach } from '../../src/session/berlin-group-create.ts';
import { NotApplicableError, type Operation } from '../../src/client/operations.ts';
import type { AccountChoice, Variant } from '../../src/profile/types.ts';
import type { RunContext } from '../../src/conformance/context.ts';
import {
  accountsOf, bgHeaders, buildConsent, consentIdOf, consentStatusOf, isoDate, judgeBg, judgeBgError, linkOf, linksOf, scaStatusOf, transactionStatusOf,
  updateAnswerSchemaOf,
  type AccountAccess, type BgSchemaName, type ConsentRequestBody,
} from '../../src/dialects/berlin-group/index.ts';
import { AuthorisationError } from '../../src/errors.ts';
import { ConformanceWorld, NotJudgeable } from '../support/world.ts';
import { describeAnswer, expectStatus, quote, violationWithProblems, warn, type BodyJudgement } from '../support/judge.ts';

export type { Approach } from '../../src/session/berlin-group-create.ts';

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
 * The headers that ask the bank for an approach (the terminal client's, src/session/berlin-group-create.ts):
 * redirect with TPP-Redirect-URI; decoupled and embedded name the PSU and say the TPP prefers not
 * to be redirected (with `explicit`: to start the authorisation itself); OAuth2 asks nothing.
 */
export function scaHeaders(world: ConformanceWorld, approach: Approach, o: { explicit?: boolean } = {}): Record<string, string> {
  return approachHeaders(world.ctx.profile, approach, o);
}

/** A bank-offered access: the PSU ticks the accounts on the bank's page; balances and transactions as asked. */
export function bankOffered(what: { balances: boolean; transactions: boolean }): AccountAccess {
  return { accounts: [], ...(what.balances ? { balances: [] } : {}), ...(what.transactions ? { transactions: [] } : {}) } as AccountAccess;
}

/** A consent request valid for 30 days (recurring, 4 a day, unless told otherwise). */
export function consentRequest(access: AccountAccess, o: { recurringIndicator?: boolean; frequencyPerDay?: number } = {}): ConsentRequestBody {
  return buildConsent({ access, validUntil: isoDate(new Date(Date.now() + 30 * 86_400_000)), ...o });
}

/** POST /v1/consents with the headers of the approach (and an Accept header when given): the terminal client's create (src/session/berlin-group-create.ts). */
export async function postConsent(world: ConformanceWorld, body: unknown, approach: Approach, accept?: string, o: { explicit?: boolean; httpSignature?: CallOptions['httpSignature'] } = {}): Promise<ApiResult> {
  const requestId = randomUUID();
  bg(world).requestId = requestId;
  const call = o.httpSignature !== undefined ? { httpSignature: o.httpSignature } : undefined;
  return world.call('creating the consent', (c) => postBgConsent(c, world.ctx.profile, body, approach, { requestId, ...(accept ? { accept } : {}), explicit: o.explicit, ...(call ? { call } : {}) }));
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
  if (resource.approach === 'embedded' || resource.approach === 'decoupled') return inAppSca(world, resource, { reject: o.reject, fn, accounts: o.accounts, psu, of: o.of });
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

/** The decoupled SCA's polls of the scaStatus: the steps watch the PSU's page, so the pauses start short and stay short. */
const POLL_PACE: PollPace = { firstMs: 50, factor: 2, maxMs: 1_000 };

/**
 * What an authorisation authorises besides a consent or payment itself: a payment's cancellation
 * (`resource.id` the payment's; …/cancellation-authorisations) or a signing basket (the basket's).
 */
export type ScaSubject = 'cancellation' | 'basket';

/** What the steps call each authorisation's calls and the resource's status read, in the words of a failure. */
const SCA_WORDS: Readonly<Record<AuthorisedResource, { start: string; update: string; read: string; list: string; status: string }>> = {
  cancellation: { start: 'starting the authorisation of the cancellation', update: 'sending the PSU\'s data for the cancellation', read: 'reading the cancellation\'s SCA status', list: 'listing the cancellation\'s authorisations', status: 'reading the payment\'s status' },
  basket: { start: 'starting the signing basket\'s authorisation', update: 'sending the PSU\'s data for the signing basket', read: 'reading the signing basket\'s SCA status', list: 'listing the signing basket\'s authorisations', status: 'reading the signing basket\'s status' },
  consent: { start: 'starting the consent\'s authorisation', update: 'sending the PSU\'s data', read: 'reading the SCA status', list: 'listing the consent\'s authorisations', status: 'reading the consent\'s status' },
  payment: { start: 'starting the payment\'s authorisation', update: 'sending the PSU\'s data', read: 'reading the SCA status', list: 'listing the payment\'s authorisations', status: 'reading the payment\'s status' },
};

/**
 * The authorisation sub-resource of the resource's kind (the terminal client's,
 * src/session/berlin-group-authorisations.ts), each call through the world (its words, its
 * evidence, the last X-Request-ID), and the resource's status read.
 */
function scaCalls(world: ConformanceWorld, resource: ScaResource, fn: 'ais' | 'pis', of?: ScaSubject) {
  const h = (extra: Record<string, string> = {}) => plain(world, { ...bgHeaders({ psuIpAddress: psuIp(world) }), ...extra });
  const kind: AuthorisedResource = of ?? (fn === 'ais' ? 'consent' : 'payment');
  const words = SCA_WORDS[kind];
  const via = (c: TppClient) => authorisationOps(c, kind, resource.id);
  const noted = (o: CallOptions) => plain(world, o.headers ?? {}, o.token ?? undefined);
  const ops: AuthorisationOps = {
    start: (body, o) => world.call(words.start, (c) => via(c).start(body, noted(o))),
    update: (id, body, o) => world.call(words.update, (c) => via(c).update(id, body, noted(o))),
    read: (id, o) => world.call(words.read, (c) => via(c).read(id, noted(o))),
    list: (o) => world.call(words.list, (c) => via(c).list(noted(o))),
  };
  const status = async () => {
    const read = (c: TppClient) => (kind === 'basket' ? c.getSigningBasketStatus(resource.id, h()) : kind === 'consent' ? c.getConsentStatus(resource.id, h()) : c.getPaymentStatus(resource.id, h()));
    const body = (await world.call(words.status, read)).body;
    return kind === 'consent' ? consentStatusOf(body) : transactionStatusOf(body);
  };
  return { ops, read: (id: string) => ops.read(id, h()), status };
}

/**
 * The steps' judgement of each answer of the walk: a start the bank refused leaves the creating
 * rule not judged, as does an update or a read it refused; the answers it gave are kept with the
 * official schema's problems (the start as startScaprocessResponse, each PUT's answer as the body
 * for what it sent, each read as scaStatusResponse) for the rule that walks it.
 */
function judgeWalkAnswer(world: ConformanceWorld, trail: ScaTrail, creating: string, call: ScaCall, r: ApiResult): void {
  if (call.kind === 'start') {
    if (r.status !== 201) throw world.blocked(creating, `the bank did not start the authorisation: ${describeAnswer(r)}`);
    judgeInto(trail, r, 'startScaprocessResponse');
  } else if (call.kind === 'update') {
    if (r.status !== 200 && r.status !== 201) throw world.blocked(undefined, `the bank refused ${call.when.replace(/^after /, '')} of the embedded SCA: ${describeAnswer(r)}`);
    // The file's answer is a oneOf of one body per kind of update: judged as the one for what was sent.
    judgeInto(trail, r, updateAnswerSchemaOf(call.body));
  } else {
    if (r.status !== 200) throw world.blocked(undefined, `the bank did not answer the SCA status: ${describeAnswer(r)}`);
    judgeInto(trail, r, 'scaStatusResponse');
  }
}

/**
 * Keeps a scaStatus the walk saw in the trail: every answer to the PSU's data, and each poll that
 * reads another status than the last kept. The moment the bank says finalised, the consent or
 * payment must say so too: its status is read then.
 */
async function keepSighting(trail: ScaTrail, seen: ScaSeen, status: () => Promise<string | undefined>): Promise<void> {
  if (seen.kind === 'poll' && trail.sightings.length && seen.status === trail.sightings.at(-1)!.status) return;
  const sighting: ScaSighting = { status: seen.status, when: seen.when, factorsDone: seen.factorsDone };
  if (seen.kind !== 'start' && seen.status === 'finalised' && !trail.sightings.some((x) => x.status === 'finalised')) sighting.resourceStatus = await status();
  trail.sightings.push(sighting);
}

/**
 * The decoupled or embedded SCA, by the one walk the terminal client walks too
 * (src/session/berlin-group-sca-walk.ts), begun where the created resource's answer says: the
 * embedded approach's password, SCA method and one-time password (a wrong one when the PSU
 * rejects), or the decoupled approach's PSU on the bank's app page (the profile's
 * sca.decoupledUrl, in the run's one browser) while the TPP polls the scaStatus. Every scaStatus
 * the walk saw is kept in the resource's trail for the SCA rules; then it is read twice more.
 */
async function inAppSca(world: ConformanceWorld, resource: ScaResource, o: { reject?: boolean; fn: 'ais' | 'pis'; accounts?: AccountChoice; psu: ScaPsu; of?: ScaSubject }): Promise<void> {
  const p = world.ctx.profile;
  const approach = resource.approach as InAppApproach;
  const creating = o.fn === 'ais' ? 'AIS-01' : 'PIS-01';
  const calls = scaCalls(world, resource, o.fn, o.of);
  const trail: ScaTrail = { approach, authorisationId: '', explicit: false, sightings: [], schemaProblems: [] };
  resource.trail = trail;
  const beginning = beginningOf(resource.created.body, resource.created.exchange.url);
  if (!beginning) throw world.blocked(creating, `the bank's answer carries no link to an authorisation (startAuthorisation*, updatePsu*, scaStatus) for the ${approach} SCA: ${describeAnswer(resource.created)}`);
  let journey: Promise<PsuJourneyOutcome> | undefined;
  const walked = await walkSca({
    approach, ops: calls.ops, beginning,
    psu: { id: o.psu.username, ipAddress: psuIp(world) },
    // A rejection in the embedded approach: the PSU gives no valid second factor.
    secrets: { password: async () => o.psu.password, otp: async () => (o.reject ? `${p.sca!.otp!}0` : p.sca!.otp!) },
    ...(p.sca?.authenticationMethodId ? { method: p.sca.authenticationMethodId } : {}),
    decoupled: {
      timeoutMs: p.timeouts.authorisationMs,
      pace: POLL_PACE,
      watch: async (id, acted) => {
        let done = false;
        journey = decoupledJourney(world, id, o, acted).finally(() => (done = true));
        journey.catch(() => undefined);
        return { done: () => done, decided: journey.then(() => undefined, () => undefined) };
      },
    },
    hooks: {
      begun: (id, explicit) => {
        trail.authorisationId = id;
        trail.explicit = explicit;
      },
      answered: (call, r) => judgeWalkAnswer(world, trail, creating, call, r),
      sighted: (seen) => keepSighting(trail, seen, calls.status),
      stop: (why, r) => (why === 'no-authorisation-id'
        ? world.blocked(creating, `the bank did not start the authorisation: ${describeAnswer(r)}`)
        : world.blocked(undefined, `the bank offered no SCA method (scaMethods) after the PSU's password: ${describeAnswer(r)}`)),
    },
  });
  if (journey) {
    try {
      const result = await journey;
      resource.selected = [...result.selectedAccounts];
      resource.offered = result.offeredAccounts.map((a) => a.id);
    } catch (error) {
      throw world.blocked(undefined, `the PSU's decoupled approval could not be completed: ${(error as Error).message.split('\n')[0]}`);
    }
    if (!walked.final) throw world.blocked('SCA-01', `the authorisation's scaStatus was still ${trail.sightings.at(-1)?.status ?? 'unreadable'} ${p.timeouts.authorisationMs} ms after the PSU decided`);
  }
  await finalReads(world, trail, calls);
}

/** What the PSU's journey on a bank page gave: the accounts ticked, and those offered. */
type PsuJourneyOutcome = { selectedAccounts: readonly string[]; offeredAccounts: ReadonlyArray<{ id: string }> };

/** The PSU approves (or rejects) a decoupled authorisation on the bank's app page, in the run's one browser, walked by the profile's driver; each step of theirs calls `acted`. */
function decoupledJourney(world: ConformanceWorld, authorisationId: string, o: { reject?: boolean; accounts?: AccountChoice; psu: ScaPsu }, acted: () => void): Promise<PsuJourneyOutcome> {
  const ctx = world.ctx;
  const p = ctx.profile;
  const url = p.sca!.decoupledUrl!.split('{authorisationId}').join(encodeURIComponent(authorisationId));
  return ctx.withJourneySlot(() => ctx.browser().journey(url, {
    onStep: acted,
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
  }), journeyPriority(world));
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
