/**
 * BG-32 on accounts (features/berlin-group/card-accounts.feature): a long account report (a year
 * of booked transactions) followed page after page by `_links.next` under the PSU's full consent,
 * as the card accounts' reports are.
 */
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { linkOf, transactionsOf, transactionsQuery, type WireObject } from '../../src/dialects/berlin-group/index.ts';
import { bg, dataOptions, expectBgSchema } from './support.ts';

/** More pages than this and the next links are taken for a loop (as for card accounts). */
const MAX_PAGES = 50;

/** Each account's report, page after page. */
const reports = new WeakMap<ConformanceWorld, Array<{ accountId: string; pages: ApiResult[] }>>();

When('the TPP reads each consented account\'s booked transactions of the last 365 days, following _links.next', async function (this: ConformanceWorld) {
  const full = bg(this).full;
  if (!full) throw new Error('the PSU\'s full consent was not made before this step');
  const first = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', dateFrom: new Date(Date.now() - 365 * 86_400_000) }).entries());
  const out: Array<{ accountId: string; pages: ApiResult[] }> = [];
  for (const { resourceId: accountId } of full.accounts) {
    const pages = [await this.call('reading an account\'s transactions of a year', (c) => c.getTransactions(accountId, { ...dataOptions(this, full), query: first }))];
    for (;;) {
      const page = pages.at(-1)!;
      const href = page.status === 200 ? linkOf((page.body as { transactions?: unknown })?.transactions, 'next', page.exchange.url) : undefined;
      if (!href) break;
      if (pages.length >= MAX_PAGES) throw this.violation(`the account ${quote(accountId)}'s report still links a next page after ${MAX_PAGES} pages: the paging does not end`);
      const next = new URL(href);
      // obtpp follows a next link on the same report (its path), with the query the bank wrote into it.
      if (next.pathname !== new URL(page.exchange.url).pathname) throw this.blocked(undefined, `the next link ${quote(href)} leaves the report's path ${quote(new URL(page.exchange.url).pathname)}: obtpp follows next links on the same resource only`);
      pages.push(await this.call('reading the next page of an account\'s transactions', (c) => c.getTransactions(accountId, { ...dataOptions(this, full), query: Object.fromEntries(next.searchParams.entries()) })));
    }
    out.push({ accountId, pages });
  }
  reports.set(this, out);
  this.batch = out.flatMap((r) => r.pages);
});

/** A transaction's identity: its transactionId, else its entryReference, else all it says. */
const keyOf = (t: WireObject) => (typeof t.transactionId === 'string' ? t.transactionId : typeof t.entryReference === 'string' ? t.entryReference : JSON.stringify(t));

Then('every page of the account reports is valid against its schema and holds booked transactions only, and the pages hold each transaction once', function (this: ConformanceWorld) {
  const all = reports.get(this) ?? [];
  // A year is longer than some banks serve: a refusal of the period is no fault of the paging.
  const served = all.filter(({ pages }) => !(pages[0]!.status >= 400 && pages[0]!.status < 500));
  if (!served.length && all.length) throw this.blocked(undefined, `the bank serves no account report of the last 365 days: ${describeAnswer(all[0]!.pages[0]!)}`);
  for (const { accountId, pages } of served) {
    const seen = new Map<string, number>();
    pages.forEach((page, i) => {
      expectStatus(this, page, [200], `page ${i + 1} of the account ${quote(accountId)}'s report (${i ? 'by _links.next' : 'bookingStatus booked'}): expected HTTP 200`);
      expectBgSchema(this, page, 'transactionsResponse-200_json');
      const pending = transactionsOf(page.body, 'pending');
      if (pending.length) throw this.violation(`page ${i + 1} of the account ${quote(accountId)}'s report holds ${pending.length} pending transaction(s): the _links.next chain of a report asked for bookingStatus booked does not keep it`);
      for (const t of transactionsOf(page.body, 'booked')) {
        const key = keyOf(t);
        const before = seen.get(key);
        if (before !== undefined) throw this.violation(`the account ${quote(accountId)}'s report gives the transaction ${quote(key)} on page ${before + 1} and again on page ${i + 1} of its _links.next chain`);
        seen.set(key, i);
      }
    });
  }
  if (!served.some((r) => r.pages.length > 1)) throw this.blocked(undefined, `the bank paged none of the ${served.length} account report(s) of the last 365 days (no _links.next): nothing to follow`);
});
