/**
 * Larchmont Bank's NextGenPSD2 (Berlin Group XS2A 1.3.12) interface, written from the official
 * file alone and importing nothing from src/: consents, accounts, balances, transactions (booked
 * and pending, by bookingStatus), single payments and funds confirmation under /psd2/v1/…, the
 * redirect SCA approach only (its own two-page sign-in and decision at /sca/{authorisationId}).
 * Its authorisation server publishes a discovery document and nothing else: no consent or payment
 * here is authorised by OAuth2.
 *
 * As the file says (POST /v1/consents, "Side Effects"): once the PSU authorises a recurring
 * consent, the PSU's former recurring consent expires. Payments are single, periodic (standing
 * orders) or bulk, of the SEPA and instant SEPA products. A payment is cancelled (DELETE) only with
 * the PSU's authorisation, always (202, then …/cancellation-authorisations by redirect), until it
 * is settled, rejected or cancelled (405 CANCELLATION_INVALID). It keeps its own ways: resourceIds are
 * opaque, amounts carry no more decimals than needed, one pending card payment per account.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const DAY = 86_400_000;

interface Txn { id: string; ref: string; cents: number; booked: number; party: string }
interface Account { resourceId: string; iban: string; name: string; cents: number; txns: Txn[] }
interface Customer { login: string; password: string; owner: string; accounts: Account[] }

type ConsentStatus = 'received' | 'rejected' | 'valid' | 'expired' | 'terminatedByTpp';
interface Consent {
  kind: 'consent'; id: string; authorisationId: string; status: ConsentStatus; access: Record<string, unknown>;
  recurring: boolean; validUntil: string; frequencyPerDay: number; lastActionDate: string;
  redirect: string; nokRedirect?: string; login?: string; accounts: string[]; balances: string[]; transactions: string[];
  /** Accesses without the PSU per day and path. */
  unattended: Map<string, number>;
}
interface Payment {
  kind: 'payment'; id: string; authorisationId: string; service: string; product: string; body: Record<string, any>; status: string;
  redirect: string; nokRedirect?: string; login?: string;
  /** The TPP asked to cancel it (DELETE); the PSU has yet to authorise that. */
  cancelAsked?: boolean;
  cancellations: string[];
}
/** The PSU's authorisation of a payment's cancellation (…/cancellation-authorisations/{id}). */
interface Cancellation {
  kind: 'cancellation'; id: string; payment: Payment; scaStatus: 'received' | 'psuAuthenticated' | 'finalised' | 'failed'; redirect: string;
}

/** ISO 13616 check digits. */
function iban(bank: string, account: string): string {
  const bban = `${bank}${account}`;
  const digits = `${bban}DE00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return `DE${String(98n - (BigInt(digits) % 97n)).padStart(2, '0')}${bban}`;
}

function customers(now: number): Customer[] {
  const txns = (seed: number): Txn[] => Array.from({ length: 60 }, (_, i) => ({
    id: `LB${seed}${String(i).padStart(3, '0')}`,
    ref: `REF-${seed}-${i}`,
    cents: (i % 3 === 0 ? 1 : -1) * (500 + ((i * 7717 + seed * 331) % 90_000)),
    booked: now - (2 + i * 2) * DAY,
    party: ['Stadtwerke', 'Bakery Lind', 'Employer GmbH', 'Landlord KG'][(i + seed) % 4]!,
  }));
  const account = (n: string, name: string, cents: number, seed: number): Account => ({ resourceId: randomUUID(), iban: iban('37040044', n), name, cents, txns: txns(seed) });
  return [{ login: 'okafor-7781', password: 'larch-meadow-41', owner: 'R. Okafor', accounts: [account('0532013000', 'Girokonto', 184_356, 1), account('0532013001', 'Tagesgeld', 421_000, 2)] }];
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const euros = (cents: number) => (cents / 100).toFixed(2).replace(/\.00$/, '');

class Refusal extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, text: string) {
    super(text);
    this.status = status;
    this.code = code;
  }
}

async function body(req: IncomingMessage): Promise<string> {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s;
}

function page(title: string, inner: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>Larchmont Bank</h1>${inner}</body></html>`;
}
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface IndependentXs2a {
  /** The XS2A base URL (`…/psd2`: the profile's apis.ais.baseUrl). */
  baseUrl: string;
  issuer: string;
  psu: { username: string; password: string };
  /** Each consent's id and status, for a test to look at. */
  consents(): Array<{ id: string; status: string; recurring: boolean }>;
  stop(): Promise<void>;
}

export async function startIndependentXs2a(): Promise<IndependentXs2a> {
  const now = Date.now();
  const people = customers(now);
  const consents = new Map<string, Consent>();
  const payments = new Map<string, Payment>();
  const byAuthorisation = new Map<string, Consent | Payment | Cancellation>();
  const sessions = new Map<string, string>();
  let origin = '';

  const accountOf = (resourceId: string) => people.flatMap((c) => c.accounts).find((a) => a.resourceId === resourceId);

  function createConsent(req: IncomingMessage, b: any): [number, unknown, Record<string, string>] {
    if (!b || typeof b !== 'object') throw new Refusal(400, 'FORMAT_ERROR', 'The request body is not a JSON object.');
    const redirect = req.headers['tpp-redirect-uri'];
    if (typeof redirect !== 'string') throw new Refusal(400, 'FORMAT_ERROR', 'TPP-Redirect-URI is needed: this bank offers the redirect approach only.');
    const access = b.access;
    if (!access || typeof access !== 'object') throw new Refusal(400, 'FORMAT_ERROR', 'access is missing.');
    if (typeof b.recurringIndicator !== 'boolean') throw new Refusal(400, 'FORMAT_ERROR', 'recurringIndicator is missing.');
    if (typeof b.validUntil !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(b.validUntil) || b.validUntil < day(Date.now())) throw new Refusal(400, 'FORMAT_ERROR', 'validUntil is not a date to come.');
    if (!Number.isInteger(b.frequencyPerDay) || b.frequencyPerDay < 1) throw new Refusal(400, 'FORMAT_ERROR', 'frequencyPerDay is missing.');
    for (const key of ['accounts', 'balances', 'transactions']) {
      const list = access[key];
      if (list === undefined) continue;
      if (!Array.isArray(list) || list.some((r) => typeof r?.iban !== 'string')) throw new Refusal(400, 'FORMAT_ERROR', `access.${key} must list accounts by iban.`);
    }
    const c: Consent = {
      kind: 'consent', id: `c${randomUUID().replace(/-/g, '')}`, authorisationId: randomUUID(), status: 'received', access,
      recurring: b.recurringIndicator, validUntil: b.validUntil, frequencyPerDay: b.recurringIndicator ? b.frequencyPerDay : 1, lastActionDate: day(Date.now()),
      redirect, ...(typeof req.headers['tpp-nok-redirect-uri'] === 'string' ? { nokRedirect: req.headers['tpp-nok-redirect-uri'] } : {}),
      accounts: [], balances: [], transactions: [], unattended: new Map(),
    };
    consents.set(c.id, c);
    byAuthorisation.set(c.authorisationId, c);
    const self = `${origin}/psd2/v1/consents/${c.id}`;
    return [201, {
      consentStatus: 'received', consentId: c.id,
      _links: { scaRedirect: { href: `${origin}/sca/${c.authorisationId}` }, self: { href: self }, status: { href: `${self}/status` }, scaStatus: { href: `${self}/authorisations/${c.authorisationId}` } },
    }, { Location: self, 'ASPSP-SCA-Approach': 'REDIRECT' }];
  }

  function consentOfPath(id: string): Consent {
    const c = consents.get(id);
    if (!c) throw new Refusal(403, 'CONSENT_UNKNOWN', 'The consent is not known.');
    if (c.status === 'valid' && c.validUntil < day(Date.now())) c.status = 'expired';
    return c;
  }

  /** The consent a data call runs under: named in Consent-ID, valid, counted when the PSU is absent. */
  function dataConsent(req: IncomingMessage, path: string): Consent {
    const id = req.headers['consent-id'];
    if (typeof id !== 'string') throw new Refusal(400, 'FORMAT_ERROR', 'Consent-ID is missing.');
    const c = consentOfPath(id);
    if (c.status === 'expired') throw new Refusal(401, 'CONSENT_EXPIRED', 'The consent has expired.');
    if (c.status !== 'valid') throw new Refusal(401, 'CONSENT_INVALID', `The consent is ${c.status}.`);
    if (req.headers['psu-ip-address'] === undefined) {
      const key = `${day(Date.now())} ${path}`;
      const n = (c.unattended.get(key) ?? 0) + 1;
      if (n > c.frequencyPerDay) throw new Refusal(429, 'ACCESS_EXCEEDED', 'The consent\'s accesses for today are used up.');
      c.unattended.set(key, n);
    }
    c.lastActionDate = day(Date.now());
    return c;
  }

  const accountView = (a: Account, c: Consent) => ({
    resourceId: a.resourceId, iban: a.iban, currency: 'EUR', name: a.name, cashAccountType: 'CACC',
    _links: {
      ...(c.balances.includes(a.resourceId) ? { balances: { href: `${origin}/psd2/v1/accounts/${a.resourceId}/balances` } } : {}),
      ...(c.transactions.includes(a.resourceId) ? { transactions: { href: `${origin}/psd2/v1/accounts/${a.resourceId}/transactions` } } : {}),
    },
  });
  const booked = (t: Txn) => ({
    transactionId: t.id, entryReference: t.ref, bookingDate: day(t.booked), valueDate: day(t.booked),
    transactionAmount: { currency: 'EUR', amount: euros(t.cents) }, ...(t.cents < 0 ? { creditorName: t.party } : { debtorName: t.party }),
    remittanceInformationUnstructured: `Larchmont ${t.ref}`,
  });
  const pending = (a: Account) => [{ entryReference: `${a.resourceId.slice(0, 8)}-card`, valueDate: day(Date.now()), transactionAmount: { currency: 'EUR', amount: '-7.9' }, creditorName: 'Kiosk am Markt' }];

  function covered(c: Consent, accountId: string, what: 'accounts' | 'balances' | 'transactions'): Account {
    const a = accountOf(accountId);
    if (!a || !c.accounts.includes(accountId)) throw new Refusal(403, 'RESOURCE_UNKNOWN', 'The account is not addressable under this consent.');
    if (!c[what].includes(accountId)) throw new Refusal(401, 'CONSENT_INVALID', `The consent gives no access to ${what}.`);
    return a;
  }

  async function api(req: IncomingMessage, method: string, path: string, query: URLSearchParams): Promise<[number, unknown, Record<string, string>?]> {
    const raw = method === 'POST' ? await body(req) : '';
    let b: any;
    try {
      b = raw ? JSON.parse(raw) : undefined;
    } catch {
      throw new Refusal(400, 'FORMAT_ERROR', 'The body is not JSON.');
    }
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/consents') return createConsent(req, b);
    if ((m = /^\/v1\/consents\/([\w-]+)(\/status)?$/.exec(path))) {
      const c = consentOfPath(m[1]!);
      if (method === 'GET' && m[2]) return [200, { consentStatus: c.status }];
      if (method === 'GET') return [200, { access: c.access, recurringIndicator: c.recurring, validUntil: c.validUntil, frequencyPerDay: c.frequencyPerDay, lastActionDate: c.lastActionDate, consentStatus: c.status }];
      if (method === 'DELETE') {
        c.status = 'terminatedByTpp';
        return [204, undefined];
      }
    }
    if (method === 'GET' && path === '/v1/accounts') {
      const c = dataConsent(req, path);
      return [200, { accounts: c.accounts.map((id) => accountView(accountOf(id)!, c)) }];
    }
    if (method === 'GET' && (m = /^\/v1\/accounts\/([\w-]+)(?:\/(balances|transactions)(?:\/([\w-]+))?)?$/.exec(path))) {
      const c = dataConsent(req, path);
      const [, id, sub, txn] = m;
      if (!sub) return [200, { account: accountView(covered(c, id!, 'accounts'), c) }];
      if (sub === 'balances') {
        const a = covered(c, id!, 'balances');
        return [200, { account: { iban: a.iban }, balances: [{ balanceAmount: { currency: 'EUR', amount: euros(a.cents) }, balanceType: 'expected' }] }];
      }
      const a = covered(c, id!, 'transactions');
      if (txn) {
        const t = a.txns.find((x) => x.id === txn);
        if (!t) throw new Refusal(404, 'RESOURCE_UNKNOWN', 'No such transaction.');
        return [200, { transactionsDetails: booked(t) }];
      }
      const status = query.get('bookingStatus');
      if (!['booked', 'pending', 'both'].includes(status ?? '')) throw new Refusal(400, 'PARAMETER_NOT_SUPPORTED', 'bookingStatus must be booked, pending or both here.');
      const from = query.get('dateFrom');
      const to = query.get('dateTo') ?? '9999-12-31';
      if (!from) throw new Refusal(400, 'FORMAT_ERROR', 'dateFrom is needed.');
      const report: Record<string, unknown> = { _links: { account: { href: `${origin}/psd2/v1/accounts/${a.resourceId}` } } };
      if (status !== 'pending') report.booked = a.txns.filter((t) => day(t.booked) >= from && day(t.booked) <= to).map(booked);
      if (status !== 'booked') report.pending = pending(a);
      return [200, { account: { iban: a.iban }, transactions: report }];
    }
    if (method === 'POST' && path === '/v1/funds-confirmations') {
      const a = people.flatMap((c) => c.accounts).find((x) => x.iban === b?.account?.iban);
      const amount = Number(b?.instructedAmount?.amount);
      if (!a || !Number.isFinite(amount)) throw new Refusal(400, 'FORMAT_ERROR', 'account.iban and instructedAmount are needed.');
      return [200, { fundsAvailable: a.cents >= Math.round(amount * 100) }];
    }
    if ((m = /^\/v1\/(payments|periodic-payments|bulk-payments)\/([\w-]+)\/([\w-]+)\/cancellation-authorisations(?:\/([\w-]+))?$/.exec(path))) {
      const [, service, product, id, authorisationId] = m;
      const p = payments.get(id!);
      if (!p || p.product !== product || p.service !== service) throw new Refusal(403, 'RESOURCE_UNKNOWN', 'No such payment.');
      if (method === 'POST' && !authorisationId) {
        if (!p.cancelAsked) throw new Refusal(409, 'STATUS_INVALID', 'No cancellation of this payment awaits authorisation.');
        const redirect = req.headers['tpp-redirect-uri'];
        if (typeof redirect !== 'string') throw new Refusal(400, 'FORMAT_ERROR', 'TPP-Redirect-URI is needed.');
        const c: Cancellation = { kind: 'cancellation', id: randomUUID(), payment: p, scaStatus: 'received', redirect };
        p.cancellations.push(c.id);
        byAuthorisation.set(c.id, c);
        const self = `${origin}/psd2/v1/${service}/${product}/${p.id}/cancellation-authorisations/${c.id}`;
        return [201, { scaStatus: 'received', authorisationId: c.id, _links: { scaRedirect: { href: `${origin}/sca/${c.id}` }, scaStatus: { href: self } } }, { Location: self, 'ASPSP-SCA-Approach': 'REDIRECT' }];
      }
      if (method === 'GET' && !authorisationId) return [200, { authorisationIds: p.cancellations }];
      const c = authorisationId ? byAuthorisation.get(authorisationId) : undefined;
      if (method === 'GET' && c?.kind === 'cancellation' && c.payment === p) return [200, { scaStatus: c.scaStatus }];
      if (method === 'GET') throw new Refusal(403, 'RESOURCE_UNKNOWN', 'No such authorisation.');
    }
    if ((m = /^\/v1\/(payments|periodic-payments|bulk-payments)\/([\w-]+)(?:\/([\w-]+)(\/status)?)?$/.exec(path))) {
      const [, service, product, id, status] = m;
      if (!['sepa-credit-transfers', 'instant-sepa-credit-transfers'].includes(product!)) throw new Refusal(404, 'PRODUCT_UNKNOWN', 'This product is not offered.');
      if (method === 'POST' && !id) {
        const redirect = req.headers['tpp-redirect-uri'];
        if (typeof redirect !== 'string') throw new Refusal(400, 'FORMAT_ERROR', 'TPP-Redirect-URI is needed.');
        // A bulk's payments share its debtorAccount; each is checked as a single payment is.
        const items: any[] = service === 'bulk-payments' ? (Array.isArray(b?.payments) ? b.payments : []) : [b];
        if (!items.length) throw new Refusal(400, 'FORMAT_ERROR', 'payments are needed.');
        if (!b?.debtorAccount?.iban || items.some((x) => !x?.instructedAmount?.amount || !x?.creditorAccount?.iban || !x?.creditorName)) throw new Refusal(400, 'FORMAT_ERROR', 'instructedAmount, debtorAccount, creditorAccount and creditorName are needed.');
        if (service === 'bulk-payments' && items.some((x) => x.debtorAccount !== undefined)) throw new Refusal(400, 'FORMAT_ERROR', 'The payments of a bulk take the bulk\'s debtorAccount.');
        if (service === 'periodic-payments') {
          if (!/^\d{4}-\d{2}-\d{2}$/.test(String(b.startDate)) || String(b.startDate) < day(Date.now())) throw new Refusal(400, 'EXECUTION_DATE_INVALID', 'startDate must be today or later.');
          if (!['Daily', 'Weekly', 'EveryTwoWeeks', 'Monthly', 'EveryTwoMonths', 'Quarterly', 'SemiAnnual', 'Annual', 'MonthlyVariable'].includes(b.frequency)) throw new Refusal(400, 'FORMAT_ERROR', 'frequency is not an EventFrequency7Code.');
          if (b.executionRule !== undefined && !['following', 'preceding'].includes(b.executionRule)) throw new Refusal(400, 'FORMAT_ERROR', 'executionRule is following or preceding.');
          if (b.dayOfExecution !== undefined && !/^([1-9]|[12]\d|3[01])$/.test(String(b.dayOfExecution))) throw new Refusal(400, 'FORMAT_ERROR', 'dayOfExecution is 1 to 31.');
        }
        const p: Payment = { kind: 'payment', id: `p${randomUUID().replace(/-/g, '')}`, authorisationId: randomUUID(), service: service!, product: product!, body: b, status: 'RCVD', redirect, cancellations: [] };
        payments.set(p.id, p);
        byAuthorisation.set(p.authorisationId, p);
        const self = `${origin}/psd2/v1/${service}/${product}/${p.id}`;
        return [201, { transactionStatus: 'RCVD', paymentId: p.id, _links: { scaRedirect: { href: `${origin}/sca/${p.authorisationId}` }, self: { href: self }, status: { href: `${self}/status` } } }, { Location: self, 'ASPSP-SCA-Approach': 'REDIRECT' }];
      }
      const p = id ? payments.get(id) : undefined;
      if (method === 'GET' && p && p.product === product && p.service === service) return [200, status ? { transactionStatus: p.status } : { ...p.body, transactionStatus: p.status }];
      if (method === 'GET') throw new Refusal(403, 'RESOURCE_UNKNOWN', 'No such payment.');
      if (method === 'DELETE' && p && p.product === product && p.service === service && !status) {
        if (['ACSC', 'ACCC', 'RJCT', 'CANC'].includes(p.status)) throw new Refusal(405, 'CANCELLATION_INVALID', `The payment is ${p.status}: it can no longer be cancelled.`);
        p.cancelAsked = true;
        return [202, { transactionStatus: p.status, _links: { startAuthorisation: { href: `${origin}/psd2/v1/${service}/${product}/${p.id}/cancellation-authorisations` } } }];
      }
      if (method === 'DELETE') throw new Refusal(403, 'RESOURCE_UNKNOWN', 'No such payment.');
    }
    throw new Refusal(405, 'SERVICE_INVALID', `${method} ${path} is not offered.`);
  }

  /** The PSU approved: the consent covers what it asks (the PSU's ticks for empty lists), a former recurring consent expires. */
  function approve(r: Consent | Payment, customer: Customer, ticked: string[]): string | undefined {
    if (r.kind === 'payment') {
      const debtor = customer.accounts.find((a) => a.iban === r.body.debtorAccount.iban);
      if (!debtor) return 'The paying account is not yours.';
      const cents = (r.service === 'bulk-payments' ? r.body.payments : [r.body]).reduce((n: number, x: any) => n + Math.round(Number(x.instructedAmount.amount) * 100), 0);
      r.status = debtor.cents >= cents ? (r.product === 'instant-sepa-credit-transfers' ? 'ACSC' : 'ACTC') : 'RJCT';
      return undefined;
    }
    const mine = (list: unknown) => (Array.isArray(list) ? list.map((x: any) => customer.accounts.find((a) => a.iban === x.iban)?.resourceId) : []);
    const lists = { accounts: mine(r.access.accounts), balances: mine(r.access.balances), transactions: mine(r.access.transactions) };
    const offered = Object.values(lists).every((l) => l.length === 0);
    if (offered && ticked.length === 0) return 'Choose at least one account.';
    if (Object.values(lists).some((l) => l.includes(undefined))) return 'The consent names an account that is not yours.';
    const pick = (key: 'accounts' | 'balances' | 'transactions') => (offered ? (r.access[key] ? ticked : []) : (lists[key] as string[]));
    r.balances = pick('balances');
    r.transactions = pick('transactions');
    r.accounts = [...new Set([...pick('accounts'), ...r.balances, ...r.transactions])];
    r.status = 'valid';
    r.login = customer.login;
    if (r.recurring) for (const other of consents.values()) if (other !== r && other.login === r.login && other.recurring && other.status === 'valid') other.status = 'expired';
    return undefined;
  }

  async function scaFlow(req: IncomingMessage, res: ServerResponse, authorisationId: string, step: string | undefined): Promise<void> {
    const r = byAuthorisation.get(authorisationId);
    const html = (status: number, s: string) => void res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(s);
    if (!r) return html(404, page('Unknown', '<p class="lb-problem">Unknown request.</p>'));
    const pendingNow = r.kind === 'consent' ? r.status === 'received' : r.kind === 'payment' ? r.status === 'RCVD' : r.scaStatus !== 'finalised' && r.scaStatus !== 'failed' && r.payment.status !== 'CANC';
    if (!pendingNow) return html(200, page('Done', '<p class="lb-problem">This request was already decided.</p>'));
    const action = `/sca/${authorisationId}`;
    const signin = (problem = '') => html(200, page('Sign in', `${problem ? `<p class="lb-problem">${problem}</p>` : ''}<form id="lb-signin" method="post" action="${action}/signin">
<label>Login <input id="lb-login" name="login"></label><label>Password <input id="lb-password" name="password" type="password"></label>
<button id="lb-signin-btn" type="submit">Sign in</button></form>`));
    if (req.method === 'POST' && step === 'signin') {
      const form = new URLSearchParams(await body(req));
      const customer = people.find((c) => c.login === form.get('login') && c.password === form.get('password'));
      if (!customer) return signin('Login or password not recognised.');
      if (r.kind === 'cancellation' && !customer.accounts.some((a) => a.iban === r.payment.body.debtorAccount?.iban)) return signin('This payment is not yours.');
      sessions.set(authorisationId, customer.login);
      if (r.kind === 'cancellation') r.scaStatus = 'psuAuthenticated';
      return void res.writeHead(303, { location: action }).end();
    }
    const customer = people.find((c) => c.login === sessions.get(authorisationId));
    if (!customer) return signin();
    const decision = (problem = '') => {
      const what = r.kind === 'cancellation'
        ? `<p>Cancel the ${r.payment.service === 'bulk-payments' ? 'bulk payment' : `payment of ${esc(String(r.payment.body.instructedAmount.amount))} ${esc(String(r.payment.body.instructedAmount.currency))} to ${esc(String(r.payment.body.creditorName))}`}.</p>`
        : r.kind === 'payment' && r.service === 'bulk-payments'
        ? `<p>Make ${r.body.payments.length} payments from ${esc(String(r.body.debtorAccount.iban))}.</p>`
        : r.kind === 'payment'
        ? `<p>Pay ${esc(String(r.body.instructedAmount.amount))} ${esc(String(r.body.instructedAmount.currency))} to ${esc(String(r.body.creditorName))}.</p>`
        : `<p>Share your account data until ${r.validUntil}${r.recurring ? ', up to ' + r.frequencyPerDay + ' times a day' : ' once'}.</p>`
          + customer.accounts.map((a) => `<label><input type="checkbox" name="account" value="${a.resourceId}"> ${esc(a.name)} (${a.iban})</label>`).join('');
      html(200, page('Your decision', `${problem ? `<p class="lb-problem">${problem}</p>` : ''}<form id="lb-decision" method="post" action="${action}/decide">${what}
<button id="lb-allow" name="decision" value="allow" type="submit">Allow</button><button id="lb-deny" name="decision" value="deny" type="submit">Deny</button></form>`));
    };
    if (req.method === 'POST' && step === 'decide') {
      const form = new URLSearchParams(await body(req));
      if (r.kind === 'cancellation') {
        const allowed = form.get('decision') === 'allow';
        r.scaStatus = allowed ? 'finalised' : 'failed';
        r.payment.cancelAsked = false;
        if (allowed) r.payment.status = 'CANC';
        return void res.writeHead(303, { location: r.redirect }).end();
      }
      if (form.get('decision') === 'deny') {
        r.status = r.kind === 'consent' ? 'rejected' : 'RJCT';
        return void res.writeHead(303, { location: r.nokRedirect ?? r.redirect }).end();
      }
      const problem = approve(r, customer, form.getAll('account').filter((id) => customer.accounts.some((a) => a.resourceId === id)));
      if (problem) return decision(problem);
      return void res.writeHead(303, { location: r.redirect }).end();
    }
    return decision();
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const requestId = req.headers['x-request-id'];
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      const h: Record<string, string> = { ...headers, ...(typeof requestId === 'string' ? { 'X-Request-ID': requestId } : {}) };
      if (payload === undefined) return void res.writeHead(status, h).end();
      res.writeHead(status, { ...h, 'content-type': 'application/json' }).end(JSON.stringify(payload));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      // Published for tools that look; nothing here is authorised by OAuth2.
      return send(200, { issuer: origin, authorization_endpoint: `${origin}/oauth/authorize`, token_endpoint: `${origin}/oauth/token`, jwks_uri: `${origin}/oauth/jwks`, response_types_supported: ['code'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['PS256'] });
    }
    const m = /^\/sca\/([\w-]+)(?:\/(signin|decide))?$/.exec(url.pathname);
    if (m) {
      scaFlow(req, res, m[1]!, m[2]).catch(() => res.headersSent || res.writeHead(500).end());
      return;
    }
    if (!url.pathname.startsWith('/psd2/')) return send(404, { tppMessages: [{ category: 'ERROR', code: 'RESOURCE_UNKNOWN', text: 'Not found.' }] });
    if (typeof requestId !== 'string') return send(400, { tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR', text: 'X-Request-ID is missing.' }] });
    api(req, req.method ?? 'GET', url.pathname.slice('/psd2'.length), url.searchParams)
      .then(([status, payload, headers]) => send(status, payload, headers))
      .catch((e: unknown) => (e instanceof Refusal
        ? send(e.status, { tppMessages: [{ category: 'ERROR', code: e.code, text: e.message }] })
        : send(500, { tppMessages: [{ category: 'ERROR', code: 'INTERNAL_SERVER_ERROR', text: 'Something went wrong.' }] })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: `${origin}/psd2`,
    issuer: origin,
    psu: { username: people[0]!.login, password: people[0]!.password },
    consents: () => [...consents.values()].map((c) => ({ id: c.id, status: c.status, recurring: c.recurring })),
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
