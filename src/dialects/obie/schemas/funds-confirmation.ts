/**
 * Confirmation of funds (CBPII): the funds-confirmation consent and the confirmation itself
 * (UK Open Banking v3.1.x, FACTS §3). No Risk section in these bodies.
 */
import { amountAndCurrency, cashAccount, closedEnum, consentId, dateTime, responseEnvelope, text } from './common.ts';
import { CONSENT_STATUSES } from './account-info.ts';

export const OBFundsConfirmationConsent1 = {
  type: 'object',
  required: ['Data'],
  properties: {
    Data: {
      type: 'object',
      required: ['DebtorAccount'],
      properties: {
        ExpirationDateTime: dateTime,
        DebtorAccount: cashAccount,
      },
    },
  },
  additionalProperties: false,
} as const;

export const OBFundsConfirmationConsentResponse1 = responseEnvelope({
  type: 'object',
  required: ['ConsentId', 'CreationDateTime', 'Status', 'StatusUpdateDateTime', 'DebtorAccount'],
  properties: {
    ConsentId: consentId,
    CreationDateTime: dateTime,
    Status: closedEnum(CONSENT_STATUSES),
    StatusUpdateDateTime: dateTime,
    ExpirationDateTime: dateTime,
    DebtorAccount: cashAccount,
  },
});

export const OBFundsConfirmation1 = {
  type: 'object',
  required: ['Data'],
  properties: {
    Data: {
      type: 'object',
      required: ['ConsentId', 'Reference', 'InstructedAmount'],
      properties: {
        ConsentId: consentId,
        Reference: text(1, 35),
        InstructedAmount: amountAndCurrency,
      },
    },
  },
  additionalProperties: false,
} as const;

export const OBFundsConfirmationResponse1 = responseEnvelope({
  type: 'object',
  required: ['FundsConfirmationId', 'ConsentId', 'CreationDateTime', 'FundsAvailable', 'Reference', 'InstructedAmount'],
  properties: {
    FundsConfirmationId: text(1, 40),
    ConsentId: consentId,
    CreationDateTime: dateTime,
    FundsAvailable: { type: 'boolean' },
    Reference: text(1, 35),
    InstructedAmount: amountAndCurrency,
  },
});
