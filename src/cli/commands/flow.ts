/** Whole journeys in one command, printing each step as it happens (stderr) and a summary (stdout). */
import type { Io } from '../io.ts';
import type { Out } from '../output.ts';
import { withSession } from './common.ts';
import { aisConsent, authoriseConsent, bgAisConsent, bgPayment, cofConsent, describeOutcome, pisConsent, type AisFlags, type AuthoriseFlags, type CofFlags, type PisFlags } from './consent.ts';
import { bgAccountsOf, printAccounts, printBalances, printBgAccounts, printBgBalances, printBgTransactions, printTransactions, readAccounts } from './data.ts';
import { confirmArgs, confirmFunds, printConfirmation } from './funds.ts';
import { printPaymentOrder } from './payment.ts';
import { kindOf, type AuthoriseOutcome, type ConsentRecord, type Session } from '../../session/index.ts';
import { accountsOf, fundsAvailableOf, permissionRules, statusOf } from '../../dialects/obie/builders.ts';
import { transactionStatusOf } from '../../dialects/berlin-group/builders.ts';
import { parseWhen } from '../../session/parse.ts';
import { ObtppError, ExitCode, UsageError } from '../../errors.ts';

type Journey = Pick<AuthoriseFlags, 'manual' | 'callbackPort'>;

async function approve(session: Session, out: Out, record: ConsentRecord, flags: AuthoriseFlags): Promise<AuthoriseOutcome & { status: 'authorised' }> {
  const outcome = await authoriseConsent(session, out, record, { ...flags, reject: false });
  if (outcome.status !== 'authorised') {
    throw new ObtppError('not_authorised', `${describeOutcome(outcome, session.profile.dialect)}; the flow stops here`, { exitCode: ExitCode.nonConformant });
  }
  return outcome;
}

function created(record: ConsentRecord): string {
  // Only berlin-group records carry an SCA link: their kind in NextGenPSD2 words.
  return `created ${kindOf(record.sca ? 'berlin-group' : undefined, record.fn)} ${record.id} (${record.status})`;
}

/** The journeys speak both dialects (flow cof refuses a berlin-group profile itself, saying why). */
const BOTH = { progress: true, dialects: ['obie', 'berlin-group'] } as const;

export async function ais(io: Io, flags: AisFlags & Journey & { accounts?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') return bgAis(session, out, flags);
    const { body, summary } = aisConsent(flags);
    const { record } = await out.step('creating the account-access consent', () => session.createConsent('ais', body, summary), (r) => created(r.record));
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
  }, BOTH);
}

/** berlin-group: POST /v1/consents, the PSU's SCA, the accounts, the first one's balances and booked transactions (dateFrom -90d). */
async function bgAis(session: Session, out: Out, flags: AisFlags & Journey & { accounts?: string }): Promise<void> {
  const { body, summary } = await bgAisConsent(flags);
  const bg = await import('../../session/berlin-group.ts');
  const { record } = await out.step('creating the consent (POST /v1/consents)', () => bg.createBgConsent(session, body, summary), (r) => created(r.record));
  const authorisation = await approve(session, out, record, flags);
  const accounts = await out.step('reading the accounts', () => bg.readBgAccounts(session, record), (r) => `read ${bgAccountsOf(r.body).length} account(s)`);
  const accountId = bgAccountsOf(accounts.body).map((a) => a.resourceId).find((a): a is string => typeof a === 'string');
  const query = { bookingStatus: 'booked' as const, dateFrom: parseWhen('--from', '-90d').slice(0, 10) };
  const balances = accountId ? (await out.step(`reading the balances of ${accountId}`, () => bg.readBgBalances(session, record, accountId))).body : undefined;
  const transactions = accountId ? (await out.step(`reading the booked transactions of ${accountId}`, () => bg.readBgTransactions(session, record, accountId, query))).body : undefined;
  if (out.json) {
    return out.document({ flow: 'ais', consentId: record.id, authorisation, accounts: accounts.body, ...(accountId ? { accountId, balances, transactions } : {}) });
  }
  out.line(out.c.bold(`Accounts (consent ${record.id})`));
  printBgAccounts(out, bgAccountsOf(accounts.body));
  if (accountId) {
    out.line('');
    out.line(out.c.bold(`Balances of ${accountId}`));
    printBgBalances(out, balances);
    out.line('');
    out.line(out.c.bold(`Transactions of ${accountId}`));
    printBgTransactions(out, transactions, 10);
  }
  out.line('');
  out.line(`consent ${record.id} is now the current AIS consent: obtpp accounts, obtpp balances ${accountId ?? 'ACCOUNT'} …`);
}

export async function cof(io: Io, flags: CofFlags & Journey & { amount?: string; currency?: string; reference?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') {
      throw new UsageError('flow cof: a berlin-group bank has no funds-confirmation consent to create (the PSU gives the PIIS consent at the bank): obtpp funds confirm --iban IBAN --amount 10.00');
    }
    const args = confirmArgs(flags, '10.00');
    let aisConsentId: string | undefined;
    let debtorFlags = flags;
    let currency = flags.currency;
    if (!flags.debtorId) {
      // No debtor given: an account obtpp has already listed, else a short AIS journey to find one.
      const ps = await session.read();
      let known = Object.values(ps.consents).flatMap((c) => c.accounts ?? []).find((a) => a.Identification);
      if (!known) {
        const { body, summary } = aisConsent({ permissions: 'ReadAccountsDetail' });
        const { record } = await out.step('no --debtor-id: creating an account-access consent to find the PSU\'s account', () => session.createConsent('ais', body, summary), (r) => created(r.record));
        aisConsentId = record.id;
        await approve(session, out, record, { ...flags, accounts: undefined });
        const token = await session.userToken(record);
        await out.step('reading the accounts', () => readAccounts(session, record, token), (r) => `read ${accountsOf(r.body).length} account(s)`);
        known = Object.values((await session.read()).consents).flatMap((c) => c.accounts ?? []).find((a) => a.Identification);
      }
      if (!known) throw new ObtppError('no_debtor', 'no account with an identification was found to use as the debtor: pass --debtor-id', { exitCode: ExitCode.usage });
      debtorFlags = { ...flags, debtorId: known.AccountId };
      currency ??= known.Currency;
    }
    const { body, summary } = await cofConsent(session, debtorFlags);
    const { record } = await out.step('creating the funds-confirmation consent', () => session.createConsent('cof', body, summary), (r) => `${created(r.record)} for debtor ${summary.debtor.Identification}`);
    const authorisation = await approve(session, out, record, flags);
    const confirmation = { ...args, currency: currency ?? args.currency };
    const result = await out.step(`confirming funds for ${confirmation.amount} ${confirmation.currency}`, () => confirmFunds(session, record, confirmation), (r) => `funds available: ${fundsAvailableOf(r.body)}`);
    if (out.json) {
      return out.document({ flow: 'cof', ...(aisConsentId ? { aisConsentId } : {}), consentId: record.id, debtor: summary.debtor, authorisation, confirmation: result.body, fundsAvailable: fundsAvailableOf(result.body) ?? null });
    }
    printConfirmation(out, confirmation, result.body, record.id);
    out.line(`consent ${record.id} is now the current COF consent: obtpp funds confirm --amount … --currency ${confirmation.currency}`);
  }, BOTH);
}

export async function pis(io: Io, flags: PisFlags & Journey & { debtor?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') return bgPis(session, out, flags);
    const { body, summary } = await pisConsent(session, { ...flags, amount: flags.amount ?? '10.00' });
    const { record } = await out.step('creating the payment-order consent', () => session.createConsent('pis', body, summary, flags.idempotencyKey), (r) => created(r.record));
    const authorisation = await approve(session, out, record, flags);
    const status = await out.step(`reading the status of payment ${record.id}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getPaymentStatus(record.id, { token })), [200]), (r) => `status: ${statusOf(r.body)}`);
    const { result: submitted, orderId } = await out.step(`submitting the payment order of ${record.id}`, () => session.submitPayment(record), (r) => `payment order ${r.orderId}: ${statusOf(r.result.body)}`);
    const payment = await out.step(`reading payment order ${orderId}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getPaymentOrder(orderId, { token })), [200]), (r) => `payment order ${orderId}: ${statusOf(r.body)}`);
    await session.rememberStatus(record.id, 'Consumed');
    if (out.json) return out.document({ flow: 'pis', paymentId: record.id, authorisation, status: status.body, submitted: submitted.body, payment: payment.body });
    printPaymentOrder(out, payment.body);
  }, BOTH);
}

/** berlin-group: POST /v1/payments/{payment-product} (the payment itself), the PSU's SCA, the payment and its status. */
async function bgPis(session: Session, out: Out, flags: PisFlags & Journey & { debtor?: string }): Promise<void> {
  if (flags.debtor !== undefined) throw new UsageError('--debtor picks the debtor on a UK consent page: a berlin-group payment names it (--debtor-iban)');
  const initiation = await bgPayment(session, { ...flags, amount: flags.amount ?? '10.00' });
  const { product } = initiation;
  const bg = await import('../../session/berlin-group.ts');
  const { record } = await out.step(`initiating the payment (POST /v1/payments/${product})`, () => bg.createBgPayment(session, initiation), (r) => `created payment ${r.record.id} (${r.record.status})`);
  const authorisation = await approve(session, out, record, flags);
  const payment = await out.step(`reading payment ${record.id}`, () => bg.readBgPayment(session, record.id, 'payment', record), (r) => `payment ${record.id}: ${transactionStatusOf(r.body)}`);
  const status = await out.step(`reading the status of payment ${record.id}`, () => bg.readBgPayment(session, record.id, 'status', record), (r) => `status: ${transactionStatusOf(r.body)}`);
  if (out.json) return out.document({ flow: 'pis', paymentId: record.id, product, authorisation, payment: payment.body, status: status.body });
  out.line(`payment ${record.id} (${product}): ${transactionStatusOf(status.body) ?? 'no status'}; obtpp payment get ${record.id} reads it`);
}
