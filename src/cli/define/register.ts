import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

const register = (name: 'create' | 'show' | 'update' | 'del') => () => import('../commands/register.ts').then((m) => ({ run: m[name] }));

export function defineRegister(program: Command, io: Io): void {
  const group = program.command('register')
    .description(HEADS.register.description)
    .addHelpText('after', '\nExample:\n  $ obtpp register --profile sb.yaml && obtpp register show --remote');
  // `obtpp register` alone registers: `create` is the group's default.
  withCommon(group.command('create', { isDefault: true }))
    .description('register obtpp at the bank with the profile\'s software statement (the default of obtpp register)')
    .addHelpText('after', `
Sends a request JWT signed with registration.key, carrying registration.softwareStatement, the token
endpoint auth method and the redirect URIs. The issued client secret and registration access token
go to the session state only.
--json prints { clientId, tokenEndpointAuthMethod, registrationClientUri, endpoint, registeredAt, clientSecret: "held …" }.

Example:
  $ obtpp register --profile sb.yaml
  $ obtpp register show --reveal --json | jq -r .clientSecret`)
    .action(action(io, register('create')));
  withCommon(group.command('show'))
    .description('the registration kept in the session state; --reveal prints its client secret and registration access token')
    .option('--reveal', 'print the client secret and the registration access token (secrets!)')
    .option('--remote', 'also read the registration at the bank (RFC 7592 GET with the registration access token)')
    .addHelpText('after', `
--json prints { clientId, tokenEndpointAuthMethod, registrationClientUri, endpoint, registeredAt, clientSecret, registrationAccessToken? , remote? }.

Example:
  $ obtpp register show --remote`)
    .action(action(io, register('show')));
  withCommon(group.command('update'))
    .description('update the registration at the bank from the profile (RFC 7592 PUT with the registration access token)')
    .addHelpText('after', `
Reads the registration as the bank holds it, sets what the profile's registration block decides
(redirectUris, scope, tokenEndpointAuthMethod; grant and response types) and sends it back whole.
--json prints { clientId, status, set: [fields now as the profile says], registration: { …the bank's answer, without secrets } }.

Example:
  $ obtpp register update --profile sb.yaml`)
    .action(action(io, register('update')));
  withCommon(group.command('delete'))
    .description('delete the registration at the bank (RFC 7592 DELETE) and forget its secrets')
    .addHelpText('after', `
--json prints { clientId, deleted: true, status }.

Example:
  $ obtpp register delete`)
    .action(action(io, register('del')));
}
