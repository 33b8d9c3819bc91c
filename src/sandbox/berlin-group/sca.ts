/**
 * The embedded SCA approach (XS2A, consents and payments alike): the TPP carries the PSU's
 * identification and password (`psuData`), the chosen SCA method (`authenticationMethodId`) and
 * the one-time password (`scaAuthenticationData`) to the authorisation sub-resource, by PUT (an
 * authorisation started implicitly or explicitly) or with the explicit start itself (POST
 * …/authorisations with `psuData`). The decoupled approach's PSU side is the app page in pages.ts.
 * With the faults that bend the SCA's statuses.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import type { FixturePsu } from '../fixtures.ts';
import type { BgAuthorisation, BgConsent, BgPayment } from './store.ts';
import { approveAll, rejectResource } from './pages.ts';
import { shownScaStatus } from './multilevel.ts';
import { approachHeader, BgError, format, header, isObject, newAuthorisation, scaLinks, type Reply, type Req, type Xs2aContext } from './plumbing.ts';

/** The faults of the SCA's statuses, in the order of docs/rules.md (the registry sorts by rule). */
export const SCA_FAULTS = [
  { name: 'bg-sca-status-regresses', rule: 'SCA-01', description: 'GET …/authorisations/{authorisationId} of a finalised authorisation reads "psuAuthenticated" from its second read on (a final status moves back)', kind: 'rule', sca: ['decoupled'] },
  { name: 'bg-embedded-chosen-method-malformed', rule: 'SCA-01', description: 'embedded SCA: the answer to the SCA method\'s selection (PUT …/authorisations/{authorisationId} with authenticationMethodId) carries a chosenScaMethod without its authenticationType, which the file\'s authenticationObject requires', kind: 'rule', sca: ['embedded'] },
  { name: 'bg-embedded-finalised-without-otp', rule: 'SCA-02', description: 'embedded SCA: the PSU\'s password alone finalises the authorisation and authorises the consent or payment (no second factor asked)', kind: 'rule', sca: ['embedded'] },
  { name: 'bg-decoupled-finalised-early', rule: 'SCA-02', description: 'decoupled SCA: GET …/authorisations/{authorisationId} reads "finalised" from the start, before the PSU has approved in the app (the consent still reads received)', kind: 'rule', sca: ['decoupled'] },
] as const satisfies readonly FaultDeclaration[];

/** The one-time password the sandbox's PSUs receive, whatever the method (public, like their passwords). */
export const SANDBOX_OTP = '123456';

/** The SCA methods every sandbox PSU has (authenticationObject). */
const METHODS = [
  { authenticationType: 'SMS_OTP', authenticationMethodId: 'sms', name: 'SMS OTP on phone +49160 xxxxx 28' },
  { authenticationType: 'PUSH_OTP', authenticationMethodId: 'push', name: 'OTP in the sandbox bank app' },
];

// A payment of several PSUs awaits the others' authorisations while it reads PATC.
// A consent of several PSUs, while it reads partiallyAuthorised.
const pending = (resource: BgConsent | BgPayment) => (resource.kind === 'ais' ? resource.status === 'received' || resource.status === 'partiallyAuthorised' : resource.transactionStatus === 'RCVD' || resource.transactionStatus === 'PATC');
const final = (a: BgAuthorisation) => a.scaStatus === 'finalised' || a.scaStatus === 'failed';

/** Where the embedded SCA stands after one step: the answer's body (scaStatus, and what comes next). */
function answer(a: BgAuthorisation, href: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const next: Record<string, { href: string }> =
    a.scaStatus === 'received' ? { updatePsuIdentification: { href } }
      : a.scaStatus === 'psuIdentified' ? { updatePsuAuthentication: { href } }
        : a.scaStatus === 'psuAuthenticated' ? { selectAuthenticationMethod: { href } }
          : a.scaStatus === 'scaMethodSelected' ? { authoriseTransaction: { href } } : {};
  return { scaStatus: a.scaStatus, ...extra, _links: { ...next, scaStatus: { href } } };
}

/**
 * What an embedded SCA authorises: a consent or payment, a payment's cancellation or a signing
 * basket, with what the PSU's approval (the right one-time password) and a failed SCA do to it.
 */
export interface ScaTarget {
  authorisations: BgAuthorisation[];
  /** `{self}/authorisations` (or `/cancellation-authorisations`): where the authorisations are. */
  base: string;
  /** Still awaiting the PSU's authorisation. */
  pending: () => boolean;
  /** The PSU approved: what keeps the approval from being applied, else undefined. */
  approve: (psu: FixturePsu) => string | undefined;
  /** The SCA failed: no successful authorisation took place. */
  reject: (psu: FixturePsu) => void;
}

/** A consent's or payment's own authorisations as an SCA target. */
function targetOf(k: Xs2aContext, resource: BgConsent | BgPayment, self: string): ScaTarget {
  return {
    authorisations: resource.authorisations, base: `${self}/authorisations`, pending: () => pending(resource),
    // What keeps it from being applied (another PSU's account; a multilevel payment this PSU authorised already) fails the SCA.
    approve: (psu) => approveAll(k, resource, psu),
    reject: (psu) => rejectResource(resource, psu),
  };
}

/** The PSU's password (psuData.password), for the PSU named by PSU-ID: a wrong one is 401 PSU_CREDENTIALS_INVALID. */
function authenticate(k: Xs2aContext, r: Req, target: ScaTarget, a: BgAuthorisation, href: string): Record<string, unknown> {
  const psuData = r.body.psuData;
  if (!isObject(psuData) || typeof psuData.password !== 'string' || psuData.password === '') throw format('psuData.password is required', 'psuData.password');
  const psuId = header(r, 'PSU-ID') ?? a.psuId;
  if (!psuId) throw format('PSU-ID is required with the PSU\'s password', 'PSU-ID');
  const psu = k.store.psu(psuId);
  if (!psu || psu.password !== psuData.password) throw new BgError(401, 'PSU_CREDENTIALS_INVALID', 'the PSU-ID or password is not right');
  a.psuId = psuId;
  a.psu = psu.username;
  if (k.faults.has('bg-embedded-finalised-without-otp')) {
    target.approve(psu);
    a.scaStatus = 'finalised';
    return answer(a, href);
  }
  a.scaStatus = 'psuAuthenticated';
  return answer(a, href, { scaMethods: METHODS });
}

/** GET …/authorisations/{authorisationId}: the scaStatus (the faults misreport it). */
export function scaStatus(k: Xs2aContext, resource: BgConsent | BgPayment, authorisationId: string): Reply {
  const a = resource.authorisations.find((x) => x.authorisationId === authorisationId);
  if (!a) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such authorisation');
  if (a.scaStatus === 'finalised') a.finalReads = (a.finalReads ?? 0) + 1;
  let shown: string = a.scaStatus;
  // A finalised authorisation reads back as if the PSU were still authenticating.
  if (k.faults.has('bg-sca-status-regresses') && a.scaStatus === 'finalised' && a.finalReads! > 1) shown = 'psuAuthenticated';
  // A decoupled authorisation reads finalised before the PSU has done anything in the app.
  if (k.faults.has('bg-decoupled-finalised-early') && a.approach === 'DECOUPLED' && !final(a)) shown = 'finalised';
  return { status: 200, body: { scaStatus: shownScaStatus(k, resource, a, shown) } };
}

/** PUT …/authorisations/{authorisationId}: the next step of an embedded SCA, by what the body carries. */
export function updatePsuData(k: Xs2aContext, r: Req, resource: BgConsent | BgPayment, self: string): Reply {
  return updateTargetPsuData(k, r, targetOf(k, resource, self));
}

/** PUT …/{authorisationId} of any SCA target (a cancellation's, a signing basket's too): the next step of an embedded SCA. */
export function updateTargetPsuData(k: Xs2aContext, r: Req, target: ScaTarget): Reply {
  const a = target.authorisations.find((x) => x.authorisationId === r.params.authorisationId);
  if (!a) throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such authorisation');
  const b = r.body;
  if (!isObject(b)) throw format('the body must be a JSON object');
  if (a.approach !== 'EMBEDDED') throw new BgError(400, 'SERVICE_INVALID', `this authorisation follows the ${a.approach.toLowerCase()} SCA approach: the PSU's data do not go through the TPP`);
  if (final(a) || !target.pending()) throw new BgError(409, 'STATUS_INVALID', 'this authorisation is already finished');
  const href = `${target.base}/${a.authorisationId}`;
  if (b.psuData !== undefined) {
    if (a.scaStatus !== 'received' && a.scaStatus !== 'psuIdentified') throw new BgError(409, 'STATUS_INVALID', `the PSU is already authenticated (scaStatus ${a.scaStatus})`);
    return { status: 200, body: authenticate(k, r, target, a, href) };
  }
  if (b.authenticationMethodId !== undefined) {
    if (a.scaStatus !== 'psuAuthenticated') throw new BgError(409, 'STATUS_INVALID', `an SCA method is chosen once the PSU is authenticated (scaStatus ${a.scaStatus})`);
    const method = METHODS.find((m) => m.authenticationMethodId === b.authenticationMethodId);
    if (!method) throw format(`authenticationMethodId must be one of ${METHODS.map((m) => m.authenticationMethodId).join(', ')}`, 'authenticationMethodId');
    a.method = method.authenticationMethodId;
    a.scaStatus = 'scaMethodSelected';
    // The method as chosen; the fault drops the authenticationType the file requires in it.
    const chosen: Record<string, string> = k.faults.has('bg-embedded-chosen-method-malformed') ? { authenticationMethodId: method.authenticationMethodId, name: method.name } : method;
    return {
      status: 200,
      body: answer(a, href, { chosenScaMethod: chosen, challengeData: { otpMaxLength: SANDBOX_OTP.length, otpFormat: 'integer', additionalInformation: `Enter the code sent by ${method.name}` } }),
    };
  }
  if (b.scaAuthenticationData !== undefined) {
    if (a.scaStatus !== 'scaMethodSelected') throw new BgError(409, 'STATUS_INVALID', `the one-time password comes after the SCA method is chosen (scaStatus ${a.scaStatus})`);
    const psu = k.store.psu(a.psu);
    if (!psu) throw new BgError(409, 'STATUS_INVALID', 'the PSU is not authenticated');
    if (b.scaAuthenticationData !== SANDBOX_OTP) {
      // A wrong one-time password ends the SCA: no successful authorisation took place.
      a.scaStatus = 'failed';
      target.reject(psu);
      return { status: 200, body: answer(a, href, { psuMessage: 'The code is not right; the request was not authorised.' }) };
    }
    const problem = target.approve(psu);
    if (problem) {
      // The PSU may not authorise this (another customer's payment, a basket member not theirs): the SCA fails.
      a.scaStatus = 'failed';
      return { status: 200, body: answer(a, href, { psuMessage: problem }) };
    }
    a.scaStatus = 'finalised';
    return { status: 200, body: answer(a, href) };
  }
  throw format('the body carries none of psuData, authenticationMethodId and scaAuthenticationData');
}

/**
 * POST …/authorisations (explicit start): a new authorisation; for the embedded approach with
 * `psuData` in the body, the PSU is authenticated at once (startScaprocessResponse).
 */
export function startAuthorisationWithData(k: Xs2aContext, r: Req, resource: BgConsent | BgPayment, self: string): Reply {
  if (!pending(resource)) throw new BgError(409, 'STATUS_INVALID', `the ${resource.kind === 'ais' ? 'consent' : 'payment'} is no longer awaiting authorisation`);
  const a = newAuthorisation(k, r, resource.approach);
  const href = `${self}/authorisations/${a.authorisationId}`;
  const withData = isObject(r.body) && r.body.psuData !== undefined;
  if (withData && a.approach !== 'EMBEDDED') throw new BgError(400, 'SERVICE_INVALID', `this ${resource.kind === 'ais' ? 'consent' : 'payment'} follows the ${a.approach.toLowerCase()} SCA approach: the PSU's data do not go through the TPP`);
  resource.authorisations.push(a);
  const body = withData
    ? authenticate(k, r, targetOf(k, resource, self), a, href)
    : { scaStatus: a.scaStatus, _links: { ...scaLinks(k, a, href), scaStatus: { href } }, ...(a.approach === 'DECOUPLED' ? { psuMessage: 'Please confirm the request in your banking app.' } : {}) };
  return { status: 201, headers: { Location: href, 'ASPSP-SCA-Approach': approachHeader(a.approach) }, body: { ...body, authorisationId: a.authorisationId } };
}
