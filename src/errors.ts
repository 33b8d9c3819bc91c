/**
 * One error base class for everything the harness itself gets wrong or cannot do.
 * A failed conformance rule is not one of these: it is a verdict with evidence.
 *
 * Exit codes mean one thing each: 0 conformant / success, 1 non-conformant,
 * 2 usage or profile error, 3 the harness could not run (bank unreachable, no browser).
 */
export const ExitCode = {
  ok: 0,
  nonConformant: 1,
  usage: 2,
  cannotRun: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface ObtppErrorOptions {
  hint?: string;
  cause?: unknown;
  exitCode?: ExitCode;
}

export class ObtppError extends Error {
  /** Stable machine-readable code, e.g. `profile_invalid`. */
  readonly code: string;
  /** What the user can do about it, one sentence. */
  readonly hint?: string;
  readonly exitCode: ExitCode;

  constructor(code: string, message: string, options: ObtppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? ExitCode.cannotRun;
  }
}

/** Bad flags, unknown commands, arguments that cannot be right. Exit 2. */
export class UsageError extends ObtppError {
  constructor(message: string, options: Omit<ObtppErrorOptions, 'exitCode'> = {}) {
    super('usage', message, { ...options, exitCode: ExitCode.usage });
  }
}

/** A profile that cannot be loaded or does not validate. Exit 2. */
export class ProfileError extends ObtppError {
  readonly problems: string[];
  constructor(message: string, problems: string[] = [], options: Omit<ObtppErrorOptions, 'exitCode'> = {}) {
    super('profile_invalid', message, { ...options, exitCode: ExitCode.usage });
    this.problems = problems;
  }
}

/** Session state that is missing what a command needs (no consent, no token). Exit 2. */
export class StateError extends ObtppError {
  constructor(code: string, message: string, options: Omit<ObtppErrorOptions, 'exitCode'> = {}) {
    super(code, message, { ...options, exitCode: ExitCode.usage });
  }
}

/** The bank could not be reached at all (DNS, refused, TLS). Exit 3. */
export class BankUnreachableError extends ObtppError {
  constructor(message: string, options: Omit<ObtppErrorOptions, 'exitCode'> = {}) {
    super('bank_unreachable', message, { ...options, exitCode: ExitCode.cannotRun });
  }
}

/** No Chromium could be found or started. Exit 3. */
export class BrowserUnavailableError extends ObtppError {
  constructor(message: string, options: Omit<ObtppErrorOptions, 'exitCode'> = {}) {
    super('browser_unavailable', message, {
      hint: 'install Chromium (Debian: apt-get install -y chromium, and chromium-headless-shell for faster headless runs) or set PUPPETEER_EXECUTABLE_PATH to a Chrome/Chromium binary',
      ...options,
      exitCode: ExitCode.cannotRun,
    });
  }
}

/**
 * A transport-level failure of one exchange (time-out, reset, body too large, TLS).
 * The exchange that failed rides along so a verdict can show it.
 */
export class HttpError extends ObtppError {
  readonly exchange?: unknown;
  constructor(code: string, message: string, options: Omit<ObtppErrorOptions, 'exitCode'> & { exchange?: unknown } = {}) {
    super(code, message, { ...options, exitCode: ExitCode.cannotRun });
    this.exchange = options.exchange;
  }
}

/**
 * An error the bank answered, in the bank's own words (status, ErrorCode, Message).
 * Used by the CLI; the conformance steps judge the exchange instead.
 */
export class BankError extends ObtppError {
  readonly status: number;
  readonly bankCode?: string;
  readonly exchange?: unknown;
  constructor(status: number, message: string, options: Omit<ObtppErrorOptions, 'exitCode'> & { bankCode?: string; exchange?: unknown } = {}) {
    super('bank_error', message, { ...options, exitCode: ExitCode.nonConformant });
    this.status = status;
    this.bankCode = options.bankCode;
    this.exchange = options.exchange;
  }
}

/** OAuth / PSU-journey failures, named after the protocol's own codes where there is one. */
export class AuthorisationError extends ObtppError {
  /** e.g. access_denied, invalid_grant, state_mismatch, login_failed, step_timeout */
  readonly oauthError: string;
  readonly evidence?: { url?: string; screenshot?: string; step?: number; description?: string };
  constructor(oauthError: string, message: string, options: Omit<ObtppErrorOptions, 'exitCode'> & { evidence?: AuthorisationError['evidence'] } = {}) {
    super(oauthError, message, { ...options, exitCode: ExitCode.nonConformant });
    this.oauthError = oauthError;
    this.evidence = options.evidence;
  }
}

/**
 * The bank's authorisation server refuses the flow the profile asked of it (a response type or mode
 * it does not offer, DPoP it does not take, a sender constraint it does not bind, PAR it lacks or
 * requires): obtpp cannot get a token its way, so nothing can be judged. A set-up error (exit 3)
 * naming the profile field to change, never a bank failure.
 */
export class FlowRefusedError extends ObtppError {
  /** The profile field to change, e.g. `security.responseType`. */
  readonly field: string;
  constructor(field: string, message: string, options: Omit<ObtppErrorOptions, 'exitCode' | 'hint'> = {}) {
    super('flow_refused', `set-up error, nothing was judged: ${field}: ${message}`, {
      ...options,
      exitCode: ExitCode.cannotRun,
      hint: `change ${field} in the profile to what the bank's authorisation server runs (docs/security.md), then run again`,
    });
    this.field = field;
  }
}

/** Renders an error as the one line the CLI prints. */
export function oneLine(error: unknown): string {
  if (error instanceof ObtppError) {
    return error.hint ? `${error.message} (${error.hint})` : error.message;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
