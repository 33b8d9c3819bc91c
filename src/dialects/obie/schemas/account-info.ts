/**
 * Account information (AIS): the account-access consent and the account, balance and
 * transaction reads, as docs/wire.md reads them (UK Open Banking Read/Write v3.1.x, FACTS §2).
 */
import {
  accountId, agent, amountAndCurrency, cashAccount, closedEnum, consentId, CREDIT_DEBIT, currency,
  dateTime, namespacedCode, responseEnvelope, SHOULD_SOURCE_KEYWORD, SHOULD_SOURCES, supplementaryData, text,
} from './common.ts';

/** The 21 permission codes of `OBReadConsent1` (FACTS §2.3). */
export const PERMISSIONS = [
  'ReadAccountsBasic', 'ReadAccountsDetail',
  'ReadBalances',
  'ReadBeneficiariesBasic', 'ReadBeneficiariesDetail',
  'ReadDirectDebits',
  'ReadOffers',
  'ReadPAN',
  'ReadParty', 'ReadPartyPSU',
  'ReadProducts',
  'ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail',
  'ReadStandingOrdersBasic', 'ReadStandingOrdersDetail',
  'ReadStatementsBasic', 'ReadStatementsDetail',
  'ReadTransactionsBasic', 'ReadTransactionsCredits', 'ReadTransactionsDebits', 'ReadTransactionsDetail',
] as const;

/** `Data.Status` of account-access and funds-confirmation consents (FACTS §2.2, §3.1). */
export const CONSENT_STATUSES = ['Authorised', 'AwaitingAuthorisation', 'Rejected', 'Revoked'] as const;

export const ACCOUNT_STATUSES = ['Deleted', 'Disabled', 'Enabled', 'Pending', 'ProForma'] as const;
export const ACCOUNT_TYPES = ['Business', 'Personal'] as const;
/** v3.1.11 lists `Wallet` too (docs/wire.md omits it). */
export const ACCOUNT_SUB_TYPES = ['ChargeCard', 'CreditCard', 'CurrentAccount', 'EMoney', 'Loan', 'Mortgage', 'PrePaidCard', 'Savings', 'Wallet'] as const;
export const BALANCE_TYPES = [
  'ClosingAvailable', 'ClosingBooked', 'ClosingCleared', 'Expected', 'ForwardAvailable', 'Information',
  'InterimAvailable', 'InterimBooked', 'InterimCleared', 'OpeningAvailable', 'OpeningBooked',
  'OpeningCleared', 'PreviouslyClosedBooked',
] as const;
export const CREDIT_LINE_TYPES = ['Available', 'Credit', 'Emergency', 'Pre-Agreed', 'Temporary'] as const;
export const TRANSACTION_STATUSES = ['Booked', 'Pending', 'Rejected'] as const;

/** `Risk` of AIS consents (`OBRisk2`): no members at all, so only `{}` is valid. */
const riskEmpty = { type: 'object', properties: {}, additionalProperties: false } as const;

const permissions = { type: 'array', items: closedEnum(PERMISSIONS), minItems: 1 } as const;

export const OBReadConsent1 = {
  type: 'object',
  required: ['Data', 'Risk'],
  properties: {
    Data: {
      type: 'object',
      // The spec makes the three dates mandatory; the standard's schema does not. That is a
      // behavioural rule (400 when missing) judged by the suite, not a shape rule.
      required: ['Permissions'],
      properties: {
        Permissions: permissions,
        ExpirationDateTime: dateTime,
        TransactionFromDateTime: dateTime,
        TransactionToDateTime: dateTime,
      },
    },
    Risk: riskEmpty,
  },
  additionalProperties: false,
} as const;

export const OBReadConsentResponse1 = responseEnvelope(
  {
    type: 'object',
    required: ['ConsentId', 'CreationDateTime', 'Status', 'StatusUpdateDateTime', 'Permissions'],
    properties: {
      ConsentId: consentId,
      CreationDateTime: dateTime,
      Status: closedEnum(CONSENT_STATUSES),
      StatusUpdateDateTime: dateTime,
      Permissions: permissions,
      ExpirationDateTime: dateTime,
      TransactionFromDateTime: dateTime,
      TransactionToDateTime: dateTime,
    },
  },
  riskEmpty,
);

/** Currency, AccountType and AccountSubType: optional in the schema only for switched accounts. */
const SWITCHED_OPTIONAL = ['Currency', 'AccountType', 'AccountSubType'] as const;

/** `OBAccount6` as the OpenAPI file writes it: only AccountId required. */
const account = {
  type: 'object',
  required: ['AccountId'],
  properties: {
    AccountId: accountId,
    Status: closedEnum(ACCOUNT_STATUSES),
    StatusUpdateDateTime: dateTime,
    Currency: currency,
    AccountType: closedEnum(ACCOUNT_TYPES),
    AccountSubType: closedEnum(ACCOUNT_SUB_TYPES),
    Description: text(1, 35),
    Nickname: text(1, 70),
    OpeningDate: dateTime,
    MaturityDate: dateTime,
    SwitchStatus: namespacedCode,
    Account: { type: 'array', items: cashAccount },
    Servicer: {
      type: 'object',
      required: ['SchemeName', 'Identification'],
      properties: { SchemeName: namespacedCode, Identification: text(1, 35) },
    },
  },
  additionalProperties: false,
} as const;

/**
 * OBAccount6's description: "optional only for accounts that are switched … For all other
 * accounts, the fields must be populated by the ASPSP." Prose in a description, not the schema's
 * `required`: a SHOULD.
 */
const accountStrict = {
  ...account,
  if: {
    properties: { SwitchStatus: { const: 'UK.CASS.SwitchCompleted' } },
    required: ['SwitchStatus'],
  },
  else: {
    properties: { Currency: true, AccountType: true, AccountSubType: true },
    required: SWITCHED_OPTIONAL,
    [SHOULD_SOURCE_KEYWORD]: SHOULD_SOURCES.switchedAccount,
  },
} as const;

export const OBReadAccount6 = responseEnvelope({
  official: { type: 'object', properties: { Account: { type: 'array', items: account } } },
  strict: { type: 'object', properties: { Account: { type: 'array', items: accountStrict } } },
});

const balanceAmount = {
  type: 'object',
  required: ['Amount', 'Currency'],
  properties: { ...amountAndCurrency.properties, SubType: closedEnum(['BaseCurrency', 'LocalCurrency']) },
} as const;

export const OBReadBalance1 = responseEnvelope({
  type: 'object',
  required: ['Balance'],
  properties: {
    Balance: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['AccountId', 'CreditDebitIndicator', 'Type', 'DateTime', 'Amount'],
        properties: {
          AccountId: accountId,
          CreditDebitIndicator: closedEnum(CREDIT_DEBIT),
          Type: closedEnum(BALANCE_TYPES),
          DateTime: dateTime,
          Amount: balanceAmount,
          CreditLine: {
            type: 'array',
            items: {
              type: 'object',
              required: ['Included'],
              properties: {
                Included: { type: 'boolean' },
                Type: closedEnum(CREDIT_LINE_TYPES),
                Amount: amountAndCurrency,
              },
            },
          },
          LocalAmount: balanceAmount,
        },
      },
    },
    TotalValue: amountAndCurrency,
  },
});

const transaction = {
  type: 'object',
  required: ['AccountId', 'CreditDebitIndicator', 'Status', 'BookingDateTime', 'Amount'],
  properties: {
    AccountId: accountId,
    TransactionId: text(1, 210),
    TransactionReference: text(1, 210),
    StatementReference: { type: 'array', items: text(1, 35) },
    CreditDebitIndicator: closedEnum(CREDIT_DEBIT),
    Status: closedEnum(TRANSACTION_STATUSES),
    TransactionMutability: closedEnum(['Mutable', 'Immutable']),
    BookingDateTime: dateTime,
    ValueDateTime: dateTime,
    TransactionInformation: text(1, 500),
    AddressLine: text(1, 70),
    Amount: amountAndCurrency,
    ChargeAmount: amountAndCurrency,
    CurrencyExchange: {
      type: 'object',
      required: ['SourceCurrency', 'ExchangeRate'],
      properties: {
        SourceCurrency: currency,
        TargetCurrency: currency,
        UnitCurrency: currency,
        ExchangeRate: { type: 'number' },
        ContractIdentification: text(1, 35),
        QuotationDate: dateTime,
        InstructedAmount: amountAndCurrency,
      },
    },
    BankTransactionCode: {
      type: 'object',
      required: ['Code', 'SubCode'],
      properties: { Code: { type: 'string' }, SubCode: { type: 'string' } },
    },
    ProprietaryBankTransactionCode: {
      type: 'object',
      required: ['Code'],
      properties: { Code: text(1, 35), Issuer: text(1, 35) },
      additionalProperties: false,
    },
    Balance: {
      type: 'object',
      required: ['CreditDebitIndicator', 'Type', 'Amount'],
      properties: {
        CreditDebitIndicator: closedEnum(CREDIT_DEBIT),
        Type: closedEnum(BALANCE_TYPES),
        Amount: amountAndCurrency,
      },
      additionalProperties: false,
    },
    MerchantDetails: {
      type: 'object',
      properties: { MerchantName: text(1, 350), MerchantCategoryCode: text(3, 4) },
    },
    CreditorAgent: agent,
    CreditorAccount: { type: 'object', properties: cashAccount.properties },
    DebtorAgent: agent,
    DebtorAccount: { type: 'object', properties: cashAccount.properties },
    CardInstrument: {
      type: 'object',
      required: ['CardSchemeName'],
      properties: {
        CardSchemeName: closedEnum(['AmericanExpress', 'Diners', 'Discover', 'MasterCard', 'VISA']),
        AuthorisationType: closedEnum(['ConsumerDevice', 'Contactless', 'None', 'PIN']),
        Name: text(1, 70),
        Identification: text(1, 34),
      },
      additionalProperties: false,
    },
    SupplementaryData: supplementaryData,
  },
  additionalProperties: false,
} as const;

export const OBReadTransaction6 = responseEnvelope({
  type: 'object',
  properties: { Transaction: { type: 'array', items: transaction } },
  additionalProperties: false,
});

/** `OBBeneficiaryType1Code`. */
export const BENEFICIARY_TYPES = ['Ordinary', 'Trusted'] as const;

/**
 * `OBReadBeneficiary5`: an account's beneficiaries (GET /accounts/{AccountId}/beneficiaries). The
 * official file requires no member of a beneficiary; `CreditorAccount` comes with
 * ReadBeneficiariesDetail (`OBBeneficiary5Detail`), a permission rule rather than a shape.
 */
export const OBReadBeneficiary5 = responseEnvelope({
  type: 'object',
  properties: {
    Beneficiary: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          AccountId: accountId,
          BeneficiaryId: text(1, 40),
          BeneficiaryType: closedEnum(BENEFICIARY_TYPES),
          Reference: text(1, 35),
          SupplementaryData: supplementaryData,
          CreditorAgent: agent,
          CreditorAccount: cashAccount,
        },
        additionalProperties: false,
      },
    },
  },
});
