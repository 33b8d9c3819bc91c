// A program that runs obtpp's commands in its own process lends them its PSU browser (Io.browser,
// from openBrowser()): `consent authorise` walks the PSU through the bank's pages in it, in the
// UK dialect and through a berlin-group bank's redirect SCA, and leaves it open for the next
// command. Real sandbox, real Chromium, the CLI in this process (runCli).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, startSandbox, type Sandbox } from '../../src/index.ts';
import { cliHere } from './helpers.ts';

let dir: string;
let browser: Awaited<ReturnType<typeof openBrowser>>;
const banks: Sandbox[] = [];
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-lent-'));
  browser = await openBrowser();
});
after(async () => {
  await browser?.close();
  await Promise.all(banks.map((b) => b.stop()));
  await rm(dir, { recursive: true, force: true });
});

/** `obtpp …args --json` in this process, with the lent browser, on a profile and state of its own. */
async function cli(args: string[], profile: string, state: string): Promise<{ code: number; doc: any; stderr: string }> {
  const env = { ...process.env, HOME: dir, NO_COLOR: '1', CI: '1', OBTPP_PROFILE: profile, OBTPP_STATE: state };
  const run = await cliHere([...args, '--json'], { env, cwd: dir, browser });
  return { code: run.code, doc: run.code === 0 ? JSON.parse(run.stdout) : undefined, stderr: run.stderr };
}

/** A sandbox bank of the dialect, its profile written for the commands, and a state file. */
async function bank(dialect: 'obie' | 'berlin-group'): Promise<{ profile: string; state: string }> {
  const sb = await startSandbox({ quiet: true, dialect });
  banks.push(sb);
  const profile = join(dir, `${dialect}.json`);
  await writeFile(profile, JSON.stringify(sb.profile('all')), { mode: 0o600 });
  return { profile, state: join(dir, `${dialect}-state.json`) };
}

for (const dialect of ['obie', 'berlin-group'] as const) {
  test(`${dialect}: consent authorise walks the PSU's journeys in the lent browser, and leaves it open for the next command`, async () => {
    const { profile, state } = await bank(dialect);
    const reusedBefore = browser.lanesReused;
    for (let i = 0; i < 2; i++) {
      const created = await cli(['consent', 'create', 'ais'], profile, state);
      assert.equal(created.code, 0, created.stderr);
      const authorised = await cli(['consent', 'authorise'], profile, state);
      assert.equal(authorised.code, 0, authorised.stderr);
      assert.equal(authorised.doc.status, 'authorised', JSON.stringify(authorised.doc));
    }
    // The second command's journey took the lane the first one's left wiped in the lent browser:
    // both ran there, and the first command did not close it.
    assert.ok(browser.lanesReused > reusedBefore, `journeys in the lent browser reused its wiped lane (${reusedBefore} → ${browser.lanesReused})`);
  });
}
