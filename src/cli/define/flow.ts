import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

const flow = (name: 'ais' | 'cof' | 'pis') => () => import('../commands/flow.ts').then((m) => ({ run: m[name] as (...a: any[]) => Promise<void> }));
const journey = (cmd: Command) =>
  cmd
    .option('--manual', 'do the PSU\'s part yourself in a browser (the URL is printed on stderr)')
    .option('--callback-port <n>', 'manual mode: port of the loopback server that receives the redirect (0: any)');

/** Long: one table of the commands' options and help texts, as commander reads them. */
export function defineFlow(program: Command, io: Io): void {
  const group = program.command('flow').description(HEADS.flow.description)
    .addHelpText('after', '\nExample:\n  $ obtpp flow ais --profile sb.yaml\n  $ obtpp flow cof --amount 25.00 --json | jq .fundsAvailable');

  journey(withCommon(group.command('ais')))
    .description('create an account-access consent, authorise it, list the accounts, read the first one\'s balances and transactions')
    .option('--permissions <list>', 'comma-separated permissions (default: accounts, balances and transactions, detail)')
    .option('--expires <when>', 'ExpirationDateTime (default +90d)')
    .option('--from <when>', 'TransactionFromDateTime (default -90d)')
    .option('--to <when>', 'TransactionToDateTime (default now)')
    .option('--accounts <ids>', 'accounts the PSU ticks (default the profile\'s, else all offered)')
    .addHelpText('after', `
--json prints { flow: "ais", consentId, authorisation: {…as consent authorise}, accounts: OBReadAccount6,
accountId?, balances?: OBReadBalance1, transactions?: OBReadTransaction6 } — no tokens (berlin-group:
the bank's accountList, balances and booked transactions of the last 90 days, as they come).

Example:
  $ obtpp flow ais --profile sb.yaml
  $ obtpp flow ais --accounts alice-savings --json | jq .balances`)
    .action(action(io, flow('ais')));

  journey(withCommon(group.command('cof')))
    .description('create a funds-confirmation consent, authorise it, confirm funds')
    .option('--debtor-id <id>', 'the debtor account (default: an account obtpp has listed, else one found by a short AIS journey)')
    .option('--debtor-scheme <scheme>', 'SchemeName of the debtor account (default UK.OBIE.SortCodeAccountNumber)')
    .option('--debtor-name <name>', 'Name of the debtor account')
    .option('--expires <when>', 'ExpirationDateTime of the consent (optional)')
    .option('--amount <amount>', 'amount to confirm (default 10.00)')
    .option('--currency <ccy>', 'currency (default: the debtor account\'s, else GBP)')
    .option('--reference <text>', 'Reference (default obtpp)')
    .addHelpText('after', `
--json prints { flow: "cof", aisConsentId?, consentId, debtor, authorisation, confirmation: OBFundsConfirmationResponse1,
fundsAvailable } — no tokens.

Example:
  $ obtpp flow cof --amount 25.00
  $ obtpp flow cof --debtor-id 40400411290112 --amount 99999 --json | jq .fundsAvailable`)
    .action(action(io, flow('cof')));

  journey(withCommon(group.command('pis')))
    .description('create a payment-order consent, authorise it (the PSU picks the debtor when none is given), read the payment and its status')
    .option('--amount <amount>', 'amount (default 10.00)')
    .option('--currency <ccy>', 'currency (default GBP)')
    .option('--creditor-id <id>', "the payee's account identification (required)")
    .option('--creditor-name <name>', "the payee's name (required)")
    .option('--creditor-scheme <scheme>', 'SchemeName of the payee account (default UK.OBIE.SortCodeAccountNumber)')
    .option('--debtor-id <id>', 'the paying account (default: the PSU chooses)')
    .option('--debtor-scheme <scheme>', 'SchemeName of the paying account')
    .option('--debtor <id>', 'the account the PSU chooses on the consent page when no --debtor-id is given (default the first)')
    .option('--reference <text>', 'RemittanceInformation.Reference')
    .option('--idempotency-key <key>', 'x-idempotency-key for the create')
    .option('--product <product>', 'berlin-group only: the payment product (default the profile\'s, e.g. sepa-credit-transfers)')
    .option('--creditor-iban <iban>', 'berlin-group only: the payee\'s IBAN (required there)')
    .option('--debtor-iban <iban>', 'berlin-group only: the paying account\'s IBAN (required there)')
    .addHelpText('after', `
--json prints { flow: "pis", paymentId, authorisation, payment: OBWriteDomesticConsentResponse5, status: {Data:{Status…}} } — no tokens.
With a berlin-group profile: POST /v1/payments/{payment-product}, the SCA, the payment and its status;
--json prints { flow: "pis", paymentId, product, authorisation, payment, status: { transactionStatus } }.

Example:
  $ obtpp flow pis --amount 12.50 --creditor-id 30963452000417 --creditor-name "Bob Baker" --debtor alice-savings
  $ obtpp flow pis --profile bg.yaml --amount 12.50 --debtor-iban DE61504040040011290112 --creditor-iban DE21503096340052000417 --creditor-name "Bob Baker"`)
    .action(action(io, flow('pis')));
}
