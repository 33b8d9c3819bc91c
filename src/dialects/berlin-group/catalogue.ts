/**
 * The operations of NextGenPSD2 XS2A 1.3.x that obtpp calls, as data: path templates over the
 * profile's `paths` (the /v1/… defaults of a berlin-group profile), and the official schema of
 * each answer (names as in the 1.3.12 file; see schemas/index.ts). The TPP is known by its
 * certificate and the consent by the Consent-ID header: no call needs a token of its own, and a
 * token goes with the call where the OAuth2 SCA approach gave one. 1.3.x has no funds-confirmation
 * consent (PIIS is set up at the bank) and no payment order after the payment.
 */
import type { OperationSpec } from '../operation-spec.ts';

const AB = ['A', 'B'] as const;
const A = ['A'] as const;

export const BERLIN_GROUP_OPERATIONS = {
  createAccountAccessConsent: {
    api: 'ais', method: 'POST', path: '{@accountAccessConsents}', ids: [], body: true, token: 'none', variants: AB,
    responses: { 201: 'consentsResponse-201' }, builder: 'buildConsent',
    words: 'creating a consent (obtpp consent create ais)',
  },
  getAccountAccessConsent: {
    api: 'ais', method: 'GET', path: '{@accountAccessConsents}/{consentId}', ids: ['consentId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'consentInformationResponse-200_json' },
    words: 'reading a consent (obtpp consent get)',
  },
  getConsentStatus: {
    api: 'ais', method: 'GET', path: '{@accountAccessConsents}/{consentId}/status', ids: ['consentId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'consentStatusResponse-200' },
    words: 'reading a consent\'s status (obtpp consent get)',
  },
  deleteAccountAccessConsent: {
    api: 'ais', method: 'DELETE', path: '{@accountAccessConsents}/{consentId}', ids: ['consentId'], body: false, token: 'none', variants: AB,
    responses: { 204: null },
    words: 'deleting a consent (obtpp consent delete)',
  },
  listAccounts: {
    api: 'ais', method: 'GET', path: '{@accounts}', ids: [], body: false, token: 'none', variants: AB,
    responses: { 200: 'accountList' },
    words: 'listing accounts (obtpp accounts)',
  },
  getAccount: {
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}', ids: ['accountId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'accountDetailsResponse' },
    words: 'reading one account (obtpp accounts ID)',
  },
  getBalances: {
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/balances', ids: ['accountId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'readAccountBalanceResponse-200' },
    words: 'reading balances (obtpp balances)',
  },
  getTransactions: {
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/transactions', ids: ['accountId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'transactionsResponse-200_json' },
    words: 'reading transactions (obtpp transactions)',
  },
  getTransaction: {
    api: 'ais', method: 'GET', path: '{@transactionDetail}', ids: ['accountId', 'resourceId'], body: false, token: 'none', variants: A,
    responses: { 200: 'transactionDetailsResponse' },
    words: 'reading one transaction (obtpp transaction)',
  },
  listCardAccounts: {
    api: 'ais', method: 'GET', path: '{@cardAccounts}', ids: [], body: false, token: 'none', variants: AB,
    responses: { 200: 'cardAccountList' },
    words: 'listing card accounts (obtpp accounts --cards)',
  },
  getCardAccount: {
    api: 'ais', method: 'GET', path: '{@cardAccounts}/{accountId}', ids: ['accountId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'cardAccountDetailsResponse' },
    words: 'reading one card account (obtpp accounts ID --cards)',
  },
  getCardBalances: {
    api: 'ais', method: 'GET', path: '{@cardAccounts}/{accountId}/balances', ids: ['accountId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'readCardAccountBalanceResponse-200' },
    words: 'reading a card account\'s balances',
  },
  getCardTransactions: {
    api: 'ais', method: 'GET', path: '{@cardAccounts}/{accountId}/transactions', ids: ['accountId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'cardAccountsTransactionsResponse200' },
    words: 'reading a card account\'s transactions',
  },
  confirmFunds: {
    api: 'cof', method: 'POST', path: '{@fundsConfirmations}', ids: [], body: true, token: 'none', variants: AB,
    responses: { 200: 'fundsConfirmationResponse200' }, builder: 'buildFundsConfirmation',
    words: 'confirming funds (obtpp funds confirm)',
  },
  createPaymentConsent: {
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}/{payment-product}', ids: [], body: true, token: 'none', variants: A,
    responses: { 201: 'paymentInitiationRequestResponse-201' }, builder: 'buildPaymentInitiation',
    words: 'payment initiation (obtpp consent create pis)',
  },
  getPayment: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/{payment-product}/{paymentId}', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 200: 'paymentInitiationWithStatusResponse' },
    words: 'reading a payment (obtpp payment get)',
  },
  // The authorisation sub-resources (decoupled and embedded SCA; the TPP starts and follows them).
  startConsentAuthorisation: {
    group: { kind: 'authorisation', of: 'consent', as: 'start' },
    api: 'ais', method: 'POST', path: '{@accountAccessConsents}/{consentId}/authorisations', ids: ['consentId'], body: true, token: 'none', variants: AB,
    responses: { 201: 'startScaprocessResponse' },
    words: 'starting a consent\'s authorisation',
  },
  listConsentAuthorisations: {
    group: { kind: 'authorisation', of: 'consent', as: 'list' },
    api: 'ais', method: 'GET', path: '{@accountAccessConsents}/{consentId}/authorisations', ids: ['consentId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'authorisations' },
    words: 'listing a consent\'s authorisations',
  },
  // The answer's schema depends on what the body carried (updatePsuAuthenticationResponse,
  // selectPsuAuthenticationMethodResponse, scaStatusResponse): the SCA steps judge it by what
  // they sent (updateAnswerSchemaOf).
  updateConsentPsuData: {
    group: { kind: 'authorisation', of: 'consent', as: 'update' },
    api: 'ais', method: 'PUT', path: '{@accountAccessConsents}/{consentId}/authorisations/{authorisationId}', ids: ['consentId', 'authorisationId'], body: true, token: 'none', variants: AB,
    responses: { 200: null },
    words: 'sending the PSU\'s data for a consent\'s authorisation',
  },
  getConsentScaStatus: {
    group: { kind: 'authorisation', of: 'consent', as: 'status' },
    api: 'ais', method: 'GET', path: '{@accountAccessConsents}/{consentId}/authorisations/{authorisationId}', ids: ['consentId', 'authorisationId'], body: false, token: 'none', variants: AB,
    responses: { 200: 'scaStatusResponse' },
    words: 'reading a consent\'s SCA status',
  },
  startPaymentAuthorisation: {
    group: { kind: 'authorisation', of: 'payment', as: 'start' },
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/authorisations', ids: ['paymentId'], body: true, token: 'none', variants: A,
    responses: { 201: 'startScaprocessResponse' },
    words: 'starting a payment\'s authorisation',
  },
  updatePaymentPsuData: {
    group: { kind: 'authorisation', of: 'payment', as: 'update' },
    api: 'pis', method: 'PUT', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/authorisations/{authorisationId}', ids: ['paymentId', 'authorisationId'], body: true, token: 'none', variants: A,
    responses: { 200: null },
    words: 'sending the PSU\'s data for a payment\'s authorisation',
  },
  listPaymentAuthorisations: {
    group: { kind: 'authorisation', of: 'payment', as: 'list' },
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/authorisations', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 200: 'authorisations' },
    words: 'listing a payment\'s authorisations',
  },
  getPaymentScaStatus: {
    group: { kind: 'authorisation', of: 'payment', as: 'status' },
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/authorisations/{authorisationId}', ids: ['paymentId', 'authorisationId'], body: false, token: 'none', variants: A,
    responses: { 200: 'scaStatusResponse' },
    words: 'reading a payment\'s SCA status',
  },
  // The other payment services: standing orders and bulks (JSON products; the status and the
  // 201 are the single payment's schemas).
  createPeriodicPayment: {
    api: 'pis', method: 'POST', path: '/v1/periodic-payments/{payment-product}', ids: [], body: true, token: 'none', variants: A,
    responses: { 201: 'paymentInitiationRequestResponse-201' }, builder: 'buildPeriodicPayment',
    words: 'initiating a periodic payment (standing order)',
  },
  getPeriodicPayment: {
    api: 'pis', method: 'GET', path: '/v1/periodic-payments/{payment-product}/{paymentId}', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 200: 'periodicPaymentInitiationWithStatusResponse' },
    words: 'reading a periodic payment',
  },
  getPeriodicPaymentStatus: {
    api: 'pis', method: 'GET', path: '/v1/periodic-payments/{payment-product}/{paymentId}/status', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 200: 'paymentInitiationStatusResponse-200_json' },
    words: 'reading a periodic payment\'s status',
  },
  createBulkPayment: {
    api: 'pis', method: 'POST', path: '/v1/bulk-payments/{payment-product}', ids: [], body: true, token: 'none', variants: A,
    responses: { 201: 'paymentInitiationRequestResponse-201' }, builder: 'buildBulkPayment',
    words: 'initiating a bulk payment',
  },
  getBulkPayment: {
    api: 'pis', method: 'GET', path: '/v1/bulk-payments/{payment-product}/{paymentId}', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 200: 'bulkPaymentInitiationWithStatusResponse' },
    words: 'reading a bulk payment',
  },
  getBulkPaymentStatus: {
    api: 'pis', method: 'GET', path: '/v1/bulk-payments/{payment-product}/{paymentId}/status', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 200: 'paymentInitiationStatusResponse-200_json' },
    words: 'reading a bulk payment\'s status',
  },
  // Payment cancellation (DELETE: 204 when done, 202 when the PSU must authorise it) and the
  // cancellation's authorisation sub-resources.
  cancelPayment: {
    api: 'pis', method: 'DELETE', path: '{@paymentsPrefix}/{payment-product}/{paymentId}', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 204: null, 202: 'paymentInitiationCancelResponse-202' },
    words: 'cancelling a payment (obtpp payment cancel)',
  },
  startPaymentCancellationAuthorisation: {
    group: { kind: 'authorisation', of: 'cancellation', as: 'start' },
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/cancellation-authorisations', ids: ['paymentId'], body: true, token: 'none', variants: A,
    responses: { 201: 'startScaprocessResponse' },
    words: 'starting the authorisation of a payment\'s cancellation (obtpp payment cancel)',
  },
  listPaymentCancellationAuthorisations: {
    group: { kind: 'authorisation', of: 'cancellation', as: 'list' },
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/cancellation-authorisations', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 200: 'authorisations' },
    words: 'listing the authorisations of a payment\'s cancellation',
  },
  getPaymentCancellationScaStatus: {
    group: { kind: 'authorisation', of: 'cancellation', as: 'status' },
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/cancellation-authorisations/{authorisationId}', ids: ['paymentId', 'authorisationId'], body: false, token: 'none', variants: A,
    responses: { 200: 'scaStatusResponse' },
    words: 'reading the SCA status of a payment\'s cancellation',
  },
  updatePaymentCancellationPsuData: {
    group: { kind: 'authorisation', of: 'cancellation', as: 'update' },
    api: 'pis', method: 'PUT', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/cancellation-authorisations/{authorisationId}', ids: ['paymentId', 'authorisationId'], body: true, token: 'none', variants: A,
    responses: { 200: null },
    words: 'sending the PSU\'s data for the authorisation of a payment\'s cancellation',
  },
  // Signing baskets: one SCA of the basket authorises the consents and payments it names.
  createSigningBasket: {
    api: 'pis', method: 'POST', path: '/v1/signing-baskets', ids: [], body: true, token: 'none', variants: A,
    responses: { 201: 'signingBasketResponse-201' }, builder: 'buildSigningBasket',
    words: 'creating a signing basket',
  },
  getSigningBasket: {
    api: 'pis', method: 'GET', path: '/v1/signing-baskets/{basketId}', ids: ['basketId'], body: false, token: 'none', variants: A,
    responses: { 200: 'signingBasketResponse-200' },
    words: 'reading a signing basket',
  },
  getSigningBasketStatus: {
    api: 'pis', method: 'GET', path: '/v1/signing-baskets/{basketId}/status', ids: ['basketId'], body: false, token: 'none', variants: A,
    responses: { 200: 'signingBasketStatusResponse-200' },
    words: 'reading a signing basket\'s status',
  },
  deleteSigningBasket: {
    api: 'pis', method: 'DELETE', path: '/v1/signing-baskets/{basketId}', ids: ['basketId'], body: false, token: 'none', variants: A,
    responses: { 204: null },
    words: 'deleting a signing basket',
  },
  startSigningBasketAuthorisation: {
    group: { kind: 'authorisation', of: 'basket', as: 'start' },
    api: 'pis', method: 'POST', path: '/v1/signing-baskets/{basketId}/authorisations', ids: ['basketId'], body: true, token: 'none', variants: A,
    responses: { 201: 'startScaprocessResponse' },
    words: 'starting a signing basket\'s authorisation',
  },
  listSigningBasketAuthorisations: {
    group: { kind: 'authorisation', of: 'basket', as: 'list' },
    api: 'pis', method: 'GET', path: '/v1/signing-baskets/{basketId}/authorisations', ids: ['basketId'], body: false, token: 'none', variants: A,
    responses: { 200: 'authorisations' },
    words: 'listing a signing basket\'s authorisations',
  },
  getSigningBasketScaStatus: {
    group: { kind: 'authorisation', of: 'basket', as: 'status' },
    api: 'pis', method: 'GET', path: '/v1/signing-baskets/{basketId}/authorisations/{authorisationId}', ids: ['basketId', 'authorisationId'], body: false, token: 'none', variants: A,
    responses: { 200: 'scaStatusResponse' },
    words: 'reading a signing basket\'s SCA status',
  },
  updateSigningBasketPsuData: {
    group: { kind: 'authorisation', of: 'basket', as: 'update' },
    api: 'pis', method: 'PUT', path: '/v1/signing-baskets/{basketId}/authorisations/{authorisationId}', ids: ['basketId', 'authorisationId'], body: true, token: 'none', variants: A,
    responses: { 200: null },
    words: 'sending the PSU\'s data for a signing basket\'s authorisation',
  },
  getPaymentStatus: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}{@paymentStatus}', ids: ['paymentId'], body: false, token: 'none', variants: A,
    responses: { 200: 'paymentInitiationStatusResponse-200_json' },
    words: 'reading a payment\'s status (obtpp payment status)',
  },
} as const satisfies Record<string, OperationSpec>;
