import { randomUUID } from 'node:crypto';
import {
  buildAccountAccessConsent, buildFundsConsent, buildFundsConfirmation, buildPaymentConsent, isoDateTime,
  consentIdOf, accountsOf, balancesOf,
} from '../../src/dialects/obie/index.ts';
import type { AccountChoice, Fn } from '../../src/profile/types.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { AuthorisationError } from '../../src/errors.ts';
import { outlived } from '../../src/conformance/context.ts';
import { NotJudgeable, UnusableAnswer, type ConformanceWorld, type ConsentRecord, type AccountInfo, type Expiring } from './world.ts';
import { describeAnswer, versionOfWorld } from './judge.ts';

/** The rule that covers creating each function's consent: its failure blocks the scenarios that need one. */
const CREATE_RULE: Record<Fn, string> = { ais: 'AIS-01', cof: 'COF-01', pis: 'PIS-01' };
/** The rule that covers the PSU's authorisation of each function's consent. */
const AUTHORISE_RULE: Record<Fn, string> = { ais: 'SEC-01', cof: 'COF-02', pis: 'PIS-02' };
/** The standard's ISO 4217 code shape; a request never carries a currency that does not match it. */
const CURRENCY = /^[A-Z]{3}$/;
/** The currency of a request when the bank's account names none (the UK standard's home currency). */
export const DEFAULT_CURRENCY = 'GBP';

const DAY = 86_400_000;

/** Every permission of the accounts, balances and transactions clusters (Basic with Detail is allowed). */
export const FULL_PERMISSIONS = [
  'ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances',
  'ReadTransactionsBasic', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits',
];

export function splitList(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter(Boolean);
}

export function startOfDayUtc(daysAgo: number): Date {
  const d = new Date(Date.now() - daysAgo * DAY);
  d.setUTCHours(0, 0, 0, 0);
  return d;
}

export function aisBody(permissions: string[], o: { expiresInMs?: number; fromDaysAgo?: number; toDaysAgo?: number } = {}) {
  return buildAccountAccessConsent({
    permissions,
    expirationDateTime: isoDateTime(new Date(Date.now() + (o.expiresInMs ?? 30 * DAY))),
    transactionFromDateTime: isoDateTime(startOfDayUtc(o.fromDaysAgo ?? 400)),
    transactionToDateTime: o.toDaysAgo === undefined || o.toDaysAgo === 0 ? isoDateTime(new Date()) : isoDateTime(startOfDayUtc(o.toDaysAgo)),
  });
}

/** Creates a consent with a client-credentials token, demanding 201 and a ConsentId (set-up, not judged). */
export async function createConsent(world: ConformanceWorld, fn: Fn, body: unknown): Promise<ConsentRecord> {
  const token = await world.ccToken(fn);
  const what = fn === 'ais' ? 'creating the account-access consent' : fn === 'cof' ? 'creating the funds-confirmation consent' : 'creating the payment-order consent';
  const created = await world.call(what, (c) =>
    fn === 'ais' ? c.createAccountAccessConsent(body, { token }) : fn === 'cof' ? c.createFundsConsent(body, { token }) : c.createPaymentConsent(body, { token }),
  );
  const id = consentIdOf(created.body);
  if (created.status >= 300 || !id) {
    throw world.blocked(CREATE_RULE[fn], `${what} (a set-up of this scenario) failed: ${describeAnswer(created)}`);
  }
  return { fn, id, created, request: body };
}

/** The PSU's journey; a journey that fails is a verdict of this scenario, with the page as evidence. */
export async function authoriseConsent(world: ConformanceWorld, record: ConsentRecord, options: { accounts?: AccountChoice; debtor?: string; slotHeld?: boolean; priority?: number; expiresAtMs?: number } = {}): Promise<ConsentRecord> {
  try {
    // A set-up prepared ahead yields to the journeys a running scenario waits for.
    const outcome = await world.ctx.authorise(world.lane, record.id, record.fn, { priority: world.lane === world.ctx.main ? 2 : 3, ...options });
    world.outcome = outcome;
    if (outcome.outcome !== 'authorised') {
      throw world.violation(`the PSU approved the consent ${record.id}, but the bank answered ${outcome.outcome === 'denied' ? `the error ${outcome.error}` : outcome.outcome}`);
    }
    record.tokens = outcome.tokens;
    record.journey = outcome;
    return record;
  } catch (error) {
    if (error instanceof AuthorisationError) {
      if (error.evidence?.screenshot) world.screenshots.push(error.evidence.screenshot);
      const where = error.evidence?.url ? ` (page ${error.evidence.url})` : '';
      const violation = world.violation(`the PSU's authorisation of consent ${record.id} failed: ${error.message}${where}`);
      // A shared set-up's journey fails every scenario that reuses it: each carries the screenshot.
      if (error.evidence?.screenshot) (violation as { screenshots?: string[] }).screenshots = [error.evidence.screenshot];
      throw violation;
    }
    throw error;
  }
}

/** The access token of an authorised consent. */
export function tokenOf(record: ConsentRecord): string {
  if (!record.tokens) throw new Error(`consent ${record.id} was not authorised`);
  return record.tokens.accessToken;
}

/**
 * An AIS consent authorised by the PSU, shared by every scenario of the run that asks for the same
 * name (same permissions, same accounts, same period): a rule that needs a consent of its own asks
 * for one by a name no other scenario uses.
 */
export async function sharedAis(world: ConformanceWorld, name: string, permissions: string[], o: { accounts: 'all' | 'first'; fromDaysAgo?: number; toDaysAgo?: number; current?: boolean }): Promise<ConsentRecord> {
  const key = `${world.variant}:ais:${name}:${permissions.join(',')}:${o.accounts}:${o.fromDaysAgo ?? ''}:${o.toDaysAgo ?? ''}`;
  const record = await sharedSetup(world, key, async () => {
    const consent = await createConsent(world, 'ais', aisBody(permissions, { expiresInMs: 2 * DAY, fromDaysAgo: o.fromDaysAgo, toDaysAgo: o.toDaysAgo }));
    // Everything else reads the PSU's accounts through the "full" consent: it goes first.
    return authoriseConsent(world, consent, { ...(o.accounts === 'first' ? { accounts: { pick: 'first' } as const } : {}), ...(name === 'full' ? { priority: 1 } : {}) });
  }, AUTHORISE_RULE.ais);
  world.consents.set(name, record);
  if (o.current !== false) world.consent = record;
  return record;
}

/**
 * A shared set-up's outcome in the scenario that uses it: its exchanges (and a PSU journey's
 * screenshot) become this scenario's evidence; its failure is this scenario's missing precondition
 * (NotJudgeable, naming the rule that blocked it), never this scenario's verdict on its own rule.
 */
export async function reuse<T>(world: ConformanceWorld, p: Promise<T>): Promise<T> {
  try {
    const value = await p;
    addEvidence(world, (value as { setupExchanges?: Exchange[] } | undefined)?.setupExchanges);
    return value;
  } catch (error) {
    addEvidence(world, (error as { exchanges?: Exchange[] }).exchanges);
    const screenshots = (error as { screenshots?: string[] }).screenshots ?? [];
    for (const shot of screenshots) if (!world.screenshots.includes(shot)) world.screenshots.push(shot);
    throw error;
  }
}

/** A RuleViolation raised while preparing a precondition becomes that precondition's absence. */
function asBlocked(error: unknown, blockedBy: string | undefined): unknown {
  if (!(error instanceof Error) || error.name !== 'RuleViolation') return error;
  // A violation's line breaks are obtpp's own (its constructor escaped the bank's): kept as lines.
  const blocked = new NotJudgeable(error.message.replace(/^[A-Z]{3}-\d{2}: /, '').split('\n'), blockedBy);
  blocked.screenshots = (error as { screenshots?: string[] }).screenshots;
  return blocked;
}

/** Runs a precondition's calls in a scenario: a bank that fails them blocks the scenario (blockedBy). */
export async function precondition<T>(blockedBy: string | undefined, make: () => Promise<T>): Promise<T> {
  try {
    return await make();
  } catch (error) {
    throw asBlocked(error, blockedBy);
  }
}

function addEvidence(world: ConformanceWorld, exchanges: Exchange[] | undefined): void {
  for (const ex of exchanges ?? []) if (!world.exchanges.includes(ex)) world.exchanges.push(ex);
}

/**
 * A set-up made once per run and key, by whichever world asks first (a scenario, or a stand-in
 * that starts it early); its exchanges are kept as the evidence of every scenario that uses it.
 */
export function sharedSetup<T extends object>(world: ConformanceWorld, key: string, make: () => Promise<T>, blockedBy?: string): Promise<T> {
  return reuse(world, world.ctx.shared(key, async () => {
    const sink: Exchange[] = [];
    const stop = world.lane.record(sink);
    try {
      const value = await make();
      if (!Array.isArray(value)) (value as { setupExchanges?: Exchange[] }).setupExchanges = sink;
      return value;
    } catch (caught) {
      const error = asBlocked(caught, blockedBy);
      if (error instanceof NotJudgeable) {
        // A copy per set-up: an inner set-up's failure is shared by all, its evidence is added to, not replaced.
        const lines = error.message.split('\n');
        const copy = error instanceof UnusableAnswer ? new UnusableAnswer(lines) : new NotJudgeable(lines, error.blockedBy);
        copy.exchanges = [...(error.exchanges ?? []), ...sink.filter((x) => !error.exchanges?.includes(x))];
        copy.screenshots = error.screenshots;
        throw copy;
      }
      if (error && typeof error === 'object') (error as { exchanges?: Exchange[] }).exchanges = sink;
      throw error;
    } finally {
      stop();
    }
  }));
}

/** The "full" consent; `current` makes it the scenario's consent (a Given step), else it only helps. */
export function fullConsent(world: ConformanceWorld, current = false): Promise<ConsentRecord> {
  return sharedAis(world, 'full', FULL_PERMISSIONS, { accounts: 'all', current });
}

/**
 * What is wrong with the shape of an account list, so that no account can be read from it
 * (`Data.Account is not an array (an object)`); undefined when the list can be read.
 */
export function accountListProblem(body: unknown): string | undefined {
  const data = (body as any)?.Data;
  if (!body || typeof body !== 'object') return 'the body is not a JSON object';
  if (!data || typeof data !== 'object' || Array.isArray(data)) return `Data is not an object (got ${shape(data)})`;
  if (data.Account === undefined) return 'Data.Account is missing';
  if (!Array.isArray(data.Account)) return `Data.Account is not an array (got ${shape(data.Account)})`;
  return undefined;
}

function shape(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v).slice(0, 40)}`;
}

/** The AccountIds an account list names (string, non-empty), read only from a list of the right shape. */
export function listedAccountIds(body: unknown): string[] {
  if (accountListProblem(body)) return [];
  return accountsOf(body).map((a: any) => a?.AccountId).filter((x: unknown): x is string => typeof x === 'string' && x !== '');
}

/**
 * Every AccountId that can be found in an account list, even a malformed one (`Data.Account` an
 * object): for AIS-11, which judges each resource it can reach.
 */
export function foundAccountIds(body: unknown): string[] {
  const account = (body as any)?.Data?.Account;
  const items = Array.isArray(account) ? account : account && typeof account === 'object' ? [account] : [];
  return [...new Set(items.map((a: any) => a?.AccountId).filter((x: unknown): x is string => typeof x === 'string' && x !== ''))];
}

/**
 * GET /accounts with a consent's token, once per consent; the first data call. An answer that names
 * no account is a missing precondition of the scenario, blocked by the rule that covers it.
 */
export async function accountIdsOf(world: ConformanceWorld, record: ConsentRecord): Promise<string[]> {
  if (record.accountIds?.length) return record.accountIds;
  const r = await precondition('AIS-05', () => world.call('listing the accounts', (c) => c.listAccounts({ token: tokenOf(record) })));
  if (r.status !== 200) throw world.blocked('AIS-05', `listing the accounts of consent ${record.id} failed: ${describeAnswer(r)}`);
  const problem = accountListProblem(r.body);
  if (problem) throw world.blocked('AIS-11', `GET /accounts of consent ${record.id}: ${problem}, so no AccountId can be read from it`);
  const ids = listedAccountIds(r.body);
  if (!ids.length) throw world.blocked('AIS-04', `GET /accounts of consent ${record.id} listed no account with an AccountId, although the PSU selected at least one`);
  record.accountIds = ids;
  return ids;
}

export async function firstAccountId(world: ConformanceWorld, record: ConsentRecord): Promise<string> {
  return (await accountIdsOf(world, record))[0]!;
}

const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= max;

/**
 * The PSU's accounts as the "full" consent shows them (identification needs ReadAccountsDetail).
 * Only well-formed values are kept: a request of the harness never carries a value it could not
 * check (an identification, scheme or name of the wrong shape is left out, not copied).
 */
export async function psuAccounts(world: ConformanceWorld): Promise<AccountInfo[]> {
  return sharedSetup(world, `${world.variant}:psu-accounts`, async () => {
    const full = await fullConsent(world);
    const r = await world.call('listing the accounts', (c) => c.listAccounts({ token: tokenOf(full) }));
    if (r.status !== 200) throw world.blocked('AIS-05', `listing the PSU's accounts (a set-up of this scenario) failed: ${describeAnswer(r)}`);
    const problem = accountListProblem(r.body);
    if (problem) throw world.blocked('AIS-11', `GET /accounts: ${problem}, so the PSU's accounts cannot be read from it`);
    const accounts = accountsOf(r.body).filter((a: any) => isText(a?.AccountId, 1000)).map((a: any): AccountInfo => {
      // An Account that is one object instead of the array the schema requires is AIS-11's failure;
      // its identification is still read when it is unambiguous, so the rules that need a debtor are judged.
      const wrongShape = a?.Account !== undefined && !Array.isArray(a.Account);
      const items = Array.isArray(a?.Account) ? a.Account : a?.Account && typeof a.Account === 'object' ? [a.Account] : [];
      const ident = items.find((x: any) => isText(x?.Identification, 256) && isText(x?.SchemeName, 40));
      return {
        ...(wrongShape ? { accountShape: `Data.Account[].Account is ${shape(a.Account)}, not an array` } : {}),
        accountId: a.AccountId,
        currency: a?.Currency,
        schemeName: ident?.SchemeName,
        identification: ident?.Identification,
        name: isText(ident?.Name, 350) ? ident.Name : isText(a?.Nickname, 70) ? a.Nickname : undefined,
      };
    });
    if (!accounts.length) throw world.blocked('AIS-04', 'GET /accounts of the "full" consent listed no account with an AccountId, although the PSU selected all of theirs');
    if (!full.accountIds?.length) full.accountIds = accounts.map((a) => a.accountId);
    return accounts;
  }, 'AIS-05');
}

/**
 * The PSU's first account that carries an identification (the debtor of funds and payment
 * consents). None is this bank's data giving nothing to judge with, not a failure: the standard
 * makes Account[] optional.
 */
export async function debtorAccount(world: ConformanceWorld): Promise<AccountInfo> {
  const accounts = await psuAccounts(world);
  const first = accounts.find((a) => a.identification && a.schemeName);
  if (!first) {
    // Say what is really wrong: accounts whose Account has the wrong shape are AIS-11's failure.
    const misshapen = accounts.filter((a) => a.accountShape);
    if (misshapen.length) {
      throw world.blocked('AIS-11', `the accounts' Account is not an array (AIS-11), and no identification can be read from it unambiguously (${misshapen.map((a) => `${a.accountId}: ${a.accountShape}`).join('; ')}), so no debtor account can be named`);
    }
    throw world.blocked(undefined, `no account of the PSU carries an identification (Data.Account[].Account[] with SchemeName and Identification) under ReadAccountsDetail, so no debtor account can be named (accounts listed: ${accounts.map((a) => a.accountId).join(', ')})`);
  }
  return first;
}

/** The PSU's accounts that can be named as a debtor, in the bank's order. */
export async function debtorAccounts(world: ConformanceWorld): Promise<AccountInfo[]> {
  const accounts = (await psuAccounts(world)).filter((a) => a.identification && a.schemeName);
  if (!accounts.length) await debtorAccount(world);
  return accounts;
}

/**
 * The currency of a request in an account's currency: the account's own when it is an ISO 4217
 * code, the standard's default when the account names none; a malformed one is never copied into a
 * request (the scenario is then not judged, blocked by AIS-11).
 */
export function currencyOf(world: ConformanceWorld, account: AccountInfo): string {
  if (account.currency === undefined) return DEFAULT_CURRENCY;
  if (typeof account.currency === 'string' && CURRENCY.test(account.currency)) return account.currency;
  throw world.blocked('AIS-11', `the account ${account.accountId} has Currency ${JSON.stringify(account.currency)}, not an ISO 4217 code (^[A-Z]{3}$), so no request in the account's currency can be made from it`);
}

/** The available balance of an account (signed), as AIS shows it: a precondition, blocked by AIS-03 or AIS-11. */
export async function availableBalance(world: ConformanceWorld, account: AccountInfo): Promise<{ amount: number; text: string; currency: string }> {
  const full = await fullConsent(world);
  const r = await precondition('AIS-03', () => world.call('reading the balances', (c) => c.getBalances(account.accountId, { token: tokenOf(full) })));
  if (r.status !== 200) throw world.blocked('AIS-03', `reading the balances of ${account.accountId} (a set-up of this scenario) failed: ${describeAnswer(r)}`);
  const balances = balancesOf(r.body) as any[];
  const order = ['InterimAvailable', 'ClosingAvailable', 'OpeningAvailable', 'ForwardAvailable', 'Expected', 'InterimBooked', 'ClosingBooked'];
  const chosen = order.map((t) => balances.find((b) => b?.Type === t)).find(Boolean) ?? balances[0];
  const text = chosen?.Amount?.Amount;
  if (typeof text !== 'string' || !/^\d{1,13}(\.\d{1,5})?$/.test(text)) {
    throw world.blocked('AIS-11', `the balances of ${account.accountId} carry no usable amount (Data.Balance[].Amount.Amount: got ${JSON.stringify(text)}), so the available balance is unknown`);
  }
  // A credit line marked Included is already part of the balance's amount (UK meaning): not added again.
  const amount = Number(text) * (chosen.CreditDebitIndicator === 'Debit' ? -1 : 1);
  const currency = typeof chosen.Amount.Currency === 'string' && CURRENCY.test(chosen.Amount.Currency) ? chosen.Amount.Currency : currencyOf(world, account);
  return { amount, text, currency };
}

export async function fundsConsentBody(world: ConformanceWorld, o: { expiresInMs?: number; noExpiration?: boolean; noDebtor?: boolean } = {}) {
  const first = o.noDebtor ? undefined : await debtorAccount(world);
  return buildFundsConsent({
    debtorAccount: first ? { schemeName: first.schemeName!, identification: first.identification!, name: first.name } : undefined,
    expirationDateTime: o.noExpiration ? undefined : isoDateTime(new Date(Date.now() + (o.expiresInMs ?? 30 * DAY))),
  });
}

/** A funds-confirmation consent authorised by the PSU, shared by name within the run. */
export async function sharedFunds(world: ConformanceWorld, name: string): Promise<ConsentRecord> {
  const record = await sharedSetup(world, `${world.variant}:cof:${name}`, async () => {
    const consent = await createConsent(world, 'cof', await fundsConsentBody(world, { expiresInMs: 2 * DAY }));
    return authoriseConsent(world, consent);
  }, AUTHORISE_RULE.cof);
  world.consents.set(`cof:${name}`, record);
  world.consent = record;
  return record;
}

export const CREDITOR = { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '08080021325698', name: 'ACME Supplies Ltd' };

export async function paymentBody(world: ConformanceWorld, amount: string, withDebtor: boolean) {
  const first = await debtorAccount(world);
  return buildPaymentConsent({
    instructionIdentification: world.uniqueRef('INSTR').slice(0, 35),
    endToEndIdentification: world.uniqueRef('E2E').slice(0, 35),
    amount,
    currency: currencyOf(world, first),
    creditor: CREDITOR,
    debtor: withDebtor ? { schemeName: first.schemeName!, identification: first.identification!, name: first.name } : undefined,
    remittance: { reference: 'obtpp conformance', unstructured: 'obtpp conformance payment' },
    version: versionOfWorld(world),
  });
}

/** A payment-order consent with its debtor account, authorised by the PSU, shared within the run. */
export async function sharedPayment(world: ConformanceWorld, amount: string): Promise<ConsentRecord> {
  const record = await authorisedPayment(world, 'debtor-given', amount);
  world.payment = record;
  return record;
}

/**
 * A payment-order consent for one scenario alone (a submission consumes it), authorised by the PSU
 * ahead of that scenario like a shared set-up: each amount names one scenario's consent, so it is
 * prepared in the background and handed out once. Its authorisation failing is PIS-02's failure,
 * which leaves the scenario that needed it not judged.
 */
export async function freshPayment(world: ConformanceWorld, amount: string): Promise<ConsentRecord> {
  const record = await freshPaymentSetup(world, amount);
  const taken = record as ConsentRecord & { taken?: boolean };
  // Two scenarios naming the same amount would share a consent one of them consumes: a fault of the suite.
  if (taken.taken) throw new Error(`two scenarios ask for the fresh payment-order consent for ${amount}: each needs an amount of its own`);
  taken.taken = true;
  world.payment = record;
  return record;
}

export function newIdempotencyKey(): string {
  return `obtpp-${randomUUID()}`.slice(0, 40);
}

/**
 * Waits until the bank holds the consent expired. From its expiration date by our clock, the call
 * the scenario judges is made again every quarter second, each answer kept as evidence, until the
 * bank refuses it or the latest instant it must have expired by (`expiredAfterMs`) has passed: a
 * bank whose clock is a little behind ours, or that compares whole seconds, is waited for, and a
 * bank on our clock is not. Only the call after this wait is judged.
 */
export async function expiryPassed(world: ConformanceWorld, expiring: Expiring): Promise<void> {
  const left = Math.max(0, Math.ceil((expiring.expiredAfterMs - Date.now()) / 1000));
  const what = `consent ${expiring.record.id} to expire (up to ${left} s) before the probe`;
  const waited = world.ctx.waitFor('expiry', what);
  const started = Date.now();
  try {
    await sleepUntil(expiring.expiresAtMs + 50);
    while (Date.now() < expiring.expiredAfterMs) {
      const r = await expiring.probe(world);
      if (r.status < 200 || r.status >= 300) return;
      await sleepUntil(Math.min(Date.now() + 250, expiring.expiredAfterMs));
    }
  } finally {
    waited();
    world.pauses.push({ what: `waits for ${what}`, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started });
  }
}

/** Sleeps until a local instant (used only where a rule is about time passing). */
export async function sleepUntil(ms: number): Promise<void> {
  const wait = ms - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}


/**
 * Prepared in the background as soon as a run includes AIS-08 or COF-06, so that by the time the
 * scenario comes the expiration has (nearly) passed and nobody waits.
 */
export function expiringConsent(world: ConformanceWorld, fn: 'ais' | 'cof'): Promise<Expiring> {
  return sharedSetup(world, `${world.variant}:${fn}:expiring`, async () => {
    // A short window first, so nobody waits (a journey and a call take well under a second on a bank
    // that answers promptly); then, where they outlast it, one as wide as that attempt needed.
    return withinWindows<Expiring>(async (windowMs) => {
      const body = fn === 'ais'
        ? aisBody(['ReadAccountsBasic'], { expiresInMs: windowMs })
        : await fundsConsentBody(world, { expiresInMs: windowMs });
      let sentAt = 0;
      let receivedAt = 0;
      let record: ConsentRecord;
      try {
        // Created and authorised in one go, holding a journey slot, so the window is not spent queueing.
        record = await world.ctx.withJourneySlot(async () => {
          sentAt = Date.now();
          (body as any).Data.ExpirationDateTime = isoDateTime(new Date(sentAt + windowMs));
          const created = await createConsent(world, fn, body);
          receivedAt = Date.now();
          // Its end: a journey that fails after it is the window's doing, not the profile's.
          return authoriseConsent(world, created, { slotHeld: true, expiresAtMs: sentAt + windowMs });
        });
      } catch (error) {
        // A journey that outlasted the window: the bank rightly refuses to authorise an expired
        // consent, which says nothing about the rule.
        if (sentAt > 0 && outlived(sentAt + windowMs)) return { tookMs: Date.now() - sentAt };
        throw error;
      }
      // The expiration date as sent: whole seconds, so up to a second before sentAt + windowMs.
      const expiresAt = Date.parse((body as any).Data.ExpirationDateTime);
      const probe = fn === 'ais'
        ? (w: ConformanceWorld) => w.call('listing the accounts', (c) => c.listAccounts({ token: tokenOf(record) }))
        : (w: ConformanceWorld) => w.call('confirming funds', async (c) => c.confirmFunds(await fundsRequest(w, record.id, '1.00'), { token: tokenOf(record) }));
      const before = await probe(world);
      if (Date.now() >= expiresAt - 1_000) return { tookMs: Date.now() - sentAt };
      record.expiresAtMs = expiresAt;
      // The bank's Date header is its clock truncated to the second when it answered the
      // creation, so its clock is at most receivedAt - bankDate behind ours.
      const bankDate = Date.parse(record.created.headers.date ?? '');
      const behind = Number.isFinite(bankDate) ? Math.max(0, receivedAt - bankDate) : 1_000;
      return { done: { record, before, expiresAtMs: expiresAt, expiredAfterMs: expiresAt + behind + 1_500, probe } };
    }, (windowMs) => world.blocked(undefined, `a consent expiring ${Math.round(windowMs / 1000)} s after creation could not be authorised and used before it expired, so expiry cannot be judged`));
  }, fn === 'ais' ? 'AIS-08' : 'COF-06');
}

/**
 * A consent that must end a few seconds after its creation (an expiry, a VRP's ValidToDateTime) is
 * first made with this short window, so that nobody waits: a journey and a call take well under a
 * second on a bank that answers promptly. Where they outlast it (a slow bank, a loaded machine),
 * the next attempt's window is sized to what the attempt took (widerWindow), up to WINDOW_ATTEMPTS.
 */
const FIRST_WINDOW_MS = 3_000;
const WINDOW_ATTEMPTS = 3;

/**
 * Runs `attempt` with a window of FIRST_WINDOW_MS; while an attempt did not fit its window (it gives
 * back how long it took instead of a result), again with a window sized to that (widerWindow), up to
 * WINDOW_ATTEMPTS and MAX_EXPIRY_WINDOW_MS; then throws what `giveUp` makes of the last window.
 */
export async function withinWindows<T>(attempt: (windowMs: number) => Promise<{ done: T } | { tookMs: number }>, giveUp: (windowMs: number) => Error): Promise<T> {
  let windowMs = FIRST_WINDOW_MS;
  for (let n = 1; ; n++) {
    const tried = await attempt(windowMs);
    if ('done' in tried) return tried.done;
    if (n >= WINDOW_ATTEMPTS || windowMs >= MAX_EXPIRY_WINDOW_MS) throw giveUp(windowMs);
    windowMs = widerWindow(tried.tookMs);
  }
}

/** The widest expiry window tried: beyond it, expiry is not judged rather than waited for. */
const MAX_EXPIRY_WINDOW_MS = 90_000;

/** An expiry window wide enough for a journey that took `tookMs`, with room to use the consent once. */
function widerWindow(tookMs: number): number {
  return Math.min(Math.max(8_000, 2 * tookMs + 4_000), MAX_EXPIRY_WINDOW_MS);
}

/** The body of a funds-confirmation request in the currency of the PSU's first account. */
export async function fundsRequest(world: ConformanceWorld, consentId: string, amount: string) {
  const first = await debtorAccount(world);
  return buildFundsConfirmation({ consentId, reference: world.uniqueRef('obtpp').slice(0, 35), amount, currency: currencyOf(world, first) });
}

/** A scenario's fresh payment consent, made (or started ahead of the scenario) once per amount. */
function freshPaymentSetup(world: ConformanceWorld, amount: string): Promise<ConsentRecord> {
  return authorisedPayment(world, 'fresh', amount);
}

/**
 * A payment-order consent from the PSU's first account, authorised by the PSU: made once per run,
 * `pool` (shared by the scenarios that only read it, or fresh: one scenario's to consume) and amount.
 */
function authorisedPayment(world: ConformanceWorld, pool: 'debtor-given' | 'fresh', amount: string): Promise<ConsentRecord> {
  return sharedSetup(world, `${world.variant}:pis:${pool}:${amount}`, async () => {
    const payment = await createConsent(world, 'pis', await paymentBody(world, amount, true));
    return authoriseConsent(world, payment);
  }, AUTHORISE_RULE.pis);
}

/**
 * The set-ups a scenario's Given steps share, by step text: the runner lists the steps of the
 * selected scenarios, and these start (each on a lane of its own) with the first scenario.
 */
export const SHARED_GIVENS: Array<[RegExp, (world: ConformanceWorld, ...args: string[]) => Promise<unknown>]> = [
  [/^the PSU has authorised the "([^"]+)" consent: every permission of the accounts, balances and transactions clusters, all accounts selected$/,
    (w, name) => (name === 'full' ? fullConsent(w) : sharedAis(w, name, FULL_PERMISSIONS, { accounts: 'all' }))],
  [/^the PSU has authorised the "([^"]+)" consent: permissions "([^"]+)", transactions from (\d+) to (\d+) days ago$/,
    (w, name, p, from, to) => sharedAis(w, name!, splitList(p!), { accounts: 'all', fromDaysAgo: Number(from), toDaysAgo: Number(to) })],
  [/^the PSU has authorised the "([^"]+)" consent: permissions "([^"]+)", only the first account selected$/,
    (w, name, p) => sharedAis(w, name!, splitList(p!), { accounts: 'first' })],
  [/^the PSU has authorised the "([^"]+)" consent: permissions "([^"]+)", all accounts selected$/,
    (w, name, p) => sharedAis(w, name!, splitList(p!), { accounts: 'all' })],
  [/^the PSU has authorised the "([^"]+)" funds-confirmation consent for their first account$/, (w, name) => sharedFunds(w, name!)],
  [/^the PSU has authorised a payment-order consent for ([\d.]+) in the account's currency to a creditor, from the PSU's first account$/, (w, amount) => sharedPayment(w, amount!)],
  [/^the PSU has authorised a fresh payment-order consent for ([\d.]+) in the account's currency to a creditor, from the PSU's first account$/, (w, amount) => freshPaymentSetup(w, amount!)],
  [/^the PISP has submitted the payment order of a fresh authorised consent for ([\d.]+)$/, (w, amount) => freshPaymentSetup(w, Number(amount).toFixed(2))],
  [/^the PSU has authorised a consent that expires a few seconds later/, (w) => expiringConsent(w, 'ais')],
  [/^the PSU has authorised a funds-confirmation consent that expires a few seconds later/, (w) => expiringConsent(w, 'cof')],
];

/**
 * Further set-ups to start with the first scenario, registered by a standard's step definitions
 * (e.g. the berlin-group consents prepared one per scenario, step-definitions/berlin-group/ahead.ts).
 */
export const PREWARMS: Array<(world: ConformanceWorld) => void> = [];

export type { ApiResult, Exchange };
