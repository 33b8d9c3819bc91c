// puppeteer.launch for the tests that launch a Chromium of their own (the run's shared browser,
// test/global-setup.ts; the sandbox tests' TPP run alone or against a bank on a certificate of its
// own; a report page run alone; the PSU's tests of a shared browser's owner): its profile and its
// temporary files (its TMPDIR) in a folder of its own, removed when it closes.
//
// Why: with --disable-dev-shm-usage Chromium makes its shared memory as files in TMPDIR
// (.org.chromium.Chromium.*), and one of its processes ended between making such a file and
// unlinking it (a context closed, a renderer killed) leaves it there: whole runs left one in the
// system's temporary folder now and then. obtpp's own launches do the same (src/psu/index.ts).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer';
import type { Browser, LaunchOptions } from 'puppeteer';

export async function launchInFolder(options: LaunchOptions): Promise<Browser> {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-test-chromium-'));
  const gone = () => rm(dir, { recursive: true, force: true, maxRetries: 2 });
  try {
    await mkdir(join(dir, 'tmp'));
    const browser = await puppeteer.launch({ ...options, userDataDir: join(dir, 'profile'), env: { ...process.env, ...options.env, TMPDIR: join(dir, 'tmp') } });
    const close = browser.close.bind(browser);
    browser.close = async () => {
      try {
        await close();
      } finally {
        await gone();
      }
    };
    return browser;
  } catch (e) {
    await gone();
    throw e;
  }
}
