import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { AIS_READS } from '../commands/ais-reads.ts';
import { HEADS } from '../heads.ts';

/** `obtpp ais RESOURCE [accountId] [statementId]`: UK Read/Write v3.1.11's other account-information reads. */
export function defineAis(program: Command, io: Io): void {
  withCommon(program.command('ais').argument('<resource>', `one of: ${Object.keys(AIS_READS).join(', ')}`)
    .argument('[accountId]', 'the account (GET /accounts/{AccountId}/…); default every consented account (the bulk read)')
    .argument('[statementId]', 'the statement (statement, statement-file, statement-transactions)'))
    .description(HEADS.ais.description)
    .option('--consent <id>', 'the AIS consent to read through (default: the current one)')
    .addHelpText('after', `
--json prints the bank's answer as-is (OBReadDirectDebit2, OBReadStandingOrder6, OBReadScheduledPayment3, OBReadOffer1,
OBReadParty2/3, OBReadProduct2, OBReadStatement2, OBReadTransaction6; a statement's file: its type and size).
Needs a profile with standard: uk-3.1 (or one that lists the operation in implements).

Example:
  $ obtpp ais standing-orders alice-current
  $ obtpp ais direct-debits --json | jq '.Data.DirectDebit[].Name'
  $ obtpp ais statement-transactions alice-current "$(obtpp ais statements alice-current --json | jq -r '.Data.Statement[0].StatementId')"`)
    .action(action(io, () => import('../commands/ais.ts').then((m) => ({ run: m.ais as (...a: any[]) => Promise<void> }))));
}
