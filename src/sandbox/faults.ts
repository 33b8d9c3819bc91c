/**
 * The sandbox's fault switches: each breaks exactly one rule of docs/rules.md, so that the harness
 * can prove it catches that rule. Kept free of heavy imports: `obtpp sandbox --list-faults` and
 * flag validation load only this module.
 */
import { UsageError } from '../errors.ts';

/** One fault: its name (the `--fault` value), the rule it breaks, and what goes wrong. */
export interface FaultInfo {
  name: string;
  rule: string;
  description: string;
}

const TABLE = [
  ['consent-status-not-awaiting', 'AIS-01', 'new account-access consents start as Authorised'],
  ['authorisation-alters-consent', 'AIS-02', 'approving adds ReadBalances and ReadTransactionsDetail and widens the transaction period by a year'],
  ['partial-grant', 'AIS-03', 'approving grants only the accounts permissions, dropping balances and transactions'],
  ['unselected-accounts', 'AIS-04', 'GET /accounts returns, and data calls accept, every account of the PSU'],
  ['no-token-data-access', 'AIS-05', 'data calls without a token are answered (with the PSU\'s first consent)'],
  ['client-credentials-data-access', 'AIS-05', 'data calls with a client-credentials token are answered'],
  ['transactions-outside-period', 'AIS-07', 'transactions are not bounded by the Transaction Validity Period'],
  ['expired-consent-access', 'AIS-08', 'an expired account-access consent still gives access'],
  ['permission-not-enforced', 'AIS-09', 'balances and transactions are returned without their permission'],
  ['account-field-missing', 'AIS-11', 'accounts come without their mandatory Currency'],
  ['funds-consent-without-debtor', 'COF-01', 'a funds consent without DebtorAccount is accepted'],
  ['funds-unauthorised-consent', 'COF-02', 'a funds confirmation on a consent that is not authorised is answered (client-credentials token accepted)'],
  ['funds-consent-mismatch', 'COF-03', 'a ConsentId in the body that is not the token\'s consent is accepted'],
  ['funds-balance-disclosed', 'COF-04', 'funds confirmations disclose the available balance'],
  ['funds-answer-wrong', 'COF-05', 'FundsAvailable is always true'],
  ['expired-funds-consent-confirms', 'COF-06', 'an expired funds consent still confirms'],
  ['deleted-funds-consent-confirms', 'COF-07', 'a deleted funds consent still confirms'],
  ['debtor-not-asked', 'PIS-02', 'a payment without debtor account is authorised without asking the PSU (the bank picks one)'],
  ['payment-status-unreadable', 'PIS-03', 'GET /{payment-product}/{paymentId}/status fails'],
  ['intent-not-bound', 'SEC-01', 'the authorisation is bound to the PSU\'s most recent consent, not the intent id in the request, and the ID token omits openbanking_intent_id'],
  ['rejected-consent-token', 'SEC-04', 'a rejected consent still redirects with a code that yields a token'],
  ['create-200', 'SEC-05', 'creates answer 200 instead of 201'],
  ['error-body-not-ob', 'SEC-06', 'error bodies are not OBErrorResponse1'],
  ['interaction-id-not-echoed', 'SEC-07', 'x-fapi-interaction-id is not echoed (a new one every time)'],
] as const;

/** A fault's name. */
export type FaultName = (typeof TABLE)[number][0];

/** Every fault, in the order of docs/rules.md. */
export function listFaults(): FaultInfo[] {
  return TABLE.map(([name, rule, description]) => ({ name, rule, description }));
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
