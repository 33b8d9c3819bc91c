/**
 * The independent test bank's Berlin Group mode, redirect only and without OAuth: Ostwald
 * Sparkasse, a NextGenPSD2 XS2A 1.3.12 account-information bank written from the official file
 * alone (FACTS §6), sharing nothing with src/sandbox or the harness. It has no authorisation
 * server: the TPP is known by its TPP headers (on a real bank, its eIDAS certificate on mTLS), the
 * PSU authorises on the bank's own pages (`_links.scaRedirect`) and comes back to
 * TPP-Redirect-URI. Its own way: opaque resourceIds, a PSU known by a Kundennummer and a PIN, a
 * two-field sign-in on one page, bodies with little beyond what the file requires.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const DAY = 86_400_000;

interface Account { resourceId: string; iban: string; name: string; cents: number; booked: Array<{ transactionId: string; cents: number; bookingDate: string }> }
interface Consent {
  consentId: string; access: Record<string, unknown>; recurringIndicator: boolean; validUntil: string; frequencyPerDay: number;
  status: 'received' | 'valid' | 'rejected' | 'terminatedByTpp' | 'expired'; lastActionDate: string; bankOffered: boolean;
  /** resourceIds per service, fixed when the PSU approves. */
  granted: { accounts: string[]; balances: string[]; transactions: string[] };
  authorisationId: string; scaStatus: 'received' | 'psuAuthenticated' | 'finalised' | 'failed'; redirectUri: string; nokRedirectUri?: string;
}

/** A German IBAN (ISO 13616 check digits) for bank code 37040044 and a 10-digit account number. */
function iban(account: string): string {
  const bban = `37040044${account.padStart(10, '0')}`;
  const digits = `${bban}131400`; // "DE00" moved to the end, letters as numbers (D=13, E=14)
  let rest = 0;
  for (const c of digits) rest = (rest * 10 + Number(c)) % 97;
  return `DE${String(98 - rest).padStart(2, '0')}${bban}`;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const euro = (cents: number) => (cents / 100).toFixed(2);

function makeAccounts(now: number): Account[] {
  return [['0532013000', 'Girokonto', 184_250], ['0532013018', 'Tagesgeld', 1_020_000], ['0532013026', 'Haushaltskonto', 9_990]].map(([number, name, cents], i) => ({
    resourceId: randomUUID(), iban: iban(number as string), name: name as string, cents: cents as number,
    // A booking every fifth day for a year, alternating in and out.
    booked: Array.from({ length: 73 }, (_, k) => ({ transactionId: randomUUID(), cents: (k % 2 ? -1 : 1) * (1_000 + 137 * k + i), bookingDate: day(now - (k * 5 + 1) * DAY) })),
  }));
}

class Refusal extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, text: string) {
    super(text);
    this.status = status;
    this.code = code;
  }
}

export interface IndependentBgBank {
  /** The XS2A base URL (paths /v1/… below it). */
  baseUrl: string;
  psu: { username: string; password: string };
  /** Requests per kind, to show what was called (no `/.well-known` ever: the bank has none). */
  hits: Map<string, number>;
  stop(): Promise<void>;
}

export async function startIndependentBgBank(): Promise<IndependentBgBank> {
  const now = Date.now();
  const psu = { username: '7730415', password: '04-91-73' };
  const accounts = makeAccounts(now);
  const consents = new Map<string, Consent>();
  const hits = new Map<string, number>();
  let origin = '';

  const header = (req: IncomingMessage, name: string) => {
    const v = req.headers[name.toLowerCase()];
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const send = (res: ServerResponse, requestId: string | undefined, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    res.writeHead(status, { ...(requestId ? { 'X-Request-ID': requestId } : {}), ...(text ? { 'Content-Type': 'application/json' } : {}), ...headers });
    res.end(text);
  };
  const body = (req: IncomingMessage) => new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (c) => (text += c)).on('end', () => resolve(text));
  });

  function checkConsentBody(b: any): boolean {
    if (typeof b !== 'object' || b === null || typeof b.access !== 'object' || b.access === null) throw new Refusal(400, 'FORMAT_ERROR', 'access is missing');
    if (typeof b.recurringIndicator !== 'boolean' || typeof b.combinedServiceIndicator !== 'boolean') throw new Refusal(400, 'FORMAT_ERROR', 'recurringIndicator and combinedServiceIndicator are required');
    if (typeof b.validUntil !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(b.validUntil) || b.validUntil < day(now)) throw new Refusal(400, 'FORMAT_ERROR', 'validUntil must be a date, today or later');
    if (!Number.isInteger(b.frequencyPerDay) || b.frequencyPerDay < 1 || (!b.recurringIndicator && b.frequencyPerDay !== 1)) throw new Refusal(400, 'FORMAT_ERROR', 'frequencyPerDay is wrong');
    const lists = ['accounts', 'balances', 'transactions'].filter((k) => b.access[k] !== undefined);
    for (const k of lists) if (!Array.isArray(b.access[k]) || b.access[k].some((r: any) => typeof r?.iban !== 'string')) throw new Refusal(400, 'FORMAT_ERROR', `access.${k} must list accounts by iban`);
    const global = ['availableAccounts', 'availableAccountsWithBalance', 'allPsd2'].filter((k) => b.access[k] !== undefined);
    if (lists.length + global.length === 0) throw new Refusal(400, 'FORMAT_ERROR', 'access names nothing');
    return lists.length > 0 && lists.every((k) => b.access[k].length === 0);
  }

  function consentOf(id: string | undefined, where: 'path' | 'header'): Consent {
    const c = id ? consents.get(id) : undefined;
    if (!c) throw where === 'path' ? new Refusal(404, 'RESOURCE_UNKNOWN', 'unknown consent') : new Refusal(403, 'CONSENT_UNKNOWN', 'unknown Consent-ID');
    return c;
  }

  function accountView(a: Account, c: Consent) {
    return {
      resourceId: a.resourceId, iban: a.iban, currency: 'EUR', name: a.name,
      _links: {
        ...(c.granted.balances.includes(a.resourceId) ? { balances: { href: `${origin}/v1/accounts/${a.resourceId}/balances` } } : {}),
        ...(c.granted.transactions.includes(a.resourceId) ? { transactions: { href: `${origin}/v1/accounts/${a.resourceId}/transactions` } } : {}),
      },
    };
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const requestId = header(req, 'X-Request-ID');
    const path = url.pathname.split('/').filter(Boolean);
    try {
      if (!requestId) throw new Refusal(400, 'FORMAT_ERROR', 'X-Request-ID is required');
      const method = req.method ?? 'GET';
      if (path[1] === 'consents') {
        hits.set('consents', (hits.get('consents') ?? 0) + 1);
        if (path.length === 2 && method === 'POST') {
          if (!header(req, 'PSU-IP-Address')) throw new Refusal(400, 'FORMAT_ERROR', 'PSU-IP-Address is required');
          const redirectUri = header(req, 'TPP-Redirect-URI');
          // Redirect is this bank's only SCA approach.
          if (!redirectUri) throw new Refusal(400, 'FORMAT_ERROR', 'TPP-Redirect-URI is required: SCA is by redirect');
          let b: any;
          try {
            b = JSON.parse(await body(req));
          } catch {
            throw new Refusal(400, 'FORMAT_ERROR', 'the body is not JSON');
          }
          const bankOffered = checkConsentBody(b);
          const c: Consent = {
            consentId: randomUUID(), access: b.access, recurringIndicator: b.recurringIndicator, validUntil: b.validUntil, frequencyPerDay: b.frequencyPerDay,
            status: 'received', lastActionDate: day(now), bankOffered, granted: { accounts: [], balances: [], transactions: [] },
            authorisationId: randomUUID(), scaStatus: 'received', redirectUri, ...(header(req, 'TPP-Nok-Redirect-URI') ? { nokRedirectUri: header(req, 'TPP-Nok-Redirect-URI') } : {}),
          };
          consents.set(c.consentId, c);
          const self = `${origin}/v1/consents/${c.consentId}`;
          return send(res, requestId, 201, {
            consentStatus: 'received', consentId: c.consentId,
            _links: { scaRedirect: { href: `${origin}/anmeldung/${c.authorisationId}` }, self: { href: self }, status: { href: `${self}/status` }, scaStatus: { href: `${self}/authorisations/${c.authorisationId}` } },
          }, { Location: self, 'ASPSP-SCA-Approach': 'REDIRECT' });
        }
        const c = consentOf(path[2], 'path');
        if (path.length === 3 && method === 'GET') return send(res, requestId, 200, { access: c.access, recurringIndicator: c.recurringIndicator, validUntil: c.validUntil, frequencyPerDay: c.frequencyPerDay, lastActionDate: c.lastActionDate, consentStatus: c.status });
        if (path.length === 3 && method === 'DELETE') {
          c.status = 'terminatedByTpp';
          return send(res, requestId, 204);
        }
        if (path.length === 4 && path[3] === 'status' && method === 'GET') return send(res, requestId, 200, { consentStatus: c.status });
        if (path.length === 5 && path[3] === 'authorisations' && path[4] === c.authorisationId && method === 'GET') return send(res, requestId, 200, { scaStatus: c.scaStatus });
        throw new Refusal(404, 'RESOURCE_UNKNOWN', 'no such resource');
      }
      if (path[1] === 'accounts' && method === 'GET') {
        hits.set('accounts', (hits.get('accounts') ?? 0) + 1);
        const c = consentOf(header(req, 'Consent-ID'), 'header');
        if (c.status !== 'valid') throw new Refusal(401, c.status === 'expired' ? 'CONSENT_EXPIRED' : 'CONSENT_INVALID', `the consent is ${c.status}`);
        if (path.length === 2) return send(res, requestId, 200, { accounts: accounts.filter((a) => c.granted.accounts.includes(a.resourceId)).map((a) => accountView(a, c)) });
        const a = accounts.find((x) => x.resourceId === path[2]);
        if (!a || !c.granted.accounts.includes(a.resourceId)) throw new Refusal(403, 'CONSENT_INVALID', 'the consent does not cover this account');
        if (path.length === 3) return send(res, requestId, 200, { account: accountView(a, c) });
        const reference = { iban: a.iban, currency: 'EUR' };
        if (path[3] === 'balances' && path.length === 4) {
          if (!c.granted.balances.includes(a.resourceId)) throw new Refusal(403, 'CONSENT_INVALID', 'the consent gives no balances of this account');
          return send(res, requestId, 200, { account: reference, balances: [{ balanceAmount: { currency: 'EUR', amount: euro(a.cents) }, balanceType: 'closingBooked', referenceDate: day(now - DAY) }] });
        }
        if (path[3] === 'transactions') {
          if (!c.granted.transactions.includes(a.resourceId)) throw new Refusal(403, 'CONSENT_INVALID', 'the consent gives no transactions of this account');
          const view = (t: Account['booked'][number]) => ({ transactionId: t.transactionId, bookingDate: t.bookingDate, transactionAmount: { currency: 'EUR', amount: euro(t.cents) } });
          if (path.length === 5) {
            const t = a.booked.find((x) => x.transactionId === path[4]);
            if (!t) throw new Refusal(404, 'RESOURCE_UNKNOWN', 'no such transaction');
            return send(res, requestId, 200, { transactionsDetails: view(t) });
          }
          const status = url.searchParams.get('bookingStatus');
          if (!status || !['booked', 'pending', 'both'].includes(status)) throw new Refusal(400, 'PARAMETER_NOT_SUPPORTED', 'bookingStatus booked, pending or both');
          const from = url.searchParams.get('dateFrom');
          if (!from) throw new Refusal(400, 'FORMAT_ERROR', 'dateFrom is required');
          const to = url.searchParams.get('dateTo') ?? '9999-12-31';
          const booked = status === 'pending' ? undefined : a.booked.filter((t) => t.bookingDate >= from && t.bookingDate <= to).map(view);
          return send(res, requestId, 200, { account: reference, transactions: { ...(booked ? { booked } : {}), ...(status !== 'booked' ? { pending: [] } : {}), _links: { account: { href: `${origin}/v1/accounts/${a.resourceId}` } } } });
        }
      }
      throw new Refusal(404, 'RESOURCE_UNKNOWN', 'no such endpoint');
    } catch (error) {
      const r = error instanceof Refusal ? error : new Refusal(500, 'INTERNAL_SERVER_ERROR', 'the bank failed');
      return send(res, requestId, r.status, { tppMessages: [{ category: 'ERROR', code: r.code, text: r.message }] });
    }
  }

  const page = (title: string, inner: string) => `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${inner}</body></html>`;
  const html = (res: ServerResponse, text: string) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(text);
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

  /** /anmeldung/{authorisationId}: Kundennummer and PIN on one page, then the request, Freigeben or Ablehnen. */
  async function signin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    hits.set('pages', (hits.get('pages') ?? 0) + 1);
    const [, , id, step] = url.pathname.split('/');
    const c = [...consents.values()].find((x) => x.authorisationId === id);
    if (!c || c.status !== 'received') return html(res, page('Nicht möglich', '<p class="fehler">Dieser Auftrag kann nicht freigegeben werden.</p>'));
    const form = req.method === 'POST' ? new URLSearchParams(await body(req)) : new URLSearchParams();
    if (step === 'pruefen') {
      if (form.get('kundennummer') !== psu.username || form.get('pin') !== psu.password) {
        return html(res, page('Anmeldung', `<p class="fehler">Kundennummer oder PIN falsch.</p>${loginForm(id!)}`));
      }
      c.scaStatus = 'psuAuthenticated';
      const choose = c.bankOffered
        ? accounts.map((a) => `<label><input type="checkbox" name="konto" value="${a.resourceId}"> ${escape(a.name)} ${a.iban}</label><br>`).join('')
        : '';
      return html(res, page('Zugriff freigeben', `<form id="freigabe" method="post" action="/anmeldung/${id}/entscheiden">${choose}
<button id="freigeben" name="entscheidung" value="ja">Freigeben</button> <button id="ablehnen" name="entscheidung" value="nein">Ablehnen</button></form>`));
    }
    if (step === 'entscheiden' && c.scaStatus === 'psuAuthenticated') {
      if (form.get('entscheidung') !== 'ja') {
        c.status = 'rejected';
        c.scaStatus = 'failed';
        return void res.writeHead(302, { Location: c.nokRedirectUri ?? c.redirectUri }).end();
      }
      const all = accounts.map((a) => a.resourceId);
      const byIban = (k: string) => ((c.access[k] as Array<{ iban: string }> | undefined) ?? []).map((r) => accounts.find((a) => a.iban === r.iban.replace(/\s/g, ''))?.resourceId).filter((x): x is string => !!x);
      if (c.bankOffered) {
        const ticked = form.getAll('konto').filter((k) => all.includes(k));
        if (!ticked.length) return html(res, page('Zugriff freigeben', '<p class="fehler">Bitte mindestens ein Konto wählen.</p>'));
        c.granted = { accounts: ticked, balances: c.access.balances ? ticked : [], transactions: c.access.transactions ? ticked : [] };
      } else if (c.access.allPsd2) c.granted = { accounts: all, balances: all, transactions: all };
      else if (c.access.availableAccountsWithBalance) c.granted = { accounts: all, balances: all, transactions: [] };
      else if (c.access.availableAccounts) c.granted = { accounts: all, balances: [], transactions: [] };
      else {
        const balances = byIban('balances');
        const transactions = byIban('transactions');
        c.granted = { accounts: [...new Set([...byIban('accounts'), ...balances, ...transactions])], balances, transactions };
      }
      // POST /v1/consents, "Side Effects": a recurring consent the PSU authorises expires the PSU's former one (one PSU here).
      if (c.recurringIndicator) for (const other of consents.values()) if (other !== c && other.recurringIndicator && other.status === 'valid') other.status = 'expired';
      c.status = 'valid';
      c.scaStatus = 'finalised';
      return void res.writeHead(302, { Location: c.redirectUri }).end();
    }
    return html(res, page('Anmeldung', loginForm(id!)));
  }
  const loginForm = (id: string) => `<form method="post" action="/anmeldung/${id}/pruefen"><label>Kundennummer <input id="kundennummer" name="kundennummer"></label>
<label>PIN <input id="pin" name="pin" type="password"></label><button id="anmelden">Anmelden</button></form>`;

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const run = url.pathname.startsWith('/v1/') ? api(req, res, url) : url.pathname.startsWith('/anmeldung/') ? signin(req, res, url) : Promise.resolve(void (hits.set('other', (hits.get('other') ?? 0) + 1), res.writeHead(404).end()));
    run.catch(() => (res.headersSent ? res.end() : res.writeHead(500).end()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: origin,
    psu,
    hits,
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
