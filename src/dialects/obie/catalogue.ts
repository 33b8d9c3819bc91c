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
    group: { kind: 'read', of: 'balances', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/balances', ids: ['accountId'], body: false, token: 'psu', variants: AB,
    permissions: ['ReadBalances'], responses: { 200: 'OBReadBalance1' },
    words: 'reading balances (obtpp balances)',
  },
  getTransactions: {
    group: { kind: 'read', of: 'transactions', as: 'one' },
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
    group: { kind: 'read', of: 'beneficiaries', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/beneficiaries', ids: ['accountId'], body: false, token: 'psu', variants: AB,
    permissions: ['ReadBeneficiariesBasic', 'ReadBeneficiariesDetail'], responses: { 200: 'OBReadBeneficiary5' },
    words: 'reading an account\'s beneficiaries',
  },
  // UK Read/Write v3.1.11's other account-information reads: bulk (every consented account) and per account.
  listBalances: {
    group: { kind: 'read', of: 'balances', as: 'every' },
    api: 'ais', method: 'GET', path: '/balances', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadBalances'], responses: { 200: 'OBReadBalance1' },
    words: 'reading every consented account\'s balances (obtpp ais balances)',
  },
  listTransactions: {
    group: { kind: 'read', of: 'transactions', as: 'every' },
    api: 'ais', method: 'GET', path: '/transactions', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadTransactionsBasic', 'ReadTransactionsDetail'], responses: { 200: 'OBReadTransaction6' },
    words: 'reading every consented account\'s transactions (obtpp ais transactions)',
  },
  listBeneficiaries: {
    group: { kind: 'read', of: 'beneficiaries', as: 'every' },
    api: 'ais', method: 'GET', path: '/beneficiaries', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadBeneficiariesBasic', 'ReadBeneficiariesDetail'], responses: { 200: 'OBReadBeneficiary5' },
    words: 'reading every consented account\'s beneficiaries (obtpp ais beneficiaries)',
  },
  getDirectDebits: {
    group: { kind: 'read', of: 'direct-debits', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/direct-debits', ids: ['accountId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadDirectDebits'], responses: { 200: 'OBReadDirectDebit2' },
    words: 'reading an account\'s direct debits (obtpp ais direct-debits ID)',
  },
  listDirectDebits: {
    group: { kind: 'read', of: 'direct-debits', as: 'every' },
    api: 'ais', method: 'GET', path: '/direct-debits', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadDirectDebits'], responses: { 200: 'OBReadDirectDebit2' },
    words: 'reading every consented account\'s direct debits (obtpp ais direct-debits)',
  },
  getStandingOrders: {
    group: { kind: 'read', of: 'standing-orders', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/standing-orders', ids: ['accountId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadStandingOrdersBasic', 'ReadStandingOrdersDetail'], responses: { 200: 'OBReadStandingOrder6' },
    words: 'reading an account\'s standing orders (obtpp ais standing-orders ID)',
  },
  listStandingOrders: {
    group: { kind: 'read', of: 'standing-orders', as: 'every' },
    api: 'ais', method: 'GET', path: '/standing-orders', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadStandingOrdersBasic', 'ReadStandingOrdersDetail'], responses: { 200: 'OBReadStandingOrder6' },
    words: 'reading every consented account\'s standing orders (obtpp ais standing-orders)',
  },
  getScheduledPayments: {
    group: { kind: 'read', of: 'scheduled-payments', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/scheduled-payments', ids: ['accountId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail'], responses: { 200: 'OBReadScheduledPayment3' },
    words: 'reading an account\'s scheduled payments (obtpp ais scheduled-payments ID)',
  },
  listScheduledPayments: {
    group: { kind: 'read', of: 'scheduled-payments', as: 'every' },
    api: 'ais', method: 'GET', path: '/scheduled-payments', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail'], responses: { 200: 'OBReadScheduledPayment3' },
    words: 'reading every consented account\'s scheduled payments (obtpp ais scheduled-payments)',
  },
  getOffers: {
    group: { kind: 'read', of: 'offers', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/offers', ids: ['accountId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadOffers'], responses: { 200: 'OBReadOffer1' },
    words: 'reading an account\'s offers (obtpp ais offers ID)',
  },
  listOffers: {
    group: { kind: 'read', of: 'offers', as: 'every' },
    api: 'ais', method: 'GET', path: '/offers', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadOffers'], responses: { 200: 'OBReadOffer1' },
    words: 'reading every consented account\'s offers (obtpp ais offers)',
  },
  getParty: {
    group: { kind: 'read', of: 'party', as: 'every' },
    api: 'ais', method: 'GET', path: '/party', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadPartyPSU'], responses: { 200: 'OBReadParty2' },
    words: 'reading the PSU\'s own party (obtpp ais party)',
  },
  getAccountParty: {
    group: { kind: 'read', of: 'party', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/party', ids: ['accountId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadParty'], responses: { 200: 'OBReadParty2' },
    words: 'reading an account\'s owner (obtpp ais party ID)',
  },
  getAccountParties: {
    group: { kind: 'read', of: 'parties', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/parties', ids: ['accountId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadParty'], responses: { 200: 'OBReadParty3' },
    words: 'reading every party of an account (obtpp ais parties ID)',
  },
  getProduct: {
    group: { kind: 'read', of: 'product', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/product', ids: ['accountId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadProducts'], responses: { 200: 'OBReadProduct2' },
    words: 'reading an account\'s product (obtpp ais product ID)',
  },
  listProducts: {
    group: { kind: 'read', of: 'products', as: 'every' },
    api: 'ais', method: 'GET', path: '/products', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadProducts'], responses: { 200: 'OBReadProduct2' },
    words: 'reading every consented account\'s product (obtpp ais products)',
  },
  getStatements: {
    group: { kind: 'read', of: 'statements', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/statements', ids: ['accountId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadStatementsBasic', 'ReadStatementsDetail'], responses: { 200: 'OBReadStatement2' },
    words: 'reading an account\'s statements (obtpp ais statements ID)',
  },
  getStatement: {
    group: { kind: 'read', of: 'statement', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/statements/{statementId}', ids: ['accountId', 'statementId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadStatementsBasic', 'ReadStatementsDetail'], responses: { 200: 'OBReadStatement2' },
    words: 'reading one statement (obtpp ais statement ID STATEMENT)',
  },
  getStatementFile: {
    group: { kind: 'read', of: 'statement-file', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/statements/{statementId}/file', ids: ['accountId', 'statementId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadStatementsDetail'], responses: { 200: 'File' },
    words: 'downloading a statement\'s file (obtpp ais statement-file ID STATEMENT)',
  },
  getStatementTransactions: {
    group: { kind: 'read', of: 'statement-transactions', as: 'one' },
    api: 'ais', method: 'GET', path: '{@accounts}/{accountId}/statements/{statementId}/transactions', ids: ['accountId', 'statementId'], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadTransactionsBasic', 'ReadTransactionsDetail'], responses: { 200: 'OBReadTransaction6' },
    words: 'reading a statement\'s transactions (obtpp ais statement-transactions ID STATEMENT)',
  },
  listStatements: {
    group: { kind: 'read', of: 'statements', as: 'every' },
    api: 'ais', method: 'GET', path: '/statements', ids: [], body: false, token: 'psu', variants: A, standards: UK,
    permissions: ['ReadStatementsBasic', 'ReadStatementsDetail'], responses: { 200: 'OBReadStatement2' },
    words: 'reading every consented account\'s statements (obtpp ais statements)',
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
    group: { kind: 'payment-family', of: 'domestic', as: 'create' },
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}/{payment-product}', ids: [], body: true, token: 'client', variants: A,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteDomesticConsentResponse5' }, builder: 'buildPaymentConsent',
    words: 'payment initiation (obtpp consent create pis)',
  },
  getPayment: {
    group: { kind: 'payment-family', of: 'domestic', as: 'get' },
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
    group: { kind: 'payment-family', of: 'domestic', as: 'submit' },
    api: 'pis', method: 'POST', path: '{@paymentsPrefix}{@paymentOrders}', ids: [], body: true, token: 'psu', variants: A,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteDomesticResponse5' }, builder: 'buildPaymentOrder',
    words: 'submitting a payment (obtpp payment submit)',
  },
  getPaymentOrder: {
    group: { kind: 'payment-family', of: 'domestic', as: 'order' },
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}{@paymentOrders}/{paymentOrderId}', ids: ['paymentOrderId'], body: false, token: 'client', variants: A,
    signedAnswer: true, responses: { 200: 'OBWriteDomesticResponse5' },
    words: 'reading a payment order (obtpp payment get --order)',
  },
  getPaymentDetails: {
    group: { kind: 'payment-family', of: 'domestic', as: 'details' },
    api: 'pis', method: 'GET', path: '{@paymentsPrefix}{@paymentOrders}/{paymentOrderId}/payment-details', ids: ['paymentOrderId'], body: false, token: 'client', variants: A,
    signedAnswer: true, responses: { 200: 'OBWritePaymentDetailsResponse1' },
    words: 'reading a payment order\'s details',
  },
  getPaymentFunds: {
    group: { kind: 'payment-family', of: 'domestic', as: 'funds' },
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
  // v4.0 only: a VRP consent updated in place, which the file reserves for migrating a consent
  // between versions (FACTS-v4 §6.4): PUT sends the whole consent request, PATCH a JSON Patch.
  updateVrpConsent: {
    api: 'pis', method: 'PUT', path: '{@paymentsPrefix}/domestic-vrp-consents/{consentId}', ids: ['consentId'], body: true, token: 'client', variants: A, standards: ['uk-4.0'],
    signedRequest: true, signedAnswer: true, responses: { 200: 'OBDomesticVRPConsentResponse' }, builder: 'buildVrpConsent',
    words: 'migrating a VRP consent by PUT (obtpp vrp consent update)',
  },
  patchVrpConsent: {
    api: 'pis', method: 'PATCH', path: '{@paymentsPrefix}/domestic-vrp-consents/{consentId}', ids: ['consentId'], body: true, token: 'client', variants: A, standards: ['uk-4.0'],
    signedRequest: true, signedAnswer: true, responses: { 200: 'OBDomesticVRPConsentResponse' },
    words: 'migrating a VRP consent by JSON Patch (obtpp vrp consent patch)',
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
  // ---- UK Read/Write v3.1.11's payment families beyond the domestic payment (the official paths only).
  // The file of a file payment and its report are files, not JSON documents: the standard's `File` schema is a placeholder.
  createDomesticScheduledPaymentConsent: {
    group: { kind: 'payment-family', of: 'domestic-scheduled', as: 'create' },
    api: 'pis', method: 'POST', path: '/domestic-scheduled-payment-consents', ids: [], body: true, token: 'client', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteDomesticScheduledConsentResponse5' }, builder: 'buildDomesticScheduledConsent',
    words: 'creating a domestic scheduled payment consent',
  },
  getDomesticScheduledPaymentConsent: {
    group: { kind: 'payment-family', of: 'domestic-scheduled', as: 'get' },
    api: 'pis', method: 'GET', path: '/domestic-scheduled-payment-consents/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteDomesticScheduledConsentResponse5' },
    words: 'reading a domestic scheduled payment consent',
  },
  submitDomesticScheduledPayment: {
    group: { kind: 'payment-family', of: 'domestic-scheduled', as: 'submit' },
    api: 'pis', method: 'POST', path: '/domestic-scheduled-payments', ids: [], body: true, token: 'psu', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteDomesticScheduledResponse5' }, builder: 'buildFamilyOrder',
    words: 'submitting a domestic scheduled payment',
  },
  getDomesticScheduledPayment: {
    group: { kind: 'payment-family', of: 'domestic-scheduled', as: 'order' },
    api: 'pis', method: 'GET', path: '/domestic-scheduled-payments/{paymentOrderId}', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteDomesticScheduledResponse5' },
    words: 'reading a domestic scheduled payment',
  },
  getDomesticScheduledPaymentDetails: {
    group: { kind: 'payment-family', of: 'domestic-scheduled', as: 'details' },
    api: 'pis', method: 'GET', path: '/domestic-scheduled-payments/{paymentOrderId}/payment-details', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWritePaymentDetailsResponse1' },
    words: 'reading the details of a domestic scheduled payment',
  },
  createDomesticStandingOrderConsent: {
    group: { kind: 'payment-family', of: 'domestic-standing-order', as: 'create' },
    api: 'pis', method: 'POST', path: '/domestic-standing-order-consents', ids: [], body: true, token: 'client', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteDomesticStandingOrderConsentResponse6' }, builder: 'buildDomesticStandingOrderConsent',
    words: 'creating a domestic standing order consent',
  },
  getDomesticStandingOrderConsent: {
    group: { kind: 'payment-family', of: 'domestic-standing-order', as: 'get' },
    api: 'pis', method: 'GET', path: '/domestic-standing-order-consents/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteDomesticStandingOrderConsentResponse6' },
    words: 'reading a domestic standing order consent',
  },
  submitDomesticStandingOrder: {
    group: { kind: 'payment-family', of: 'domestic-standing-order', as: 'submit' },
    api: 'pis', method: 'POST', path: '/domestic-standing-orders', ids: [], body: true, token: 'psu', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteDomesticStandingOrderResponse6' }, builder: 'buildFamilyOrder',
    words: 'submitting a domestic standing order',
  },
  getDomesticStandingOrder: {
    group: { kind: 'payment-family', of: 'domestic-standing-order', as: 'order' },
    api: 'pis', method: 'GET', path: '/domestic-standing-orders/{paymentOrderId}', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteDomesticStandingOrderResponse6' },
    words: 'reading a domestic standing order',
  },
  getDomesticStandingOrderDetails: {
    group: { kind: 'payment-family', of: 'domestic-standing-order', as: 'details' },
    api: 'pis', method: 'GET', path: '/domestic-standing-orders/{paymentOrderId}/payment-details', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWritePaymentDetailsResponse1' },
    words: 'reading the details of a domestic standing order',
  },
  createInternationalPaymentConsent: {
    group: { kind: 'payment-family', of: 'international', as: 'create' },
    api: 'pis', method: 'POST', path: '/international-payment-consents', ids: [], body: true, token: 'client', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteInternationalConsentResponse6' }, builder: 'buildInternationalConsent',
    words: 'creating a international payment consent',
  },
  getInternationalPaymentConsent: {
    group: { kind: 'payment-family', of: 'international', as: 'get' },
    api: 'pis', method: 'GET', path: '/international-payment-consents/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteInternationalConsentResponse6' },
    words: 'reading a international payment consent',
  },
  getInternationalPaymentFunds: {
    group: { kind: 'payment-family', of: 'international', as: 'funds' },
    api: 'pis', method: 'GET', path: '/international-payment-consents/{consentId}/funds-confirmation', ids: ['consentId'], body: false, token: 'psu', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteFundsConfirmationResponse1' },
    words: 'the funds check of a international payment consent',
  },
  submitInternationalPayment: {
    group: { kind: 'payment-family', of: 'international', as: 'submit' },
    api: 'pis', method: 'POST', path: '/international-payments', ids: [], body: true, token: 'psu', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteInternationalResponse5' }, builder: 'buildFamilyOrder',
    words: 'submitting a international payment',
  },
  getInternationalPayment: {
    group: { kind: 'payment-family', of: 'international', as: 'order' },
    api: 'pis', method: 'GET', path: '/international-payments/{paymentOrderId}', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteInternationalResponse5' },
    words: 'reading a international payment',
  },
  getInternationalPaymentDetails: {
    group: { kind: 'payment-family', of: 'international', as: 'details' },
    api: 'pis', method: 'GET', path: '/international-payments/{paymentOrderId}/payment-details', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWritePaymentDetailsResponse1' },
    words: 'reading the details of a international payment',
  },
  createInternationalScheduledPaymentConsent: {
    group: { kind: 'payment-family', of: 'international-scheduled', as: 'create' },
    api: 'pis', method: 'POST', path: '/international-scheduled-payment-consents', ids: [], body: true, token: 'client', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteInternationalScheduledConsentResponse6' }, builder: 'buildInternationalScheduledConsent',
    words: 'creating a international scheduled payment consent',
  },
  getInternationalScheduledPaymentConsent: {
    group: { kind: 'payment-family', of: 'international-scheduled', as: 'get' },
    api: 'pis', method: 'GET', path: '/international-scheduled-payment-consents/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteInternationalScheduledConsentResponse6' },
    words: 'reading a international scheduled payment consent',
  },
  getInternationalScheduledPaymentFunds: {
    group: { kind: 'payment-family', of: 'international-scheduled', as: 'funds' },
    api: 'pis', method: 'GET', path: '/international-scheduled-payment-consents/{consentId}/funds-confirmation', ids: ['consentId'], body: false, token: 'psu', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteFundsConfirmationResponse1' },
    words: 'the funds check of a international scheduled payment consent',
  },
  submitInternationalScheduledPayment: {
    group: { kind: 'payment-family', of: 'international-scheduled', as: 'submit' },
    api: 'pis', method: 'POST', path: '/international-scheduled-payments', ids: [], body: true, token: 'psu', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteInternationalScheduledResponse6' }, builder: 'buildFamilyOrder',
    words: 'submitting a international scheduled payment',
  },
  getInternationalScheduledPayment: {
    group: { kind: 'payment-family', of: 'international-scheduled', as: 'order' },
    api: 'pis', method: 'GET', path: '/international-scheduled-payments/{paymentOrderId}', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteInternationalScheduledResponse6' },
    words: 'reading a international scheduled payment',
  },
  getInternationalScheduledPaymentDetails: {
    group: { kind: 'payment-family', of: 'international-scheduled', as: 'details' },
    api: 'pis', method: 'GET', path: '/international-scheduled-payments/{paymentOrderId}/payment-details', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWritePaymentDetailsResponse1' },
    words: 'reading the details of a international scheduled payment',
  },
  createInternationalStandingOrderConsent: {
    group: { kind: 'payment-family', of: 'international-standing-order', as: 'create' },
    api: 'pis', method: 'POST', path: '/international-standing-order-consents', ids: [], body: true, token: 'client', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteInternationalStandingOrderConsentResponse7' }, builder: 'buildInternationalStandingOrderConsent',
    words: 'creating a international standing order consent',
  },
  getInternationalStandingOrderConsent: {
    group: { kind: 'payment-family', of: 'international-standing-order', as: 'get' },
    api: 'pis', method: 'GET', path: '/international-standing-order-consents/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteInternationalStandingOrderConsentResponse7' },
    words: 'reading a international standing order consent',
  },
  submitInternationalStandingOrder: {
    group: { kind: 'payment-family', of: 'international-standing-order', as: 'submit' },
    api: 'pis', method: 'POST', path: '/international-standing-orders', ids: [], body: true, token: 'psu', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteInternationalStandingOrderResponse7' }, builder: 'buildFamilyOrder',
    words: 'submitting a international standing order',
  },
  getInternationalStandingOrder: {
    group: { kind: 'payment-family', of: 'international-standing-order', as: 'order' },
    api: 'pis', method: 'GET', path: '/international-standing-orders/{paymentOrderId}', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteInternationalStandingOrderResponse7' },
    words: 'reading a international standing order',
  },
  getInternationalStandingOrderDetails: {
    group: { kind: 'payment-family', of: 'international-standing-order', as: 'details' },
    api: 'pis', method: 'GET', path: '/international-standing-orders/{paymentOrderId}/payment-details', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWritePaymentDetailsResponse1' },
    words: 'reading the details of a international standing order',
  },
  createFilePaymentConsent: {
    group: { kind: 'payment-family', of: 'file', as: 'create' },
    api: 'pis', method: 'POST', path: '/file-payment-consents', ids: [], body: true, token: 'client', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteFileConsentResponse4' }, builder: 'buildFileConsent',
    words: 'creating a file payment consent',
  },
  getFilePaymentConsent: {
    group: { kind: 'payment-family', of: 'file', as: 'get' },
    api: 'pis', method: 'GET', path: '/file-payment-consents/{consentId}', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteFileConsentResponse4' },
    words: 'reading a file payment consent',
  },
  uploadPaymentFile: {
    api: 'pis', method: 'POST', path: '/file-payment-consents/{consentId}/file', ids: ['consentId'], body: true, token: 'client', variants: A, standards: UK,
    signedRequest: true, responses: { 200: null },
    words: 'uploading the file of a file payment consent',
  },
  downloadPaymentFile: {
    api: 'pis', method: 'GET', path: '/file-payment-consents/{consentId}/file', ids: ['consentId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: null },
    words: 'reading back the file of a file payment consent',
  },
  submitFilePayment: {
    group: { kind: 'payment-family', of: 'file', as: 'submit' },
    api: 'pis', method: 'POST', path: '/file-payments', ids: [], body: true, token: 'psu', variants: A, standards: UK,
    signedRequest: true, signedAnswer: true, responses: { 201: 'OBWriteFileResponse3' }, builder: 'buildFamilyOrder',
    words: 'submitting a file payment',
  },
  getFilePayment: {
    group: { kind: 'payment-family', of: 'file', as: 'order' },
    api: 'pis', method: 'GET', path: '/file-payments/{paymentOrderId}', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWriteFileResponse3' },
    words: 'reading a file payment',
  },
  getFilePaymentDetails: {
    group: { kind: 'payment-family', of: 'file', as: 'details' },
    api: 'pis', method: 'GET', path: '/file-payments/{paymentOrderId}/payment-details', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: 'OBWritePaymentDetailsResponse1' },
    words: 'reading the details of a file payment',
  },
  getFilePaymentReport: {
    api: 'pis', method: 'GET', path: '/file-payments/{paymentOrderId}/report-file', ids: ['paymentOrderId'], body: false, token: 'client', variants: A, standards: UK,
    signedAnswer: true, responses: { 200: null },
    words: 'reading the report file of a file payment',
  },
} as const satisfies Record<string, OperationSpec>;
