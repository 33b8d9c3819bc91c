// What every UK-layout profile of the independent bank (Larchmont) says the same way: its
// authorisation server and client, its PSU and the steps through its own sign-in and consent
// pages, and the environment that holds their secrets (the profiles name them as ${env:…}).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { startIndependentBank } from './bank.ts';

type Bank = Awaited<ReturnType<typeof startIndependentBank>>;

/**
 * The page Larchmont shows instead of the consent after the sign-in (an expired or unknown
 * request, an account that is not the customer's): its notice, on a page with no form. A profile's
 * `psu.driver.consentError`: without it a journey that gets this page waits out its step's time-out.
 */
export const LARCHMONT_CONSENT_ERROR = 'main:not(:has(form)) > .notice--bad';

/** The driver's selectors for a refused sign-in and for the page in place of the consent (null: not named). */
export interface LarchmontErrorPages {
  loginError?: string;
  consentError?: string | null;
}

/**
 * The `auth` and `psu` blocks of a Larchmont profile (YAML, at the top level). `payments` adds
 * the step that chooses the debtor account on a payment's consent page; `errorPages` changes the
 * driver's error selectors (by default Larchmont's own).
 */
export function larchmontAuthAndPsu(bank: Bank, options: { payments?: boolean; errorPages?: LarchmontErrorPages } = {}): string {
  const loginError = options.errorPages?.loginError ?? '.signin-problem';
  const consentError = options.errorPages?.consentError === null ? undefined : options.errorPages?.consentError ?? LARCHMONT_CONSENT_ERROR;
  // The key that signs request objects, where the bank's flow has them (the hybrid flow).
  const key = bank.client.privateKeyPem ? `
    privateKey: \${env:LARCHMONT_TPP_KEY}
    kid: ${bank.client.kid}` : '';
  return `auth:
  issuer: ${bank.issuer}
  clientId: ${bank.client.clientId}
  clientAuth:
    method: client_secret_post
    secret: \${env:LARCHMONT_CLIENT_SECRET}${key}
  redirectUri: ${bank.client.redirectUri}
psu:
  username: \${env:LARCHMONT_CUSTOMER_NUMBER}
  password: \${env:LARCHMONT_SECRET_WORD}
  driver:
    kind: steps
    loginError: "${loginError}"
${consentError ? `    consentError: "${consentError}"\n` : ''}    steps:
      - { action: fill, selector: "#customer-number", value: "{username}" }
      - { action: click, selector: "#next-btn", waitForNavigation: true, name: continue }
      - { action: fill, selector: "#secret-word", value: "{password}" }
      - { action: click, selector: "#signin-btn", waitForNavigation: true, name: sign in }
      - { action: click, selector: "#notice-ack", waitForNavigation: true, optional: true, name: security notice }
      - { action: waitFor, selector: "form#authorise-request", name: consent page }
      - { action: tickAccounts, selector: "input[name=selectedAccount]", optional: true }
${options.payments ? '      - { action: chooseDebtor, selector: "input[name=payFrom]", by: value, optional: true }\n' : ''}      - { action: decide, approve: "#btn-grant", reject: "#btn-deny", name: decision }
`;
}

/** The secrets the profile's ${env:…} names resolve to. */
export function larchmontEnv(bank: Bank): Record<string, string> {
  return { LARCHMONT_CLIENT_SECRET: bank.client.clientSecret, LARCHMONT_CUSTOMER_NUMBER: bank.psu.username, LARCHMONT_SECRET_WORD: bank.psu.password, ...(bank.client.privateKeyPem ? { LARCHMONT_TPP_KEY: bank.client.privateKeyPem } : {}) };
}

/**
 * A profile of Larchmont's UK layout with message signing (the TPP's key the bank made, its JWKS
 * for the bank's signatures), every API on its own server: written to `dir` with the key beside
 * it. Returns the profile's path.
 */
export async function writeSignedUkProfile(bank: Bank, dir: string, o: { file: string; comment: string; name: string; standard: 'uk-3.1' | 'uk-4.0'; operations: readonly string[]; errorPages?: LarchmontErrorPages }): Promise<string> {
  await writeFile(join(dir, 'tpp-signing.pem'), bank.tppSigningKey!.pem, { mode: 0o600 });
  const file = join(dir, o.file);
  await writeFile(file, `# ${o.comment}
name: ${o.name}
standard: ${o.standard}
apis:
  ais: { baseUrl: ${bank.apis.ais.A} }
  cof: { baseUrl: ${bank.apis.cof.A} }
  pis: { baseUrl: ${bank.apis.pis.A} }
implements:
  A: [${o.operations.join(', ')}]
signing:
  key: file:tpp-signing.pem
  kid: ${bank.tppSigningKey!.kid}
bank:
  jwks: ${bank.issuer}/jwks
${larchmontAuthAndPsu(bank, { payments: true, errorPages: o.errorPages })}`);
  return file;
}
