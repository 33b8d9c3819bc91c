import { Option, type Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

const vrp = (name: string) => () => import('../commands/vrp.ts').then((m) => ({ run: (m as unknown as Record<string, (...a: any[]) => Promise<void>>)[name] }));
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Long: one table of the commands' options and help texts, as commander reads them. */
export function defineVrp(program: Command, io: Io): void {
  const group = program.command('vrp').description(HEADS.vrp.description)
    .addHelpText('after', `
Example:
  $ obtpp vrp consent create --creditor-id 08080021325698 --creditor-name "My savings" --max 100.00 --limit Month=500.00
  $ obtpp consent authorise          the PSU authorises the VRP consent once
  $ obtpp vrp pay --amount 25.00     and again, without the PSU, within the limits
  $ obtpp vrp funds --amount 25.00 && obtpp vrp get`);
  const consent = group.command('consent').description('create, read, revoke and (v4.0) migrate VRP consents');
  withCommon(consent.command('create'))
    .description('create a domestic VRP consent with its control parameters (POST /domestic-vrp-consents)')
    .option('--creditor-id <id>', "the payee's account identification (required)")
    .option('--creditor-name <name>', "the payee's name (required)")
    .option('--creditor-scheme <scheme>', 'SchemeName of the payee account (default UK.OBIE.SortCodeAccountNumber)')
    .option('--debtor-id <id>', 'the paying account (optional: without it the PSU chooses during authorisation)')
    .option('--debtor-scheme <scheme>', 'SchemeName of the paying account (default UK.OBIE.SortCodeAccountNumber)')
    .option('--debtor-name <name>', 'Name of the paying account')
    .option('--max <amount>', 'MaximumIndividualAmount: the most one payment may be, e.g. 100.00 (required)')
    .option('--currency <ccy>', 'currency of the amounts (default GBP)')
    .addOption(new Option('--limit <period=amount>', 'a periodic limit, PERIOD=AMOUNT[:Consent|Calendar], PERIOD Day, Week, Fortnight, Month, Half-year or Year (at least one; repeatable)').argParser(collect))
    .option('--type <type>', 'VRPType: sweeping (between the PSU\'s own accounts) or other (default sweeping)')
    .option('--valid-from <when>', 'ValidFromDateTime: ISO date(-time) or relative such as +1d')
    .option('--valid-to <when>', 'ValidToDateTime: ISO date(-time) or relative such as +365d')
    .option('--reference <text>', 'RemittanceInformation.Reference every payment carries (up to 35 characters)')
    .option('--idempotency-key <key>', 'x-idempotency-key to send (default a fresh UUID)')
    .addHelpText('after', `
The consent becomes the current VRP consent and the last consent: authorise it with obtpp consent
authorise. --json prints the bank's answer as-is (OBDomesticVRPConsentResponse).

Example:
  $ obtpp vrp consent create --creditor-id 08080021325698 --creditor-name "My savings" --max 100.00 --limit Month=500.00 --limit Day=150.00:Calendar`)
    .action(action(io, vrp('createConsent')));
  withCommon(consent.command('get').argument('[consentId]', 'the VRP consent (default: the current one)'))
    .description('read a VRP consent (GET /domestic-vrp-consents/{ConsentId})')
    .option('--consent <id>', 'the VRP consent (same as the argument)')
    .action(action(io, vrp('getConsent')));
  withCommon(consent.command('delete').argument('[consentId]', 'the VRP consent (default: the current one)'))
    .description('revoke a VRP consent (DELETE /domestic-vrp-consents/{ConsentId}): it pays no more')
    .option('--consent <id>', 'the VRP consent (same as the argument)')
    .action(action(io, vrp('deleteConsent')));
  withCommon(consent.command('update').argument('[consentId]', 'the VRP consent (default: the current one)'))
    .description('UK v4.0: migrate a VRP consent by PUT (PUT /domestic-vrp-consents/{ConsentId}): its request as the bank holds it, in v4.0\'s shape')
    .option('--consent <id>', 'the VRP consent (same as the argument)')
    .option('--idempotency-key <key>', 'x-idempotency-key to send (default a fresh UUID)')
    .addHelpText('after', `
The v4.0 file reserves PUT and PATCH for migrating a consent between versions: the consent is read
from the bank, its remittance information re-spelt in v4.0's structured shape, and put back with
the same control parameters (what the PSU agreed). A profile with standard: uk-4.0.
--json prints the bank's answer as-is (OBDomesticVRPConsentResponse).`)
    .action(action(io, vrp('updateConsent')));
  withCommon(consent.command('patch').argument('[consentId]', 'the VRP consent (default: the current one)'))
    .description('UK v4.0: migrate a VRP consent by JSON Patch (PATCH /domestic-vrp-consents/{ConsentId})')
    .option('--consent <id>', 'the VRP consent (same as the argument)')
    .option('--patch <json>', 'the JSON Patch (RFC 6902): a JSON array of operations, or @FILE to read it from a file (required)')
    .option('--idempotency-key <key>', 'x-idempotency-key to send (default a fresh UUID)')
    .addHelpText('after', `
Example:
  $ obtpp vrp consent patch --patch '[{"op":"replace","path":"/Data/Initiation/RemittanceInformation","value":{"Unstructured":["rent"]}}]'`)
    .action(action(io, vrp('patchConsent')));
  withCommon(group.command('pay').argument('[consentId]', 'the authorised VRP consent (default: the current one)'))
    .description('make one payment under an authorised VRP consent, without the PSU (POST /domestic-vrps)')
    .option('--consent <id>', 'the VRP consent (same as the argument)')
    .option('--amount <amount>', 'this payment\'s amount, e.g. 25.00 (required; within the consent\'s limits)')
    .option('--currency <ccy>', 'currency (default the consent\'s)')
    .option('--interaction <kind>', 'PSUInteractionType: in-session or off-session (default the consent\'s first)')
    .option('--idempotency-key <key>', 'x-idempotency-key to send (default a fresh UUID); repeat it to see the bank return the same payment')
    .addHelpText('after', `
The consent's Initiation and Risk are read from the bank and sent unchanged, under the PSU's token,
signed (x-jws-signature) when the profile has a signing key. A payment beyond the consent's control
parameters is refused by the bank: exit 1 with its error code (UK.OBIE.Rules.FailsControlParameters).
--json prints the bank's answer as-is (OBDomesticVRPResponse).

Example:
  $ obtpp vrp pay --amount 25.00
  $ obtpp vrp pay --amount 25.00 --json | jq -r .Data.DomesticVRPId`)
    .action(action(io, vrp('pay')));
  withCommon(group.command('funds').argument('[consentId]', 'the authorised VRP consent (default: the current one)'))
    .description('ask whether the consent\'s account holds an amount (POST /domestic-vrp-consents/{ConsentId}/funds-confirmation)')
    .option('--consent <id>', 'the VRP consent (same as the argument)')
    .option('--amount <amount>', 'the amount to check, e.g. 25.00 (required)')
    .option('--currency <ccy>', 'currency (default the consent\'s)')
    .option('--reference <text>', 'Reference (up to 35 characters)')
    .addHelpText('after', `
The answer is Available or NotAvailable (a VRP funds check does not answer true or false).
--json prints the bank's answer as-is (OBVRPFundsConfirmationResponse).`)
    .action(action(io, vrp('funds')));
  withCommon(group.command('get').argument('[domesticVrpId]', 'the payment (default: the last one made under the current VRP consent)'))
    .description('read a VRP payment (GET /domestic-vrps/{DomesticVRPId})')
    .option('--details', 'its payment details instead (GET …/payment-details)')
    .action(action(io, vrp('get')));
}
