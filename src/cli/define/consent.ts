import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

const consent = (name: string) => () => import('../commands/consent.ts').then((m) => ({ run: (m as unknown as Record<string, (...a: any[]) => Promise<void>>)[name] }));

export function defineConsent(program: Command, io: Io): void {
  const group = program.command('consent').description(HEADS.consent.description)
    .addHelpText('after', '\nExample:\n  $ obtpp consent create ais --profile sb.yaml && obtpp consent authorise && obtpp accounts');
  const create = group.command('create').description('create a consent: ais (account access), cof (funds confirmation) or pis (payment order)')
    .addHelpText('after', '\nExample:\n  $ obtpp consent create ais --expires +30d\n  $ obtpp consent create cof --debtor-id 40400411290112\n  $ obtpp consent create pis --amount 10.00 --creditor-id 30963452000417 --creditor-name "Bob Baker"');

  defineCreateAis(create, io);
  defineCreateCof(create, io);
  defineCreatePis(create, io);
  defineAuthorise(group, io);
  defineReads(group, io);
}

/** `consent create ais`. */
function defineCreateAis(create: Command, io: Io): void {
  withCommon(create.command('ais'))
    .description('create an account-access consent (POST /account-access-consents) and make it the current AIS consent')
    .option('--permissions <list>', 'comma-separated permissions (default ReadAccountsDetail,ReadBalances,ReadTransactionsDetail,ReadTransactionsCredits,ReadTransactionsDebits)')
    .option('--expires <when>', 'ExpirationDateTime: ISO date(-time), or relative such as +30d (default +90d)')
    .option('--from <when>', 'TransactionFromDateTime: ISO, or relative such as -90d (default -90d)')
    .option('--to <when>', 'TransactionToDateTime: ISO, relative, or now (default now)')
    .option('--access <form>', 'berlin-group only: bank-offered (default: the PSU picks the accounts at the bank), all-psd2, available-accounts or available-accounts-with-balance (the global forms reach card accounts too)')
    .addHelpText('after', `
--json prints the bank's answer as-is (OBReadConsentResponse1: Data.ConsentId, Data.Status …).

Example:
  $ obtpp consent create ais --profile sb.yaml --permissions ReadAccountsDetail,ReadBalances --expires +30d
  $ obtpp consent create ais --json | jq -r .Data.ConsentId`)
    .action(action(io, consent('createAis')));
}

/** `consent create cof`. */
function defineCreateCof(create: Command, io: Io): void {
  withCommon(create.command('cof'))
    .description('create a funds-confirmation consent (POST /funds-confirmation-consents) and make it the current COF consent')
    .option('--debtor-id <id>', 'the debtor account: its identification (e.g. 40400411290112), or an AccountId obtpp accounts has listed (required)')
    .option('--debtor-scheme <scheme>', 'SchemeName of the debtor account (default UK.OBIE.SortCodeAccountNumber)')
    .option('--debtor-name <name>', 'Name of the debtor account')
    .option('--expires <when>', 'ExpirationDateTime (optional): ISO or relative such as +30d')
    .addHelpText('after', `
--json prints the bank's answer as-is (OBFundsConfirmationConsentResponse1).

Example:
  $ obtpp consent create cof --debtor-id 40400411290112 --expires +7d
  $ obtpp consent create cof --debtor-id alice-current     (an account listed by obtpp accounts)`)
    .action(action(io, consent('createCof')));
}

/** `consent create pis`: a UK payment-order consent, or a NextGenPSD2 payment, standing order or bulk. */
function defineCreatePis(create: Command, io: Io): void {
  withCommon(create.command('pis'))
    .description('create a payment-order consent (POST /{payment-product}; variant A); its ConsentId is the PaymentId')
    .option('--amount <amount>', 'InstructedAmount, e.g. 25.00 (required)')
    .option('--currency <ccy>', 'currency (default GBP)')
    .option('--creditor-id <id>', "the payee's account identification (required)")
    .option('--creditor-name <name>', "the payee's name (required)")
    .option('--creditor-scheme <scheme>', 'SchemeName of the payee account (default UK.OBIE.SortCodeAccountNumber)')
    .option('--debtor-id <id>', 'the paying account (optional: without it the PSU chooses during authorisation)')
    .option('--debtor-scheme <scheme>', 'SchemeName of the paying account (default UK.OBIE.SortCodeAccountNumber)')
    .option('--debtor-name <name>', 'Name of the paying account')
    .option('--reference <text>', 'RemittanceInformation.Reference (up to 35 characters)')
    .option('--idempotency-key <key>', 'x-idempotency-key to send (default a fresh UUID); repeat it to see the bank return the same consent')
    .option('--product <product>', 'berlin-group only: the payment product, e.g. sepa-credit-transfers or instant-sepa-credit-transfers (default the profile\'s)')
    .option('--creditor-iban <iban>', 'berlin-group only: the payee\'s IBAN (required there, with --creditor-name)')
    .option('--debtor-iban <iban>', 'berlin-group only: the paying account\'s IBAN (required there)')
    .option('--service <service>', 'berlin-group only: payments (default), periodic-payments (a standing order) or bulk-payments')
    .option('--frequency <code>', 'berlin-group standing order: Daily, Weekly, EveryTwoWeeks, Monthly, EveryTwoMonths, Quarterly, SemiAnnual, Annual or MonthlyVariable (required there)')
    .option('--start-date <when>', 'berlin-group standing order: its first day, a date or relative such as +7d (default +1d)')
    .option('--end-date <when>', 'berlin-group standing order: its last day (default none: until cancelled)')
    .option('--execution-rule <rule>', 'berlin-group standing order: following or preceding (a day off the bank\'s calendar)')
    .option('--day-of-execution <day>', 'berlin-group standing order: the day of the month, 1 to 31')
    .option('--payments <file>', 'berlin-group bulk: a JSON array of the bulk\'s payments, [{ creditorIban, creditorName, amount, currency?, reference? }] (1 to 100)')
    .option('--batch-booking', 'berlin-group bulk: ask the bank to book the bulk as one entry (batchBookingPreferred)')
    .addHelpText('after', `
--json prints the bank's answer as-is (OBWriteDomesticConsentResponse5: Data.ConsentId is the PaymentId;
berlin-group: the payment initiation's 201, paymentId, transactionStatus and _links).
With a berlin-group profile this is the payment itself (POST /v1/payments/{payment-product}):
--creditor-iban, --creditor-name, --debtor-iban, --amount, --currency (default EUR), --reference
(remittanceInformationUnstructured), --product; consent authorise runs its SCA, payment status reads it.
--service periodic-payments makes it a standing order (--frequency, --start-date, --end-date,
--execution-rule, --day-of-execution); --service bulk-payments a bulk of the --payments file's payments
from --debtor-iban. A pain.001-… --product sends the ISO 20022 pain.001.001.03 document obtpp builds
(Content-Type application/xml; a standing order's as multipart/form-data with its terms), its Dbtr
named by --debtor-name (default the profile's PSU).

Example:
  $ obtpp consent create pis --amount 25.00 --creditor-id 30963452000417 --creditor-name "Bob Baker" --reference rent
  $ obtpp consent create pis --profile bg.yaml --product instant-sepa-credit-transfers --amount 25.00 --debtor-iban DE02100100109307118603 --creditor-iban DE89370400440532013000 --creditor-name "Bob Baker"
  $ obtpp consent create pis --profile bg.yaml --service periodic-payments --frequency Monthly --start-date +7d --amount 50.00 --debtor-iban DE02100100109307118603 --creditor-iban DE89370400440532013000 --creditor-name "Landlord"
  $ obtpp consent create pis --profile bg.yaml --service bulk-payments --payments salaries.json --debtor-iban DE02100100109307118603 --product pain.001-sepa-credit-transfers`)
    .action(action(io, consent('createPis')));
}

/** `consent authorise`: the PSU's journey, or the SCA of an in-app approach. */
function defineAuthorise(group: Command, io: Io): void {
  withCommon(group.command('authorise').alias('authorize').argument('[consentId]', 'the consent (default: the one created last)'))
    .description('walk the PSU through the bank\'s pages (headless Chromium, or --manual) and keep the tokens')
    .option('--consent <id>', 'the consent (same as the argument; default: the one created last)')
    .option('--accounts <ids>', 'accounts to tick: all, first, first:N (by position, whatever the page calls them), or AccountIds / identifications / names, comma-separated (default the profile\'s psu.accounts, else all)')
    .option('--debtor <id>', 'the debtor to choose when the bank offers the choice (payment without debtor; default the first)')
    .option('--reject', 'the PSU rejects the consent instead (exit 0 when the bank answers access_denied; berlin-group: when the consent then reads rejected, the payment RJCT)')
    .option('--manual', 'print the authorization URL on stderr and wait for the redirect back, for you to do the PSU\'s part in your own browser')
    .option('--callback-port <n>', 'manual mode: port of the loopback server that receives the redirect (0: any; paste the final URL there)')
    .option('--psu-id <id>', 'berlin-group: the PSU-ID of the decoupled and embedded SCA, or of a multilevel SCA\'s next PSU (default the profile\'s psu.username)')
    .option('--password-stdin', 'berlin-group, embedded SCA (or a multilevel SCA\'s PSU the profile does not name): read the PSU\'s password from the first line of stdin (never echoed, never logged)')
    .option('--otp-stdin', 'berlin-group, embedded SCA: read the one-time password from the next line of stdin (default the profile\'s sca.otp; on a terminal obtpp asks, without echo)')
    .option('--timeout <seconds>', 'berlin-group, decoupled SCA: how long to wait for the PSU\'s approval in the banking app (default the profile\'s timeouts.authorisationMs)')
    .addHelpText('after', `
With a berlin-group profile whose first approach is decoupled, obtpp tells you to approve in the
banking app and polls the SCA status; embedded, it sends the PSU's password, the SCA method and
the one-time password (profile, stdin, or asked on the terminal) to the bank. A payment that needs
a second PSU's SCA (multilevel: it reads PATC after the first) is authorised again with that PSU's
--psu-id: obtpp starts a new authorisation for them (POST …/authorisations with their PSU-ID).

--json prints { consentId, fn, status: "authorised", accounts: [...], debtor?, scope, expiresAt }
or { consentId, fn, status: "rejected", error, description? } — never a token.

Example:
  $ obtpp consent authorise --accounts alice-current,alice-savings
  $ obtpp consent authorise 7c1e… --reject
  $ obtpp consent authorise --manual
  $ obtpp consent authorise --profile bg-decoupled.yaml --timeout 120
  $ printf '%s\n%s\n' "$PSU_PASSWORD" "$OTP" | obtpp consent authorise --profile bg-embedded.yaml --password-stdin --otp-stdin
  $ obtpp consent authorise --profile bg.yaml && obtpp consent authorise --profile bg.yaml --psu-id bob`)
    .action(action(io, consent('authorise')));
}

/** `consent get`, `delete`, `list` and `forget`. */
function defineReads(group: Command, io: Io): void {
  withCommon(group.command('get').argument('[consentId]', 'the consent (default: the one created last)'))
    .description('read a consent at the bank: account-access consents (GET, UK), funds-confirmation consents (variant A) and payment-order consents')
    .option('--consent <id>', 'the consent (same as the argument; default: the one created last)')
    .addHelpText('after', `
--json prints the bank's answer as-is.

Example:
  $ obtpp consent get 9b2f… --json | jq -r .Data.Status`)
    .action(action(io, consent('get')));

  withCommon(group.command('delete').argument('[consentId]', 'the consent (default: the one created last)'))
    .description('delete an account-access consent (DELETE, UK) or a funds-confirmation consent (variant A) at the bank and forget its tokens')
    .option('--consent <id>', 'the consent (same as the argument; default: the one created last)')
    .addHelpText('after', `
--json prints { consentId, fn, deleted: true, status }.

Example:
  $ obtpp consent delete 9b2f…`)
    .action(action(io, consent('del')));

  withCommon(group.command('list'))
    .description('list the consents this session knows for the profile and variant (no tokens shown)')
    .addHelpText('after', `
--json prints { profile, variant, state, consents: [{ id, fn, status, createdAt, expiration?, permissions?,
debtor?, amount?, creditor?, accountIds?, accounts?, current, token: "none"|"valid"|"expired"|"expired (refreshable)", tokenExpiresAt? }] }.

Example:
  $ obtpp consent list
  $ obtpp consent list --json | jq -r '.consents[] | select(.current) | .id'`)
    .action(action(io, consent('list')));

  withCommon(group.command('forget').argument('[consentId]', 'the consent (or --consent ID)'))
    .description('drop a consent and its tokens from the session state (nothing is sent to the bank)')
    .option('--consent <id>', 'the consent (same as the argument; default: the one created last)')
    .addHelpText('after', `
Example:
  $ obtpp consent forget 7c1e…`)
    .action(action(io, consent('forget')));
}
