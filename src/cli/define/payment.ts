import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';

export function definePayment(program: Command, io: Io): void {
  const group = program.command('payment').description('read payments (variant A)')
    .addHelpText('after', '\nExample:\n  $ obtpp payment get && obtpp payment status');
  withCommon(group.command('get').argument('[paymentId]', 'the PaymentId (default: the current payment-order consent)'))
    .description('read a payment (GET /{payment-product}/{paymentId})')
    .option('--consent <id>', 'the payment-order consent, i.e. the PaymentId (same as the argument)')
    .addHelpText('after', `
--json prints the bank's answer as-is (OBWriteDomesticConsentResponse5).

Example:
  $ obtpp payment get
  $ obtpp payment get 51d0… --json | jq .Data.Debtor`)
    .action(action(io, () => import('../commands/payment.ts').then((m) => ({ run: m.get }))));
  withCommon(group.command('status').argument('[paymentId]', 'the PaymentId (default: the current payment-order consent)'))
    .description('read a payment\'s status (GET /{payment-product}/{paymentId}/status)')
    .option('--consent <id>', 'the payment-order consent, i.e. the PaymentId (same as the argument)')
    .addHelpText('after', `
--json prints the bank's answer as-is ({ Data: { ConsentId, Status, StatusUpdateDateTime }, Links, Meta }).

Example:
  $ obtpp payment status --json | jq -r .Data.Status`)
    .action(action(io, () => import('../commands/payment.ts').then((m) => ({ run: m.status }))));
}
