import type { AccountChoice, PsuDriver } from '../profile/types.ts';

export type { AccountChoice } from '../profile/types.ts';

export interface JourneyOptions {
  /** The TPP's redirect URI: a request to it (same origin and path) ends the journey. */
  redirectUri: string;
  /**
   * A page that never sends the PSU back to the TPP (the bank's app of a decoupled SCA): the
   * journey ends when an element matching this selector shows after the driver's steps.
   */
  doneSelector?: string;
  driver: PsuDriver;
  username: string;
  /** Typed only into the bank's page; never in a step description, an error or evidence. */
  password: string;
  /** Press reject instead of approve. */
  reject?: boolean;
  /** Which offered accounts to tick: by position (first, all, first n) or by name; default all offered. */
  accounts?: AccountChoice;
  /** The debtor to choose when the page offers a choice (AccountId / identification / name / index); default the first. */
  debtor?: string;
  stepTimeoutMs: number;
  totalTimeoutMs: number;
  /** Where failure screenshots go (the report's evidence folder); none are taken without it. */
  evidenceDir?: string;
  /** What the bank calls the URL the journey starts at, for the error when it is not http(s) (default "authorization URL"; "scaRedirect"…). */
  urlName?: string;
  /** Called with each step's description as it starts. */
  onStep?: (description: string) => void;
  /** Which https certificates the browser accepts beyond the system's (a bank on a private CA). */
  trust?: BrowserTrust;
  /** Manual mode prints the URL and instructions through this (stderr in the CLI). */
  log?: (line: string) => void;
}

export interface JourneyResult {
  /** The full URL the bank redirected the PSU to (code or error, and state). */
  callbackUrl: string;
  /** The accounts the consent page offered (empty when it offered none, or in manual mode). */
  offeredAccounts: Array<{ id: string; label: string }>;
  /** The accounts ticked before approving. */
  selectedAccounts: string[];
  debtorChosen?: string;
  /** Whether the page asked the PSU to choose a debtor account. */
  debtorOffered: boolean;
  /** Origin of the page where the password was typed ('' in manual mode, where the PSU typed it). */
  loginOrigin: string;
  /** The steps as run, numbered, with descriptions (no secret in any of them). */
  steps: string[];
}

/**
 * Certificates the browser accepts beyond its own trust store, as the profile's HTTP client does:
 * chains holding a key of `caPem` (the profile's mtls.ca), or anything at all when `insecure`
 * (the profile's tls.insecure).
 */
export interface BrowserTrust {
  caPem?: string;
  insecure?: boolean;
}
