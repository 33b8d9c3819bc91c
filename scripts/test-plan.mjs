// The plan of `npm test`'s run (scripts/test.mjs): which test files share a process, and in what
// order the processes start. Pure, so that test/foundation/test-plan.test.ts can hold it to its word.
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Files that need a process of their own, and why. */
export const OWN_PROCESS = {
  'test/cli/signal-listeners.test.ts': 'sends signals to its own process, which a shared test runner takes as an interrupt',
  'test/conformance/step-matches.test.ts': "loads cucumber's support code, which registers its steps once per process",
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
];

/** At most this many files share a process: more would leave the last group running alone at the end. */
export const GROUP_SIZE = 6;

/**
 * The processes of a run, in the order the runner is to start them, each the test files it runs
 * (every file exactly once): the longest files first, each alone; then the other files of each
 * folder in groups of at most GROUP_SIZE; last the files that need a process of their own.
 * `files`: paths relative to the project, sorted.
 */
export function plan(files) {
  const long = LONG.filter((f) => files.includes(f));
  const own = files.filter((f) => f in OWN_PROCESS && !long.includes(f));
  const byFolder = new Map();
  for (const f of files) if (!long.includes(f) && !own.includes(f)) byFolder.set(dirname(f), [...(byFolder.get(dirname(f)) ?? []), f]);
  const batches = long.map((f) => [f]);
  for (const members of byFolder.values()) {
    const count = Math.ceil(members.length / GROUP_SIZE);
    for (let i = 0; i < count; i++) batches.push(members.filter((_, j) => j % count === i));
  }
  return [...batches, ...own.map((f) => [f])];
}

/** The name of the i-th process's file: the runner sorts the files it is given by name, so the name carries the order. */
export function runFileName(members, i) {
  return `${String(i).padStart(3, '0')}-${members.length === 1 ? basename(members[0], '.test.ts') : dirname(members[0]).replaceAll('/', '-')}.test.mjs`;
}

/**
 * The file one process runs: each member imported inside a \`describe\` named by its path, so that
 * its top-level hooks (before, after) belong to that describe and run around its own tests, as in a
 * process of its own, not around the whole group's.
 */
export function runSource(members, root) {
  return [
    `// ${members.length === 1 ? members[0] : `${members.length} test files of ${dirname(members[0])}`}, in a process of its own (scripts/test.mjs).`,
    `import { describe } from 'node:test';`,
    ...members.map((m) => `describe(${JSON.stringify(m)}, async () => { await import(${JSON.stringify(pathToFileURL(join(root, m)).href)}); });`),
    '',
  ].join('\n');
}
