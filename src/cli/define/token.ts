import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action, withCommon } from '../lazy.ts';
import { HEADS } from '../heads.ts';

const token = (name: 'show' | 'refresh' | 'clear') => () => import('../commands/token.ts').then((m) => ({ run: m[name] }));

export function defineToken(program: Command, io: Io): void {
  const group = program.command('token').description(HEADS.token.description)
    .addHelpText('after', '\nExample:\n  $ obtpp token show --json | jq -r .accessToken');
  withCommon(group.command('show'))
    .description('print the access and refresh token of the last (or --consent) consent — the only command that prints a token')
    .option('--consent <id>', 'the consent (default: the one created or authorised last)')
    .addHelpText('after', `
--json prints { consentId, fn, tokenType, accessToken, senderConstraint?, dpopJkt?, refreshToken?, expiresAt?, expired?, scope?, intentId? }.
senderConstraint says how the bank bound the token: mtls (usable only over a connection with the
profile's client certificate), dpop (usable only with a fresh DPoP proof of the session's key, whose
thumbprint dpopJkt is: obtpp's own commands make the proof; curl cannot), or none (a bearer token).

Example:
  $ curl -H "Authorization: Bearer $(obtpp token show --json | jq -r .accessToken)" …   (a bearer token)`)
    .action(action(io, token('show')));
  withCommon(group.command('refresh'))
    .description('use the refresh token now (data commands also refresh an expired token by themselves)')
    .option('--consent <id>', 'the consent (default: the one created or authorised last)')
    .addHelpText('after', `
--json prints { consentId, fn, refreshed: true, expiresAt?, scope? } (no token).

Example:
  $ obtpp token refresh --consent 7c1e…`)
    .action(action(io, token('refresh')));
  withCommon(group.command('clear'))
    .description('forget tokens: every token of the profile and variant, or one consent\'s (consents are kept)')
    .option('--consent <id>', 'only this consent\'s tokens')
    .addHelpText('after', `
--json prints { cleared: <number of token sets>, consents: [ids], clientCredentials: [ais|cof|pis], consentId? | profile, variant, state }.

Example:
  $ obtpp token clear`)
    .action(action(io, token('clear')));
}
