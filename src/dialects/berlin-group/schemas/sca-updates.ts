/**
 * The answers of PUT …/authorisations/{authorisationId} (a consent's, a payment's, a payment
 * cancellation's and a signing basket's alike): the file's `OK_200_UpdatePsuData` is a oneOf of
 * one body per kind of request. The oneOf itself cannot be judged (`{ "scaStatus": "finalised" }`
 * matches three of its branches, which a oneOf refuses), so the TPP judges each answer by what it
 * sent (`updateAnswerSchemaOf`): the PSU's identification (an empty body with PSU-ID) →
 * updatePsuIdentificationResponse, `psuData` → updatePsuAuthenticationResponse,
 * `authenticationMethodId` → selectPsuAuthenticationMethodResponse, `scaAuthenticationData` →
 * scaStatusResponse (consents.ts), `confirmationCode` → authorisationConfirmationResponse.
 */
import { amount, closedEnum, linksObject, levels, psuMessage, str } from './common.ts';
import type { Level } from './common.ts';
import { SCA_STATUSES } from './consents.ts';
import { authenticationObject, challengeData, scaMethods } from './members.ts';

/** The estimates and fees a bank may show the PSU with a payment's SCA (every update answer but the last two). */
const fees = (level: Level) => ({
  transactionFees: amount(level),
  currencyConversionFees: amount(level),
  estimatedTotalAmount: amount(level),
  estimatedInterbankSettlementAmount: amount(level),
}) as const;

/** The PSU identified (an empty body with PSU-ID): `updatePsuIdentificationResponse`. */
export const updatePsuIdentificationResponse = levels((level) => ({
  type: 'object',
  required: ['_links', 'scaStatus'],
  properties: {
    ...fees(level),
    scaMethods,
    _links: linksObject(level, ['scaStatus', 'selectAuthenticationMethod']),
    scaStatus: closedEnum(SCA_STATUSES),
    psuMessage,
  },
}));

/** The PSU's password (`psuData`): `updatePsuAuthenticationResponse`. */
export const updatePsuAuthenticationResponse = levels((level) => ({
  type: 'object',
  required: ['scaStatus'],
  properties: {
    ...fees(level),
    chosenScaMethod: authenticationObject,
    challengeData,
    scaMethods,
    _links: linksObject(level, ['updateAdditionalPsuAuthentication', 'updateAdditionalEncryptedPsuAuthentication', 'selectAuthenticationMethod', 'authoriseTransaction', 'scaStatus']),
    scaStatus: closedEnum(SCA_STATUSES),
    psuMessage,
    authorisationId: str,
  },
}));

/** The SCA method chosen (`authenticationMethodId`): `selectPsuAuthenticationMethodResponse`. */
export const selectPsuAuthenticationMethodResponse = levels((level) => ({
  type: 'object',
  required: ['scaStatus'],
  properties: {
    ...fees(level),
    chosenScaMethod: authenticationObject,
    challengeData,
    _links: linksObject(level, [
      'scaRedirect', 'scaOAuth', 'confirmation', 'updatePsuIdentification', 'updatePsuAuthentication',
      'updateAdditionalPsuAuthentication', 'updateAdditionalEncryptedPsuAuthentication', 'authoriseTransaction', 'scaStatus',
    ]),
    scaStatus: closedEnum(SCA_STATUSES),
    psuMessage,
  },
}));

/** `scaStatusAuthorisationConfirmation`: the two outcomes of a confirmation. */
export const SCA_CONFIRMATION_STATUSES = ['finalised', 'failed'] as const;

/** The redirect approach's confirmation code (`confirmationCode`): `authorisationConfirmationResponse`. */
export const authorisationConfirmationResponse = levels((level) => ({
  type: 'object',
  required: ['scaStatus', '_links'],
  properties: {
    scaStatus: closedEnum(SCA_CONFIRMATION_STATUSES),
    _links: linksObject(level, ['scaStatus']),
    psuMessage,
  },
}));

/** The schema of the answer to a PUT …/authorisations/{authorisationId}, by what the TPP sent in it. */
export function updateAnswerSchemaOf(body: unknown): 'updatePsuIdentificationResponse' | 'updatePsuAuthenticationResponse' | 'selectPsuAuthenticationMethodResponse' | 'scaStatusResponse' | 'authorisationConfirmationResponse' {
  const sent = body !== null && typeof body === 'object' ? body as Record<string, unknown> : {};
  if (sent.psuData !== undefined) return 'updatePsuAuthenticationResponse';
  if (sent.authenticationMethodId !== undefined) return 'selectPsuAuthenticationMethodResponse';
  if (sent.scaAuthenticationData !== undefined) return 'scaStatusResponse';
  if (sent.confirmationCode !== undefined) return 'authorisationConfirmationResponse';
  return 'updatePsuIdentificationResponse';
}
