/**
 * Confirmation of funds (UK, CBPII): funds-confirmation consents (create; read and delete in variant
 * A) and funds confirmations, with the faults that bend them.
 */
import { randomUUID } from 'node:crypto';
import type { FaultDeclaration } from '../fault-declaration.ts';
import { availableBalance, money, parseMoney } from '../fixtures.ts';
import type { AccountRef, CofConsent, Consent } from '../store.ts';
import {
  AB, A, ApiError, authenticate, clientCredentials, forbidden, idempotent, isObject, iso, missing, notFound,
  requireAccountRef, requireAmount, requireDateTime, requireText, route, status, unauthorised,
  type Auth, type Reply, type Req, type ResourceContext, type UkRoute,
} from './plumbing.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const CBPII_FAULTS = [
  { name: 'funds-consent-without-debtor', rule: 'COF-01', description: 'a funds consent without DebtorAccount is accepted', kind: 'rule' },
  { name: 'funds-unauthorised-consent', rule: 'COF-02', description: 'a funds confirmation on a consent that is not authorised is answered (client-credentials token accepted)', kind: 'rule' },
  { name: 'funds-consent-mismatch', rule: 'COF-03', description: 'a ConsentId in the body that is not the token\'s consent is accepted', kind: 'rule' },
  { name: 'funds-balance-disclosed', rule: 'COF-04', description: 'funds confirmations disclose the available balance', kind: 'rule' },
  { name: 'funds-answer-wrong', rule: 'COF-05', description: 'FundsAvailable is always true', kind: 'rule' },
  { name: 'expired-funds-consent-confirms', rule: 'COF-06', description: 'an expired funds consent still confirms', kind: 'rule' },
  { name: 'deleted-funds-consent-confirms', rule: 'COF-07', description: 'a deleted funds consent still confirms', kind: 'rule' },
  { name: 'funds-consent-reads-awaiting', rule: 'UKCOF-01', description: 'a funds consent reads AwaitingAuthorisation after the PSU authorised it', kind: 'rule' },
  { name: 'funds-consent-any-scheme', rule: 'UKCOF-02', description: 'a funds consent\'s DebtorAccount.SchemeName is not checked (TestingAnInvalidSchemeName accepted)', kind: 'rule' },
  { name: 'funds-consent-fraction-refused', rule: 'UKCOF-03', description: 'a funds consent whose ExpirationDateTime has fractional seconds is refused', kind: 'rule' },
  { name: 'funds-consent-unknown-404', rule: 'UKCOF-04', description: 'an unknown funds-consent ConsentId answers 404 instead of 400', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

/**
 * The account schemes of UK Read/Write v3.1.11 (x-namespaced-enum UK.OBIE.*) this bank knows; a
 * bank may add its own namespace, this one adds none, so any other SchemeName is unsupported.
 */
const SUPPORTED_SCHEMES = new Set(['UK.OBIE.SortCodeAccountNumber', 'UK.OBIE.IBAN', 'UK.OBIE.BBAN', 'UK.OBIE.PAN', 'UK.OBIE.Paym', 'UK.OBIE.Wallet']);

function fundsConsentBody(c: CofConsent, self: string) {
  return {
    Data: {
      ConsentId: c.ConsentId, CreationDateTime: iso(c.CreationDateTime), Status: c.Status, StatusUpdateDateTime: iso(c.StatusUpdateDateTime),
      ...(c.ExpirationDateTime !== undefined ? { ExpirationDateTime: c.ExpirationDateTime } : {}),
      ...(c.DebtorAccount ? { DebtorAccount: c.DebtorAccount } : {}),
    },
    Links: { Self: self },
    Meta: {},
  };
}

async function createFundsConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const { store, faults } = k;
  const auth = await clientCredentials(k, r, 'fundsconfirmations');
  const data = r.body?.Data;
  if (!isObject(data)) throw missing('Data');
  const debtor = data.DebtorAccount === undefined && faults.has('funds-consent-without-debtor')
    ? undefined
    : requireAccountRef(data.DebtorAccount, 'Data.DebtorAccount');
  if (debtor && !SUPPORTED_SCHEMES.has(debtor.SchemeName) && !faults.has('funds-consent-any-scheme')) {
    throw new ApiError(400, 'UK.OBIE.Unsupported.AccountIdentifier', `Data.DebtorAccount.SchemeName ${debtor.SchemeName} is not a scheme this bank supports`, 'Data.DebtorAccount.SchemeName');
  }
  const expiry = requireDateTime(data, 'ExpirationDateTime', false);
  if (faults.has('funds-consent-fraction-refused') && /\.\d/.test(String(data.ExpirationDateTime))) {
    throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', 'Data.ExpirationDateTime must not have fractional seconds', 'Data.ExpirationDateTime');
  }
  if (expiry !== undefined && expiry <= store.now()) throw new ApiError(400, 'UK.OBIE.Field.InvalidDate', 'Data.ExpirationDateTime is in the past', 'Data.ExpirationDateTime');
  const consent = idempotent(k, r, auth.clientId, 'funds-confirmation-consents', false, () => store.add<CofConsent>({
    kind: 'cof', clientId: auth.clientId, Status: 'AwaitingAuthorisation',
    DebtorAccount: debtor as AccountRef, ExpirationDateTime: data.ExpirationDateTime, deleted: false,
  }));
  return { status: status(k, r, true), body: fundsConsentBody(consent, `${r.self}/${consent.ConsentId}`) };
}

async function ownFundsConsent(k: ResourceContext, r: Req): Promise<CofConsent> {
  const auth = await clientCredentials(k, r, 'fundsconfirmations');
  const c = k.store.consents.get(r.params.consentId);
  if (!c || c.kind !== 'cof' || c.clientId !== auth.clientId || c.deleted) {
    if (!c && k.faults.has('funds-consent-unknown-404')) throw new ApiError(404, 'UK.OBIE.Resource.NotFound', 'funds-confirmation consent not found', 'ConsentId');
    throw notFound('funds-confirmation consent', 'ConsentId');
  }
  return c;
}

async function getFundsConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await ownFundsConsent(k, r);
  const body = fundsConsentBody(c, r.self);
  if (k.faults.has('funds-consent-reads-awaiting')) body.Data.Status = 'AwaitingAuthorisation';
  return { status: 200, body };
}

async function deleteFundsConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await ownFundsConsent(k, r);
  c.deleted = true;
  k.store.setStatus(c, 'Revoked');
  return { status: 204 };
}

/** The funds consent a confirmation runs under: the PSU token's (or, under the faults, another). */
function confirmationConsent(k: ResourceContext, auth: Auth, consentId: string): Consent | undefined {
  const { store, faults } = k;
  if (auth.kind === 'cc') {
    if (!faults.has('funds-unauthorised-consent')) throw forbidden('funds confirmations need the PSU\'s authorization-code token, not a client-credentials token');
    const consent = store.consents.get(consentId);
    return consent?.clientId !== auth.clientId ? undefined : consent;
  }
  if (auth.consent?.kind !== 'cof' || !auth.scopes.includes('fundsconfirmations')) throw forbidden('the access token was not issued for a funds-confirmation consent');
  if (consentId === auth.consent.ConsentId) return auth.consent;
  const other = faults.has('funds-consent-mismatch') ? store.consents.get(consentId) : undefined;
  if (!other) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId is not the consent this token was authorised for', 'Data.ConsentId');
  return other;
}

async function confirmFunds(k: ResourceContext, r: Req): Promise<Reply> {
  const { store, faults } = k;
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  const data = r.body?.Data;
  if (!isObject(data)) throw missing('Data');
  const consentId = requireText(data, 'ConsentId', 'Data.ConsentId', 128);
  const reference = requireText(data, 'Reference', 'Data.Reference', 35);
  const instructed = requireAmount(data.InstructedAmount, 'Data.InstructedAmount');
  const consent = confirmationConsent(k, auth, consentId);
  if (consent?.kind !== 'cof') throw notFound('funds-confirmation consent', 'Data.ConsentId');
  if (consent.deleted && !faults.has('deleted-funds-consent-confirms')) throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', 'the consent has been deleted', 'Data.ConsentId');
  if (consent.Status !== 'Authorised' && !(consent.deleted && faults.has('deleted-funds-consent-confirms')) && !faults.has('funds-unauthorised-consent')) {
    throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${consent.Status}`, 'Data.ConsentId');
  }
  if (consent.ExpirationDateTime !== undefined && store.now() >= Date.parse(consent.ExpirationDateTime) && !faults.has('expired-funds-consent-confirms')) {
    throw unauthorised('the consent has expired');
  }
  const account = (consent.accountId ? store.account(consent.accountId)?.account : undefined) ?? store.accountByRef(consent.DebtorAccount);
  if (!account) throw notFound('debtor account', 'Data.ConsentId');
  if (instructed.Currency !== account.Currency) {
    throw new ApiError(400, 'UK.OBIE.Unsupported.Currency', `the account holds ${account.Currency}`, 'Data.InstructedAmount.Currency');
  }
  const available = availableBalance(account);
  const fundsAvailable = faults.has('funds-answer-wrong') || parseMoney(instructed.Amount)! <= available;
  const fundsConfirmationId = randomUUID();
  return {
    status: status(k, r, true),
    body: {
      Data: {
        FundsConfirmationId: fundsConfirmationId, ConsentId: consentId, CreationDateTime: iso(new Date(store.now())), FundsAvailable: fundsAvailable,
        Reference: reference, InstructedAmount: instructed,
        ...(faults.has('funds-balance-disclosed') ? { AvailableBalance: { Amount: money(available), Currency: account.Currency } } : {}),
      },
      Links: { Self: `${r.self}/${fundsConfirmationId}` },
      Meta: {},
    },
  };
}

/** The routes of confirmation of funds, in matching order. */
export const CBPII_ROUTES: UkRoute[] = [
  route(AB, 'POST', '/funds-confirmation-consents', createFundsConsent),
  route(A, 'GET', '/funds-confirmation-consents/:consentId', getFundsConsent),
  route(A, 'DELETE', '/funds-confirmation-consents/:consentId', deleteFundsConsent),
  route(AB, 'POST', '/funds-confirmations', confirmFunds),
];
