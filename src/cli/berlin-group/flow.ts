/** The NextGenPSD2 journeys in one command (`obtpp flow ais|pis`; `flow cof` has no consent to create here). */
import type { Out } from '../output.ts';
import type { AisFlags, PisFlags } from '../flags.ts';
import { approve, type Journey } from '../commands/consent.ts';
import { FN_NAMES, kindOf, type ConsentRecord, type Session } from '../../session/index.ts';
import { transactionStatusOf } from '../../dialects/berlin-group/builders.ts';
import { parseWhen } from '../../session/parse.ts';
import { UsageError } from '../../errors.ts';
import { bgAisConsent, bgPayment } from './consent.ts';
import { bgAccountsOf, printBgAccounts, printBgBalances, printBgTransactions } from './data.ts';

/** Only records with an SCA link are NextGenPSD2's own: their kind in its words. */
const created = (session: Session, record: ConsentRecord) => `created ${record.sca ? kindOf(session.profile.dialect, record.fn) : FN_NAMES[record.fn]} ${record.id} (${record.status})`;

/** berlin-group: POST /v1/consents, the PSU's SCA, the accounts, the first one's balances and booked transactions (dateFrom -90d). */
export async function ais(session: Session, out: Out, flags: AisFlags & Journey & { accounts?: string }): Promise<void> {
  const { body, summary } = await bgAisConsent(flags);
  const bg = await import('../../session/berlin-group.ts');
  const { record } = await out.step('creating the consent (POST /v1/consents)', () => bg.createBgConsent(session, body, summary), (r) => created(session, r.record));
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

export async function cof(): Promise<void> {
  throw new UsageError('flow cof: a berlin-group bank has no funds-confirmation consent to create (the PSU gives the PIIS consent at the bank): obtpp funds confirm --iban IBAN --amount 10.00');
}

/** berlin-group: POST /v1/payments/{payment-product} (the payment itself), the PSU's SCA, the payment and its status. */
export async function pis(session: Session, out: Out, flags: PisFlags & Journey & { debtor?: string }): Promise<void> {
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
