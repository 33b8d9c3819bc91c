// A Chromium page for looking at a report file as a person would (its layout, 1280 px
// screenshots, the requests it makes): under `npm test`, a context of its own in the test run's
// one browser (OBTPP_BROWSER_WS_ENDPOINT, test/global-setup.ts), connected with puppeteer's
// Network domain (the tests watch the page's requests); run alone, a browser of its own, as
// obtpp would pick it. close() ends what was opened: the context and the connection, or the browser.
import puppeteer, { type Page } from 'puppeteer';
import { PsuBrowser } from '../../src/psu/index.ts';
import { ownContextsOnly } from '../../src/psu/shared-browser.ts';
import { launchInFolder } from './own-chromium.ts';

export async function reportPage(): Promise<{ page: Page; close(): Promise<void> }> {
  const endpoint = process.env.OBTPP_BROWSER_WS_ENDPOINT;
  if (endpoint) {
    // Only this context's pages: the other files' are theirs.
    const { targetFilter, track } = ownContextsOnly();
    const browser = track(await puppeteer.connect({ browserWSEndpoint: endpoint, defaultViewport: null, targetFilter }));
    const context = await browser.createBrowserContext();
    return {
      page: await context.newPage(),
      close: async () => {
        await context.close().catch(() => undefined);
        await browser.disconnect();
      },
    };
  }
  const browser = await launchInFolder({
    executablePath: PsuBrowser.executablePath() ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return { page: await browser.newPage(), close: () => browser.close() };
}
