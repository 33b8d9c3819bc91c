/**
 * The NextGenPSD2 bank's fault switches: each breaks exactly one rule of docs/rules.md as the
 * berlin-group scenarios judge it, so that the harness can prove it catches that rule
 * (`obtpp conform --dialect berlin-group --sandbox-fault NAME`). Kept free of heavy imports, like
 * ../faults.ts; the UK bank's faults are there.
 */
import { UsageError } from '../../errors.ts';
import type { FaultInfo } from '../faults.ts';

const BG_RULE_TABLE = [
  ['bg-consent-created-valid', 'AIS-01', 'the 201 of POST /v1/consents says consentStatus "valid" before the PSU has done anything'],
  ['bg-consent-without-access-accepted', 'AIS-01', 'POST /v1/consents without access is accepted (201), as a consent to all the PSU\'s accounts'],
  ['bg-consent-reads-back-changed', 'AIS-02', 'GET /v1/consents/{consentId} of an authorised consent reads back access as allPsd2, whatever accounts it named'],
  ['bg-unselected-accounts', 'AIS-04', 'GET /v1/accounts lists, and data calls accept, every account of the PSU, not only those the PSU selected'],
  ['bg-no-consent-id-data-access', 'AIS-05', 'GET /v1/accounts without Consent-ID is answered with the most recent valid consent'],
  ['bg-access-not-enforced', 'AIS-09', 'balances and transactions are returned for every account of the consent, whatever its access names'],
  ['bg-balance-amount-number', 'AIS-11', 'balances carry balanceAmount.amount as a JSON number, not the standard\'s string'],
  ['bg-deleted-consent-opens-data', 'AIS-12', 'DELETE /v1/consents/{consentId} answers 204 and the consent reads terminatedByTpp, but it still opens the accounts'],
  ['bg-consent-stays-received', 'BG-01', 'an authorised consent still reads "received" (GET …/status and GET /v1/consents/{consentId}), though it opens the accounts'],
  ['bg-rejected-stays-received', 'BG-02', 'a consent the PSU rejected still reads "received" (it opens nothing)'],
  ['bg-deleted-reads-valid', 'BG-03', 'a consent the TPP deleted reads "valid" (it opens nothing)'],
  ['bg-frequency-read-back-changed', 'BG-04', 'GET /v1/consents/{consentId} reads back frequencyPerDay 4 and recurringIndicator true, whatever was asked'],
  ['bg-frequency-not-enforced', 'BG-05', 'accesses without the PSU (no PSU-IP-Address) are not counted against frequencyPerDay'],
  ['bg-valid-until-extended', 'BG-06', 'GET /v1/consents/{consentId} reads back a validUntil a year later than the one asked'],
  ['bg-token-not-bound', 'BG-07', 'under the OAuth2 SCA approach any AIS token opens any consent\'s accounts (the token is not checked against Consent-ID)'],
  ['bg-payment-stays-rcvd', 'BG-08', 'GET /v1/payments/{product}/{paymentId} reads transactionStatus RCVD after the PSU authorised or rejected the payment'],
  ['bg-transactions-date-to-ignored', 'BG-09', 'GET …/transactions ignores dateTo: every booked transaction since dateFrom is returned'],
  ['bg-payment-without-amount-accepted', 'PIS-01', 'POST /v1/payments/{product} without instructedAmount is accepted (201)'],
  ['bg-payment-status-not-iso', 'PIS-03', 'GET …/{paymentId}/status answers transactionStatus "DONE", no ISO 20022 code'],
  ['bg-funds-balance-disclosed', 'COF-04', 'POST /v1/funds-confirmations discloses the account\'s balance next to fundsAvailable'],
  ['bg-funds-always-true', 'COF-05', 'POST /v1/funds-confirmations answers fundsAvailable true for any amount'],
  ['bg-rejected-consent-opens-data', 'SEC-04', 'a consent the PSU rejected reads "rejected" but opens the accounts the PSU was offered'],
  ['bg-create-200', 'SEC-05', 'POST /v1/consents answers 200 instead of 201'],
  ['bg-error-code-missing', 'SEC-06', 'error bodies carry tppMessages without the code each message requires (also when the TPP accepts application/problem+json)'],
  ['bg-request-id-not-echoed', 'SEC-07', 'X-Request-ID is not echoed (a new one on every answer)'],
] as const;

/** A berlin-group fault's name. */
export type BgFaultName = (typeof BG_RULE_TABLE)[number][0];
/** The switched-on faults of the berlin-group bank. */
export type BgFaults = ReadonlySet<BgFaultName>;

/** Faults that break a SHOULD only: the harness reports them as warnings of their rule. */
const BG_SHOULD_FAULTS: ReadonlySet<string> = new Set(['bg-frequency-not-enforced']);

/** Every fault of the berlin-group bank, in the order of docs/rules.md's berlin-group rows. */
export function listBgFaults(): FaultInfo[] {
  return BG_RULE_TABLE.map(([name, rule, description]) => ({ name, rule, description, kind: 'rule' as const, ...(BG_SHOULD_FAULTS.has(name) ? { level: 'SHOULD' as const } : {}) }));
}

/** Validates fault names for the berlin-group bank; an unknown one is a usage error naming the valid ones. */
export function parseBgFaults(names: readonly string[] = []): BgFaults {
  const known = new Set<string>(BG_RULE_TABLE.map((f) => f[0]));
  for (const name of names) {
    if (!known.has(name)) {
      throw new UsageError(`unknown berlin-group sandbox fault "${name}"; valid faults: ${[...known].join(', ')}`, { hint: 'obtpp sandbox --dialect berlin-group --list-faults describes each' });
    }
  }
  return new Set(names as BgFaultName[]);
}
