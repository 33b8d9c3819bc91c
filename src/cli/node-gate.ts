// The first thing the bin runs. Kept to syntax and imports that Node 14+ can parse and link, so
// that an old Node gets one readable line instead of a SyntaxError from a later module.

/** The oldest Node obtpp runs on: package.json's engines.node (a test keeps the two equal). */
export const MIN_NODE = '22.19.0';

function parts(version: string): number[] {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
}

/** True when `current` (e.g. process.version) is at least `minimum`. */
export function nodeSatisfies(current: string, minimum: string = MIN_NODE): boolean {
  const a = parts(current);
  const b = parts(minimum);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/**
 * The one line printed when the Node running obtpp is too old, or undefined when it is new
 * enough. `rerun` is the whole command that runs the same thing again under Node 24
 * ({@link rerunWithNode24}).
 */
export function nodeGate(current: string, rerun: string, minimum: string = MIN_NODE): string | undefined {
  if (nodeSatisfies(current, minimum)) return undefined;
  return `obtpp: needs Node.js ${minimum} or newer, and this is Node.js ${current.replace(/^v/, '')}; ` +
    `run it with Node 24 (\`${rerun}\`) or install one with a version manager (\`nvm install 24\`, \`fnm use --install-if-missing 24\`, \`volta install node@24\`)`;
}

/**
 * The command that runs `obtpp args` again under Node 24. Started through npx (`npx obtpp …`: npm
 * sets npm_command=exec, and the bin lies in npx's cache), the bin's path means nothing to the
 * user: the rerun is npx with node@24 and obtpp as packages — the project in the current folder
 * (`-p .`, where npm found package.json's name is obtpp) or the registry's. A nested `npx` would
 * not do: it inherits the outer one's npm_config_call and fails. Otherwise node@24 runs the same
 * bin file.
 */
export function rerunWithNode24(bin: string, args: string[], env: Record<string, string | undefined>): string {
  if (env.npm_command === 'exec' || /[\\/]_npx[\\/]/.test(bin)) {
    const from = env.npm_package_name === 'obtpp' ? '.' : 'obtpp';
    return `npx -y -p node@24 -p ${from} -c ${shellWords([shellWords(['obtpp'].concat(args))])}`;
  }
  return `npx -y node@24 ${shellWords([bin].concat(args))}`;
}

/** Arguments as one line a POSIX shell reads back as the same words. */
export function shellWords(args: string[]): string {
  return args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}
