/**
 * The PSU's side of the redirect flow, in headless Chromium (puppeteer): one browser per run,
 * launched on first use and reused; one incognito browser context per lane (journeys at once),
 * wiped through the DevTools protocol between journeys (cookies, storage of every origin the
 * journey visited, cache, other windows, and the tab itself where the journey wrote session
 * storage or had frames), so no journey sees another's session. The
 * redirect back to the TPP is caught inside the browser (request interception), so nothing has to
 * listen on the redirect URI. Two drivers for the bank's pages — the built-in one for the sandbox,
 * and the declarative one a profile spells out in steps — plus manual mode for real banks.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'puppeteer';
import { AuthorisationError, BrowserUnavailableError } from '../errors.ts';
import { findExecutable, requireExecutable, type Env, type FindOptions } from './executable.ts';
import { PageJourney } from './page-journey.ts';
import { sandboxDriver, stepsDriver } from './drivers.ts';
import { manualJourney } from './manual.ts';
import type { BrowserTrust, JourneyOptions, JourneyResult } from './types.ts';
import { BLOCKED_PATTERNS, documentAllowed, refuseUnsafeUrl, unsafeUrlProblem } from './url-policy.ts';

export type { BrowserTrust, JourneyOptions, JourneyResult } from './types.ts';
export { SANDBOX as SANDBOX_SELECTORS, describe as describeStep } from './drivers.ts';

export interface PsuBrowserOptions {
  /**
   * Where PUPPETEER_EXECUTABLE_PATH, PUPPETEER_CACHE_DIR, HOME, PATH and OBTPP_BROWSER_WS_ENDPOINT
   * are read (default process.env).
   */
  env?: Env;
  /** Default true. false shows the browser (debugging a profile's steps). */
  headless?: boolean;
  /** Default per-step time-out when a journey does not give one. */
  stepTimeoutMs?: number;
  /** Where manual mode prints, when a journey does not say. */
  log?: (line: string) => void;
}

/** Chromium's switches for the PSU browser (benchmarks launch with the same). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--disable-extensions',
  '--mute-audio',
  // One list (Chromium reads only the last --disable-features): BackForwardCache, so that a
  // reused page keeps no earlier journey's page alive for "back"; RenderDocument, so that a
  // navigation within the bank's site reuses its frame in the renderer instead of building a
  // new one for every document (about 40 % of a navigation's CPU; each document is still new).
  '--disable-features=BackForwardCache,RenderDocument',
];

/** How long connecting to a running browser (OBTPP_BROWSER_WS_ENDPOINT) may take. */
const CONNECT_BOUND_MS = 30_000;

/** How long the wipe waits for a journey's page to leave the bank's (a page that holds it on is closed instead). */
const WIPE_BLANK_MS = 5_000;

/** How long close() waits for contexts still being made or closed before it closes the browser. */
const CLOSE_WAIT_MS = 3_000;

/**
 * The folders of the Chromiums this process launched and has not removed yet (each its profile and
 * its temporary files), with each one's process once it runs. A process that ends before close()
 * has removed them (process.exit on a bound, a caller that never closes) kills those Chromiums and
 * removes their folders as it exits: a profile holds what the bank's pages left (cache, storage).
 * Whole test runs left one such folder in the temporary folder each, from a process that ended
 * before its browser had closed; and a Chromium killed while it started left a temporary file of
 * its own (.org.chromium.Chromium.*) there, until its TMPDIR moved into its folder.
 */
const profileDirs = new Map<string, number | undefined>();
let removeOnExit = false;
function keepProfileDir(dir: string): void {
  profileDirs.set(dir, undefined);
  if (removeOnExit) return;
  removeOnExit = true;
  process.once('exit', () => {
    for (const [d, chromium] of profileDirs) {
      try {
        // puppeteer starts Chromium in a process group of its own (behind a launcher script on Debian).
        if (chromium) process.kill(-chromium, 'SIGKILL');
      } catch {
        /* gone already */
      }
      try {
        rmSync(d, { recursive: true, force: true, maxRetries: 2 });
      } catch {
        /* nothing more to do as the process ends */
      }
    }
  });
}
async function removeProfileDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  profileDirs.delete(dir);
}

export class PsuBrowser {
  private readonly env: Env;
  private readonly headless: boolean;
  private readonly stepTimeoutMs: number;
  private readonly log?: (line: string) => void;
  /** One browser per trust setting (normally one per run: a run has one profile). */
  private readonly browsers = new Map<string, Slot>();
  /** Contexts being closed in the background (awaited by close()). */
  private readonly closing = new Set<Promise<unknown>>();
  private closed = false;
  /** Journeys that started on a lane an earlier journey had wiped (diagnostics: tests and benchmarks). */
  private reused = 0;

  /**
   * Chromium to use: PUPPETEER_EXECUTABLE_PATH, else puppeteer's own download, else /usr/bin/chromium
   * or chromium / google-chrome on PATH — a headless run preferring Chromium's headless shell where
   * one is installed; undefined when there is none (launching then fails with
   * BrowserUnavailableError, exit 3).
   */
  static executablePath(env: Env = process.env, options: FindOptions = {}): string | undefined {
    return findExecutable(env, options);
  }

  constructor(options: PsuBrowserOptions = {}) {
    this.env = options.env ?? process.env;
    this.headless = options.headless ?? true;
    this.stepTimeoutMs = options.stepTimeoutMs ?? 10_000;
    this.log = options.log;
  }

  /**
   * Launches Chromium now (and prepares the first context) instead of at the first journey, so a
   * caller that knows journeys are coming can overlap the launch with its own start-up.
   */
  async warm(trust: BrowserTrust = {}): Promise<void> {
    const slot = await this.launched(trust);
    this.prepareSpare(slot);
  }

  /** The browser for a trust setting, launched on first use (and again if it died). */
  private async launched(trust: BrowserTrust = {}): Promise<Slot> {
    if (this.closed) throw new BrowserUnavailableError('the PSU browser has been closed');
    const spki = trust.caPem ? spkiHashes(trust.caPem) : [];
    const key = `${trust.insecure ? 'insecure' : 'strict'}:${spki.join(',')}`;
    const slot = this.browsers.get(key);
    if (slot) {
      const b = await slot.browser.catch(() => undefined);
      if (b?.connected) return slot;
      this.browsers.delete(key);
    }
    const fresh: Slot = { browser: Promise.resolve(undefined as never), idle: [], contexts: new Set() };
    const endpoint = this.env.OBTPP_BROWSER_WS_ENDPOINT?.trim();
    // A running browser serves journeys that need no trust of their own: the switches of a bank on
    // a private CA (or of an insecure profile) are the launch's, and a browser others share must
    // not be told to accept what they would refuse.
    if (endpoint && this.headless && !spki.length && !trust.insecure) {
      fresh.connected = true;
      fresh.browser = this.connect(endpoint);
    } else fresh.browser = this.launch(spki, !!trust.insecure, (dir) => (fresh.userDataDir = dir));
    fresh.browser.catch(() => this.browsers.get(key) === fresh && this.browsers.delete(key));
    this.browsers.set(key, fresh);
    await fresh.browser;
    return fresh;
  }

  /**
   * A context and its page for the next journey: a lane a finished journey has wiped, else one
   * prepared in advance, else a new one. Wiping reuses the context's renderer, which costs a
   * fraction of a new context's; a lane whose wipe failed is closed and replaced.
   */
  private async freshPage(slot: Slot): Promise<Lane> {
    // Taken synchronously: two journeys starting together must not get the same lane.
    const taken = slot.idle.shift();
    const ready = taken ? await taken.catch(() => undefined) : undefined;
    if (!ready || ready.page.isClosed()) return newLane(slot);
    if (ready.wiped) this.reused++;
    return ready;
  }

  /** Prepares a context for the next journey while nothing else runs, unless one is ready already. */
  private prepareSpare(slot: Slot): void {
    if (slot.idle.length || this.closed) return;
    const spare = newLane(slot);
    spare.catch(() => undefined);
    slot.idle.push(spare);
  }

  /** Closes a lane's context in the background (awaited by close()). */
  private discard(lane: Lane): void {
    this.track(lane.context.close().catch(() => undefined));
  }

  /** Work on the browser close() waits for (bounded) before closing it. */
  private track(work: Promise<unknown>): void {
    this.closing.add(work);
    void work.then(() => this.closing.delete(work));
  }

  /**
   * The browser at OBTPP_BROWSER_WS_ENDPOINT (a Chrome or Chromium started with
   * --remote-debugging-port, e.g. one browser for a CI job's many runs): each journey still gets
   * a context of its own, wiped between journeys, and close() closes those and disconnects,
   * leaving the browser running for its owner.
   */
  private async connect(endpoint: string): Promise<Browser> {
    const [{ default: puppeteer }, { DisposingTransport, ownContextsOnly }] = await Promise.all([import('puppeteer'), import('./shared-browser.ts')]);
    try {
      const transport = await DisposingTransport.open(endpoint);
      // Only the targets of the contexts made here: the pages and tabs of others sharing the
      // browser are theirs to attach to and resume (attaching to one being made by another
      // client can wait on that client).
      const { targetFilter, track } = ownContextsOnly();
      const connecting = puppeteer.connect({ transport, networkEnabled: false, defaultViewport: null, targetFilter }).then(track);
      // puppeteer sets no bound on connecting: a browser that never finishes it is unavailable, not a hang.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => {
        void connecting.then((late) => late.disconnect(), () => undefined);
        transport.close();
        reject(new Error(`the connection did not complete within ${CONNECT_BOUND_MS / 1000} s`));
      }, CONNECT_BOUND_MS)));
      return await Promise.race([connecting, bound]).finally(() => clearTimeout(timer));
    } catch (error) {
      throw new BrowserUnavailableError(`the browser at OBTPP_BROWSER_WS_ENDPOINT (${endpoint}) cannot be reached: ${(error as Error).message.split('\n')[0]}`, {
        cause: error,
        hint: 'start that browser again, or unset OBTPP_BROWSER_WS_ENDPOINT and obtpp launches Chromium itself',
      });
    }
  }

  private async launch(spki: string[], insecure: boolean, onDir: (dir: string) => void): Promise<Browser> {
    const executablePath = requireExecutable(this.env, { headless: this.headless });
    const { default: puppeteer } = await import('puppeteer');
    // One folder holds all the Chromium leaves on disk: its profile, and its temporary files (its
    // TMPDIR), which a Chromium killed as the process ends (see keepProfileDir) cannot remove.
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-chromium-'));
    keepProfileDir(dir);
    onDir(dir);
    try {
      await Promise.all([mkdir(join(dir, 'profile')), mkdir(join(dir, 'tmp'))]);
      const launched = await puppeteer.launch({
        executablePath,
        headless: this.headless,
        pipe: true,
        userDataDir: join(dir, 'profile'),
        env: { ...process.env, TMPDIR: join(dir, 'tmp') },
        acceptInsecureCerts: insecure,
        // No Network domain on the pages: the journeys read no request or response through
        // puppeteer (the redirect is caught with Fetch, the wipe calls its own commands), and
        // the events of every request cost both processes CPU (about 6 % of a journey).
        networkEnabled: false,
        // A bank on a private CA (the profile's mtls.ca): Chromium trusts chains holding that CA's key, and nothing else new.
        args: [...CHROMIUM_ARGS, ...(this.headless ? ['--headless'] : []), ...(spki.length ? [`--ignore-certificate-errors-spki-list=${spki.join(',')}`] : [])],
        // The caller owns the process: no signal handlers installed on its behalf.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      if (profileDirs.has(dir)) profileDirs.set(dir, launched.process()?.pid);
      // A Chromium that is gone is not killed at exit: its process group's number may serve another by then.
      launched.once('disconnected', () => profileDirs.has(dir) && profileDirs.set(dir, undefined));
      return launched;
    } catch (error) {
      await removeProfileDir(dir);
      throw new BrowserUnavailableError(`Chromium at ${executablePath} could not be started: ${(error as Error).message.split('\n')[0]}`, { cause: error });
    }
  }

  /**
   * Walks the PSU through the bank's pages from the authorization URL until the bank redirects to
   * `options.redirectUri`, and returns that URL (code or error, with state: `Auth.finish` checks
   * them). Failures are AuthorisationError: `login_failed` (with the page's message),
   * `consent_error`, `step_timeout` / `step_failed` (with step number, URL and a screenshot as
   * evidence), `journey_timeout`.
   */
  async journey(url: string, options: JourneyOptions): Promise<JourneyResult> {
    // Before anything opens it: the URL is the bank's (see url-policy.ts).
    refuseUnsafeUrl(url, options.urlName ?? 'authorization URL', !!options.trust?.insecure);
    if (options.driver.kind === 'manual') {
      return manualJourney(url, { ...options, log: options.log ?? this.log });
    }
    const opts: JourneyOptions = { ...options, stepTimeoutMs: options.stepTimeoutMs || this.stepTimeoutMs };
    const walk = watchJourney(opts, await this.launched(opts.trust));
    try {
      await this.openJourneyPage(walk);
      return await driveJourney(walk, url);
    } finally {
      this.releaseJourney(walk);
    }
  }

  /**
   * Stage 2: a page (a fresh or wiped context), the watch on where it goes, and the catch of the
   * redirect back to the TPP, each within the journey's time-out: taking a page and setting up the
   * catch are DevTools calls too, and a browser that stopped answering must not hold the journey.
   */
  private async openJourneyPage(walk: JourneyWalk): Promise<void> {
    const { opts, timeout } = walk;
    walk.taken = this.freshPage(walk.slot);
    const lane = (walk.lane = await Promise.race([walk.taken, timeout]));
    lane.page.on('framenavigated', walk.visited);
    // The listeners (onTab) write into the lane's traces as they are when an event comes.
    lane.traces = { sessionStorage: false, frames: false };
    const journey = (walk.journey = new PageJourney(lane.page, opts));
    const caught = catchRedirect(lane.cdp, opts.redirectUri, () => (journey.done = true), (blocked) => walk.unsafe('a local resource', unsafeUrlProblem(blocked, walk.insecure) ?? 'not http(s)'));
    caught.catch(() => undefined);
    walk.redirect = await Promise.race([caught, timeout]);
  }

  /**
   * Stage 4: the clock stopped, and the page given back: a journey that came back leaves its
   * context to be wiped for the next one; one cut short (it may still be loading or waiting) is
   * closed, and a page that came after the time-out is closed when it comes.
   */
  private releaseJourney(walk: JourneyWalk): void {
    clearTimeout(walk.timer);
    const { lane, taken, slot } = walk;
    // close() waits a little for a late lane (puppeteer's page creation, left waiting on a browser that closed, would hold the process).
    if (!lane && taken) this.track(taken.then((late) => this.discard(late), () => undefined));
    if (!lane) return;
    lane.page.off('framenavigated', walk.visited);
    // Wiping or closing the context is Chromium's business; the journey's answer need not wait for it.
    if (walk.finished && !this.closed) {
      const wiped = wipe(lane, walk.origins, walk.redirect).catch(() => (this.discard(lane), undefined));
      slot.idle.push(wiped);
    } else {
      this.discard(lane);
      this.prepareSpare(slot);
    }
  }

  /** How many journeys reused a context an earlier journey left, wiped (the rest got a new one). */
  get lanesReused(): number {
    return this.reused;
  }

  /** Closes Chromium and removes its profile directory (a browser it connected to: its contexts, and disconnects). */
  async close(): Promise<void> {
    this.closed = true;
    const slots = [...this.browsers.values()];
    this.browsers.clear();
    // Bounded: a browser that stopped answering is closed (or killed by puppeteer) regardless.
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([...this.closing]), new Promise((r) => (bound = setTimeout(r, CLOSE_WAIT_MS)))]);
    clearTimeout(bound);
    for (const slot of slots) {
      // Contexts still being prepared or wiped are finished and closed first: Chromium exits promptly then.
      for (const idle of slot.idle.splice(0)) {
        const lane = await idle.catch(() => undefined);
        await lane?.context.close().catch(() => undefined);
      }
      const b = await slot.browser.catch(() => undefined);
      if (slot.connected) {
        // Every context this browser made goes, a journey's cut short too; the browser is its owner's.
        await Promise.all([...slot.contexts].map((c) => c.close().catch(() => undefined)));
        await b?.disconnect().catch(() => undefined);
      } else await b?.close().catch(() => undefined);
      if (slot.userDataDir) await removeProfileDir(slot.userDataDir);
    }
  }
}

/** base64(SHA-256(SubjectPublicKeyInfo)) of every certificate in a PEM bundle, as Chromium's SPKI list wants. */
function spkiHashes(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((b) => {
    const spki = new X509Certificate(b).publicKey.export({ type: 'spki', format: 'der' });
    return createHash('sha256').update(spki).digest('base64');
  });
}

/** One PSU journey in the browser, as its stages (PsuBrowser.journey) share it. */
interface JourneyWalk {
  opts: JourneyOptions;
  slot: Slot;
  insecure: boolean;
  /** The origins the PSU's pages came from (their storage is wiped after the journey). */
  origins: Set<string>;
  /** Rejects when the bank's pages led the PSU somewhere obtpp does not show a PSU. */
  refused: Promise<never>;
  unsafe(what: string, problem: string): void;
  /** Checks each document a frame navigated to. */
  visited(frame: { url(): string; parentFrame(): unknown }): void;
  /** Rejects once the journey's whole time is up (its evidence the page as it is then). */
  timeout: Promise<never>;
  timer?: NodeJS.Timeout;
  /** The lane asked for, and the one taken (absent when the time ran out first). */
  taken?: Promise<Lane>;
  lane?: Lane;
  journey?: PageJourney;
  redirect?: Catcher;
  /** The journey came back to the TPP (its context may be wiped and reused). */
  finished: boolean;
}

/**
 * Stage 1: the watch and the clock. A document the bank's pages led to that is not an http(s) page
 * (or, in the main frame, http where only https is allowed) ends the journey: the rule fails, and
 * no screenshot shows it. The journey's time-out holds from here.
 */
function watchJourney(opts: JourneyOptions, slot: Slot): JourneyWalk {
  let refuse!: (error: AuthorisationError) => void;
  const refused = new Promise<never>((_r, reject) => (refuse = reject));
  refused.catch(() => undefined);
  const insecure = !!opts.trust?.insecure;
  const redirectTarget = new URL(opts.redirectUri);
  const walk: JourneyWalk = {
    opts, slot, insecure, origins: new Set<string>(), refused, finished: false, timeout: undefined as never,
    unsafe(what, problem) {
      const j = walk.journey;
      if (j) j.unsafe = true;
      refuse(new AuthorisationError('unsafe_url', `the bank's pages led the PSU to ${what} ${problem}: obtpp shows the PSU only http(s) pages`, { evidence: { step: j?.stepNumber, description: j?.stepDescription } }));
    },
    visited: (frame) => {
      const at = frame.url();
      const origin = originOf(at);
      if (origin) walk.origins.add(origin);
      if (at.startsWith('chrome-error:')) return; // Chromium's own page for a load that failed (a refused one too)
      if (!documentAllowed(at)) return walk.unsafe('a document at', unsafeUrlProblem(at, insecure) ?? 'not http(s)');
      if (frame.parentFrame()) return;
      const u = new URL(at);
      if (u.origin === redirectTarget.origin && u.pathname === redirectTarget.pathname) return;
      const problem = at.startsWith('about:') ? undefined : unsafeUrlProblem(at, insecure);
      if (problem) walk.unsafe('a page at', problem);
    },
  };
  walk.timeout = new Promise<never>((_r, reject) => {
    walk.timer = setTimeout(async () => {
      const j = walk.journey;
      if (j?.done) return;
      const evidence = j ? await j.evidence() : undefined;
      const last = j ? `step ${j.stepNumber} (${j.stepDescription})` : 'preparing the browser page';
      reject(new AuthorisationError('journey_timeout', `the PSU journey did not come back to ${opts.redirectUri} within ${opts.totalTimeoutMs} ms (last: ${last})`, { evidence }));
    }, opts.totalTimeoutMs);
  });
  walk.timeout.catch(() => undefined);
  return walk;
}

/**
 * Stage 3: the bank's pages, walked by the profile's driver from the authorization URL until the
 * bank sends the PSU back (or the done selector shows, for a page that never does), whichever of
 * the redirect, a refusal, the driver's end or the time-out comes first.
 */
async function driveJourney(walk: JourneyWalk, url: string): Promise<JourneyResult> {
  const { opts, refused, timeout } = walk;
  const journey = walk.journey!;
  const page = walk.lane!.page;
  const callback = walk.redirect!;
  const drive = async (): Promise<void> => {
    await journey.step(0, 'open the authorization URL', async () => {
      await page.goto(url, { waitUntil: 'domcontentloaded', timeout: journey.budget() });
    });
    if (journey.done) return;
    const driver = opts.driver;
    if (driver.kind === 'sandbox') await sandboxDriver(journey);
    else if (driver.kind === 'steps') await stepsDriver(journey, driver.steps, driver.loginError, driver.consentError);
    if (opts.doneSelector) {
      const done = opts.doneSelector;
      if (!journey.done) await journey.step(journey.steps.length, `wait for ${done}`, () => journey.waitFor(done));
      journey.done = true;
    } else if (!journey.done) await journey.step(journey.steps.length, `wait for the redirect back to ${opts.redirectUri}`, () => journey.watchErrors());
  };
  const driven = drive().then(
    () => (opts.doneSelector ? page.url() : callback.url),
    (error: unknown) => {
      // A step that broke because the page went back to the TPP is no failure.
      if (journey.done) return callback.url;
      throw error;
    },
  );
  // Whichever loses the race must not become an unhandled rejection.
  driven.catch(() => undefined);
  const callbackUrl = await Promise.race([callback.url, refused, driven.then((u) => Promise.race([u, refused])), timeout]);
  // Only a journey that came back is reused: one cut short may still be loading or waiting.
  walk.finished = journey.done;
  if (walk.finished && page.url()) walk.visited(page.mainFrame());
  return {
    callbackUrl,
    offeredAccounts: journey.offeredAccounts,
    selectedAccounts: journey.selectedAccounts,
    debtorChosen: journey.debtorChosen,
    debtorOffered: journey.debtorOffered,
    loginOrigin: journey.loginOrigin,
    steps: journey.steps,
  };
}

/**
 * Resolves with the first request the page makes to the redirect URI (same origin and path),
 * and aborts it inside the browser, so nothing needs to listen there. Only requests under the
 * redirect URI are paused (CDP Fetch with a URL pattern): the bank's own requests go untouched.
 *
 * Aborted, not answered: the page stays on the bank's site. A document of the TPP's origin would
 * be a cross-site navigation, for which Chromium starts a renderer process of its own (site
 * isolation), and the lane's next journey another for the bank's site: about 300 ms of
 * Chromium's CPU per journey wherever the redirect URI is not on the bank's site, as at every
 * real bank (docs/testing.md). The wipe then takes the page to about:blank.
 */
async function catchRedirect(cdp: CDPSession, redirectUri: string, onCaught: () => void, onBlocked: (url: string) => void): Promise<Catcher> {
  const target = new URL(redirectUri);
  const prefix = target.origin + target.pathname;
  let resolve!: (url: string) => void;
  const caught = new Promise<string>((r) => (resolve = r));
  const onPaused = (event: { requestId: string; request: { url: string; urlFragment?: string } }) => {
    let hit = false;
    try {
      const u = new URL(event.request.url);
      hit = u.origin === target.origin && u.pathname === target.pathname;
    } catch {
      hit = false;
    }
    if (!/^https?:/i.test(event.request.url)) {
      // A local file (see BLOCKED_PATTERNS): failed before Chromium reads it.
      void cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
      onBlocked(event.request.url);
    } else if (hit) {
      onCaught();
      // The fragment never goes on the wire: DevTools gives it apart (the hybrid flow answers there).
      resolve(event.request.url + (event.request.urlFragment ?? ''));
      void cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Aborted' }).catch(() => undefined);
    } else {
      void cdp.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => undefined);
    }
  };
  cdp.on('Fetch.requestPaused', onPaused);
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: `${prefix.replace(/[\\*?]/g, (c) => `\\${c}`)}*`, requestStage: 'Request' }, ...BLOCKED_PATTERNS] });
  return {
    url: caught,
    dispose: async () => {
      cdp.off('Fetch.requestPaused', onPaused);
      await cdp.send('Fetch.disable');
    },
  };
}

/** The redirect catcher of one journey. */
interface Catcher {
  url: Promise<string>;
  /** Stops catching (the lane's next journey has its own redirect URI). */
  dispose(): Promise<void>;
}

/** A new incognito context with one page and a CDP session on it. */
async function newLane(slot: Slot): Promise<Lane> {
  const browser = await slot.browser;
  const context = await browser.createBrowserContext();
  slot.contexts.add(context);
  return onTab(context, await context.newPage());
}

/**
 * A lane on a tab: its CDP session, told of every DOM storage write (only the session-storage
 * ones matter, see {@link wipe}) and of every frame attached, into the lane's current traces.
 */
async function onTab(context: BrowserContext, page: Page): Promise<Lane> {
  const cdp = await page.createCDPSession();
  const lane: Lane = { context, page, cdp, traces: { sessionStorage: false, frames: false } };
  const write = (e: { storageId: { isLocalStorage: boolean } }) => void (e.storageId.isLocalStorage || (lane.traces.sessionStorage = true));
  cdp.on('DOMStorage.domStorageItemAdded', write);
  cdp.on('DOMStorage.domStorageItemUpdated', write);
  page.on('frameattached', () => void (lane.traces.frames = true));
  await cdp.send('DOMStorage.enable');
  return lane;
}

/**
 * Everything a journey left in its context, gone: every cookie of the context, the storage of
 * every origin its frames showed (local storage, IndexedDB, cache storage, service workers…), the
 * HTTP cache and any window the bank opened (the back-forward cache is off, so no earlier page
 * stays alive either). Session storage belongs to the tab, and not every Chromium clears it with
 * the origin's other storage (150 keeps it): a journey whose pages wrote session storage, or that
 * had any frame inside its pages (whose writes this tab's session is not told of), leaves its
 * tab, and the next journey gets a new one (a new session-storage namespace). Otherwise the tab is
 * kept, and its renderer serves the next journey. Either way the page goes to about:blank first:
 * no script of the bank's runs on, or writes anything after the wipe. Returns the lane for the
 * next journey; throws when any of it fails (about:blank not reached within WIPE_BLANK_MS too),
 * and the lane is then closed, never reused.
 */
async function wipe(lane: Lane, origins: Set<string>, redirect: Catcher | undefined): Promise<Lane> {
  const { context, page, cdp } = lane;
  await redirect?.dispose();
  await page.goto('about:blank', { timeout: WIPE_BLANK_MS });
  for (const other of await context.pages()) if (other !== page) await other.close();
  await cdp.send('Network.clearBrowserCookies');
  await cdp.send('Network.clearBrowserCache');
  for (const origin of origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  if ((await context.cookies()).length) throw new Error('cookies survived the wipe');
  // Decided last: a write's event sent just before the journey came back has arrived by now.
  const next = lane.traces.sessionStorage || lane.traces.frames ? await onTab(context, await context.newPage()) : lane;
  if (next !== lane) await page.close();
  next.wiped = true;
  return next;
}

/** The origin of a URL that can hold cookies or storage (http, https), else undefined. */
function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

interface Slot {
  browser: Promise<Browser>;
  userDataDir?: string;
  /** Connected to a running browser (OBTPP_BROWSER_WS_ENDPOINT), not launched: close() disconnects. */
  connected?: boolean;
  /** The contexts made in it (a connected browser's close() closes each: others' stay). */
  contexts: Set<BrowserContext>;
  /** Lanes ready for a journey, or being prepared or wiped for one; undefined when the wipe failed. */
  idle: Array<Promise<Lane | undefined>>;
}

/** One lane: an incognito context, its page, and a CDP session on that page. */
interface Lane {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  /** True when an earlier journey used the context (and the wipe cleared it). */
  wiped?: boolean;
  /** What the current journey left in its tab that a wipe of the context does not remove. */
  traces: { sessionStorage: boolean; frames: boolean };
}
