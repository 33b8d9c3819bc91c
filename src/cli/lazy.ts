import { Option, type Command } from 'commander';
import type { Io } from './io.ts';

/** A command's action, loaded only when that command runs. */
export type Lazy = () => Promise<{ run: (io: Io, ...args: any[]) => Promise<void> }>;

export function action(io: Io, load: Lazy) {
  return async (...args: unknown[]) => {
    const mod = await load();
    // commander passes (args…, options, command); drop the Command itself.
    await mod.run(io, ...args.slice(0, -1));
  };
}

/** Global options every command takes. */
export function withCommon(cmd: Command): Command {
  return cmd
    .option('-p, --profile <name|file>', 'bank profile: a YAML/JSON file or a built-in name (default: $OBTPP_PROFILE)')
    .option('--json', 'print exactly one JSON document on stdout, nothing else')
    .option('-v, --verbose', 'print the redacted HTTP exchanges on stderr')
    .option('--variant <A|B>', "which of the profile's variants to use (default: its first)")
    .addOption(new Option('--state <file>', 'session state file (default: $OBTPP_STATE, else $XDG_CONFIG_HOME/obtpp/state.json or ~/.config/obtpp/state.json)'));
}

