/**
 * The PSU's pages at the bank: login, then the consent page (TPP, permissions, dates, accounts to
 * tick or the debtor to choose), then Approve or Reject. The PSU decides the consent as a whole:
 * nothing posted here can change its content, and every posted account is checked server-side.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { money } from './fixtures.ts';
import type { FixtureAccount, FixturePsu } from './fixtures.ts';
import { html, page, readBody, sendHtml } from './http.ts';
import type { Faults } from './faults.ts';
import { SANDBOX_ACR } from './security.ts';
import type { AisConsent, Consent, ConsentKind, Store } from './store.ts';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** What the pages need from the running sandbox. */
export interface PagesContext {
  provider: Provider;
  store: Store;
  faults: Faults;
}

const SCOPE_OF: Record<ConsentKind, string> = { ais: 'accounts', cof: 'fundsconfirmations', pis: 'payments' };
const YEAR = 365 * 86_400_000;

/** The intent id the authorisation request carries in `claims` (directly or from a request object). */
function requestedIntent(params: Record<string, unknown>): string | undefined {
  let claims = params.claims as unknown;
  if (typeof claims === 'string') {
    try {
      claims = JSON.parse(claims);
    } catch {
      return undefined;
    }
  }
  const c = claims as { id_token?: Record<string, { value?: unknown }>; userinfo?: Record<string, { value?: unknown }> } | undefined;
  const value = c?.id_token?.openbanking_intent_id?.value ?? c?.userinfo?.openbanking_intent_id?.value;
  return typeof value === 'string' ? value : undefined;
}

/** Finds the consent this authorisation is for, or says why it cannot be authorised. */
function resolveConsent(ctx: PagesContext, d: Interaction): { consent: Consent } | { error: string } {
  const clientId = String(d.params.client_id);
  const scopes = String(d.params.scope ?? '').split(' ');
  let consent: Consent | undefined;
  if (ctx.faults.has('intent-not-bound')) {
    const kind = (Object.keys(SCOPE_OF) as ConsentKind[]).find((k) => scopes.includes(SCOPE_OF[k]));
    consent = kind && ctx.store.latestUndecided(clientId, kind);
    if (!consent) return { error: 'There is nothing waiting for your authorisation.' };
  } else {
    const intent = requestedIntent(d.params);
    if (!intent) return { error: 'The request does not name a consent (openbanking_intent_id).' };
    consent = ctx.store.consents.get(intent);
    // Another TPP's consent is reported exactly like an unknown one.
    if (!consent || consent.clientId !== clientId) return { error: 'The consent this request names is unknown.' };
  }
  if (consent.decided) return { error: 'This consent is no longer awaiting authorisation.' };
  if (consent.kind === 'cof' && consent.deleted) return { error: 'This consent has been withdrawn by the provider.' };
  // A file payment is authorised with its file: the bank shows what the PSU pays.
  if (consent.kind === 'pis' && (consent as { family?: string; file?: string }).family === 'file' && (consent as { file?: string }).file === undefined) return { error: 'The payment file of this consent has not been uploaded yet.' };
  if (!scopes.includes(SCOPE_OF[consent.kind])) return { error: `The request must ask for the scope "${SCOPE_OF[consent.kind]}" for this consent.` };
  const expiry = consent.kind === 'pis' ? undefined : consent.ExpirationDateTime;
  if (expiry && Date.parse(expiry) <= ctx.store.now()) return { error: 'This consent has already expired.' };
  return { consent };
}

/** Handles everything under /interaction/:uid. */
export async function handleInteraction(ctx: PagesContext, req: IncomingMessage, res: ServerResponse, uid: string, step: string | undefined): Promise<void> {
  let d: Interaction;
  try {
    d = await ctx.provider.interactionDetails(req, res);
  } catch {
    return sendHtml(res, 400, page('Session expired', `<p class="error" data-testid="consent-error">This authorisation has expired or is unknown. Start again from your provider.</p>`));
  }
  if (d.uid !== uid) return sendHtml(res, 400, page('Session mismatch', `<p class="error" data-testid="consent-error">This page does not belong to the current authorisation.</p>`));
  const method = req.method ?? 'GET';
  const client = await ctx.provider.Client.find(String(d.params.client_id));
  const tppName = String(client?.clientName ?? d.params.client_id);

  if (method === 'POST' && step === 'abort') {
    return void (await ctx.provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the PSU cancelled' }, { mergeWithLastSubmission: false }));
  }

  const resolved = resolveConsent(ctx, d);
  if ('error' in resolved) return sendHtml(res, 200, errorPage(uid, tppName, resolved.error));
  const { consent } = resolved;

  // The PSU authenticates in every authorisation, even with a live session at the bank.
  const loggedIn = d.lastSubmission?.login ? ctx.store.psu(d.session?.accountId) : undefined;

  if (method === 'POST' && step === 'login') {
    const form = new URLSearchParams(await readBody(req));
    const psu = ctx.store.psu(form.get('username') ?? '');
    if (!psu || psu.password !== form.get('password')) return sendHtml(res, 200, loginPage(uid, tppName, 'The username or password is not right.'));
    return void (await ctx.provider.interactionFinished(req, res, { login: { accountId: psu.username, acr: SANDBOX_ACR } }, { mergeWithLastSubmission: false }));
  }
  if (!loggedIn) {
    if (ctx.faults.has('login-page-hangs') && consent.kind === 'pis') return hang(res, loginPage(uid, tppName));
    return sendHtml(res, 200, loginPage(uid, tppName));
  }

  if (method === 'POST' && step === 'confirm') {
    const form = new URLSearchParams(await readBody(req));
    if (form.get('decision') === 'reject') return reject(ctx, req, res, d, consent, loggedIn);
    if (form.get('decision') !== 'approve') return sendHtml(res, 200, consentPage(uid, tppName, consent, loggedIn, ctx.faults, 'Choose Approve or Reject.'));
    return approve(ctx, req, res, d, consent, loggedIn, tppName, form);
  }
  const problem = ownershipProblem(ctx, consent, loggedIn);
  if (problem) return sendHtml(res, 200, errorPage(uid, tppName, problem));
  return sendHtml(res, 200, consentPage(uid, tppName, consent, loggedIn, ctx.faults));
}

/**
 * login-page-hangs: the page's first bytes, then nothing, until the browser gives up (or the
 * sandbox stops). The document never completes, so it never counts as loaded.
 */
function hang(res: ServerResponse, body: string): void {
  res.on('error', () => undefined);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.write(body.slice(0, body.indexOf('<h1>')));
}

/** A fixed debtor account (funds consent, or a payment naming one) must be one of the PSU's. */
function ownershipProblem(ctx: PagesContext, consent: Consent, psu: FixturePsu): string | undefined {
  const ref = consent.kind === 'cof' ? consent.DebtorAccount : consent.kind === 'pis' ? consent.Initiation.DebtorAccount : undefined;
  if (ref && !ctx.store.accountByRef(ref, psu)) return 'The debtor account of this consent is not one of your accounts.';
  return undefined;
}

async function reject(ctx: PagesContext, req: IncomingMessage, res: ServerResponse, d: Interaction, consent: Consent, psu: FixturePsu): Promise<void> {
  ctx.store.setStatus(consent, 'Rejected');
  consent.decided = true;
  consent.psu = psu.username;
  if (ctx.faults.has('rejected-consent-token')) return grantAndFinish(ctx, req, res, d, consent);
  await ctx.provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the PSU rejected the consent' }, { mergeWithLastSubmission: true });
}

async function approve(ctx: PagesContext, req: IncomingMessage, res: ServerResponse, d: Interaction, consent: Consent, psu: FixturePsu, tppName: string, form: URLSearchParams): Promise<void> {
  const problem = ownershipProblem(ctx, consent, psu);
  if (problem) return sendHtml(res, 200, errorPage(d.uid, tppName, problem));
  const mine = (id: string) => psu.accounts.find((a) => a.AccountId === id);
  if (consent.kind === 'ais') {
    const ticked = form.getAll('accounts');
    if (ticked.length === 0) return sendHtml(res, 200, consentPage(d.uid, tppName, consent, psu, ctx.faults, 'Tick at least one account to share, or reject.'));
    if (!ticked.every(mine)) return sendHtml(res, 200, consentPage(d.uid, tppName, consent, psu, ctx.faults, 'Only your own accounts can be shared.'));
    consent.accounts = [...new Set(ticked)];
    if (ctx.faults.has('authorisation-alters-consent')) alter(consent);
    if (ctx.faults.has('partial-grant')) consent.Permissions = consent.Permissions.filter((p) => p.startsWith('ReadAccounts'));
  } else if (consent.kind === 'cof') {
    consent.accountId = ctx.store.accountByRef(consent.DebtorAccount, psu)?.AccountId;
  } else if (!consent.Initiation.DebtorAccount) {
    const chosen = ctx.faults.has('debtor-not-asked') ? psu.accounts[0] : mine(form.get('debtor') ?? '');
    if (!chosen) return sendHtml(res, 200, consentPage(d.uid, tppName, consent, psu, ctx.faults, 'Choose the account to pay from.'));
    consent.Debtor = { SchemeName: chosen.SchemeName, Identification: chosen.Identification, Name: chosen.Name };
  }
  ctx.store.setStatus(consent, 'Authorised');
  consent.decided = true;
  consent.psu = psu.username;
  await grantAndFinish(ctx, req, res, d, consent);
}

/** authorisation-alters-consent: the bank widens what the PSU was shown. */
function alter(consent: AisConsent): void {
  for (const p of ['ReadBalances', 'ReadTransactionsDetail']) if (!consent.Permissions.includes(p)) consent.Permissions.push(p);
  const from = Date.parse(consent.TransactionFromDateTime);
  consent.TransactionFromDateTime = new Date(from - YEAR).toISOString();
}

/** Grants what the authorisation request asked for and binds the grant to the consent. */
async function grantAndFinish(ctx: PagesContext, req: IncomingMessage, res: ServerResponse, d: Interaction, consent: Consent): Promise<void> {
  const grant = new ctx.provider.Grant({ accountId: d.session!.accountId, clientId: String(d.params.client_id) });
  const details = d.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  ctx.store.intentByGrant.set(grantId, consent.ConsentId);
  await ctx.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

function loginPage(uid: string, tppName: string, error?: string): string {
  return page('Log in to the sandbox bank', `
<p><strong data-testid="tpp-name">${html(tppName)}</strong> has sent you here to authorise access. Log in with your bank credentials.</p>
${error ? `<p class="error" data-testid="login-error">${html(error)}</p>` : ''}
<form method="post" action="/interaction/${html(uid)}/login" autocomplete="off">
<label>Username <input id="username" name="username" data-testid="username" autofocus required></label>
<label>Password <input id="password" name="password" type="password" data-testid="password" required></label>
<button id="login" type="submit" data-testid="login">Log in</button>
</form>`);
}

function errorPage(uid: string, tppName: string, message: string): string {
  return page('This consent cannot be authorised', `
<p>Request from <strong data-testid="tpp-name">${html(tppName)}</strong>.</p>
<p class="error" data-testid="consent-error">${html(message)}</p>
<form method="post" action="/interaction/${html(uid)}/abort"><button type="submit" data-testid="cancel">Return to the provider</button></form>`);
}

function accountLabel(a: FixtureAccount): string {
  return `${a.Name} — ${a.Nickname} — ${a.Identification.slice(0, 6)} ${a.Identification.slice(6)}`;
}

function accountAttrs(a: FixtureAccount): string {
  return `data-account-id="${html(a.AccountId)}" data-identification="${html(a.Identification)}" data-name="${html(a.Name)}"`;
}

function consentPage(uid: string, tppName: string, consent: Consent, psu: FixturePsu, faults: Faults, error?: string): string {
  const sections: string[] = [];
  const dl = (rows: Array<[string, string, string]>) => `<dl>${rows.map(([label, testid, value]) => `<dt>${html(label)}</dt><dd data-testid="${testid}">${html(value)}</dd>`).join('')}</dl>`;
  let intro: string;
  if (consent.kind === 'ais') {
    intro = 'wants to read information about your accounts.';
    sections.push(`<h2>What will be shared</h2><ul>${consent.Permissions.map((p) => `<li data-testid="permission">${html(p)}</li>`).join('')}</ul>`);
    sections.push(dl([
      ['Access ends', 'expiration', consent.ExpirationDateTime],
      ['Transactions from', 'transaction-from', consent.TransactionFromDateTime],
      ['Transactions to', 'transaction-to', consent.TransactionToDateTime],
    ]));
    sections.push(`<fieldset><legend>Accounts to share</legend>${psu.accounts.map((a) =>
      `<label><input type="checkbox" name="accounts" value="${html(a.AccountId)}" data-testid="account-option" ${accountAttrs(a)}> ${html(accountLabel(a))}</label>`).join('')}</fieldset>`);
  } else if (consent.kind === 'cof') {
    intro = 'wants to check, when you use it, whether funds are available on this account. It will only learn yes or no, never your balance.';
    const a = consent.DebtorAccount;
    sections.push(dl([
      ['Account', 'debtor-account', `${a.Name ? a.Name + ' — ' : ''}${a.Identification} (${a.SchemeName})`],
      ...(consent.ExpirationDateTime ? [['Access ends', 'expiration', consent.ExpirationDateTime] as [string, string, string]] : []),
    ]));
  } else {
    intro = 'wants to make a payment from your account.';
    const i = consent.Initiation as { InstructedAmount?: { Amount: string; Currency: string }; FirstPaymentAmount?: { Amount: string; Currency: string }; ControlSum?: number; NumberOfTransactions?: string; CreditorAccount?: { Name?: string; Identification?: string }; RemittanceInformation?: { Reference?: string } };
    // A standing order shows its first payment, a file payment its total (the payment families of UK Read/Write v3.1.11).
    const amount = i.InstructedAmount ?? i.FirstPaymentAmount;
    sections.push(dl([
      ['Amount', 'amount', amount ? `${amount.Currency} ${amount.Amount}` : `${i.ControlSum ?? ''} in ${i.NumberOfTransactions ?? 'several'} payments`],
      ['To', 'creditor', `${i.CreditorAccount?.Name ?? ''} ${i.CreditorAccount?.Identification ?? ''}`.trim()],
      ...(i.RemittanceInformation?.Reference ? [['Reference', 'reference', i.RemittanceInformation.Reference] as [string, string, string]] : []),
    ]));
    const d = consent.Initiation.DebtorAccount;
    if (d) sections.push(dl([['From', 'debtor-account', `${d.Name ? d.Name + ' — ' : ''}${d.Identification} (${d.SchemeName})`]]));
    else if (!faults.has('debtor-not-asked')) {
      sections.push(`<fieldset><legend>Pay from</legend>${psu.accounts.map((a) =>
        `<label><input type="radio" name="debtor" value="${html(a.AccountId)}" data-testid="debtor-option" ${accountAttrs(a)}> ${html(accountLabel(a))} (available ${html(a.Currency)} ${money(a.booked + a.creditLine)})</label>`).join('')}</fieldset>`);
    }
  }
  return page('Authorise this request', `
<div data-testid="consent-page" data-consent-id="${html(consent.ConsentId)}">
<p>Logged in as ${html(psu.name)}. <strong data-testid="tpp-name">${html(tppName)}</strong> ${html(intro)}</p>
${error ? `<p class="error" data-testid="consent-error">${html(error)}</p>` : ''}
<form method="post" action="/interaction/${html(uid)}/confirm">
${sections.join('\n')}
<p>You approve or reject this request as a whole.</p>
${faults.has('no-approve-button') && consent.kind === 'pis' ? '' : '<button id="approve" type="submit" name="decision" value="approve" data-testid="approve">Approve</button>'}
<button id="reject" type="submit" name="decision" value="reject" data-testid="reject" formnovalidate>Reject</button>
</form></div>`);
}
