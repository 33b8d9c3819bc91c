/**
 * Realistic, conformant bodies for every obie schema (written for these tests; a bank of our
 * sandbox's kind would answer like this). Each call returns a fresh copy to mutate.
 */
import type { SchemaName } from '../../src/dialects/obie/index.ts';
import { PAYMENT_FAMILY_SAMPLES } from './obie-payment-family-samples.ts';

const BASE = 'https://bank.example.com/open-banking/v3.1';
const T0 = '2026-11-22T10:00:00+00:00';

const samples: Record<SchemaName, unknown> = {
  OBReadConsent1: {
    Data: {
      Permissions: ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits'],
      ExpirationDateTime: '2027-05-22T00:00:00+00:00',
      TransactionFromDateTime: '2025-11-22T00:00:00+00:00',
      TransactionToDateTime: '2026-11-22T00:00:00+00:00',
    },
    Risk: {},
  },
  OBReadConsentResponse1: {
    Data: {
      ConsentId: 'aac-6f1c2b9e-58a3-4d6e-9a77-0c3b8f4e2d11',
      Status: 'AwaitingAuthorisation',
      CreationDateTime: T0,
      StatusUpdateDateTime: T0,
      Permissions: ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits'],
      ExpirationDateTime: '2027-05-22T00:00:00+00:00',
      TransactionFromDateTime: '2025-11-22T00:00:00+00:00',
      TransactionToDateTime: '2026-11-22T00:00:00+00:00',
    },
    Risk: {},
    Links: { Self: `${BASE}/account-access-consents/aac-6f1c2b9e-58a3-4d6e-9a77-0c3b8f4e2d11` },
    Meta: {},
  },
  OBReadBeneficiary5: {
    Data: {
      Beneficiary: [
        {
          AccountId: '22289', BeneficiaryId: 'Ben1', BeneficiaryType: 'Trusted', Reference: 'Towbar Club',
          CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200112344562', Name: 'Mrs Juniper' },
        },
      ],
    },
    Links: { Self: `${BASE}/accounts/22289/beneficiaries` },
    Meta: {},
  },
  OBReadAccount6: {
    Data: {
      Account: [
        {
          AccountId: '22289',
          Status: 'Enabled',
          StatusUpdateDateTime: '2025-01-10T08:30:00Z',
          Currency: 'GBP',
          AccountType: 'Personal',
          AccountSubType: 'CurrentAccount',
          Nickname: 'Bills',
          OpeningDate: '2019-03-01T00:00:00+00:00',
          Account: [
            { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200110203345', Name: 'Mr Kevin', SecondaryIdentification: '00021' },
          ],
          Servicer: { SchemeName: 'UK.OBIE.BICFI', Identification: 'BANKGB2LXXX' },
        },
        {
          AccountId: '31820',
          Currency: 'EUR',
          AccountType: 'Business',
          AccountSubType: 'Savings',
          Description: 'Reserve',
          SwitchStatus: 'UK.CASS.NotSwitched',
        },
        // A switched account may leave Currency, AccountType and AccountSubType out.
        { AccountId: '40017', Status: 'Disabled', SwitchStatus: 'UK.CASS.SwitchCompleted' },
      ],
    },
    Links: { Self: `${BASE}/accounts` },
    Meta: { TotalPages: 1 },
  },
  OBReadBalance1: {
    Data: {
      Balance: [
        {
          AccountId: '22289',
          CreditDebitIndicator: 'Credit',
          Type: 'InterimAvailable',
          DateTime: '2026-11-22T09:59:00+00:00',
          Amount: { Amount: '1230.00', Currency: 'GBP' },
          CreditLine: [{ Included: true, Type: 'Pre-Agreed', Amount: { Amount: '1000.00', Currency: 'GBP' } }],
        },
        {
          AccountId: '22289',
          CreditDebitIndicator: 'Debit',
          Type: 'ClosingBooked',
          DateTime: '2026-11-21T23:59:59Z',
          Amount: { Amount: '57.36', Currency: 'GBP', SubType: 'BaseCurrency' },
        },
      ],
    },
    Links: { Self: `${BASE}/accounts/22289/balances` },
    Meta: {},
  },
  OBReadTransaction6: {
    Data: {
      Transaction: [
        {
          AccountId: '22289',
          TransactionId: 'tx-123',
          TransactionReference: 'Ref 1',
          StatementReference: ['STMT-2026-11'],
          CreditDebitIndicator: 'Debit',
          Status: 'Booked',
          TransactionMutability: 'Immutable',
          BookingDateTime: '2026-11-05T14:15:00+00:00',
          ValueDateTime: '2026-11-05T14:15:00+00:00',
          TransactionInformation: 'Cash from Aubrey',
          Amount: { Amount: '10.00', Currency: 'GBP' },
          ChargeAmount: { Amount: '0.05', Currency: 'GBP' },
          CurrencyExchange: {
            SourceCurrency: 'EUR', TargetCurrency: 'GBP', UnitCurrency: 'EUR', ExchangeRate: 0.86,
            ContractIdentification: 'FX-77', QuotationDate: '2026-11-05T14:00:00Z',
            InstructedAmount: { Amount: '11.63', Currency: 'EUR' },
          },
          BankTransactionCode: { Code: 'ReceivedCreditTransfer', SubCode: 'DomesticCreditTransfer' },
          ProprietaryBankTransactionCode: { Code: 'Transfer', Issuer: 'AlphaBank' },
          Balance: { Amount: { Amount: '230.00', Currency: 'GBP' }, CreditDebitIndicator: 'Credit', Type: 'InterimBooked' },
          MerchantDetails: { MerchantName: 'Coffee Shop', MerchantCategoryCode: '5814' },
          CreditorAgent: {
            SchemeName: 'UK.OBIE.BICFI', Identification: 'BANKGB2LXXX', Name: 'Alpha Bank',
            PostalAddress: { AddressType: 'Business', StreetName: 'High Street', BuildingNumber: '1', PostCode: 'EC1A 1BB', TownName: 'London', Country: 'GB', AddressLine: ['Floor 2'] },
          },
          CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400411290112', Name: 'Coffee Shop Ltd' },
          DebtorAgent: { SchemeName: 'UK.OBIE.BICFI', Identification: 'BETAGB2LXXX' },
          DebtorAccount: { SchemeName: 'UK.OBIE.IBAN', Identification: 'GB29NWBK60161331926819', Name: 'Mr Kevin' },
          CardInstrument: { CardSchemeName: 'VISA', AuthorisationType: 'Contactless', Name: 'MR KEVIN', Identification: '************1234' },
          SupplementaryData: { 'bank.example/category': 'food' },
        },
        {
          AccountId: '22289',
          TransactionId: 'tx-124',
          CreditDebitIndicator: 'Credit',
          Status: 'Pending',
          BookingDateTime: '2026-11-20T09:00:00Z',
          Amount: { Amount: '2500', Currency: 'GBP' },
        },
      ],
    },
    Links: { Self: `${BASE}/accounts/22289/transactions` },
    Meta: { TotalPages: 1, FirstAvailableDateTime: '2025-11-22T00:00:00+00:00', LastAvailableDateTime: '2026-11-22T00:00:00+00:00' },
  },
  OBFundsConfirmationConsent1: {
    Data: {
      DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400411290112', Name: 'Mr Kevin' },
      ExpirationDateTime: '2027-05-22T00:00:00+00:00',
    },
  },
  OBFundsConfirmationConsentResponse1: {
    Data: {
      ConsentId: 'fcc-88d0',
      CreationDateTime: T0,
      Status: 'AwaitingAuthorisation',
      StatusUpdateDateTime: T0,
      ExpirationDateTime: '2027-05-22T00:00:00+00:00',
      DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400411290112', Name: 'Mr Kevin' },
    },
    Links: { Self: `${BASE}/funds-confirmation-consents/fcc-88d0` },
    Meta: {},
  },
  OBFundsConfirmation1: {
    Data: { ConsentId: 'fcc-88d0', Reference: 'Purchase01', InstructedAmount: { Amount: '20.00', Currency: 'GBP' } },
  },
  OBFundsConfirmationResponse1: {
    Data: {
      FundsConfirmationId: 'fc-001',
      ConsentId: 'fcc-88d0',
      CreationDateTime: T0,
      FundsAvailable: true,
      Reference: 'Purchase01',
      InstructedAmount: { Amount: '20.00', Currency: 'GBP' },
    },
    Links: { Self: `${BASE}/funds-confirmations/fc-001` },
    Meta: {},
  },
  OBWriteDomesticConsent4: {
    Data: {
      Initiation: {
        InstructionIdentification: 'ACME412',
        EndToEndIdentification: 'FRESCO.21302.GFX.20',
        LocalInstrument: 'UK.OBIE.FPS',
        InstructedAmount: { Amount: '165.88', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc', SecondaryIdentification: '0002' },
        RemittanceInformation: { Reference: 'FRESCO-101', Unstructured: 'Internal ops code 5120101' },
      },
    },
    Risk: {},
  },
  OBWriteDomesticConsentResponse5: {
    Data: {
      ConsentId: 'pay-58923',
      Status: 'Authorised',
      CreationDateTime: T0,
      StatusUpdateDateTime: '2026-11-22T10:02:13+00:00',
      CutOffDateTime: '2026-11-22T17:00:00+00:00',
      ExpectedExecutionDateTime: '2026-11-22T10:05:00+00:00',
      ExpectedSettlementDateTime: '2026-11-22T10:05:00+00:00',
      Charges: [{ ChargeBearer: 'BorneByDebtor', Type: 'UK.OBIE.CHAPSOut', Amount: { Amount: '0.00', Currency: 'GBP' } }],
      Initiation: {
        InstructionIdentification: 'ACME412',
        EndToEndIdentification: 'FRESCO.21302.GFX.20',
        InstructedAmount: { Amount: '165.88', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc' },
        RemittanceInformation: { Reference: 'FRESCO-101', Unstructured: 'Internal ops code 5120101' },
      },
      Debtor: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200110203345', Name: 'Mr Kevin' },
    },
    Risk: {
      PaymentContextCode: 'EcommerceGoods',
      MerchantCategoryCode: '5967',
      MerchantCustomerIdentification: '053598653254',
      DeliveryAddress: { AddressLine: ['Flat 7', 'Acacia Lodge'], StreetName: 'Acacia Avenue', BuildingNumber: '27', PostCode: 'GU31 2ZZ', TownName: 'Sparsholt', Country: 'GB' },
    },
    Links: { Self: `${BASE}/domestic-payments/pay-58923` },
    Meta: {},
  },
  OBWriteDomestic2: {
    Data: {
      ConsentId: 'pay-58923',
      Initiation: {
        InstructionIdentification: 'ACME412',
        EndToEndIdentification: 'FRESCO.21302.GFX.20',
        InstructedAmount: { Amount: '165.88', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc' },
        RemittanceInformation: { Reference: 'FRESCO-101', Unstructured: 'Internal ops code 5120101' },
      },
    },
    Risk: { PaymentContextCode: 'EcommerceGoods' },
  },
  OBWriteDomesticResponse5: {
    Data: {
      DomesticPaymentId: 'dp-58923-001',
      ConsentId: 'pay-58923',
      CreationDateTime: '2026-11-22T10:03:00+00:00',
      Status: 'AcceptedSettlementInProcess',
      StatusUpdateDateTime: '2026-11-22T10:03:00+00:00',
      ExpectedExecutionDateTime: '2026-11-22T10:05:00+00:00',
      Refund: { Account: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200110203345', Name: 'Mr Kevin' } },
      Charges: [{ ChargeBearer: 'BorneByDebtor', Type: 'UK.OBIE.CHAPSOut', Amount: { Amount: '0.00', Currency: 'GBP' } }],
      Initiation: {
        InstructionIdentification: 'ACME412',
        EndToEndIdentification: 'FRESCO.21302.GFX.20',
        InstructedAmount: { Amount: '165.88', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc' },
      },
      MultiAuthorisation: { Status: 'Authorised', NumberRequired: 1, NumberReceived: 1 },
      Debtor: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200110203345', Name: 'Mr Kevin' },
    },
    Links: { Self: `${BASE}/domestic-payments/dp-58923-001` },
    Meta: {},
  },
  OBWritePaymentDetailsResponse1: {
    Data: {
      PaymentStatus: [{
        PaymentTransactionId: 'dp-58923-001-1', Status: 'AcceptedSettlementInProcess', StatusUpdateDateTime: '2026-11-22T10:03:00+00:00',
        StatusDetail: { LocalInstrument: 'UK.OBIE.FPS', Status: 'AcceptedSettlementInProcess', StatusReason: 'PendingSettlement' },
      }],
    },
    Links: { Self: `${BASE}/domestic-payments/dp-58923-001/payment-details` },
    Meta: {},
  },
  OBWriteFundsConfirmationResponse1: {
    Data: { FundsAvailableResult: { FundsAvailableDateTime: '2026-11-22T10:02:30+00:00', FundsAvailable: true } },
    Links: { Self: `${BASE}/domestic-payment-consents/pay-58923/funds-confirmation` },
    Meta: {},
  },
  PaymentStatusResponse: {
    Data: { ConsentId: 'pay-58923', Status: 'Authorised', StatusUpdateDateTime: '2026-11-22T10:02:13+00:00' },
    Links: { Self: `${BASE}/domestic-payments/pay-58923/status` },
    Meta: {},
  },
  OBDomesticVRPConsentRequest: {
    Data: {
      ReadRefundAccount: 'No',
      ControlParameters: {
        ValidFromDateTime: '2026-11-22T00:00:00+00:00',
        ValidToDateTime: '2027-11-22T00:00:00+00:00',
        MaximumIndividualAmount: { Amount: '100.00', Currency: 'GBP' },
        PeriodicLimits: [{ PeriodType: 'Month', PeriodAlignment: 'Calendar', Amount: '500.00', Currency: 'GBP' }],
        VRPType: ['UK.OBIE.VRPType.Sweeping'],
        PSUAuthenticationMethods: ['UK.OBIE.SCA'],
        PSUInteractionTypes: ['OffSession'],
      },
      Initiation: {
        DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200110203345', Name: 'Mr Kevin' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'Mr Kevin savings' },
        RemittanceInformation: { Reference: 'Sweep to savings' },
      },
    },
    Risk: { PaymentContextCode: 'TransferToSelf' },
  },
  OBDomesticVRPConsentResponse: {
    Data: {
      ConsentId: 'vrp-58923',
      CreationDateTime: '2026-11-22T10:02:00+00:00',
      Status: 'Authorised',
      StatusUpdateDateTime: '2026-11-22T10:02:13+00:00',
      ControlParameters: {
        MaximumIndividualAmount: { Amount: '100.00', Currency: 'GBP' },
        PeriodicLimits: [{ PeriodType: 'Week', PeriodAlignment: 'Consent', Amount: '250.00', Currency: 'GBP' }],
        VRPType: ['UK.OBIE.VRPType.Sweeping'],
        PSUAuthenticationMethods: ['UK.OBIE.SCA'],
      },
      Initiation: { CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'Mr Kevin savings' } },
      DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200110203345', Name: 'Mr Kevin' },
    },
    Risk: {},
    Links: { Self: `${BASE}/domestic-vrp-consents/vrp-58923` },
    Meta: {},
  },
  OBDomesticVRPRequest: {
    Data: {
      ConsentId: 'vrp-58923',
      PSUAuthenticationMethod: 'UK.OBIE.SCANotRequired',
      PSUInteractionType: 'OffSession',
      VRPType: 'UK.OBIE.VRPType.Sweeping',
      Initiation: { CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'Mr Kevin savings' } },
      Instruction: {
        InstructionIdentification: 'SWEEP-0001',
        EndToEndIdentification: 'SWEEP-0001-E2E',
        InstructedAmount: { Amount: '25.00', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'Mr Kevin savings' },
      },
    },
    Risk: {},
  },
  OBDomesticVRPResponse: {
    Data: {
      DomesticVRPId: 'dvrp-0001',
      ConsentId: 'vrp-58923',
      CreationDateTime: '2026-11-22T10:05:00+00:00',
      Status: 'AcceptedSettlementInProcess',
      StatusUpdateDateTime: '2026-11-22T10:05:00+00:00',
      Charges: [{ ChargeBearer: 'BorneByDebtor', Type: 'UK.OBIE.CHAPSOut', Amount: { Amount: '0.00', Currency: 'GBP' } }],
      Initiation: { CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'Mr Kevin savings' } },
      Instruction: {
        InstructionIdentification: 'SWEEP-0001',
        EndToEndIdentification: 'SWEEP-0001-E2E',
        InstructedAmount: { Amount: '25.00', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'Mr Kevin savings' },
      },
      DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200110203345', Name: 'Mr Kevin' },
    },
    Risk: {},
    Links: { Self: `${BASE}/domestic-vrps/dvrp-0001` },
    Meta: {},
  },
  OBDomesticVRPDetails: {
    Data: {
      PaymentStatus: [{ PaymentTransactionId: 'dvrp-0001-1', Status: 'AcceptedSettlementInProcess', StatusUpdateDateTime: '2026-11-22T10:05:00+00:00', StatusDetail: { Status: 'AcceptedSettlementInProcess', StatusReason: 'PendingSettlement' } }],
    },
  },
  OBVRPFundsConfirmationRequest: {
    Data: { ConsentId: 'vrp-58923', Reference: 'Sweep to savings', InstructedAmount: { Amount: '25.00', Currency: 'GBP' } },
  },
  OBVRPFundsConfirmationResponse: {
    Data: {
      FundsConfirmationId: 'vrpf-0001', ConsentId: 'vrp-58923', CreationDateTime: '2026-11-22T10:04:00+00:00', Reference: 'Sweep to savings',
      FundsAvailableResult: { FundsAvailableDateTime: '2026-11-22T10:04:00+00:00', FundsAvailable: 'Available' },
      InstructedAmount: { Amount: '25.00', Currency: 'GBP' },
    },
  },
  OBReadDirectDebit2: {
    Data: { DirectDebit: [{ AccountId: '22289', DirectDebitId: 'DD03', MandateIdentification: 'Caravanners', DirectDebitStatusCode: 'Active', Name: 'Towbar Club 3 - We Love Towbars', PreviousPaymentDateTime: T0, PreviousPaymentAmount: { Amount: '0.57', Currency: 'GBP' } }] },
    Links: { Self: `${BASE}/accounts/22289/direct-debits` },
    Meta: { TotalPages: 1 },
  },
  OBReadStandingOrder6: {
    Data: {
      StandingOrder: [{
        AccountId: '22289', StandingOrderId: 'Ben3', Frequency: 'IntrvlMnthDay:01:-01', Reference: 'Towbar Club 2 - We Love Towbars',
        FirstPaymentDateTime: T0, NextPaymentDateTime: '2026-12-22T00:00:00+00:00', StandingOrderStatusCode: 'Active',
        FirstPaymentAmount: { Amount: '0.57', Currency: 'GBP' }, NextPaymentAmount: { Amount: '0.56', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '80200112344562', Name: 'Mrs Juniper' },
      }],
    },
    Links: { Self: `${BASE}/accounts/22289/standing-orders` },
    Meta: { TotalPages: 1 },
  },
  OBReadScheduledPayment3: {
    Data: {
      ScheduledPayment: [{
        AccountId: '22289', ScheduledPaymentId: 'SP03', ScheduledPaymentDateTime: '2026-12-22T00:00:00+00:00', ScheduledType: 'Execution',
        InstructedAmount: { Amount: '10.00', Currency: 'GBP' },
        CreditorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '23605490179017', Name: 'Mr Tee' },
      }],
    },
    Links: { Self: `${BASE}/accounts/22289/scheduled-payments` },
    Meta: { TotalPages: 1 },
  },
  OBReadOffer1: {
    Data: { Offer: [{ AccountId: '22289', OfferId: 'Offer1', OfferType: 'LimitIncrease', Description: 'Credit limit increase for the account up to £10000.00', Amount: { Amount: '10000.00', Currency: 'GBP' } }] },
    Links: { Self: `${BASE}/accounts/22289/offers` },
    Meta: { TotalPages: 1 },
  },
  OBReadParty2: {
    Data: { Party: { PartyId: 'PABC123', PartyType: 'Sole', Name: 'Semiotec', FullLegalName: 'Semiotec Limited', Phone: '+44-0123456789', Address: [{ AddressType: 'Business', StreetName: 'High Street', BuildingNumber: '1', PostCode: 'GU31 2ZZ', TownName: 'Burton', Country: 'GB' }] } },
    Links: { Self: `${BASE}/party` },
    Meta: { TotalPages: 1 },
  },
  OBReadParty3: {
    Data: { Party: [{ PartyId: 'PXSIF023', PartyNumber: '0000007611', PartyType: 'Joint', Name: 'Mr Frank Pine', AccountRole: 'UK.OBIE.Principal' }] },
    Links: { Self: `${BASE}/accounts/22289/parties` },
    Meta: { TotalPages: 1 },
  },
  OBReadProduct2: {
    Data: { Product: [{ AccountId: '22289', ProductId: '51B', ProductType: 'PersonalCurrentAccount', ProductName: '321 Product' }] },
    Links: { Self: `${BASE}/accounts/22289/product` },
    Meta: { TotalPages: 1 },
  },
  OBReadStatement2: {
    Data: {
      Statement: [{
        AccountId: '22289', StatementId: '8sfhke-sifhkeuf-97513', StatementReference: '002', Type: 'RegularPeriodic',
        StartDateTime: '2026-10-01T00:00:00+00:00', EndDateTime: '2026-10-31T23:59:59+00:00', CreationDateTime: '2026-11-01T00:00:00+00:00',
        StatementDescription: ['October 2026 Statement'],
        StatementAmount: [{ CreditDebitIndicator: 'Credit', Type: 'UK.OBIE.ClosingBalance', Amount: { Amount: '400.00', Currency: 'GBP' } }],
      }],
    },
    Links: { Self: `${BASE}/accounts/22289/statements` },
    Meta: { TotalPages: 1 },
  },
  // The JSON form of a statement's file: the official `File` has no member.
  File: {},
  OBErrorResponse1: {
    Code: '400 Bad Request',
    Id: '2b5f0fb2-730b-11e8-adc0-fa7ae01bbebc',
    Message: 'The request is missing a mandatory field',
    Errors: [{ ErrorCode: 'UK.OBIE.Field.Missing', Message: 'DebtorAccount is required', Path: 'Data.DebtorAccount' }],
  },
  ...PAYMENT_FAMILY_SAMPLES,
};

/** A fresh, deep copy of the conformant sample for `name`. */
export function sample(name: SchemaName): any {
  return structuredClone(samples[name]);
}

export const SAMPLE_NAMES = Object.keys(samples) as SchemaName[];
