import type { AccountChoice, DriverStep } from '../profile/types.ts';
import type { PageJourney } from './page-journey.ts';

/** How a choice of accounts reads in a step's description. */
export function describeChoice(choice: AccountChoice | undefined): string {
  if (!choice || ('pick' in choice && choice.pick === 'all')) return 'all offered';
  if ('ids' in choice) return choice.ids.join(', ');
  return choice.pick === 'first' ? 'the first offered' : `the first ${choice.n} offered`;
}

/** The sandbox bank's stable data-testids (docs/wire.md, "Sandbox contract"). */
const T = (id: string) => `[data-testid="${id}"]`;
export const SANDBOX = {
  username: T('username'),
  password: T('password'),
  login: T('login'),
  loginError: T('login-error'),
  consentPage: T('consent-page'),
  accountOption: T('account-option'),
  debtorOption: T('debtor-option'),
  approve: T('approve'),
  reject: T('reject'),
  consentError: T('consent-error'),
} as const;

/**
 * How long an optional step waits for its selector when nothing tells it sooner that the page
 * has moved on (no later step with a selector to race against).
 */
const OPTIONAL_WAIT_MS = 1000;

/**
 * The built-in driver for the sandbox's pages: log in, tick the requested accounts (all offered
 * by default), choose the debtor when — and only when — the page offers a choice, approve or reject.
 */
export async function sandboxDriver(j: PageJourney): Promise<void> {
  const o = j.options;
  j.errorWatch.push({ code: 'login_failed', selector: SANDBOX.loginError }, { code: 'consent_error', selector: SANDBOX.consentError });
  await j.step(1, `fill ${SANDBOX.username} with {username}`, () => j.fill(SANDBOX.username, o.username));
  await j.step(2, `fill ${SANDBOX.password} with <secret>`, () => j.fill(SANDBOX.password, o.password));
  await j.step(3, `click ${SANDBOX.login}`, () => j.click(SANDBOX.login));
  await j.step(4, `wait for ${SANDBOX.consentPage}`, () => j.waitFor(SANDBOX.consentPage));
  // The consent page is loaded: what it offers is there now, no need to wait for it.
  const [accounts, debtor] = await j.page.evaluate(
    (a: string, d: string) => [document.querySelector(a) !== null, document.querySelector(d) !== null],
    SANDBOX.accountOption,
    SANDBOX.debtorOption,
  );
  if (accounts) {
    await j.step(5, `tick accounts ${SANDBOX.accountOption} (${describeChoice(o.accounts)})`, () =>
      j.tickAccounts(SANDBOX.accountOption, o.accounts),
    );
  }
  if (debtor) {
    await j.step(6, `choose debtor ${SANDBOX.debtorOption}${o.debtor ? ` (${o.debtor})` : ' (first offered)'}`, () => j.chooseDebtor(SANDBOX.debtorOption, o.debtor));
  }
  const button = o.reject ? SANDBOX.reject : SANDBOX.approve;
  await j.step(7, `click ${button}`, () => j.click(button));
}

/** Fills `{username}` / `{password}` placeholders. */
function fillIn(value: string, j: PageJourney): string {
  return value.split('{username}').join(j.options.username).split('{password}').join(j.options.password);
}

/** A step's description: what it does, with the password never spelt out. */
export function describe(step: DriverStep): string {
  const name = step.name ? ` [${step.name}]` : '';
  const opt = step.optional ? ' (optional)' : '';
  let what: string;
  switch (step.action) {
    case 'goto':
      what = `goto ${step.url}`;
      break;
    case 'fill':
      // A typed value may be a secret from the environment (an OTP, a PIN): only the username placeholder is named.
      what = `fill ${step.selector} with ${step.value === '{username}' ? '{username}' : '<secret>'}`;
      break;
    case 'click':
      what = `click ${step.selector}`;
      break;
    case 'select':
      what = `select ${JSON.stringify(step.value)} in ${step.selector}`;
      break;
    case 'tickAccounts':
      what = `tick accounts ${step.selector}${step.by ? ` by ${step.by}` : ''}`;
      break;
    case 'chooseDebtor':
      what = `choose debtor ${step.selector}${step.by ? ` by ${step.by}` : ''}`;
      break;
    case 'waitFor':
      what = `wait for ${step.selector}`;
      break;
    case 'waitForUrl':
      what = `wait for the URL to match /${step.pattern}/`;
      break;
    case 'approve':
      what = `approve: click ${step.selector}`;
      break;
    case 'reject':
      what = `reject: click ${step.selector}`;
      break;
    case 'decide':
      what = `decide: click ${step.approve} to approve or ${step.reject} to reject`;
      break;
  }
  return what + name + opt;
}

/** The selector an optional step needs before it can run (none for goto / waitForUrl). */
function selectorOf(step: DriverStep, reject: boolean): string | undefined {
  switch (step.action) {
    case 'goto':
    case 'waitForUrl':
      return undefined;
    case 'decide':
      return reject ? step.reject : step.approve;
    default:
      return step.selector;
  }
}

/**
 * The selectors whose appearance means an optional step at `i` will not be needed: those of the
 * steps after it, up to and including the first one that is not optional (the page has moved on
 * to what that step needs).
 */
function followers(steps: DriverStep[], i: number, reject: boolean): string[] {
  const out: string[] = [];
  for (let k = i + 1; k < steps.length; k++) {
    const s = steps[k]!;
    if (s.action === 'approve' && reject) continue;
    if (s.action === 'reject' && !reject) continue;
    const sel = selectorOf(s, reject);
    if (!sel) break;
    out.push(sel);
    if (!s.optional) break;
  }
  return out;
}

/**
 * The declarative driver: runs a profile's steps in order (numbered from 1 as in the profile).
 * `approve` / `reject` steps run only in their mode. An `optional` step runs when its selector
 * shows; it is skipped as soon as a later step's selector shows instead (or a watched error), so
 * it costs no fixed wait; with no later selector to race, it waits a short while.
 */
export async function stepsDriver(j: PageJourney, steps: DriverStep[], loginError?: string, consentError?: string): Promise<void> {
  const o = j.options;
  if (loginError) j.errorWatch.push({ code: 'login_failed', selector: loginError });
  if (consentError) j.errorWatch.push({ code: 'consent_error', selector: consentError });
  for (let i = 0; i < steps.length; i++) {
    if (j.done) return;
    const step = steps[i]!;
    const n = i + 1;
    if (step.action === 'approve' && o.reject) continue;
    if (step.action === 'reject' && !o.reject) continue;
    const sel = selectorOf(step, !!o.reject);
    if (step.optional && sel) {
      const next = followers(steps, i, !!o.reject);
      const shown = next.length ? await j.first(sel, next) : (await j.present(sel, OPTIONAL_WAIT_MS)) ? sel : undefined;
      if (shown !== sel) {
        j.steps.push(`${n}. ${describe(step)}: skipped, ${shown ? `the page shows ${shown} instead` : `${sel} not on the page`}`);
        continue;
      }
    }
    await j.step(n, describe(step), async () => {
      switch (step.action) {
        case 'goto':
          await j.page.goto(fillIn(step.url, j), { waitUntil: 'domcontentloaded', timeout: j.budget() });
          return;
        case 'fill':
          await j.fill(step.selector, fillIn(step.value, j));
          return;
        case 'click':
          await j.click(step.selector, { waitForNavigation: step.waitForNavigation });
          return;
        case 'select':
          await j.select(step.selector, step.value);
          return;
        case 'tickAccounts':
          await j.tickAccounts(step.selector, o.accounts, step.by);
          return;
        case 'chooseDebtor':
          await j.chooseDebtor(step.selector, o.debtor, step.by);
          return;
        case 'waitFor':
          await j.waitFor(step.selector);
          return;
        case 'waitForUrl':
          await j.waitForUrl(step.pattern);
          return;
        case 'approve':
        case 'reject':
          await j.click(step.selector);
          return;
        case 'decide':
          await j.click(o.reject ? step.reject : step.approve);
          return;
      }
    });
  }
}
