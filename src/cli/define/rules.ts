import type { Command } from 'commander';
import type { Io } from '../io.ts';
import { action } from '../lazy.ts';
import { HEADS } from '../heads.ts';

export function defineRules(program: Command, io: Io): void {
  program
    .command('rules')
    .description(HEADS.rules.description)
    .option('--fcs <version>', 'map the FCS test ids of that version (3.1, or 4.0) to the scenarios whose @fcs: tags cover them, with what each test asserts (read from the suite\'s manifests) and what a partial scenario does not judge; the ids not applicable or not covered, with why')
    .option('--manifests <dir>', 'the FCS folder holding manifests/ob_3.1_*_fca.json (default: $OBTPP_FCS_DIR, else ../shared/reference/obie-fcs beside the package)')
    .option('--oidf <plan>', 'map the OpenID Foundation\'s FAPI test plan (fapi1-advanced, or fapi2: the security profile and message signing plans) module by module to the scenarios whose @oidf: tags cover them, with where each applies; the modules not applicable, with why')
    .option('--plans <dir>', 'the folder holding the OIDF plan files (default: $OBTPP_OIDF_DIR, else ../shared/reference/oidf beside the package)')
    .option('--json', 'print one JSON document')
    .addHelpText('after', `
Exit codes: 0 printed, 1 a feature's @fcs: tag names an id no manifest has, claims a test its steps do
not judge wholly (it must be @fcs-partial:) or one the suite makes inapplicable, or (--oidf) a module has
neither a scenario nor a reason, 2 bad usage or no manifests or plans.

Examples:
  $ obtpp rules
  $ obtpp rules --fcs 3.1
  $ obtpp rules --fcs 3.1 --manifests ../shared/reference/obie-fcs --json
  $ obtpp rules --oidf fapi1-advanced
  $ obtpp rules --oidf fapi2 --json`)
    .action(action(io, () => import('../commands/rules.ts')));
}
