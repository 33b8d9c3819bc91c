/**
 * What a rule's words mean in each version of UK Read/Write. The rules are written once, in
 * v3.1.11's words (`the consent's status is "AwaitingAuthorisation"`); a bank at v4.0 is judged by
 * the ISO 20022 code v4.0 gives the same state (../shared/reference/FACTS-v4.md §3.1, §3.2, §3.5).
 * The judge's own table: the sandbox keeps its own (a bank and its examiner must not share mistakes).
 */
/**
 * The version of UK Read/Write a body is judged by: v3.1.11 (the default, and the spec's layout)
 * or v4.0 (a profile with `standard: uk-4.0`). The schema names are the same in both versions,
 * their content is not (schemas/v4.ts).
 */
export type ObieVersion = 'v3.1' | 'v4.0';

/** The version a profile's standard is judged by (and a request body is built for). */
export const versionOf = (standard: string | undefined): ObieVersion => (standard === 'uk-4.0' ? 'v4.0' : 'v3.1');

/**
 * v3.1.11 status name → v4.0 code. AwaitingAuthorisation → AWAU and Authorised → AUTH are paired by
 * the FCS suite's V4 assertions; the others are FACTS-v4's reading ([I]): Rejected → RJCT,
 * Revoked → CANC, Consumed → COND, and the payment-order names by their ISO 20022 meaning.
 */
const V4_STATUS: Readonly<Record<string, string>> = {
  AwaitingAuthorisation: 'AWAU', Authorised: 'AUTH', Rejected: 'RJCT', Revoked: 'CANC', Consumed: 'COND', AwaitingUpload: 'AWUP',
  Pending: 'PDNG', AcceptedSettlementInProcess: 'ACSP', AcceptedSettlementCompleted: 'ACSC', AcceptedWithoutPosting: 'ACWP',
  AcceptedCreditSettlementCompleted: 'ACCC',
};

/** The status a rule names, in the version's words: `Authorised` at v3.1, `AUTH` at v4.0. */
export function statusIn(version: ObieVersion, v3Name: string): string {
  return version === 'v4.0' ? (V4_STATUS[v3Name] ?? v3Name) : v3Name;
}

/**
 * The v4.0 error code of a v3.1.11 one, where the FCS suite pairs them (its `…V4` assertions);
 * undefined where no file pairs them (v4.0's list is external: a rule then judges only the shape).
 */
const V4_ERROR_CODES: Readonly<Record<string, string>> = {
  'UK.OBIE.Field.Invalid': 'U002', 'UK.OBIE.Resource.NotFound': 'U011', 'UK.OBIE.Signature.InvalidClaim': 'U016',
  'UK.OBIE.Signature.MissingClaim': 'U017', 'UK.OBIE.Signature.Malformed': 'U018', 'UK.OBIE.Signature.Missing': 'U019',
};

export function v4ErrorCodeOf(v3Code: string): string | undefined {
  return V4_ERROR_CODES[v3Code];
}

/** The v3.1.11 name of a v4.0 status code (`AWAU` → `AwaitingAuthorisation`), or the code itself where none is paired. */
export function v3StatusOf(code: string): string {
  return Object.entries(V4_STATUS).find(([, v4]) => v4 === code)?.[0] ?? code;
}

/** The v3.1.11 error code a v4.0 one is paired with (`U016` → `UK.OBIE.Signature.InvalidClaim`), or the code itself. */
export function v3ErrorCodeOf(code: string): string {
  return Object.entries(V4_ERROR_CODES).find(([, v4]) => v4 === code)?.[0] ?? code;
}
