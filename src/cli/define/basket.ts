import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

const basket = (name: 'create' | 'authorise' | 'get' | 'status' | 'del') => () => import('../commands/basket.ts').then((m) => ({ run: m[name] }));

export function defineBasket(program: Command, io: Io): void {
  const group = program.command('basket').description(HEADS.basket.description)
    .addHelpText('after', '\nExample:\n  $ obtpp basket create PAYMENT_ID OTHER_PAYMENT_ID && obtpp basket authorise && obtpp basket status');
  withCommon(group.command('create').argument('<ids...>', 'consents and payments of this session (obtpp consent list), not yet authorised'))
    .description('create a signing basket of consents and payments (POST /v1/signing-baskets) and make it the current basket')
    .addHelpText('after', `
Each id must be one obtpp created in this session (so that it knows a consent from a payment). The
basket's SCA goes by the profile's first approach of redirect, decoupled and embedded (a basket
has no OAuth2 scope). --json prints the bank's answer as-is (basketId, transactionStatus, _links).

Example:
  $ obtpp basket create payment-1f0c… payment-77aa… --profile bg.yaml`)
    .action(action(io, basket('create')));
  withCommon(group.command('authorise').alias('authorize').argument('[basketId]', 'the basket (default: the current one)'))
    .description('the PSU\'s one SCA of the basket: redirect in headless Chromium, decoupled in the banking app, embedded through obtpp')
    .option('--reject', 'redirect: the PSU rejects on the bank\'s page (exit 0 when the basket then reads RJCT)')
    .option('--psu-id <id>', 'the PSU-ID (default the profile\'s psu.username)')
    .option('--password-stdin', 'embedded SCA: read the PSU\'s password from the first line of stdin (never echoed, never logged)')
    .option('--otp-stdin', 'embedded SCA: read the one-time password from the next line of stdin (default the profile\'s sca.otp)')
    .option('--timeout <seconds>', 'decoupled SCA: how long to wait for the PSU\'s approval (default the profile\'s timeouts.authorisationMs)')
    .addHelpText('after', `
Once done, the basket's status is read (ACTC: every member authorised) and so is each member's.
--json prints { basketId, status: "authorised"|"rejected", transactionStatus, by?, description? }.

Example:
  $ obtpp basket authorise && obtpp consent list`)
    .action(action(io, basket('authorise')));
  withCommon(group.command('get').argument('[basketId]', 'the basket (default: the current one)'))
    .description('read a signing basket (GET /v1/signing-baskets/{basketId}): its consents, payments and status')
    .addHelpText('after', '\n--json prints the bank\'s answer as-is.\n\nExample:\n  $ obtpp basket get --json | jq .payments')
    .action(action(io, basket('get')));
  withCommon(group.command('status').argument('[basketId]', 'the basket (default: the current one)'))
    .description('read a signing basket\'s status (GET /v1/signing-baskets/{basketId}/status)')
    .addHelpText('after', '\n--json prints the bank\'s answer as-is ({ transactionStatus }).\n\nExample:\n  $ obtpp basket status')
    .action(action(io, basket('status')));
  withCommon(group.command('delete').argument('[basketId]', 'the basket (default: the current one)'))
    .description('delete a signing basket not yet authorised (DELETE /v1/signing-baskets/{basketId}); its members stay as they are')
    .addHelpText('after', '\n--json prints { basketId, deleted: true, status }.\n\nExample:\n  $ obtpp basket delete')
    .action(action(io, basket('del')));
}
