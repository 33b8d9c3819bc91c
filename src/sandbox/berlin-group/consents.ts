/**
 * Account-information consents (XS2A, variants A and B): create, read, status, delete, and their
 * authorisation sub-resources, with the faults that bend them.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import { CURRENCY, ibanValid, isoDay } from './data.ts';
import type { Access, BgConsent } from './store.ts';
import {
  AB, BgError, approachHeader, approachOf, format, header, isObject, listAuthorisations, route, scaOfCreate, today, validDate,
  type BgRoute, type Reply, type Req, type Xs2aContext,
} from './plumbing.ts';
import { scaStatus, startAuthorisationWithData, updatePsuData } from './sca.ts';
import { consentHoldersOf } from './multilevel.ts';

/** The faults of these routes, in the order of docs/rules.md (the registry sorts by rule). */
export const CONSENT_FAULTS = [
  { name: 'bg-consent-created-valid', rule: 'AIS-01', description: 'the 201 of POST /v1/consents says consentStatus "valid" before the PSU has done anything', kind: 'rule' },
  { name: 'bg-sca-approach-oauth', rule: 'AIS-01', description: 'the 201 of POST /v1/consents carries ASPSP-SCA-Approach: OAUTH, a value the standard does not have (OAuth is REDIRECT with the scaOAuth link)', kind: 'rule' },
  { name: 'bg-consent-without-sca-link', rule: 'AIS-01', description: 'the 201 of POST /v1/consents carries no link to start the PSU\'s SCA (no scaRedirect, scaOAuth or startAuthorisation)', kind: 'rule' },
  { name: 'bg-consent-without-access-accepted', rule: 'AIS-01', description: 'POST /v1/consents without access is accepted (201), as a consent to all the PSU\'s accounts', kind: 'rule' },
  { name: 'bg-consent-reads-back-changed', rule: 'AIS-02', description: 'GET /v1/consents/{consentId} of an authorised consent reads back access as allPsd2, whatever accounts it named', kind: 'rule' },
  { name: 'bg-consent-stays-received', rule: 'BG-01', description: 'an authorised consent still reads "received" (GET …/status and GET /v1/consents/{consentId}), though it opens the accounts', kind: 'rule' },
  { name: 'bg-rejected-stays-received', rule: 'BG-02', description: 'a consent the PSU rejected still reads "received" (it opens nothing)', kind: 'rule' },
  { name: 'bg-deleted-reads-valid', rule: 'BG-03', description: 'a consent the TPP deleted reads "valid" (it opens nothing)', kind: 'rule' },
  { name: 'bg-frequency-read-back-changed', rule: 'BG-04', description: 'GET /v1/consents/{consentId} reads back frequencyPerDay 4 and recurringIndicator true, whatever was asked', kind: 'rule' },
  { name: 'bg-valid-until-extended', rule: 'BG-06', description: 'GET /v1/consents/{consentId} reads back a validUntil a year later than the one asked', kind: 'rule' },
  { name: 'bg-consent-authorisations-unlisted', rule: 'SCA-01', description: 'GET /v1/consents/{consentId}/authorisations lists no authorisation, though the TPP started one', kind: 'rule', sca: ['embedded'] },
  { name: 'bg-create-200', rule: 'SEC-05', description: 'POST /v1/consents answers 200 instead of 201', kind: 'rule' },
] as const satisfies readonly FaultDeclaration[];

const ACCESS_TYPES = ['allAccounts', 'allAccountsWithOwnerName'];
/** The longest a consent lives here, in days (the bank shortens a longer validUntil, as the standard allows). */
export const MAX_CONSENT_DAYS = 180;

function parseAccessList(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) throw format(`${path} must be a list of account references`, path);
  return value.map((ref, i) => {
    // A card account is named by its masked PAN (the card accounts' only identifier here).
    if (isObject(ref) && typeof ref.maskedPan === 'string' && ref.iban === undefined) {
      if (!/^[0-9]{6}\*{6}[0-9]{4}$/.test(ref.maskedPan)) throw format(`${path}[${i}].maskedPan is not a masked PAN of this bank (6 digits, 6 *, 4 digits)`, `${path}[${i}].maskedPan`);
      return ref.maskedPan;
    }
    if (!isObject(ref) || typeof ref.iban !== 'string') throw format(`${path}[${i}] must name the account by iban, or a card account by maskedPan (the only identifiers this bank uses)`, `${path}[${i}].iban`);
    if (!ibanValid(ref.iban.replace(/\s/g, ''))) throw format(`${path}[${i}].iban is not a valid IBAN`, `${path}[${i}].iban`);
    if (ref.currency !== undefined && ref.currency !== CURRENCY) throw format(`${path}[${i}].currency: the accounts here are held in ${CURRENCY}`, `${path}[${i}].currency`);
    return ref.iban.replace(/\s/g, '');
  });
}

function validateAccess(access: unknown): { bankOffered: boolean } {
  if (!isObject(access)) throw format('access is required and must be an object', 'access');
  const global = ['availableAccounts', 'availableAccountsWithBalance', 'allPsd2'].filter((k) => access[k] !== undefined);
  const lists = ['accounts', 'balances', 'transactions'].filter((k) => access[k] !== undefined);
  for (const k of global) if (!ACCESS_TYPES.includes(access[k])) throw format(`access.${k} must be allAccounts or allAccountsWithOwnerName`, `access.${k}`);
  if (global.length > 1 || (global.length === 1 && lists.length > 0)) throw format('access: one global form (availableAccounts, availableAccountsWithBalance or allPsd2) alone, or account lists', 'access');
  if (global.length === 0 && lists.length === 0) throw format('access names no account and no global form', 'access');
  const counts = lists.map((k) => parseAccessList(access[k], `access.${k}`).length);
  if (access.additionalInformation !== undefined || access.restrictedTo !== undefined) throw new BgError(400, 'PARAMETER_NOT_SUPPORTED', 'additionalInformation and restrictedTo are not supported by this bank');
  return { bankOffered: lists.length > 0 && counts.every((n) => n === 0) };
}

function createConsent(k: Xs2aContext, r: Req): Reply {
  const { store, faults } = k;
  if (!header(r, 'PSU-IP-Address')) throw format('PSU-IP-Address is required', 'PSU-IP-Address');
  const b = r.body;
  if (!isObject(b)) throw format('the body must be a JSON object');
  if (faults.has('bg-consent-without-access-accepted') && b.access === undefined) b.access = { allPsd2: 'allAccounts' };
  const { bankOffered } = validateAccess(b.access);
  if (typeof b.recurringIndicator !== 'boolean') throw format('recurringIndicator is required and must be a boolean', 'recurringIndicator');
  if (!validDate(b.validUntil)) throw format('validUntil is required and must be an ISODate (YYYY-MM-DD)', 'validUntil');
  if (b.validUntil < today(k)) throw format('validUntil is in the past', 'validUntil');
  if (!Number.isInteger(b.frequencyPerDay) || b.frequencyPerDay < 1) throw format('frequencyPerDay is required and must be an integer of at least 1', 'frequencyPerDay');
  if (!b.recurringIndicator && b.frequencyPerDay !== 1) throw format('a one-off consent (recurringIndicator false) has frequencyPerDay 1', 'frequencyPerDay');
  if (typeof b.combinedServiceIndicator !== 'boolean') throw format('combinedServiceIndicator is required and must be a boolean', 'combinedServiceIndicator');
  if (b.combinedServiceIndicator) throw new BgError(400, 'SESSIONS_NOT_SUPPORTED', 'this bank does not support combined AIS and PIS sessions');
  const approach = approachOf(k, r);
  const latest = isoDay(new Date(store.now() + MAX_CONSENT_DAYS * 86_400_000));
  const consent: BgConsent = {
    kind: 'ais', id: store.newId('consent'), approach, authorisations: [], created: new Date(store.now()),
    access: structuredClone(b.access) as Access, recurringIndicator: b.recurringIndicator,
    validUntil: b.validUntil > latest ? latest : b.validUntil, frequencyPerDay: b.frequencyPerDay,
    combinedServiceIndicator: false, status: 'received', lastActionDate: today(k),
    covered: { accounts: [], balances: [], transactions: [] }, cards: { accounts: [], balances: [], transactions: [] }, bankOffered,
  };
  const self = `${r.base}/v1/consents/${consent.id}`;
  // A joint account's consent needs each holder's SCA: the TPP starts one authorisation per PSU, as for a payment.
  const sca: ReturnType<typeof scaOfCreate> = consentHoldersOf(store, consent) ? { links: { startAuthorisation: { href: `${self}/authorisations` } } } : scaOfCreate(k, r, consent, self);
  store.consents.set(consent.id, consent);
  return {
    status: faults.has('bg-create-200') ? 200 : 201,
    headers: { Location: self, 'ASPSP-SCA-Approach': faults.has('bg-sca-approach-oauth') ? 'OAUTH' : approachHeader(approach) },
    body: {
      consentStatus: faults.has('bg-consent-created-valid') ? 'valid' : consent.status,
      consentId: consent.id,
      _links: { ...(faults.has('bg-consent-without-sca-link') ? {} : sca.links), self: { href: self }, status: { href: `${self}/status` } },
      ...(sca.psuMessage ? { psuMessage: sca.psuMessage } : {}),
    },
  };
}

/** The consent named in the path (404) or in the Consent-ID header (403), its status brought up to date. */
export function consentOf(k: Xs2aContext, id: string | undefined, where: 'path' | 'header'): BgConsent {
  const consent = id ? k.store.consents.get(id) : undefined;
  if (!consent) {
    if (where === 'header') throw new BgError(403, 'CONSENT_UNKNOWN', 'the Consent-ID is unknown to this bank', 'Consent-ID');
    throw new BgError(404, 'RESOURCE_UNKNOWN', 'no such consent');
  }
  return k.store.refresh(consent);
}

/** The status the bank tells the TPP (some faults misreport it). */
function reportedStatus(k: Xs2aContext, c: BgConsent): string {
  const { faults } = k;
  if (faults.has('bg-consent-stays-received') && c.status === 'valid') return 'received';
  if (faults.has('bg-rejected-stays-received') && c.status === 'rejected') return 'received';
  if (faults.has('bg-deleted-reads-valid') && c.status === 'terminatedByTpp') return 'valid';
  return c.status;
}

function getConsent(k: Xs2aContext, r: Req): Reply {
  const { faults } = k;
  const c = consentOf(k, r.params.consentId, 'path');
  const changed = faults.has('bg-frequency-read-back-changed');
  const validUntil = faults.has('bg-valid-until-extended') ? isoDay(new Date(Date.parse(`${c.validUntil}T00:00:00Z`) + 365 * 86_400_000)) : c.validUntil;
  return {
    status: 200,
    body: {
      access: faults.has('bg-consent-reads-back-changed') && c.status === 'valid' ? { allPsd2: 'allAccounts' } : c.access, recurringIndicator: changed ? true : c.recurringIndicator, validUntil, frequencyPerDay: changed ? 4 : c.frequencyPerDay,
      lastActionDate: c.lastActionDate, consentStatus: reportedStatus(k, c),
    },
  };
}

function getConsentStatus(k: Xs2aContext, r: Req): Reply {
  return { status: 200, body: { consentStatus: reportedStatus(k, consentOf(k, r.params.consentId, 'path')) } };
}

function deleteConsent(k: Xs2aContext, r: Req): Reply {
  const c = consentOf(k, r.params.consentId, 'path');
  if (c.status === 'terminatedByTpp') throw new BgError(409, 'STATUS_INVALID', 'the consent is already terminated');
  c.status = 'terminatedByTpp';
  c.lastActionDate = today(k);
  return { status: 204 };
}


const consentSelf = (r: Req) => `${r.base}/v1/consents/${r.params.consentId}`;

/** The routes of consents, in matching order. */
export const CONSENT_ROUTES: BgRoute[] = [
  route(AB, 'POST', '/v1/consents', createConsent, 'createAccountAccessConsent'),
  route(AB, 'GET', '/v1/consents/:consentId', getConsent, 'getAccountAccessConsent'),
  route(AB, 'DELETE', '/v1/consents/:consentId', deleteConsent, 'deleteAccountAccessConsent'),
  route(AB, 'GET', '/v1/consents/:consentId/status', getConsentStatus, 'getConsentStatus'),
  route(AB, 'POST', '/v1/consents/:consentId/authorisations', (k, r) => startAuthorisationWithData(k, r, consentOf(k, r.params.consentId, 'path'), consentSelf(r)), 'startConsentAuthorisation'),
  route(AB, 'GET', '/v1/consents/:consentId/authorisations', (k, r) => (k.faults.has('bg-consent-authorisations-unlisted')
    ? { status: 200, body: { authorisationIds: [] } }
    : listAuthorisations(consentOf(k, r.params.consentId, 'path'))), 'listConsentAuthorisations'),
  route(AB, 'GET', '/v1/consents/:consentId/authorisations/:authorisationId', (k, r) => scaStatus(k, consentOf(k, r.params.consentId, 'path'), r.params.authorisationId), 'getConsentScaStatus'),
  route(AB, 'PUT', '/v1/consents/:consentId/authorisations/:authorisationId', (k, r) => updatePsuData(k, r, consentOf(k, r.params.consentId, 'path'), consentSelf(r)), 'updateConsentPsuData'),
];
