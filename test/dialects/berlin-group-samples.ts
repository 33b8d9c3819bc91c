// Conformant berlin-group bodies, one per schema where the tests need one (made by the dialect's
// own builders where it has them): for test/dialects/berlin-group.test.ts and prebuilt-validators.test.ts.
import { buildBulkPayment, buildSigningBasket, buildConsent, buildFundsConfirmation, buildPaymentInitiation, buildPeriodicPayment, detailedAccess } from '../../src/dialects/berlin-group/index.ts';
import type { BgSchemaName } from '../../src/dialects/berlin-group/index.ts';

type Json = Record<string, any>;
export const IBAN = 'DE89370400440532013000';

export const consent = buildConsent({ access: detailedAccess([{ iban: IBAN }]), validUntil: '2026-12-31', recurringIndicator: true, frequencyPerDay: 4 });
export const samples: Partial<Record<BgSchemaName, Json>> = {
  consents: consent,
  'consentsResponse-201': { consentStatus: 'received', consentId: 'c-1', _links: { scaRedirect: { href: 'https://bank.example/sca/c-1' }, self: { href: '/v1/consents/c-1' }, status: { href: '/v1/consents/c-1/status' }, scaStatus: { href: '/v1/consents/c-1/authorisations/a-1' } } },
  'consentInformationResponse-200_json': { ...consent, lastActionDate: '2026-11-23', consentStatus: 'valid' },
  'consentStatusResponse-200': { consentStatus: 'valid' },
  accountList: { accounts: [{ resourceId: 'acc-1', iban: IBAN, currency: 'EUR', name: 'Main', cashAccountType: 'CACC', _links: { balances: { href: '/v1/accounts/acc-1/balances' } } }] },
  cardAccountList: { cardAccounts: [{ resourceId: 'card-1', maskedPan: '525412******3241', currency: 'EUR', name: 'Visa', product: 'Credit card', status: 'enabled', usage: 'PRIV', creditLimit: { currency: 'EUR', amount: '3000.00' }, _links: { balances: { href: '/v1/card-accounts/card-1/balances' } } }] },
  cardAccountDetailsResponse: { cardAccount: { resourceId: 'card-1', maskedPan: '525412******3241', currency: 'EUR', debitAccounting: false } },
  'readCardAccountBalanceResponse-200': { cardAccount: { maskedPan: '525412******3241' }, debitAccounting: false, balances: [{ balanceAmount: { currency: 'EUR', amount: '-120.00' }, balanceType: 'interimBooked' }] },
  cardAccountsTransactionsResponse200: {
    cardAccount: { maskedPan: '525412******3241' },
    cardTransactions: {
      booked: [{ cardTransactionId: 'c1', transactionDate: '2026-01-02', bookingDate: '2026-01-03', transactionAmount: { currency: 'EUR', amount: '-9.90' }, cardAcceptorPhone: '+49-30-1234567', merchantCategoryCode: '5411', cardAcceptorAddress: { country: 'DE', townName: 'Berlin' } }],
      pending: [{ transactionAmount: { currency: 'EUR', amount: '-1.00' } }],
      _links: { cardAccount: { href: '/v1/card-accounts/card-1' } },
    },
  },
  'readAccountBalanceResponse-200': { account: { iban: IBAN }, balances: [{ balanceAmount: { currency: 'EUR', amount: '-12.5' }, balanceType: 'interimAvailable' }] },
  'transactionsResponse-200_json': { account: { iban: IBAN }, transactions: { booked: [{ transactionId: 't-1', bookingDate: '2026-11-01', transactionAmount: { currency: 'EUR', amount: '-10.00' }, _links: { transactionDetails: { href: '/v1/accounts/acc-1/transactions/t-1' } } }], _links: { account: { href: '/v1/accounts/acc-1' } } } },
  confirmationOfFunds: buildFundsConfirmation({ account: { iban: IBAN }, amount: '123.45', currency: 'EUR' }),
  fundsConfirmationResponse200: { fundsAvailable: true },
  paymentInitiation_json: buildPaymentInitiation({ debtor: { iban: IBAN }, amount: '10.00', currency: 'EUR', creditor: { iban: 'FR7612345987650123456789014' }, creditorName: 'Merchant', remittance: 'Ref 42' }),
  'paymentInitiationRequestResponse-201': { transactionStatus: 'RCVD', paymentId: 'p-1', _links: { scaOAuth: { href: 'https://bank.example/.well-known/oauth-authorization-server' }, self: { href: '/v1/payments/sepa-credit-transfers/p-1' } } },
  'paymentInitiationStatusResponse-200_json': { transactionStatus: 'ACSC' },
  'paymentInitiationCancelResponse-202': { transactionStatus: 'ACTC', _links: { startAuthorisation: { href: '/v1/payments/sepa-credit-transfers/p-1/cancellation-authorisations' } } },
  periodicPaymentInitiation_json: buildPeriodicPayment({ debtor: { iban: IBAN }, amount: '10.00', currency: 'EUR', creditor: { iban: 'FR7612345987650123456789014' }, creditorName: 'Landlord', startDate: '2026-12-01', endDate: '2027-11-30', frequency: 'Monthly', executionRule: 'following', dayOfExecution: '1' }),
  periodicPaymentInitiationWithStatusResponse: { ...buildPeriodicPayment({ debtor: { iban: IBAN }, amount: '10.00', currency: 'EUR', creditor: { iban: 'FR7612345987650123456789014' }, creditorName: 'Landlord', startDate: '2026-12-01', frequency: 'Weekly' }), transactionStatus: 'ACTC' },
  bulkPaymentInitiation_json: buildBulkPayment({ debtor: { iban: IBAN }, batchBookingPreferred: true, payments: [{ amount: '1.00', currency: 'EUR', creditor: { iban: 'FR7612345987650123456789014' }, creditorName: 'A' }, { amount: '2.50', currency: 'EUR', creditor: { iban: 'DE02120300000000202051' }, creditorName: 'B', remittance: 'Ref 7' }] }),
  bulkPaymentInitiationWithStatusResponse: { ...buildBulkPayment({ debtor: { iban: IBAN }, payments: [{ amount: '1.00', currency: 'EUR', creditor: { iban: 'FR7612345987650123456789014' }, creditorName: 'A' }] }), transactionStatus: 'RCVD' },
  signingBasket: buildSigningBasket({ consentIds: ['c-1'], paymentIds: ['p-1', 'p-2'] }),
  'signingBasketResponse-201': { transactionStatus: 'RCVD', basketId: 'b-1', _links: { self: { href: '/v1/signing-baskets/b-1' }, status: { href: '/v1/signing-baskets/b-1/status' }, startAuthorisation: { href: '/v1/signing-baskets/b-1/authorisations' } } },
  'signingBasketResponse-200': { payments: ['p-1', 'p-2'], consents: ['c-1'], transactionStatus: 'ACTC' },
  'signingBasketStatusResponse-200': { transactionStatus: 'ACTC' },
  updatePsuIdentificationResponse: { scaStatus: 'psuIdentified', scaMethods: [{ authenticationType: 'SMS_OTP', authenticationMethodId: 'sms' }], _links: { selectAuthenticationMethod: { href: '/v1/consents/c-1/authorisations/a-1' } } },
  updatePsuAuthenticationResponse: { scaStatus: 'psuAuthenticated', scaMethods: [{ authenticationType: 'SMS_OTP', authenticationMethodId: 'sms', name: 'SMS OTP' }], _links: { selectAuthenticationMethod: { href: '/v1/consents/c-1/authorisations/a-1' } } },
  selectPsuAuthenticationMethodResponse: { scaStatus: 'scaMethodSelected', chosenScaMethod: { authenticationType: 'SMS_OTP', authenticationMethodId: 'sms' }, challengeData: { otpMaxLength: 6, otpFormat: 'integer' }, _links: { authoriseTransaction: { href: '/v1/consents/c-1/authorisations/a-1' } } },
  authorisationConfirmationResponse: { scaStatus: 'finalised', _links: { scaStatus: { href: '/v1/consents/c-1/authorisations/a-1' } } },
  Error_NG: { tppMessages: [{ category: 'ERROR', code: 'CONSENT_UNKNOWN', text: 'unknown consent' }] },
  Error_problem: { type: 'https://berlin-group.org/problems/format-error', code: 'FORMAT_ERROR', detail: 'bad body' },
};

