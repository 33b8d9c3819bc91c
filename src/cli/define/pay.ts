import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

const pay = (name: string) => () => import('../commands/pay.ts').then((m) => ({ run: (m as unknown as Record<string, (...a: any[]) => Promise<void>>)[name] }));

/** Long: one table of the commands' options and help texts, as commander reads them. */
export function definePay(program: Command, io: Io): void {
  const group = program.command('pay').description(HEADS.pay.description)
    .addHelpText('after', `
Example:
  $ obtpp pay create --type domestic-scheduled --amount 25.00 --creditor-id 08080021325698 --creditor-name "Bob Baker" --execution-date +2d
  $ obtpp consent authorise          the PSU authorises it at the bank
  $ obtpp pay submit                 the order: the consent's Initiation and Risk, signed, under the PSU's token
  $ obtpp pay get --order`);
  withCommon(group.command('create'))
    .description('create the consent of a payment family (POST /{family}-consents; a file payment\'s file is uploaded with it)')
    .option('--type <family>', 'domestic, domestic-scheduled, domestic-standing-order, international, international-scheduled, international-standing-order or file (required)')
    .option('--amount <amount>', 'InstructedAmount (a standing order: FirstPaymentAmount, or InstructedAmount abroad), e.g. 25.00 (required but for file)')
    .option('--currency <ccy>', 'currency of the amount (default GBP)')
    .option('--creditor-id <id>', "the payee's account identification (required but for file)")
    .option('--creditor-name <name>', "the payee's name (required but for file)")
    .option('--creditor-scheme <scheme>', 'SchemeName of the payee account (default UK.OBIE.SortCodeAccountNumber; UK.OBIE.IBAN abroad)')
    .option('--debtor-id <id>', 'the paying account (optional: without it the PSU chooses during authorisation)')
    .option('--debtor-scheme <scheme>', 'SchemeName of the paying account (default UK.OBIE.SortCodeAccountNumber)')
    .option('--debtor-name <name>', 'Name of the paying account')
    .option('--reference <text>', 'RemittanceInformation.Reference (a standing order: Reference; a file: FileReference), up to 35 characters')
    .option('--execution-date <when>', 'RequestedExecutionDateTime of a scheduled payment (required there) or a file: ISO date-time with its offset, or relative such as +2d')
    .option('--frequency <code>', 'a standing order\'s Frequency, of the standard\'s grammar: EvryDay, EvryWorkgDay, IntrvlWkDay:01:03, WkInMnthDay:02:03, IntrvlMnthDay:01:-01, QtrDay:ENGLISH … (required there)')
    .option('--first-payment-date <when>', 'a standing order\'s FirstPaymentDateTime (required there): ISO or relative such as +1d')
    .option('--final-payment-date <when>', 'a standing order\'s FinalPaymentDateTime (or --payments, not both)')
    .option('--payments <n>', 'a standing order\'s NumberOfPayments')
    .option('--recurring-amount <amount>', 'a domestic standing order\'s RecurringPaymentAmount')
    .option('--final-amount <amount>', 'a domestic standing order\'s FinalPaymentAmount')
    .option('--currency-of-transfer <ccy>', 'an international payment\'s CurrencyOfTransfer, the currency the payee receives (required there), e.g. EUR')
    .option('--rate-type <type>', 'an international (scheduled) payment\'s exchange rate: Actual, Agreed or Indicative (default none)')
    .option('--rate <rate>', 'the agreed ExchangeRate (with --rate-type Agreed)')
    .option('--contract <id>', 'the ContractIdentification of the agreed rate (with --rate-type Agreed)')
    .option('--charge-bearer <who>', 'an international payment\'s ChargeBearer: BorneByCreditor, BorneByDebtor, FollowingServiceLevel or Shared')
    .option('--file <path>', 'the payment file of a file payment (required there; a JSON file, e.g. UK.OBIE.PaymentInitiation.3.1: Data.DomesticPayments)')
    .option('--file-type <type>', 'FileType (default UK.OBIE.PaymentInitiation.3.1, whose payments obtpp counts and sums)')
    .option('--transactions <n>', 'NumberOfTransactions of the file (default: counted in a UK.OBIE.PaymentInitiation.3.1 file)')
    .option('--control-sum <sum>', 'ControlSum of the file (default: the sum of its amounts)')
    .option('--idempotency-key <key>', 'x-idempotency-key to send (default a fresh UUID); repeat it to see the bank return the same consent')
    .addHelpText('after', `
The consent becomes the current payment-family consent (kept apart from obtpp payment's) and the
last consent: authorise it with obtpp consent authorise. A file payment's file is uploaded at once
(POST /file-payment-consents/{ConsentId}/file), its FileHash the SHA-256 of its bytes.
--json prints the bank's answer to the create as-is (OBWriteDomesticScheduledConsentResponse5, …).

Example:
  $ obtpp pay create --type domestic-standing-order --amount 50.00 --creditor-id 08080021325698 --creditor-name "Landlord" --frequency IntrvlMnthDay:01:01 --first-payment-date +7d --payments 12
  $ obtpp pay create --type international --amount 100.00 --currency-of-transfer EUR --creditor-scheme UK.OBIE.IBAN --creditor-id DE89370400440532013000 --creditor-name "Baeckerei Schmidt" --rate-type Indicative
  $ obtpp pay create --type file --file payments.json`)
    .action(action(io, pay('create')));
  withCommon(group.command('submit').argument('[consentId]', 'the authorised payment-family consent (default: the current one)'))
    .description('submit the order of an authorised payment-family consent (POST /{family}s: its ConsentId, Initiation and Risk)')
    .option('--consent <id>', 'the consent (same as the argument)')
    .option('--idempotency-key <key>', 'x-idempotency-key to send (default a fresh UUID); repeat it to see the bank return the same order')
    .addHelpText('after', `
The consent's Initiation and Risk are read from the bank and sent unchanged, under the PSU's token,
signed (x-jws-signature) when the profile has a signing key; the consent becomes Consumed.
--json prints the bank's answer as-is (OBWriteDomesticScheduledResponse5, …).

Example:
  $ obtpp pay submit --json | jq -r .Data.Status`)
    .action(action(io, pay('submit')));
  withCommon(group.command('get').argument('[consentId]', 'the payment-family consent (default: the current one)'))
    .description('read a payment-family consent, or with --order its order, with --details the order\'s payment details')
    .option('--consent <id>', 'the consent (same as the argument)')
    .option('--order', 'read the order submitted on the consent (GET /{family}s/{id})')
    .option('--details', 'read the order\'s payment details (GET /{family}s/{id}/payment-details)')
    .addHelpText('after', `
--json prints the bank's answer as-is.

Example:
  $ obtpp pay get
  $ obtpp pay get --order --json | jq -r .Data.Status`)
    .action(action(io, pay('get')));
}
