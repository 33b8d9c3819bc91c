/** The UK journeys in one command (`obtpp flow ais|cof|pis`): each step printed as it happens, a summary at the end. */
import type { Out } from '../output.ts';
import type { AisFlags, CofFlags, PisFlags } from '../flags.ts';
import { approve, type Journey } from '../commands/consent.ts';
import { FN_NAMES, type ConsentRecord, type Session } from '../../session/index.ts';
import { createConsent, submitPayment } from '../../session/obie.ts';
import { accountsOf, fundsAvailableOf, permissionRules, statusOf } from '../../dialects/obie/builders.ts';
import { ObtppError, ExitCode } from '../../errors.ts';
import { aisConsent, cofConsent, pisConsent } from './consent.ts';
import { printAccounts, printBalances, printTransactions, readAccounts } from './data.ts';
import { confirmArgs, confirmFunds, printConfirmation } from './funds.ts';
import { printPaymentOrder } from './payment.ts';

const created = (record: ConsentRecord) => `created ${FN_NAMES[record.fn]} ${record.id} (${record.status})`;

/** The account-access consent, the PSU's authorisation, the accounts, the first one's balances and transactions (as the permissions allow). */
export async function ais(session: Session, out: Out, flags: AisFlags & Journey & { accounts?: string }): Promise<void> {
  const { body, summary } = aisConsent(flags);
  const { record } = await out.step('creating the account-access consent', () => createConsent(session, 'ais', body, summary), (r) => created(r.record));
  const authorisation = await approve(session, out, record, flags);
  const token = await session.userToken(record);
  const accounts = await out.step('reading the accounts', () => readAccounts(session, record, token), (r) => `read ${accountsOf(r.body).length} account(s)`);
  const accountId = accountsOf(accounts.body).map((a) => a.AccountId).find((a): a is string => typeof a === 'string');
  const rules = permissionRules(summary.permissions);
  let balances: unknown;
  let transactions: unknown;
  if (accountId && rules.balances) {
    balances = (await out.step(`reading the balances of ${accountId}`, async () => session.check(await session.client.getBalances(accountId, { token }), [200]), (r) => `read ${((r.body as any)?.Data?.Balance ?? []).length} balance(s) of ${accountId}`)).body;
  }
  if (accountId && rules.transactions) {
    transactions = (await out.step(`reading the transactions of ${accountId}`, async () => session.check(await session.client.getTransactions(accountId, { token }), [200]), (r) => `read ${((r.body as any)?.Data?.Transaction ?? []).length} transaction(s) of ${accountId}`)).body;
  }
  if (out.json) {
    return out.document({ flow: 'ais', consentId: record.id, authorisation, accounts: accounts.body, ...(accountId ? { accountId } : {}), ...(balances ? { balances } : {}), ...(transactions ? { transactions } : {}) });
  }
  out.line(out.c.bold(`Accounts (consent ${record.id})`));
  printAccounts(out, accounts.body);
  if (balances) {
    out.line('');
    out.line(out.c.bold(`Balances of ${accountId}`));
    printBalances(out, balances);
  }
  if (transactions) {
    out.line('');
    out.line(out.c.bold(`Transactions of ${accountId}`));
    printTransactions(out, transactions, 10);
  }
  out.line('');
  out.line(`consent ${record.id} is now the current AIS consent: obtpp accounts, obtpp balances ${accountId ?? 'ACCOUNT'} …`);
}

/** The debtor: the one given, an account obtpp has already listed, else one found by a short AIS journey. */
async function debtorOf(session: Session, out: Out, flags: CofFlags & Journey & { currency?: string }): Promise<{ debtorFlags: CofFlags; currency?: string; aisConsentId?: string }> {
  if (flags.debtorId) return { debtorFlags: flags, currency: flags.currency };
  const ps = await session.read();
  let aisConsentId: string | undefined;
  let known = Object.values(ps.consents).flatMap((c) => c.accounts ?? []).find((a) => a.Identification);
  if (!known) {
    const { body, summary } = aisConsent({ permissions: 'ReadAccountsDetail' });
    const { record } = await out.step('no --debtor-id: creating an account-access consent to find the PSU\'s account', () => createConsent(session, 'ais', body, summary), (r) => created(r.record));
    aisConsentId = record.id;
    await approve(session, out, record, { ...flags, accounts: undefined });
    const token = await session.userToken(record);
    await out.step('reading the accounts', () => readAccounts(session, record, token), (r) => `read ${accountsOf(r.body).length} account(s)`);
    known = Object.values((await session.read()).consents).flatMap((c) => c.accounts ?? []).find((a) => a.Identification);
  }
  if (!known) throw new ObtppError('no_debtor', 'no account with an identification was found to use as the debtor: pass --debtor-id', { exitCode: ExitCode.usage });
  return { debtorFlags: { ...flags, debtorId: known.AccountId }, currency: flags.currency ?? known.Currency, ...(aisConsentId ? { aisConsentId } : {}) };
}

/** The funds-confirmation consent (its debtor found if not given), the PSU's authorisation, one confirmation. */
export async function cof(session: Session, out: Out, flags: CofFlags & Journey & { amount?: string; currency?: string; reference?: string }): Promise<void> {
  const args = confirmArgs(flags, '10.00');
  const { debtorFlags, currency, aisConsentId } = await debtorOf(session, out, flags);
  const { body, summary } = await cofConsent(session, debtorFlags);
  const { record } = await out.step('creating the funds-confirmation consent', () => createConsent(session, 'cof', body, summary), (r) => `${created(r.record)} for debtor ${summary.debtor.Identification}`);
  const authorisation = await approve(session, out, record, flags);
  const confirmation = { ...args, currency: currency ?? args.currency };
  const result = await out.step(`confirming funds for ${confirmation.amount} ${confirmation.currency}`, () => confirmFunds(session, record, confirmation), (r) => `funds available: ${fundsAvailableOf(r.body)}`);
  if (out.json) {
    return out.document({ flow: 'cof', ...(aisConsentId ? { aisConsentId } : {}), consentId: record.id, debtor: summary.debtor, authorisation, confirmation: result.body, fundsAvailable: fundsAvailableOf(result.body) ?? null });
  }
  printConfirmation(out, confirmation, result.body, record.id);
  out.line(`consent ${record.id} is now the current COF consent: obtpp funds confirm --amount … --currency ${confirmation.currency}`);
}

/** The payment-order consent, the PSU's authorisation, its status, the order submitted and read back. */
export async function pis(session: Session, out: Out, flags: PisFlags & Journey & { debtor?: string }): Promise<void> {
  const { body, summary } = await pisConsent(session, { ...flags, amount: flags.amount ?? '10.00' });
  const { record } = await out.step('creating the payment-order consent', () => createConsent(session, 'pis', body, summary, flags.idempotencyKey), (r) => created(r.record));
  const authorisation = await approve(session, out, record, flags);
  const status = await out.step(`reading the status of payment ${record.id}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getPaymentStatus(record.id, { token })), [200]), (r) => `status: ${statusOf(r.body)}`);
  const { result: submitted, orderId } = await out.step(`submitting the payment order of ${record.id}`, () => submitPayment(session, record), (r) => `payment order ${r.orderId}: ${statusOf(r.result.body)}`);
  const payment = await out.step(`reading payment order ${orderId}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getPaymentOrder(orderId, { token })), [200]), (r) => `payment order ${orderId}: ${statusOf(r.body)}`);
  await session.rememberStatus(record.id, 'Consumed');
  if (out.json) return out.document({ flow: 'pis', paymentId: record.id, authorisation, status: status.body, submitted: submitted.body, payment: payment.body });
  printPaymentOrder(out, payment.body);
}
