// Larchmont Bank (test/independent-bank: written without obtpp's code) and a profile for it, with
// the parts a test changes given as options: a test of the verdicts runs a bank that behaves the
// way the verdict is about, and reads summary.json, the console, HTML and JUnit it left.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportPKCS8, generateKeyPair } from 'jose';
import { startIndependentBank, type BankDefect, type IndependentBank } from '../independent-bank/bank.ts';
import { LARCHMONT_CONSENT_ERROR } from '../independent-bank/profile-parts.ts';
import { runObtpp, type Run } from '../helpers/obtpp.ts';

export interface ProfileOptions {
  /** Leave the funds-confirmation API out of `apis` (the bank offers no CBPII). */
  noCof?: boolean;
  /** The profile's implements for variant A (default: every operation but getTransaction). */
  implementsA?: string[];
  /** Sign payment requests (a signing key; no bank.jwks). */
  signs?: boolean;
  /** Lines added under `bank:`. */
  bank?: string[];
  /** Lines added under `paths:`. */
  paths?: string[];
  /** Replace fields of auth (written as YAML lines under `auth:`), e.g. a wrong redirect URI. */
  auth?: { redirectUri?: string; discoveryUrl?: string; scopesAis?: string; par?: 'auto' | 'never' };
  /** The first fill step's selector (the customer number field). */
  firstSelector?: string;
}

export const ALL_BUT_TRANSACTION_DETAIL = [
  'createAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions',
  'createFundsConsent', 'getFundsConsent', 'deleteFundsConsent', 'confirmFunds',
  'createPaymentConsent', 'getPayment', 'getPaymentStatus',
];

export function profileFor(bank: IndependentBank, o: ProfileOptions = {}): string {
  const auth = o.auth ?? {};
  return `name: Larchmont Bank (verdicts)
variants: [A]
apis:
  ais: { baseUrl: ${bank.apis.ais.A} }
${o.noCof ? '' : `  cof: { baseUrl: ${bank.apis.cof.A} }\n`}  pis: { baseUrl: ${bank.apis.pis.A} }
implements:
  A: [${(o.implementsA ?? ALL_BUT_TRANSACTION_DETAIL).join(', ')}]
paths:
  paymentProduct: domestic-payment-consents
${(o.paths ?? []).map((l) => `  ${l}\n`).join('')}${o.bank?.length ? `bank:\n${o.bank.map((l) => `  ${l}\n`).join('')}` : ''}${o.signs ? 'signing:\n  key: ${env:LARCHMONT_SIGNING_KEY}\n  kid: verdicts-test\n' : ''}auth:
  ${auth.discoveryUrl ? `discoveryUrl: ${auth.discoveryUrl}` : `issuer: ${bank.issuer}`}
  clientId: ${bank.client.clientId}
  clientAuth:
    method: client_secret_post
    secret: \${env:LARCHMONT_CLIENT_SECRET}
  redirectUri: ${auth.redirectUri ?? bank.client.redirectUri}
${auth.par ? `  par: ${auth.par}\n` : ''}${auth.scopesAis ? `  scopes: { ais: ${auth.scopesAis} }\n` : ''}psu:
  username: \${env:LARCHMONT_CUSTOMER_NUMBER}
  password: \${env:LARCHMONT_SECRET_WORD}
  driver:
    kind: steps
    loginError: ".signin-problem"
    consentError: "${LARCHMONT_CONSENT_ERROR}"
    steps:
      - { action: fill, selector: "${o.firstSelector ?? '#customer-number'}", value: "{username}" }
      - { action: click, selector: "#next-btn", waitForNavigation: true, name: continue }
      - { action: fill, selector: "#secret-word", value: "{password}" }
      - { action: click, selector: "#signin-btn", waitForNavigation: true, name: sign in }
      - { action: click, selector: "#notice-ack", waitForNavigation: true, optional: true, name: security notice }
      - { action: waitFor, selector: "form#authorise-request", name: consent page }
      - { action: tickAccounts, selector: "input[name=selectedAccount]", optional: true }
      - { action: chooseDebtor, selector: "input[name=payFrom]", by: value, optional: true }
      - { action: decide, approve: "#btn-grant", reject: "#btn-deny", name: decision }
timeouts: { browserStepMs: 5000 }
`;
}

export interface Conformed extends Run { summary: any; junit: string; html: string; dir: string }

/** One bank for a test file, a folder for its profiles and reports, and `obtpp conform` against it. */
export async function larchmont(defects: BankDefect[] = []) {
  const bank = await startIndependentBank({ defects });
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-verdicts-'));
  const { privateKey } = await generateKeyPair('PS256', { extractable: true });
  const env: Record<string, string> = {
    LARCHMONT_CLIENT_SECRET: bank.client.clientSecret,
    LARCHMONT_CUSTOMER_NUMBER: bank.psu.username,
    LARCHMONT_SECRET_WORD: bank.psu.password,
    LARCHMONT_SIGNING_KEY: await exportPKCS8(privateKey),
  };
  let n = 0;
  return {
    bank,
    env,
    /** `obtpp conform` with this profile and these arguments (variant A), its reports read back. */
    async conform(profile: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Conformed> {
      const run = join(dir, `run-${++n}`);
      const file = `${run}.yaml`;
      await writeFile(file, profile);
      const out = await runObtpp(['conform', '--profile', file, '--variant', 'A', '--report-dir', run, ...args], { env: { ...env, ...extraEnv }, timeoutMs: 240_000 });
      const read = (f: string) => readFile(join(run, f), 'utf8').catch(() => '');
      const text = await read('summary.json');
      return { ...out, dir: run, summary: text ? JSON.parse(text) : undefined, junit: await read('junit.xml'), html: await read('report.html') };
    },
    async stop() {
      await bank.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const ruleOf = (summary: any, id: string): any => summary?.variants?.[0]?.rules.find((r: any) => r.id === id);
