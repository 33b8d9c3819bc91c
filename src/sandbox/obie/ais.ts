/**
 * Account information (UK, variants A and B): account-access consents (create, read, delete) and
 * the data they open (accounts, balances, transactions), with the faults that bend them.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import { availableBalance, money } from '../fixtures.ts';
import type { FixtureAccount, FixtureTransaction } from '../fixtures.ts';
import type { AisConsent, Consent } from '../store.ts';
import {
  AB, A, ApiError, authenticate, clientCredentials, forbidden, idempotent, invalid, isObject, iso, links, missing, notFound,
  parseDateTime, requireDateTime, route, status, unauthorised,
  type Reply, type Req, type ResourceContext, type UkRoute,
} from './plumbing.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const AIS_FAULTS = [
  { name: 'consent-status-not-awaiting', rule: 'AIS-01', description: 'new account-access consents start as Authorised', kind: 'rule' },
  { name: 'consent-reads-back-changed', rule: 'AIS-02', description: 'GET /account-access-consents/{ConsentId} of an authorised consent reads back with its ExpirationDateTime a year later and its TransactionFromDateTime a year earlier (access itself unchanged)', kind: 'rule' },
  { name: 'unselected-accounts', rule: 'AIS-04', description: 'GET /accounts returns, and data calls accept, every account of the PSU', kind: 'rule' },
  { name: 'no-token-data-access', rule: 'AIS-05', description: 'data calls without a token are answered (with the PSU\'s first consent)', kind: 'rule' },
  { name: 'client-credentials-data-access', rule: 'AIS-05', description: 'data calls with a client-credentials token are answered', kind: 'rule' },
  { name: 'transactions-outside-period', rule: 'AIS-07', description: 'transactions are not bounded by the Transaction Validity Period', kind: 'rule' },
  { name: 'expired-consent-access', rule: 'AIS-08', description: 'an expired account-access consent still gives access', kind: 'rule' },
  { name: 'permission-not-enforced', rule: 'AIS-09', description: 'balances and transactions are returned without their permission', kind: 'rule' },
  // The UK layout's Basic/Detail clusters and ReadPAN (rules UKAIS-02, UKAIS-05: judged in a uk-3.1 or uk-4.0 run).
  { name: 'basic-shows-account-detail', rule: 'UKAIS-02', description: 'accounts read under ReadAccountsBasic carry their Account (scheme and identification) and Servicer, which only ReadAccountsDetail opens', kind: 'rule' },
  { name: 'basic-shows-transaction-detail', rule: 'UKAIS-02', description: 'transactions read under ReadTransactionsBasic (per account, in bulk, of a statement) carry TransactionInformation, Balance and MerchantDetails, which only ReadTransactionsDetail opens', kind: 'rule' },
  { name: 'basic-shows-beneficiary-detail', rule: 'UKAIS-02', description: 'beneficiaries read under ReadBeneficiariesBasic carry the payee\'s CreditorAccount, which only ReadBeneficiariesDetail opens', kind: 'rule' },
  { name: 'pan-unmasked', rule: 'UKAIS-05', description: 'the card PAN of a card payment (CardInstrument.Identification) comes in the clear under a consent without ReadPAN', kind: 'rule' },
  { name: 'account-field-missing', rule: 'AIS-11', description: 'accounts come without their Currency (a SHOULD of the standard\'s prose: the official schema makes it optional)', kind: 'rule', level: 'SHOULD' },
  { name: 'accounts-not-array', rule: 'AIS-11', description: 'GET /accounts answers Data.Account as one object (the first account), not an array', kind: 'rule' },
  { name: 'currency-lowercase', rule: 'AIS-11', description: 'accounts carry their Currency in lower case ("gbp"), not an ISO 4217 code', kind: 'rule' },
  { name: 'deleted-consent-opens-data', rule: 'AIS-12', description: 'DELETE /account-access-consents/{ConsentId} answers 204 and the consent reads as gone, but its tokens still open the accounts', kind: 'rule' },
  { name: 'zero-balance', rule: 'COF-05', description: 'every balance reads 0.00 (an empty account), so no amount is surely covered by the available balance', kind: 'data' },
] as const satisfies readonly FaultDeclaration[];

const PERMISSIONS = new Set([
  'ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances', 'ReadBeneficiariesBasic', 'ReadBeneficiariesDetail',
  'ReadDirectDebits', 'ReadOffers', 'ReadPAN', 'ReadParty', 'ReadPartyPSU', 'ReadProducts',
  'ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail', 'ReadStandingOrdersBasic', 'ReadStandingOrdersDetail',
  'ReadStatementsBasic', 'ReadStatementsDetail', 'ReadTransactionsBasic', 'ReadTransactionsCredits',
  'ReadTransactionsDebits', 'ReadTransactionsDetail',
]);

/** A booking-date query filter: a date or date-time whose zone, if any, is ignored (OBIE). */
function parseFilter(query: URLSearchParams, name: string, endOfDay: boolean): number | undefined {
  const value = query.get(name);
  if (value === null || value === '') return undefined;
  const local = value.replace(/(Z|[+-]\d{2}:?\d{2})$/i, '');
  const t = /^\d{4}-\d{2}-\d{2}$/.test(local)
    ? Date.parse(local + (endOfDay ? 'T23:59:59.999Z' : 'T00:00:00Z'))
    : parseDateTime(local);
  if (t === undefined || Number.isNaN(t)) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', `${name} is not a date-time`, name);
  return t;
}

// ---- the consent a data call runs under --------------------------------------------------

function firstAuthorisedAis(k: ResourceContext, clientId?: string): AisConsent | undefined {
  // The faulty bank falls back on a consent that still works (authorised and unexpired).
  return [...k.store.consents.values()].find((c): c is AisConsent =>
    c.kind === 'ais' && c.Status === 'Authorised' && c.psu !== undefined && (clientId === undefined || c.clientId === clientId)
    && k.store.now() < Date.parse(c.ExpirationDateTime));
}

/** The Authorised, unexpired account-access consent a data call runs under. */
export async function aisConsent(k: ResourceContext, r: Req): Promise<AisConsent> {
  const { store, faults } = k;
  const auth = await authenticate(k, r);
  let consent: Consent | undefined;
  if (!auth) {
    consent = faults.has('no-token-data-access') ? firstAuthorisedAis(k) : undefined;
    if (!consent) throw unauthorised('an access token is required');
  } else if (auth.kind === 'cc') {
    consent = faults.has('client-credentials-data-access') ? firstAuthorisedAis(k, auth.clientId) : undefined;
    // The UK layouts answer as the standard's conformance suites assert (401, v3.1 and v4.0); the spec's layout keeps its 403.
    if (!consent) throw (r.layout === 'uk-3.1' || r.layout === 'uk-4.0' ? unauthorised : forbidden)('account data needs the PSU\'s authorization-code token, not a client-credentials token');
  } else {
    consent = auth.consent;
    if (consent?.kind !== 'ais' || !auth.scopes.includes('accounts')) throw forbidden('the access token was not issued for an account-access consent');
  }
  if (consent.kind !== 'ais') throw forbidden('the access token was not issued for an account-access consent');
  if (consent.deleted && !faults.has('deleted-consent-opens-data')) throw unauthorised('the consent has been deleted');
  if (consent.Status !== 'Authorised') throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${consent.Status}`);
  if (store.now() >= Date.parse(consent.ExpirationDateTime) && !faults.has('expired-consent-access')) throw unauthorised('the consent has expired');
  return consent;
}

export const has = (c: AisConsent, ...permissions: string[]) => permissions.some((p) => c.Permissions.includes(p));

function needs(k: ResourceContext, c: AisConsent, what: string, ...permissions: string[]): void {
  if (has(c, ...permissions)) return;
  if (!k.faults.has('permission-not-enforced') || what === 'accounts') throw forbidden(`the consent does not grant ${permissions.join(' or ')}`);
}

export function consentAccounts(k: ResourceContext, c: AisConsent): FixtureAccount[] {
  const psu = k.store.psu(c.psu);
  if (!psu) return [];
  return k.faults.has('unselected-accounts') ? psu.accounts : psu.accounts.filter((a) => c.accounts.includes(a.AccountId));
}

export function consentAccount(k: ResourceContext, c: AisConsent, accountId: string): FixtureAccount {
  const account = consentAccounts(k, c).find((a) => a.AccountId === accountId);
  if (!account) throw forbidden('the account is not part of this consent', 'AccountId');
  return account;
}

// ---- representations ---------------------------------------------------------------------

function accountView(k: ResourceContext, a: FixtureAccount, detail: boolean) {
  const { faults } = k;
  return {
    AccountId: a.AccountId,
    Status: 'Enabled',
    StatusUpdateDateTime: iso(a.OpeningDate),
    ...(faults.has('account-field-missing') ? {} : { Currency: faults.has('currency-lowercase') ? a.Currency.toLowerCase() : a.Currency }),
    AccountType: a.AccountType,
    AccountSubType: a.AccountSubType,
    Nickname: a.Nickname,
    OpeningDate: iso(a.OpeningDate),
    ...(detail ? {
      Account: [{ SchemeName: a.SchemeName, Identification: a.Identification, Name: a.Name }],
      Servicer: { SchemeName: 'UK.OBIE.BICFI', Identification: 'SBXBGB2LXXX' },
    } : {}),
  };
}

export const amount = (minor: number, currency: string) => ({ Amount: money(minor), Currency: currency });
const indicator = (minor: number) => (minor < 0 ? 'Debit' : 'Credit');

/** Whether an account's scheme, identification and servicer are shown: ReadAccountsDetail only (FACTS §2.3). */
function accountDetail(k: ResourceContext, c: AisConsent): boolean {
  return has(c, 'ReadAccountsDetail') || k.faults.has('basic-shows-account-detail');
}

/** The debits paid by card at a merchant (the others are direct debits and transfers). */
const CARD_MERCHANTS = new Set(['Tesco Stores', 'Transport for London', 'Pret A Manger', 'Amazon UK', 'Boots']);

/** The check digit of ISO/IEC 7812 (Luhn) for the digits before it. */
function luhnDigit(payload: string): string {
  let sum = 0;
  for (let i = 0; i < payload.length; i++) {
    let d = Number(payload[payload.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** A current account's debit card: a 16-digit VISA PAN made from the account's number (the same every run). */
function panOf(a: FixtureAccount): string {
  const payload = `4${a.Identification.slice(-8)}${a.Identification.slice(0, 6)}`;
  return payload + luhnDigit(payload);
}

/**
 * The card a card payment was made with. Its PAN comes in the clear only under ReadPAN; without it,
 * masked, its first six and last four digits kept (FACTS §2.3: "Without ReadPAN, PANs come back masked").
 */
function cardInstrument(k: ResourceContext, c: AisConsent, a: FixtureAccount, t: FixtureTransaction) {
  if (t.credit || a.AccountSubType !== 'CurrentAccount' || !CARD_MERCHANTS.has(t.counterparty)) return undefined;
  const pan = panOf(a);
  const clear = has(c, 'ReadPAN') || k.faults.has('pan-unmasked');
  return { CardSchemeName: 'VISA', AuthorisationType: 'Contactless', Name: a.Name.slice(0, 70), Identification: clear ? pan : `${pan.slice(0, 6)}******${pan.slice(-4)}` };
}

/** A transaction as the consent shows it: the Detail fields with ReadTransactionsDetail only (FACTS §2.3). */
export function transactionView(k: ResourceContext, c: AisConsent, a: FixtureAccount, t: FixtureTransaction) {
  const detail = has(c, 'ReadTransactionsDetail') || k.faults.has('basic-shows-transaction-detail');
  const card = cardInstrument(k, c, a, t);
  return {
    AccountId: a.AccountId,
    TransactionId: t.TransactionId,
    TransactionReference: t.reference,
    CreditDebitIndicator: t.credit ? 'Credit' : 'Debit',
    Status: 'Booked',
    BookingDateTime: iso(t.booking),
    ValueDateTime: iso(t.booking),
    Amount: amount(t.amount, a.Currency),
    BankTransactionCode: t.code,
    ...(card ? { CardInstrument: card } : {}),
    ...(detail ? {
      TransactionInformation: t.information,
      Balance: { CreditDebitIndicator: indicator(t.balanceAfter), Type: 'InterimBooked', Amount: amount(t.balanceAfter, a.Currency) },
      ...(t.credit ? {} : { MerchantDetails: { MerchantName: t.counterparty } }),
    } : {}),
  };
}

/** The booking window a consent allows, narrowed by the query filter (never an error). */
export function window(k: ResourceContext, c: AisConsent, r: Req): { from: number; to: number } {
  const bounded = !k.faults.has('transactions-outside-period');
  const from = Math.max(bounded ? Date.parse(c.TransactionFromDateTime) : -Infinity, parseFilter(r.query, 'fromBookingDateTime', false) ?? -Infinity);
  const to = Math.min(bounded ? Date.parse(c.TransactionToDateTime) : Infinity, parseFilter(r.query, 'toBookingDateTime', true) ?? Infinity);
  return { from, to };
}

/** Which transactions a consent shows: inside the window, in the directions it grants. */
export function visible(k: ResourceContext, c: AisConsent, t: FixtureTransaction, w: { from: number; to: number }): boolean {
  const time = t.booking.getTime();
  if (time < w.from || time > w.to) return false;
  if (k.faults.has('permission-not-enforced') && !has(c, 'ReadTransactionsCredits', 'ReadTransactionsDebits')) return true;
  return t.credit ? has(c, 'ReadTransactionsCredits') : has(c, 'ReadTransactionsDebits');
}

// ---- account-access consents ---------------------------------------------------------------

async function createAccountAccessConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const { store, faults } = k;
  const auth = await clientCredentials(k, r, 'accounts');
  const data = r.body?.Data;
  if (!isObject(data)) throw missing('Data');
  const permissions = data.Permissions;
  if (permissions === undefined) throw missing('Data.Permissions');
  if (!Array.isArray(permissions) || permissions.length === 0) throw invalid('Data.Permissions', 'must list at least one permission');
  for (const p of permissions) if (typeof p !== 'string' || !PERMISSIONS.has(p)) throw invalid('Data.Permissions', `has an unknown permission ${JSON.stringify(p)}`);
  const set = new Set<string>(permissions);
  if (!set.has('ReadAccountsBasic') && !set.has('ReadAccountsDetail')) throw invalid('Data.Permissions', 'must include ReadAccountsBasic or ReadAccountsDetail');
  const kinds = set.has('ReadTransactionsBasic') || set.has('ReadTransactionsDetail');
  const directions = set.has('ReadTransactionsCredits') || set.has('ReadTransactionsDebits');
  if (kinds !== directions) throw invalid('Data.Permissions', 'must pair ReadTransactionsBasic/Detail with ReadTransactionsCredits/Debits');
  const expiry = requireDateTime(data, 'ExpirationDateTime', true)!;
  const from = requireDateTime(data, 'TransactionFromDateTime', true)!;
  const to = requireDateTime(data, 'TransactionToDateTime', true)!;
  if (expiry <= store.now()) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', 'Data.ExpirationDateTime is in the past', 'Data.ExpirationDateTime');
  if (from > to) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', 'Data.TransactionFromDateTime is after Data.TransactionToDateTime', 'Data.TransactionFromDateTime');
  if (r.body.Risk !== undefined && !isObject(r.body.Risk)) throw invalid('Risk', 'must be an object');
  const consent = idempotent(k, r, auth.clientId, 'account-access-consents', false, () => store.add<AisConsent>({
    kind: 'ais', clientId: auth.clientId,
    Status: faults.has('consent-status-not-awaiting') ? 'Authorised' : 'AwaitingAuthorisation',
    Permissions: [...permissions], ExpirationDateTime: data.ExpirationDateTime,
    TransactionFromDateTime: data.TransactionFromDateTime, TransactionToDateTime: data.TransactionToDateTime, accounts: [],
  }));
  return {
    status: status(k, r, true),
    body: {
      Data: {
        ConsentId: consent.ConsentId, Status: consent.Status, CreationDateTime: iso(consent.CreationDateTime), StatusUpdateDateTime: iso(consent.StatusUpdateDateTime),
        Permissions: consent.Permissions, ExpirationDateTime: consent.ExpirationDateTime,
        TransactionFromDateTime: consent.TransactionFromDateTime, TransactionToDateTime: consent.TransactionToDateTime,
      },
      Risk: {},
      Links: { Self: `${r.self}/${consent.ConsentId}` },
      Meta: {},
    },
  };
}

/** The account-access consent as a read answers it (AIS-02's read-back side). */
function aisConsentBody(k: ResourceContext, c: AisConsent, self: string) {
  // The fault reads back dates the TPP never asked for; what the consent grants stays as it was.
  const changed = k.faults.has('consent-reads-back-changed') && c.Status === 'Authorised';
  const shift = (value: string, years: number) => {
    const d = new Date(value);
    d.setUTCFullYear(d.getUTCFullYear() + years);
    return iso(d);
  };
  return {
    Data: {
      ConsentId: c.ConsentId, Status: c.Status, CreationDateTime: iso(c.CreationDateTime), StatusUpdateDateTime: iso(c.StatusUpdateDateTime),
      Permissions: c.Permissions,
      ExpirationDateTime: changed ? shift(c.ExpirationDateTime, 1) : c.ExpirationDateTime,
      TransactionFromDateTime: changed ? shift(c.TransactionFromDateTime, -1) : c.TransactionFromDateTime,
      TransactionToDateTime: c.TransactionToDateTime,
    },
    Risk: {},
    Links: { Self: self },
    Meta: {},
  };
}

/** The client's own account-access consent named in the path; a deleted one is gone (400, as the standard says). */
async function ownAisConsent(k: ResourceContext, r: Req): Promise<AisConsent> {
  const auth = await clientCredentials(k, r, 'accounts');
  const c = k.store.consents.get(r.params.consentId);
  if (!c || c.kind !== 'ais' || c.clientId !== auth.clientId || c.deleted) throw notFound('account-access consent', 'ConsentId');
  return c;
}

async function getAccountAccessConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await ownAisConsent(k, r);
  return { status: 200, body: aisConsentBody(k, c, r.self) };
}

/** Deletes the consent and revokes every token issued for it (unless the fault keeps them working). */
async function deleteAccountAccessConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const { store, provider } = k;
  const c = await ownAisConsent(k, r);
  c.deleted = true;
  if (!k.faults.has('deleted-consent-opens-data')) {
    for (const [grantId, intent] of store.intentByGrant) {
      if (intent !== c.ConsentId) continue;
      await provider.AccessToken.revokeByGrantId(grantId);
      await provider.RefreshToken.revokeByGrantId(grantId);
    }
  }
  return { status: 204 };
}

// ---- accounts, balances, transactions ------------------------------------------------------

async function listAccounts(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'accounts', 'ReadAccountsBasic', 'ReadAccountsDetail');
  const accounts = consentAccounts(k, c).map((a) => accountView(k, a, accountDetail(k, c)));
  // The fault answers the list's first account as an object where the standard wants an array.
  return { status: 200, body: { Data: { Account: k.faults.has('accounts-not-array') ? accounts[0] ?? {} : accounts }, Links: links(r), Meta: { TotalPages: 1 } } };
}

async function getAccount(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'accounts', 'ReadAccountsBasic', 'ReadAccountsDetail');
  const a = consentAccount(k, c, r.params.accountId);
  return { status: 200, body: { Data: { Account: [accountView(k, a, accountDetail(k, c))] }, Links: links(r), Meta: { TotalPages: 1 } } };
}

async function getBalances(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'balances', 'ReadBalances');
  const a = consentAccount(k, c, r.params.accountId);
  return { status: 200, body: { Data: { Balance: balancesOf(k, a) }, Links: links(r), Meta: { TotalPages: 1 } } };
}

/** An account's booked and available balances (the bulk read of the UK layout lists every account's). */
export function balancesOf(k: ResourceContext, a: FixtureAccount) {
  const now = iso(new Date(k.store.now()));
  // The zero-balance data fault shows an empty account (its funds confirmations still use the real balance).
  const empty = k.faults.has('zero-balance');
  const available = empty ? 0 : availableBalance(a);
  const booked = empty ? 0 : a.booked;
  const balance = [
    { AccountId: a.AccountId, CreditDebitIndicator: indicator(booked), Type: 'InterimBooked', DateTime: now, Amount: amount(booked, a.Currency) },
    {
      AccountId: a.AccountId, CreditDebitIndicator: indicator(available), Type: 'InterimAvailable', DateTime: now, Amount: amount(available, a.Currency),
      ...(a.creditLine > 0 && !empty ? { CreditLine: [{ Included: true, Type: 'Pre-Agreed', Amount: amount(a.creditLine, a.Currency) }] } : {}),
    },
  ];
  return balance;
}

/**
 * GET /accounts/{AccountId}/beneficiaries (v3.1.11): the PSU's other accounts, trusted, and one
 * ordinary payee. The creditor's account and agent come only with ReadBeneficiariesDetail.
 */
async function getBeneficiaries(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'beneficiaries', 'ReadBeneficiariesBasic', 'ReadBeneficiariesDetail');
  const a = consentAccount(k, c, r.params.accountId);
  return { status: 200, body: { Data: { Beneficiary: beneficiariesOf(k, c, a) }, Links: links(r), Meta: { TotalPages: 1 } } };
}

/** An account's beneficiaries as the consent shows them (the bulk read of the UK layout lists every account's). */
export function beneficiariesOf(k: ResourceContext, c: AisConsent, a: FixtureAccount) {
  const detail = has(c, 'ReadBeneficiariesDetail') || k.faults.has('basic-shows-beneficiary-detail');
  const own = (k.store.psu(c.psu)?.accounts ?? []).filter((o) => o.AccountId !== a.AccountId)
    .map((o) => ({ type: 'Trusted', reference: `To ${o.Nickname}`, account: { SchemeName: o.SchemeName, Identification: o.Identification, Name: o.Name } }));
  const payees = [...own, { type: 'Ordinary', reference: 'Rent', account: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '30963452000417', Name: 'Bob Baker' } }];
  const beneficiary = payees.map((b, i) => ({
    AccountId: a.AccountId, BeneficiaryId: `${a.AccountId}-ben-${i + 1}`, BeneficiaryType: b.type, Reference: b.reference,
    ...(detail ? { CreditorAccount: b.account } : {}),
  }));
  return beneficiary;
}

export function periodMeta(k: ResourceContext, a: FixtureAccount, w: { from: number; to: number }) {
  const first = Number.isFinite(w.from) ? w.from : a.transactions[0]?.booking.getTime() ?? k.store.now();
  const last = Number.isFinite(w.to) ? w.to : k.store.now();
  return { TotalPages: 1, FirstAvailableDateTime: iso(new Date(first)), LastAvailableDateTime: iso(new Date(Math.max(first, last))) };
}

async function getTransactions(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'transactions', 'ReadTransactionsBasic', 'ReadTransactionsDetail');
  const a = consentAccount(k, c, r.params.accountId);
  const w = window(k, c, r);
  const list = a.transactions.filter((t) => visible(k, c, t, w)).map((t) => transactionView(k, c, a, t));
  return { status: 200, body: { Data: { Transaction: list }, Links: links(r), Meta: periodMeta(k, a, w) } };
}

async function getTransaction(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await aisConsent(k, r);
  needs(k, c, 'transactions', 'ReadTransactionsBasic', 'ReadTransactionsDetail');
  const a = consentAccount(k, c, r.params.accountId);
  const w = window(k, c, r);
  const t = a.transactions.find((x) => x.TransactionId === r.params.resourceId);
  if (!t || !visible(k, c, t, w)) throw notFound('transaction', 'resourceId');
  return { status: 200, body: { Data: { Transaction: [transactionView(k, c, a, t)] }, Links: links(r), Meta: { TotalPages: 1 } } };
}

/** The routes of account information, in matching order. */
export const AIS_ROUTES: UkRoute[] = [
  route(AB, 'POST', '/account-access-consents', createAccountAccessConsent),
  route(AB, 'POST', '/consents', createAccountAccessConsent),
  // Read and delete: the spec leaves revocation "not shown", so the UK standard's endpoints, in both variants.
  route(AB, 'GET', '/account-access-consents/:consentId', getAccountAccessConsent),
  route(AB, 'DELETE', '/account-access-consents/:consentId', deleteAccountAccessConsent),
  route(AB, 'GET', '/consents/:consentId', getAccountAccessConsent),
  route(AB, 'DELETE', '/consents/:consentId', deleteAccountAccessConsent),
  route(AB, 'GET', '/accounts', listAccounts),
  route(AB, 'GET', '/accounts/:accountId', getAccount),
  route(AB, 'GET', '/accounts/:accountId/balances', getBalances),
  route(AB, 'GET', '/accounts/:accountId/beneficiaries', getBeneficiaries),
  route(AB, 'GET', '/accounts/:accountId/transactions', getTransactions),
];

/** Variant A's transaction detail sits directly under the base, as the spec writes it: matched after every other API's routes. */
export const AIS_LAST_ROUTES: UkRoute[] = [
  route(A, 'GET', '/:accountId/transactions/:resourceId', getTransaction),
];
