/**
 * The account-information answers of UK Read/Write v3.1.11 that the spec's tables do not have:
 * direct debits, standing orders, scheduled payments, offers, party, product and statements (and a
 * statement's file). Written by hand from the facts of the official account-info OpenAPI file
 * (../shared/reference/obie) and checked against it by test/dialects/obie-crosscheck.test.ts.
 * Statements' transactions answer OBReadTransaction6 and the bulk reads the per-account schemas.
 */
import { accountId, bothLevels, amountAndCurrency, cashAccount, closedEnum, country, CREDIT_DEBIT, dateTime, namespacedCode, responseEnvelope, supplementaryData, text } from './common.ts';

/** A creditor's agent in a standing order or a scheduled payment: both members required (OBBranchAndFinancialInstitutionIdentification5). */
const creditorAgent = {
  type: 'object',
  required: ['SchemeName', 'Identification'],
  properties: { SchemeName: namespacedCode, Identification: text(1, 35) },
} as const;

/** `OBRate1` as a string: up to three integer digits and four decimals, possibly negative. */
const rateText = { type: 'string', pattern: '^(-?\\d{1,3}){1}(\\.\\d{1,4}){0,1}$' } as const;

/** The closed Frequency grammar of a standing order (OBStandingOrder6.Frequency). */
export const STANDING_ORDER_FREQUENCY_PATTERN = '^(NotKnown)$|^(EvryDay)$|^(EvryWorkgDay)$|^(IntrvlDay:((0[2-9])|([1-2][0-9])|3[0-1]))$|^(IntrvlWkDay:0[1-9]:0[1-7])$|^(WkInMnthDay:0[1-5]:0[1-7])$|^(IntrvlMnthDay:(0[1-6]|12|24):(-0[1-5]|0[1-9]|[12][0-9]|3[01]))$|^(QtrDay:(ENGLISH|SCOTTISH|RECEIVED))$';

export const DIRECT_DEBIT_STATUSES = ['Active', 'Inactive'] as const;
export const STANDING_ORDER_STATUSES = ['Active', 'Inactive'] as const;
export const SCHEDULE_TYPES = ['Arrival', 'Execution'] as const;
export const OFFER_TYPES = ['BalanceTransfer', 'LimitIncrease', 'MoneyTransfer', 'Other', 'PromotionalRate'] as const;
export const PARTY_TYPES = ['Delegate', 'Joint', 'Sole'] as const;
export const PRODUCT_TYPES = ['BusinessCurrentAccount', 'CommercialCreditCard', 'Other', 'PersonalCurrentAccount', 'SMELoan'] as const;
export const STATEMENT_TYPES = ['AccountClosure', 'AccountOpening', 'Annual', 'Interim', 'RegularPeriodic'] as const;
const ADDRESS_TYPES = ['Business', 'Correspondence', 'DeliveryTo', 'MailTo', 'POBox', 'Postal', 'Residential', 'Statement'] as const;

/**
 * The members that only the Detail permission of a resource opens (the standard's permission
 * clusters): the creditor's account and agent of standing orders and scheduled payments.
 */
export const DETAIL_ONLY_PAYEE_FIELDS = ['CreditorAccount', 'CreditorAgent'] as const;

export const OBReadDirectDebit2 = responseEnvelope({
  type: 'object',
  properties: {
    DirectDebit: {
      type: 'array',
      items: {
        type: 'object',
        required: ['AccountId', 'MandateIdentification', 'Name'],
        properties: {
          AccountId: accountId,
          DirectDebitId: text(1, 40),
          MandateIdentification: text(1, 35),
          DirectDebitStatusCode: closedEnum(DIRECT_DEBIT_STATUSES),
          Name: text(1, 70),
          PreviousPaymentDateTime: dateTime,
          Frequency: { type: 'string' },
          PreviousPaymentAmount: amountAndCurrency,
        },
      },
    },
  },
});

export const OBReadStandingOrder6 = responseEnvelope({
  type: 'object',
  properties: {
    StandingOrder: {
      type: 'array',
      items: {
        type: 'object',
        required: ['AccountId', 'Frequency'],
        properties: {
          AccountId: accountId,
          StandingOrderId: text(1, 40),
          Frequency: { type: 'string', pattern: STANDING_ORDER_FREQUENCY_PATTERN },
          Reference: text(1, 35),
          FirstPaymentDateTime: dateTime,
          NextPaymentDateTime: dateTime,
          LastPaymentDateTime: dateTime,
          FinalPaymentDateTime: dateTime,
          NumberOfPayments: text(1, 35),
          StandingOrderStatusCode: closedEnum(STANDING_ORDER_STATUSES),
          FirstPaymentAmount: amountAndCurrency,
          NextPaymentAmount: amountAndCurrency,
          LastPaymentAmount: amountAndCurrency,
          FinalPaymentAmount: amountAndCurrency,
          CreditorAgent: creditorAgent,
          CreditorAccount: cashAccount,
          SupplementaryData: supplementaryData,
        },
        additionalProperties: false,
      },
    },
  },
});

export const OBReadScheduledPayment3 = responseEnvelope({
  type: 'object',
  properties: {
    ScheduledPayment: {
      type: 'array',
      items: {
        type: 'object',
        required: ['AccountId', 'ScheduledPaymentDateTime', 'ScheduledType', 'InstructedAmount'],
        properties: {
          AccountId: accountId,
          ScheduledPaymentId: text(1, 40),
          ScheduledPaymentDateTime: dateTime,
          ScheduledType: closedEnum(SCHEDULE_TYPES),
          Reference: text(1, 35),
          DebtorReference: text(1, 35),
          InstructedAmount: amountAndCurrency,
          CreditorAgent: creditorAgent,
          CreditorAccount: cashAccount,
        },
        additionalProperties: false,
      },
    },
  },
});

export const OBReadOffer1 = responseEnvelope({
  type: 'object',
  properties: {
    Offer: {
      type: 'array',
      items: {
        type: 'object',
        required: ['AccountId'],
        properties: {
          AccountId: accountId,
          OfferId: text(1, 40),
          OfferType: closedEnum(OFFER_TYPES),
          Description: text(1, 500),
          StartDateTime: dateTime,
          EndDateTime: dateTime,
          Rate: rateText,
          Value: { type: 'integer' },
          Term: text(1, 500),
          URL: text(1, 256),
          Amount: amountAndCurrency,
          Fee: amountAndCurrency,
        },
      },
    },
  },
});

const phone = { type: 'string', pattern: '\\+[0-9]{1,3}-[0-9()+\\-]{1,30}' } as const;

/** `OBParty2`: PartyId required, closed; its addresses need a Country. */
const party = {
  type: 'object',
  required: ['PartyId'],
  properties: {
    PartyId: text(1, 40),
    PartyNumber: text(1, 35),
    PartyType: closedEnum(PARTY_TYPES),
    Name: text(1, 350),
    FullLegalName: text(1, 350),
    LegalStructure: namespacedCode,
    BeneficialOwnership: { type: 'boolean' },
    AccountRole: namespacedCode,
    EmailAddress: text(1, 256),
    Phone: phone,
    Mobile: phone,
    Relationships: {
      type: 'object',
      properties: {
        Account: {
          type: 'object',
          required: ['Related', 'Id'],
          properties: { Related: { type: 'string', format: 'uri' }, Id: text(1, 40) },
        },
      },
    },
    Address: {
      type: 'array',
      items: {
        type: 'object',
        required: ['Country'],
        properties: {
          AddressType: closedEnum(ADDRESS_TYPES),
          AddressLine: { type: 'array', items: text(1, 70), minItems: 0, maxItems: 5 },
          StreetName: text(1, 70),
          BuildingNumber: text(1, 16),
          PostCode: text(1, 16),
          TownName: text(1, 35),
          CountrySubDivision: text(1, 35),
          Country: country,
        },
      },
    },
  },
  additionalProperties: false,
} as const;

/** `/party` and `/accounts/{AccountId}/party`: one party (the PSU, or the account's owner). */
export const OBReadParty2 = responseEnvelope({ type: 'object', properties: { Party: party } });

/** `/accounts/{AccountId}/parties`: every party of the account. */
export const OBReadParty3 = responseEnvelope({ type: 'object', properties: { Party: { type: 'array', items: party } } });

/**
 * `OBReadProduct2`. The product's own members are written here; its BCA, PCA and OtherProductType
 * detail (hundreds of members of the product catalogue) are judged as objects only: a known gap of
 * the MUST level (test/dialects/obie-uk-product.test.ts checks the rest against the official file).
 */
export const OBReadProduct2 = responseEnvelope({
  type: 'object',
  properties: {
    Product: {
      type: 'array',
      items: {
        type: 'object',
        required: ['AccountId', 'ProductType'],
        properties: {
          ProductName: text(1, 350),
          ProductId: text(1, 40),
          AccountId: accountId,
          SecondaryProductId: text(1, 70),
          ProductType: closedEnum(PRODUCT_TYPES),
          MarketingStateId: text(1, 35),
          OtherProductType: { type: 'object', required: ['Name', 'Description'], properties: { Name: text(1, 350), Description: text(1, 350) } },
          BCA: { type: 'object' },
          PCA: { type: 'object' },
        },
      },
    },
  },
});

const statementAmount = {
  type: 'object',
  required: ['Amount', 'Currency'],
  properties: { ...amountAndCurrency.properties, SubType: closedEnum(['BaseCurrency', 'LocalCurrency']) },
} as const;

const rated = (description: boolean) => ({
  type: 'object',
  required: ['CreditDebitIndicator', 'Type', 'Amount'],
  properties: {
    ...(description ? { Description: text(1, 128) } : {}),
    CreditDebitIndicator: closedEnum(CREDIT_DEBIT),
    Type: namespacedCode,
    Rate: { type: 'number' },
    RateType: namespacedCode,
    Frequency: namespacedCode,
    Amount: amountAndCurrency,
  },
});

export const OBReadStatement2 = responseEnvelope({
  type: 'object',
  properties: {
    Statement: {
      type: 'array',
      items: {
        type: 'object',
        required: ['AccountId', 'Type', 'StartDateTime', 'EndDateTime', 'CreationDateTime'],
        properties: {
          AccountId: accountId,
          StatementId: text(1, 40),
          StatementReference: text(1, 35),
          Type: closedEnum(STATEMENT_TYPES),
          StartDateTime: dateTime,
          EndDateTime: dateTime,
          CreationDateTime: dateTime,
          StatementDescription: { type: 'array', items: text(1, 500) },
          StatementBenefit: {
            type: 'array',
            items: { type: 'object', required: ['Type', 'Amount'], properties: { Type: namespacedCode, Amount: amountAndCurrency } },
          },
          StatementFee: { type: 'array', items: rated(true) },
          StatementInterest: { type: 'array', items: rated(true) },
          StatementAmount: {
            type: 'array',
            items: {
              type: 'object',
              required: ['CreditDebitIndicator', 'Type', 'Amount'],
              properties: { CreditDebitIndicator: closedEnum(CREDIT_DEBIT), Type: namespacedCode, Amount: statementAmount, LocalAmount: statementAmount },
            },
          },
          StatementDateTime: {
            type: 'array',
            items: { type: 'object', required: ['DateTime', 'Type'], properties: { DateTime: dateTime, Type: namespacedCode } },
          },
          StatementRate: {
            type: 'array',
            items: { type: 'object', required: ['Rate', 'Type'], properties: { Rate: rateText, Type: namespacedCode } },
          },
          StatementValue: {
            type: 'array',
            items: { type: 'object', required: ['Value', 'Type'], properties: { Value: text(1, 40), Type: namespacedCode } },
          },
          TotalValue: amountAndCurrency,
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
});

/**
 * A statement's file (GET …/statements/{StatementId}/file). The official file's `File` is an
 * object with no members for its JSON media types, and a bank answers the statement in whatever
 * form it keeps it (a PDF): no shape to judge beyond the status and a body.
 */
export const File = bothLevels({});
