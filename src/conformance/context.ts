import type { AccountChoice, Profile, Variant, Fn } from '../profile/types.ts';
import { loadProfile } from '../profile/load.ts';
import { httpFromProfile } from '../client/factory.ts';
import type { HttpClient } from '../client/http.ts';
import { Redactor } from '../client/redact.ts';
import { DpopKey } from '../client/dpop-key.ts';
import { TppClient } from '../client/operations.ts';
import type { Exchange } from '../client/exchange.ts';
import { Auth, type BeginOptions, type PendingAuthorisation } from '../auth/index.ts';
import { authorise, walk, type AuthoriseResult } from '../auth/authorise.ts';
import { PsuBrowser, type JourneyResult } from '../psu/index.ts';
import { setupProblemOf, type SetupError } from './setup-check.ts';

/** What the runner hands every worker (JSON: cucumber passes it as worldParameters). */
export interface RunParameters {
  /** A profile file; the worker loads it itself so no secret travels through cucumber. */
  profilePath: string;
  /** Where screenshots and other evidence files go. */
  evidenceDir: string;
  /** The variants of this run (set-ups for all of them start together). */
  variants: Variant[];
  /**
   * The key of the run's plan in this process ({@link registerPlan}, read with {@link planOf}).
   * Not the plan itself: cucumber gives every scenario's world its own structured clone of these
   * parameters, and a whole UK run's plan cloned into each of its 360 worlds cost 120 MB of peak RSS.
   */
  planKey?: string;
  /** The plan itself, for a run whose scenarios run in worker threads (they cannot see this process's registry). */
  plan?: RunPlan;
  /** How many PSU journeys may run at once in the one browser. */
  journeys: number;
  /** The key of a browser the caller lent the run ({@link lendBrowser}); absent: the run starts its own. */
  browserKey?: string;
}

/**
 * Whether a consent ending at `expiresAtMs` has (all but) ended by now: within a second of it (the
 * end is sent in whole seconds). The expiring set-ups judge by it that an attempt outlasted its
 * window; {@link RunContext.authorise}, that a first journey's failure says nothing about the profile.
 */
export function outlived(expiresAtMs: number | undefined): boolean {
  return expiresAtMs !== undefined && Date.now() >= expiresAtMs - 1_000;
}

/**
 * Browsers lent to runs in this thread, by key. A process-wide registry (not a module variable)
 * because the runner and the step definitions may be two instances of this module (src/ and
 * dist/); a browser cannot cross threads, so a worker thread finds nothing and starts its own.
 */
const LENT = Symbol.for('obtpp.lentBrowsers');
function lentBrowsers(): Map<string, PsuBrowser> {
  const g = globalThis as { [LENT]?: Map<string, PsuBrowser> };
  return (g[LENT] ??= new Map());
}

/** What the step definitions start ahead of the scenarios, from the run's selection. */
export interface RunPlan {
  /** Step texts of the selected scenarios whose set-ups may start before their scenario (`A|text`, `B|text`). */
  prewarm: string[];
  /** The selected scenarios (tags, step texts) in the order they run: set-ups made one per scenario may be prepared from it. */
  scenarios: Array<{ tags: string[]; steps: string[] }>;
}

const PLANS = Symbol.for('obtpp.runPlans');
/** Run plans by key: process-wide for the same reason as the lent browsers. */
function plans(): Map<string, RunPlan> {
  const g = globalThis as { [PLANS]?: Map<string, RunPlan> };
  return (g[PLANS] ??= new Map());
}

/** Keeps a run's plan for its step definitions under `key`; the function returned drops it. */
export function registerPlan(key: string, plan: RunPlan): () => void {
  plans().set(key, plan);
  return () => void plans().delete(key);
}

/** The run's plan: the one kept under its key in this process, else the one it carries, else none. */
export function planOf(parameters: RunParameters): RunPlan {
  return (parameters.planKey ? plans().get(parameters.planKey) : undefined) ?? parameters.plan ?? { prewarm: [], scenarios: [] };
}

const SETUP = Symbol.for('obtpp.setupProblems');
/**
 * Set-up errors found on a run's first PSU journey, by the run's evidence folder (unique per run):
 * process-wide for the same reason as the lent browsers (the runner reads what the steps found).
 */
export function setupProblems(): Map<string, SetupError> {
  const g = globalThis as { [SETUP]?: Map<string, SetupError> };
  return (g[SETUP] ??= new Map());
}

/** Lends `browser` to the runs given the returned key; the function returned takes it back. */
export function lendBrowser(key: string, browser: PsuBrowser): () => void {
  lentBrowsers().set(key, browser);
  return () => void lentBrowsers().delete(key);
}

/**
 * One line of work with the bank: its own keep-alive dispatcher and authorisation-server client,
 * so that what it sends can be told apart from what runs beside it (its exchanges are its evidence).
 */
export class Lane {
  readonly http: HttpClient;
  private authPromise?: Promise<Auth>;
  private secondPromise?: Promise<Auth>;
  private readonly clients = new Map<Variant, TppClient>();
  private readonly profile: Profile;

  constructor(profile: Profile, redactor?: Redactor, dpop?: DpopKey) {
    this.profile = profile;
    this.http = httpFromProfile(profile, { warn: () => undefined, ...(redactor ? { redactor } : {}), ...(dpop ? { dpop } : {}) });
  }

  client(variant: Variant): TppClient {
    let c = this.clients.get(variant);
    if (!c) this.clients.set(variant, (c = new TppClient(this.profile, variant, this.http)));
    return c;
  }

  auth(): Promise<Auth> {
    this.authPromise ??= Auth.create(this.profile, this.http);
    return this.authPromise;
  }

  /**
   * The profile's second client (`auth.secondClient`) at the bank's authorisation server, for the
   * checks that need another client (another client's code, request_uri or consent); undefined
   * when the profile names none.
   */
  secondAuth(): Promise<Auth> | undefined {
    const second = this.profile.auth.secondClient;
    if (!second) return undefined;
    this.secondPromise ??= Auth.create({ ...this.profile, auth: { ...this.profile.auth, clientId: second.clientId, clientAuth: second.clientAuth, redirectUri: second.redirectUri ?? this.profile.auth.redirectUri } }, this.http);
    return this.secondPromise;
  }

  /** A client-credentials access token for one function (cached until near expiry). */
  async ccToken(fn: Fn): Promise<string> {
    return (await (await this.auth()).clientCredentials(fn)).accessToken;
  }

  /** Records this lane's exchanges from now on into `sink`; returns the function that stops. */
  record(sink: Exchange[]): () => void {
    return this.http.recordInto(sink);
  }
}

/** One PSU journey as the run saw it: for the reports' sequence pictures and the run's time split. */
export interface JourneyNote {
  /** The consent or payment the PSU was asked to authorise. */
  intentId: string;
  fn: Fn;
  /** When the journey started (ISO) and how long it took, the authorisation server's calls around it included. */
  startedAt: string;
  durationMs: number;
  /** `authorised`, `denied`, `code-after-reject`, or `failed: <why>`. */
  outcome: string;
}

/** What the run is waiting for, for progress: a PSU journey, the bank's answer, a consent's expiry before its probe. */
export interface WaitNote {
  /** Unique within the run: `end` names the `start` it ends. */
  id: number;
  state: 'start' | 'end';
  kind: 'journey' | 'answer' | 'expiry';
  /** In words, e.g. `the PSU's journey in the browser (ais consent aac-1)`. */
  what: string;
}

const WAITS = Symbol.for('obtpp.waitListeners');
/**
 * Who listens to a run's waits, by the run's evidence folder: process-wide for the same reason as
 * the lent browsers (the runner listens, the step definitions' context tells). A worker thread
 * finds no listener and tells nobody.
 */
export function waitListeners(): Map<string, (note: WaitNote) => void> {
  const g = globalThis as { [WAITS]?: Map<string, (note: WaitNote) => void> };
  return (g[WAITS] ??= new Map());
}
let waitIds = 0;

/**
 * Everything one worker shares across scenarios: the profile, one browser, the lanes, and a pool
 * of consents that several scenarios may use as they are (shared only where a rule allows it).
 */
export class RunContext {
  readonly profile: Profile;
  readonly params: RunParameters;
  /** The lane scenarios use. */
  readonly main: Lane;
  private readonly lanes: Lane[] = [];
  private browserInstance?: PsuBrowser;
  /** True when the browser is the caller's (lent): the run uses it and leaves it open. */
  private browserLent = false;
  private readonly pool = new Map<string, Promise<unknown>>();
  private running = 0;
  private readonly waiting: Array<{ priority: number; go: () => void }> = [];
  /** Whether a plain PSU journey of this run has come back authorised (the set-up works). */
  private journeyWorked = false;
  /** The run's PSU journeys, newest last (bounded: the pictures need only the recent ones). */
  readonly journeys: JourneyNote[] = [];

  /**
   * Tells the run's listener (progress) what is being waited for; the function returned says it
   * ended. Cheap when nobody listens.
   */
  waitFor(kind: WaitNote['kind'], what: string): () => void {
    const listener = waitListeners().get(this.params.evidenceDir);
    if (!listener) return () => undefined;
    const id = ++waitIds;
    // A consent id is the bank's text, of any length: progress gets a line's worth.
    const said = what.length > 200 ? `${what.slice(0, 199)}…` : what;
    const tell = (state: WaitNote['state']) => {
      try {
        listener({ id, state, kind, what: said });
      } catch {
        // Progress must never break a scenario.
      }
    };
    tell('start');
    let ended = false;
    return () => {
      if (!ended) tell('end');
      ended = true;
    };
  }

  /** A journey driven outside {@link authorise} (a scaRedirect page), told to progress while it runs. */
  async browserJourney<T>(what: string, journey: () => Promise<T>): Promise<T> {
    const waited = this.waitFor('journey', what);
    try {
      return await journey();
    } finally {
      waited();
    }
  }

  /** Notes a PSU journey that ran (also one driven outside {@link authorise}, like a scaRedirect page). */
  noteJourney(note: JourneyNote): void {
    this.journeys.push(note);
    if (this.journeys.length > 2000) this.journeys.splice(0, this.journeys.length - 2000);
  }

  /** The set-up error that stopped this run, once one is found: later scenarios are not run. */
  get setupProblem(): SetupError | undefined {
    return setupProblems().get(this.params.evidenceDir);
  }

  private constructor(profile: Profile, params: RunParameters) {
    this.profile = profile;
    this.params = params;
    this.redactor = new Redactor(profile.secrets);
    this.main = this.lane();
  }

  /**
   * One redactor for every lane: a token or secret one lane learns is scrubbed from what any other
   * shows, and the step definitions scrub every failure message with it (step-definitions/support/define.ts).
   */
  readonly redactor: Redactor;
  /** One DPoP key for every lane: a token one lane got (bound to it, where the bank binds by DPoP) works in any other. */
  readonly dpop = new DpopKey();

  private static current?: Promise<RunContext>;

  /** The worker's one context (created on first use). */
  static get(params: RunParameters): Promise<RunContext> {
    RunContext.current ??= loadProfile(params.profilePath).then((p) => new RunContext(p, params));
    return RunContext.current;
  }

  /**
   * Starts the slow parts (Chromium, discovery) before cucumber has loaded the scenarios. Only in
   * the same thread as the scenarios (cucumber without worker threads); failures surface later,
   * where the scenario that needs them reports them.
   */
  static warm(params: RunParameters): void {
    void RunContext.get(params).then((ctx) => {
      if (ctx.profile.psu.driver.kind !== 'manual') void ctx.browser().warm({ caPem: ctx.profile.mtls?.ca, insecure: ctx.profile.tls.insecure }).catch(() => undefined);
      if (!ctx.profile.auth.absent) void ctx.main.auth().catch(() => undefined);
    }).catch(() => undefined);
  }

  static async closeCurrent(): Promise<void> {
    const ctx = await RunContext.current?.catch(() => undefined);
    RunContext.current = undefined;
    await ctx?.close();
  }

  /** A new lane (closed with the context). */
  lane(): Lane {
    const lane = new Lane(this.profile, this.redactor, this.dpop);
    this.lanes.push(lane);
    return lane;
  }

  browser(): PsuBrowser {
    if (!this.browserInstance) {
      const lent = this.params.browserKey ? lentBrowsers().get(this.params.browserKey) : undefined;
      this.browserLent = !!lent;
      this.browserInstance = lent ?? new PsuBrowser({ env: process.env, stepTimeoutMs: this.profile.timeouts.browserStepMs });
    }
    return this.browserInstance;
  }

  /**
   * The PSU's journey for one consent, through the one browser (a bounded number at a time; a
   * lower `priority` goes first: 1 for set-ups others wait on or whose clock must start early
   * (the full consents, started first, then the expiring ones), 2 for a scenario's own journey,
   * 3 for set-ups prepared ahead).
   */
  async authorise(lane: Lane, intentId: string, fn: Fn, options: { accounts?: AccountChoice; debtor?: string; reject?: boolean; slotHeld?: boolean; priority?: number; request?: BeginOptions; expiresAtMs?: number } = {}): Promise<AuthoriseResult> {
    if (!options.slotHeld) await this.acquire(options.priority ?? 2);
    // A plain approval (not a probe with a deliberately broken request, not a rejection).
    const plain = !options.request && !options.reject;
    const started = Date.now();
    const waited = this.waitFor('journey', `the PSU's journey in the browser (${fn} consent ${intentId})`);
    const note = (outcome: string) => this.noteJourney({ intentId, fn, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, outcome });
    try {
      const result = await authorise(
        { auth: await lane.auth(), browser: this.browser(), profile: this.profile },
        { intentId, fn },
        // The suite chooses accounts by position, whatever the page calls them (all offered unless a
        // scenario says otherwise): the profile's psu.accounts is the CLI's default, not the suite's.
        { ...options, accounts: options.accounts ?? { pick: 'all' }, evidenceDir: this.params.evidenceDir },
      );
      if (plain && result.outcome === 'authorised') this.journeyWorked = true;
      note(result.outcome);
      return result;
    } catch (error) {
      note(`failed: ${this.redactor.text(String((error as Error)?.message ?? error)).split('\n')[0]!.slice(0, 200)}`);
      // Until one journey has worked, a failure the profile causes (a wrong password, a page step
      // that never matches) is a set-up error of the run, not the bank's failure — unless the
      // consent ran out while the PSU walked (`expiresAtMs`: a window of a few seconds, a slow
      // bank): then the bank's page for an expired request may be one the profile does not name,
      // and the failure says nothing about the profile (the caller tries a wider window).
      if (plain && !this.journeyWorked && !outlived(options.expiresAtMs)) {
        const problem = setupProblemOf(error, this.profile, fn);
        if (problem && !setupProblems().has(this.params.evidenceDir)) setupProblems().set(this.params.evidenceDir, problem);
      }
      throw error;
    } finally {
      waited();
      if (!options.slotHeld) this.release();
    }
  }

  /**
   * The PSU's journey for a request a check varies, up to the redirect back, not exchanged ({@link
   * walk}): the checks that use the code their own way (again, by another client, without its
   * verifier …). Holds a journey slot as {@link authorise} does.
   */
  async walk(lane: Lane, intentId: string, fn: Fn, request: BeginOptions = {}, o: { priority?: number; pending?: PendingAuthorisation } = {}): Promise<{ pending: PendingAuthorisation; journey: JourneyResult }> {
    const priority = o.priority ?? 2;
    await this.acquire(priority);
    const started = Date.now();
    const waited = this.waitFor('journey', `the PSU's journey in the browser (${fn} consent ${intentId})`);
    const note = (outcome: string) => this.noteJourney({ intentId, fn, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, outcome });
    try {
      const result = await walk({ auth: await lane.auth(), browser: this.browser(), profile: this.profile }, { intentId, fn }, { request, ...(o.pending ? { pending: o.pending } : {}), accounts: { pick: 'all' }, evidenceDir: this.params.evidenceDir });
      note('came back');
      return result;
    } catch (error) {
      note(`failed: ${this.redactor.text(String((error as Error)?.message ?? error)).split('\n')[0]!.slice(0, 200)}`);
      throw error;
    } finally {
      waited();
      this.release();
    }
  }

  /**
   * Runs `work` holding one journey slot (for a consent that must be authorised the moment it
   * exists), taken at `priority` as in {@link authorise}.
   */
  async withJourneySlot<T>(work: () => Promise<T>, priority = 1): Promise<T> {
    await this.acquire(priority);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private async acquire(priority: number): Promise<void> {
    if (this.running < Math.max(1, this.params.journeys)) {
      this.running++;
      return;
    }
    await new Promise<void>((go) => {
      // Stable: after every waiter of the same or a more urgent priority.
      const at = this.waiting.findIndex((w) => w.priority > priority);
      this.waiting.splice(at < 0 ? this.waiting.length : at, 0, { priority, go });
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next.go();
    else this.running--;
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

  /** Set once the run has ended: set-ups prepared ahead start no more work. */
  closed = false;

  async close(): Promise<void> {
    this.closed = true;
    if (!this.browserLent) await this.browserInstance?.close().catch(() => undefined);
    await Promise.all(this.lanes.map((l) => l.http.close()));
  }
}
