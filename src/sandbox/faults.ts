/**
 * The sandbox's fault switches. A `rule` fault breaks exactly one rule of docs/rules.md, so that the
 * harness can prove it catches that rule. A `chaos` fault makes one part of the bank misbehave below
 * the rules (slow, cut off, not JSON, 5xx, a redirect, a wrong certificate, a broken PSU page), so
 * that the harness can prove it survives any bank: the run ends, the scenarios that touch that part
 * fail naming the cause, the others still pass. Kept free of heavy imports: `obtpp sandbox
 * --list-faults` and flag validation load only this module.
 */
import { UsageError } from '../errors.ts';

/** One fault: its name (the `--fault` value), the rule it breaks (`CHAOS` for chaos faults), what goes wrong, and its kind. */
export interface FaultInfo {
  name: string;
  rule: string;
  description: string;
  /**
   * `rule`: breaks the rule named; `chaos`: a hostile bank, its scope told in the description;
   * `data`: breaks nothing, but the bank's data leaves the rule named without anything to judge.
   */
  kind: 'rule' | 'chaos' | 'data';
  /** SHOULD: the fault breaks only what the harness demands beyond the official schema (a warning, not a failure). */
  level?: 'SHOULD';
}

/** Faults that break a SHOULD only: the harness reports them as warnings of their rule. */
const SHOULD_FAULTS: ReadonlySet<string> = new Set(['account-field-missing']);

/**
 * The time-outs and size limit of the sandbox's own profile (`sb.profile()`): tight, because the bank
 * is on loopback, so that the chaos faults cost seconds, not minutes. The chaos faults are sized
 * against them (a reply 2 s slower than `requestMs`, a body twice `maxBodyBytes`).
 */
export const SANDBOX_TIMEOUTS = { requestMs: 3_000, browserStepMs: 5_000, authorisationMs: 30_000 } as const;
export const SANDBOX_MAX_BODY_BYTES = 1024 * 1024;
/** How much later than the profile's request time-out the slow-response fault answers. */
export const SLOW_BY_MS = 2_000;
/** Where the redirect-other-host fault sends the TPP (a reserved name: nothing there answers). */
export const OTHER_HOST = 'https://gateway.other-bank.invalid';
/** The only name in the certificate of the tls-host-mismatch fault. */
export const MISMATCHED_NAME = 'other-bank.invalid';

const RULE_TABLE = [
  ['consent-status-not-awaiting', 'AIS-01', 'new account-access consents start as Authorised'],
  ['authorisation-alters-consent', 'AIS-02', 'approving adds ReadBalances and ReadTransactionsDetail and widens the transaction period by a year'],
  ['consent-reads-back-changed', 'AIS-02', 'GET /account-access-consents/{ConsentId} of an authorised consent reads back with its ExpirationDateTime a year later and its TransactionFromDateTime a year earlier (access itself unchanged)'],
  ['partial-grant', 'AIS-03', 'approving grants only the accounts permissions, dropping balances and transactions'],
  ['unselected-accounts', 'AIS-04', 'GET /accounts returns, and data calls accept, every account of the PSU'],
  ['no-token-data-access', 'AIS-05', 'data calls without a token are answered (with the PSU\'s first consent)'],
  ['client-credentials-data-access', 'AIS-05', 'data calls with a client-credentials token are answered'],
  ['transactions-outside-period', 'AIS-07', 'transactions are not bounded by the Transaction Validity Period'],
  ['expired-consent-access', 'AIS-08', 'an expired account-access consent still gives access'],
  ['permission-not-enforced', 'AIS-09', 'balances and transactions are returned without their permission'],
  ['account-field-missing', 'AIS-11', 'accounts come without their Currency (a SHOULD of the standard\'s prose: the official schema makes it optional)'],
  ['accounts-not-array', 'AIS-11', 'GET /accounts answers Data.Account as one object (the first account), not an array'],
  ['currency-lowercase', 'AIS-11', 'accounts carry their Currency in lower case ("gbp"), not an ISO 4217 code'],
  ['deleted-consent-opens-data', 'AIS-12', 'DELETE /account-access-consents/{ConsentId} answers 204 and the consent reads as gone, but its tokens still open the accounts'],
  ['funds-consent-without-debtor', 'COF-01', 'a funds consent without DebtorAccount is accepted'],
  ['funds-unauthorised-consent', 'COF-02', 'a funds confirmation on a consent that is not authorised is answered (client-credentials token accepted)'],
  ['funds-consent-mismatch', 'COF-03', 'a ConsentId in the body that is not the token\'s consent is accepted'],
  ['funds-balance-disclosed', 'COF-04', 'funds confirmations disclose the available balance'],
  ['funds-answer-wrong', 'COF-05', 'FundsAvailable is always true'],
  ['expired-funds-consent-confirms', 'COF-06', 'an expired funds consent still confirms'],
  ['deleted-funds-consent-confirms', 'COF-07', 'a deleted funds consent still confirms'],
  ['debtor-not-asked', 'PIS-02', 'a payment without debtor account is authorised without asking the PSU (the bank picks one)'],
  ['payment-status-unreadable', 'PIS-03', 'GET /{payment-product}/{paymentId}/status fails'],
  ['consent-not-consumed', 'PIS-04', 'a payment-order consent stays Authorised after its payment order was submitted'],
  ['payment-submitted-twice', 'PIS-05', 'a second payment order on a consent already used (another x-idempotency-key) is accepted and creates a second order'],
  ['payment-funds-unauthorised', 'PIS-06', 'the funds check of a payment-order consent answers before the PSU authorised it'],
  ['intent-not-bound', 'SEC-01', 'the authorisation is bound to the PSU\'s most recent consent, not the intent id in the request, and the ID token omits openbanking_intent_id'],
  ['rejected-consent-token', 'SEC-04', 'a rejected consent still redirects with a code that yields a token'],
  ['create-200', 'SEC-05', 'creates answer 200 instead of 201'],
  ['error-body-not-ob', 'SEC-06', 'error bodies are not OBErrorResponse1'],
  ['interaction-id-not-echoed', 'SEC-07', 'x-fapi-interaction-id is not echoed (a new one every time)'],
  ['unsigned-payment-responses', 'SEC-09', 'payment-initiation responses carry no x-jws-signature'],
  ['bad-response-signature', 'SEC-09', 'payment-initiation responses are signed with a key that is not in the bank\'s JWKS (same kid)'],
  ['unsigned-requests-accepted', 'SEC-10', 'payment requests with a missing, tampered or wrongly-keyed x-jws-signature are accepted'],
  ['request-object-none-accepted', 'SEC-11', 'an unsigned request object (alg none) is accepted: its parameters are taken as if sent on the query, and the PSU is shown the login page'],
  ['request-object-exp-not-required', 'SEC-11', 'a request object without exp is accepted'],
  ['par-without-client-auth-accepted', 'SEC-12', 'a pushed authorization request without client authentication (only a client_id) is accepted: 201 with a request_uri'],
  ['pkce-not-required', 'SEC-13', 'authorisation requests (pushed or not) without PKCE are accepted, and their code is exchanged without a code_verifier'],
  ['registration-without-ssa-accepted', 'DCR-01', 'a registration without a software statement, or with one the directory did not sign, is accepted'],
  ['registration-managed-without-token', 'DCR-03', 'the registration (RFC 7592) is read, updated and deleted without its registration access token'],
] as const;

const { requestMs, browserStepMs } = SANDBOX_TIMEOUTS;
const MiB = (n: number) => `${n / (1024 * 1024)} MiB`;

/** Chaos faults: each hits one endpoint family (its scope, first in the sentence), except tls-host-mismatch (the whole bank). */
const CHAOS_TABLE = [
  ['slow-response', 'CHAOS', `balances: GET /accounts/{AccountId}/balances answers only after ${requestMs + SLOW_BY_MS} ms, ${SLOW_BY_MS} ms past the sandbox profile's timeouts.requestMs (${requestMs} ms)`],
  ['connection-reset', 'CHAOS', 'transactions: GET /accounts/{AccountId}/transactions sends its headers and half its body, then resets the connection'],
  ['html-body', 'CHAOS', 'account detail: GET /accounts/{AccountId} answers an HTML page (text/html) in place of its JSON body, status unchanged'],
  ['invalid-json', 'CHAOS', 'funds confirmations: POST /funds-confirmations answers a JSON body cut in half, still labelled application/json'],
  ['wrong-content-type', 'CHAOS', 'payment status: GET /{payment-product}/{paymentId}/status answers its JSON body labelled text/plain'],
  ['oversized-body', 'CHAOS', `transaction detail (A): GET /{account-id}/transactions/{resourceId} answers a ${MiB(2 * SANDBOX_MAX_BODY_BYTES)} body, over the sandbox profile's limits.maxBodyBytes (${MiB(SANDBOX_MAX_BODY_BYTES)})`],
  ['500-no-body', 'CHAOS', 'funds consent read (A): GET /funds-confirmation-consents/{ConsentId} answers 500 with no body'],
  ['503-no-body', 'CHAOS', 'payment consents: POST /{payment-product} answers 503 with no body'],
  ['429-retry-after', 'CHAOS', 'payment read: GET /{payment-product}/{paymentId} answers 429 Too Many Requests with Retry-After: 30 and no body'],
  ['redirect-other-host', 'CHAOS', `funds consents: POST /funds-confirmation-consents answers 307 with Location on another host (${OTHER_HOST})`],
  ['tls-host-mismatch', 'CHAOS', `the whole bank: serves HTTPS (switches TLS on) with a certificate only for ${MISMATCHED_NAME}, not for the host the TPP connects to; nothing can run`],
  ['login-page-hangs', 'CHAOS', 'payment authorisations: the PSU\'s login page sends its first bytes and never finishes loading'],
  ['no-approve-button', 'CHAOS', `payment authorisations: the consent page has no Approve button (the PSU driver waits for it ${browserStepMs} ms, the sandbox profile's timeouts.browserStepMs)`],
] as const;

/** Data faults: nothing is broken, but the rule named cannot be judged on the bank's data (its verdict is not-judged). */
const DATA_TABLE = [
  ['zero-balance', 'COF-05', 'every balance reads 0.00 (an empty account), so no amount is surely covered by the available balance'],
] as const;

/** A fault's name. */
export type FaultName = (typeof RULE_TABLE)[number][0] | (typeof CHAOS_TABLE)[number][0] | (typeof DATA_TABLE)[number][0];
/** A data fault's name. */
export type DataFaultName = (typeof DATA_TABLE)[number][0];
/** A chaos fault's name. */
export type ChaosFaultName = (typeof CHAOS_TABLE)[number][0];

const TABLE: ReadonlyArray<readonly [FaultName, string, string, FaultInfo['kind']]> = [
  ...RULE_TABLE.map(([name, rule, description]) => [name, rule, description, 'rule'] as const),
  ...CHAOS_TABLE.map(([name, rule, description]) => [name, rule, description, 'chaos'] as const),
  ...DATA_TABLE.map(([name, rule, description]) => [name, rule, description, 'data'] as const),
];

/** Every fault: the rule faults in the order of docs/rules.md, then the chaos faults, then the data faults. */
export function listFaults(): FaultInfo[] {
  return TABLE.map(([name, rule, description, kind]) => ({ name, rule, description, kind, ...(SHOULD_FAULTS.has(name) ? { level: 'SHOULD' as const } : {}) }));
}

/** Thrown for a `--fault` that does not exist; the CLI exits 2 with one line naming the valid ones. */
export class UnknownFaultError extends UsageError {
  readonly fault: string;
  constructor(fault: string) {
    super(`unknown sandbox fault "${fault}"; valid faults: ${TABLE.map((f) => f[0]).join(', ')}`, {
      hint: 'obtpp sandbox --list-faults describes each',
    });
    this.fault = fault;
  }
}

/** The switched-on faults, checked once at start. */
export type Faults = ReadonlySet<FaultName>;

/** Validates fault names; throws UnknownFaultError for the first unknown one. */
export function parseFaults(names: readonly string[] = []): Faults {
  const known = new Set<string>(TABLE.map((f) => f[0]));
  for (const name of names) if (!known.has(name)) throw new UnknownFaultError(name);
  return new Set(names as FaultName[]);
}
