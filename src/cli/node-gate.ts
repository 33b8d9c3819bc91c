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
 * enough. `command` is how to run the same thing again under a newer Node.
 */
export function nodeGate(current: string, command: string, minimum: string = MIN_NODE): string | undefined {
  if (nodeSatisfies(current, minimum)) return undefined;
  return `obtpp: needs Node.js ${minimum} or newer, and this is Node.js ${current.replace(/^v/, '')}; ` +
    `run it with Node 24 (\`npx -y node@24 ${command}\`) or install one with a version manager (\`nvm install 24\`, \`fnm use --install-if-missing 24\`, \`volta install node@24\`)`;
}

/** Arguments as one line a POSIX shell reads back as the same words. */
export function shellWords(args: string[]): string {
  return args.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}
