/**
 * The independent bank's authorisation server: oidc-provider configured here from scratch (not
 * from src/sandbox), with JWT access tokens that the three resource servers verify against the
 * published JWKS, client_secret_post, the consent bound through the `openbanking_intent_id`
 * claim, and its own sign-in and consent pages: a two-step sign-in (customer number, then secret
 * word), a security notice on every third sign-in, and an "authorise this request" page.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { errors } from 'oidc-provider';
import type { Adapter, AdapterPayload, Configuration } from 'oidc-provider';
import { amountOf } from './data.ts';
import type { Customer } from './data.ts';
import type { BankState, Consent } from './state.ts';
import { nowIso } from './state.ts';

/** The audience of every access token the bank issues: its API gateway. */
export const API_AUDIENCE = 'urn:independent-bank:open-banking';
/** How long signing in takes under the slow-sign-in defect (bank.ts). */
export const SLOW_SIGN_IN_MS = 3_000;
const SCOPE_FOR: Record<Consent['api'], string> = { ais: 'accounts', cof: 'fundsconfirmations', pis: 'payments' };

/** A Map per model, entries dropped when they expire. */
function adapterFactory(): (name: string) => Adapter {
  const models = new Map<string, Map<string, { payload: AdapterPayload; until?: number }>>();
  return (name: string) => {
    let rows = models.get(name);
    if (!rows) models.set(name, (rows = new Map()));
    const table = rows;
    const live = (id: string) => {
      const row = table.get(id);
      if (row?.until !== undefined && row.until < Date.now()) {
        table.delete(id);
        return undefined;
      }
      return row;
    };
    return {
      async upsert(id, payload, expiresIn) {
        table.set(id, { payload, until: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
      },
      async find(id) {
        return live(id)?.payload;
      },
      async findByUserCode() {
        return undefined;
      },
      async findByUid(uid) {
        for (const [id, row] of table) if (row.payload.uid === uid) return live(id)?.payload;
        return undefined;
      },
      async consume(id) {
        const row = live(id);
        if (row) row.payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        table.delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const [id, row] of table) if (row.payload.grantId === grantId) table.delete(id);
      },
    };
  };
}

/**
 * How the bank's authorisation server wants to be asked: `code` (the code flow with PKCE, as it
 * always has), `hybrid` (FAPI 1.0 Advanced as UK banks run it, and nothing else: only response_type
 * code id_token, a signed request object by value, no PKCE, no PAR), `dpop` (FAPI 2.0: PAR only,
 * code with PKCE, DPoP-bound tokens).
 */
export type Flow = 'code' | 'hybrid' | 'dpop';

export interface AuthServerSetup {
  issuer: string;
  state: BankState;
  privateJwk: Record<string, unknown>;
  client: { clientId: string; clientSecret: string; redirectUris: string[]; name: string; publicJwk?: Record<string, unknown> };
  flow?: Flow;
}

export function makeProvider(o: AuthServerSetup): Provider {
  const factory = adapterFactory();
  const flow = o.flow ?? 'code';
  const config: Configuration = {
    adapter: factory as unknown as Configuration['adapter'],
    clients: [{
      client_id: o.client.clientId,
      client_secret: o.client.clientSecret,
      client_name: o.client.name,
      redirect_uris: o.client.redirectUris,
      grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
      response_types: [flow === 'hybrid' ? 'code id_token' : 'code'],
      token_endpoint_auth_method: 'client_secret_post',
      ...(flow === 'code' ? {} : { id_token_signed_response_alg: 'PS256' }),
      // The TPP's key its request objects are signed with, registered with the bank.
      ...(o.client.publicJwk ? { jwks: { keys: [o.client.publicJwk] }, request_object_signing_alg: 'PS256' } : {}),
      ...(flow === 'dpop' ? { dpop_bound_access_tokens: true } : {}),
      // The scopes the client was registered for: any other is refused (invalid_scope), as UK banks do.
      scope: 'openid offline_access accounts fundsconfirmations payments',
    }],
    clientAuthMethods: ['client_secret_post'],
    jwks: { keys: [o.privateJwk as never] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    scopes: ['openid', 'offline_access', 'accounts', 'fundsconfirmations', 'payments'],
    claims: { openid: ['sub'], openbanking_intent_id: null },
    responseTypes: [flow === 'hybrid' ? 'code id_token' : 'code'],
    // The hybrid flow of FAPI 1.0 Advanced by value needs no PKCE, and this bank asks for none.
    pkce: { required: () => flow !== 'hybrid' },
    interactions: { url: (_ctx, interaction) => `/signin/${interaction.uid}` },
    // Each authorisation is of one consent: an earlier grant in the browser session is never reused.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    ttl: { AccessToken: 600, ClientCredentials: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 900, Session: 900, Grant: 86_400, RefreshToken: 86_400 },
    findAccount: async (ctx, sub) => {
      if (!o.state.customer(sub)) return undefined;
      return {
        accountId: sub,
        claims: async (_use, _scope, claims) => {
          const out: { sub: string; openbanking_intent_id?: string } = { sub };
          if (claims?.openbanking_intent_id !== undefined) {
            const e = ctx.oidc.entities;
            const grantId = e.AuthorizationCode?.grantId ?? e.RefreshToken?.grantId ?? e.Grant?.jti;
            const consent = grantId ? o.state.consentOfGrant.get(grantId) : undefined;
            if (consent) out.openbanking_intent_id = consent;
          }
          return out;
        },
      };
    },
    // The resource servers learn from the token itself which consent it serves (none: a TPP token).
    extraTokenClaims: async (_ctx, token) => {
      const grantId = (token as { grantId?: string }).grantId;
      const consent = grantId ? o.state.consentOfGrant.get(grantId) : undefined;
      return consent ? { openbanking_intent_id: consent, token_use: 'psu' } : { token_use: 'tpp' };
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = shell('We could not continue', `<div class="notice notice--bad" role="alert">${esc(out.error)}: ${esc(out.error_description ?? '')}</div>`);
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      claimsParameter: { enabled: true },
      // The code flow's bank is configured as it always was; the others as FAPI's profiles say.
      ...(flow === 'code' ? {} : {
        fapi: { enabled: true, profile: flow === 'hybrid' ? '1.0 Final' as const : '2.0' as const },
        requestObjects: { enabled: true, requireSignedRequestObject: flow === 'hybrid' },
        pushedAuthorizationRequests: { enabled: flow === 'dpop', requirePushedAuthorizationRequests: flow === 'dpop' },
        dPoP: { enabled: flow === 'dpop' },
      }),
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => API_AUDIENCE,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== API_AUDIENCE) throw new errors.InvalidTarget();
          return { scope: 'accounts fundsconfirmations payments', audience: API_AUDIENCE, accessTokenFormat: 'jwt', accessTokenTTL: 600, jwt: { sign: { alg: 'PS256' } } };
        },
      },
    },
  };
  const provider = new Provider(o.issuer, config);
  // A scope the bank does not have is refused (invalid_scope), as UK banks do, not silently dropped.
  provider.use(async (ctx, next) => {
    await next();
    const params = (ctx as { oidc?: { params?: Record<string, unknown> } }).oidc?.params;
    if (ctx.path !== '/token' || params?.grant_type !== 'client_credentials') return;
    const unknown = String(params.scope ?? '').split(' ').filter((s) => s && !config.scopes!.includes(s));
    if (unknown.length) {
      ctx.status = 400;
      ctx.body = { error: 'invalid_scope', error_description: `unknown scope: ${unknown.join(' ')}` };
    }
  });
  // A bank of the hybrid flow says nothing of PKCE in its discovery: it neither offers nor asks for it.
  if (flow === 'hybrid') {
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path === '/.well-known/openid-configuration' && ctx.body && typeof ctx.body === 'object') delete (ctx.body as Record<string, unknown>).code_challenge_methods_supported;
    });
  }
  provider.on('server_error', () => undefined);
  return provider;
}

// ── pages ─────────────────────────────────────────────────────────────────────────────────

function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function shell(title: string, body: string): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${esc(title)} · Larchmont Bank</title>
<style>body{font:15px/1.5 Georgia,serif;margin:0;background:#f4f1ea}header{background:#1d3b2a;color:#fff;padding:12px 24px}main{max-width:34rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border:1px solid #d8d2c4}.notice--bad{color:#8a1c1c;border-left:4px solid #8a1c1c;padding-left:.6rem}.acct-row{display:block;margin:.3rem 0}</style>
</head><body><header>Larchmont Bank · Secure sign-in</header><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
}

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) break;
    chunks.push(c as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function masked(identification: string): string {
  return `${identification.slice(0, 2)}-${identification.slice(2, 4)}-${identification.slice(4, 6)} ••••${identification.slice(-4)}`;
}

/** The consent an authorisation request names in its claims parameter. */
function intentOf(params: Record<string, unknown>): string | undefined {
  try {
    const claims = typeof params.claims === 'string' ? JSON.parse(params.claims) : params.claims;
    const v = claims?.id_token?.openbanking_intent_id?.value ?? claims?.userinfo?.openbanking_intent_id?.value;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Per interaction: who signed in, and whether the security notice is still to be acknowledged. */
interface Progress {
  customerNumber?: string;
  signedIn?: boolean;
  noticePending?: boolean;
}

export function pages(provider: Provider, state: BankState): (req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined) => Promise<void> {
  const progress = new Map<string, Progress>();

  const problemWith = (d: Awaited<ReturnType<Provider['interactionDetails']>>): { consent: Consent } | { problem: string } => {
    const id = intentOf(d.params);
    const consent = id ? state.consents.get(id) : undefined;
    if (!consent || consent.clientId !== String(d.params.client_id)) return { problem: 'This request does not name a consent we know.' };
    if (consent.status !== 'AwaitingAuthorisation') return { problem: 'This request has already been decided.' };
    if (consent.api === 'cof' && consent.deleted) return { problem: 'The provider has withdrawn this request.' };
    const scopes = String(d.params.scope ?? '').split(' ');
    if (!scopes.includes(SCOPE_FOR[consent.api])) return { problem: 'This request does not ask for the access it names.' };
    const expiry = consent.api === 'pis' ? undefined : consent.expiration;
    if (expiry && Date.parse(expiry) <= Date.now()) return { problem: 'This request has expired.' };
    return { consent };
  };

  const identifyPage = (uid: string, problem?: string) => shell('Sign in', `
${problem ? `<div class="notice notice--bad signin-problem" role="alert">${esc(problem)}</div>` : ''}
<form id="identify" method="post" action="/signin/${esc(uid)}/identify">
<p><label for="customer-number">Customer number</label><br><input id="customer-number" name="customerNumber" inputmode="numeric" autocomplete="username"></p>
<p><button id="next-btn" type="submit">Continue</button></p></form>`);

  const secretPage = (uid: string, customer: string, problem?: string) => shell('Sign in', `
<p>Customer number ${esc(customer)}</p>
${problem ? `<div class="notice notice--bad signin-problem" role="alert">${esc(problem)}</div>` : ''}
<form id="verify" method="post" action="/signin/${esc(uid)}/verify">
<p><label for="secret-word">Secret word</label><br><input id="secret-word" name="secretWord" type="password" autocomplete="current-password"></p>
<p><button id="signin-btn" type="submit">Sign in</button></p></form>`);

  const noticePage = (uid: string) => shell('A word about your security', `
<p>We will never ask you for your secret word by phone or e-mail.</p>
<form method="post" action="/signin/${esc(uid)}/notice"><button id="notice-ack" type="submit">I understand</button></form>`);

  const requestPage = (uid: string, tpp: string, consent: Consent, customer: Customer, problem?: string) => {
    let body = '';
    if (consent.api === 'ais') {
      body += `<p><strong>${esc(tpp)}</strong> asks to see:</p><ul>${consent.permissions.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>`;
      body += `<p>Until ${esc(consent.expiration ?? 'you withdraw it')}${consent.from || consent.to ? `; transactions from ${esc(consent.from ?? 'the start')} to ${esc(consent.to ?? 'now')}` : ''}.</p>`;
      body += `<fieldset><legend>Which accounts?</legend>${customer.accounts.map((a) =>
        `<label class="acct-row"><input type="checkbox" name="selectedAccount" value="${esc(a.accountId)}"> ${esc(a.label)} ${esc(masked(a.identification))}</label>`).join('')}</fieldset>`;
    } else if (consent.api === 'cof') {
      body += `<p><strong>${esc(tpp)}</strong> asks to check, when you pay, whether there is enough money in account ${esc(masked(consent.debtor.Identification))}. It will only learn yes or no.</p>`;
    } else {
      const i = consent.initiation;
      // What the PSU is asked to pay: one amount, a standing order's first, a file's total, or a VRP consent's most per payment.
      const m = i.InstructedAmount ?? i.FirstPaymentAmount ?? consent.vrp?.controls.MaximumIndividualAmount;
      const what = i.FileType !== undefined ? `the ${esc(i.NumberOfTransactions ?? 'several')} payments of a file, ${esc(i.ControlSum ?? '')} in all`
        : `${consent.vrp ? 'up to ' : ''}${esc(m?.Currency ?? '')} ${esc(m?.Amount ?? '')}${consent.vrp ? ' a payment, again and again,' : ''} to ${esc(i.CreditorAccount?.Name ?? 'the payee')}`;
      body += `<p><strong>${esc(tpp)}</strong> asks to pay ${what}.</p>`;
      if (i.DebtorAccount) body += `<p>From account ${esc(masked(String(i.DebtorAccount.Identification)))}.</p>`;
      else {
        body += `<fieldset><legend>Pay from</legend>${customer.accounts.map((a) =>
          `<label class="acct-row"><input type="radio" name="payFrom" value="${esc(a.accountId)}"> ${esc(a.label)} ${esc(masked(a.identification))} (${esc(a.currency)} ${esc(amountOf(a.availablePence))} available)</label>`).join('')}</fieldset>`;
      }
    }
    return shell('Authorise this request', `
${problem ? `<div class="notice notice--bad" role="alert">${esc(problem)}</div>` : ''}
<form id="authorise-request" method="post" action="/signin/${esc(uid)}/decide">${body}
<p><button id="btn-grant" name="outcome" value="grant" type="submit">Allow</button>
<button id="btn-deny" name="outcome" value="deny" type="submit">Cancel</button></p></form>`);
  };

  return async (req, res, uid, action) => {
    let d: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      d = await provider.interactionDetails(req, res);
    } catch {
      return send(res, 400, shell('Your session has ended', '<div class="notice notice--bad" role="alert">Please go back to the provider and start again.</div>'));
    }
    if (d.uid !== uid) return send(res, 400, shell('Your session has ended', '<div class="notice notice--bad" role="alert">This page belongs to another request.</div>'));
    const p = progress.get(uid) ?? {};
    progress.set(uid, p);
    const post = req.method === 'POST';
    const client = await provider.Client.find(String(d.params.client_id));
    const tpp = String(client?.clientName ?? d.params.client_id);

    if (post && action === 'identify') {
      const f = await form(req);
      const number = (f.get('customerNumber') ?? '').trim();
      if (!/^\d{8}$/.test(number)) return send(res, 200, identifyPage(uid, 'A customer number has 8 digits.'));
      p.customerNumber = number;
      return send(res, 200, secretPage(uid, number));
    }
    if (post && action === 'verify') {
      const f = await form(req);
      if (state.defects.has('slow-sign-in')) await new Promise((r) => setTimeout(r, SLOW_SIGN_IN_MS));
      const customer = state.customer(p.customerNumber);
      if (!customer || f.get('secretWord') !== customer.secretWord) {
        p.customerNumber = undefined;
        return send(res, 200, identifyPage(uid, 'Those details do not match our records.'));
      }
      p.signedIn = true;
      state.logins++;
      p.noticePending = state.logins % 3 === 0;
      if (p.noticePending) return send(res, 200, noticePage(uid));
    } else if (post && action === 'notice') {
      p.noticePending = false;
    } else if (post && action === 'decide') {
      if (!p.signedIn || p.noticePending) return send(res, 200, identifyPage(uid));
      const f = await form(req);
      const found = problemWith(d);
      if ('problem' in found) return send(res, 200, shell('We could not continue', `<div class="notice notice--bad" role="alert">${esc(found.problem)}</div>`));
      const consent = found.consent;
      const customer = state.customer(p.customerNumber)!;
      const stamp = nowIso();
      if (f.get('outcome') !== 'grant') {
        consent.status = 'Rejected';
        consent.statusUpdated = stamp;
        progress.delete(uid);
        return void (await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the customer cancelled the request' }, { mergeWithLastSubmission: false }));
      }
      if (consent.api === 'ais') {
        const picked = f.getAll('selectedAccount');
        if (!picked.length || picked.some((id) => !customer.accounts.some((a) => a.accountId === id))) {
          return send(res, 200, requestPage(uid, tpp, consent, customer, 'Choose at least one of your accounts.'));
        }
        consent.accounts = [...new Set(picked)];
      } else if (consent.api === 'cof') {
        const account = state.accountByReference(customer, consent.debtor);
        if (!account) return send(res, 200, shell('We could not continue', '<div class="notice notice--bad" role="alert">The account this request names is not yours.</div>'));
        consent.accountId = account.accountId;
      } else if (!consent.initiation.DebtorAccount) {
        const account = customer.accounts.find((a) => a.accountId === f.get('payFrom'));
        if (!account) return send(res, 200, requestPage(uid, tpp, consent, customer, 'Choose the account to pay from.'));
        consent.debtor = { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: account.identification };
      } else if (!state.accountByReference(customer, consent.initiation.DebtorAccount)) {
        return send(res, 200, shell('We could not continue', '<div class="notice notice--bad" role="alert">The account this payment names is not yours.</div>'));
      }
      consent.status = 'Authorised';
      consent.statusUpdated = stamp;
      consent.customer = customer.customerNumber;
      const grant = new provider.Grant({ accountId: customer.customerNumber, clientId: String(d.params.client_id) });
      const asked = String(d.params.scope ?? '').split(' ');
      grant.addOIDCScope(asked.filter((s) => s === 'openid' || s === 'offline_access' || s === SCOPE_FOR[consent.api]).join(' '));
      if (intentOf(d.params)) grant.addOIDCClaims(['openbanking_intent_id']);
      grant.addResourceScope(API_AUDIENCE, SCOPE_FOR[consent.api]);
      const grantId = await grant.save();
      state.consentOfGrant.set(grantId, consent.id);
      progress.delete(uid);
      return void (await provider.interactionFinished(req, res, { login: { accountId: customer.customerNumber }, consent: { grantId } }, { mergeWithLastSubmission: false }));
    }
    if (!p.signedIn) return send(res, 200, p.customerNumber ? secretPage(uid, p.customerNumber) : identifyPage(uid));
    if (p.noticePending) return send(res, 200, noticePage(uid));
    const found = problemWith(d);
    if ('problem' in found) return send(res, 200, shell('We could not continue', `<div class="notice notice--bad" role="alert">${esc(found.problem)}</div>`));
    return send(res, 200, requestPage(uid, tpp, found.consent, state.customer(p.customerNumber)!));
  };
}
