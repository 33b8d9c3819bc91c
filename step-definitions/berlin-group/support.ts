/**
 * The berlin-group scenarios' own plumbing, on the shared world, judge and evidence machinery:
 * NextGenPSD2 requests (built by src/dialects/berlin-group, sent through the tpp client), the
 * PSU's SCA (the scaRedirect page in the one browser, or the authorisation server with the consent
 * in the scope), and the judging of bodies at two levels (MUST fails, SHOULD warns).
 */
import { randomUUID } from 'node:crypto';
import type { ApiResult, CallOptions } from '../../src/client/operations.ts';
import { NotApplicableError, type Operation } from '../../src/client/operations.ts';
import type { AccountChoice, Variant } from '../../src/profile/types.ts';
import type { RunContext } from '../../src/conformance/context.ts';
import {
  accountsOf, bgHeaders, buildConsent, consentIdOf, isoDate, judgeBg, judgeBgError, linkOf, linksOf,
  type AccountAccess, type BgSchemaName, type ConsentRequestBody,
} from '../../src/dialects/berlin-group/index.ts';
import { AuthorisationError } from '../../src/errors.ts';
import { ConformanceWorld, NotJudgeable } from '../support/world.ts';
import { describeAnswer, violationWithProblems, warn, type BodyJudgement } from '../support/judge.ts';

export type Approach = 'redirect' | 'oauth';

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
  payment?: { id: string; created: ApiResult; approach: Approach };
  /** The X-Request-ID of the last request. */
  requestId?: string;
  /** The validUntil the last consent asked for. */
  askedValidUntil?: string;
}

const states = new WeakMap<ConformanceWorld, BgState>();

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

/** The approach the TPP asks for: the profile's first of redirect and oauth, unless a scenario needs one. */
export function approachOf(world: ConformanceWorld, wanted?: Approach): Approach {
  const offered = (world.ctx.profile.sca?.approaches ?? ['redirect']).filter((a): a is Approach => a === 'redirect' || a === 'oauth');
  if (wanted) {
    if (!offered.includes(wanted)) throw new BgNotApplicable('createAccountAccessConsent', world.variant, `the profile's sca.approaches does not offer ${wanted === 'oauth' ? 'the OAuth2 SCA approach' : 'the redirect SCA approach'}`);
    return wanted;
  }
  if (!offered.length) throw new BgNotApplicable('createAccountAccessConsent', world.variant, 'obtpp speaks the redirect and oauth SCA approaches only, and the profile offers neither');
  return offered[0]!;
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
export async function postConsent(world: ConformanceWorld, body: unknown, approach: Approach, accept?: string): Promise<ApiResult> {
  const p = world.ctx.profile;
  const headers = bgHeaders({
    requestId: randomUUID(),
    psuIpAddress: psuIp(world),
    ...(approach === 'redirect' ? { tppRedirectUri: p.auth.redirectUri, tppRedirectPreferred: true } : {}),
  });
  return world.call('creating the consent', (c) => c.createAccountAccessConsent(body, plain(world, headers, undefined, accept)));
}

/**
 * A consent created and taken through the PSU's SCA (approve or reject). A bank that does not
 * create it, or whose SCA cannot be walked, leaves the scenario not judged, blocked by AIS-01.
 */
export async function consentThroughSca(world: ConformanceWorld, request: ConsentRequestBody, o: { approach?: Approach; accounts?: AccountChoice; reject?: boolean; authorise?: boolean } = {}): Promise<BgConsent> {
  const approach = approachOf(world, o.approach);
  bg(world).askedValidUntil = request.validUntil;
  const created = await postConsent(world, request, approach);
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

/** The PSU's SCA of a consent or payment: by the scaRedirect page, or the authorisation server with the intent in the scope. */
export async function sca(world: ConformanceWorld, resource: { id: string; created: ApiResult; approach: Approach; token?: string; selected?: string[]; offered?: string[] }, o: { accounts?: AccountChoice; reject?: boolean; fn?: 'ais' | 'pis' } = {}): Promise<void> {
  const ctx = world.ctx;
  const fn = o.fn ?? 'ais';
  try {
    if (resource.approach === 'oauth') {
      const result = await ctx.authorise(world.lane, resource.id, fn, { accounts: o.accounts ?? { pick: 'all' }, reject: o.reject });
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
      username: p.psu.username,
      password: p.psu.password,
      reject: o.reject,
      accounts: o.accounts ?? { pick: 'all' },
      stepTimeoutMs: p.timeouts.browserStepMs,
      totalTimeoutMs: p.timeouts.authorisationMs,
      evidenceDir: ctx.params.evidenceDir,
      urlName: 'scaRedirect',
      trust: { caPem: p.mtls?.ca, insecure: p.tls.insecure },
    })), 2).then((j) => (noted(o.reject ? 'rejected' : 'authorised'), j), (e: unknown) => {
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
}
const ledgers = new WeakMap<RunContext, RecurringLedger>();

function ledger(ctx: RunContext): RecurringLedger {
  let l = ledgers.get(ctx);
  if (!l) ledgers.set(ctx, (l = { authorised: 0, full: new Map() }));
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

function judged(world: ConformanceWorld, what: string, invalid: string, j: BodyJudgement, r: ApiResult): void {
  warn(world, what, j.should);
  if (j.must.length) throw violationWithProblems(world, `the body of ${describeAnswer(r)} ${invalid} (${j.must.length} problem${j.must.length === 1 ? '' : 's'}):`, j.must);
}
