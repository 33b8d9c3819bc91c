import { randomUUID } from 'node:crypto';
import {
  buildAccountAccessConsent, buildFundsConsent, buildFundsConfirmation, buildPaymentConsent, isoDateTime,
  consentIdOf, accountsOf, balancesOf,
} from '../../src/dialects/obie/index.ts';
import type { Fn } from '../../src/profile/types.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { AuthorisationError } from '../../src/errors.ts';
import type { ConformanceWorld, ConsentRecord, AccountInfo } from './world.ts';
import { describeAnswer } from './judge.ts';

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
    throw world.violation(`${what} (a set-up of this scenario) failed: ${describeAnswer(created)}`);
  }
  return { fn, id, created, request: body };
}

/** The PSU's journey; a journey that fails is a verdict of this scenario, with the page as evidence. */
export async function authoriseConsent(world: ConformanceWorld, record: ConsentRecord, options: { accounts?: string[]; debtor?: string; slotHeld?: boolean; priority?: number } = {}): Promise<ConsentRecord> {
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
    return authoriseConsent(world, consent, { ...(o.accounts === 'first' ? { accounts: ['1'] } : {}), ...(name === 'full' ? { priority: 1 } : {}) });
  });
  world.consents.set(name, record);
  if (o.current !== false) world.consent = record;
  return record;
}

/** A shared set-up's failure, told in the words of the rule now being judged, with its evidence. */
export async function reuse<T>(world: ConformanceWorld, p: Promise<T>): Promise<T> {
  try {
    const value = await p;
    addEvidence(world, (value as { setupExchanges?: Exchange[] } | undefined)?.setupExchanges);
    return value;
  } catch (error) {
    addEvidence(world, (error as { exchanges?: Exchange[] }).exchanges);
    // A PSU journey's screenshot travels with its failure into every scenario (and set-up) that reuses it.
    const screenshots = (error as { screenshots?: string[] }).screenshots ?? [];
    for (const shot of screenshots) if (!world.screenshots.includes(shot)) world.screenshots.push(shot);
    if (error instanceof Error && error.name === 'RuleViolation') {
      const violation = world.violation(error.message.replace(/^[A-Z]{3}-\d{2}: /, ''));
      if (screenshots.length) (violation as { screenshots?: string[] }).screenshots = screenshots;
      throw violation;
    }
    throw error;
  }
}

function addEvidence(world: ConformanceWorld, exchanges: Exchange[] | undefined): void {
  for (const ex of exchanges ?? []) if (!world.exchanges.includes(ex)) world.exchanges.push(ex);
}

/**
 * A set-up made once per run and key, by whichever world asks first (a scenario, or a stand-in
 * that starts it early); its exchanges are kept as the evidence of every scenario that uses it.
 */
export function sharedSetup<T extends object>(world: ConformanceWorld, key: string, make: () => Promise<T>): Promise<T> {
  return reuse(world, world.ctx.shared(key, async () => {
    const sink: Exchange[] = [];
    const stop = world.lane.record(sink);
    try {
      const value = await make();
      if (!Array.isArray(value)) (value as { setupExchanges?: Exchange[] }).setupExchanges = sink;
      return value;
    } catch (error) {
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

/** GET /accounts with a consent's token, once per consent; the first data call. */
export async function accountIdsOf(world: ConformanceWorld, record: ConsentRecord): Promise<string[]> {
  if (record.accountIds) return record.accountIds;
  const r = await world.call('listing the accounts', (c) => c.listAccounts({ token: tokenOf(record) }));
  if (r.status !== 200) throw world.violation(`listing the accounts of consent ${record.id} failed: ${describeAnswer(r)}`);
  const ids = accountsOf(r.body).map((a: any) => a?.AccountId).filter((x: unknown): x is string => typeof x === 'string');
  if (!ids.length) throw world.violation(`GET /accounts of consent ${record.id} listed no account, although the PSU selected at least one`);
  record.accountIds = ids;
  return ids;
}

export async function firstAccountId(world: ConformanceWorld, record: ConsentRecord): Promise<string> {
  return (await accountIdsOf(world, record))[0]!;
}

/** The PSU's accounts as the "full" consent shows them (identification needs ReadAccountsDetail). */
export async function psuAccounts(world: ConformanceWorld): Promise<AccountInfo[]> {
  return sharedSetup(world, `${world.variant}:psu-accounts`, async () => {
    const full = await fullConsent(world);
    const r = await world.call('listing the accounts', (c) => c.listAccounts({ token: tokenOf(full) }));
    if (r.status !== 200) throw world.violation(`listing the PSU's accounts (a set-up of this scenario) failed: ${describeAnswer(r)}`);
    const accounts = accountsOf(r.body).map((a: any): AccountInfo => {
      const ident = Array.isArray(a?.Account) ? a.Account[0] : undefined;
      return { accountId: a?.AccountId, currency: a?.Currency, schemeName: ident?.SchemeName, identification: ident?.Identification, name: ident?.Name ?? a?.Nickname };
    });
    if (!accounts.length || !accounts[0]!.identification) {
      throw world.violation('the PSU\'s first account has no identification under ReadAccountsDetail, so no debtor account can be named (a set-up of this scenario)');
    }
    full.accountIds ??= accounts.map((a) => a.accountId);
    return accounts;
  });
}

/** The available balance of an account (signed), as AIS shows it. */
export async function availableBalance(world: ConformanceWorld, account: AccountInfo): Promise<{ amount: number; text: string; currency: string }> {
  const full = await fullConsent(world);
  const r = await world.call('reading the balances', (c) => c.getBalances(account.accountId, { token: tokenOf(full) }));
  if (r.status !== 200) throw world.violation(`reading the balances of ${account.accountId} (a set-up of this scenario) failed: ${describeAnswer(r)}`);
  const balances = balancesOf(r.body) as any[];
  const order = ['InterimAvailable', 'ClosingAvailable', 'OpeningAvailable', 'ForwardAvailable', 'Expected', 'InterimBooked', 'ClosingBooked'];
  const chosen = order.map((t) => balances.find((b) => b?.Type === t)).find(Boolean) ?? balances[0];
  if (!chosen?.Amount?.Amount) throw world.violation(`the balances of ${account.accountId} carry no amount (a set-up of this scenario)`);
  // A credit line marked Included is already part of the balance's amount (UK meaning): not added again.
  const amount = Number(chosen.Amount.Amount) * (chosen.CreditDebitIndicator === 'Debit' ? -1 : 1);
  return { amount, text: String(chosen.Amount.Amount), currency: chosen.Amount.Currency ?? account.currency };
}

export async function fundsConsentBody(world: ConformanceWorld, o: { expiresInMs?: number; noExpiration?: boolean; noDebtor?: boolean } = {}) {
  const [first] = await psuAccounts(world);
  return buildFundsConsent({
    debtorAccount: o.noDebtor ? undefined : { schemeName: first!.schemeName ?? 'UK.OBIE.SortCodeAccountNumber', identification: first!.identification!, name: first!.name },
    expirationDateTime: o.noExpiration ? undefined : isoDateTime(new Date(Date.now() + (o.expiresInMs ?? 30 * DAY))),
  });
}

/** A funds-confirmation consent authorised by the PSU, shared by name within the run. */
export async function sharedFunds(world: ConformanceWorld, name: string): Promise<ConsentRecord> {
  const record = await sharedSetup(world, `${world.variant}:cof:${name}`, async () => {
    const consent = await createConsent(world, 'cof', await fundsConsentBody(world, { expiresInMs: 2 * DAY }));
    return authoriseConsent(world, consent);
  });
  world.consents.set(`cof:${name}`, record);
  world.consent = record;
  return record;
}

export const CREDITOR = { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '08080021325698', name: 'ACME Supplies Ltd' };

export async function paymentBody(world: ConformanceWorld, amount: string, withDebtor: boolean) {
  const [first] = await psuAccounts(world);
  return buildPaymentConsent({
    instructionIdentification: world.uniqueRef('INSTR').slice(0, 35),
    endToEndIdentification: world.uniqueRef('E2E').slice(0, 35),
    amount,
    currency: first!.currency,
    creditor: CREDITOR,
    debtor: withDebtor ? { schemeName: first!.schemeName ?? 'UK.OBIE.SortCodeAccountNumber', identification: first!.identification!, name: first!.name } : undefined,
    remittance: { reference: 'obtpp conformance', unstructured: 'obtpp conformance payment' },
  });
}

/** A payment-order consent with its debtor account, authorised by the PSU, shared within the run. */
export async function sharedPayment(world: ConformanceWorld, amount: string): Promise<ConsentRecord> {
  const record = await sharedSetup(world, `${world.variant}:pis:debtor-given:${amount}`, async () => {
    const payment = await createConsent(world, 'pis', await paymentBody(world, amount, true));
    return authoriseConsent(world, payment);
  });
  world.payment = record;
  return record;
}

export function newIdempotencyKey(): string {
  return `obtpp-${randomUUID()}`.slice(0, 40);
}

/** Sleeps until a local instant (used only where a rule is about time passing). */
export async function sleepUntil(ms: number): Promise<void> {
  const wait = ms - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}

/** A consent made to expire a few seconds after creation, authorised and used once before. */
export interface Expiring {
  record: ConsentRecord;
  /** The call made while the consent was still valid. */
  before: ApiResult;
  /** Local instant after which the bank, by its own clock, must consider the consent expired. */
  expiredAfterMs: number;
  setupExchanges?: Exchange[];
}

/**
 * Prepared in the background as soon as a run includes AIS-08 or COF-06, so that by the time the
 * scenario comes the expiration has (nearly) passed and nobody waits.
 */
export function expiringConsent(world: ConformanceWorld, fn: 'ais' | 'cof'): Promise<Expiring> {
  return sharedSetup(world, `${world.variant}:${fn}:expiring`, async () => {
    for (const windowMs of [6_000, 15_000]) {
      const body = fn === 'ais'
        ? aisBody(['ReadAccountsBasic'], { expiresInMs: windowMs })
        : await fundsConsentBody(world, { expiresInMs: windowMs });
      let sentAt = 0;
      // Created and authorised in one go, holding a journey slot, so the window is not spent queueing.
      const record = await world.ctx.withJourneySlot(async () => {
        sentAt = Date.now();
        (body as any).Data.ExpirationDateTime = isoDateTime(new Date(sentAt + windowMs));
        const created = await createConsent(world, fn, body);
        return authoriseConsent(world, created, { slotHeld: true });
      });
      const expiresAt = sentAt + windowMs;
      const bankDate = Date.parse(record.created.headers.date ?? '');
      const skew = Number.isFinite(bankDate) ? bankDate - sentAt : 0;
      const before = fn === 'ais'
        ? await world.call('listing the accounts', (c) => c.listAccounts({ token: tokenOf(record) }))
        : await world.call('confirming funds', async (c) => c.confirmFunds(await fundsRequest(world, record.id, '1.00'), { token: tokenOf(record) }));
      if (Date.now() < expiresAt - 1_000) {
        record.expiresAtMs = expiresAt;
        // Wait out the later of our clock and the bank's (Date has one-second resolution).
        return { record, before, expiredAfterMs: Math.max(expiresAt, expiresAt - skew) + 1_500 };
      }
    }
    throw world.violation('a consent expiring 15 s after creation could not be authorised and used before it expired, so expiry cannot be judged');
  });
}

/** The body of a funds-confirmation request in the currency of the PSU's first account. */
export async function fundsRequest(world: ConformanceWorld, consentId: string, amount: string) {
  const [first] = await psuAccounts(world);
  return buildFundsConfirmation({ consentId, reference: world.uniqueRef('obtpp').slice(0, 35), amount, currency: first!.currency });
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
  [/^the PSU has authorised a consent that expires a few seconds later/, (w) => expiringConsent(w, 'ais')],
  [/^the PSU has authorised a funds-confirmation consent that expires a few seconds later/, (w) => expiringConsent(w, 'cof')],
];

export type { ApiResult, Exchange };
