import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Io } from '../io.ts';
import { action } from '../lazy.ts';
import { orList, sandboxStandards, versionNames, versions } from '../../standards/registry.ts';
import { HEADS } from '../heads.ts';

export function defineConform(program: Command, io: Io): void {
  program
    .command('conform')
    .description(HEADS.conform.description)
    .option('-p, --profile <name|file>', 'bank profile (YAML/JSON file or built-in name; default: $OBTPP_PROFILE); without either, the embedded sandbox is certified')
    .addOption(new Option('--variant <variant>', 'which variant to certify').choices(['A', 'B', 'all']).default('all'))
    .option('-t, --tags <expression>', 'only scenarios matching this cucumber tag expression, e.g. "@ais and not @AIS-08"')
    .option('-o, --report-dir <dir>', 'where reports go (default: reports/<timestamp>/)')
    .option('--parallel <n>', 'cucumber worker threads, each with its own browser and consent pool (default 1: one browser runs every PSU journey, several at once)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 8) throw new InvalidArgumentError(`--parallel takes a whole number from 1 to 8, not ${v}`);
      return n;
    })
    .option('--journeys <n>', 'PSU journeys the one browser runs at once (default 2; 1 for a bank that allows one login at a time)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 16) throw new InvalidArgumentError(`--journeys takes a whole number from 1 to 16, not ${v}`);
      return n;
    })
    .addOption(new Option('--dialect <dialect>', `the standard of the embedded sandbox bank: ${orList(sandboxStandards().map((st) => `${st.name} (${st.words.wire})`))}; a profile names its own`).choices(sandboxStandards().map((st) => st.name)))
    .addOption(new Option('--standard <standard>', `the embedded sandbox bank serves a published standard at its official paths: ${orList(versions().map((v) => v.help.conform))}; a profile names its own`).choices(versionNames()))
    .option('--security <profile>', 'the security profile the embedded sandbox\'s authorisation server runs: fapi1-advanced, fapi1-advanced-par-jarm, fapi2-dpop, fapi2-mtls or fapi2-message-signing (obtpp sandbox --list-security); a profile says its bank\'s security')
    .option('--sca <approaches>', 'the SCA approaches the embedded berlin-group sandbox offers, comma-separated: redirect, oauth, decoupled, embedded (default redirect,oauth; without oauth the bank has no authorisation server)', (v) => v.split(',').map((a) => a.trim()).filter(Boolean))
    .option('--signatures', 'the embedded berlin-group sandbox requires signed requests (NextGenPSD2 HTTP signature) and signs its answers: BG-50 and BG-51 are judged')
    .option('--sandbox-fault <name...>', 'switch sandbox faults on for this run (see obtpp sandbox [--dialect berlin-group] --list-faults)')
    .option('--strict', 'exit 1 when a rule could not be judged (verdict incomplete); without it an incomplete run exits 0')
    .option('--attest <key>', 'sign the report dir: attestation.jws, with this private key (PEM/JWK file, or ${env:NAME}); check it with obtpp verify')
    .option('--waivers <file>', 'expected failures (YAML/JSON: rule, variant?, scenario?, reason, owner, expires) are reported as waived; an expired waiver fails the run')
    .option('--baseline <dir>', 'an earlier report dir: print what changed since, and exit 1 when a rule newly fails or is newly not judged')
    .option('--fcs', 'after the table, list every official FCS test of the run\'s version (standard uk-3.1 or uk-4.0) with its verdict, in the suite\'s order')
    .option('--json', 'print summary.json on stdout instead of the table')
    .option('-v, --verbose', 'also print the run\'s notes (set-up, browser, reports) on stderr')
    .option('--state <file>', 'accepted like every command\'s; conform keeps no session state, so it is not read')
    .addHelpText('after', `
Reports (in the report dir): summary.json (one row per rule and variant, with every finding and
its evidence), report.html (the same for people), junit.xml and messages.ndjson (cucumber's own).
Exit codes: 0 conformant (or incomplete: no rule failed, some not judged), 1 a rule failed (or
incomplete with --strict), 2 bad usage or profile, 3 the run could not happen.

Examples:
  $ obtpp conform
  $ obtpp conform --profile mybank.yaml --report-dir reports/ci
  $ obtpp conform --variant A --tags @cof
  $ obtpp conform --sandbox-fault funds-answer-wrong
  $ obtpp conform --standard uk-3.1                 the embedded bank at UK Read/Write v3.1.11's paths
  $ obtpp conform --standard uk-4.0                 the embedded bank at UK Read/Write v4.0
  $ obtpp conform --standard uk-3.1 --fcs           … and each FCS v3.1 test's verdict, to set beside the suite's export
  $ obtpp conform --security fapi2-dpop             the embedded bank as a FAPI 2.0 bank with DPoP-bound tokens
  $ obtpp conform --dialect berlin-group            the embedded NextGenPSD2 sandbox bank
  $ obtpp conform --dialect berlin-group --sca embedded   the same bank offering only embedded SCA
  $ obtpp conform --profile bg.yaml                 a profile with dialect: berlin-group`)
    .action(action(io, () => import('../commands/conform.ts')));
}
