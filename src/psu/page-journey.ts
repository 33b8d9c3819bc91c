import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'puppeteer';
import { AuthorisationError } from '../errors.ts';
import { Redactor } from '../client/redact.ts';
import type { AccountChoice, JourneyOptions } from './types.ts';
import { documentAllowed } from './url-policy.ts';
import { quoteOutside } from '../outside-text.ts';

/** How long the evidence of a failed step waits for the page's screenshot. */
export const SCREENSHOT_MS = 5_000;

/** Selectors whose appearance ends the journey with an error of the given code. */
export interface ErrorWatch {
  code: 'login_failed' | 'consent_error';
  selector: string;
}

/** Thrown inside a step when what it waits for does not come; turned into step_timeout. */
class StepTimeout extends Error {
  readonly selector: string;
  readonly ms: number;
  constructor(selector: string, ms: number, unanswered = false) {
    super(`selector "${selector}" not found within ${ms} ms${unanswered ? ': the page stopped answering (a script that never yields?)' : ''}`);
    this.selector = selector;
    this.ms = ms;
  }
}

/** An account or debtor option offered on the consent page. */
export interface Offered {
  id: string;
  label: string;
}

/**
 * One PSU journey in one page: numbered steps with descriptions, waits that also watch for the
 * bank's error messages, typing that keeps the password out of everything, a screenshot and the
 * page URL as evidence when a step fails.
 */
export class PageJourney {
  readonly page: Page;
  readonly options: JourneyOptions;
  readonly steps: string[] = [];
  readonly errorWatch: ErrorWatch[] = [];
  loginOrigin = '';
  offeredAccounts: Offered[] = [];
  selectedAccounts: string[] = [];
  debtorChosen?: string;
  debtorOffered = false;
  /** Set once the redirect back has been caught; pending steps then stop mattering. */
  done = false;
  /** Set when the page stopped answering (its main thread busy): the evidence then takes no screenshot. */
  private unanswered = false;
  /** Set when the bank's pages led the browser off http(s) (url-policy.ts): no screenshot is taken of what it shows. */
  unsafe = false;
  private currentStep = 0;
  private currentDescription = '';
  private readonly deadline: number;
  private readonly redactor: Redactor;
  private readonly redirect: URL;

  constructor(page: Page, options: JourneyOptions) {
    this.page = page;
    this.options = options;
    this.deadline = Date.now() + options.totalTimeoutMs;
    this.redactor = new Redactor([options.password]);
    this.redirect = new URL(options.redirectUri);
  }

  /** Whether a URL is the TPP's redirect URI (same origin and path), i.e. the TPP's side, not the bank's. */
  private atRedirect(url: string): boolean {
    try {
      const u = new URL(url);
      return u.origin === this.redirect.origin && u.pathname === this.redirect.pathname;
    } catch {
      return false;
    }
  }

  get stepNumber(): number {
    return this.currentStep;
  }
  get stepDescription(): string {
    return this.currentDescription;
  }

  /** Milliseconds a wait in the current step may take: the step time-out, bounded by the journey's. */
  budget(ms = this.options.stepTimeoutMs): number {
    return Math.max(1, Math.min(ms, this.deadline - Date.now()));
  }

  /** Runs step `n`; any failure becomes an AuthorisationError with evidence. */
  async step<T>(n: number, description: string, run: () => Promise<T>): Promise<T> {
    description = this.redactor.text(description);
    this.currentStep = n;
    this.currentDescription = description;
    this.steps.push(`${n}. ${description}`);
    this.options.onStep?.(`step ${n}: ${description}`);
    try {
      return await run();
    } catch (error) {
      throw await this.failure(error);
    }
  }

  /** Converts an error inside the current step into the AuthorisationError the caller sees. */
  async failure(error: unknown): Promise<AuthorisationError> {
    const n = this.currentStep;
    const d = this.currentDescription;
    let out: AuthorisationError;
    if (error instanceof AuthorisationError) {
      if (error.evidence?.screenshot) return error;
      out = new AuthorisationError(error.oauthError, error.message, { hint: error.hint, cause: error.cause, evidence: await this.evidence() });
    } else if (error instanceof StepTimeout) {
      out = new AuthorisationError('step_timeout', `step ${n} (${d}): ${error.message}`, { evidence: await this.evidence() });
    } else {
      const first = error instanceof Error ? error.message.split('\n')[0] : String(error);
      // puppeteer says "Navigation timeout of N ms exceeded": a bank page that never finished loading.
      const navigation = error instanceof Error && error.name === 'TimeoutError' ? /Navigation timeout of (\d+) ?ms/i.exec(first) : null;
      if (navigation) {
        out = new AuthorisationError('step_timeout', `step ${n} (${d}): the bank's page did not finish loading within ${navigation[1]} ms`, { evidence: await this.evidence() });
      } else {
        out = new AuthorisationError('step_failed', `step ${n} (${d}): ${this.redactor.text(first)}`, { evidence: await this.evidence() });
      }
    }
    return out;
  }

  /** The page URL (redacted) and a PNG screenshot of it, named after the step (never a secret). */
  async evidence(): Promise<AuthorisationError['evidence']> {
    const ev: NonNullable<AuthorisationError['evidence']> = { step: this.currentStep, description: this.currentDescription };
    try {
      ev.url = this.redactor.url(this.page.url());
    } catch {
      /* page gone */
    }
    // Screenshots go only into the report's evidence folder (a caller without one gets none), and
    // never of a page that is not the bank's http(s) page: it could show a local file.
    const dir = this.options.evidenceDir;
    if (!dir || this.page.isClosed() || this.unanswered || this.unsafe || !documentAllowed(this.page.url())) return ev;
    const file = join(dir, `obtpp-psu-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}-step${this.currentStep}.png`);
    let timer: NodeJS.Timeout | undefined;
    try {
      // A page that never renders (a bank that hangs, a browser out of breath) must not hold the
      // verdict; a screenshot that comes too late is dropped, not written.
      const shot = this.page.screenshot({ fullPage: true, type: 'png' });
      shot.catch(() => undefined);
      const bound = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SCREENSHOT_MS)));
      const png = await Promise.race([shot, bound]);
      if (png !== 'late' && !this.unsafe) {
        await writeFile(file, png, { mode: 0o600, flag: 'wx' });
        ev.screenshot = file;
      }
    } catch {
      /* the page may be mid-navigation or closed; the URL is still worth having */
    } finally {
      clearTimeout(timer);
    }
    return ev;
  }

  /**
   * One wait in the page, in one DevTools round trip: until one of `targets` is on the page
   * (visible when asked), a watched error shows, or `ms` pass, and then, in the same call, the
   * action on the element found. A navigation that replaces the page meanwhile only restarts the
   * wait on the new page (an action runs once, in the same task as the check that found its
   * element); a page that stops answering is bounded here in Node, not only in the page.
   */
  private async seek(targets: string[], options: { visible?: boolean; ms: number; act?: SeekAction; errors?: 'first' | 'after' | 'none' }): Promise<SeekResult> {
    const until = Date.now() + options.ms;
    const watch = options.errors === 'none' ? [] : this.errorWatch.map((w) => ({ code: w.code, selector: w.selector }));
    for (;;) {
      const left = until - Date.now();
      // A journey that came back has no page left to wait on: its lane may serve the next one.
      if (left <= 0 || this.done) return { timeout: true };
      const args: SeekArgs = { targets, visible: !!options.visible, errors: watch, errorsFirst: options.errors !== 'after', ms: left, act: options.act ?? { kind: 'none' } };
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<SeekResult>((resolve) => (timer = setTimeout(() => resolve({ timeout: true, unanswered: true }), left + SEEK_SLACK_MS)));
      const asked = this.page.evaluate(seekInPage, args);
      asked.catch(() => undefined);
      try {
        let result = await Promise.race([asked, bound]);
        // Late: a page whose main thread never yields answers nothing, not even a trivial call; a
        // page on a loaded machine answers one (or the wait itself) within a moment, and only its
        // wait ran out.
        if ('unanswered' in result && (await this.answers(asked))) result = { timeout: true };
        // A page that cannot answer a script cannot render either: its screenshot would never come.
        this.unanswered = 'unanswered' in result;
        return result;
      } catch (error) {
        // The document went away under the wait (a navigation): wait again on the next one.
        if (this.page.isClosed() || !contextGone(error)) throw error;
        await new Promise((r) => setTimeout(r, 10));
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** Whether the page answers `late` or a trivial call of its own within PING_MS (a call that fails is an answer too). */
  private async answers(late: Promise<unknown>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const ping = this.page.evaluate(() => true);
    ping.catch(() => undefined);
    try {
      return await Promise.race([
        late.then(() => true, () => true),
        ping.then(() => true, () => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), PING_MS))),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A watched error the page showed, as the journey's failure. */
  private shownError(found: { code: string; text: string }): AuthorisationError {
    // The page's words, its layout's white space folded, quoted (src/outside-text.ts).
    const text = quoteOutside(this.redactor.text(found.text).replace(/\s+/g, ' ').trim(), 500);
    if (found.code === 'login_failed') return new AuthorisationError('login_failed', `the bank refused the PSU login: ${text}`);
    return new AuthorisationError('consent_error', `the bank showed an error on the consent page: ${text}`);
  }

  /**
   * Waits for `selector` (visible when `visible`) while watching for the bank's error messages,
   * then does `act` to it. A watched error that shows first ends the journey with its code and the
   * page's message. The page checks them all on every DOM mutation (and again after navigations).
   */
  async waitFor(selector: string, options: { visible?: boolean; timeoutMs?: number; act?: SeekAction } = {}): Promise<void> {
    const timeout = this.budget(options.timeoutMs);
    const found = await this.seek([selector], { visible: options.visible, ms: timeout, act: options.act });
    if ('error' in found) throw this.shownError(found.error);
    if ('timeout' in found) throw new StepTimeout(selector, timeout, 'unanswered' in found);
    if (found.failed) throw new Error(found.failed);
  }

  /**
   * After the last step, until the bank redirects back: a watched error that shows (a consent
   * that expired while the PSU was on the page, a refused confirmation) ends the journey at once
   * with its code and the page's message, instead of waiting out the journey's time-out.
   */
  async watchErrors(): Promise<void> {
    if (this.errorWatch.length === 0) return;
    try {
      // A selector no page matches: only a watched error (or the journey's end) stops the wait.
      await this.waitFor('html[data-obtpp-never]', { timeoutMs: Number.MAX_SAFE_INTEGER });
    } catch (error) {
      if (error instanceof StepTimeout || this.done) return;
      // The login is behind the PSU by now: whatever the watched selector was for, this is the bank refusing the decision.
      if (error instanceof AuthorisationError && error.oauthError === 'login_failed') {
        throw new AuthorisationError('consent_error', `the bank showed an error after the PSU's decision: ${error.message.replace(/^the bank refused the PSU login: /, '')}`);
      }
      throw error;
    }
  }

  /** Whether `selector` is (or comes) present within a short wait; used for optional things. */
  async present(selector: string, withinMs: number): Promise<boolean> {
    const found = await this.seek([selector], { ms: withinMs <= 0 ? 1 : this.budget(withinMs), errors: 'none' });
    return 'found' in found;
  }

  /**
   * Waits until one of `selectors` is on the page (or a watched error shows) and returns the
   * first of them present, in the order given; undefined when an error shows or nothing comes
   * within the step's time-out. Lets an optional step end the moment the page shows what a later
   * step needs, instead of waiting a fixed time.
   */
  async first(...selectors: Array<string | string[]>): Promise<string | undefined> {
    const found = await this.seek(selectors.flat(), { ms: this.budget(), errors: 'after' });
    return 'found' in found ? found.found : undefined;
  }

  /**
   * Types `value` into the field. When the value is the password, the page must be an http(s)
   * page that is not the TPP's own redirect origin; its origin is recorded as `loginOrigin`.
   */
  async fill(selector: string, value: string): Promise<void> {
    // Found, focused and its text selected in one call; typing replaces the selection.
    await this.waitFor(selector, { visible: true, act: { kind: value.length > 0 ? 'focus' : 'clear' } });
    if (value.includes(this.options.password)) {
      const origin = safeOrigin(this.page.url());
      if (!origin || !/^https?:/.test(origin) || this.atRedirect(this.page.url())) {
        throw new AuthorisationError('step_failed', `refusing to type the PSU's password into a page that is not the bank's (${origin || 'no origin'})`);
      }
      this.loginOrigin = origin;
    }
    // One insertText: fast, fires input events like real typing, and nothing of it is logged.
    if (value.length > 0) await this.page.keyboard.sendCharacter(value);
  }

  /**
   * Clicks the element. The click is the DOM's (`element.click()`), in the same call that found
   * it: one round trip instead of puppeteer's scroll / measure / mouse sequence, and the same
   * form submission or handler call.
   */
  async click(selector: string, options: { waitForNavigation?: boolean } = {}): Promise<void> {
    if (options.waitForNavigation) {
      // The navigation to wait for is the one the click starts, not one still under way before it.
      await this.waitFor(selector, { visible: true });
      await Promise.all([this.page.waitForNavigation({ timeout: this.budget(), waitUntil: 'domcontentloaded' }), this.waitFor(selector, { visible: true, act: { kind: 'click' } })]);
    } else {
      await this.waitFor(selector, { visible: true, act: { kind: 'click' } });
    }
  }

  async select(selector: string, value: string): Promise<void> {
    await this.waitFor(selector, { act: { kind: 'select', value } });
  }

  /**
   * Ticks exactly the checkboxes matching `selector` that the choice names, unticks the others.
   * By position (`first`, `all`, `first-n`), whatever the page calls its accounts; by name
   * (`ids`), each compared with the checkbox's value / data-account-id / data-identification
   * (`by: value`), its data-name or visible label (`by: label`), its position from 1
   * (`by: index`), or any of value and label when `by` is not given. An account asked for but not
   * offered, or fewer accounts than asked for, fails the step.
   */
  async tickAccounts(selector: string, choice: AccountChoice | undefined, by?: 'value' | 'label' | 'index'): Promise<void> {
    await this.waitFor(selector);
    // A list of names from a caller without types is read as names.
    const c: AccountChoice = Array.isArray(choice) ? { ids: choice } : (choice ?? { pick: 'all' });
    const args: PickArgs = 'ids' in c
      ? { selector, wanted: c.ids, count: 0, by: by ?? null, single: false }
      : { selector, wanted: [], count: c.pick === 'all' ? -1 : c.pick === 'first' ? 1 : c.n, by: null, single: false };
    const result = await this.page.evaluate(pickInPage, args);
    this.offeredAccounts = result.offered;
    const offered = result.offered.map((o) => o.id).join(', ') || 'none';
    if (result.unmatched.length) {
      throw new Error(`account(s) ${result.unmatched.map((u) => `"${u}"`).join(', ')} not offered on the page${by ? ` (compared by ${by})` : ''} (offered: ${offered})`);
    }
    if (args.count > 0 && result.selected.length < args.count) {
      throw new Error(`the first ${args.count} account(s) were asked for, but the page offers ${result.offered.length} (offered: ${offered})`);
    }
    if (result.selected.length === 0) throw new Error(`the page offers no account to tick (${selector})`);
    this.selectedAccounts = result.selected;
  }

  /** Chooses the radio matching `wanted` (the first one when none is asked for). */
  async chooseDebtor(selector: string, wanted: string | undefined, by?: 'value' | 'label' | 'index'): Promise<void> {
    await this.waitFor(selector);
    const result = await this.page.evaluate(pickInPage, { selector, wanted: wanted ? [wanted] : [], count: 1, by: by ?? null, single: true });
    this.debtorOffered = true;
    if (result.unmatched.length) {
      throw new Error(`debtor account "${wanted}" not offered on the page (offered: ${result.offered.map((o) => o.id).join(', ') || 'none'})`);
    }
    this.debtorChosen = result.selected[0];
  }

  /** Waits until the page URL matches `pattern` (a regular expression). */
  async waitForUrl(pattern: string): Promise<void> {
    const re = new RegExp(pattern);
    const timeout = this.budget();
    const until = Date.now() + timeout;
    while (!re.test(this.page.url())) {
      if (Date.now() > until) throw new StepTimeout(`url ~ /${pattern}/`, timeout);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

interface PickArgs {
  /** The checkboxes or radios. */
  selector: string;
  /** Names to match (empty: choose by position). */
  wanted: string[];
  /** By position: how many from the first (-1: all). */
  count: number;
  by: 'value' | 'label' | 'index' | null;
  single: boolean;
}

/** Runs in the page: match options against what the PSU wants, and set them. */
function pickInPage(args: PickArgs): { offered: Offered[]; selected: string[]; unmatched: string[] } {
  const inputs = Array.from(document.querySelectorAll(args.selector)) as HTMLInputElement[];
  const labelOf = (el: HTMLInputElement): string => {
    const fromLabels = el.labels && el.labels.length ? Array.from(el.labels).map((l) => l.textContent ?? '').join(' ') : '';
    const text = fromLabels || el.closest('label')?.textContent || el.getAttribute('aria-label') || el.dataset.name || '';
    return text.replace(/\s+/g, ' ').trim();
  };
  const idOf = (el: HTMLInputElement, i: number): string => el.dataset.accountId || el.value || String(i + 1);
  const offered = inputs.map((el, i) => ({ id: idOf(el, i), label: labelOf(el) }));
  const matches = (el: HTMLInputElement, i: number, w: string): boolean => {
    const label = labelOf(el);
    const byValue = el.value === w || el.dataset.accountId === w || el.dataset.identification === w;
    const byLabel = el.dataset.name === w || label === w || (w.length > 2 && label.includes(w));
    if (args.by === 'value') return byValue;
    if (args.by === 'label') return byLabel;
    if (args.by === 'index') return /^\d+$/.test(w) && Number(w) === i + 1;
    return byValue || byLabel;
  };
  const unmatched = args.wanted.filter((w) => !inputs.some((el, i) => matches(el, i, w)));
  if (unmatched.length) return { offered, selected: [], unmatched };
  let want: boolean[];
  if (args.wanted.length === 0) want = inputs.map((_el, i) => args.count < 0 || i < args.count);
  else want = inputs.map((el, i) => args.wanted.some((w) => matches(el, i, w)));
  if (args.single) {
    const first = want.indexOf(true);
    want = inputs.map((_el, i) => i === first);
  }
  inputs.forEach((el, i) => {
    if (el.checked !== want[i]) el.click();
  });
  const selected = inputs.flatMap((el, i) => (want[i] ? [idOf(el, i)] : []));
  return { offered, selected, unmatched };
}

/** How much longer than its own time-out a wait in the page may take to answer before Node gives up on it. */
const SEEK_SLACK_MS = 1_000;

/**
 * How long a page whose wait answered late then has to answer a trivial call before it counts as
 * one that stopped answering. On a machine loaded four times over its cores, pages whose wait had
 * simply run out answered more than a second late, and were taken for pages that never yield.
 */
const PING_MS = 1_500;

/** What a wait does to the element it found, in the same call. */
export type SeekAction = { kind: 'none' } | { kind: 'click' } | { kind: 'focus' } | { kind: 'clear' } | { kind: 'select'; value: string };

interface SeekArgs {
  targets: string[];
  visible: boolean;
  errors: Array<{ code: string; selector: string }>;
  /** Watched errors checked before the targets (a wait for one element), or after (a race between steps). */
  errorsFirst: boolean;
  ms: number;
  act: SeekAction;
}

/** `unanswered`: the page never answered the call (Node's bound, not the page's own timer, ended it). */
type SeekResult = { found: string; failed?: string } | { error: { code: string; text: string } } | { timeout: true; unanswered?: true };

/** Whether an evaluation failed because its document was replaced or is being replaced. */
function contextGone(error: unknown): boolean {
  const m = error instanceof Error ? error.message : String(error);
  return /Execution context was destroyed|Cannot find context with specified id|Inspected target navigated|detached Frame|Execution context is not available/i.test(m);
}

/**
 * Runs in the page: resolves when a target is present (and shown, when asked) or a watched error
 * shows its text, re-checking on every DOM mutation, or after `ms`; acts on the target found.
 *
 * Long: puppeteer sends this function's source to the page (`page.evaluate`), so it must carry its
 * helpers inside it (visibility, the action, the error and target checks): a function beside it in
 * this module does not exist in the page.
 */
function seekInPage(a: SeekArgs): Promise<SeekResult> {
  const shown = (el: Element): boolean => {
    const r = el.getBoundingClientRect();
    return (r.width > 0 || r.height > 0) && getComputedStyle(el).visibility !== 'hidden';
  };
  const act = (el: Element): string | undefined => {
    const input = el as HTMLInputElement;
    switch (a.act.kind) {
      case 'click':
        (el as HTMLElement).click();
        return undefined;
      case 'focus':
        input.focus();
        if (typeof input.select === 'function') input.select();
        return undefined;
      case 'clear':
        input.focus();
        input.value = '';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        return undefined;
      case 'select': {
        if (!(el instanceof HTMLSelectElement)) return `${a.targets[0]} is not a select element`;
        const value = a.act.value;
        const option = Array.from(el.options).find((o) => o.value === value);
        if (!option) return `no option with value "${value}" in ${a.targets[0]}`;
        for (const o of Array.from(el.options)) o.selected = o === option;
        el.dispatchEvent(new Event('input', { bubbles: true }));
        el.dispatchEvent(new Event('change', { bubbles: true }));
        return undefined;
      }
      default:
        return undefined;
    }
  };
  const error = (): SeekResult | undefined => {
    for (const e of a.errors) {
      const el = document.querySelector(e.selector);
      const text = el && shown(el) ? ((el as HTMLElement).innerText ?? el.textContent ?? '').trim() : '';
      if (text) return { error: { code: e.code, text } };
    }
    return undefined;
  };
  const target = (): SeekResult | undefined => {
    for (const t of a.targets) {
      const el = document.querySelector(t);
      if (el && (!a.visible || shown(el))) {
        const failed = act(el);
        return failed ? { found: t, failed } : { found: t };
      }
    }
    return undefined;
  };
  const check = (): SeekResult | undefined => (a.errorsFirst ? error() ?? target() : target() ?? error());
  const now = check();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = (r: SeekResult) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(r);
    };
    const observer = new MutationObserver(() => {
      const r = check();
      if (r) done(r);
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
    const timer = setTimeout(() => done({ timeout: true }), a.ms);
  });
}
