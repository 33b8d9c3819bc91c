/**
 * The PSU's pages at the NextGenPSD2 bank, for both SCA approaches it offers:
 * - redirect: the `scaRedirect` link opens /bg/sca/{authorisationId}: login, then the consent or
 *   payment, then Approve or Reject; the bank sends the PSU back to TPP-Redirect-URI (or, after a
 *   rejection, TPP-Nok-Redirect-URI when given);
 * - OAuth2: the authorisation request (scope `AIS:{consentId}` or `PIS:{paymentId}`) lands on the
 *   oidc-provider interaction /interaction/{uid}, with the same pages.
 * The data-testids are the UK bank's (username, password, login, consent-page, account-option,
 * approve, reject, consent-error), so the built-in sandbox driver walks both banks.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { FixturePsu } from '../fixtures.ts';
import { html, page, readBody, sendHtml } from '../http.ts';
import { bgAmount, ibanOf } from './data.ts';
import type { BgAuthorisation, BgBasket, BgConsent, BgPayment, BgStore } from './store.ts';
import type { SwitchedFaults } from '../fault-declaration.ts';
import { consentAuthorised } from './lifecycle.ts';
import { cancellationAuthorised } from './cancellation.ts';
import { basketDecided } from './baskets.ts';
import { consentHoldersOf, holdersOf, multilevelApproval, multilevelCancellationApproval, multilevelConsentApproval } from './multilevel.ts';

type Resource = BgConsent | BgPayment;

export interface BgPagesContext {
  provider: Provider;
  store: BgStore;
  faults: SwitchedFaults;
}

/** Awaiting an authorisation: a payment of several PSUs also while some have authorised it (PATC). */
function pending(resource: Resource): boolean {
  // A consent of several PSUs likewise while some have authorised it (partiallyAuthorised).
  return resource.kind === 'ais' ? resource.status === 'received' || resource.status === 'partiallyAuthorised' : resource.transactionStatus === 'RCVD' || resource.transactionStatus === 'PATC';
}

const LISTS = ['accounts', 'balances', 'transactions'] as const;

/**
 * Applies the PSU's approval. Returns what to tell the PSU when it cannot be applied (the page is
 * shown again), else undefined. The PSU approves the resource as a whole; accounts posted are
 * checked to be the PSU's own.
 */
function approve(ctx: Pick<BgPagesContext, 'store' | 'faults'>, resource: Resource, psu: FixturePsu, form: URLSearchParams): string | undefined {
  const problem = resource.kind === 'ais' ? approveConsent(ctx, resource, psu, form) : approvePayment(ctx, resource, psu);
  if (problem !== undefined) return problem;
  resource.psu ??= psu.username;
  return undefined;
}

/** A consent approved: what it covers, then valid once every holder of a joint account has authorised it. */
function approveConsent(ctx: Pick<BgPagesContext, 'store' | 'faults'>, resource: BgConsent, psu: FixturePsu, form: URLSearchParams): string | undefined {
  const coverage = consentCoverage(ctx.store, resource, psu, form);
  if (typeof coverage === 'string') return coverage;
  // A joint account's consent opens nothing until every holder has authorised it.
  const level = multilevelConsentApproval(ctx, resource, psu);
  if (typeof level === 'object') return level.problem;
  if (level === 'pending') {
    resource.status = 'partiallyAuthorised';
    resource.psu ??= psu.username;
    return undefined;
  }
  resource.covered = coverage.covered;
  resource.cards = coverage.cards;
  resource.status = 'valid';
  // The consent is its first holder's (whose former recurring consent it replaces).
  resource.psu = resource.approvals?.[0] ?? psu.username;
  consentAuthorised(ctx, resource);
  return undefined;
}

/**
 * The accounts and card accounts a consent covers once approved, per list: every one for a global
 * or available-accounts consent, those the PSU ticks for a bank-offered one, else those it names
 * (each the PSU's own, or a joint account's the PSU holds); or what to tell the PSU.
 */
function consentCoverage(store: BgStore, resource: BgConsent, psu: FixturePsu, form: URLSearchParams): { covered: BgConsent['covered']; cards: BgConsent['cards'] } | string {
  const mine = (iban: string) => psu.accounts.find((a) => ibanOf(a) === iban);
  // A joint account the consent names is the PSU's too when the PSU is one of its holders.
  const holders = consentHoldersOf(store, resource);
  const ours = (iban: string) => mine(iban) ?? (holders?.includes(psu.username) ? store.byIban(iban)?.account : undefined);
  const access = resource.access as Record<string, unknown>;
  const all = psu.accounts.map((a) => a.AccountId);
  const cards = store.cardsOf(psu.username);
  const allCards = cards.map((c) => c.id);
  // A global consent reaches the card accounts as it reaches the others; a bank-offered one only the accounts the PSU ticks.
  const none: BgConsent['cards'] = { accounts: [], balances: [], transactions: [] };
  if (access.allPsd2) {
    return { covered: { accounts: all, balances: all, transactions: all }, cards: { accounts: allCards, balances: allCards, transactions: allCards } };
  }
  if (access.availableAccountsWithBalance) {
    return { covered: { accounts: all, balances: all, transactions: [] }, cards: { accounts: allCards, balances: allCards, transactions: [] } };
  }
  if (access.availableAccounts) {
    return { covered: { accounts: all, balances: [], transactions: [] }, cards: { accounts: allCards, balances: [], transactions: [] } };
  }
  if (resource.bankOffered) {
    const ticked = form.getAll('accounts');
    if (ticked.length === 0) return 'Tick at least one account to share, or reject.';
    if (!ticked.every((id) => all.includes(id))) return 'Only your own accounts can be shared.';
    const chosen = [...new Set(ticked)];
    return { covered: { accounts: chosen, balances: access.balances ? chosen : [], transactions: access.transactions ? chosen : [] }, cards: none };
  }
  const ids: Record<string, string[]> = {};
  const cardIds: Record<string, string[]> = {};
  for (const list of LISTS) {
    const refs = (access[list] as Array<{ iban?: string; maskedPan?: string }> | undefined) ?? [];
    const accounts = refs.filter((r) => r.iban !== undefined).map((r) => ours(r.iban!.replace(/\s/g, '')));
    const named = refs.filter((r) => r.iban === undefined).map((r) => cards.find((c) => c.maskedPan === r.maskedPan));
    if (accounts.some((a) => !a) || named.some((c) => !c)) return 'This consent names an account that is not yours.';
    ids[list] = accounts.map((a) => a!.AccountId);
    cardIds[list] = named.map((c) => c!.id);
  }
  const union = [...new Set([...ids.accounts, ...ids.balances, ...ids.transactions])];
  return {
    covered: { accounts: union, balances: ids.balances, transactions: ids.transactions },
    cards: { accounts: [...new Set([...cardIds.accounts, ...cardIds.balances, ...cardIds.transactions])], balances: cardIds.balances, transactions: cardIds.transactions },
  };
}

/** A payment approved: from the PSU's own account (or a joint one, once every holder has authorised it), accepted or rejected on its funds. */
function approvePayment(ctx: Pick<BgPagesContext, 'store' | 'faults'>, resource: BgPayment, psu: FixturePsu): string | undefined {
  const { store } = ctx;
  const iban = String((resource.body.debtorAccount as { iban: string }).iban).replace(/\s/g, '');
  // A joint account: the payment goes on only once each holder has authorised it (PATC till then).
  const joint = holdersOf(store, resource) ? store.byIban(iban)?.account : undefined;
  const debtor = joint ?? psu.accounts.find((a) => ibanOf(a) === iban);
  if (!debtor) return 'The account to pay from is not one of yours.';
  const level = multilevelApproval(ctx, resource, psu);
  if (typeof level === 'object') return level.problem;
  if (level === 'pending') {
    resource.transactionStatus = 'PATC';
    resource.psu ??= psu.username;
    return undefined;
  }
  const covered = debtor.booked + debtor.creditLine >= resource.amountMinor;
  resource.transactionStatus = !covered ? 'RJCT' : resource.product === 'instant-sepa-credit-transfers' ? 'ACSC' : 'ACTC';
  return undefined;
}

function reject(resource: Resource, psu: FixturePsu): void {
  if (resource.kind === 'ais') resource.status = 'rejected';
  else resource.transactionStatus = 'RJCT';
  resource.psu = psu.username;
}

/**
 * The PSU's approval where no page shows the accounts (embedded SCA: the PSU's data come through
 * the TPP): a bank-offered consent covers every account of the PSU, for the services it asks.
 */
export function approveAll(ctx: Pick<BgPagesContext, 'store' | 'faults'>, resource: Resource, psu: FixturePsu): string | undefined {
  const form = new URLSearchParams(psu.accounts.map((a) => ['accounts', a.AccountId]));
  // Through the same approval as the pages: a new recurring consent expires the PSU's former one here too.
  return approve(ctx, resource, psu, form);
}

/** A failed SCA: no successful authorisation took place, the consent or payment is rejected. */
export const rejectResource = reject;

// ---------------------------------------------------------------------------------------------
// Redirect SCA

/**
 * Handles /bg/sca/{authorisationId}[/login|/confirm] (redirect SCA) and, for the decoupled SCA,
 * /bg/app/{authorisationId}[…]: the bank's app, where the PSU named by PSU-ID logs in and approves
 * while the TPP polls the scaStatus; it ends on a page of its own (no way back to the TPP).
 */
export async function handleScaRedirect(ctx: BgPagesContext, req: IncomingMessage, res: ServerResponse, authorisationId: string, step: string | undefined, where: 'sca' | 'app' = 'sca'): Promise<void> {
  const found = ctx.store.byAuthorisation(authorisationId);
  if (!found || found.authorisation.approach !== (where === 'app' ? 'DECOUPLED' : 'REDIRECT')) {
    return sendHtml(res, 404, page('Unknown authorisation', '<p class="error" data-testid="consent-error">This authorisation is unknown. Start again from your provider.</p>'));
  }
  const { resource, authorisation } = found;
  if (resource.kind === 'sbs') return basketPage(ctx, req, res, resource, authorisation, step, where);
  if (authorisation.cancellation && resource.kind === 'pis') return cancellationPage(ctx, req, res, resource, authorisation, step, where);
  const tpp = authorisation.redirectUri ? new URL(authorisation.redirectUri).host : 'the provider';
  const action = `/bg/${where}/${html(authorisationId)}`;
  const method = req.method ?? 'GET';
  if (!pending(resource) || authorisation.scaStatus === 'finalised' || authorisation.scaStatus === 'failed') {
    return sendHtml(res, 200, page('This request cannot be authorised', `<p class="error" data-testid="consent-error">This ${resource.kind === 'ais' ? 'consent' : 'payment'} is no longer awaiting authorisation.</p>`));
  }
  if (method === 'POST' && step === 'login') {
    const form = new URLSearchParams(await readBody(req));
    const psu = ctx.store.psu(form.get('username') ?? '');
    if (!psu || psu.password !== form.get('password')) return sendHtml(res, 200, loginPage(action, tpp, 'The username or password is not right.'));
    // Decoupled: the request was sent to the app of the PSU the TPP named.
    if (authorisation.psuId && authorisation.psuId !== psu.username) return sendHtml(res, 200, loginPage(action, tpp, 'This request is for another customer.'));
    authorisation.psu = psu.username;
    authorisation.scaStatus = 'psuAuthenticated';
    return redirect(res, action);
  }
  const psu = ctx.store.psu(authorisation.psu);
  if (!psu) return sendHtml(res, 200, loginPage(action, tpp));
  if (method === 'POST' && step === 'confirm') {
    const form = new URLSearchParams(await readBody(req));
    const decision = form.get('decision');
    if (decision === 'reject') {
      reject(resource, psu);
      authorisation.scaStatus = 'failed';
      return back(res, authorisation, false);
    }
    if (decision !== 'approve') return sendHtml(res, 200, decisionPage(`${action}/confirm`, tpp, resource, psu, 'Choose Approve or Reject.'));
    const problem = approve(ctx, resource, psu, form);
    if (problem) return sendHtml(res, 200, decisionPage(`${action}/confirm`, tpp, resource, psu, problem));
    authorisation.scaStatus = 'finalised';
    return back(res, authorisation, true);
  }
  return sendHtml(res, 200, decisionPage(`${action}/confirm`, tpp, resource, psu));
}

/**
 * The redirect SCA of a payment's cancellation (/bg/sca/{authorisationId} of a cancellation
 * authorisation): login, then Approve (the payment reads CANC) or Reject (it stays as it was).
 */
async function cancellationPage(ctx: BgPagesContext, req: IncomingMessage, res: ServerResponse, payment: BgPayment, a: BgAuthorisation, step: string | undefined, where: 'sca' | 'app'): Promise<void> {
  const tpp = a.redirectUri ? new URL(a.redirectUri).host : 'the provider';
  const action = `/bg/${where}/${html(a.authorisationId)}`;
  const method = req.method ?? 'GET';
  if (!payment.cancelRequested || payment.transactionStatus === 'CANC' || a.scaStatus === 'finalised' || a.scaStatus === 'failed') {
    return sendHtml(res, 200, page('This request cannot be authorised', '<p class="error" data-testid="consent-error">This cancellation is no longer awaiting authorisation.</p>'));
  }
  if (method === 'POST' && step === 'login') {
    const form = new URLSearchParams(await readBody(req));
    const psu = ctx.store.psu(form.get('username') ?? '');
    if (!psu || psu.password !== form.get('password')) return sendHtml(res, 200, loginPage(action, tpp, 'The username or password is not right.'));
    const foreign = cancellerProblem(ctx.store, payment, psu);
    if (foreign) return sendHtml(res, 200, loginPage(action, tpp, foreign));
    // Decoupled: the request was sent to the app of the PSU the TPP named.
    if (a.psuId && a.psuId !== psu.username) return sendHtml(res, 200, loginPage(action, tpp, 'This request is for another customer.'));
    a.psu = psu.username;
    a.scaStatus = 'psuAuthenticated';
    return redirect(res, action);
  }
  const psu = ctx.store.psu(a.psu);
  if (!psu) return sendHtml(res, 200, loginPage(action, tpp));
  if (method === 'POST' && step === 'confirm') {
    const decision = new URLSearchParams(await readBody(req)).get('decision');
    if (decision === 'approve' || decision === 'reject') {
      // An approval that cannot be applied (the same holder twice) fails the SCA, as the embedded one does.
      const problem = decision === 'approve' ? decideCancellation(ctx, payment, psu) : undefined;
      const approved = decision === 'approve' && !problem;
      a.scaStatus = approved ? 'finalised' : 'failed';
      if (decision === 'reject') payment.cancelRequested = false;
      return back(res, a, approved);
    }
  }
  const b = summaryOf(payment);
  return sendHtml(res, 200, page('Authorise this cancellation', `
<div data-testid="consent-page" data-consent-id="${html(payment.id)}">
<p>Logged in as ${html(psu.name)}. <strong data-testid="tpp-name">${html(tpp)}</strong> wants to cancel a payment (${html(payment.product)}) from your account.</p>
<form method="post" action="${action}/confirm">
<dl><dt>Amount</dt><dd data-testid="amount">${html(b.amount)}</dd>
<dt>To</dt><dd data-testid="creditor">${html(b.creditor)}</dd>
<dt>Due</dt><dd data-testid="execution-date">${html(String(payment.body.requestedExecutionDate ?? ''))}</dd></dl>
<button id="approve" type="submit" name="decision" value="approve" data-testid="approve">Approve</button>
<button id="reject" type="submit" name="decision" value="reject" data-testid="reject" formnovalidate>Reject</button>
</form></div>`));
}

/** Why the PSU may not cancel the payment (only the PSU who made it, or the debtor account's holder before anyone authorised it), else undefined. */
function cancellerProblem(store: BgStore, payment: BgPayment, psu: FixturePsu): string | undefined {
  // A joint account's payment: each of its holders authorises the cancellation.
  const holders = holdersOf(store, payment);
  if (holders) return holders.includes(psu.username) ? undefined : 'This payment is another customer\'s.';
  const holder = payment.psu ?? store.byIban((payment.body.debtorAccount as { iban?: unknown } | undefined)?.iban)?.psu.username;
  return holder === psu.username ? undefined : 'This payment is another customer\'s.';
}

/**
 * The PSU approved the payment's cancellation (the bank's page, or the embedded SCA's one-time
 * password): the payment is cancelled. Answers why it cannot be, else undefined.
 */
export function decideCancellation(ctx: Pick<BgPagesContext, 'store' | 'faults'>, payment: BgPayment, psu: FixturePsu): string | undefined {
  const problem = cancellerProblem(ctx.store, payment, psu);
  if (problem) return problem;
  // A joint account's payment stays as it was until each holder has authorised its cancellation.
  const level = multilevelCancellationApproval(ctx, payment, psu);
  if (typeof level === 'object') return level.problem;
  if (level === 'pending') return undefined;
  cancellationAuthorised(ctx.faults, payment);
  payment.cancelRequested = false;
  return undefined;
}

/**
 * The PSU decided on a signing basket (its page, the decoupled app, or the embedded SCA): one
 * approval authorises every member. Answers why it cannot be applied, else undefined.
 */
export function decideBasket(ctx: Pick<BgPagesContext, 'store' | 'faults'>, basket: BgBasket, psu: FixturePsu, approved: boolean): string | undefined {
  // Where no page shows the accounts (a bank-offered consent in a basket), every account of the PSU is shared, as approveAll does.
  const all = new URLSearchParams(psu.accounts.map((x) => ['accounts', x.AccountId]));
  return basketDecided(ctx, basket, psu, approved, {
    mayAuthorise: (m) => foreignMember(m, psu),
    authorise: (m) => void approve(ctx, m, psu, all),
    reject: (m) => reject(m, psu),
  });
}

/** Why the PSU cannot authorise a member of a basket (it names an account that is not theirs), else undefined. */
function foreignMember(m: Resource, psu: FixturePsu): string | undefined {
  const mine = (iban: unknown) => typeof iban === 'string' && psu.accounts.some((a) => ibanOf(a) === iban.replace(/\s/g, ''));
  if (m.kind === 'pis') return mine((m.body.debtorAccount as { iban?: unknown } | undefined)?.iban) ? undefined : 'A payment in this basket is not from one of your accounts.';
  const refs = LISTS.flatMap((l) => ((m.access as Record<string, unknown>)[l] as Array<{ iban?: string }> | undefined) ?? []).filter((r) => r.iban !== undefined);
  return refs.every((r) => mine(r.iban)) ? undefined : 'A consent in this basket names an account that is not yours.';
}

/**
 * The redirect SCA of a signing basket (/bg/sca/{authorisationId} of a basket's authorisation):
 * login, then the basket's consents and payments, Approve (one SCA authorises them all) or Reject.
 */
async function basketPage(ctx: BgPagesContext, req: IncomingMessage, res: ServerResponse, basket: BgBasket, a: BgAuthorisation, step: string | undefined, where: 'sca' | 'app'): Promise<void> {
  const tpp = a.redirectUri ? new URL(a.redirectUri).host : 'the provider';
  const action = `/bg/${where}/${html(a.authorisationId)}`;
  const method = req.method ?? 'GET';
  if (basket.transactionStatus !== 'RCVD' || a.scaStatus === 'finalised' || a.scaStatus === 'failed') {
    return sendHtml(res, 200, page('This request cannot be authorised', '<p class="error" data-testid="consent-error">This basket is no longer awaiting authorisation.</p>'));
  }
  if (method === 'POST' && step === 'login') {
    const form = new URLSearchParams(await readBody(req));
    const psu = ctx.store.psu(form.get('username') ?? '');
    if (!psu || psu.password !== form.get('password')) return sendHtml(res, 200, loginPage(action, tpp, 'The username or password is not right.'));
    if (a.psuId && a.psuId !== psu.username) return sendHtml(res, 200, loginPage(action, tpp, 'This request is for another customer.'));
    a.psu = psu.username;
    a.scaStatus = 'psuAuthenticated';
    return redirect(res, action);
  }
  const psu = ctx.store.psu(a.psu);
  if (!psu) return sendHtml(res, 200, loginPage(action, tpp));
  let problem: string | undefined;
  if (method === 'POST' && step === 'confirm') {
    const decision = new URLSearchParams(await readBody(req)).get('decision');
    if (decision === 'approve' || decision === 'reject') {
      problem = decideBasket(ctx, basket, psu, decision === 'approve');
      if (!problem) {
        a.scaStatus = decision === 'approve' ? 'finalised' : 'failed';
        return back(res, a, decision === 'approve');
      }
    } else problem = 'Choose Approve or Reject.';
  }
  const items = [
    ...basket.consentIds.map((id) => ctx.store.consents.get(id)).filter((c) => c !== undefined).map((c) => `<li data-testid="basket-consent">Access to your accounts (${html(LISTS.filter((l) => (c.access as Record<string, unknown>)[l]).join(', ') || Object.keys(c.access).join(', '))}) until ${html(c.validUntil)}</li>`),
    ...basket.paymentIds.map((id) => ctx.store.payments.get(id)).filter((p) => p !== undefined).map((p) => { const s = summaryOf(p); return `<li data-testid="basket-payment">${html(s.amount)} to ${html(s.creditor)} (${html(p.product)})</li>`; }),
  ];
  return sendHtml(res, 200, page('Authorise this basket', `
<div data-testid="consent-page" data-consent-id="${html(basket.id)}">
<p>Logged in as ${html(psu.name)}. <strong data-testid="tpp-name">${html(tpp)}</strong> asks you to authorise these requests at once:</p>
${problem ? `<p class="error" data-testid="consent-error">${html(problem)}</p>` : ''}
<form method="post" action="${action}/confirm">
<ul>${items.join('\n')}</ul>
<p>You approve or reject them all together.</p>
<button id="approve" type="submit" name="decision" value="approve" data-testid="approve">Approve</button>
<button id="reject" type="submit" name="decision" value="reject" data-testid="reject" formnovalidate>Reject</button>
</form></div>`));
}

/** What the PSU is shown of a payment: the amount (a bulk's total) and the payee (a bulk's count of payees). */
function summaryOf(p: BgPayment): { amount: string; creditor: string; count: number } {
  const b = p.body as { instructedAmount?: { currency: string; amount: string }; creditorName?: string; creditorAccount?: { iban?: string }; payments?: unknown[] };
  if (p.service === 'bulk-payments') return { amount: `EUR ${bgAmount(p.amountMinor)}`, creditor: `${b.payments?.length ?? 0} payees`, count: b.payments?.length ?? 0 };
  return { amount: `${b.instructedAmount?.currency} ${b.instructedAmount?.amount}`, creditor: `${b.creditorName} ${b.creditorAccount?.iban ?? ''}`, count: 1 };
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store' }).end();
}

/** Back to the TPP; without a redirect URI (impossible for REDIRECT resources) a page says so. */
function back(res: ServerResponse, a: BgAuthorisation, ok: boolean): void {
  const target = a.approach === 'DECOUPLED' ? undefined : ok ? a.redirectUri : (a.nokRedirectUri ?? a.redirectUri);
  if (target) return redirect(res, target);
  sendHtml(res, 200, page('Done', '<p data-testid="sca-done">You may close this window.</p>'));
}

// ---------------------------------------------------------------------------------------------
// OAuth2 SCA (oidc-provider interactions)

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** The consent or payment the authorisation request's scope names (`AIS:{id}` / `PIS:{id}`). */
function resourceOfScope(store: BgStore, scope: unknown): Resource | undefined {
  for (const s of String(scope ?? '').split(' ')) {
    const m = /^(AIS|PIS):(.+)$/.exec(s);
    const r = m ? (m[1] === 'AIS' ? store.consents.get(m[2]) : store.payments.get(m[2])) : undefined;
    if (r) return r;
  }
  return undefined;
}

/** Handles /interaction/{uid}[/login|/confirm|/abort] of the berlin-group bank. */
export async function handleOAuthInteraction(ctx: BgPagesContext, req: IncomingMessage, res: ServerResponse, uid: string, step: string | undefined): Promise<void> {
  let d: Interaction;
  try {
    d = await ctx.provider.interactionDetails(req, res);
  } catch {
    return sendHtml(res, 400, page('Session expired', '<p class="error" data-testid="consent-error">This authorisation has expired or is unknown. Start again from your provider.</p>'));
  }
  if (d.uid !== uid) return sendHtml(res, 400, page('Session mismatch', '<p class="error" data-testid="consent-error">This page does not belong to the current authorisation.</p>'));
  const method = req.method ?? 'GET';
  const client = await ctx.provider.Client.find(String(d.params.client_id));
  const tpp = String(client?.clientName ?? d.params.client_id);
  const action = `/interaction/${html(uid)}`;
  if (method === 'POST' && step === 'abort') {
    return void (await ctx.provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the PSU cancelled' }, { mergeWithLastSubmission: false }));
  }
  const resource = resourceOfScope(ctx.store, d.params.scope);
  const problem = !resource ? 'The request does not name a consent or payment of this bank (scope AIS:{consentId} or PIS:{paymentId}).'
    : resource.approach !== 'OAUTH' ? 'This request was not set up for OAuth2 authorisation.'
      : !pending(resource) ? `This ${resource.kind === 'ais' ? 'consent' : 'payment'} is no longer awaiting authorisation.` : undefined;
  if (problem || !resource) {
    return sendHtml(res, 200, page('This request cannot be authorised', `<p class="error" data-testid="consent-error">${html(problem)}</p>
<form method="post" action="${action}/abort"><button type="submit" data-testid="cancel">Return to the provider</button></form>`));
  }
  const authorisation = resource.authorisations.find((a) => a.approach === 'OAUTH' && a.scaStatus !== 'finalised' && a.scaStatus !== 'failed');
  if (method === 'POST' && step === 'login') {
    const form = new URLSearchParams(await readBody(req));
    const psu = ctx.store.psu(form.get('username') ?? '');
    if (!psu || psu.password !== form.get('password')) return sendHtml(res, 200, loginPage(`${action}`, tpp, 'The username or password is not right.'));
    if (authorisation) authorisation.scaStatus = 'psuAuthenticated';
    return void (await ctx.provider.interactionFinished(req, res, { login: { accountId: psu.username } }, { mergeWithLastSubmission: false }));
  }
  const psu = d.lastSubmission?.login ? ctx.store.psu(d.session?.accountId) : undefined;
  if (!psu) return sendHtml(res, 200, loginPage(action, tpp));
  if (method === 'POST' && step === 'confirm') {
    const form = new URLSearchParams(await readBody(req));
    if (form.get('decision') === 'reject') {
      reject(resource, psu);
      if (authorisation) authorisation.scaStatus = 'failed';
      return void (await ctx.provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the PSU rejected the request' }, { mergeWithLastSubmission: true }));
    }
    if (form.get('decision') !== 'approve') return sendHtml(res, 200, decisionPage(`${action}/confirm`, tpp, resource, psu, 'Choose Approve or Reject.'));
    const refused = approve(ctx, resource, psu, form);
    if (refused) return sendHtml(res, 200, decisionPage(`${action}/confirm`, tpp, resource, psu, refused));
    if (authorisation) authorisation.scaStatus = 'finalised';
    const grant = new ctx.provider.Grant({ accountId: d.session!.accountId, clientId: String(d.params.client_id) });
    const details = d.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    ctx.store.intentByGrant.set(grantId, resource.id);
    return void (await ctx.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true }));
  }
  return sendHtml(res, 200, decisionPage(`${action}/confirm`, tpp, resource, psu));
}

// ---------------------------------------------------------------------------------------------
// Pages

function loginPage(action: string, tpp: string, error?: string): string {
  return page('Log in to the sandbox bank', `
<p><strong data-testid="tpp-name">${html(tpp)}</strong> has sent you here to authorise a request. Log in with your bank credentials.</p>
${error ? `<p class="error" data-testid="login-error">${html(error)}</p>` : ''}
<form method="post" action="${action}/login" autocomplete="off">
<label>Username <input id="username" name="username" data-testid="username" autofocus required></label>
<label>Password <input id="password" name="password" type="password" data-testid="password" required></label>
<button id="login" type="submit" data-testid="login">Log in</button>
</form>`);
}

function decisionPage(action: string, tpp: string, resource: Resource, psu: FixturePsu, error?: string): string {
  const sections: string[] = [];
  let intro: string;
  if (resource.kind === 'ais') {
    const access = resource.access as Record<string, unknown>;
    intro = 'wants to read information about your accounts.';
    const global = ['allPsd2', 'availableAccountsWithBalance', 'availableAccounts'].find((k) => access[k]);
    const what = global ? [`${global}: ${String(access[global])}`] : LISTS.filter((l) => access[l]).map((l) => l);
    sections.push(`<h2>What will be shared</h2><ul>${what.map((w) => `<li data-testid="permission">${html(w)}</li>`).join('')}</ul>`);
    sections.push(`<dl><dt>Access ends</dt><dd data-testid="expiration">${html(resource.validUntil)}</dd>
<dt>Accesses a day without you</dt><dd data-testid="frequency">${html(resource.frequencyPerDay)}</dd>
<dt>Recurring</dt><dd data-testid="recurring">${resource.recurringIndicator ? 'yes' : 'no (one-off)'}</dd></dl>`);
    if (resource.bankOffered) {
      sections.push(`<fieldset><legend>Accounts to share</legend>${psu.accounts.map((a) =>
        `<label><input type="checkbox" name="accounts" value="${html(a.AccountId)}" data-testid="account-option" data-account-id="${html(a.AccountId)}" data-identification="${html(ibanOf(a))}" data-name="${html(a.Name)}"> ${html(a.Name)} — ${html(a.Nickname)} — ${html(ibanOf(a))}</label>`).join('')}</fieldset>`);
    } else if (!global) {
      const ibans = [...new Set(LISTS.flatMap((l) => ((access[l] as Array<{ iban?: string; maskedPan?: string }> | undefined) ?? []).map((r) => r.iban ?? `card ${r.maskedPan}`)))];
      sections.push(`<h2>Accounts</h2><ul>${ibans.map((i) => `<li data-testid="account">${html(i)}</li>`).join('')}</ul>`);
    }
  } else {
    const b = resource.body as { debtorAccount: { iban: string }; remittanceInformationUnstructured?: string; frequency?: string; startDate?: string };
    const sum = summaryOf(resource);
    intro = resource.service === 'bulk-payments' ? `wants to make ${sum.count} payments (${resource.product}) from your account.`
      : resource.service === 'periodic-payments' ? `wants to set up a standing order (${resource.product}, ${b.frequency} from ${b.startDate}) from your account.`
        : `wants to make a payment (${resource.product}) from your account.`;
    sections.push(`<dl><dt>Amount</dt><dd data-testid="amount">${html(sum.amount)}</dd>
<dt>To</dt><dd data-testid="creditor">${html(sum.creditor)}</dd>
<dt>From</dt><dd data-testid="debtor-account">${html(b.debtorAccount.iban)}</dd>
${b.remittanceInformationUnstructured ? `<dt>Reference</dt><dd data-testid="reference">${html(b.remittanceInformationUnstructured)}</dd>` : ''}</dl>`);
    const debtor = psu.accounts.find((a) => ibanOf(a) === b.debtorAccount.iban.replace(/\s/g, ''));
    if (debtor) sections.push(`<p>Available on that account: EUR ${bgAmount(debtor.booked + debtor.creditLine)}</p>`);
  }
  return page('Authorise this request', `
<div data-testid="consent-page" data-consent-id="${html(resource.id)}">
<p>Logged in as ${html(psu.name)}. <strong data-testid="tpp-name">${html(tpp)}</strong> ${html(intro)}</p>
${error ? `<p class="error" data-testid="consent-error">${html(error)}</p>` : ''}
<form method="post" action="${action}">
${sections.join('\n')}
<p>You approve or reject this request as a whole.</p>
<button id="approve" type="submit" name="decision" value="approve" data-testid="approve">Approve</button>
<button id="reject" type="submit" name="decision" value="reject" data-testid="reject" formnovalidate>Reject</button>
</form></div>`);
}
