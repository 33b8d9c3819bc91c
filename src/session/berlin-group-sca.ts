/**
 * The terminal client's decoupled and embedded SCA (NextGenPSD2), for consents, payments and
 * signing baskets alike: the one walk (berlin-group-sca-walk.ts, which the conformance steps walk
 * too) with the terminal's part. Decoupled: the TPP tells the PSU to approve in the bank's app,
 * then polls the authorisation's scaStatus until it is final or the time is up. Embedded: the TPP
 * carries the PSU's password, the chosen SCA method and the one-time password to the
 * authorisation (PUT …/authorisations/{id}). The PSU's password and one-time password are
 * secrets: they go into the request bodies and nowhere else (the HTTP core masks them in every
 * captured exchange).
 */
import { BankError, UsageError } from '../errors.ts';
import { authorisationOps, type AuthorisationOps } from './berlin-group-authorisations.ts';
export type { AuthorisationOps } from './berlin-group-authorisations.ts';
import { paymentClient } from './berlin-group-paths.ts';
import { authorisationOfLink, walkSca, type InAppApproach, type ScaStop } from './berlin-group-sca-walk.ts';
import type { ConsentRecord } from './state.ts';
import type { AuthoriseOutcome, InAppRequest, Session } from './index.ts';

/** The decoupled SCA's reads of the scaStatus: the first pause, and the longest (each next is half as long again). */
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

/** What the terminal says when the bank's answers leave the walk nowhere to go. */
const STOPS: Record<ScaStop, string> = {
  'no-authorisation-id': 'the bank started the authorisation but gave no authorisationId',
  'no-sca-method': 'the bank asks for an SCA method and offers none (scaMethods)',
};

/** authoriseInApp for any target (a signing basket's too). */
export async function walkInApp(session: Session, target: InAppTarget, request: InAppRequest): Promise<{ scaStatus: string; outcome: AuthoriseOutcome['status'] }> {
  const { sca } = target;
  const approach = sca.approach as InAppApproach;
  const p = session.profile;
  const psuId = request.psuId ?? p.psu.username;
  // A secret the PSU typed is masked in every exchange from the moment it is known.
  const secret = async (what: 'password' | 'one-time password', label: string) => {
    if (!request.secret) missing(label);
    const value = await request.secret(what);
    if (!value) missing(label);
    session.http.redactor.add(value);
    return value;
  };
  for (const given of [request.otp, request.password]) if (given) session.http.redactor.add(given);
  const walked = await walkSca({
    approach,
    ops: target.ops,
    // The link kept since the create may be stale (an earlier authorise got part of the way): the walk reads where it stands.
    beginning: sca.start ? { start: true, withPassword: sca.withPassword === true } : { authorisationId: authorisationOfLink(sca.href) ?? '', awaitsPsuData: false },
    psu: { id: psuId, ...(p.psuIpAddress ? { ipAddress: p.psuIpAddress } : {}) },
    secrets: {
      password: async () => request.password || p.psu.password || secret('password', 'the PSU\'s password'),
      otp: async () => request.otp ?? p.sca?.otp ?? (await secret('one-time password', 'the one-time password')),
    },
    ...(p.sca?.authenticationMethodId ? { method: p.sca.authenticationMethodId } : {}),
    decoupled: {
      timeoutMs: request.timeoutMs ?? p.timeouts.authorisationMs,
      // A PSU who takes a minute is not read every second; one who approves at once is seen at once.
      pace: { firstMs: request.pollMs ?? FIRST_POLL_MS, factor: 1.5, maxMs: Math.max(MAX_POLL_MS, request.pollMs ?? 0) },
      instruct: () => request.log?.(`approve ${target.label} ${target.id} in your banking app (${psuId}); waiting for the bank's SCA status…`),
    },
    hooks: {
      answered: (call, r) => void session.check(r, [...call.expected]),
      stop: (why, r) => new BankError(r.status, STOPS[why], { exchange: r.exchange }),
    },
  });
  const status = walked.scaStatus;
  if (walked.final) return { scaStatus: status!, outcome: status === 'failed' ? 'rejected' : 'authorised' };
  if (approach === 'decoupled') {
    throw new UsageError(`the PSU did not approve in time: the authorisation ${walked.authorisationId} still reads ${status ?? 'no scaStatus'}`, { hint: 'approve in the banking app, then run obtpp consent authorise again (or give a longer --timeout)' });
  }
  throw new BankError(walked.last?.status ?? 200, `the embedded SCA stopped at scaStatus ${status ?? '(none)'}`, walked.last ? { exchange: walked.last.exchange } : {});
}

function missing(what: string): never {
  throw new UsageError(`the embedded SCA needs ${what}, and none was given`, { hint: 'give it on stdin (--password-stdin, --otp-stdin) or in the profile (psu.password, sca.otp)' });
}
