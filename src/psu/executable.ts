import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { BrowserUnavailableError } from '../errors.ts';

export type Env = Record<string, string | undefined>;

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
/** Chromium's headless-only build (Debian: chromium-headless-shell; puppeteer: chrome-headless-shell). */
const SHELL_NAMES = ['chromium-headless-shell', 'chrome-headless-shell'];

export interface FindOptions {
  /**
   * Default true. A headless run prefers Chromium's headless shell where one is installed: it
   * serves the same pages through the same DevTools protocol, without the full browser's UI
   * machinery, for about half the CPU per PSU journey (bench/authorise.ts). A visible browser
   * (headless false) needs the full one.
   */
  headless?: boolean;
}

/**
 * Where Chromium is, in this order:
 * 1. `PUPPETEER_EXECUTABLE_PATH` (it must exist; a wrong path is an error, not a fallback),
 * 2. headless only: a headless shell, puppeteer's download (`PUPPETEER_CACHE_DIR`, default
 *    `~/.cache/puppeteer`) first, then `/usr/bin/chromium-headless-shell` or one on `PATH`,
 * 3. puppeteer's own Chrome download, newest first,
 * 4. `/usr/bin/chromium`, then chromium, chromium-browser, google-chrome(-stable) on `PATH`.
 * Returns undefined when there is none.
 */
export function findExecutable(env: Env, options: FindOptions = {}): string | undefined {
  const explicit = env.PUPPETEER_EXECUTABLE_PATH?.trim();
  if (explicit) {
    if (!isExecutable(explicit)) {
      throw new BrowserUnavailableError(`PUPPETEER_EXECUTABLE_PATH is ${explicit}, which is not an executable file`);
    }
    return explicit;
  }
  if (options.headless ?? true) {
    const shell = puppeteerDownload(env, 'chrome-headless-shell') ?? onSystem(env, SHELL_NAMES);
    if (shell) return shell;
  }
  return puppeteerDownload(env, 'chrome') ?? onSystem(env, SYSTEM_NAMES);
}

/** /usr/bin/<name>, then <name> in each directory of PATH, for the names in order. */
function onSystem(env: Env, names: string[]): string | undefined {
  for (const name of names) if (isExecutable(join('/usr/bin', name))) return join('/usr/bin', name);
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Like findExecutable, but none found is BrowserUnavailableError (exit 3) saying what to install. */
export function requireExecutable(env: Env, options: FindOptions = {}): string {
  const found = findExecutable(env, options);
  if (found) return found;
  throw new BrowserUnavailableError(
    'no Chromium found: PUPPETEER_EXECUTABLE_PATH is not set, puppeteer has no downloaded browser, and neither /usr/bin/chromium nor chromium / google-chrome is on PATH',
  );
}

/** puppeteer's cache layout: <cache>/chrome/<platform>-<build>/chrome-<platform>/chrome (and the headless shell). */
function puppeteerDownload(env: Env, which: 'chrome' | 'chrome-headless-shell'): string | undefined {
  const cache = env.PUPPETEER_CACHE_DIR ?? join(env.HOME ?? homedir(), '.cache', 'puppeteer');
  const layouts: Array<[string, (dir: string) => string[]]> = [
    ['chrome', (d) => [join(d, 'chrome-linux64', 'chrome'), join(d, 'chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'), join(d, 'chrome-mac-x64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'), join(d, 'chrome-win64', 'chrome.exe')]],
    ['chrome-headless-shell', (d) => [join(d, 'chrome-headless-shell-linux64', 'chrome-headless-shell'), join(d, 'chrome-headless-shell-mac-arm64', 'chrome-headless-shell'), join(d, 'chrome-headless-shell-mac-x64', 'chrome-headless-shell'), join(d, 'chrome-headless-shell-win64', 'chrome-headless-shell.exe')]],
  ];
  for (const [browser, candidates] of layouts.filter(([b]) => b === which)) {
    const root = join(cache, browser);
    if (!existsSync(root)) continue;
    let builds: string[];
    try {
      builds = readdirSync(root).sort(compareBuilds).reverse();
    } catch {
      continue;
    }
    for (const build of builds) {
      for (const c of candidates(join(root, build))) if (isExecutable(c)) return c;
    }
  }
  return undefined;
}

function compareBuilds(a: string, b: string): number {
  const pa = a.replace(/^[^-]*-/, '').split('.').map(Number);
  const pb = b.replace(/^[^-]*-/, '').split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
