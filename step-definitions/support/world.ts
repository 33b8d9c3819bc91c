import { World, setWorldConstructor, setDefaultTimeout, type IWorldOptions } from '@cucumber/cucumber';
import { randomUUID } from 'node:crypto';
import type { Variant, Fn } from '../../src/profile/types.ts';
import type { ApiResult, TppClient } from '../../src/client/operations.ts';
import { NotApplicableError, UnusableIdError } from '../../src/client/operations.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import type { PauseNote } from '../../src/conformance/sequence.ts';
import { HttpError, ObtppError } from '../../src/errors.ts';
import type { TokenSet } from '../../src/auth/index.ts';
import type { AuthoriseResult } from '../../src/auth/authorise.ts';
import type { RunContext, RunParameters, Lane } from '../../src/conformance/context.ts';
import { linesOf } from '../../src/outside-text.ts';

// A PSU journey in a real browser plus a few calls fit easily; a hung bank is cut by the
// profile's own time-outs long before this.
setDefaultTimeout(120_000);

/** A consent the scenario created (and maybe had authorised). */
export interface ConsentRecord {
  fn: Fn;
  id: string;
  created: ApiResult;
  request: any;
  tokens?: TokenSet;
  journey?: AuthoriseResult;
  /** AccountIds the bank listed for this consent (after the first GET /accounts). */
  accountIds?: string[];
  /** Local time the consent expires, when it was made to expire soon. */
  expiresAtMs?: number;
  /** For payments: the account the PSU was asked to choose, if any. */
  debtorChosen?: AccountInfo;
  /** Evidence kept from the set-up (exchanges of a pre-warmed consent). */
  setupExchanges?: Exchange[];
}

/** What the harness learnt about one of the PSU's accounts through AIS. */
export interface AccountInfo {
  accountId: string;
  currency: string;
  schemeName?: string;
  identification?: string;
  name?: string;
  /** What is wrong with the shape of the account's Account (an object, not an array), when it is. */
  accountShape?: string;
}

/**
 * A verdict: the bank broke a rule. The message names the rule, what was expected and what came.
 * Given as lines (a string is one line): a line break or control character inside a line — the
 * bank's text, quoted raw — is shown escaped, so that the message's line breaks are only obtpp's.
 */
export class RuleViolation extends Error {
  constructor(lines: string | readonly string[]) {
    super(linesOf(lines));
    this.name = 'RuleViolation';
  }
}

/**
 * The scenario cannot be judged: the bank's data gives nothing to judge (e.g. no transaction outside
 * the period), or a precondition the bank had to provide is missing. `blockedBy` names the rule whose
 * failure this is (e.g. `AIS-11`), when there is one; the scenario of that rule fails, this one is
 * reported `not-judged` with the cause.
 */
export class NotJudgeable extends Error {
  readonly blockedBy?: string;
  /** Exchanges and screenshots of the set-up that failed (evidence for the report). */
  exchanges?: Exchange[];
  screenshots?: string[];
  /** `lines` as RuleViolation's: each kept on its line. */
  constructor(lines: string | readonly string[], blockedBy?: string) {
    super(linesOf(lines));
    this.name = 'NotJudgeable';
    this.blockedBy = blockedBy;
  }
}

/**
 * The bank answered with a body obtpp will not read: JSON nested deeper than the HTTP core walks
 * (src/client/http.ts, MAX_JSON_DEPTH), a JSON bomb. Nothing can be judged from it and no
 * precondition taken from it, and no other rule is there to fail for it: it fails the rule of every
 * scenario that needed the answer (through a shared set-up too), with the exchange as evidence —
 * never "not judged", never "blocked by" another rule. A NotJudgeable only so that the code that
 * passes a missing precondition on passes this on too; the step wrapper makes it a violation.
 */
export class UnusableAnswer extends NotJudgeable {
  constructor(lines: string | readonly string[]) {
    super(lines);
    this.name = 'UnusableAnswer';
  }
}

/** Why a scenario was not judged, as the step wrapper recorded it. */
export interface NotJudgedCause {
  message: string;
  blockedBy?: string;
}

export class ConformanceWorld extends World<RunParameters> {
  variant: Variant = 'A';
  ruleId = '';
  ctx!: RunContext;
  exchanges: Exchange[] = [];
  stopRecording?: () => void;
  /** The last answer of the bank the scenario looks at. */
  last?: ApiResult;
  /** Answers of a batch of calls judged together. */
  batch: ApiResult[] = [];
  consents = new Map<string, ConsentRecord>();
  consent?: ConsentRecord;
  payment?: ConsentRecord;
  /** The outcome of the last PSU journey (authorise or reject). */
  outcome?: AuthoriseResult;
  screenshots: string[] = [];
  notes: string[] = [];
  /** The consent made to expire soon (AIS-08, COF-06). */
  expiring?: Expiring;
  /** The line of work this world talks to the bank on (the scenarios' main lane, or a set-up's own). */
  lane!: Lane;
  /** The scenario's deliberate waits (a consent's expiry), for its sequence and the run's time split. */
  pauses: PauseNote[] = [];
  /** Set when a step found the scenario cannot be judged (the After hook attaches the evidence). */
  notJudged?: NotJudgedCause;

  constructor(options: IWorldOptions<RunParameters>) {
    super(options);
  }

  get client(): TppClient {
    return this.lane.client(this.variant);
  }

  /** A client-credentials token; a bank that cannot issue one is a verdict naming the cause. */
  async ccToken(fn: Fn): Promise<string> {
    try {
      return await this.lane.ccToken(fn);
    } catch (error) {
      if (error instanceof HttpError) throw this.violation(`obtaining a client-credentials token: the bank gave no usable answer: ${error.message}`);
      if (error instanceof ObtppError) throw this.violation(`obtaining a client-credentials token failed: ${error.message}`);
      throw error;
    }
  }

  /**
   * A stand-in world that prepares a set-up ahead of the scenario needing it, on a lane of its
   * own (so its exchanges stay its own evidence), with no attachments.
   */
  static forSetup(ctx: RunContext, variant: Variant, parameters: RunParameters, ruleId = '', lane?: Lane): ConformanceWorld {
    const noop = () => undefined;
    const w = new ConformanceWorld({ attach: noop as never, log: noop, link: noop, parameters });
    w.ctx = ctx;
    w.variant = variant;
    w.ruleId = ruleId;
    // A lane of its own, or one a finished set-up left free (`lane`).
    w.lane = lane ?? ctx.lane();
    return w;
  }

  /** Prefixes the rule id: every failure cites its rule. Several lines as an array (a string is one line). */
  violation(message: string | readonly string[]): RuleViolation {
    const [first = '', ...rest] = typeof message === 'string' ? [message] : message;
    return new RuleViolation([this.ruleId ? `${this.ruleId}: ${first}` : first, ...rest]);
  }

  /**
   * A precondition of this scenario that the bank did not provide: the scenario is not judged,
   * blocked by the rule that covers the missing thing (which fails in its own scenario).
   */
  blocked(blockedBy: string | undefined, message: string | readonly string[]): NotJudgeable {
    return new NotJudgeable(message, blockedBy);
  }

  /** Runs one call of the tpp client; a transport failure becomes a verdict naming its cause. */
  async call(what: string, fn: (client: TppClient) => Promise<ApiResult>): Promise<ApiResult> {
    const waited = this.ctx?.waitFor('answer', `the bank's answer: ${what}`);
    try {
      const result = await fn(this.client);
      this.last = result;
      const unusable = result.exchange.response?.note;
      if (unusable) {
        const { pathname, search } = new URL(result.exchange.url);
        throw new UnusableAnswer(`${what}: the bank answered ${result.exchange.method} ${pathname}${search} with ${result.status} and a body obtpp cannot use (${unusable}); no rule can be judged from it`);
      }
      return result;
    } catch (error) {
      if (error instanceof NotApplicableError) throw error;
      if (error instanceof HttpError) throw this.violation(`${what}: the bank gave no usable answer: ${error.message}`);
      // An id from the bank's own answer that cannot be a path segment ('..', 900 KB): the bank broke the rule.
      if (error instanceof UnusableIdError) throw this.violation(`${what}: ${error.message}`);
      throw error;
    } finally {
      waited?.();
    }
  }

  /** The last answer, which a Then step needs. */
  answer(): ApiResult {
    if (!this.last) throw new Error('no request was made before this step');
    return this.last;
  }

  uniqueRef(prefix: string): string {
    return `${prefix}-${randomUUID().slice(0, 8)}`;
  }
}

setWorldConstructor(ConformanceWorld);

/** A consent made to expire a few seconds after creation, authorised and used once before. */
export interface Expiring {
  record: ConsentRecord;
  /** The call made while the consent was still valid. */
  before: ApiResult;
  /** The consent's ExpirationDateTime as sent (whole seconds), as a local instant. */
  expiresAtMs: number;
  /**
   * Local instant by which the bank must consider the consent expired, whatever its clock: its
   * Date header (whole seconds) bounds how far behind ours it may be, and a bank that compares
   * whole seconds has one more second.
   */
  expiredAfterMs: number;
  /** The call the scenario judges after expiry (listing the accounts, confirming funds). */
  probe: (world: ConformanceWorld) => Promise<ApiResult>;
  setupExchanges?: Exchange[];
}
