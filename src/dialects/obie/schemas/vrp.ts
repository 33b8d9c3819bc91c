/**
 * Variable Recurring Payments (UK Read/Write v3.1.11, VRP): the domestic VRP consent, the payment,
 * its details and the consent's funds check, as ../shared/reference/FACTS-v4.md §6 digests them
 * (the v3.1.11 VRP file, checked by test/dialects/obie-crosscheck.test.ts). Unlike the other PIS
 * bodies the VRP file leaves most of its objects open (Risk and addresses are closed), and its
 * answers require Links and Meta: both levels say so. `VRPType`, `PSUAuthenticationMethods` and
 * `StatusReason` are namespaced (open) codes; a charge's Type is a closed list here.
 */
import { type Levels } from './common.ts';
import { amountValue, bothLevels, closedEnum, consentId, CURRENCY_PATTERN, dateTime, namespacedCode, postalAddressClosed, text } from './common.ts';
import { riskPayment } from './payment-initiation.ts';

const uri = { type: 'string', format: 'uri' } as const;
/** VRP's Links: Self required, open (as the VRP file writes it). */
const links = { type: 'object', required: ['Self'], properties: { Self: uri, First: uri, Prev: uri, Next: uri, Last: uri } } as const;
const meta = { type: 'object' } as const;

/** The VRP file bounds its currency codes by length as well as by pattern. */
const currency = { type: 'string', pattern: CURRENCY_PATTERN, minLength: 3, maxLength: 3 } as const;
const amount = { type: 'object', required: ['Amount', 'Currency'], properties: { Amount: amountValue, Currency: currency } } as const;
const postalAddress = postalAddressClosed;

/** `OBCashAccountDebtorWithName` and `OBCashAccountCreditor3`: Name required in VRP. */
const namedAccount = {
  type: 'object',
  required: ['SchemeName', 'Identification', 'Name'],
  properties: { SchemeName: namespacedCode, Identification: text(1, 256), Name: text(1, 350), SecondaryIdentification: text(1, 34) },
} as const;

const remittance = { type: 'object', properties: { Unstructured: text(1, 140), Reference: text(1, 35) } } as const;

/** `OBDomesticVRPInitiation`: every member optional. */
const initiation = {
  type: 'object',
  properties: { DebtorAccount: namedAccount, CreditorAccount: namedAccount, CreditorPostalAddress: postalAddress, RemittanceInformation: remittance },
} as const;

export const VRP_PERIOD_TYPES = ['Day', 'Week', 'Fortnight', 'Month', 'Half-year', 'Year'] as const;
export const VRP_PERIOD_ALIGNMENTS = ['Consent', 'Calendar'] as const;
export const VRP_CONSENT_STATUSES = ['Authorised', 'AwaitingAuthorisation', 'Rejected'] as const;
export const VRP_PAYMENT_STATUSES = [
  'AcceptedCreditSettlementCompleted', 'AcceptedWithoutPosting', 'AcceptedSettlementCompleted', 'AcceptedSettlementInProcess', 'Pending', 'Rejected',
] as const;

/** `OBDomesticVRPControlParameters`: what bounds every payment of the consent. */
const controlParameters = {
  type: 'object',
  required: ['VRPType', 'PSUAuthenticationMethods', 'MaximumIndividualAmount', 'PeriodicLimits'],
  properties: {
    ValidFromDateTime: dateTime,
    ValidToDateTime: dateTime,
    MaximumIndividualAmount: amount,
    PeriodicLimits: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['PeriodType', 'PeriodAlignment', 'Amount', 'Currency'],
        properties: { PeriodType: closedEnum(VRP_PERIOD_TYPES), PeriodAlignment: closedEnum(VRP_PERIOD_ALIGNMENTS), Amount: amountValue, Currency: currency },
      },
    },
    VRPType: { type: 'array', minItems: 1, items: namespacedCode },
    PSUAuthenticationMethods: { type: 'array', minItems: 1, items: namespacedCode },
    PSUInteractionTypes: { type: 'array', items: closedEnum(['InSession', 'OffSession']) },
    SupplementaryData: { type: 'object' },
  },
} as const;

/** OBRisk1: the same closed object as the payment-initiation file's. */
const risk = riskPayment;

export const OBDomesticVRPConsentRequest = bothLevels({
  type: 'object',
  required: ['Data', 'Risk'],
  properties: {
    Data: {
      type: 'object',
      required: ['ControlParameters', 'Initiation'],
      properties: { ReadRefundAccount: closedEnum(['Yes', 'No']), ControlParameters: controlParameters, Initiation: initiation },
    },
    Risk: risk,
  },
});

const envelope = (data: object, withRisk: boolean): Levels => bothLevels({
  type: 'object',
  required: withRisk ? ['Data', 'Risk', 'Links', 'Meta'] : ['Data', 'Links', 'Meta'],
  properties: withRisk ? { Data: data, Risk: risk, Links: links, Meta: meta } : { Data: data, Links: links, Meta: meta },
});

export const OBDomesticVRPConsentResponse = envelope({
  type: 'object',
  required: ['ConsentId', 'CreationDateTime', 'Status', 'StatusUpdateDateTime', 'ControlParameters', 'Initiation'],
  properties: {
    ReadRefundAccount: closedEnum(['Yes', 'No']),
    ConsentId: consentId,
    CreationDateTime: dateTime,
    Status: closedEnum(VRP_CONSENT_STATUSES),
    StatusUpdateDateTime: dateTime,
    ControlParameters: controlParameters,
    Initiation: initiation,
    DebtorAccount: namedAccount,
  },
}, true);

/** `OBDomesticVRPInstruction`: one payment's own identification, amount and creditor. */
const instruction = {
  type: 'object',
  required: ['InstructionIdentification', 'EndToEndIdentification', 'InstructedAmount', 'CreditorAccount'],
  properties: {
    InstructionIdentification: text(1, 35),
    EndToEndIdentification: text(1, 35),
    RemittanceInformation: remittance,
    LocalInstrument: namespacedCode,
    InstructedAmount: amount,
    CreditorPostalAddress: postalAddress,
    CreditorAccount: namedAccount,
    SupplementaryData: { type: 'object' },
  },
} as const;

export const OBDomesticVRPRequest = bothLevels({
  type: 'object',
  required: ['Data', 'Risk'],
  properties: {
    Data: {
      type: 'object',
      required: ['ConsentId', 'PSUAuthenticationMethod', 'VRPType', 'Initiation', 'Instruction'],
      properties: {
        ConsentId: consentId,
        PSUAuthenticationMethod: namespacedCode,
        PSUInteractionType: closedEnum(['InSession', 'OffSession']),
        VRPType: namespacedCode,
        Initiation: initiation,
        Instruction: instruction,
      },
    },
    Risk: risk,
  },
});

export const OBDomesticVRPResponse = envelope({
  type: 'object',
  required: ['DomesticVRPId', 'ConsentId', 'CreationDateTime', 'Status', 'StatusUpdateDateTime', 'Initiation', 'Instruction'],
  properties: {
    DomesticVRPId: text(1, 40),
    ConsentId: consentId,
    CreationDateTime: dateTime,
    Status: closedEnum(VRP_PAYMENT_STATUSES),
    StatusReason: namespacedCode,
    StatusReasonDescription: text(1, 256),
    StatusUpdateDateTime: dateTime,
    ExpectedExecutionDateTime: dateTime,
    ExpectedSettlementDateTime: dateTime,
    Refund: namedAccount,
    Charges: {
      type: 'array',
      items: {
        type: 'object',
        required: ['Amount', 'ChargeBearer', 'Type'],
        properties: {
          ChargeBearer: closedEnum(['BorneByCreditor', 'BorneByDebtor', 'FollowingServiceLevel', 'Shared']),
          Type: closedEnum(['UK.OBIE.CHAPSOut', 'UK.OBIE.BalanceTransferOut', 'UK.OBIE.MoneyTransferOut']),
          Amount: amount,
        },
      },
    },
    Initiation: initiation,
    Instruction: instruction,
    DebtorAccount: namedAccount,
  },
}, true);

const DETAIL_STATUSES = [
  'Accepted', 'AcceptedCancellationRequest', 'AcceptedCreditSettlementCompleted', 'AcceptedCustomerProfile', 'AcceptedFundsChecked',
  'AcceptedSettlementCompleted', 'AcceptedSettlementInProcess', 'AcceptedTechnicalValidation', 'AcceptedWithChange', 'AcceptedWithoutPosting',
  'Cancelled', 'NoCancellationProcess', 'PartiallyAcceptedCancellationRequest', 'PartiallyAcceptedTechnicalCorrect', 'PaymentCancelled',
  'Pending', 'PendingCancellationRequest', 'Received', 'Rejected', 'RejectedCancellationRequest',
] as const;

/** `OBDomesticVRPDetails`: in v3.1.11 nothing is required at the top, not even Data. */
export const OBDomesticVRPDetails = bothLevels({
  type: 'object',
  properties: {
    Data: {
      type: 'object',
      properties: {
        PaymentStatus: {
          type: 'array',
          items: {
            type: 'object',
            required: ['PaymentTransactionId', 'Status', 'StatusUpdateDateTime'],
            properties: {
              PaymentTransactionId: text(1, 210),
              Status: closedEnum(DETAIL_STATUSES),
              StatusUpdateDateTime: dateTime,
              StatusDetail: {
                type: 'object',
                required: ['Status'],
                properties: {
                  LocalInstrument: namespacedCode,
                  Status: text(1, 128),
                  StatusReason: closedEnum(['Cancelled', 'PendingFailingSettlement', 'PendingSettlement', 'Proprietary', 'ProprietaryRejection', 'Suspended', 'Unmatched']),
                  StatusReasonDescription: text(1, 128),
                },
              },
            },
          },
        },
      },
    },
  },
});

export const OBVRPFundsConfirmationRequest = bothLevels({
  type: 'object',
  required: ['Data'],
  properties: {
    Data: { type: 'object', required: ['ConsentId', 'InstructedAmount'], properties: { ConsentId: consentId, Reference: text(1, 35), InstructedAmount: amount } },
  },
});

/** The VRP funds check answers `Available` or `NotAvailable`, not the boolean of CBPII and PIS. */
export const VRP_FUNDS_AVAILABLE = ['Available', 'NotAvailable'] as const;

export const OBVRPFundsConfirmationResponse = bothLevels({
  type: 'object',
  required: ['Data'],
  properties: {
    Data: {
      type: 'object',
      required: ['FundsConfirmationId', 'ConsentId', 'CreationDateTime', 'FundsAvailableResult', 'InstructedAmount'],
      properties: {
        FundsConfirmationId: text(1, 40),
        ConsentId: consentId,
        CreationDateTime: dateTime,
        Reference: text(1, 35),
        FundsAvailableResult: {
          type: 'object',
          required: ['FundsAvailableDateTime', 'FundsAvailable'],
          properties: { FundsAvailableDateTime: dateTime, FundsAvailable: closedEnum(VRP_FUNDS_AVAILABLE) },
        },
        InstructedAmount: amount,
      },
    },
  },
});
