// `npm test`'s global set-up (node --test --test-global-setup): one headless Chromium for the whole
// test run, on a DevTools port of 127.0.0.1 chosen by the OS. Its endpoint goes to every test file
// and every `obtpp` they start as OBTPP_BROWSER_WS_ENDPOINT, so a run's PSU journeys open their
// contexts in it instead of each process launching its own Chromium (a launch costs about two
// seconds of CPU here; the suite starts well over a hundred). Journeys stay apart as in one run:
// each has its own context, wiped between journeys, closed when its browser object closes. A
// journey that needs a browser of its own (a bank on a private CA: the trust is a launch switch)
// still launches one; the tests of launching itself give an environment without the endpoint.
import type { Browser } from 'puppeteer';

let browser: Browser | undefined;

export async function globalSetup(): Promise<void> {
  if (process.env.OBTPP_BROWSER_WS_ENDPOINT) return;
  const [{ default: puppeteer }, { CHROMIUM_ARGS }, { findExecutable }] = await Promise.all([
    import('puppeteer'), import('../src/psu/index.ts'), import('../src/psu/executable.ts'),
  ]);
  const executablePath = findExecutable(process.env);
  // No Chromium: every test that needs one says so itself (exit 3 with what to install).
  if (!executablePath) return;
  browser = await puppeteer.launch({
    executablePath,
    headless: true,
    // puppeteer adds --remote-debugging-port=0: Chromium binds it to 127.0.0.1 (its default) on a port the OS picks.
    args: [...CHROMIUM_ARGS, '--headless'],
    networkEnabled: false,
  });
  process.env.OBTPP_BROWSER_WS_ENDPOINT = browser.wsEndpoint();
}

export async function globalTeardown(): Promise<void> {
  await browser?.close();
  browser = undefined;
}
