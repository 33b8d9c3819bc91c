/**
 * Account-information consents: POST /v1/consents, its 201 answer, GET /v1/consents/{consentId}
 * and its /status, and the authorisation sub-resources (FACTS §6.3).
 */
import {
  accountReference, BG_SHOULD_SOURCES, bool, closedEnum, isoDate, levels, linksObject, psuMessage, SCA_LINKS,
  SHOULD_SOURCE_KEYWORD, str, tppMessage,
} from './common.ts';
import type { Level } from './common.ts';
import { scaMembers } from './members.ts';

/** `consentStatus`. Unlike UK Open Banking, `expired` is a status of its own. */
export const CONSENT_STATUSES = ['received', 'rejected', 'valid', 'revokedByPsu', 'expired', 'terminatedByTpp', 'partiallyAuthorised'] as const;
/** `scaStatus` of an authorisation sub-resource. */
export const SCA_STATUSES = ['received', 'psuIdentified', 'psuAuthenticated', 'scaMethodSelected', 'started', 'unconfirmed', 'finalised', 'failed', 'exempted'] as const;
/** The values of `availableAccounts`, `availableAccountsWithBalance` and `allPsd2`. */
export const ACCOUNT_ACCESS_TYPES = ['allAccounts', 'allAccountsWithOwnerName'] as const;

const accessList = (level: Level) => ({ type: 'array', items: accountReference(level) }) as const;

export const accountAccess = (level: Level) => ({
  type: 'object',
  properties: {
    accounts: accessList(level),
    balances: accessList(level),
    transactions: accessList(level),
    additionalInformation: {
      type: 'object',
      properties: { ownerName: accessList(level), trustedBeneficiaries: accessList(level) },
    },
    availableAccounts: closedEnum(ACCOUNT_ACCESS_TYPES),
    availableAccountsWithBalance: closedEnum(ACCOUNT_ACCESS_TYPES),
    allPsd2: closedEnum(ACCOUNT_ACCESS_TYPES),
    restrictedTo: { type: 'array', items: str },
  },
}) as const;

const frequencyPerDay = { type: 'integer', minimum: 1 } as const;

/** The body of POST /v1/consents (`consents`). */
export const consents = levels((level) => ({
  type: 'object',
  required: ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay', 'combinedServiceIndicator'],
  properties: {
    access: accountAccess(level),
    recurringIndicator: bool,
    validUntil: isoDate,
    frequencyPerDay,
    combinedServiceIndicator: bool,
  },
}));

/** `_links` of a create's 201: the SCA links, self, status, scaStatus (any other link too). */
export function createLinks(level: Level): object {
  const links = linksObject(level, [...SCA_LINKS, 'self', 'status', 'scaStatus']) as Record<string, unknown>;
  if (level === 'official') return links;
  // One readable warning when none of the SCA links is there (an anyOf would give one per link).
  // An authorisation the bank started implicitly is followed by its own links: the embedded
  // approach's update links, the decoupled approach's scaStatus (the TPP polls it).
  const followed = [...SCA_LINKS, 'updatePsuIdentification', 'updatePsuAuthentication', 'updateEncryptedPsuAuthentication', 'selectAuthenticationMethod', 'authoriseTransaction', 'scaStatus'];
  return {
    ...links,
    if: { not: { anyOf: followed.map((l) => ({ required: [l] })) } },
    then: { required: ['scaRedirect|scaOAuth|startAuthorisation*'], [SHOULD_SOURCE_KEYWORD]: BG_SHOULD_SOURCES.scaLink },
  };
}

/** The 201 answer to POST /v1/consents (`consentsResponse-201`). */
export const consentsResponse201 = levels((level) => ({
  type: 'object',
  required: ['consentStatus', 'consentId', '_links'],
  properties: {
    consentStatus: closedEnum(CONSENT_STATUSES),
    consentId: str,
    ...scaMembers,
    _links: createLinks(level),
    psuMessage,
    tppMessages: { type: 'array', items: tppMessage },
    scaStatus: closedEnum(SCA_STATUSES),
  },
}));

/** GET /v1/consents/{consentId} (`consentInformationResponse-200_json`). */
export const consentInformationResponse200 = levels((level) => ({
  type: 'object',
  required: ['access', 'recurringIndicator', 'validUntil', 'frequencyPerDay', 'lastActionDate', 'consentStatus'],
  properties: {
    access: accountAccess(level),
    recurringIndicator: bool,
    validUntil: isoDate,
    frequencyPerDay,
    lastActionDate: isoDate,
    consentStatus: closedEnum(CONSENT_STATUSES),
    _links: linksObject(level, ['account', 'card-account']),
  },
}));

/** GET /v1/consents/{consentId}/status (`consentStatusResponse-200`). */
export const consentStatusResponse200 = levels(() => ({
  type: 'object',
  required: ['consentStatus'],
  properties: { consentStatus: closedEnum(CONSENT_STATUSES), psuMessage },
}));

/** POST …/authorisations (`startScaprocessResponse`). */
export const startScaprocessResponse = levels((level) => ({
  type: 'object',
  required: ['scaStatus', 'authorisationId', '_links'],
  properties: {
    scaStatus: closedEnum(SCA_STATUSES),
    authorisationId: str,
    ...scaMembers,
    _links: linksObject(level, ['scaRedirect', 'scaOAuth', 'confirmation', 'updatePsuIdentification', 'startAuthorisationWithPsuAuthentication', 'startAuthorisationWithEncryptedPsuAuthentication', 'selectAuthenticationMethod', 'authoriseTransaction', 'scaStatus']),
    psuMessage,
    tppMessages: { type: 'array', items: tppMessage },
  },
}));

/** GET …/authorisations (`authorisations`). */
export const authorisations = levels(() => ({
  type: 'object',
  required: ['authorisationIds'],
  properties: { authorisationIds: { type: 'array', items: str } },
}));

/** GET …/authorisations/{authorisationId} (`scaStatusResponse`). */
export const scaStatusResponse = levels((level) => ({
  type: 'object',
  required: ['scaStatus'],
  properties: {
    scaStatus: closedEnum(SCA_STATUSES),
    psuMessage,
    psuName: { type: 'string', maxLength: 140 },
    trustedBeneficiaryFlag: bool,
    _links: linksObject(level, []),
    tppMessages: { type: 'array', items: tppMessage },
  },
}));
