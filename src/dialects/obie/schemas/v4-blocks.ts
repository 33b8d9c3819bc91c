/**
 * UK Read/Write v4.0's shared building blocks, member for member, written from the v4.0 files
 * (FACTS-v4 §3.6, §4.1) and cross-checked against them by test/dialects/obie-v4-crosscheck.test.ts.
 *
 * The three files that carry them (account-info, payment-initiation, vrp) do not spell them
 * alike: an address is closed in the payment files and open in account-info, an LEI has one
 * pattern in account-info, another in payment-initiation and none in vrp, a referred document's
 * Issuer is 140 characters in account-info and 35 elsewhere, vrp lists 23 document types where
 * payment-initiation lists 16. Each block is therefore made for one file (`V4File`), so that a
 * schema judges exactly what its own file demands.
 *
 * Only the two external ISO purpose lists (ExternalPurpose1Code, 328 values; ExternalCategory-
 * Purpose1Code, 44) are not restated: they are judged by their length, as the file gives it.
 */
import { amountValue, closedEnum, country, currency, dateTime, text } from './common.ts';

type Json = Record<string, any>;

/** The v4.0 file a block is made for. */
export type V4File = 'account-info' | 'payment-initiation' | 'vrp';

export const ADDRESS_TYPES = ['BIZZ', 'CORR', 'DLVY', 'MLTO', 'PBOX', 'ADDR', 'HOME', 'STAT'] as const;
export const PROXY_CODES = ['TELE', 'EMAL', 'DNAM', 'CINC', 'COTX', 'COID', 'CUST', 'DRLC', 'EIDN', 'EWAL', 'PVTX', 'LEIC', 'MBNO', 'NIDN', 'CCPT', 'SHID', 'SOSE', 'TOKN', 'UBIL', 'VIPN', 'BIID'] as const;
export const PAYMENT_CONTEXT_CODES = [
  'BillingGoodsAndServicesInAdvance', 'BillingGoodsAndServicesInArrears', 'EcommerceMerchantInitiatedPayment', 'FaceToFacePointOfSale',
  'TransferToSelf', 'TransferToThirdParty',
] as const;
/** `ExternalCreditorReferenceType1Code`. */
export const CREDITOR_REFERENCE_CODES = ['DISP', 'FXDR', 'PUOR', 'RPIN', 'RADM', 'SCOR'] as const;
/** `ExternalDocumentType1Code` as account-info and payment-initiation list it (16 values). */
const DOCUMENT_TYPES = ['CINV', 'CNFA', 'CONT', 'CREN', 'DEBN', 'DISP', 'DNFA', 'HIRI', 'INVS', 'MSIN', 'PROF', 'PUOR', 'QUOT', 'SBIN', 'SPRR', 'TISH'] as const;
/** vrp's list: seven more. */
const VRP_DOCUMENT_TYPES = [...DOCUMENT_TYPES, 'USAR', 'AROI', 'BOLD', 'CMCN', 'SOAC', 'TSUT', 'VCHR'] as const;
/** `OBInternalExtendedAccountType1Code`: Risk.BeneficiaryAccountType. */
export const EXTENDED_ACCOUNT_TYPES = [
  'Business', 'BusinessSavingsAccount', 'Charity', 'Collection', 'Corporate', 'Ewallet', 'Government', 'Investment', 'ISA', 'JointPersonal',
  'Pension', 'Personal', 'PersonalSavingsAccount', 'Premier', 'Wealth',
] as const;

/** `OBStatusReason`: every member optional. */
export const statusReason = {
  type: 'array',
  items: { type: 'object', properties: { StatusReasonCode: text(1, 4), StatusReasonDescription: text(1, 500), Path: text(1, 500) } },
} as const;

/** `OBProxy1`: an alternate name of an account (open in every file). */
export const proxy = { type: 'object', required: ['Identification', 'Code'], properties: { Identification: text(1, 2048), Code: closedEnum(PROXY_CODES), Type: text(1, 35) } } as const;

/** `OBPostalAddress7`: no member required; longer street and town, eight new members, ISO address types. */
export function postalAddress7(closed: boolean): Json {
  return {
    type: 'object',
    properties: {
      AddressType: closedEnum(ADDRESS_TYPES),
      Department: text(1, 70), SubDepartment: text(1, 70),
      StreetName: text(1, 140), BuildingNumber: text(1, 16), BuildingName: text(1, 140), Floor: text(1, 70), UnitNumber: text(1, 16),
      Room: text(1, 70), PostBox: text(1, 16), TownLocationName: text(1, 140), DistrictName: text(1, 140), CareOf: text(1, 140),
      PostCode: text(1, 16), TownName: text(1, 140), CountrySubDivision: text(1, 35), Country: country,
      AddressLine: { type: 'array', items: text(1, 70), minItems: 0, maxItems: 7 },
    },
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/** The address of a file: closed in the payment files, open in account-info. */
export const address = (file: V4File): Json => postalAddress7(file !== 'account-info');

/** `LEI`: account-info anchors its pattern; payment-initiation's differs and has no `$` (FACTS-v4 §8); vrp's has none. */
export function lei(file: V4File): Json {
  if (file === 'vrp') return text(1, 20);
  const pattern = file === 'account-info' ? '^[A-Z0-9]{18,18}[0-9]{2,2}$' : '^[0-9]{4}[0]{2}[A-Z0-9]{12}[0-9]{2}';
  return { type: 'string', minLength: 1, maxLength: 20, pattern };
}

/** `OBRemittanceInformation2`: Unstructured an array, the old Reference in Structured[].CreditorReferenceInformation. */
export function remittance(file: V4File): Json {
  // vrp's invoicer and invoicee have a maximum length only.
  const party = file === 'vrp' ? { type: 'string', maxLength: 256 } : text(1, 256);
  return {
    type: 'object',
    properties: {
      Structured: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            ReferredDocumentInformation: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  Code: { ...closedEnum(file === 'vrp' ? VRP_DOCUMENT_TYPES : DOCUMENT_TYPES), minLength: 1, maxLength: 4 },
                  Issuer: text(1, file === 'account-info' ? 140 : 35),
                  Number: text(1, 35),
                  RelatedDate: dateTime,
                  LineDetails: { type: 'array', items: { type: 'string' } },
                },
              },
            },
            // An int32 in every file, not an amount object (FACTS-v4 §8).
            ReferredDocumentAmount: { type: 'integer', format: 'int32' },
            CreditorReferenceInformation: {
              type: 'object',
              properties: { Code: { ...closedEnum(CREDITOR_REFERENCE_CODES), minLength: 1, maxLength: 4 }, Issuer: text(1, 35), Reference: text(1, 35) },
            },
            Invoicer: party,
            Invoicee: party,
            TaxRemittance: text(1, 140),
            AdditionalRemittanceInformation: { type: 'array', items: text(1, 140), maxItems: 3 },
          },
        },
      },
      Unstructured: { type: 'array', items: text(1, 140) },
    },
  };
}

/** `OBUltimateCreditor1` / `OBUltimateDebtor1`: nothing required; SchemeName an external namespaced list. */
export function ultimateParty(file: V4File): Json {
  return {
    type: 'object',
    properties: {
      Name: text(1, 140), Identification: text(1, 256), LEI: lei(file), SchemeName: { type: 'string' }, PostalAddress: address(file),
    },
  };
}

/**
 * `OBRegulatoryReporting1`, at most ten. Its Details' amount is closed in payment-initiation,
 * open in vrp, whose currency also states a length of three.
 */
export function regulatoryReporting(file: Exclude<V4File, 'account-info'>): Json {
  return {
    type: 'array',
    maxItems: 10,
    items: {
      type: 'object',
      properties: {
        DebitCreditReportingIndicator: closedEnum(['CRED', 'DEBT', 'BOTH']),
        Authority: { type: 'object', properties: { Name: text(1, 140), CountryCode: country } },
        Details: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              Type: text(1, 35),
              Date: dateTime,
              Country: country,
              Amount: {
                type: 'object',
                required: ['Amount', 'Currency'],
                properties: { Amount: amountValue, Currency: file === 'vrp' ? { ...currency, minLength: 3, maxLength: 3 } : currency },
                ...(file === 'vrp' ? {} : { additionalProperties: false }),
              },
              Information: { type: 'array', items: text(1, 35) },
            },
          },
        },
      },
    },
  };
}

/** `OBRisk1` of PIS and VRP v4.0: closed, ContractPresentIndicator spelt right at last, the beneficiary's account type. */
export const risk = {
  type: 'object',
  properties: {
    PaymentContextCode: closedEnum(PAYMENT_CONTEXT_CODES),
    MerchantCategoryCode: text(3, 4),
    MerchantCustomerIdentification: text(1, 70),
    ContractPresentIndicator: { type: 'boolean' },
    BeneficiaryPrepopulatedIndicator: { type: 'boolean' },
    // An external ISO list (ExternalPurpose1Code, 328 values of 1..4 characters): the length only.
    PaymentPurposeCode: text(1, 4),
    // An external ISO list (ExternalCategoryPurpose1Code, 44 values) obtpp does not restate.
    CategoryPurposeCode: { type: 'string' },
    BeneficiaryAccountType: closedEnum(EXTENDED_ACCOUNT_TYPES),
    DeliveryAddress: postalAddress7(true),
  },
  additionalProperties: false,
} as const;
