/**
 * Account information that only UK Read/Write v3.1.11's layout has: the bulk reads (every consented
 * account at once) and the per-account direct debits, standing orders, scheduled payments, offers,
 * party, product and statements (with their transactions and file). The data is derived from each
 * fixture account, so that the same anchor day always yields the same resources. Each resource
 * honours its permission cluster (Basic or Detail), the consent's selected accounts, and — for
 * statements and scheduled payments — the consent's Transaction period.
 */
import { randomUUID } from 'node:crypto';
import type { FaultDeclaration } from '../fault-declaration.ts';
import { money } from '../fixtures.ts';
import type { FixtureAccount, FixturePsu } from '../fixtures.ts';
import type { AisConsent } from '../store.ts';
import { aisConsent, amount, balancesOf, beneficiariesOf, consentAccount, consentAccounts, has, periodMeta, transactionView, visible, window } from './ais.ts';
import { A, ApiError, forbidden, iso, links, notFound, parseDateTime, route, type Reply, type Req, type ResourceContext, type UkRoute } from './plumbing.ts';

/** The faults of these routes, in the order of docs/rules.md. */
export const AIS_UK_FAULTS = [
  { name: 'uk-resource-permission-not-enforced', rule: 'UKAIS-01', description: 'direct debits, standing orders, scheduled payments, offers, party, product and statements are answered without their permission', kind: 'rule' },
  { name: 'uk-missing-permission-401', rule: 'UKAIS-01', description: 'the reads only the UK layout has (bulk balances, direct debits, offers, party, product, statements…) refuse a permission the consent lacks with 401, as if the token were not valid, not 403 (the suite asserts 400 or 403)', kind: 'rule' },
  { name: 'basic-shows-statement-amounts', rule: 'UKAIS-02', description: 'statements read under ReadStatementsBasic carry their StatementAmount, which only ReadStatementsDetail opens', kind: 'rule' },
  { name: 'basic-shows-payee-detail', rule: 'UKAIS-02', description: 'standing orders and scheduled payments read under their Basic permission carry the payee\'s CreditorAccount, which only the Detail permission opens', kind: 'rule' },
  { name: 'statements-outside-period', rule: 'UKAIS-03', description: 'statements and scheduled payments are not bounded by the consent\'s TransactionFromDateTime and TransactionToDateTime', kind: 'rule' },
  { name: 'statements-straddle-period', rule: 'UKAIS-03', description: 'statements that lie only partly inside the consent\'s TransactionFromDateTime and TransactionToDateTime are shown (a SHOULD: the standard\'s prose shows only those wholly inside)', kind: 'rule', level: 'SHOULD' },
  { name: 'statement-transactions-outside-period', rule: 'UKAIS-03', description: 'a statement\'s transactions (…/statements/{StatementId}/transactions) are every transaction of the account, outside the statement and the consent\'s transaction period too', kind: 'rule' },
  { name: 'bulk-unselected-accounts', rule: 'UKAIS-04', description: 'the bulk reads (/balances, /transactions, /direct-debits …) list the resources of every account of the PSU, not only the selected ones', kind: 'rule' },
  { name: 'standing-order-frequency-free-text', rule: 'UKAIS-10', description: 'standing orders carry their Frequency as free text ("Monthly"), not in the standard\'s grammar', kind: 'rule' },
  { name: 'statement-file-empty', rule: 'UKAIS-10', description: 'a statement\'s file (…/statements/{StatementId}/file) answers 200 with an empty body', kind: 'rule' },
  { name: 'uk-reads-without-token', rule: 'UKAIS-11', description: 'the bulk reads answer a request without an access token (with the PSU\'s first consent)', kind: 'rule' },
  { name: 'foreign-account-empty-list', rule: 'UKAIS-12', description: 'the per-account reads of direct debits, standing orders, scheduled payments, offers, product and statements answer an account outside the consent with 200 and an empty list', kind: 'rule' },
  { name: 'undefined-subresource-answered', rule: 'UKAIS-13', description: 'a GET below a per-account read (…/direct-debits/foobar) answers 200 with an empty Data, not 404', kind: 'rule' },
  { name: 'uk-reads-interaction-id-not-echoed', rule: 'UKAIS-14', description: 'the reads only the UK layout has answer with an x-fapi-interaction-id of their own, not the one the TPP sent', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

const DAY = 86_400_000;

/** The day the fixtures were generated for (every account opened three years before it). */
const anchorOf = (a: FixtureAccount) => a.OpeningDate.getTime() + 3 * 365 * DAY;

const isCurrent = (a: FixtureAccount) => a.AccountSubType === 'CurrentAccount';

/** A resource refused without one of its permissions, unless the fault hands it out anyway. */
function needs(k: ResourceContext, c: AisConsent, ...permissions: string[]): void {
  if (has(c, ...permissions) || k.faults.has('uk-resource-permission-not-enforced')) return;
  if (k.faults.has('uk-missing-permission-401')) throw new ApiError(401, 'UK.OBIE.Unauthorised', `the consent does not grant ${permissions.join(' or ')}`);
  throw forbidden(`the consent does not grant ${permissions.join(' or ')}`);
}

/** The accounts a bulk read covers: the consent's selected ones (every one of the PSU under the fault). */
function bulkAccounts(k: ResourceContext, c: AisConsent): FixtureAccount[] {
  if (k.faults.has('bulk-unselected-accounts')) return k.store.psu(c.psu)?.accounts ?? [];
  return consentAccounts(k, c);
}

/** The consent a bulk read runs under; the fault lets a request without a token through. */
async function bulkConsent(k: ResourceContext, r: Req): Promise<AisConsent> {
  if (k.faults.has('uk-reads-without-token') && !r.headers.authorization) {
    const c = [...k.store.consents.values()].find((x): x is AisConsent => x.kind === 'ais' && x.Status === 'Authorised' && x.psu !== undefined && !x.deleted);
    if (c) return c;
  }
  return aisConsent(k, r);
}

/** The consent's Transaction period, which bounds statements and scheduled payments (unbounded under the fault). */
function period(k: ResourceContext, c: AisConsent): { from: number; to: number } {
  if (k.faults.has('statements-outside-period')) return { from: -Infinity, to: Infinity };
  return { from: Date.parse(c.TransactionFromDateTime), to: Date.parse(c.TransactionToDateTime) };
}

const payee = (a: FixtureAccount, n: number) => ({
  SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: `30963452${String(417 + n * 8).padStart(6, '0')}`, Name: `${a.Name.split(' ')[0]}'s payee ${n}`,
});

// ---- the resources of one account ------------------------------------------------------------

function directDebitsOf(a: FixtureAccount) {
  if (!isCurrent(a)) return [];
  const t = anchorOf(a);
  return [['Council Tax', 14_300], ['Water Board', 3_250]].map(([name, minor], i) => ({
    AccountId: a.AccountId, DirectDebitId: `${a.AccountId}-dd-${i + 1}`, MandateIdentification: `MANDATE-${a.AccountId.toUpperCase()}-${i + 1}`,
    DirectDebitStatusCode: 'Active', Name: name as string, PreviousPaymentDateTime: iso(new Date(t - (10 + i * 7) * DAY)),
    PreviousPaymentAmount: amount(minor as number, a.Currency),
  }));
}

function standingOrdersOf(k: ResourceContext, c: AisConsent, a: FixtureAccount) {
  const detail = has(c, 'ReadStandingOrdersDetail') || k.faults.has('basic-shows-payee-detail');
  const t = anchorOf(a);
  const frequency = k.faults.has('standing-order-frequency-free-text') ? 'Monthly' : 'IntrvlMnthDay:01:15';
  return [{
    AccountId: a.AccountId, StandingOrderId: `${a.AccountId}-so-1`, Frequency: frequency, Reference: 'Rent',
    FirstPaymentDateTime: iso(new Date(t - 200 * DAY)), NextPaymentDateTime: iso(new Date(t + 20 * DAY)),
    StandingOrderStatusCode: 'Active', FirstPaymentAmount: amount(55_000, a.Currency), NextPaymentAmount: amount(55_000, a.Currency),
    ...(detail ? { CreditorAccount: payee(a, 1) } : {}),
  }];
}

/** Three payments scheduled 5, 40 and 400 days after the anchor day: a consent's period shows some of them. */
function scheduledPaymentsOf(k: ResourceContext, c: AisConsent, a: FixtureAccount) {
  const detail = has(c, 'ReadScheduledPaymentsDetail') || k.faults.has('basic-shows-payee-detail');
  const t = anchorOf(a);
  const { from, to } = period(k, c);
  return [5, 40, 400].map((days, i) => ({ days, i, when: t + days * DAY + 9 * 3_600_000 }))
    .filter(({ when }) => when >= from && when <= to)
    .map(({ i, when }) => ({
      AccountId: a.AccountId, ScheduledPaymentId: `${a.AccountId}-sp-${i + 1}`, ScheduledPaymentDateTime: iso(new Date(when)),
      ScheduledType: 'Execution', Reference: `Invoice ${i + 1}`, InstructedAmount: amount(2_500 * (i + 1), a.Currency),
      ...(detail ? { CreditorAccount: payee(a, i + 2) } : {}),
    }));
}

function offersOf(a: FixtureAccount) {
  if (!isCurrent(a)) return [];
  return [{
    AccountId: a.AccountId, OfferId: `${a.AccountId}-offer-1`, OfferType: 'LimitIncrease',
    Description: 'An agreed overdraft up to the amount shown', Amount: amount(100_000, a.Currency),
  }];
}

function partyOf(psu: FixturePsu, role?: string) {
  return {
    PartyId: `${psu.username}-party`, PartyNumber: `P${psu.username.toUpperCase()}`, PartyType: 'Sole', Name: psu.name,
    ...(role ? { AccountRole: role } : {}),
    Address: [{ AddressType: 'Residential', StreetName: 'High Street', BuildingNumber: '1', PostCode: 'SW1A 1AA', TownName: 'London', Country: 'GB' }],
  };
}

/** A joint account's holders: the PSU and the co-holder its name gives. */
function partiesOf(psu: FixturePsu, a: FixtureAccount) {
  const joint = a.Name.includes(' and ');
  const own = { ...partyOf(psu, 'UK.OBIE.Principal'), PartyType: joint ? 'Joint' : 'Sole' };
  if (!joint) return [own];
  return [own, { PartyId: `${a.AccountId}-co-holder`, PartyType: 'Joint', Name: a.Name.split(' and ')[1]!, AccountRole: 'UK.OBIE.SecondaryOwner' }];
}

function productOf(a: FixtureAccount) {
  const type = a.AccountSubType !== 'CurrentAccount' ? 'Other' : a.AccountType === 'Business' ? 'BusinessCurrentAccount' : 'PersonalCurrentAccount';
  return {
    AccountId: a.AccountId, ProductId: `${a.AccountSubType.toLowerCase()}-${a.AccountType.toLowerCase()}`, ProductName: `${a.AccountType} ${a.AccountSubType}`, ProductType: type,
    ...(type === 'Other' ? { OtherProductType: { Name: 'Instant access savings', Description: 'A savings account with instant access' } } : {}),
  };
}

/** Twelve monthly statements, the last one for the month before the anchor day. */
function statementsOf(a: FixtureAccount) {
  const anchor = new Date(anchorOf(a));
  return Array.from({ length: 12 }, (_, i) => {
    const start = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - 12 + i, 1);
    const end = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth() - 11 + i, 1) - 1000;
    return { id: `${a.AccountId}-st-${new Date(start).toISOString().slice(0, 7)}`, start, end };
  });
}

/**
 * The statements a consent shows: those wholly inside its Transaction period (FACTS §2.4), within the
 * statement-date filters; those it overlaps under one fault, every one under the other.
 */
function visibleStatements(k: ResourceContext, c: AisConsent, a: FixtureAccount, r: Req) {
  const { from, to } = period(k, c);
  const after = filterTime(r, 'fromStatementDateTime') ?? -Infinity;
  const before = filterTime(r, 'toStatementDateTime') ?? Infinity;
  const inside = (s: { start: number; end: number }) => (k.faults.has('statements-straddle-period') ? s.end >= from && s.start <= to : s.start >= from && s.end <= to);
  return statementsOf(a).filter((s) => inside(s) && s.end >= after && s.start <= before);
}

/**
 * A statement-date filter: an ISO 8601 date-time in its extended or basic form (2016-01-01T10:40:00,
 * 20160101T104012.345Z), its zone, if any, ignored as for the booking-date filters.
 */
function filterTime(r: Req, name: string): number | undefined {
  const value = r.query.get(name);
  if (value === null || value === '') return undefined;
  const basic = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\.\d+)?/.exec(value);
  const extended = basic ? `${basic[1]}-${basic[2]}-${basic[3]}T${basic[4]}:${basic[5]}:${basic[6]}${basic[7] ?? ''}${value.slice(basic[0].length)}` : value;
  const t = parseDateTime(extended.replace(/(Z|[+-]\d{2}(:?\d{2})?)$/i, ''));
  if (t === undefined || Number.isNaN(t)) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', `${name} is not a date-time`, name);
  return t;
}

function statementView(k: ResourceContext, c: AisConsent, a: FixtureAccount, s: { id: string; start: number; end: number }) {
  const closing = a.transactions.filter((t) => t.booking.getTime() <= s.end).at(-1)?.balanceAfter ?? 0;
  return {
    AccountId: a.AccountId, StatementId: s.id, Type: 'RegularPeriodic',
    StartDateTime: iso(new Date(s.start)), EndDateTime: iso(new Date(s.end)), CreationDateTime: iso(new Date(s.end + 1000)),
    StatementDescription: [`Statement for ${new Date(s.start).toISOString().slice(0, 7)}`],
    // The amounts come with ReadStatementsDetail only.
    ...(has(c, 'ReadStatementsDetail') || k.faults.has('basic-shows-statement-amounts') ? {
      StatementAmount: [{ CreditDebitIndicator: closing < 0 ? 'Debit' : 'Credit', Type: 'UK.OBIE.ClosingBalance', Amount: { Amount: money(closing), Currency: a.Currency } }],
    } : {}),
  };
}

function statementOf(k: ResourceContext, c: AisConsent, a: FixtureAccount, r: Req) {
  const s = visibleStatements(k, c, a, r).find((x) => x.id === r.params.statementId);
  if (!s) throw notFound('statement', 'StatementId');
  return s;
}

// ---- routes ------------------------------------------------------------------------------------

const ok = (r: Req, data: Record<string, unknown>, meta: Record<string, unknown> = { TotalPages: 1 }): Reply => ({ status: 200, body: { Data: data, Links: links(r), Meta: meta } });

/** One account's resource, or every consented account's: the same handler for both paths. */
function perAccountOrBulk(make: (k: ResourceContext, c: AisConsent, a: FixtureAccount, r: Req) => unknown[], key: string, ...permissions: string[]) {
  return async (k: ResourceContext, r: Req): Promise<Reply> => {
    const c = r.params.accountId === undefined ? await bulkConsent(k, r) : await aisConsent(k, r);
    needs(k, c, ...permissions);
    // The fault answers an account outside the consent as if it had nothing, where the standard refuses it.
    const foreign = r.params.accountId !== undefined && k.faults.has('foreign-account-empty-list') && !consentAccounts(k, c).some((a) => a.AccountId === r.params.accountId);
    const accounts = r.params.accountId === undefined ? bulkAccounts(k, c) : foreign ? [] : [consentAccount(k, c, r.params.accountId)];
    return ok(r, { [key]: accounts.flatMap((a) => make(k, c, a, r)) });
  };
}

/** The fault that answers with an interaction id of the bank's own, on the reads of this module. */
function echoing(handler: UkRoute['handler']): UkRoute['handler'] {
  return async (k, r) => {
    const reply = await handler(k, r);
    if (!k.faults.has('uk-reads-interaction-id-not-echoed')) return reply;
    return { ...reply, headers: { ...reply.headers, 'x-fapi-interaction-id': randomUUID() } };
  };
}

/**
 * GET below a per-account read (`…/direct-debits/foobar`): the standard defines no such path, so
 * 404; the fault answers 200 with an empty Data.
 */
async function undefinedSubresource(k: ResourceContext, r: Req): Promise<Reply> {
  if (k.faults.has('undefined-subresource-answered')) return ok(r, {});
  return { status: 404 };
}

const balances = perAccountOrBulk((k, _c, a) => balancesOf(k, a), 'Balance', 'ReadBalances');
const beneficiaries = perAccountOrBulk((k, c, a) => beneficiariesOf(k, c, a), 'Beneficiary', 'ReadBeneficiariesBasic', 'ReadBeneficiariesDetail');
const directDebits = perAccountOrBulk((_k, _c, a) => directDebitsOf(a), 'DirectDebit', 'ReadDirectDebits');
const standingOrders = perAccountOrBulk(standingOrdersOf, 'StandingOrder', 'ReadStandingOrdersBasic', 'ReadStandingOrdersDetail');
const scheduledPayments = perAccountOrBulk(scheduledPaymentsOf, 'ScheduledPayment', 'ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail');
const offers = perAccountOrBulk((_k, _c, a) => offersOf(a), 'Offer', 'ReadOffers');
const products = perAccountOrBulk((_k, _c, a) => [productOf(a)], 'Product', 'ReadProducts');
const statements = perAccountOrBulk((k, c, a, r) => visibleStatements(k, c, a, r).map((s) => statementView(k, c, a, s)), 'Statement', 'ReadStatementsBasic', 'ReadStatementsDetail');

/** GET /transactions: every consented account's transactions, as the per-account read shows them. */
async function listTransactions(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await bulkConsent(k, r);
  if (!has(c, 'ReadTransactionsBasic', 'ReadTransactionsDetail') && !k.faults.has('uk-resource-permission-not-enforced')) throw forbidden('the consent does not grant ReadTransactionsBasic or ReadTransactionsDetail');
  const w = window(k, c, r);
  const list = bulkAccounts(k, c).flatMap((a) => a.transactions.filter((t) => visible(k, c, t, w)).map((t) => transactionView(k, c, a, t)));
  return ok(r, { Transaction: list });
}

async function getParty(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await bulkConsent(k, r);
  needs(k, c, 'ReadPartyPSU');
  const psu = k.store.psu(c.psu);
  if (!psu) throw notFound('party');
  return ok(r, { Party: partyOf(psu) });
}

async function getAccountParty(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'ReadParty');
  const a = consentAccount(k, c, r.params.accountId);
  return ok(r, { Party: partiesOf(k.store.psu(c.psu)!, a)[0] });
}

async function getAccountParties(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'ReadParty');
  const a = consentAccount(k, c, r.params.accountId);
  return ok(r, { Party: partiesOf(k.store.psu(c.psu)!, a) });
}

async function getStatement(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'ReadStatementsBasic', 'ReadStatementsDetail');
  const a = consentAccount(k, c, r.params.accountId);
  return ok(r, { Statement: [statementView(k, c, a, statementOf(k, c, a, r))] });
}

/** The statement as a PDF: ReadStatementsDetail only (the standard's "download statement file"). */
async function getStatementFile(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'ReadStatementsDetail');
  const a = consentAccount(k, c, r.params.accountId);
  const s = statementOf(k, c, a, r);
  const text = `Statement ${s.id} of ${a.Name}, ${iso(new Date(s.start))} to ${iso(new Date(s.end))}`;
  if (k.faults.has('statement-file-empty')) return { status: 200, body: Buffer.alloc(0), headers: { 'content-type': 'application/pdf' } };
  const pdf = Buffer.from(`%PDF-1.4\n1 0 obj << /Title (${text}) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
  return { status: 200, body: pdf, headers: { 'content-type': 'application/pdf' } };
}

/** A statement's transactions: both the statement's permission and a transactions one; booked inside the statement and the consent's window. */
async function getStatementTransactions(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'ReadStatementsBasic', 'ReadStatementsDetail');
  needs(k, c, 'ReadTransactionsBasic', 'ReadTransactionsDetail');
  const a = consentAccount(k, c, r.params.accountId);
  const s = statementOf(k, c, a, r);
  const w = window(k, c, r);
  // The fault lists the account's every transaction, whatever the statement's and the consent's periods.
  const unbounded = k.faults.has('statement-transactions-outside-period');
  const inStatement = (t: FixtureAccount['transactions'][number]) => unbounded || (t.booking.getTime() >= s.start && t.booking.getTime() <= s.end);
  const list = a.transactions.filter((t) => inStatement(t) && visible(k, c, t, unbounded ? { from: -Infinity, to: Infinity } : w))
    .map((t) => transactionView(k, c, a, t));
  return ok(r, { Transaction: list }, periodMeta(k, a, { from: Math.max(s.start, w.from), to: Math.min(s.end, w.to) }));
}

/**
 * The routes only the UK layout has, below /aisp (index.ts places them). The per-account reads of
 * balances and beneficiaries stay in ais.ts; their bulk forms are here.
 */
export const AIS_UK_ONLY_ROUTES: UkRoute[] = [
  route(A, 'GET', '/balances', echoing(balances), { operation: 'listBalances' }),
  route(A, 'GET', '/transactions', echoing(listTransactions), { operation: 'listTransactions' }),
  route(A, 'GET', '/beneficiaries', echoing(beneficiaries), { operation: 'listBeneficiaries' }),
  route(A, 'GET', '/direct-debits', echoing(directDebits), { operation: 'listDirectDebits' }),
  route(A, 'GET', '/accounts/:accountId/direct-debits', echoing(directDebits), { operation: 'getDirectDebits' }),
  route(A, 'GET', '/standing-orders', echoing(standingOrders), { operation: 'listStandingOrders' }),
  route(A, 'GET', '/accounts/:accountId/standing-orders', echoing(standingOrders), { operation: 'getStandingOrders' }),
  route(A, 'GET', '/scheduled-payments', echoing(scheduledPayments), { operation: 'listScheduledPayments' }),
  route(A, 'GET', '/accounts/:accountId/scheduled-payments', echoing(scheduledPayments), { operation: 'getScheduledPayments' }),
  route(A, 'GET', '/offers', echoing(offers), { operation: 'listOffers' }),
  route(A, 'GET', '/accounts/:accountId/offers', echoing(offers), { operation: 'getOffers' }),
  route(A, 'GET', '/party', echoing(getParty), { operation: 'getParty' }),
  route(A, 'GET', '/accounts/:accountId/party', echoing(getAccountParty), { operation: 'getAccountParty' }),
  route(A, 'GET', '/accounts/:accountId/parties', echoing(getAccountParties), { operation: 'getAccountParties' }),
  route(A, 'GET', '/products', echoing(products), { operation: 'listProducts' }),
  route(A, 'GET', '/accounts/:accountId/product', echoing(products), { operation: 'getProduct' }),
  route(A, 'GET', '/statements', echoing(statements), { operation: 'listStatements' }),
  route(A, 'GET', '/accounts/:accountId/statements', echoing(statements), { operation: 'getStatements' }),
  route(A, 'GET', '/accounts/:accountId/statements/:statementId', echoing(getStatement), { operation: 'getStatement' }),
  route(A, 'GET', '/accounts/:accountId/statements/:statementId/file', echoing(getStatementFile), { operation: 'getStatementFile' }),
  route(A, 'GET', '/accounts/:accountId/statements/:statementId/transactions', echoing(getStatementTransactions), { operation: 'getStatementTransactions' }),
  // Matched after every read above: a path below a per-account read that the standard does not define.
  route(A, 'GET', '/accounts/:accountId/:resource/:undefined', undefinedSubresource),
];
