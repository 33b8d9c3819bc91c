/**
 * Conformant bodies of the payment families beyond the domestic payment (UK Read/Write v3.1.11),
 * for the samples of obie-samples.ts: a bank of our sandbox's kind would answer like this.
 */
import type { PaymentFamilySchemaName } from '../../src/dialects/obie/schemas/index.ts';

const BASE = 'https://bank.example.com/open-banking/v3.1/pisp';
const T0 = '2026-11-22T10:00:00+00:00';
const creditor = { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc' };
const debtor = { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200110203345', Name: 'Mr Kevin' };
const iban = { SchemeName: 'UK.OBIE.IBAN', Identification: 'DE89370400440532013000', Name: 'Bäckerei Schmidt GmbH' };
const risk = { PaymentContextCode: 'PartyToParty' };

const scheduled = {
  InstructionIdentification: 'ACME413', EndToEndIdentification: 'FRESCO.21302.GFX.21', LocalInstrument: 'UK.OBIE.FPS',
  RequestedExecutionDateTime: '2026-11-30T09:00:00+00:00', InstructedAmount: { Amount: '20.00', Currency: 'GBP' },
  DebtorAccount: debtor, CreditorAccount: creditor, RemittanceInformation: { Reference: 'FRESCO-102' },
};
const standingOrder = {
  Frequency: 'IntrvlMnthDay:01:15', Reference: 'Rent', NumberOfPayments: '12', FirstPaymentDateTime: '2026-12-15T09:00:00+00:00',
  FirstPaymentAmount: { Amount: '500.00', Currency: 'GBP' }, RecurringPaymentAmount: { Amount: '500.00', Currency: 'GBP' },
  DebtorAccount: debtor, CreditorAccount: creditor,
};
const international = {
  InstructionIdentification: 'ACME414', EndToEndIdentification: 'FRESCO.21302.GFX.22', InstructionPriority: 'Normal', ChargeBearer: 'Shared',
  CurrencyOfTransfer: 'EUR', DestinationCountryCode: 'DE', InstructedAmount: { Amount: '100.00', Currency: 'GBP' },
  ExchangeRateInformation: { UnitCurrency: 'GBP', ExchangeRate: 1.15, RateType: 'Agreed', ContractIdentification: 'FX-2026-0042' },
  Creditor: { Name: 'Bäckerei Schmidt GmbH', PostalAddress: { TownName: 'Berlin', Country: 'DE' } },
  CreditorAgent: { SchemeName: 'UK.OBIE.BICFI', Identification: 'COBADEFFXXX' }, CreditorAccount: iban,
};
const internationalScheduled = { ...international, RequestedExecutionDateTime: '2026-11-30T09:00:00+00:00' };
const internationalStandingOrder = {
  Frequency: 'EvryWorkgDay', Reference: 'Supplies', FinalPaymentDateTime: '2027-11-30T09:00:00+00:00', FirstPaymentDateTime: '2026-12-01T09:00:00+00:00',
  ChargeBearer: 'Shared', CurrencyOfTransfer: 'EUR', InstructedAmount: { Amount: '10.00', Currency: 'GBP' }, CreditorAccount: iban,
};
const file = {
  FileType: 'UK.OBIE.PaymentInitiation.3.1', FileHash: 'm5ah/h1UjLvJYMxqAoZmj9dKdjZnsGNm+yMkJp/KuqQ=', FileReference: 'GB2OK238',
  NumberOfTransactions: '2', ControlSum: 30.5, DebtorAccount: debtor,
};
const consent = (init: object, o: { permission?: boolean; status?: string } = {}) => ({
  ConsentId: 'pc-77001', CreationDateTime: T0, Status: o.status ?? 'AwaitingAuthorisation', StatusUpdateDateTime: T0,
  ...(o.permission ? { Permission: 'Create' } : {}), Initiation: init,
});
const order = (idField: string, init: object, status: string) => ({
  [idField]: 'po-77001-1', ConsentId: 'pc-77001', CreationDateTime: T0, Status: status, StatusUpdateDateTime: T0, Initiation: init,
});
const exchangeRate = { UnitCurrency: 'GBP', ExchangeRate: 1.15, RateType: 'Agreed', ContractIdentification: 'FX-2026-0042' };

export const PAYMENT_FAMILY_SAMPLES: Record<PaymentFamilySchemaName, unknown> = {
  OBWriteDomesticScheduledConsent4: { Data: { Permission: 'Create', Initiation: scheduled }, Risk: risk },
  OBWriteDomesticStandingOrderConsent5: { Data: { Permission: 'Create', Initiation: standingOrder }, Risk: risk },
  OBWriteInternationalConsent5: { Data: { Initiation: international }, Risk: risk },
  OBWriteInternationalScheduledConsent5: { Data: { Permission: 'Create', Initiation: internationalScheduled }, Risk: risk },
  OBWriteInternationalStandingOrderConsent6: { Data: { Permission: 'Create', Initiation: internationalStandingOrder }, Risk: risk },
  OBWriteFileConsent3: { Data: { Initiation: file } },
  OBWriteDomesticScheduled2: { Data: { ConsentId: 'pc-77001', Initiation: scheduled }, Risk: risk },
  OBWriteDomesticStandingOrder3: { Data: { ConsentId: 'pc-77001', Initiation: standingOrder }, Risk: risk },
  OBWriteInternational3: { Data: { ConsentId: 'pc-77001', Initiation: international }, Risk: risk },
  OBWriteInternationalScheduled3: { Data: { ConsentId: 'pc-77001', Initiation: internationalScheduled }, Risk: risk },
  OBWriteInternationalStandingOrder4: { Data: { ConsentId: 'pc-77001', Initiation: internationalStandingOrder }, Risk: risk },
  OBWriteFile2: { Data: { ConsentId: 'pc-77001', Initiation: file } },
  OBWriteDomesticScheduledConsentResponse5: {
    Data: { ...consent(scheduled, { permission: true }), ExpectedExecutionDateTime: '2026-11-30T09:00:00+00:00' }, Risk: risk,
    Links: { Self: `${BASE}/domestic-scheduled-payment-consents/pc-77001` }, Meta: {},
  },
  OBWriteDomesticStandingOrderConsentResponse6: {
    Data: consent(standingOrder, { permission: true, status: 'Authorised' }), Risk: risk,
    Links: { Self: `${BASE}/domestic-standing-order-consents/pc-77001` }, Meta: {},
  },
  OBWriteInternationalConsentResponse6: {
    Data: { ...consent(international), ExchangeRateInformation: { ...exchangeRate, ExpirationDateTime: '2026-11-22T10:30:00+00:00' } }, Risk: risk,
    Links: { Self: `${BASE}/international-payment-consents/pc-77001` }, Meta: {},
  },
  OBWriteInternationalScheduledConsentResponse6: {
    Data: { ...consent(internationalScheduled, { permission: true }), ExchangeRateInformation: exchangeRate }, Risk: risk,
    Links: { Self: `${BASE}/international-scheduled-payment-consents/pc-77001` }, Meta: {},
  },
  OBWriteInternationalStandingOrderConsentResponse7: {
    Data: consent(internationalStandingOrder, { permission: true }), Risk: risk,
    Links: { Self: `${BASE}/international-standing-order-consents/pc-77001` }, Meta: {},
  },
  OBWriteFileConsentResponse4: {
    Data: consent(file, { status: 'AwaitingUpload' }),
    Links: { Self: `${BASE}/file-payment-consents/pc-77001` }, Meta: {},
  },
  OBWriteDomesticScheduledResponse5: {
    Data: order('DomesticScheduledPaymentId', scheduled, 'InitiationPending'),
    Links: { Self: `${BASE}/domestic-scheduled-payments/po-77001-1` }, Meta: {},
  },
  OBWriteDomesticStandingOrderResponse6: {
    Data: order('DomesticStandingOrderId', standingOrder, 'InitiationCompleted'),
    Links: { Self: `${BASE}/domestic-standing-orders/po-77001-1` }, Meta: {},
  },
  OBWriteInternationalResponse5: {
    Data: { ...order('InternationalPaymentId', international, 'AcceptedSettlementInProcess'), ExchangeRateInformation: exchangeRate },
    Links: { Self: `${BASE}/international-payments/po-77001-1` }, Meta: {},
  },
  OBWriteInternationalScheduledResponse6: {
    Data: { ...order('InternationalScheduledPaymentId', internationalScheduled, 'InitiationPending'), ExchangeRateInformation: exchangeRate },
    Links: { Self: `${BASE}/international-scheduled-payments/po-77001-1` }, Meta: {},
  },
  OBWriteInternationalStandingOrderResponse7: {
    Data: order('InternationalStandingOrderId', internationalStandingOrder, 'InitiationCompleted'),
    Links: { Self: `${BASE}/international-standing-orders/po-77001-1` }, Meta: {},
  },
  OBWriteFileResponse3: {
    Data: order('FilePaymentId', file, 'InitiationPending'),
    Links: { Self: `${BASE}/file-payments/po-77001-1` }, Meta: {},
  },
};
