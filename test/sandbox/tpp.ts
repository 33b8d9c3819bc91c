/**
 * A minimal TPP for the sandbox's own tests: openid-client for tokens, puppeteer for the PSU's
 * pages, undici for API calls. Written here, not taken from src/client, so that the bank is
 * tested by something that shares none of the harness's code.
 */
import { existsSync } from 'node:fs';
import * as client from 'openid-client';
import puppeteer from 'puppeteer';
import type { Browser, CDPSession, Page } from 'puppeteer';
import { Agent, fetch as undiciFetch } from 'undici';
import { SignJWT } from 'jose';
import type { Sandbox, Variant } from '../../src/sandbox/index.ts';
import { ownContextsOnly } from '../../src/psu/shared-browser.ts';
import { launchInFolder } from '../helpers/own-chromium.ts';

export type Json = any;

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

/**
 * The headless Chromium of a test file. Under `npm test` (OBTPP_BROWSER_WS_ENDPOINT set by
 * test/global-setup.ts) it is the run's one browser, connected to: the journeys below run in
 * contexts of this file's own (see journeyPage), and close() closes those and disconnects. A file whose sandbox serves
 * TLS with a certificate of its own asks for `insecure`: that is a switch of the whole browser
 * (it would reach the other files' contexts), so such a file launches its own, as does every file
 * run alone: Debian's headless shell where installed (lighter), else Chromium.
 */
export async function launchBrowser(o: { insecure?: boolean; network?: boolean } = {}): Promise<Browser> {
  const endpoint = process.env.OBTPP_BROWSER_WS_ENDPOINT;
  // puppeteer's Network domain on every page (its request and response events) only for a file that
  // watches requests: the events of every request cost both processes CPU, as in PsuBrowser.
  const networkEnabled = o.network ?? false;
  if (endpoint && !o.insecure) {
    // Only this file's own contexts: the other files' pages are theirs.
    const { targetFilter, track } = ownContextsOnly();
    const browser = track(await puppeteer.connect({ browserWSEndpoint: endpoint, defaultViewport: null, networkEnabled, targetFilter }));
    browser.close = async () => {
      for (const page of idlePages.get(browser)?.splice(0) ?? []) await page.browserContext().close().catch(() => undefined);
      await browser.disconnect();
    };
    return browser;
  }
  return launchInFolder({
    executablePath: existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium',
    headless: true,
    acceptInsecureCerts: true,
    networkEnabled,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Fills the sandbox login page's username and password, each as one text insertion (input events,
 * as a person's typing fires them), not key by key: every key is a DevTools round trip and an
 * input event in the page. Each field is focused by the page's own `focus()` (see {@link inPage}).
 */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await focus(page, '[data-testid=username]');
  await page.keyboard.sendCharacter(username);
  await focus(page, '[data-testid=password]');
  await page.keyboard.sendCharacter(password);
}

/**
 * The journeys' work in a page is done by the page's own DOM, one `page.evaluate` each, as obtpp's
 * PSU does (src/psu/page-journey.ts): puppeteer's element queries, waits and mouse clicks first
 * install its helper script in every document they touch, which doubled a journey's Chromium CPU
 * here (about 420 against 200 ms). A click is the DOM's `element.click()`: on these pages' forms,
 * the same submission a person's click makes.
 */
const inPage = {
  focus: (selector: string) => {
    const el = document.querySelector<HTMLElement>(selector);
    el?.focus();
    return !!el;
  },
  click: (selector: string) => {
    const el = document.querySelector<HTMLElement>(selector);
    el?.click();
    return !!el;
  },
  text: (selector: string) => document.querySelector(selector)?.textContent ?? null,
};

async function focus(page: Page, selector: string): Promise<void> {
  if (!(await page.evaluate(inPage.focus, selector))) throw new Error(`no ${selector} on ${page.url()}`);
}

/** Clicks what `selector` finds, and waits for the navigation the click starts (a form's submission). */
async function clickAndWait(page: Page, selector: string): Promise<void> {
  const navigated = page.waitForNavigation({ waitUntil: 'domcontentloaded' });
  // The navigation may replace the document before the call returns: the click happened.
  const clicked = await page.evaluate(inPage.click, selector).catch((e: Error) => {
    if (/Execution context was destroyed|Cannot find context with specified id|Inspected target navigated/i.test(e.message)) return true;
    throw e;
  });
  if (!clicked) {
    navigated.catch(() => undefined);
    throw new Error(`no ${selector} on ${page.url()}`);
  }
  await navigated;
}

export interface AuthoriseOptions {
  psu?: string;
  /** AccountIds to tick (AIS); default the PSU's first account. */
  accounts?: string[];
  /** AccountId of the debtor to choose (payment without DebtorAccount). */
  debtor?: string;
  decision?: 'approve' | 'reject';
  /** Extra claims/params, or the request-object route. */
  jar?: boolean;
  /** Send this intent id instead of the one given (tests of binding). */
  claimsIntent?: string;
  /** Called on the consent page before deciding, to inspect or tamper with it. */
  onConsentPage?: (page: Page) => Promise<void>;
}

export interface AuthoriseResult {
  callback: URL;
  tokens?: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  error?: string;
}

/**
 * The pages the PSU's journeys run in, per browser. A journey that came back to the TPP leaves its
 * page (and its context) to the next one, on about:blank and with the bank's cookies cleared (the
 * sandbox keeps its sessions in cookies, nothing in storage); one that stopped short closes its
 * context. A context per journey costs Chromium about five times the CPU of a reused one (a
 * renderer started each time: about 410 against 85 ms of Chromium CPU per journey here).
 */
const idlePages = new WeakMap<Browser, Page[]>();
/** Each reused page's DevTools session, for clearing its context's cookies (one per page, kept with it). */
const sessions = new WeakMap<Page, CDPSession>();

export async function journeyPage(browser: Browser): Promise<Page> {
  for (let page = idlePages.get(browser)?.pop(); page; page = idlePages.get(browser)?.pop()) if (!page.isClosed()) return page;
  return (await browser.createBrowserContext()).newPage();
}

export async function release(browser: Browser, page: Page, reusable: boolean): Promise<void> {
  const context = page.browserContext();
  if (reusable && !page.isClosed()) {
    try {
      await page.goto('about:blank');
      let cdp = sessions.get(page);
      if (!cdp) sessions.set(page, (cdp = await page.createCDPSession()));
      await cdp.send('Network.clearBrowserCookies');
      if ((await context.cookies()).length === 0 && (await context.pages()).length === 1) {
        let idle = idlePages.get(browser);
        if (!idle) idlePages.set(browser, (idle = []));
        idle.push(page);
        return;
      }
    } catch {
      // Not reusable after all: closed below.
    }
  }
  await context.close().catch(() => undefined);
}

/** One TPP client of the sandbox. */
export class Tpp {
  readonly sb: Sandbox;
  readonly config: client.Configuration;
  readonly dispatcher?: Agent;
  readonly clientIndex: number;

  private constructor(sb: Sandbox, config: client.Configuration, clientIndex: number, dispatcher?: Agent) {
    this.sb = sb;
    this.config = config;
    this.clientIndex = clientIndex;
    this.dispatcher = dispatcher;
  }

  static async connect(sb: Sandbox, clientIndex = 0): Promise<Tpp> {
    const c = sb.clients[clientIndex];
    const dispatcher = sb.tls
      ? new Agent({ connect: { ca: sb.tls.caPem, ...(c.certPem ? { cert: c.certPem, key: c.keyPem } : {}) } })
      : undefined;
    const auth = c.authMethod === 'client_secret_basic' ? client.ClientSecretBasic(c.clientSecret!)
      : c.authMethod === 'private_key_jwt' ? client.PrivateKeyJwt({ key: await importKey(c.privateKeyPem!), kid: c.kid })
        : client.TlsClientAuth();
    const options: client.DiscoveryRequestOptions = sb.tls
      ? { [client.customFetch]: (url: string, init: any) => undiciFetch(url, { ...init, dispatcher }) as any }
      : { execute: [client.allowInsecureRequests] };
    const config = await client.discovery(new URL(sb.issuer), c.clientId, c.authMethod === 'tls_client_auth' ? { use_mtls_endpoint_aliases: false } : undefined, auth, options);
    return new Tpp(sb, config, clientIndex, dispatcher);
  }

  async cc(scope: string): Promise<string> {
    const t = await client.clientCredentialsGrant(this.config, { scope });
    return t.access_token;
  }

  /** `sign: false` sends a payment POST without x-jws-signature (it is signed with the sandbox's trusted TPP key otherwise). */
  async api(variant: Variant, method: string, path: string, o: { token?: string; body?: unknown; headers?: Record<string, string>; sign?: boolean } = {}): Promise<ApiAnswer> {
    const headers: Record<string, string> = { accept: 'application/json', ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const sent = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    if (method === 'POST' && /^\/domestic-payments$/.test(path) && sent !== undefined && o.sign !== false && !headers['x-jws-signature']) {
      headers['x-jws-signature'] = await tppSignature(this.sb, sent);
    }
    const res = await undiciFetch(this.sb.baseUrls[variant] + path, {
      method, headers, body: sent,
      dispatcher: this.dispatcher,
    });
    const text = await res.text();
    let body: Json;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers as unknown as Headers, body, text };
  }

  /** The whole PSU journey: authorization URL, login, consent page, decision, code exchange. */
  async authorise(browser: Browser, intentId: string, scope: string, o: AuthoriseOptions = {}): Promise<AuthoriseResult> {
    const c = this.sb.clients[this.clientIndex];
    const { url, verifier, state, nonce } = await this.authorizationUrl(o.claimsIntent ?? intentId, scope, o.jar);
    const page = await journeyPage(browser);
    let done = false;
    try {
      await page.goto(url.href);
      const psu = this.sb.psus.find((p) => p.username === (o.psu ?? 'alice'))!;
      await signIn(page, psu.username, psu.password);
      // The bank's redirects after the login end on its consent page (or its error), loaded.
      await clickAndWait(page, '[data-testid=login]');
      if (o.onConsentPage) await o.onConsentPage(page);
      const error = await page.evaluate(inPage.text, '[data-testid=consent-error]');
      if (error !== null) throw new ConsentPageError(error);
      if ((await page.evaluate(inPage.text, '[data-testid=consent-page]')) === null) throw new ConsentPageError(`no consent page at ${page.url()}`);
      if ((o.decision ?? 'approve') === 'approve') {
        for (const id of o.accounts ?? ((await page.evaluate(inPage.text, '[data-testid=account-option]')) !== null ? [psu.accounts[0].AccountId] : [])) {
          if (!(await page.evaluate(inPage.click, `[data-testid=account-option][value="${id}"]`))) throw new Error(`no account option ${id} on the consent page`);
        }
        if (o.debtor && !(await page.evaluate(inPage.click, `[data-testid=debtor-option][value="${o.debtor}"]`))) throw new Error(`no debtor option ${o.debtor} on the consent page`);
        await clickAndWait(page, '[data-testid=approve]');
      } else {
        await clickAndWait(page, '[data-testid=reject]');
      }
      const callback = new URL(page.url());
      if (!callback.href.startsWith(c.redirectUri)) {
        throw new ConsentPageError((await page.evaluate(inPage.text, '[data-testid=consent-error]')) ?? `stopped at ${callback.href}`);
      }
      done = true;
      if (callback.searchParams.get('error')) return { callback, error: callback.searchParams.get('error')! };
      const tokens = await client.authorizationCodeGrant(this.config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
      return { callback, tokens };
    } finally {
      await release(browser, page, done);
    }
  }

  /** The authorization request for one consent: intent in the claims parameter, or in a signed request object. */
  async authorizationUrl(intentId: string, scope: string, jar = false) {
    const c = this.sb.clients[this.clientIndex];
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const intent = { value: intentId, essential: true };
    const params: Record<string, string> = {
      redirect_uri: c.redirectUri, scope: `openid ${scope}`, state, nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      claims: JSON.stringify({ id_token: { openbanking_intent_id: intent }, userinfo: { openbanking_intent_id: intent } }),
    };
    const url = jar
      ? await client.buildAuthorizationUrlWithJAR(this.config, params, { key: await importKey(c.privateKeyPem!), kid: c.kid })
      : client.buildAuthorizationUrl(this.config, params);
    return { url, verifier, state, nonce };
  }

  /**
   * Sends an authorization request whose request object has one defect (or none), redirects not
   * followed; answers where the bank sent the browser (`login` for its interaction pages).
   */
  async requestObject(intentId: string, scope: string, defect: 'well-formed' | 'none' | 'no-exp' | 'expired'): Promise<{ status: number; location?: string; went: 'login' | 'error' | 'other'; error?: string }> {
    const c = this.sb.clients[this.clientIndex];
    const now = Math.floor(Date.now() / 1000);
    const claim = { openbanking_intent_id: { value: intentId, essential: true } };
    const payload: Record<string, unknown> = {
      client_id: c.clientId, redirect_uri: c.redirectUri, response_type: 'code', scope: `openid ${scope}`, state: 'st', nonce: 'no',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
      claims: { id_token: claim }, iss: c.clientId, aud: this.sb.issuer, iat: now, nbf: now, exp: now + 300,
    };
    if (defect === 'no-exp') delete payload.exp;
    if (defect === 'expired') Object.assign(payload, { iat: now - 4000, nbf: now - 4000, exp: now - 3600 });
    const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const request = defect === 'none'
      ? `${part({ alg: 'none' })}.${part(payload)}.`
      : await new SignJWT(payload).setProtectedHeader({ alg: 'PS256', kid: c.kid }).sign(await importKey(c.privateKeyPem!));
    const url = new URL(`${this.sb.issuer}/auth`);
    for (const [k, v] of Object.entries({ client_id: c.clientId, response_type: 'code', scope: `openid ${scope}`, redirect_uri: c.redirectUri, request })) url.searchParams.set(k, v);
    const res = await undiciFetch(url, { redirect: 'manual', dispatcher: this.dispatcher });
    await res.arrayBuffer();
    const location = res.headers.get('location') ?? undefined;
    const to = location ? new URL(location, this.sb.issuer) : undefined;
    const went = to?.pathname.startsWith('/interaction/') ? 'login' : to?.searchParams.get('error') ? 'error' : 'other';
    return { status: res.status, location, went, ...(to?.searchParams.get('error') ? { error: to.searchParams.get('error')! } : {}) };
  }

  async refresh(refreshToken: string) {
    return client.refreshTokenGrant(this.config, refreshToken);
  }
}

/**
 * A detached x-jws-signature over `body` (PS256, the Open Banking critical claims), made here with
 * jose and the key the sandbox trusts, or with `key`/`kid` given (a key it does not know).
 */
export async function tppSignature(sb: Sandbox, body: string, o: { key?: CryptoKey; kid?: string; header?: Record<string, unknown> } = {}): Promise<string> {
  const { FlattenedSign } = await import('jose');
  const ob = 'http://openbanking.org.uk/';
  const header = o.header ?? {
    alg: 'PS256', kid: o.kid ?? sb.tppSigning.kid, [`${ob}iat`]: Math.floor(Date.now() / 1000), [`${ob}iss`]: 'sandbox-tests',
    [`${ob}tan`]: 'openbanking.org.uk', crit: [`${ob}iat`, `${ob}iss`, `${ob}tan`],
  };
  const jws = await new FlattenedSign(new TextEncoder().encode(body)).setProtectedHeader(header as never).sign(o.key ?? await importKey(sb.tppSigning.privateKeyPem), { crit: { [`${ob}iat`]: true, [`${ob}iss`]: true, [`${ob}tan`]: true } });
  return `${jws.protected}..${jws.signature}`;
}

/** The consent page (or the error page) showed data-testid consent-error with this text. */
export class ConsentPageError extends Error {}

async function importKey(pem: string): Promise<CryptoKey> {
  const { importPKCS8 } = await import('jose');
  return importPKCS8(pem, 'PS256') as Promise<CryptoKey>;
}

// ---- request bodies ------------------------------------------------------------------------

const DAY = 86_400_000;
export const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

export function aisBody(o: { permissions?: string[]; expiresInMs?: number; fromDaysAgo?: number; toDaysAgo?: number } = {}) {
  return {
    Data: {
      Permissions: o.permissions ?? ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits'],
      ExpirationDateTime: isoIn(o.expiresInMs ?? 30 * DAY),
      TransactionFromDateTime: new Date(Date.now() - (o.fromDaysAgo ?? 400) * DAY).toISOString(),
      TransactionToDateTime: new Date(Date.now() - (o.toDaysAgo ?? 0) * DAY).toISOString(),
    },
    Risk: {},
  };
}

export function cofBody(identification: string, expiresInMs?: number) {
  return {
    Data: {
      DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: identification, Name: 'Debtor' },
      ...(expiresInMs !== undefined ? { ExpirationDateTime: isoIn(expiresInMs) } : {}),
    },
  };
}

export function fundsBody(consentId: string, amount: string, currency = 'GBP') {
  return { Data: { ConsentId: consentId, Reference: 'Purchase01', InstructedAmount: { Amount: amount, Currency: currency } } };
}

export function paymentBody(o: { debtor?: string; amount?: string } = {}) {
  return {
    Data: {
      Initiation: {
        InstructionIdentification: 'INSTR-0001',
        EndToEndIdentification: 'E2E-0001',
        InstructedAmount: { Amount: o.amount ?? '20.00', Currency: 'GBP' },
        ...(o.debtor ? { DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: o.debtor } } : {}),
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc' },
        RemittanceInformation: { Reference: 'FRESCO-101', Unstructured: 'Internal ops code 5120101' },
      },
    },
    Risk: {},
  };
}
