import { Option, type Command } from 'commander';
import type { Io } from '../io.ts';
import { action } from '../lazy.ts';
import { baseStandard, orList, sandboxStandards, versionNames, versions } from '../../standards/registry.ts';
import { HEADS } from '../heads.ts';

const collect = (value: string, previous: string[]) => [...previous, value];

export function defineSandbox(program: Command, io: Io): void {
  program
    .command('sandbox')
    .description(HEADS.sandbox.description)
    .option('--port <n>', 'port to listen on (default: a free port)')
    .option('--host <address>', 'interface to bind; anything but loopback is reachable from the network', '127.0.0.1')
    .option('--tls', 'serve HTTPS with a CA and certificates made at start; also offers tls_client_auth')
    .addOption(new Option('--dialect <dialect>', `the standard the bank speaks: ${orList(sandboxStandards().map((st) => `${st.name} (${st.words.wire}${st.words.preview ? ', preview' : ''})`))}`).choices(sandboxStandards().map((st) => st.name)).default(baseStandard().name))
    .addOption(new Option('--standard <standard>', `with --write-profile: the profile of the same bank at a published standard's official paths: ${orList(versions().map((v) => v.help.sandbox))}, alongside variants A and B`).choices(versionNames()))
    .option('--sca <approaches>', 'berlin-group: the SCA approaches the bank offers, comma-separated: redirect, oauth, decoupled, embedded (default redirect,oauth; without oauth the written profile has no auth block)', (v) => v.split(',').map((a) => a.trim()).filter(Boolean))
    .option('--security <profile>', 'the security profile the authorisation server runs, as real banks run it: fapi1-advanced (the UK: hybrid flow, request object by value, mTLS-bound tokens), fapi1-advanced-par-jarm, fapi2-dpop, fapi2-mtls, fapi2-message-signing (see --list-security); the written profile says it')
    .option('--list-security', 'list the security profiles the sandbox\'s authorisation server can run, then exit')
    .option('--signatures', 'berlin-group: the bank requires the NextGenPSD2 HTTP signature (Digest, Signature, TPP-Signature-Certificate) on every request and signs its answers; the written profile carries both certificates')
    .addOption(new Option('--fault <name>', 'switch a fault on, breaking one rule (repeatable; see --list-faults)').argParser(collect).default([]))
    .option('--list-faults', 'list the faults of the --dialect\'s bank, the rule each breaks and what it does, then exit')
    .option('--json', 'print one JSON document on stdout (the fault list, or the running sandbox)')
    .option('--write-profile <file>', 'write a ready profile for this sandbox: JSON when FILE ends in .json, else YAML (mode 0600: it holds the client secret)')
    .addHelpText('after', `
Examples:
  $ obtpp sandbox --write-profile sandbox.yaml     then, elsewhere: obtpp conform --profile sandbox.yaml
  $ obtpp sandbox --fault create-200 --port 8443
  $ obtpp sandbox --standard uk-3.1 --write-profile uk.yaml   a profile at UK Read/Write v3.1.11's paths
  $ obtpp sandbox --standard uk-4.0 --write-profile v4.yaml   the same bank at UK Read/Write v4.0's paths and code values
  $ obtpp sandbox --security fapi2-dpop --write-profile fapi2.yaml   a FAPI 2.0 bank: PAR, PKCE, DPoP-bound tokens
  $ obtpp sandbox --dialect berlin-group           a NextGenPSD2 bank: {base}/v1/consents, SCA by redirect or OAuth2
  $ obtpp sandbox --dialect berlin-group --sca redirect   a bank without an authorisation server (no auth block)
  $ obtpp sandbox --list-faults --json
  $ obtpp sandbox --dialect berlin-group --list-faults`)
    .action(action(io, () => import('../commands/sandbox.ts')));
}
