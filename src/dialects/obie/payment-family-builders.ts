/**
 * Request bodies of the payment families of UK Read/Write v3.1.11 beyond the domestic payment
 * (domestic scheduled, domestic standing order, international, international scheduled,
 * international standing order, file), the payment file a file payment uploads, and the order of
 * any family. Optional members are left out, never sent as `{}` (FACTS §1.2); key order as the
 * standard writes it.
 */
import { createHash } from 'node:crypto';
import { FREQUENCY_PATTERN } from './schemas/payment-families.ts';

export { FREQUENCY_PATTERN, RATE_TYPES, INITIATION_STATUSES, FILE_CONSENT_STATUSES, FILE_PAYMENT_STATUSES } from './schemas/payment-families.ts';

/** The payment families of the standard, the domestic payment included. */
export const PAYMENT_FAMILIES = [
  'domestic', 'domestic-scheduled', 'domestic-standing-order', 'international', 'international-scheduled', 'international-standing-order', 'file',
] as const;
export type PaymentFamily = (typeof PAYMENT_FAMILIES)[number];

/** Where each family's order names itself (`Data.DomesticScheduledPaymentId`, …). */
export const ORDER_ID_FIELDS: Readonly<Record<PaymentFamily, string>> = {
  domestic: 'DomesticPaymentId',
  'domestic-scheduled': 'DomesticScheduledPaymentId',
  'domestic-standing-order': 'DomesticStandingOrderId',
  international: 'InternationalPaymentId',
  'international-scheduled': 'InternationalScheduledPaymentId',
  'international-standing-order': 'InternationalStandingOrderId',
  file: 'FilePaymentId',
};

/** The order's id in its family's field, when a non-empty string. */
export function familyOrderIdOf(family: PaymentFamily, body: unknown): string | undefined {
  const id = (body as { Data?: Record<string, unknown> } | undefined)?.Data?.[ORDER_ID_FIELDS[family]];
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/** Whether a standing order's Frequency follows the standard's grammar. */
export function isFrequency(value: unknown): boolean {
  return typeof value === 'string' && new RegExp(FREQUENCY_PATTERN).test(value);
}

/** The UK Read/Write versions whose bodies these builders write. */
type Version = 'v3.1' | 'v4.0';

/** v3.1.11's `{ Reference }`, or v4.0's `OBRemittanceInformation2` with the reference where the FCS suite's v4.0 payloads put it (FACTS-v4 §4.1). */
const reference = (version: Version | undefined, v: string): Wire => ({
  RemittanceInformation: version === 'v4.0' ? { Structured: [{ CreditorReferenceInformation: { Reference: v } }] } : { Reference: v },
});

interface Account { schemeName: string; identification: string; name?: string; secondaryIdentification?: string }
type Wire = Record<string, unknown>;

function account(a: Account): Wire {
  return {
    SchemeName: a.schemeName, Identification: a.identification,
    ...(a.name !== undefined ? { Name: a.name } : {}),
    ...(a.secondaryIdentification !== undefined ? { SecondaryIdentification: a.secondaryIdentification } : {}),
  };
}

const money = (amount: string, currency: string) => ({ Amount: amount, Currency: currency });
const when = <T>(value: T | undefined, wire: (v: T) => Wire): Wire => (value === undefined ? {} : wire(value));

/** What every single payment's consent names: who is paid what, from where. */
export interface SinglePayment {
  instructionIdentification: string;
  endToEndIdentification: string;
  amount: string;
  currency: string;
  creditor: Account & { name: string };
  debtor?: Account;
  reference?: string;
  localInstrument?: string;
  risk?: Record<string, unknown>;
  /** The UK Read/Write version whose body to build (v4.0: the reference in structured remittance); default v3.1.11. */
  version?: Version;
  /** v4.0 only (FACTS-v4 §4.1): the party finally paid, the one finally paying, and the regulatory reports (at most ten). */
  ultimateCreditor?: UltimateParty;
  ultimateDebtor?: UltimateParty;
  regulatoryReporting?: ReadonlyArray<{ indicator: 'CRED' | 'DEBT' | 'BOTH'; authority?: { name?: string; countryCode?: string } }>;
}

/** `OBUltimateCreditor1` / `OBUltimateDebtor1` (v4.0): nothing required. */
export interface UltimateParty { name?: string; identification?: string; schemeName?: string; lei?: string }

function ultimateParty(p: UltimateParty): Wire {
  return {
    ...when(p.name, (v) => ({ Name: v })), ...when(p.identification, (v) => ({ Identification: v })),
    ...when(p.lei, (v) => ({ LEI: v })), ...when(p.schemeName, (v) => ({ SchemeName: v })),
  };
}

/** v4.0's new members of an Initiation; asking for them of a v3.1.11 body is a caller's mistake. */
function v4Parties(o: Pick<SinglePayment, 'version' | 'ultimateCreditor' | 'ultimateDebtor' | 'regulatoryReporting'>): Wire {
  const any = o.ultimateCreditor || o.ultimateDebtor || o.regulatoryReporting;
  if (!any) return {};
  if (o.version !== 'v4.0') throw new TypeError('UltimateCreditor, UltimateDebtor and RegulatoryReporting are UK Read/Write v4.0 members (version: v4.0)');
  if (o.regulatoryReporting && o.regulatoryReporting.length > 10) throw new TypeError('RegulatoryReporting holds at most 10 reports');
  return {
    ...when(o.ultimateCreditor, (v) => ({ UltimateCreditor: ultimateParty(v) })),
    ...when(o.ultimateDebtor, (v) => ({ UltimateDebtor: ultimateParty(v) })),
    ...when(o.regulatoryReporting, (v) => ({
      RegulatoryReporting: v.map((r) => ({
        DebitCreditReportingIndicator: r.indicator,
        ...when(r.authority, (a) => ({ Authority: { ...when(a.name, (n) => ({ Name: n })), ...when(a.countryCode, (c) => ({ CountryCode: c })) } })),
      })),
    })),
  };
}

/** A payment's Risk in the version's words (OBRisk1): what the PISP knows of the payment's context. */
export interface RiskInput {
  paymentContextCode?: string;
  merchantCategoryCode?: string;
  merchantCustomerIdentification?: string;
  contractPresent?: boolean;
  beneficiaryPrepopulated?: boolean;
  paymentPurposeCode?: string;
  /** v4.0 only. */
  categoryPurposeCode?: string;
}

/** The context codes v4.0 keeps (FACTS-v4 §3.4): v3.1.11's PispPayee, BillPayment, Ecommerce…, Other and PartyToParty are gone. */
export const V4_PAYMENT_CONTEXT_CODES = [
  'BillingGoodsAndServicesInAdvance', 'BillingGoodsAndServicesInArrears', 'EcommerceMerchantInitiatedPayment', 'FaceToFacePointOfSale', 'TransferToSelf', 'TransferToThirdParty',
] as const;

/**
 * `Risk` in the version's spelling: v3.1.11 misspells the contract flag `ContractPresentInidicator`
 * (its schema's own name), v4.0 spells it `ContractPresentIndicator` and closes the object, so the
 * old spelling fails there (FACTS-v4 §4.1). A code or member the version lacks is refused here.
 */
export function buildRisk(version: Version | undefined, r: RiskInput): Record<string, unknown> {
  const v4 = version === 'v4.0';
  if (v4 && r.paymentContextCode !== undefined && !(V4_PAYMENT_CONTEXT_CODES as readonly string[]).includes(r.paymentContextCode)) {
    throw new TypeError(`PaymentContextCode ${r.paymentContextCode} is not a UK Read/Write v4.0 code (${V4_PAYMENT_CONTEXT_CODES.join(', ')})`);
  }
  if (!v4 && r.categoryPurposeCode !== undefined) throw new TypeError('CategoryPurposeCode is a UK Read/Write v4.0 member of Risk');
  return {
    ...when(r.paymentContextCode, (v) => ({ PaymentContextCode: v })),
    ...when(r.merchantCategoryCode, (v) => ({ MerchantCategoryCode: v })),
    ...when(r.merchantCustomerIdentification, (v) => ({ MerchantCustomerIdentification: v })),
    ...when(r.contractPresent, (v) => (v4 ? { ContractPresentIndicator: v } : { ContractPresentInidicator: v })),
    ...when(r.beneficiaryPrepopulated, (v) => ({ BeneficiaryPrepopulatedIndicator: v })),
    ...when(r.paymentPurposeCode, (v) => ({ PaymentPurposeCode: v })),
    ...when(r.categoryPurposeCode, (v) => ({ CategoryPurposeCode: v })),
  };
}

/** The exchange rate the PISP asks for: Agreed names its rate and contract, Actual and Indicative leave the rate to the bank. */
export interface ExchangeRateRequest {
  unitCurrency: string;
  rateType: 'Actual' | 'Agreed' | 'Indicative';
  exchangeRate?: number;
  contractIdentification?: string;
}

export interface InternationalPayment extends SinglePayment {
  currencyOfTransfer: string;
  exchangeRate?: ExchangeRateRequest;
  chargeBearer?: 'BorneByCreditor' | 'BorneByDebtor' | 'FollowingServiceLevel' | 'Shared';
  destinationCountryCode?: string;
}

function exchangeRate(x: ExchangeRateRequest): Wire {
  return {
    ExchangeRateInformation: {
      UnitCurrency: x.unitCurrency,
      ...when(x.exchangeRate, (v) => ({ ExchangeRate: v })),
      RateType: x.rateType,
      ...when(x.contractIdentification, (v) => ({ ContractIdentification: v })),
    },
  };
}

function single(o: SinglePayment, extra: { requestedExecutionDateTime?: string } = {}): Wire {
  return {
    InstructionIdentification: o.instructionIdentification,
    EndToEndIdentification: o.endToEndIdentification,
    ...when(o.localInstrument, (v) => ({ LocalInstrument: v })),
    ...when(extra.requestedExecutionDateTime, (v) => ({ RequestedExecutionDateTime: v })),
    InstructedAmount: money(o.amount, o.currency),
    ...when(o.debtor, (v) => ({ DebtorAccount: account(v) })),
    CreditorAccount: account(o.creditor),
    ...when(o.reference, (v) => reference(o.version, v)),
    ...v4Parties(o),
  };
}

function international(o: InternationalPayment, requestedExecutionDateTime?: string): Wire {
  return {
    InstructionIdentification: o.instructionIdentification,
    EndToEndIdentification: o.endToEndIdentification,
    ...when(o.localInstrument, (v) => ({ LocalInstrument: v })),
    ...when(o.chargeBearer, (v) => ({ ChargeBearer: v })),
    ...when(requestedExecutionDateTime, (v) => ({ RequestedExecutionDateTime: v })),
    CurrencyOfTransfer: o.currencyOfTransfer,
    ...when(o.destinationCountryCode, (v) => ({ DestinationCountryCode: v })),
    InstructedAmount: money(o.amount, o.currency),
    ...when(o.exchangeRate, exchangeRate),
    ...when(o.debtor, (v) => ({ DebtorAccount: account(v) })),
    CreditorAccount: account(o.creditor),
    ...when(o.reference, (v) => reference(o.version, v)),
    ...v4Parties(o),
  };
}

/** A consent body: Data (with Permission "Create" where the family's schema requires it), Risk where it has one. */
export interface FamilyConsentBody {
  Data: { Permission?: 'Create'; Initiation: Wire };
  Risk?: Record<string, unknown>;
}

const withRisk = (data: FamilyConsentBody['Data'], risk: Record<string, unknown> | undefined): FamilyConsentBody => ({ Data: data, Risk: { ...(risk ?? {}) } });

/** POST /domestic-scheduled-payment-consents (`OBWriteDomesticScheduledConsent4`). */
export function buildDomesticScheduledConsent(o: SinglePayment & { requestedExecutionDateTime: string }): FamilyConsentBody {
  return withRisk({ Permission: 'Create', Initiation: single(o, o) }, o.risk);
}

/** The schedule of a standing order: a Frequency of the standard's grammar, a first payment, and at most one way to end. */
export interface StandingOrder {
  frequency: string;
  reference?: string;
  firstPaymentDateTime: string;
  numberOfPayments?: string;
  finalPaymentDateTime?: string;
  currency: string;
  creditor: Account & { name: string };
  debtor?: Account;
  risk?: Record<string, unknown>;
  /**
   * The UK Read/Write version whose body to build. v4.0 moved the schedule into
   * `MandateRelatedInformation` (FACTS-v4 §4.4): the Frequency an object whose Type is v4.0's code
   * or the v3.1.11 grammar, the first and final dates beside it; the plain Reference became
   * structured remittance. Default v3.1.11.
   */
  version?: Version;
}

/** The schedule's members of a standing order's Initiation, in the version's place. */
function schedule(o: StandingOrder): Wire {
  if (o.version === 'v4.0') {
    return {
      MandateRelatedInformation: {
        FirstPaymentDateTime: o.firstPaymentDateTime,
        ...when(o.finalPaymentDateTime, (v) => ({ FinalPaymentDateTime: v })),
        Frequency: { Type: o.frequency },
      },
      ...when(o.numberOfPayments, (v) => ({ NumberOfPayments: v })),
    };
  }
  return {
    Frequency: o.frequency,
    ...when(o.reference, (v) => ({ Reference: v })),
    ...when(o.numberOfPayments, (v) => ({ NumberOfPayments: v })),
    FirstPaymentDateTime: o.firstPaymentDateTime,
    ...when(o.finalPaymentDateTime, (v) => ({ FinalPaymentDateTime: v })),
  };
}

/** POST /domestic-standing-order-consents (`OBWriteDomesticStandingOrderConsent5`). */
export function buildDomesticStandingOrderConsent(o: StandingOrder & { firstAmount: string; recurringAmount?: string; finalAmount?: string }): FamilyConsentBody {
  return withRisk({
    Permission: 'Create',
    Initiation: {
      ...schedule(o),
      FirstPaymentAmount: money(o.firstAmount, o.currency),
      ...when(o.recurringAmount, (v) => ({ RecurringPaymentAmount: money(v, o.currency) })),
      ...when(o.finalAmount, (v) => ({ FinalPaymentAmount: money(v, o.currency) })),
      ...when(o.debtor, (v) => ({ DebtorAccount: account(v) })),
      CreditorAccount: account(o.creditor),
      ...(o.version === 'v4.0' ? when(o.reference, (v) => reference(o.version, v)) : {}),
    },
  }, o.risk);
}

/** POST /international-payment-consents (`OBWriteInternationalConsent5`: no Permission). */
export function buildInternationalConsent(o: InternationalPayment): FamilyConsentBody {
  return withRisk({ Initiation: international(o) }, o.risk);
}

/** POST /international-scheduled-payment-consents (`OBWriteInternationalScheduledConsent5`). */
export function buildInternationalScheduledConsent(o: InternationalPayment & { requestedExecutionDateTime: string }): FamilyConsentBody {
  return withRisk({ Permission: 'Create', Initiation: international(o, o.requestedExecutionDateTime) }, o.risk);
}

/** POST /international-standing-order-consents (`OBWriteInternationalStandingOrderConsent6`). */
export function buildInternationalStandingOrderConsent(o: StandingOrder & { amount: string; currencyOfTransfer: string; chargeBearer?: InternationalPayment['chargeBearer'] }): FamilyConsentBody {
  return withRisk({
    Permission: 'Create',
    Initiation: {
      ...schedule(o),
      ...when(o.chargeBearer, (v) => ({ ChargeBearer: v })),
      CurrencyOfTransfer: o.currencyOfTransfer,
      InstructedAmount: money(o.amount, o.currency),
      ...when(o.debtor, (v) => ({ DebtorAccount: account(v) })),
      CreditorAccount: account(o.creditor),
      ...(o.version === 'v4.0' ? when(o.reference, (v) => reference(o.version, v)) : {}),
    },
  }, o.risk);
}

/** The file type of the standard's own JSON payment file (a list of domestic payment initiations). */
export const JSON_PAYMENT_FILE_TYPE = 'UK.OBIE.PaymentInitiation.3.1';
/** Its v4.0 name (FACTS-v4 §3.4). */
export const JSON_PAYMENT_FILE_TYPE_V4 = 'UK.OBIE.PaymentInitiation.4.0';

/** A payment file and what its consent declares about it. */
export interface PaymentFile {
  fileType: string;
  /** The file's bytes, exactly as uploaded. */
  text: string;
  /** base64 of the SHA-256 of the file (the standard's FileHash). */
  fileHash: string;
  numberOfTransactions: string;
  /** The total of every amount, whatever its currency (the standard's ControlSum). */
  controlSum: number;
}

/** base64 of the SHA-256 of a file's bytes: the standard's FileHash. */
export function fileHashOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** Sums decimal amounts (up to 5 decimals, as the standard writes them) without binary rounding. */
export function controlSumOf(amounts: readonly string[]): number {
  const scaled = amounts.reduce((sum, a) => sum + BigInt(Math.round(Number(a) * 100_000)), 0n);
  return Number(scaled) / 100_000;
}

/** A JSON payment file of domestic payments, with its FileHash, NumberOfTransactions and ControlSum. */
export function buildPaymentFile(payments: ReadonlyArray<Omit<SinglePayment, 'risk' | 'debtor'>>, version?: Version): PaymentFile {
  const text = JSON.stringify({ Data: { DomesticPayments: payments.map((p) => single({ ...p, version })) } });
  return {
    fileType: version === 'v4.0' ? JSON_PAYMENT_FILE_TYPE_V4 : JSON_PAYMENT_FILE_TYPE,
    text,
    fileHash: fileHashOf(text),
    numberOfTransactions: String(payments.length),
    controlSum: controlSumOf(payments.map((p) => p.amount)),
  };
}

/** POST /file-payment-consents (`OBWriteFileConsent3`: no Risk). */
export function buildFileConsent(o: { file: PaymentFile; fileReference?: string; requestedExecutionDateTime?: string; debtor?: Account }): FamilyConsentBody {
  return {
    Data: {
      Initiation: {
        FileType: o.file.fileType,
        FileHash: o.file.fileHash,
        ...when(o.fileReference, (v) => ({ FileReference: v })),
        NumberOfTransactions: o.file.numberOfTransactions,
        ControlSum: o.file.controlSum,
        ...when(o.requestedExecutionDateTime, (v) => ({ RequestedExecutionDateTime: v })),
        ...when(o.debtor, (v) => ({ DebtorAccount: account(v) })),
      },
    },
  };
}

/** The order of any family: its ConsentId, and the consent's Initiation and Risk (where it has one) unchanged. */
export function buildFamilyOrder(consentId: string, consent: FamilyConsentBody): { Data: { ConsentId: string; Initiation: Wire }; Risk?: Record<string, unknown> } {
  return {
    Data: { ConsentId: consentId, Initiation: structuredClone(consent.Data.Initiation) },
    ...(consent.Risk !== undefined ? { Risk: structuredClone(consent.Risk) } : {}),
  };
}
