/**
 * Payment initiation (PIS, variant A): the payment-order consent created on `/{payment-product}`
 * in the shape of `OBWriteDomesticConsent4` / `OBWriteDomesticConsentResponse5`, and the project's
 * own status answer (docs/wire.md; FACTS §4).
 */
import {
  amountAndCurrencyClosed, cashAccountCreditorClosed, cashAccountDebtorClosed, closedEnum, consentId, country,
  dateTime, debtorIdentification, namespacedCode, postalAddressClosed, responseEnvelope, supplementaryData, text,
} from './common.ts';

/** `Data.Status` of a payment-order consent (FACTS §4.1). */
export const PAYMENT_CONSENT_STATUSES = ['Authorised', 'AwaitingAuthorisation', 'Consumed', 'Rejected'] as const;
/** `Data.Status` of a payment order, `OBWriteDomesticResponse5` (FACTS §4.2). */
export const PAYMENT_ORDER_STATUSES = [
  'Pending', 'Rejected', 'AcceptedSettlementInProcess', 'AcceptedSettlementCompleted', 'AcceptedWithoutPosting',
  'AcceptedCreditSettlementCompleted',
] as const;
/** Every value `GET /{payment-product}/{paymentId}/status` may answer: consent and order statuses. */
export const PAYMENT_STATUSES = [...new Set([...PAYMENT_CONSENT_STATUSES, ...PAYMENT_ORDER_STATUSES])] as readonly string[];

/** The domestic payment's `Initiation` (shared by the domestic consent, its order and their answers). */
export const initiation = {
  type: 'object',
  required: ['InstructionIdentification', 'EndToEndIdentification', 'InstructedAmount', 'CreditorAccount'],
  properties: {
    InstructionIdentification: text(1, 35),
    EndToEndIdentification: text(1, 35),
    LocalInstrument: namespacedCode,
    InstructedAmount: amountAndCurrencyClosed,
    DebtorAccount: cashAccountDebtorClosed,
    CreditorAccount: cashAccountCreditorClosed,
    CreditorPostalAddress: postalAddressClosed,
    RemittanceInformation: {
      type: 'object',
      properties: { Unstructured: text(1, 140), Reference: text(1, 35) },
      additionalProperties: false,
    },
    SupplementaryData: supplementaryData,
  },
  additionalProperties: false,
} as const;

export const authorisation = {
  type: 'object',
  required: ['AuthorisationType'],
  properties: { AuthorisationType: closedEnum(['Any', 'Single']), CompletionDateTime: dateTime },
  additionalProperties: false,
} as const;

export const scaSupportData = {
  type: 'object',
  properties: {
    RequestedSCAExemptionType: closedEnum([
      'BillPayment', 'ContactlessTravel', 'EcommerceGoods', 'EcommerceServices', 'Kiosk', 'Parking', 'PartyToParty',
    ]),
    AppliedAuthenticationApproach: { type: 'string', maxLength: 40, enum: ['CA', 'SCA'] },
    ReferencePaymentOrderId: text(1, 40),
  },
} as const;

/** `OBRisk1`: every member optional, so `{}` is valid; closed. */
export const riskPayment = {
  type: 'object',
  properties: {
    PaymentContextCode: closedEnum([
      'BillingGoodsAndServicesInAdvance', 'BillingGoodsAndServicesInArrears', 'PispPayee',
      'EcommerceMerchantInitiatedPayment', 'FaceToFacePointOfSale', 'TransferToSelf', 'TransferToThirdParty',
      'BillPayment', 'EcommerceGoods', 'EcommerceServices', 'Other', 'PartyToParty',
    ]),
    MerchantCategoryCode: text(3, 4),
    MerchantCustomerIdentification: text(1, 70),
    // [sic] the standard's spelling.
    ContractPresentInidicator: { type: 'boolean' },
    BeneficiaryPrepopulatedIndicator: { type: 'boolean' },
    PaymentPurposeCode: text(3, 4),
    BeneficiaryAccountType: closedEnum([
      'Business', 'BusinessSavingsAccount', 'Charity', 'Collection', 'Corporate', 'Ewallet', 'Government',
      'Investment', 'ISA', 'JointPersonal', 'Pension', 'Personal', 'PersonalSavingsAccount', 'Premier', 'Wealth',
    ]),
    DeliveryAddress: {
      type: 'object',
      required: ['Country', 'TownName'],
      properties: {
        AddressLine: { type: 'array', items: text(1, 70), minItems: 0, maxItems: 2 },
        StreetName: text(1, 70),
        BuildingNumber: text(1, 16),
        PostCode: text(1, 16),
        TownName: text(1, 35),
        CountrySubDivision: text(1, 35),
        Country: country,
      },
    },
  },
  additionalProperties: false,
} as const;

export const OBWriteDomesticConsent4 = {
  type: 'object',
  required: ['Data', 'Risk'],
  properties: {
    Data: {
      type: 'object',
      required: ['Initiation'],
      properties: {
        ReadRefundAccount: closedEnum(['No', 'Yes']),
        Initiation: initiation,
        Authorisation: authorisation,
        SCASupportData: scaSupportData,
      },
      additionalProperties: false,
    },
    Risk: riskPayment,
  },
  additionalProperties: false,
} as const;

export const OBWriteDomesticConsentResponse5 = responseEnvelope(
  {
    type: 'object',
    required: ['ConsentId', 'CreationDateTime', 'Status', 'StatusUpdateDateTime', 'Initiation'],
    properties: {
      ConsentId: consentId,
      CreationDateTime: dateTime,
      Status: closedEnum(PAYMENT_CONSENT_STATUSES),
      StatusUpdateDateTime: dateTime,
      ReadRefundAccount: closedEnum(['No', 'Yes']),
      CutOffDateTime: dateTime,
      ExpectedExecutionDateTime: dateTime,
      ExpectedSettlementDateTime: dateTime,
      Charges: {
        type: 'array',
        items: {
          type: 'object',
          required: ['ChargeBearer', 'Type', 'Amount'],
          properties: {
            ChargeBearer: closedEnum(['BorneByCreditor', 'BorneByDebtor', 'FollowingServiceLevel', 'Shared']),
            Type: namespacedCode,
            Amount: amountAndCurrencyClosed,
          },
          additionalProperties: false,
        },
      },
      Initiation: initiation,
      Authorisation: authorisation,
      SCASupportData: scaSupportData,
      Debtor: debtorIdentification,
    },
    additionalProperties: false,
  },
  riskPayment,
);

/**
 * `GET /{payment-product}/{paymentId}/status`: the project's own answer (the standard has no such
 * endpoint; docs/wire.md). Status is a consent status or, once a payment order exists, an order status.
 */
export const PaymentStatusResponse = responseEnvelope({
  type: 'object',
  required: ['ConsentId', 'Status', 'StatusUpdateDateTime'],
  properties: {
    ConsentId: consentId,
    DomesticPaymentId: text(1, 40),
    PaymentId: text(1, 128),
    Status: { type: 'string', enum: PAYMENT_STATUSES },
    StatusUpdateDateTime: dateTime,
  },
  additionalProperties: false,
});

/** `OBWriteDomestic2`: the payment order the PISP submits, with its consent's Initiation and Risk (FACTS §4.2). */
export const OBWriteDomestic2 = {
  type: 'object',
  required: ['Data', 'Risk'],
  properties: {
    Data: {
      type: 'object',
      required: ['ConsentId', 'Initiation'],
      properties: { ConsentId: consentId, Initiation: initiation },
      additionalProperties: false,
    },
    Risk: riskPayment,
  },
  additionalProperties: false,
} as const;

export const charges = {
  type: 'array',
  items: {
    type: 'object',
    required: ['ChargeBearer', 'Type', 'Amount'],
    properties: {
      ChargeBearer: closedEnum(['BorneByCreditor', 'BorneByDebtor', 'FollowingServiceLevel', 'Shared']),
      Type: namespacedCode,
      Amount: amountAndCurrencyClosed,
    },
    additionalProperties: false,
  },
} as const;

/** `OBWriteDomesticResponse5`: the payment order, created (201) or read (200); no Risk (FACTS §4.2). */
export const OBWriteDomesticResponse5 = responseEnvelope({
  type: 'object',
  required: ['DomesticPaymentId', 'ConsentId', 'CreationDateTime', 'Status', 'StatusUpdateDateTime', 'Initiation'],
  properties: {
    DomesticPaymentId: text(1, 40),
    ConsentId: consentId,
    CreationDateTime: dateTime,
    Status: closedEnum(PAYMENT_ORDER_STATUSES),
    StatusUpdateDateTime: dateTime,
    ExpectedExecutionDateTime: dateTime,
    ExpectedSettlementDateTime: dateTime,
    Refund: { type: 'object', required: ['Account'], properties: { Account: cashAccountCreditorClosed }, additionalProperties: false },
    Charges: charges,
    Initiation: initiation,
    MultiAuthorisation: {
      type: 'object',
      required: ['Status'],
      properties: {
        Status: closedEnum(['Authorised', 'AwaitingFurtherAuthorisation', 'Rejected']),
        NumberRequired: { type: 'integer' },
        NumberReceived: { type: 'integer' },
        LastUpdateDateTime: dateTime,
        ExpirationDateTime: dateTime,
      },
      additionalProperties: false,
    },
    Debtor: debtorIdentification,
  },
  additionalProperties: false,
});

/** The ISO-flavoured statuses of `OBWritePaymentDetailsResponse1` (`Data.PaymentStatus[].Status`). */
export const PAYMENT_DETAIL_STATUSES = [
  'Accepted', 'AcceptedCancellationRequest', 'AcceptedCreditSettlementCompleted', 'AcceptedCustomerProfile',
  'AcceptedFundsChecked', 'AcceptedSettlementCompleted', 'AcceptedSettlementInProcess', 'AcceptedTechnicalValidation',
  'AcceptedWithChange', 'AcceptedWithoutPosting', 'Cancelled', 'NoCancellationProcess',
  'PartiallyAcceptedCancellationRequest', 'PartiallyAcceptedTechnicalCorrect', 'PaymentCancelled', 'Pending',
  'PendingCancellationRequest', 'Received', 'Rejected', 'RejectedCancellationRequest',
] as const;

/** `OBWritePaymentDetailsResponse1`: GET …/{DomesticPaymentId}/payment-details (optional in the standard). */
export const OBWritePaymentDetailsResponse1 = responseEnvelope({
  type: 'object',
  properties: {
    PaymentStatus: {
      type: 'array',
      items: {
        type: 'object',
        required: ['PaymentTransactionId', 'Status', 'StatusUpdateDateTime'],
        properties: {
          PaymentTransactionId: text(1, 210),
          Status: closedEnum(PAYMENT_DETAIL_STATUSES),
          StatusUpdateDateTime: dateTime,
          StatusDetail: {
            type: 'object',
            required: ['Status'],
            properties: {
              LocalInstrument: namespacedCode,
              Status: text(1, 128),
              StatusReason: closedEnum(['Cancelled', 'PendingFailingSettlement', 'PendingSettlement', 'Proprietary', 'ProprietaryRejection', 'Suspended', 'Unmatched']),
              StatusReasonDescription: text(1, 256),
            },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
});

/** `OBWriteFundsConfirmationResponse1`: GET …/{ConsentId}/funds-confirmation of a payment consent (FACTS §4.3). */
export const OBWriteFundsConfirmationResponse1 = responseEnvelope({
  type: 'object',
  properties: {
    FundsAvailableResult: {
      type: 'object',
      required: ['FundsAvailableDateTime', 'FundsAvailable'],
      properties: { FundsAvailableDateTime: dateTime, FundsAvailable: { type: 'boolean' } },
      additionalProperties: false,
    },
    SupplementaryData: supplementaryData,
  },
  additionalProperties: false,
});
