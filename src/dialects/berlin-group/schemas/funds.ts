/** Confirmation of funds (PIIS): POST /v1/funds-confirmations, answered 200 (FACTS §6.5). */
import { accountReference, amount, levels, text } from './common.ts';

/** The request body (`confirmationOfFunds`). */
export const confirmationOfFunds = levels((level) => ({
  type: 'object',
  required: ['account', 'instructedAmount'],
  properties: { cardNumber: text(35), account: accountReference(level), payee: text(70), instructedAmount: amount(level) },
}));

/** The 200 answer: only whether funds are available. */
export const fundsConfirmationResponse200 = levels(() => ({
  type: 'object',
  required: ['fundsAvailable'],
  properties: { fundsAvailable: { type: 'boolean' } },
}));
