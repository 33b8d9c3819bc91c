/** Every berlin-group schema by name, at both levels (see ../validate.ts for the compiled validators). */
import { accountDetailsResponse, accountList, readAccountBalanceResponse200, transactionDetailsResponse, transactionsResponse200 } from './accounts.ts';
import {
  authorisations, consentInformationResponse200, consents, consentsResponse201, consentStatusResponse200, scaStatusResponse, startScaprocessResponse,
} from './consents.ts';
import { cardAccountDetailsResponse, cardAccountList, cardAccountsTransactionsResponse200, readCardAccountBalanceResponse200 } from './cards.ts';
import { errorNG, errorProblem } from './errors.ts';
import { confirmationOfFunds, fundsConfirmationResponse200 } from './funds.ts';
import {
  bulkPaymentInitiation, bulkPaymentInitiationWithStatusResponse, paymentInitiation, paymentInitiationCancelResponse202, paymentInitiationRequestResponse201,
  periodicPaymentInitiation, periodicPaymentInitiationWithStatusResponse, paymentInitiationStatusResponse200, paymentInitiationWithStatusResponse,
} from './payments.ts';
import {
  authorisationConfirmationResponse, selectPsuAuthenticationMethodResponse, updatePsuAuthenticationResponse, updatePsuIdentificationResponse,
} from './sca-updates.ts';
import { signingBasket, signingBasketResponse200, signingBasketResponse201, signingBasketStatusResponse200 } from './baskets.ts';
import type { Levels } from './common.ts';

export type { Levels } from './common.ts';
export { BG_SHOULD_SOURCES } from './common.ts';

/**
 * Both levels of every schema, named as the official file names the component (the two inline
 * answers, account detail, card account detail and transaction detail, get names of their own).
 */
export const BG_SCHEMA_LEVELS = {
  consents,
  'consentsResponse-201': consentsResponse201,
  'consentInformationResponse-200_json': consentInformationResponse200,
  'consentStatusResponse-200': consentStatusResponse200,
  startScaprocessResponse,
  authorisations,
  scaStatusResponse,
  updatePsuIdentificationResponse,
  updatePsuAuthenticationResponse,
  selectPsuAuthenticationMethodResponse,
  authorisationConfirmationResponse,
  accountList,
  accountDetailsResponse,
  'readAccountBalanceResponse-200': readAccountBalanceResponse200,
  'transactionsResponse-200_json': transactionsResponse200,
  transactionDetailsResponse,
  cardAccountList,
  cardAccountDetailsResponse,
  'readCardAccountBalanceResponse-200': readCardAccountBalanceResponse200,
  cardAccountsTransactionsResponse200,
  confirmationOfFunds,
  fundsConfirmationResponse200,
  paymentInitiation_json: paymentInitiation,
  'paymentInitiationRequestResponse-201': paymentInitiationRequestResponse201,
  paymentInitiationWithStatusResponse,
  'paymentInitiationStatusResponse-200_json': paymentInitiationStatusResponse200,
  'paymentInitiationCancelResponse-202': paymentInitiationCancelResponse202,
  periodicPaymentInitiation_json: periodicPaymentInitiation,
  periodicPaymentInitiationWithStatusResponse,
  bulkPaymentInitiation_json: bulkPaymentInitiation,
  bulkPaymentInitiationWithStatusResponse,
  signingBasket,
  'signingBasketResponse-201': signingBasketResponse201,
  'signingBasketResponse-200': signingBasketResponse200,
  'signingBasketStatusResponse-200': signingBasketStatusResponse200,
  Error_NG: errorNG,
  Error_problem: errorProblem,
} as const satisfies Record<string, Levels>;

/** The name of a berlin-group request or response body. */
export type BgSchemaName = keyof typeof BG_SCHEMA_LEVELS;
export const BG_SCHEMA_NAMES = Object.keys(BG_SCHEMA_LEVELS) as BgSchemaName[];

/** Where each schema's MUST level comes from. */
export function mustSourceOf(name: BgSchemaName): string {
  if (name === 'accountDetailsResponse') return 'NextGenPSD2 1.3.12 GET /v1/accounts/{account-id} 200 body';
  if (name === 'cardAccountDetailsResponse') return 'NextGenPSD2 1.3.12 GET /v1/card-accounts/{account-id} 200 body';
  if (name === 'transactionDetailsResponse') return 'NextGenPSD2 1.3.12 GET /v1/accounts/{account-id}/transactions/{transactionId} 200 body';
  if (name === 'fundsConfirmationResponse200') return 'NextGenPSD2 1.3.12 POST /v1/funds-confirmations 200 body';
  if (name === 'Error_NG') return 'NextGenPSD2 1.3.12 schema Error4xx_NG_* (application/json)';
  if (name === 'Error_problem') return 'NextGenPSD2 1.3.12 schema Error4xx_* (application/problem+json, RFC 7807)';
  return `NextGenPSD2 1.3.12 schema ${name}`;
}
