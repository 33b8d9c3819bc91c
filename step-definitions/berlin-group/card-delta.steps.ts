/**
 * BG-53 and BG-54 on card accounts (features/berlin-group/delta-reports.feature): entryReferenceFrom
 * and deltaList on GET /v1/card-accounts/{account-id}/transactions, where the profile says the bank
 * offers them on card accounts too (deltaReports.cards), under a one-off consent to the PSU's first
 * card account: the card account is listed once, then the period report and the delta report are
 * read in the same access session.
 */
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { cardAccountsOf, cardTransactionsOf, linkOf, transactionsQuery, type WireObject } from '../../src/dialects/berlin-group/index.ts';
import type { Profile } from '../../src/profile/types.ts';
import { BgNotApplicable, dataOptions, expectBgSchema, theConsent } from './support.ts';
import { guardAhead } from './ahead.ts';

/** What a card delta scenario keeps: the period report's pages, the transaction named, the delta report. */
const states = new WeakMap<ConformanceWorld, { full: ApiResult[]; pivot?: WireObject; delta?: ApiResult }>();
const MAX_PAGES = 50;

/** A card transaction's identity: its cardTransactionId, else all it says. */
const keyOf = (t: WireObject) => (typeof t.cardTransactionId === 'string' ? t.cardTransactionId : JSON.stringify(t));
/** A card transaction's day: its booking, else the transaction's own. */
const dayOf = (t: WireObject) => (typeof t.bookingDate === 'string' ? t.bookingDate : typeof t.transactionDate === 'string' ? t.transactionDate : undefined);

/** Why the profile does not say the bank offers a delta report on card accounts (undefined: it does). */
function notOffered(profile: Profile, kind: string): string | undefined {
  const offered = profile.deltaReports;
  if (offered?.[kind as 'entryReferenceFrom' | 'deltaList'] !== true) return `the profile does not say the bank offers the ${kind} delta report (deltaReports.${kind})`;
  if (offered.cards !== true) return 'the profile does not say the bank offers its delta reports on card accounts too (deltaReports.cards)';
  return undefined;
}

Given('the bank offers the delta report {string} on card accounts', function (this: ConformanceWorld, kind: string) {
  const why = notOffered(this.ctx.profile, kind);
  if (why) throw new BgNotApplicable('getCardTransactions', this.variant, why);
});
// A card consent after this step is prepared ahead only where the scenario goes on (ahead.ts).
guardAhead(/^the bank offers the delta report "([^"]*)" on card accounts$/, (profile, kind) => !notOffered(profile, kind!));

/** The consented card account (listed once: a one-off consent's list read again is a new access), and its booked report of the last 89 days, every page. */
async function periodReport(world: ConformanceWorld): Promise<{ id: string; full: ApiResult[] }> {
  const c = theConsent(world);
  const list = await world.call('listing the card accounts', (client) => client.listCardAccounts(dataOptions(world, c)));
  const id = cardAccountsOf(list.body).map((x) => x.resourceId).find((x): x is string => typeof x === 'string');
  if (list.status !== 200 || !id) throw world.blocked('BG-30', `the consent to a card account lists no card account to read: ${describeAnswer(list)}`);
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', dateFrom: new Date(Date.now() - 89 * 86_400_000) }).entries());
  const full = [await world.call('reading the card account\'s transactions', (client) => client.getCardTransactions(id, { ...dataOptions(world, c), query }))];
  for (;;) {
    const page = full.at(-1)!;
    if (page.status !== 200) throw world.blocked('BG-30', `the card account's transaction report was not served: ${describeAnswer(page)}`);
    const href = linkOf((page.body as { cardTransactions?: unknown })?.cardTransactions, 'next', page.exchange.url);
    if (!href || full.length >= MAX_PAGES) break;
    const next = new URL(href);
    if (next.pathname !== new URL(page.exchange.url).pathname) break;
    full.push(await world.call('reading the card account\'s transactions (next page)', (client) => client.getCardTransactions(id, { ...dataOptions(world, c), query: Object.fromEntries(next.searchParams.entries()) })));
  }
  return { id, full };
}

const booked = (pages: ApiResult[]) => pages.flatMap((p) => cardTransactionsOf(p.body, 'booked'));

When('the TPP reads the consented card account\'s booked transactions of the last 89 days, then those after one of them, by its cardTransactionId', async function (this: ConformanceWorld) {
  const { id, full } = await periodReport(this);
  const all = booked(full);
  const newest = all.map(dayOf).filter((d): d is string => !!d).sort().at(-1);
  // One with a later transaction to report: a delta from the newest would say nothing.
  const pivot = all.find((t) => typeof t.cardTransactionId === 'string' && t.cardTransactionId !== '' && dayOf(t) !== undefined && dayOf(t)! < newest!);
  if (!pivot) throw this.blocked(undefined, 'the card account has no booked transaction with a cardTransactionId and a later one in the last 89 days: nothing to judge a delta report by');
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', entryReferenceFrom: pivot.cardTransactionId as string }).entries());
  const delta = await this.call('reading the card account\'s transactions after one', (client) => client.getCardTransactions(id, { ...dataOptions(this, theConsent(this)), query }));
  states.set(this, { full, pivot, delta });
  this.batch = [...full, delta];
});

When('the TPP reads the consented card account\'s booked transactions of the last 89 days, then those since that report access \\(deltaList)', async function (this: ConformanceWorld) {
  const { id, full } = await periodReport(this);
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', deltaList: true }).entries());
  const delta = await this.call('reading the card account\'s transactions since the last report', (client) => client.getCardTransactions(id, { ...dataOptions(this, theConsent(this)), query }));
  states.set(this, { full, delta });
  this.batch = [...full, delta];
});

Then('the card delta report holds every transaction booked after the one named, none booked before it, and not the one named', function (this: ConformanceWorld) {
  const { full, pivot, delta } = states.get(this)!;
  expectStatus(this, delta!, [200], 'expected the card delta report the profile says the bank offers (HTTP 200)');
  expectBgSchema(this, delta!, 'cardAccountsTransactionsResponse200');
  const got = cardTransactionsOf(delta!.body, 'booked');
  const pivotDay = dayOf(pivot!)!;
  const problems: string[] = [];
  if (got.some((t) => t.cardTransactionId === pivot!.cardTransactionId)) problems.push(`it holds the card transaction named by entryReferenceFrom (${quote(pivot!.cardTransactionId)}) itself`);
  const earlier = got.filter((t) => dayOf(t) !== undefined && dayOf(t)! < pivotDay);
  if (earlier.length) problems.push(`it holds ${earlier.length} card transaction(s) booked before the one named (${pivotDay}): ${quote(earlier.slice(0, 3).map(keyOf))}`);
  // Transactions of the same day may stand either side of it; those of a later day are after it.
  const keys = new Set(got.map(keyOf));
  const missing = booked(full).filter((t) => dayOf(t) !== undefined && dayOf(t)! > pivotDay && !keys.has(keyOf(t)));
  if (missing.length) problems.push(`it lacks ${missing.length} card transaction(s) booked after the one named: ${quote(missing.slice(0, 3).map(keyOf))}`);
  if (problems.length) throw this.violation(`GET /v1/card-accounts/…/transactions?entryReferenceFrom=${String(pivot!.cardTransactionId)}: ${problems.join('; ')}`);
});

Then('the card delta report holds none of the booked transactions the report before it held', function (this: ConformanceWorld) {
  const { full, delta } = states.get(this)!;
  expectStatus(this, delta!, [200], 'expected the card delta report the profile says the bank offers (HTTP 200)');
  expectBgSchema(this, delta!, 'cardAccountsTransactionsResponse200');
  const before = new Set(booked(full).map(keyOf));
  if (!before.size) throw this.blocked(undefined, 'the card report before the delta held no booked transaction: nothing a delta could repeat');
  const repeated = cardTransactionsOf(delta!.body, 'booked').filter((t) => before.has(keyOf(t)));
  if (repeated.length) throw this.violation(`GET /v1/card-accounts/…/transactions?deltaList=true right after a report repeats ${repeated.length} of its booked card transactions: ${quote(repeated.slice(0, 3).map(keyOf))}`);
});
