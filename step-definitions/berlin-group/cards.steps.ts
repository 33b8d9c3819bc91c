/**
 * The berlin-group scenarios of card accounts (features/berlin-group/card-accounts.feature):
 * one-off consents that reach card accounts by a global form or by masked PAN, and the card-account
 * reads under them (GET /v1/card-accounts, …/{account-id}, …/balances, …/transactions), and a
 * paged report followed by `_links.next`.
 */
import { Given, When, Then } from '../support/define.ts';
import { ConformanceWorld, NotJudgeable } from '../support/world.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { cardAccountsOf, cardTransactionsOf, detailedAccess, linkOf, transactionsQuery, type AccountAccess } from '../../src/dialects/berlin-group/index.ts';
import type { RunContext } from '../../src/conformance/context.ts';
import type { Variant } from '../../src/profile/types.ts';
import { consentRequest, consentThroughSca, dataOptions, expectBgSchema, theConsent, type BgConsent } from './support.ts';
import { adoptAhead, givenAhead } from './ahead.ts';

/** A card account as the bank listed it: its resourceId (the path's account-id) and masked PAN. */
interface Card { resourceId: string; maskedPan: string }

/** What a card-account scenario keeps between its steps: the cards, the one named, and each report's pages. */
interface CardState { cards?: Card[]; named?: Card; reports?: Array<{ card: Card; pages: ApiResult[] }> }
const states = new WeakMap<ConformanceWorld, CardState>();
const state = (world: ConformanceWorld): CardState => {
  let s = states.get(world);
  if (!s) states.set(world, (s = {}));
  return s;
};

const ONE_OFF = { recurringIndicator: false, frequencyPerDay: 1 } as const;

/**
 * A one-off consent of a global form, through the PSU's SCA. The global forms are the bank's to
 * offer ("if supported by the ASPSP"): a 4xx refusal of the create leaves the scenario not judged,
 * naming the form, rather than blocked by AIS-01.
 */
export async function globalConsent(world: ConformanceWorld, access: AccountAccess): Promise<BgConsent> {
  try {
    return await consentThroughSca(world, consentRequest(access, ONE_OFF));
  } catch (error) {
    const created = world.last;
    if (error instanceof NotJudgeable && created?.operation === 'createAccountAccessConsent' && created.status >= 400 && created.status < 500) {
      throw world.blocked(undefined, `the bank does not offer consents of the form ${Object.keys(access).join()}: ${describeAnswer(created)}`);
    }
    throw error;
  }
}

/**
 * Card accounts are the bank's to offer: a 404 or 405 on GET /v1/card-accounts says it offers
 * none, which leaves the rule not judged (never passed); its profile's `implements` should say so.
 */
const NOT_OFFERED = [404, 405];
const notOffered = (r: ApiResult) => `the bank does not offer card accounts (${describeAnswer(r)}); a profile whose implements leaves out listCardAccounts makes the rule not applicable`;

function cardsIn(body: unknown): Card[] {
  return cardAccountsOf(body).filter((c) => typeof c.resourceId === 'string' && typeof c.maskedPan === 'string')
    .map((c) => ({ resourceId: c.resourceId as string, maskedPan: c.maskedPan as string }));
}

/**
 * The PSU's card accounts, as an availableAccounts consent lists them: made once per run and
 * variant (a card account's masked PAN and resourceId do not change; the one-off consent expires
 * no other), for the scenarios that name a card account in their own consent.
 */
const known = new WeakMap<RunContext, Map<Variant, Promise<Card[]>>>();
function psuCards(world: ConformanceWorld): Promise<Card[]> {
  let byVariant = known.get(world.ctx);
  if (!byVariant) known.set(world.ctx, (byVariant = new Map()));
  let made = byVariant.get(world.variant);
  if (!made) {
    made = (async () => {
      const setup = ConformanceWorld.forSetup(world.ctx, world.variant, world.parameters, world.ruleId);
      const consent = await globalConsent(setup, { availableAccounts: 'allAccounts' });
      const list = await setup.call('listing the card accounts', (c) => c.listCardAccounts(dataOptions(setup, consent)));
      if (NOT_OFFERED.includes(list.status)) throw setup.blocked(undefined, notOffered(list));
      if (list.status !== 200) throw setup.blocked('BG-30', `a consent to the PSU's available accounts opens no card account list: ${describeAnswer(list)}`);
      return cardsIn(list.body);
    })();
    made.catch(() => undefined);
    byVariant.set(world.variant, made);
  }
  return made;
}

// One-off consents expire no other consent: each is prepared ahead of its scenario (ahead.ts).
givenAhead('a one-off NextGenPSD2 consent to the PSU\'s available accounts, which the PSU authorised', async (world) => {
  await globalConsent(world, { availableAccounts: 'allAccounts' });
});

givenAhead('a one-off NextGenPSD2 consent to all PSD2 services of the PSU\'s accounts \\(allPsd2), which the PSU authorised', async (world) => {
  await globalConsent(world, { allPsd2: 'allAccounts' });
});

givenAhead('a one-off NextGenPSD2 consent to the balances and transactions of the PSU\'s first card account, named by its masked PAN, which the PSU authorised', async (world) => {
  const cards = await psuCards(world);
  const named = cards[0];
  if (!named) throw world.blocked(undefined, 'the PSU has no card account at this bank (GET /v1/card-accounts under a consent to the available accounts lists none)');
  Object.assign(state(world), { cards, named });
  await consentThroughSca(world, consentRequest(detailedAccess([{ maskedPan: named.maskedPan }], { balances: true, transactions: true }), ONE_OFF));
});

// The cards a prepared set-up found, and the one it named, are its scenario's.
adoptAhead((from, to) => {
  const kept = states.get(from);
  if (kept) Object.assign(state(to), kept);
});

When('the TPP lists the card accounts under the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  await this.call('listing the card accounts', (client) => client.listCardAccounts(dataOptions(this, c)));
});

Then('the bank lists the PSU\'s card accounts as a valid cardAccountList', function (this: ConformanceWorld) {
  const r = this.answer();
  if (NOT_OFFERED.includes(r.status)) throw this.blocked(undefined, notOffered(r));
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'cardAccountList');
  const cards = cardsIn(r.body);
  if (!cards.length) throw this.blocked(undefined, 'the PSU has no card account with a resourceId at this bank: nothing to read under the consent');
  state(this).cards = cards;
});

When('the TPP reads the first card account\'s balances under the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const card = state(this).cards![0]!;
  await this.call('reading a card account\'s balances', (client) => client.getCardBalances(card.resourceId, dataOptions(this, theConsent(this))));
});

When('the TPP reads the consented card account: the list, the card account, its balances and its booked transactions', async function (this: ConformanceWorld) {
  const c: BgConsent = theConsent(this);
  const list = await this.call('listing the card accounts', (client) => client.listCardAccounts(dataOptions(this, c)));
  // The card account as this consent lists it: a bank may give each consent its own resourceIds.
  const named = state(this).named!;
  const id = cardsIn(list.body).find((x) => x.maskedPan === named.maskedPan)?.resourceId ?? named.resourceId;
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', dateFrom: new Date(Date.now() - 89 * 86_400_000) }).entries());
  this.batch = [
    list,
    await this.call('reading a card account', (client) => client.getCardAccount(id, dataOptions(this, c))),
    await this.call('reading a card account\'s balances', (client) => client.getCardBalances(id, dataOptions(this, c))),
    await this.call('reading a card account\'s transactions', (client) => client.getCardTransactions(id, { ...dataOptions(this, c), query })),
  ];
});

Then('the card account list holds only the card account the consent names', function (this: ConformanceWorld) {
  const listed = cardsIn(this.batch[0]!.body).map((c) => c.maskedPan);
  const named = state(this).named!.maskedPan;
  if (listed.length !== 1 || listed[0] !== named) throw this.violation(`GET /v1/card-accounts lists ${quote(listed)} under a consent that names the card account ${quote(named)} alone`);
});

When('the TPP reads the balances of another of the PSU\'s card accounts under the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const { cards = [], named } = state(this);
  const other = cards.find((c) => c.maskedPan !== named?.maskedPan);
  if (!other) throw this.blocked(undefined, `the PSU has ${cards.length} card account(s) at this bank: none is left outside the consent`);
  await this.call('reading a card account\'s balances', (client) => client.getCardBalances(other.resourceId, dataOptions(this, theConsent(this))));
});

givenAhead('a one-off NextGenPSD2 consent to the transactions of every card account of the PSU, named by their masked PANs, which the PSU authorised', async (world) => {
  const cards = await psuCards(world);
  if (!cards.length) throw world.blocked(undefined, 'the PSU has no card account at this bank (GET /v1/card-accounts under a consent to the available accounts lists none)');
  state(world).cards = cards;
  await consentThroughSca(world, consentRequest(detailedAccess(cards.map((c) => ({ maskedPan: c.maskedPan })), { transactions: true }), ONE_OFF));
});

/** More pages than this and the next links are taken for a loop. */
const MAX_PAGES = 50;

When('the TPP reads every card account\'s booked transactions of the last 89 days, following _links.next', async function (this: ConformanceWorld) {
  const c: BgConsent = theConsent(this);
  const list = await this.call('listing the card accounts', (client) => client.listCardAccounts(dataOptions(this, c)));
  expectStatus(this, list, [200]);
  const first = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', dateFrom: new Date(Date.now() - 89 * 86_400_000) }).entries());
  const reports: Array<{ card: Card; pages: ApiResult[] }> = [];
  for (const card of cardsIn(list.body)) {
    const pages = [await this.call('reading a card account\'s transactions', (client) => client.getCardTransactions(card.resourceId, { ...dataOptions(this, c), query: first }))];
    for (;;) {
      const page = pages.at(-1)!;
      const href = page.status === 200 ? linkOf((page.body as { cardTransactions?: unknown })?.cardTransactions, 'next', page.exchange.url) : undefined;
      if (!href) break;
      if (pages.length >= MAX_PAGES) throw this.violation(`the card account ${quote(card.maskedPan)}'s report still links a next page after ${MAX_PAGES} pages: the paging does not end`);
      const next = new URL(href);
      // obtpp follows a next link on the same report (its path), with the query the bank wrote into it.
      if (next.pathname !== new URL(page.exchange.url).pathname) throw this.blocked(undefined, `the next link ${quote(href)} leaves the report's path ${quote(new URL(page.exchange.url).pathname)}: obtpp follows next links on the same resource only`);
      pages.push(await this.call('reading the next page of a card account\'s transactions', (client) => client.getCardTransactions(card.resourceId, { ...dataOptions(this, c), query: Object.fromEntries(next.searchParams.entries()) })));
    }
    reports.push({ card, pages });
  }
  state(this).reports = reports;
  this.batch = reports.flatMap((r) => r.pages);
});

Then('every page is valid against its schema, and the pages hold each transaction once', function (this: ConformanceWorld) {
  const reports = state(this).reports ?? [];
  for (const r of this.batch) {
    expectStatus(this, r, [200]);
    expectBgSchema(this, r, 'cardAccountsTransactionsResponse200');
  }
  for (const { card, pages } of reports) {
    const seen = new Map<string, number>();
    pages.forEach((page, i) => {
      for (const t of cardTransactionsOf(page.body, 'all')) {
        // A transaction is known by its cardTransactionId, else by all it says.
        const key = typeof t.cardTransactionId === 'string' ? t.cardTransactionId : JSON.stringify(t);
        const before = seen.get(key);
        if (before !== undefined) throw this.violation(`the card account ${quote(card.maskedPan)}'s report gives the transaction ${quote(key)} on page ${before + 1} and again on page ${i + 1} of its _links.next chain`);
        seen.set(key, i);
      }
    });
  }
  if (!reports.some((r) => r.pages.length > 1)) throw this.blocked(undefined, `the bank paged none of the ${reports.length} card account report(s) (no _links.next): nothing to follow`);
});
