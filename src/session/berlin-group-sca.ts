/**
 * The terminal client's decoupled and embedded SCA (NextGenPSD2), for consents and payments alike.
 * Decoupled: the TPP tells the PSU to approve in the bank's app, then polls the authorisation's
 * scaStatus until it is final or the time is up. Embedded: the TPP carries the PSU's password,
 * the chosen SCA method and the one-time password to the authorisation (PUT …/authorisations/{id}).
 * The PSU's password and one-time password are secrets: they go into the request bodies and
 * nowhere else (the HTTP core masks them in every captured exchange).
 */
import { BankError, UsageError } from '../errors.ts';
import type { ApiResult, CallOptions } from '../client/operations.ts';
import { authorisationOps, type AuthorisationOps } from './berlin-group-authorisations.ts';
export type { AuthorisationOps } from './berlin-group-authorisations.ts';
import { paymentClient } from './berlin-group-paths.ts';
import { authorisationIdOf, bgHeaders, linkOf, scaStatusOf } from '../dialects/berlin-group/builders.ts';
import type { ConsentRecord } from './state.ts';
import type { AuthoriseOutcome, InAppRequest, Session } from './index.ts';

/** The headers of a create that asks for the approach (FACTS §6.2): decoupled and embedded name the PSU and prefer not to be redirected. */
export function inAppCreationHeaders(session: Session, approach: 'decoupled' | 'embedded', psuId?: string): Record<string, string> {
  return {
    'PSU-ID': psuId ?? session.profile.psu.username,
    'TPP-Redirect-Preferred': 'false',
    'TPP-Decoupled-Preferred': String(approach === 'decoupled'),
  };
}

/**
 * The link a decoupled or embedded SCA goes on with, from the create's answer: the authorisation
 * the bank started (scaStatus), else the link to start one (startAuthorisation…).
 */
export function inAppLink(body: unknown, base: string): { href: string; start?: true } | undefined {
  const status = linkOf(body, 'scaStatus', base);
  if (status) return { href: status };
  const start = startLinkOf(body, base);
  return start ? { href: start, start: true } : undefined;
}

/** The link to start an authorisation (explicit start: the bank leaves it to the TPP), if the answer has one. */
export function startLinkOf(body: unknown, base: string): string | undefined {
  for (const name of ['startAuthorisationWithPsuAuthentication', 'startAuthorisation', 'startAuthorisationWithPsuIdentification', 'startAuthorisationWithEncryptedPsuAuthentication', 'startAuthorisationWithAuthenticationMethodSelection', 'startAuthorisationWithTransactionAuthorisation'] as const) {
    const href = linkOf(body, name, base);
    if (href) return href;
  }
  return undefined;
}

const bare = (headers: Record<string, string>): CallOptions => ({ token: null, interactionId: false, idempotencyKey: false, headers });
const FINAL = new Set(['finalised', 'failed', 'exempted']);
/** The decoupled SCA's reads of the scaStatus: the first pause, and the longest. */
const FIRST_POLL_MS = 250;
const MAX_POLL_MS = 3_000;

/** What a decoupled or embedded SCA authorises: a consent, a payment or a signing basket. */
export interface InAppTarget {
  id: string;
  /** "the consent", "the payment", "the signing basket" (the PSU's instructions name it). */
  label: string;
  sca: NonNullable<ConsentRecord['sca']>;
  ops: AuthorisationOps;
}

/** The authorisation's operations for a consent or a payment (its service and product in the path). */
export function operations(session: Session, record: ConsentRecord): AuthorisationOps {
  return record.fn === 'pis' ? authorisationOps(paymentClient(session, record), 'payment', record.id) : authorisationOps(session.client, 'consent', record.id);
}

/**
 * Walks a decoupled or embedded SCA to its end and says how it ended: `authorised` once the
 * scaStatus is finalised (or exempted), `rejected` when it is failed. The caller reads the
 * resource's status after (a finalised SCA of a payment the bank then rejects is the bank's).
 */
export function authoriseInApp(session: Session, record: ConsentRecord, request: InAppRequest): Promise<{ scaStatus: string; outcome: AuthoriseOutcome['status'] }> {
  return walkInApp(session, { id: record.id, label: record.fn === 'pis' ? 'the payment' : 'the consent', sca: record.sca!, ops: operations(session, record) }, request);
}

/** authoriseInApp for any target (a signing basket's too). */
export async function walkInApp(session: Session, target: InAppTarget, request: InAppRequest): Promise<{ scaStatus: string; outcome: AuthoriseOutcome['status'] }> {
  const { sca, ops } = target;
  const approach = sca.approach as 'decoupled' | 'embedded';
  const psuId = request.psuId ?? session.profile.psu.username;
  const psu = bgHeaders({ ...(session.profile.psuIpAddress ? { psuIpAddress: session.profile.psuIpAddress } : {}) });
  const headers = () => ({ ...bgHeaders(), 'PSU-ID': psuId, ...(psu['PSU-IP-Address'] ? { 'PSU-IP-Address': psu['PSU-IP-Address'] } : {}) });
  let authorisationId = sca.start ? undefined : sca.href.split('/').filter(Boolean).at(-1);
  let last: ApiResult | undefined;
  // A secret the PSU typed is masked in every exchange from the moment it is known.
  const secret = async (what: 'password' | 'one-time password', label: string) => {
    if (!request.secret) missing(label);
    const value = await request.secret(what);
    if (!value) missing(label);
    session.http.redactor.add(value);
    return value;
  };
  for (const given of [request.otp, request.password]) if (given) session.http.redactor.add(given);
  const password = async () => request.password || session.profile.psu.password || secret('password', 'the PSU\'s password');
  if (!authorisationId) {
    // The bank asked the TPP to start the authorisation (explicit start); embedded: with the password.
    const body = approach === 'embedded' && /PsuAuthentication$/.test(sca.href) ? { psuData: { password: await password() } } : {};
    last = session.check(await ops.start(body, bare(headers())), [201]);
    authorisationId = authorisationIdOf(last.body);
    if (!authorisationId) throw new BankError(last.status, 'the bank started the authorisation but gave no authorisationId', { exchange: last.exchange });
  }
  const id = authorisationId;
  if (approach === 'decoupled') {
    request.log?.(`approve ${target.label} ${target.id} in your banking app (${psuId}); waiting for the bank's SCA status…`);
    const deadline = Date.now() + (request.timeoutMs ?? session.profile.timeouts.authorisationMs);
    // NextGenPSD2 gives the scaStatus no Retry-After, and the PSU approves in the app whenever they
    // do: the TPP reads at once, then after pauses that start short (an approval right away is seen
    // right away) and grow by half up to a few seconds (a PSU who takes a minute is not read every
    // second), the last read at the deadline.
    let pause = request.pollMs ?? FIRST_POLL_MS;
    for (;;) {
      last = session.check(await ops.read(id, bare(headers())), [200]);
      const status = scaStatusOf(last.body);
      if (status && FINAL.has(status)) return { scaStatus: status, outcome: status === 'failed' ? 'rejected' : 'authorised' };
      const left = deadline - Date.now();
      if (left <= 0) throw new UsageError(`the PSU did not approve in time: the authorisation ${id} still reads ${status ?? 'no scaStatus'}`, { hint: 'approve in the banking app, then run obtpp consent authorise again (or give a longer --timeout)' });
      await new Promise((r) => setTimeout(r, Math.min(pause, left)));
      pause = Math.min(pause * 1.5, Math.max(MAX_POLL_MS, request.pollMs ?? 0));
    }
  }
  // Embedded: identification and password, the SCA method where the bank offers several, the one-time password.
  let status = scaStatusOf(last?.body) ?? scaStatusOf(session.check(await ops.read(id, bare(headers())), [200]).body);
  if (status === 'received' || status === 'psuIdentified') {
    last = session.check(await ops.update(id, { psuData: { password: await password() } }, bare(headers())), [200]);
    status = scaStatusOf(last.body);
  }
  if (status === 'psuAuthenticated') {
    const methods = ((last?.body as { scaMethods?: Array<{ authenticationMethodId?: unknown }> } | undefined)?.scaMethods ?? [])
      .map((m) => m.authenticationMethodId).filter((m): m is string => typeof m === 'string');
    const wanted = session.profile.sca?.authenticationMethodId;
    const method = wanted && methods.includes(wanted) ? wanted : methods[0];
    if (!method) throw new BankError(last?.status ?? 200, 'the bank asks for an SCA method and offers none (scaMethods)', last ? { exchange: last.exchange } : {});
    last = session.check(await ops.update(id, { authenticationMethodId: method }, bare(headers())), [200]);
    status = scaStatusOf(last.body);
  }
  if (status === 'scaMethodSelected') {
    const otp = request.otp ?? session.profile.sca?.otp ?? (await secret('one-time password', 'the one-time password'));
    last = session.check(await ops.update(id, { scaAuthenticationData: otp }, bare(headers())), [200, 401]);
    status = last.status === 401 ? 'failed' : scaStatusOf(last.body);
  }
  if (status && FINAL.has(status)) return { scaStatus: status, outcome: status === 'failed' ? 'rejected' : 'authorised' };
  throw new BankError(last?.status ?? 200, `the embedded SCA stopped at scaStatus ${status ?? '(none)'}`, last ? { exchange: last.exchange } : {});
}

function missing(what: string): never {
  throw new UsageError(`the embedded SCA needs ${what}, and none was given`, { hint: 'give it on stdin (--password-stdin, --otp-stdin) or in the profile (psu.password, sca.otp)' });
}
