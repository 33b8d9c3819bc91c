import type { Profile, Variant, Fn } from '../profile/types.ts';
import { loadProfile } from '../profile/load.ts';
import { httpFromProfile } from '../client/factory.ts';
import type { HttpClient } from '../client/http.ts';
import { TppClient } from '../client/operations.ts';
import type { Exchange } from '../client/exchange.ts';
import { Auth, type TokenSet } from '../auth/index.ts';
import { authorise, type AuthoriseResult } from '../auth/authorise.ts';
import { PsuBrowser } from '../psu/index.ts';

/** What the runner hands every worker (JSON: cucumber passes it as worldParameters). */
export interface RunParameters {
  /** A profile file; the worker loads it itself so no secret travels through cucumber. */
  profilePath: string;
  /** Where screenshots and other evidence files go. */
  evidenceDir: string;
  /** Rules selected for this run, per variant, so slow set-ups (expiring consents) start early. */
  prewarm?: string[];
}

/**
 * Everything one worker shares across scenarios: the profile, one keep-alive dispatcher, one
 * authorisation-server client, one browser, and a pool of consents that several scenarios may
 * use as they are (a consent is shared only where a rule allows it).
 */
export class RunContext {
  readonly profile: Profile;
  readonly http: HttpClient;
  readonly params: RunParameters;
  private authPromise?: Promise<Auth>;
  private background?: { http: HttpClient; auth?: Promise<Auth>; clients: Map<Variant, TppClient> };
  private browserInstance?: PsuBrowser;
  private readonly clients = new Map<Variant, TppClient>();
  private readonly pool = new Map<string, Promise<unknown>>();

  private constructor(profile: Profile, params: RunParameters) {
    this.profile = profile;
    this.params = params;
    this.http = httpFromProfile(profile, { warn: () => undefined });
  }

  private static current?: Promise<RunContext>;

  /** The worker's one context (created on first use). */
  static get(params: RunParameters): Promise<RunContext> {
    RunContext.current ??= loadProfile(params.profilePath).then((p) => new RunContext(p, params));
    return RunContext.current;
  }

  static async closeCurrent(): Promise<void> {
    const ctx = await RunContext.current?.catch(() => undefined);
    RunContext.current = undefined;
    await ctx?.close();
  }

  /**
   * The tpp client for one variant. `background` work (consents prepared ahead of the scenario
   * that needs them) goes through a dispatcher of its own, so that its exchanges are not mixed
   * into the evidence of whichever scenario is running meanwhile.
   */
  client(variant: Variant, background = false): TppClient {
    const clients = background ? this.bg().clients : this.clients;
    let c = clients.get(variant);
    if (!c) clients.set(variant, (c = new TppClient(this.profile, variant, background ? this.bg().http : this.http)));
    return c;
  }

  auth(background = false): Promise<Auth> {
    if (background) {
      const bg = this.bg();
      bg.auth ??= Auth.create(this.profile, bg.http);
      return bg.auth;
    }
    this.authPromise ??= Auth.create(this.profile, this.http);
    return this.authPromise;
  }

  private bg() {
    this.background ??= { http: httpFromProfile(this.profile, { warn: () => undefined }), clients: new Map() };
    return this.background;
  }

  /** The dispatcher background work uses (to record its exchanges as evidence). */
  backgroundHttp(): HttpClient {
    return this.bg().http;
  }

  browser(): PsuBrowser {
    this.browserInstance ??= new PsuBrowser({ env: process.env, stepTimeoutMs: this.profile.timeouts.browserStepMs });
    return this.browserInstance;
  }

  /** A client-credentials access token for one function (cached by Auth until near expiry). */
  async ccToken(fn: Fn, background = false): Promise<string> {
    const tokens: TokenSet = await (await this.auth(background)).clientCredentials(fn);
    return tokens.accessToken;
  }

  /** The PSU's journey for one consent, through the real browser. */
  async authorise(intentId: string, fn: Fn, options: { accounts?: string[]; debtor?: string; reject?: boolean; background?: boolean } = {}): Promise<AuthoriseResult> {
    return authorise(
      { auth: await this.auth(options.background), browser: this.browser(), profile: this.profile },
      { intentId, fn },
      { ...options, evidenceDir: this.params.evidenceDir },
    );
  }

  /**
   * A set-up shared by every scenario that asks for the same key (e.g. `A:ais:full`). The promise
   * is kept, so a set-up that failed fails each scenario that needs it, with the same evidence.
   */
  shared<T>(key: string, make: () => Promise<T>): Promise<T> {
    let p = this.pool.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      p.catch(() => undefined);
      this.pool.set(key, p);
    }
    return p;
  }

  hasShared(key: string): boolean {
    return this.pool.has(key);
  }

  /** Records the exchanges made from now on into `sink`; returns the function that stops. */
  record(sink: Exchange[]): () => void {
    return this.http.recordInto(sink);
  }

  async close(): Promise<void> {
    await this.browserInstance?.close().catch(() => undefined);
    await this.http.close();
    await this.background?.http.close();
  }
}
