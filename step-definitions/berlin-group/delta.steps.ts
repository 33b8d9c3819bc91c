/**
 * The berlin-group scenarios of delta reports (features/berlin-group/delta-reports.feature):
 * entryReferenceFrom and deltaList on an account's transactions, where the profile says the bank
 * offers them (deltaReports), under the PSU's full consent.
 */
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { transactionsOf, transactionsQuery, type WireObject } from '../../src/dialects/berlin-group/index.ts';
import { bg, BgNotApplicable, dataOptions, expectBgSchema } from './support.ts';

/** What the delta scenarios keep between their steps. */
const reports = new WeakMap<ConformanceWorld, { full?: ApiResult; pivot?: WireObject; delta?: ApiResult }>();
const state = (w: ConformanceWorld) => {
  let s = reports.get(w);
  if (!s) reports.set(w, (s = {}));
  return s;
};

/** A transaction as one line for messages, and a key that tells two apart (transactionId, else entryReference, else all it says). */
const keyOf = (t: WireObject) => String(t.transactionId ?? t.entryReference ?? JSON.stringify(t));
const dayOf = (t: WireObject) => (typeof t.bookingDate === 'string' ? t.bookingDate : typeof t.valueDate === 'string' ? t.valueDate : undefined);

Given('the bank offers the delta report {string}', function (this: ConformanceWorld, kind: string) {
  const offered = this.ctx.profile.deltaReports?.[kind as 'entryReferenceFrom' | 'deltaList'] === true;
  if (!offered) throw new BgNotApplicable('getTransactions', this.variant, `the profile does not say the bank offers the ${kind} delta report (deltaReports.${kind})`);
});

function firstAccount(world: ConformanceWorld) {
  const full = bg(world).full;
  if (!full) throw new Error('the PSU\'s full consent was not made before this step');
  return { consent: full, accountId: full.accounts[0]!.resourceId };
}

When('the TPP reads the first account\'s booked transactions of the last 89 days', async function (this: ConformanceWorld) {
  const { consent, accountId } = firstAccount(this);
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', dateFrom: new Date(Date.now() - 89 * 86_400_000) }).entries());
  const full = await this.call('reading the transactions', (c) => c.getTransactions(accountId, { ...dataOptions(this, consent), query }));
  if (full.status !== 200) throw this.blocked('AIS-11', `the account's transaction report was not served: ${describeAnswer(full)}`);
  state(this).full = full;
});

When('the TPP reads the first account\'s booked transactions after one of them, by its entryReference', async function (this: ConformanceWorld) {
  const s = state(this);
  const booked = transactionsOf(s.full!.body, 'booked');
  const newest = booked.map(dayOf).filter((d): d is string => !!d).sort().at(-1);
  // One with a later transaction to report: a delta from the newest would say nothing.
  const pivot = booked.find((t) => typeof t.entryReference === 'string' && t.entryReference !== '' && dayOf(t) !== undefined && dayOf(t)! < newest!);
  if (!pivot) throw this.blocked(undefined, 'the account has no booked transaction with an entryReference and a later one in the last 89 days: nothing to judge a delta report by');
  s.pivot = pivot;
  const { consent, accountId } = firstAccount(this);
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', entryReferenceFrom: pivot.entryReference as string }).entries());
  s.delta = await this.call('reading the transactions after one', (c) => c.getTransactions(accountId, { ...dataOptions(this, consent), query }));
});

Then('the delta report holds every transaction booked after the one named, none booked before it, and not the one named', function (this: ConformanceWorld) {
  const { full, pivot, delta } = state(this);
  expectStatus(this, delta!, [200], 'expected the delta report the profile says the bank offers (HTTP 200)');
  expectBgSchema(this, delta!, 'transactionsResponse-200_json');
  const got = transactionsOf(delta!.body, 'booked');
  const pivotDay = dayOf(pivot!)!;
  const problems: string[] = [];
  const named = got.filter((t) => t.entryReference === pivot!.entryReference);
  if (named.length) problems.push(`it holds the transaction named by entryReferenceFrom (${quote(pivot!.entryReference)}) itself`);
  const earlier = got.filter((t) => dayOf(t) !== undefined && dayOf(t)! < pivotDay);
  if (earlier.length) problems.push(`it holds ${earlier.length} transaction(s) booked before the one named (${pivotDay}): ${quote(earlier.slice(0, 3).map(keyOf))}`);
  // Transactions of the same day may stand either side of it; those of a later day are after it.
  const keys = new Set(got.map(keyOf));
  const missing = transactionsOf(full!.body, 'booked').filter((t) => dayOf(t) !== undefined && dayOf(t)! > pivotDay && !keys.has(keyOf(t)));
  if (missing.length) problems.push(`it lacks ${missing.length} transaction(s) booked after the one named: ${quote(missing.slice(0, 3).map(keyOf))}`);
  if (problems.length) throw this.violation(`GET …/transactions?entryReferenceFrom=${String(pivot!.entryReference)}: ${problems.join('; ')}`);
});

When('the TPP reads the first account\'s booked transactions since that report access \\(deltaList)', async function (this: ConformanceWorld) {
  const { consent, accountId } = firstAccount(this);
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', deltaList: true }).entries());
  state(this).delta = await this.call('reading the transactions since the last report', (c) => c.getTransactions(accountId, { ...dataOptions(this, consent), query }));
});

Then('the delta report holds none of the booked transactions the report before it held', function (this: ConformanceWorld) {
  const { full, delta } = state(this);
  expectStatus(this, delta!, [200], 'expected the delta report the profile says the bank offers (HTTP 200)');
  expectBgSchema(this, delta!, 'transactionsResponse-200_json');
  const before = new Set(transactionsOf(full!.body, 'booked').map(keyOf));
  if (!before.size) throw this.blocked(undefined, 'the report before the delta held no booked transaction: nothing a delta could repeat');
  const repeated = transactionsOf(delta!.body, 'booked').filter((t) => before.has(keyOf(t)));
  if (repeated.length) throw this.violation(`GET …/transactions?deltaList=true right after a report repeats ${repeated.length} of its booked transactions: ${quote(repeated.slice(0, 3).map(keyOf))}`);
});
