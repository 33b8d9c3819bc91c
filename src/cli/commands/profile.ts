import type { Io } from '../io.ts';
import { loadProfile } from '../../profile/load.ts';
import { maskProfile } from '../../profile/mask.ts';

export async function run(io: Io, file: string, options: { json?: boolean }): Promise<void> {
  const profile = await loadProfile(file, { env: io.env, cwd: io.cwd });
  const masked = maskProfile(profile);
  if (options.json) {
    io.stdout.write(JSON.stringify(masked, null, 2) + '\n');
    return;
  }
  const { stringify } = await import('yaml');
  io.stderr.write(`profile ${profile.source}: valid\n`);
  io.stdout.write(stringify(masked));
}
