import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

const data = (name: 'accounts' | 'balances' | 'transactions' | 'transaction') => () => import('../commands/data.ts').then((m) => ({ run: m[name] as (...a: any[]) => Promise<void> }));
const consentOption = '--consent <id>';
const consentHelp = 'the AIS consent to read through (default: the current one)';

export function defineAccounts(program: Command, io: Io): void {
  withCommon(program.command('accounts').argument('[accountId]', 'one account (GET /accounts/{AccountId}); default all (GET /accounts)'))
    .description(HEADS.accounts.description)
    .option(consentOption, consentHelp)
    .option('--cards', 'berlin-group only: the card accounts (GET /v1/card-accounts[/{account-id}]) instead of the accounts')
    .addHelpText('after', `
--json prints the bank's answer as-is (OBReadAccount6).

Example:
  $ obtpp accounts
  $ obtpp accounts --json | jq -r '.Data.Account[].AccountId'
  $ obtpp accounts alice-current --consent 7c1e…
  $ obtpp accounts --cards --profile bg.yaml`)
    .action(action(io, data('accounts')));

  withCommon(program.command('balances').argument('<accountId>', 'the account'))
    .description(HEADS.balances.description)
    .option(consentOption, consentHelp)
    .addHelpText('after', `
--json prints the bank's answer as-is (OBReadBalance1).

Example:
  $ obtpp balances alice-current
  $ obtpp balances alice-current --json | jq '.Data.Balance[] | {Type, Amount}'`)
    .action(action(io, data('balances')));

  withCommon(program.command('transactions').argument('<accountId>', 'the account'))
    .description(HEADS.transactions.description)
    .option(consentOption, consentHelp)
    .option('--from <when>', 'fromBookingDateTime: ISO date(-time) or relative such as -30d')
    .option('--to <when>', 'toBookingDateTime: ISO, relative, or now')
    .option('--booking-status <status>', 'berlin-group only: bookingStatus booked, pending, both or all (default booked)')
    .addHelpText('after', `
--json prints the bank's answer as-is (OBReadTransaction6; berlin-group: transactionsResponse-200_json).
With a berlin-group profile --from and --to are dateFrom and dateTo (dates; --from defaults to -90d).

Example:
  $ obtpp transactions alice-current --from -30d
  $ obtpp transactions alice-current --profile bg.yaml --booking-status both --from -30d
  $ obtpp transactions alice-current --json | jq '.Data.Transaction | length'`)
    .action(action(io, data('transactions')));

  withCommon(program.command('transaction').argument('<accountId>', 'the account').argument('<resourceId>', 'the TransactionId'))
    .description(HEADS.transaction.description)
    .option(consentOption, consentHelp)
    .addHelpText('after', `
--json prints the bank's answer as-is (OBReadTransaction6 with one transaction).

Example:
  $ obtpp transaction alice-current "$(obtpp transactions alice-current --json | jq -r '.Data.Transaction[0].TransactionId')"`)
    .action(action(io, data('transaction')));
}
