/**
 * The operations of the UK standard (Open Banking Read/Write v3.1) that the spec's two variants
 * use, as data: path templates over the profile's `paths`, the token each is called under, the
 * permissions a data call needs (FACTS §1.4), which requests and answers are signed (§1.8), and
 * the official schema of each answer. Errors (4xx, 5xx) are OBErrorResponse1 throughout (§1.6).
 * The read and delete of the account-access consent are in neither variant's table, but the spec
 * leaves revocation "not shown", so the UK standard decides: both variants have them. A profile
 * with `standard: uk-3.1` is judged by variant A's entries at the standard's official paths;
 * `standards` marks what only one layout has.
 */
import type { OperationSpec } from '../operation-spec.ts';

const AB = ['A', 'B'] as const;
const A = ['A'] as const;
/** Only the spec's layout has it: UK Read/Write v3.1.11 has no single-transaction read and no payment /status. */
const SPEC = ['spec'] as const;
/** Only the published UK standard has it (the spec's tables do not): judged with `standard: uk-3.1`. */
const UK = ['uk-3.1', 'uk-4.0'] as const;

export const OBIE_OPERATIONS = {
  createAccountAccessConsent: {
    api: 'ais', method: 'POST', path: '{@accountAccessConsents}', ids: [], body: true, token: 'client', variants: AB,
    responses: { 201: 'OBReadConsentResponse1' }, builder: 'buildAccountAccessConsent',
    words: 'creating an account-access consent (obtpp consent create ais)',
  },
  getAccountAccessConsent: {
    api: 'ais', method: 'GET', path: '{@accountAccessConsents}/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: AB,
    responses: { 200: 'OBReadConsentResponse1' },
    words: 'reading an account-access consent (obtpp consent get)',
  },
  deleteAccountAccessConsent: {
    api: 'ais', method: 'DELETE', path: '{@accountAccessConsents}/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: AB,
    responses: { 204: null },
    words: 'deleting an account-access consent (obtpp consent delete)',
  },
  listAccounts: {
    api: 'ais', method: 'GET', path: '{@accounts}', ids: [], body: false, token: 'psu', variants: AB,
    permissions: ['ReadAccountsBasic', 'ReadAccountsDetail'], responses: { 200: 'OBReadAccount6' },
    words: 'listing accounts (obtpp accounts)',
  },
  getAccount: {
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}', ids: ['accountId'], body: false, token: 'psu', variants: AB,
    permissions: ['ReadAccountsBasic', 'ReadAccountsDetail'], responses: { 200: 'OBReadAccount6' },
    words: 'reading one account (obtpp accounts ID)',
  },
  getBalances: {
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/balances', ids: ['accountId'], body: false, token: 'psu', variants: AB,
    permissions: ['ReadBalances'], responses: { 200: 'OBReadBalance1' },
    words: 'reading balances (obtpp balances)',
  },
  getTransactions: {
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/transactions', ids: ['accountId'], body: false, token: 'psu', variants: AB,
    permissions: ['ReadTransactionsBasic', 'ReadTransactionsDetail'], responses: { 200: 'OBReadTransaction6' },
    words: 'reading transactions (obtpp transactions)',
  },
  getTransaction: {
    api: 'ais', method: 'GET', path: '{@transactionDetail}', ids: ['accountId', 'resourceId'], body: false, token: 'psu', variants: A, standards: SPEC,
    permissions: ['ReadTransactionsBasic', 'ReadTransactionsDetail'], responses: { 200: 'OBReadTransaction6' },
    words: 'reading one transaction (obtpp transaction)',
  },
  getBeneficiaries: {
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/beneficiaries', ids: ['accountId'], body: false, token: 'psu', variants: AB,
    permissions: ['ReadBeneficiariesBasic', 'ReadBeneficiariesDetail'], responses: { 200: 'OBReadBeneficiary5' },
    words: 'reading an account\'s beneficiaries',
  },
  createFundsConsent: {
    api: 'cof', method: 'POST', path: '{@fundsConfirmationConsents}', ids: [], body: true, token: 'client', variants: AB,
    responses: { 201: 'OBFundsConfirmationConsentResponse1' }, builder: 'buildFundsConsent',
    words: 'creating a funds-confirmation consent (obtpp consent create cof)',
  },
  getFundsConsent: {
    api: 'cof', method: 'GET', path: '{@fundsConfirmationConsents}/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A,
    responses: { 200: 'OBFundsConfirmationConsentResponse1' },
    words: 'reading a funds-confirmation consent (obtpp consent get)',
  },
  deleteFundsConsent: {
    api: 'cof', method: 'DELETE', path: '{@fundsConfirmationConsents}/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A,
    responses: { 204: null },
    words: 'deleting a funds-confirmation consent (obtpp consent delete)',
  },
  confirmFunds: {
    api: 'cof', method: 'POST', path: '{@fundsConfirmations}', ids: [], body: true, token: 'psu', variants: AB,
    responses: { 201: 'OBFundsConfirmationResponse1' }, builder: 'buildFundsConfirmation',
    words: 'confirming funds (obtpp funds confirm)',
  },
  createPaymentConsent: {
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}/{payment-product}', ids: [], body: true, token: 'client', variants: A,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteDomesticConsentResponse5' }, builder: 'buildPaymentConsent',
    words: 'payment initiation (obtpp consent create pis)',
  },
  getPayment: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/{payment-product}/{paymentId}', ids: ['paymentId'], body: false, token: 'client', variants: A,
    signedAnswer: true, responses: { 200: 'OBWriteDomesticConsentResponse5' },
    words: 'reading a payment (obtpp payment get)',
  },
  getPaymentStatus: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}{@paymentStatus}', ids: ['paymentId'], body: false, token: 'client', variants: A, standards: SPEC,
    signedAnswer: true, responses: { 200: 'PaymentStatusResponse' },
    words: 'reading a payment\'s status (obtpp payment status)',
  },
  submitPayment: {
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}{@paymentOrders}', ids: [], body: true, token: 'psu', variants: A,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteDomesticResponse5' }, builder: 'buildPaymentOrder',
    words: 'submitting a payment (obtpp payment submit)',
  },
  getPaymentOrder: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}{@paymentOrders}/{paymentOrderId}', ids: ['paymentOrderId'], body: false, token: 'client', variants: A,
    signedAnswer: true, responses: { 200: 'OBWriteDomesticResponse5' },
    words: 'reading a payment order (obtpp payment get --order)',
  },
  getPaymentDetails: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}{@paymentOrders}/{paymentOrderId}/payment-details', ids: ['paymentOrderId'], body: false, token: 'client', variants: A,
    signedAnswer: true, responses: { 200: 'OBWritePaymentDetailsResponse1' },
    words: 'reading a payment order\'s details',
  },
  getPaymentFunds: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/{payment-product}/{paymentId}/funds-confirmation', ids: ['paymentId'], body: false, token: 'psu', variants: A,
    signedAnswer: true, responses: { 200: 'OBWriteFundsConfirmationResponse1' },
    words: 'the funds check of a payment consent (obtpp payment funds)',
  },
  // Variable Recurring Payments (the v3.1.11 VRP file, below /pisp): one consent, many payments without the PSU.
  createVrpConsent: {
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}/domestic-vrp-consents', ids: [], body: true, token: 'client', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBDomesticVRPConsentResponse' }, builder: 'buildVrpConsent',
    words: 'creating a VRP consent (obtpp vrp consent create)',
  },
  getVrpConsent: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/domestic-vrp-consents/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBDomesticVRPConsentResponse' },
    words: 'reading a VRP consent (obtpp vrp consent get)',
  },
  deleteVrpConsent: {
    api: 'pis', method: 'DELETE', path: '{@paymentsPrefix}/domestic-vrp-consents/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    responses: { 204: null },
    words: 'revoking a VRP consent (obtpp vrp consent delete)',
  },
  confirmVrpFunds: {
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}/domestic-vrp-consents/{consentId}/funds-confirmation', ids: ['consentId'], body: true, token: 'psu', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBVRPFundsConfirmationResponse' }, builder: 'buildVrpFundsConfirmation',
    words: 'the funds check of a VRP consent (obtpp vrp funds)',
  },
  createVrp: {
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}/domestic-vrps', ids: [], body: true, token: 'psu', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBDomesticVRPResponse' }, builder: 'buildVrp',
    words: 'a variable recurring payment (obtpp vrp pay)',
  },
  getVrp: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/domestic-vrps/{vrpId}', ids: ['vrpId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBDomesticVRPResponse' },
    words: 'reading a variable recurring payment (obtpp vrp get)',
  },
  getVrpDetails: {
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}/domestic-vrps/{vrpId}/payment-details', ids: ['vrpId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBDomesticVRPDetails' },
    words: 'reading a variable recurring payment\'s details',
  },
} as const satisfies Record<string, OperationSpec>;
