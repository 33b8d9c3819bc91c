/**
 * The sandbox's fault switches. A `rule` fault breaks exactly one rule of docs/rules.md, so that the
 * harness can prove it catches that rule. A `chaos` fault makes one part of the bank misbehave below
 * the rules (slow, cut off, not JSON, 5xx, a redirect, a wrong certificate, a broken PSU page), so
 * that the harness can prove it survives any bank: the run ends, the scenarios that touch that part
 * fail naming the cause, the others still pass. Kept free of heavy imports: `obtpp sandbox
 * --list-faults` and flag validation load only this module and the fault declarations of the
 * route modules (obie/*.ts), which keep their heavy imports lazy.
 *
 * A fault that bends a resource route is declared next to that route, in its API's module
 * (obie/ais.ts, obie/ais-uk.ts, obie/cbpii.ts, obie/pis.ts; obie/plumbing.ts for those that bend every route); here are
 * the faults of the authorisation server, the PSU's pages and registration, and the chaos faults
 * (chaos.ts bends the wire of the routes it names). This registry collects them all.
 */
import { UsageError } from '../errors.ts';
import type { FaultDeclaration } from './fault-declaration.ts';
import type { Standard } from '../profile/types.ts';
import { AIS_FAULTS } from './obie/ais.ts';
import { AIS_UK_FAULTS } from './obie/ais-uk.ts';
import { CBPII_FAULTS } from './obie/cbpii.ts';
import { PIS_FAULTS } from './obie/pis.ts';
import { PIS_FAMILY_FAULTS } from './obie/pis-families.ts';
import { PLUMBING_FAULTS } from './obie/plumbing.ts';
import { VRP_FAULTS } from './obie/vrp.ts';
import { V4_FAULTS } from './obie/v4.ts';
import { V4_PIS_FAULTS } from './obie/v4-pis.ts';
import { VRP_V4_FAULTS } from './obie/vrp-v4.ts';

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
  /** The published standard whose layout the rule is judged in (`obtpp conform --standard …`). */
  standard?: Standard;
  /** berlin-group: the SCA approaches the bank must offer for the fault to show (its run's `--sca`). */
  sca?: string[];
  /** berlin-group: the fault shows only in a bank that signs (its run's `--signatures`). */
  signatures?: boolean;
  /** The sandbox security profile whose flow the fault bends (its run's `--security`). */
  security?: string;
}

/**
 * The time-outs and size limit of the sandbox's own profile (`sb.profile()`): tight, because the bank
 * is on loopback, so that the chaos faults cost seconds, not minutes. The chaos faults are sized
 * against them (a reply 2 s slower than `requestMs`, a body twice `maxBodyBytes`).
 */
export const SANDBOX_TIMEOUTS = { requestMs: 3_000, browserStepMs: 5_000, authorisationMs: 30_000 } as const;
export const SANDBOX_MAX_BODY_BYTES = 1024 * 1024;
/** How much later than the profile's request time-out the slow-response fault answers. */
export const SLOW_BY_MS = 2_000;
/** How deep the json-bomb fault nests its answer (a JSON bomb: `[` that many times, then `]`). */
export const JSON_BOMB_DEPTH = 200_000;
/** Where the redirect-other-host fault sends the TPP (a reserved name: nothing there answers). */
export const OTHER_HOST = 'https://gateway.other-bank.invalid';
/** The only name in the certificate of the tls-host-mismatch fault. */
export const MISMATCHED_NAME = 'other-bank.invalid';

/** Rule faults of the authorisation server, the PSU's pages and registration (no resource route). */
const RULE_TABLE = [
  ['authorisation-alters-consent', 'AIS-02', 'approving adds ReadBalances and ReadTransactionsDetail and widens the transaction period by a year'],
  ['partial-grant', 'AIS-03', 'approving grants only the accounts permissions, dropping balances and transactions'],
  ['debtor-not-asked', 'PIS-02', 'a payment without debtor account is authorised without asking the PSU (the bank picks one)'],
  ['intent-not-bound', 'SEC-01', 'the authorisation is bound to the PSU\'s most recent consent, not the intent id in the request, and the ID token omits openbanking_intent_id'],
  ['rejected-consent-token', 'SEC-04', 'a rejected consent still redirects with a code that yields a token'],
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
  ['json-bomb', 'CHAOS', `account list: GET /accounts answers 200 with JSON nested ${JSON_BOMB_DEPTH} levels deep (a JSON bomb of ${JSON_BOMB_DEPTH * 2 / 1000} KB) in place of the account list; a refusal keeps its error body`],
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

/**
 * Rule faults of the authorisation server's security profile (SEC-14): each shows only in the
 * sandbox set-up (`--security`) whose flow it bends.
 */
const SECURITY_FAULTS = [
  { name: 'hybrid-id-token-without-s-hash', rule: 'SEC-14', kind: 'rule', security: 'fapi1-advanced', description: 'the hybrid flow\'s ID token carries no s_hash: the authorization response is served as plain OpenID Connect, not as FAPI 1.0 Advanced\'s detached signature' },
  { name: 'jarm-signed-rs256', rule: 'SEC-14', kind: 'rule', security: 'fapi1-advanced-par-jarm', description: 'JARM responses are signed with RS256, an algorithm FAPI refuses' },
  { name: 'authorization-response-iss-wrong', rule: 'SEC-14', kind: 'rule', security: 'fapi2-dpop', description: 'the authorization response\'s iss (RFC 9207) names another issuer' },
  // The OpenID Foundation's FAPI modules (SEC-16 … SEC-24): one fault per rule, each in the set-up it bends.
  { name: 'discovery-id-token-rs256', rule: 'SEC-16', kind: 'rule', security: 'fapi2-dpop', description: 'the discovery document says ID tokens are signed only with RS256 (id_token_signing_alg_values_supported), an algorithm FAPI refuses' },
  { name: 'request-object-nbf-not-required', rule: 'SEC-17', kind: 'rule', security: 'fapi1-advanced', description: 'request objects are taken without nbf, and with exp more than 60 minutes after nbf (FAPI\'s limits of a request object\'s lifetime are not checked)' },
  { name: 'unregistered-redirect-uri-accepted', rule: 'SEC-19', kind: 'rule', security: 'fapi1-advanced', description: 'the authorization endpoint takes any redirect_uri, registered or not' },
  { name: 'authorization-code-reusable', rule: 'SEC-20', kind: 'rule', security: 'fapi2-dpop', description: 'an authorization code is never consumed: the token endpoint exchanges it again and again' },
  { name: 'client-assertion-clock-lenient', rule: 'SEC-21', kind: 'rule', security: 'fapi2-dpop', description: 'the authorisation server allows 15 minutes of clock skew in what it is sent: a client assertion that expired 5 minutes ago is taken' },
  { name: 'par-request-uri-in-form-ignored', rule: 'SEC-22', kind: 'rule', security: 'fapi2-dpop', description: 'a pushed request carrying a request_uri in its form is taken (the request_uri dropped unread), not refused' },
  { name: 'intent-of-another-client-accepted', rule: 'SEC-24', kind: 'rule', security: 'fapi1-advanced', description: 'an authorisation request may name a consent another client created (openbanking_intent_id is checked to await authorisation, not to be the client\'s)' },
] as const satisfies readonly FaultDeclaration[];

/** Every declared fault, in no particular order (`TABLE` orders them). */
const DECLARED = [
  ...RULE_TABLE.map(([name, rule, description]) => ({ name, rule, description, kind: 'rule' as const })),
  ...SECURITY_FAULTS,
  ...AIS_FAULTS, ...AIS_UK_FAULTS, ...CBPII_FAULTS, ...PIS_FAULTS, ...PIS_FAMILY_FAULTS, ...VRP_FAULTS, ...VRP_V4_FAULTS, ...V4_FAULTS, ...V4_PIS_FAULTS, ...PLUMBING_FAULTS,
  ...CHAOS_TABLE.map(([name, rule, description]) => ({ name, rule, description, kind: 'chaos' as const })),
] as const;

/** A fault's name. */
export type FaultName = (typeof DECLARED)[number]['name'];
/** A data fault's name. */
export type DataFaultName = Extract<(typeof DECLARED)[number], { kind: 'data' }>['name'];
/** A chaos fault's name. */
export type ChaosFaultName = (typeof CHAOS_TABLE)[number][0];

/** The order of the rule families in docs/rules.md. */
const FAMILIES = ['AIS', 'COF', 'PIS', 'VRP', 'SEC', 'DCR', 'UKAIS', 'UKCOF', 'UKPIS'];
const KINDS: FaultInfo['kind'][] = ['rule', 'chaos', 'data'];

/**
 * Orders declarations as docs/rules.md does: by kind (rule, chaos, data), then by rule (family,
 * then number); faults of one rule keep the order in which they are declared (a stable sort).
 */
export function orderFaults<F extends FaultDeclaration>(faults: readonly F[], families: readonly string[]): F[] {
  const rank = (f: FaultDeclaration) => {
    const [family, n] = f.rule.split('-');
    return [KINDS.indexOf(f.kind), families.indexOf(family!), Number(n ?? 0)];
  };
  return [...faults].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
  });
}

const TABLE: readonly FaultDeclaration[] = orderFaults<FaultDeclaration>(DECLARED, FAMILIES);

/** Every fault: the rule faults in the order of docs/rules.md, then the chaos faults, then the data faults. */
export function listFaults(): FaultInfo[] {
  return TABLE.map(({ name, rule, description, kind, level, standard, security }) => ({ name, rule, description, kind, ...(level ? { level } : {}), ...(standard ? { standard } : {}), ...(security ? { security } : {}) }));
}

/** Thrown for a `--fault` that does not exist; the CLI exits 2 with one line naming the valid ones. */
export class UnknownFaultError extends UsageError {
  readonly fault: string;
  constructor(fault: string) {
    super(`unknown sandbox fault "${fault}"; valid faults: ${TABLE.map((f) => f.name).join(', ')}`, {
      hint: 'obtpp sandbox --list-faults describes each',
    });
    this.fault = fault;
  }
}

/** The switched-on faults, checked once at start. */
export type Faults = ReadonlySet<FaultName>;

/** Validates fault names; throws UnknownFaultError for the first unknown one. */
export function parseFaults(names: readonly string[] = []): Faults {
  const known = new Set<string>(TABLE.map((f) => f.name));
  for (const name of names) if (!known.has(name)) throw new UnknownFaultError(name);
  return new Set(names as FaultName[]);
}
