import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action } from '../lazy.ts';
import { HEADS } from '../heads.ts';

export function defineVerify(program: Command, io: Io): void {
  program
    .command('verify')
    .description(HEADS.verify.description)
    .argument('<dir>', 'a report dir written by obtpp conform --attest')
    .option('--key <file>', "the signer's public key (PEM, certificate or JWK)")
    .option('--jwks <url|file>', "the signer's JWKS, from a URL or a file (the key is picked by kid or thumbprint)")
    .option('--json', 'print the result as one JSON document')
    .addHelpText('after', `
Exit codes: 0 the folder is as signed (whatever verdict it attests), 1 a file differs, the signature
does not hold or the key is not the signer's, 2 bad usage.

Examples:
  $ obtpp verify reports/2026-11-23 --key attest-public.pem
  $ obtpp verify reports/ci --jwks https://bank.example/.well-known/obtpp-jwks.json --json`)
    .action(action(io, () => import('../commands/verify.ts')));
}
