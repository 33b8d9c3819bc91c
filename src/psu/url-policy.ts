/**
 * What the PSU's browser may open. Every URL it is handed comes from the bank (the authorization
 * endpoint, a Berlin Group scaRedirect or scaOAuth link, the redirects of the bank's pages), and a
 * browser told to open file:///… or chrome://… would show the PSU's machine to the bank's pages and
 * to the failure screenshots. Only http(s) documents are opened: https, or http when the profile
 * says tls.insecure or the page is on this machine (the sandbox, a bank under test on loopback).
 */
import { AuthorisationError } from '../errors.ts';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Why the browser must not open `url` (one clause), or undefined when it may. */
export function unsafeUrlProblem(url: string, insecure: boolean): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (u.protocol === 'https:') return undefined;
  if (u.protocol === 'http:') {
    if (insecure || LOOPBACK.test(u.hostname)) return undefined;
    return `http://${u.host}/…, not https (only a bank on this machine, or a profile with tls.insecure, is opened over http)`;
  }
  // The scheme alone: a data: or javascript: URL's rest is the bank's content, not a name worth printing.
  return `${u.protocol}…, not http(s)`;
}

/** Throws AuthorisationError `unsafe_url` ("the bank's scaRedirect is file:…, not http(s)") unless the browser may open `url`. */
export function refuseUnsafeUrl(url: string, what: string, insecure: boolean): void {
  const problem = unsafeUrlProblem(url, insecure);
  if (problem) throw new AuthorisationError('unsafe_url', `the bank's ${what} is ${problem}: obtpp shows the PSU only http(s) pages`);
}

/**
 * Whether a document the browser shows during a journey is acceptable: an http(s) page, or the
 * blank pages Chromium makes itself (a new tab, an iframe's srcdoc). Anything else (data:, blob:,
 * file:, chrome:, view-source:, filesystem:) ends the journey.
 */
export function documentAllowed(url: string): boolean {
  if (url === '' || url === 'about:blank' || url === 'about:srcdoc') return true;
  return /^https?:\/\//i.test(url);
}

/**
 * CDP Fetch patterns that pause every request for a local file (documents, frames, scripts,
 * images; view-source:file: too) so that it is failed before Chromium reads the file. Chromium
 * itself refuses a bank page's links and redirects to file:, chrome: and data: documents; these
 * patterns also cover what the browser is told to open, and cost nothing on http(s) requests,
 * which they do not match.
 */
export const BLOCKED_PATTERNS: ReadonlyArray<{ urlPattern: string; requestStage: 'Request' }> = [
  { urlPattern: 'file:*', requestStage: 'Request' },
  { urlPattern: 'filesystem:*', requestStage: 'Request' },
];
