/**
 * The berlin-group scenarios of card account reports (features/berlin-group/card-reports.feature:
 * bookingStatus and dateFrom/dateTo on GET /v1/card-accounts/{account-id}/transactions, withBalance
 * on GET /v1/card-accounts) and of withBalance on card accounts (with-balance.feature, BG-31).
 */
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectStatus, quote, WARNING_MEDIA_TYPE } from '../support/judge.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { cardAccountsOf, cardTransactionsOf, linkOf, transactionsQuery, type BookingStatus, type WireObject } from '../../src/dialects/berlin-group/index.ts';
import { dataOptions, expectBgSchema, theConsent } from './support.ts';

/** More pages than this and the next links are taken for a loop (as BG-32). */
const MAX_PAGES = 50;
const day = (n: number) => new Date(Date.now() - n * 86_400_000);

/** The card account the scenario's consent lists first (its resourceId): the consent names one. */
async function consentedCard(world: ConformanceWorld): Promise<string> {
  const list = await world.call('listing the card accounts', (client) => client.listCardAccounts(dataOptions(world, theConsent(world))));
  const id = cardAccountsOf(list.body).map((c) => c.resourceId).find((x): x is string => typeof x === 'string');
  if (list.status !== 200 || !id) throw world.blocked('BG-30', `the consent to a card account lists no card account to read: ${describeAnswer(list)}`);
  return id;
}

/** A card account's report, page after page by `_links.next` on the same path (BG-32 judges the paging itself). */
async function report(world: ConformanceWorld, id: string, query: URLSearchParams, what: string): Promise<ApiResult[]> {
  const c = theConsent(world);
  const pages = [await world.call(what, (client) => client.getCardTransactions(id, { ...dataOptions(world, c), query: Object.fromEntries(query.entries()) }))];
  for (;;) {
    const page = pages.at(-1)!;
    const href = page.status === 200 ? linkOf((page.body as { cardTransactions?: unknown })?.cardTransactions, 'next', page.exchange.url) : undefined;
    if (!href || pages.length >= MAX_PAGES) break;
    const next = new URL(href);
    if (next.pathname !== new URL(page.exchange.url).pathname) break;
    pages.push(await world.call(`${what} (next page)`, (client) => client.getCardTransactions(id, { ...dataOptions(world, c), query: Object.fromEntries(next.searchParams.entries()) })));
  }
  return pages;
}

/** The three reports of a BG-34 scenario, by bookingStatus. */
const reports = new WeakMap<ConformanceWorld, Record<'booked' | 'pending' | 'both', ApiResult[]>>();

When('the TPP reads the consented card account\'s transactions of the last 89 days with bookingStatus booked, pending and both, following _links.next', async function (this: ConformanceWorld) {
  const id = await consentedCard(this);
  const out = {} as Record<'booked' | 'pending' | 'both', ApiResult[]>;
  for (const bookingStatus of ['booked', 'pending', 'both'] as BookingStatus[]) {
    out[bookingStatus as 'booked'] = await report(this, id, transactionsQuery({ bookingStatus, dateFrom: day(89) }), `reading the card account's ${bookingStatus} transactions`);
  }
  reports.set(this, out);
  this.batch = [...out.booked, ...out.pending, ...out.both];
});

/** A card transaction's identity: its cardTransactionId, else all it says. */
const identity = (t: WireObject) => (typeof t.cardTransactionId === 'string' ? t.cardTransactionId : JSON.stringify(t));
const of = (pages: ApiResult[], which: 'booked' | 'pending') => pages.flatMap((p) => cardTransactionsOf(p.body, which)).map(identity);

Then('the booked card report holds no pending transaction, the pending one no booked transaction, and the report of both the booked and the pending ones', function (this: ConformanceWorld) {
  const { booked, pending, both } = reports.get(this)!;
  for (const r of booked) {
    expectStatus(this, r, [200]);
    expectBgSchema(this, r, 'cardAccountsTransactionsResponse200');
  }
  const strayPending = of(booked, 'pending');
  if (strayPending.length) throw this.violation(`asked for bookingStatus booked, the bank returned ${strayPending.length} pending card transaction(s) (${strayPending.slice(0, 3).join(', ')})`);
  for (const pages of [pending, both]) {
    const r = pages[0]!;
    // "pending" and "both" are optional for the bank ("Error code if not supported"): a refusal is not a failure.
    if (r.status >= 400 && r.status < 500) throw this.blocked(undefined, `the bank does not offer bookingStatus ${new URL(r.exchange.url).searchParams.get('bookingStatus')} on card accounts, which the standard leaves optional: ${describeAnswer(r)}`);
    for (const p of pages) {
      expectStatus(this, p, [200]);
      expectBgSchema(this, p, 'cardAccountsTransactionsResponse200');
    }
  }
  const strayBooked = of(pending, 'booked');
  if (strayBooked.length) throw this.violation(`asked for bookingStatus pending, the bank returned ${strayBooked.length} booked card transaction(s) (${strayBooked.slice(0, 3).join(', ')})`);
  const pendingIds = of(pending, 'pending');
  const bookedAsPending = of(booked, 'booked').filter((id) => pendingIds.includes(id));
  if (bookedAsPending.length) throw this.violation(`${bookedAsPending.length} card transaction(s) come back both as booked (bookingStatus booked) and as pending (bookingStatus pending): ${bookedAsPending.slice(0, 3).join(', ')}`);
  for (const which of ['booked', 'pending'] as const) {
    const alone = of(which === 'booked' ? booked : pending, which).sort();
    const together = of(both, which).sort();
    const missing = alone.filter((id) => !together.includes(id));
    const extra = together.filter((id) => !alone.includes(id));
    if (missing.length || extra.length) {
      throw this.violation(`bookingStatus both must return the ${which} card transactions of bookingStatus ${which}: ${missing.length} missing (${missing.slice(0, 3).join(', ')}), ${extra.length} not among them (${extra.slice(0, 3).join(', ')})`);
    }
  }
  if (!pendingIds.length) throw this.blocked(undefined, 'the card account has no pending transaction: nothing shows whether the bank tells pending from booked');
});

When('the TPP reads the consented card account\'s booked transactions from {int} to {int} days ago', async function (this: ConformanceWorld, from: number, to: number) {
  const id = await consentedCard(this);
  // The same card account over a wider period, to know whether the bank's data gives anything to judge.
  const wide = await report(this, id, transactionsQuery({ bookingStatus: 'booked', dateFrom: day(89) }), 'reading the card account\'s transactions');
  const narrow = await report(this, id, transactionsQuery({ bookingStatus: 'booked', dateFrom: day(from), dateTo: day(to) }), 'reading the card account\'s transactions in the period');
  this.batch = [...wide, ...narrow];
  reports.set(this, { booked: narrow, pending: [], both: wide });
});

Then('every booked card transaction is dated within those days', function (this: ConformanceWorld) {
  const { booked: narrow, both: wide } = reports.get(this)!;
  for (const r of narrow) {
    expectStatus(this, r, [200]);
    expectBgSchema(this, r, 'cardAccountsTransactionsResponse200');
  }
  const query = new URL(narrow[0]!.exchange.url).searchParams;
  const from = query.get('dateFrom')!;
  const to = query.get('dateTo')!;
  // A card transaction is dated by its booking, else by the transaction itself.
  const dateOf = (t: WireObject) => String(t.bookingDate ?? t.transactionDate ?? t.valueDate ?? '').slice(0, 10);
  const outside = (t: WireObject) => dateOf(t) < from || dateOf(t) > to;
  const stray = narrow.flatMap((p) => cardTransactionsOf(p.body, 'booked')).filter(outside);
  if (stray.length) throw this.violation(`${stray.length} booked card transaction(s) dated outside ${from} to ${to} were returned, e.g. ${quote(stray[0])}`);
  if (!wide.every((r) => r.status === 200) || !wide.flatMap((p) => cardTransactionsOf(p.body, 'booked')).some(outside)) {
    throw this.blocked(undefined, `the card account has no booked transaction outside ${from} to ${to} in the last 89 days: nothing shows whether the dates bound the answer`);
  }
});

When('the TPP lists the card accounts with withBalance=true under the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  await this.call('listing the card accounts with their balances', (client) => client.listCardAccounts({ ...dataOptions(this, c), query: { withBalance: 'true' } }));
});

/** The card-account list with withBalance, valid; a refusal of the parameter leaves the scenario not judged. */
function cardList(world: ConformanceWorld): WireObject[] {
  const r = world.answer();
  // 1.3.12 names withBalance on the accounts only; a bank may refuse it on card accounts: that says nothing about the consent.
  if (r.status >= 400 && r.status < 500) throw world.blocked(undefined, `the bank refused withBalance on card accounts: ${describeAnswer(r)}`);
  expectStatus(world, r, [200]);
  expectBgSchema(world, r, 'cardAccountList');
  const cards = cardAccountsOf(r.body);
  if (!cards.length) throw world.blocked(undefined, 'the consent lists no card account: nothing shows whether balances are bounded');
  return cards;
}

Then('the bank lists the card accounts as a valid cardAccountList, and no card account carries a balance', function (this: ConformanceWorld) {
  const shown = cardList(this).filter((c) => c.balances !== undefined).map((c) => String(c.maskedPan ?? c.resourceId ?? '?'));
  if (shown.length) throw this.violation(`GET /v1/card-accounts?withBalance=true shows balances of ${quote(shown)} under a consent to the available accounts (no balances granted)`);
});

Then('the bank lists the card accounts as a valid cardAccountList, and the consented card account should carry its balances', function (this: ConformanceWorld) {
  const without = cardList(this).filter((c) => !Array.isArray(c.balances) || c.balances.length === 0).map((c) => String(c.maskedPan ?? c.resourceId ?? '?'));
  if (!without.length) return;
  // The file lets a bank ignore withBalance (and 1.3.12 names it on accounts only): a warning, not a failure.
  this.attach(JSON.stringify({
    level: 'SHOULD', source: 'standard',
    message: `GET /v1/card-accounts?withBalance=true lists ${quote(without)} without balances, though the consent grants their balances`,
    problems: ['withBalance: "including the booking balance, if granted by the PSU in the related consent and available by the ASPSP"'],
  }), WARNING_MEDIA_TYPE);
});
