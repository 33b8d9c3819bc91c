// The plan of `npm test`'s run (scripts/test.mjs): which test files share a process, and in what
// order the processes start. Pure, so that test/foundation/test-plan.test.ts can hold it to its word.
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Files that need a process of their own, and why. */
export const OWN_PROCESS = {
  'test/cli/signal-listeners.test.ts': 'sends signals to its own process, which a shared test runner takes as an interrupt',
  'test/conformance/step-matches.test.ts': "loads cucumber's support code, which registers its steps once per process",
};

/**
 * Files whose tests run at once in their process (each test starts a bank of its own and shares
 * nothing with the others), and why: one waits on a bank's clock while another computes.
 */
export const CONCURRENT_TESTS = {
  'test/independent-bank/uk-payments.test.ts': "the slow sign-in's run waits out three-second consent windows for about 20 s; the other test's run computes meanwhile",
  'test/independent-bank/independent.test.ts': "the whole-seconds expiry test waits out its consents' ends; the other two tests' runs compute meanwhile",
  'test/independent-bank/security-flows.test.ts': 'each test starts a bank of its own and waits on its run in a warm worker; one at a time, the file held its process for half a minute at about half a core',
  'test/api/library.test.ts': "the packed tarball's test waits on npm (pack, install) and on its examples' processes; the tests that run in this process run one after another in a describe of their own",
};

/** The longest files (a whole run's top-level time, scripts/test-times.mjs), started first and alone. */
export const LONG = [
  'test/conformance/conform.test.ts',
  'test/conformance/oidf-runs.test.ts',
  'test/api/library.test.ts',
  'test/conformance/chaos.test.ts',
  'test/security/secrets.test.ts',
  'test/sandbox/faults.test.ts',
  'test/conformance/berlin-group-conform.test.ts',
  'test/independent-bank/security-flows.test.ts',
  'test/conformance/uk-breadth.test.ts',
  // Mostly waits (on the cold workers it starts): last by name, it ran alone at the end of the run.
  'test/foundation/warm-cli.test.ts',
];

/**
 * The folders whose groups start first after the long files, in this order; the others follow by
 * name. A file that waits (a bank's slow sign-in, a consent's expiry, a stalled page) leaves a core
 * idle unless the other process computes, and these folders' groups wait most: in a whole run's
 * `/proc/stat` sampled each second (docs/testing.md), the independent banks' group (the longest, most
 * of it waiting) and the PSU's waited side by side, and the verdicts' group, last by name, ran alone
 * at the end. Started early and apart (a folder's groups in turns with the others'), each waits
 * beside groups that compute (the attestations', the CLI's, the conformance runs'); the short groups
 * that only compute (dialects, foundation, standards) come last and end together.
 */
export const FIRST_FOLDERS = ['test/independent-bank', 'test/attest', 'test/cli', 'test/conformance', 'test/verdicts', 'test/hostile', 'test/psu', 'test/profiles', 'test/sandbox'];

/** At most this many files share a process: more would leave the last group running alone at the end. */
export const GROUP_SIZE = 6;

/**
 * The processes of a run, in the order the runner is to start them, each the test files it runs
 * (every file exactly once): the longest files first, each alone; then the other files of each
 * folder in groups of at most GROUP_SIZE, FIRST_FOLDERS' first; last the files that need a process
 * of their own.
 * `files`: paths relative to the project, sorted.
 */
export function plan(files) {
  const long = LONG.filter((f) => files.includes(f));
  const own = files.filter((f) => f in OWN_PROCESS && !long.includes(f));
  const byFolder = new Map();
  for (const f of files) if (!long.includes(f) && !own.includes(f)) byFolder.set(dirname(f), [...(byFolder.get(dirname(f)) ?? []), f]);
  const batches = long.map((f) => [f]);
  const groupsOf = (folder) => {
    const members = byFolder.get(folder);
    const count = Math.ceil(members.length / GROUP_SIZE);
    return Array.from({ length: count }, (_, i) => members.filter((_, j) => j % count === i));
  };
  // FIRST_FOLDERS' groups in turns (a folder's groups wait alike: not side by side), then the rest by name.
  const first = FIRST_FOLDERS.filter((f) => byFolder.has(f)).map(groupsOf);
  for (let round = 0; first.some((g) => g.length > round); round++) for (const g of first) if (g[round]) batches.push(g[round]);
  for (const folder of [...byFolder.keys()].filter((f) => !FIRST_FOLDERS.includes(f))) batches.push(...groupsOf(folder));
  return [...batches, ...own.map((f) => [f])];
}

/** The name of the i-th process's file: the runner sorts the files it is given by name, so the name carries the order. */
export function runFileName(members, i) {
  return `${String(i).padStart(3, '0')}-${members.length === 1 ? basename(members[0], '.test.ts') : dirname(members[0]).replaceAll('/', '-')}.test.mjs`;
}

/**
 * The file one process runs: each member imported inside a \`describe\` named by its path, so that
 * its top-level hooks (before, after) belong to that describe and run around its own tests, as in a
 * process of its own, not around the whole group's. A file of CONCURRENT_TESTS has its tests run at once.
 */
export function runSource(members, root) {
  return [
    `// ${members.length === 1 ? members[0] : `${members.length} test files of ${dirname(members[0])}`}, in a process of its own (scripts/test.mjs).`,
    `import { describe } from 'node:test';`,
    ...members.map((m) => `describe(${JSON.stringify(m)}, ${m in CONCURRENT_TESTS ? '{ concurrency: true }, ' : ''}async () => { await import(${JSON.stringify(pathToFileURL(join(root, m)).href)}); });`),
    '',
  ].join('\n');
}
