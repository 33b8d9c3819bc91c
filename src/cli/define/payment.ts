import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

export function definePayment(program: Command, io: Io): void {
  const group = program.command('payment').description(HEADS.payment.description)
    .addHelpText('after', '\nExample:\n  $ obtpp payment submit && obtpp payment get && obtpp payment status');
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
    .option('--xml', 'berlin-group, a pain.001 product: ask the status as its ISO 20022 pain.002 report (Accept: application/xml), printed as the bank sent it')
    .addHelpText('after', `
--json prints the bank's answer as-is ({ Data: { ConsentId, Status, StatusUpdateDateTime }, Links, Meta }).

Example:
  $ obtpp payment status --json | jq -r .Data.Status
  $ obtpp payment status --profile bg.yaml --xml`)
    .action(action(io, () => import('../commands/payment.ts').then((m) => ({ run: m.status }))));
  withCommon(group.command('submit').argument('[paymentId]', 'the authorised payment-order consent (default: the current one)'))
    .description('submit the payment order of an authorised consent (POST /domestic-payments: its ConsentId, Initiation and Risk)')
    .option('--consent <id>', 'the payment-order consent, i.e. the PaymentId (same as the argument)')
    .option('--idempotency-key <key>', 'x-idempotency-key to send (default a fresh UUID); repeat it to see the bank return the same payment order')
    .addHelpText('after', `
The consent's Initiation and Risk are read from the bank and sent unchanged, under the PSU's token;
the request is signed (x-jws-signature) when the profile has a signing key. The consent becomes
Consumed; a second submission is refused by the bank.
--json prints the bank's answer as-is (OBWriteDomesticResponse5).

Example:
  $ obtpp payment submit
  $ obtpp payment submit --consent 51d0… --json | jq -r .Data.DomesticPaymentId`)
    .action(action(io, () => import('../commands/payment.ts').then((m) => ({ run: m.submit }))));
  withCommon(group.command('cancel').argument('[paymentId]', 'the paymentId (default: the current payment)'))
    .description('berlin-group: cancel a payment (DELETE /v1/payments/{payment-product}/{paymentId}), and start the cancellation\'s authorisation where the bank asks for one')
    .option('--consent <id>', 'the payment, i.e. the paymentId (same as the argument)')
    .addHelpText('after', `
204: the payment is cancelled (it reads CANC). 202: the bank wants the PSU to authorise the
cancellation: obtpp starts it (POST …/cancellation-authorisations, by redirect) and prints the page
where the PSU authorises it. A payment past cancelling is refused by the bank (405 CANCELLATION_INVALID).
--json prints the bank's answers as-is.

Example:
  $ obtpp payment cancel && obtpp payment status`)
    .action(action(io, () => import('../commands/payment.ts').then((m) => ({ run: m.cancel }))));
}
