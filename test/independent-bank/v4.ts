/**
 * Larchmont at UK Read/Write v4.0 (written from ../shared/reference/obie-v4/ and FACTS-v4.md only):
 * the bank keeps its records in its own words (the v3.1.11 names), and says them in v4.0's ISO 20022
 * codes when it serves /open-banking/v4.0. Where the v4.0 files leave a choice, Larchmont's choice is
 * named beside it, picked to differ from the obvious 1:1 reading of the v3.1.11 name.
 */
import { Refusal, isObject, invalid, missing, text } from './apis.ts';

export type UkVersion = 'v3.1' | 'v4.0';

/** Consent statuses (FACTS-v4 §3.1): the code each state of a Larchmont consent has at v4.0. */
const CONSENT: Readonly<Record<string, string>> = {
  AwaitingAuthorisation: 'AWAU', Authorised: 'AUTH', Rejected: 'RJCT', Consumed: 'COND', AwaitingUpload: 'AWUP', Revoked: 'CANC',
};

/** A consent's status in the bank's version's words. */
export function consentStatus(state: { version: UkVersion }, name: string): string {
  return state.version === 'v4.0' ? (CONSENT[name] ?? name) : name;
}

/**
 * An account-access or funds-confirmation consent's status as it reads: v4.0 added EXPD, so an
 * authorised consent past its ExpirationDateTime reads as expired there (v3.1.11 has no such status:
 * it stays Authorised and is refused when used).
 */
export function readStatus(state: { version: UkVersion }, k: { status: string; expiration?: string }): string {
  if (state.version === 'v4.0' && k.status === 'Authorised' && k.expiration && Date.now() > Date.parse(k.expiration)) return 'EXPD';
  return consentStatus(state, k.status);
}

/**
 * The status a new order has at v4.0, per family (each from its own resource's list, FACTS-v4 §3.2).
 * Larchmont's choice: a new order is one it has received (RCVD) where the list has RCVD, else one
 * it has validated technically (ACTC) — not PDNG, the obvious reading of v3.1's Pending. File
 * payments have only INFA/INCO/PDNG: PDNG. A VRP payment is ACCP (customer profile accepted: the
 * control parameters were checked), not ACSP.
 */
export const ORDER_STATUS_V4: Readonly<Record<string, string>> = {
  'domestic-payments': 'RCVD', 'domestic-scheduled-payments': 'RCVD', 'domestic-standing-orders': 'RCVD',
  'international-payments': 'ACTC', 'international-scheduled-payments': 'ACTC', 'international-standing-orders': 'RCVD',
  'file-payments': 'PDNG', 'domestic-vrps': 'ACCP',
};

/** payment-details PaymentStatus[].Status: PIS4's list has no RCVD, so ACTC (both lists have it). */
export const DETAILS_STATUS_V4 = 'ACTC';

/**
 * v4.0 error codes are 4 characters from an external list that is not among the official files.
 * The FCS suite pairs six with their v3.1.11 names (U002, U011, U016–U019): those as paired. For the
 * rest, Larchmont's own reading of the external list, each a distinct 4-character code.
 */
const ERROR_V4: Readonly<Record<string, string>> = {
  'UK.OBIE.Field.Invalid': 'U002', 'UK.OBIE.Resource.NotFound': 'U011', 'UK.OBIE.Signature.InvalidClaim': 'U016',
  'UK.OBIE.Signature.MissingClaim': 'U017', 'UK.OBIE.Signature.Malformed': 'U018', 'UK.OBIE.Signature.Missing': 'U019',
  'UK.OBIE.Field.Expected': 'U001', 'UK.OBIE.Field.InvalidDate': 'U003', 'UK.OBIE.Field.Missing': 'U004', 'UK.OBIE.Field.Unexpected': 'U005',
  'UK.OBIE.Header.Invalid': 'U006', 'UK.OBIE.Header.Missing': 'U007', 'UK.OBIE.Reauthenticate': 'U008',
  'UK.OBIE.Resource.ConsentMismatch': 'U009', 'UK.OBIE.Resource.InvalidConsentStatus': 'U010', 'UK.OBIE.Resource.InvalidFormat': 'U012',
  'UK.OBIE.Signature.Invalid': 'U015', 'UK.OBIE.Signature.Unexpected': 'U020', 'UK.OBIE.UnexpectedError': 'U021',
  'UK.OBIE.Unsupported.Scheme': 'U022', 'UK.OBIE.Unsupported.Currency': 'U023', 'UK.OBIE.Unsupported.Frequency': 'U024',
  'UK.OBIE.Rules.FailsControlParameters': 'U027',
};

export function errorCode(version: UkVersion, v3: string): string {
  return version === 'v4.0' ? (ERROR_V4[v3] ?? 'U021') : v3;
}

/**
 * v4.0's error body (OBErrorResponse1): only Errors is required; Code and Message are deprecated,
 * and Larchmont leaves them out (its choice: the sandbox, one would guess, keeps them).
 */
export function errorBody(version: UkVersion, status: number, message: string, code: string, path?: string): Record<string, unknown> {
  const error = { ErrorCode: errorCode(version, code), Message: message.slice(0, 500), ...(path ? { Path: path } : {}) };
  if (version === 'v4.0') return { Errors: [error] };
  return { Code: status === 400 ? 'BadRequest' : 'Forbidden', Message: message.slice(0, 500), Errors: [error] };
}

// ── what v4.0 requests carry ──────────────────────────────────────────────────────────────────

/** OBFrequency6Code (PIS4), its duplicate WEEK once. */
const FREQUENCY6 = new Set(['ADHO', 'YEAR', 'DAIL', 'FRTN', 'INDA', 'MNTH', 'QURT', 'MIAN', 'WEEK', 'WODL', 'FOWK', 'TWMH', 'FOMH', 'FIMH', 'ALMH', 'NONE']);
/** Frequency_1 of v4.0: v3.1's grammar, and NotKnown. */
const FREQUENCY_1 = /^(NotKnown)$|^(EvryDay)$|^(EvryWorkgDay)$|^(IntrvlDay:((0[2-9])|([1-2][0-9])|3[0-1]))$|^(IntrvlWkDay:0[1-9]:0[1-7])$|^(WkInMnthDay:0[1-5]:0[1-7])$|^(IntrvlMnthDay:(0[1-6]|12|24):(-0[1-5]|0[1-9]|[12][0-9]|3[01]))$|^(QtrDay:(ENGLISH|SCOTTISH|RECEIVED))$/;
const ADDRESS_TYPES = new Set(['BIZZ', 'CORR', 'DLVY', 'MLTO', 'PBOX', 'ADDR', 'HOME', 'STAT']);
const CREDITOR_REF_CODES = new Set(['DISP', 'FXDR', 'PUOR', 'RPIN', 'RADM', 'SCOR']);
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A standing order's MandateRelatedInformation (OBMandateRelatedInformation1): only Frequency is required, and its Type. */
export function mandate(v: unknown, at: string): void {
  if (!isObject(v)) throw missing(at);
  const f = v.Frequency;
  if (!isObject(f)) throw missing(`${at}.Frequency`);
  if (f.Type === undefined) throw missing(`${at}.Frequency.Type`);
  if (typeof f.Type !== 'string' || !(FREQUENCY6.has(f.Type) || FREQUENCY_1.test(f.Type))) throw new Refusal(400, `${at}.Frequency.Type is not a frequency of OBFrequency6`, 'UK.OBIE.Unsupported.Frequency', `${at}.Frequency.Type`);
  if (f.CountPerPeriod !== undefined && !Number.isInteger(f.CountPerPeriod)) throw invalid(`${at}.Frequency.CountPerPeriod`, 'must be an integer');
  if (f.PointInTime !== undefined && !(typeof f.PointInTime === 'string' && f.PointInTime.length <= 2)) throw invalid(`${at}.Frequency.PointInTime`, 'must be at most 2 characters');
  for (const field of ['FirstPaymentDateTime', 'RecurringPaymentDateTime', 'FinalPaymentDateTime']) {
    const d = v[field];
    if (d !== undefined && (typeof d !== 'string' || !ISO_DATE_TIME.test(d) || Number.isNaN(Date.parse(d)))) throw new Refusal(400, `${at}.${field} must be an ISO 8601 date-time with its offset`, 'UK.OBIE.Field.InvalidDate', `${at}.${field}`);
  }
  if (v.MandateIdentification !== undefined && !text(v.MandateIdentification, 35)) throw invalid(`${at}.MandateIdentification`, 'must be 1 to 35 characters');
  if (v.Classification !== undefined && !['FIXE', 'USGB', 'VARI'].includes(v.Classification)) throw invalid(`${at}.Classification`, 'must be FIXE, USGB or VARI');
}

/** OBRemittanceInformation2: Unstructured is a list of lines; Structured carries the creditor's reference. */
export function remittance(v: unknown, at: string): void {
  if (v === undefined) return;
  if (!isObject(v)) throw invalid(at, 'must be an object');
  if (v.Unstructured !== undefined) {
    if (!Array.isArray(v.Unstructured)) throw invalid(`${at}.Unstructured`, 'is a list of lines at v4.0');
    v.Unstructured.forEach((line: unknown, n: number) => {
      if (!text(line, 140)) throw invalid(`${at}.Unstructured[${n}]`, 'must be 1 to 140 characters');
    });
  }
  if (v.Structured !== undefined) {
    if (!Array.isArray(v.Structured)) throw invalid(`${at}.Structured`, 'must be a list');
    v.Structured.forEach((s: unknown, n: number) => {
      const where = `${at}.Structured[${n}]`;
      if (!isObject(s)) throw invalid(where, 'must be an object');
      const ref = s.CreditorReferenceInformation;
      if (ref === undefined) return;
      if (!isObject(ref)) throw invalid(`${where}.CreditorReferenceInformation`, 'must be an object');
      if (ref.Reference !== undefined && !text(ref.Reference, 35)) throw invalid(`${where}.CreditorReferenceInformation.Reference`, 'must be 1 to 35 characters');
      if (ref.Code !== undefined && !CREDITOR_REF_CODES.has(ref.Code)) throw invalid(`${where}.CreditorReferenceInformation.Code`, 'is not a creditor reference code');
    });
  }
  if (v.Reference !== undefined) throw new Refusal(400, `${at}.Reference is v3.1's: v4.0 carries the reference in Structured[].CreditorReferenceInformation`, 'UK.OBIE.Field.Unexpected', `${at}.Reference`);
}

/** OBPostalAddress7: nothing required; AddressType in ISO codes. */
export function address(v: unknown, at: string): void {
  if (v === undefined) return;
  if (!isObject(v)) throw invalid(at, 'must be an object');
  if (v.AddressType !== undefined && !ADDRESS_TYPES.has(v.AddressType)) throw invalid(`${at}.AddressType`, 'is not an address type code of v4.0');
  if (v.AddressLine !== undefined && !(Array.isArray(v.AddressLine) && v.AddressLine.length <= 7 && v.AddressLine.every((l: unknown) => text(l, 70)))) throw invalid(`${at}.AddressLine`, 'must be at most 7 lines of 1 to 70 characters');
}

/** OBRisk1 at v4.0: additionalProperties false, so v3.1's misspelt ContractPresentInidicator is refused. */
export function risk(v: Record<string, unknown>): void {
  if ('ContractPresentInidicator' in v) throw new Refusal(400, 'Risk.ContractPresentInidicator is v3.1\'s spelling: v4.0 has ContractPresentIndicator', 'UK.OBIE.Field.Unexpected', 'Risk.ContractPresentInidicator');
  if (isObject(v.DeliveryAddress)) address(v.DeliveryAddress, 'Risk.DeliveryAddress');
}

/** What every v4.0 payment Initiation (or VRP Instruction) may carry beyond v3.1's, checked where present. */
export function initiationV4(i: Record<string, any>, at: string): void {
  remittance(i.RemittanceInformation, `${at}.RemittanceInformation`);
  address(i.CreditorPostalAddress, `${at}.CreditorPostalAddress`);
  if (i.Purpose !== undefined) throw new Refusal(400, `${at}.Purpose was removed at v4.0 (ExtendedPurpose remains)`, 'UK.OBIE.Field.Unexpected', `${at}.Purpose`);
}
