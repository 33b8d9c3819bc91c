// The Chromiums the tests launch themselves (test/helpers/own-chromium.ts) keep their profile and
// their temporary files in a folder of their own, gone when they close: nothing of theirs is left
// in the system's temporary folder (a Chromium process ended at the wrong moment leaves its
// shared-memory files, .org.chromium.Chromium.*, in its TMPDIR).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PsuBrowser, CHROMIUM_ARGS } from '../../src/psu/index.ts';
import { launchInFolder } from '../helpers/own-chromium.ts';

/** The TMPDIR of every process whose command line holds `flag` (Chromium's processes carry their --user-data-dir). */
function tmpdirsOf(flag: string): string[] {
  const found = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((d) => {
    try {
      if (!readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(flag)) return [];
      return readFileSync(`/proc/${d}/environ`, 'utf8').split('\0').filter((v) => v.startsWith('TMPDIR='));
    } catch {
      return [];
    }
  });
  return [...new Set(found)];
}

const linux = process.platform === 'linux';
const chromium = PsuBrowser.executablePath();

test('a Chromium a test launches has its profile and TMPDIR in a folder of its own, and the folder goes when it closes', { skip: !linux ? 'reads /proc' : !chromium ? 'no Chromium' : false }, async () => {
  const browser = await launchInFolder({ executablePath: chromium!, headless: true, args: [...CHROMIUM_ARGS, '--headless'] });
  let folder: string | undefined;
  try {
    const page = await browser.newPage();
    await page.goto('data:text/html,<p>here</p>');
    const profile = /--user-data-dir=(\S+)/.exec(browser.process()?.spawnargs.join(' ') ?? '')?.[1];
    assert.ok(profile, 'launched with a profile folder');
    folder = join(profile, '..');
    assert.match(folder, new RegExp(`^${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/obtpp-test-chromium-`));
    assert.deepEqual(tmpdirsOf(`--user-data-dir=${profile}`), [`TMPDIR=${join(folder, 'tmp')}`], 'every process of it (renderers too) has the folder\'s TMPDIR');
  } finally {
    await browser.close();
  }
  assert.equal(existsSync(folder!), false, 'the folder went with the browser');
});

/** The process listening on 127.0.0.1:`port` (its socket's inode, from /proc/net/tcp, among the processes' open files). */
function listener(port: number): string | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inode = readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1).map((l) => l.trim().split(/\s+/))
    .find((f) => f[1] === `0100007F:${hex}` && f[3] === '0A')?.[9];
  if (!inode) return undefined;
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).find((d) => {
    try {
      return readdirSync(`/proc/${d}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${d}/fd/${fd}`) === `socket:[${inode}]`;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

test('the run\'s shared Chromium (npm test\'s global set-up) has its profile and TMPDIR in a folder of its own', { skip: !linux ? 'reads /proc' : !process.env.OBTPP_BROWSER_WS_ENDPOINT ? 'not under the run\'s global set-up' : false }, () => {
  // The browser listening on the DevTools port every test file gets.
  const pid = listener(Number(new URL(process.env.OBTPP_BROWSER_WS_ENDPOINT!).port));
  assert.ok(pid, `the shared Chromium listens on ${process.env.OBTPP_BROWSER_WS_ENDPOINT}`);
  const profile = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
  assert.ok(profile, 'launched with a profile folder');
  const folder = join(profile, '..');
  assert.match(folder, /\/obtpp-test-chromium-[^/]+$/);
  assert.deepEqual(tmpdirsOf(`--user-data-dir=${profile}`), [`TMPDIR=${join(folder, 'tmp')}`]);
});
