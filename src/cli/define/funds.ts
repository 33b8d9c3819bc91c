import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

export function defineFunds(program: Command, io: Io): void {
  const group = program.command('funds').description(HEADS.funds.description)
    .addHelpText('after', '\nExample:\n  $ obtpp funds confirm --amount 10.00 --currency GBP');
  withCommon(group.command('confirm'))
    .description('ask whether the debtor account of the current COF consent holds an amount (POST /funds-confirmations)')
    .option('--amount <amount>', 'InstructedAmount, e.g. 10.00 (required)')
    .option('--currency <ccy>', 'currency (default GBP)')
    .option('--reference <text>', 'Reference (default obtpp)')
    .option('--consent <id>', 'the COF consent (default: the current one)')
    .option('--iban <iban>', 'berlin-group: the account to check (POST /v1/funds-confirmations; the PSU gave its consent at the bank); currency default EUR')
    .addHelpText('after', `
--json prints the bank's answer as-is (OBFundsConfirmationResponse1: Data.FundsAvailable true|false).
Exit 0 whatever the answer; exit 1 only when the bank refuses the request.

Example:
  $ obtpp funds confirm --amount 10.00 --currency GBP
  $ obtpp funds confirm --amount 5000 --json | jq .Data.FundsAvailable
  $ obtpp funds confirm --profile bg.yaml --iban DE89370400440532013000 --amount 10.00`)
    .action(action(io, () => import('../commands/funds.ts').then((m) => ({ run: m.confirm }))));
}
