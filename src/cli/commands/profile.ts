import type { Io } from '../io.ts';
import { loadProfile } from '../../profile/load.ts';
import { maskProfile } from '../../profile/mask.ts';
import { forTerminal } from '../terminal.ts';

export async function run(io: Io, file: string, options: { json?: boolean }): Promise<void> {
  const profile = await loadProfile(file, { env: io.env, cwd: io.cwd });
  const masked = maskProfile(profile);
  if (options.json) {
    io.stdout.write(JSON.stringify(masked, null, 2) + '\n');
    return;
  }
  const { stringify } = await import('yaml');
  io.stderr.write(`profile ${profile.source}: valid\n`);
  // What the bank's discovery document holds that obtpp does not judge (its text, escaped).
  for (const note of profile.discovery?.notes ?? []) io.stderr.write(forTerminal(`note: ${note}`, 'inline') + '\n');
  io.stdout.write(stringify(masked));
}
