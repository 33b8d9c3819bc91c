/** Every obie schema by name, at both levels (see ../validate.ts for the compiled validators). */
import { OBReadAccount6, OBReadBalance1, OBReadBeneficiary5, OBReadConsent1, OBReadConsentResponse1, OBReadTransaction6 } from './account-info.ts';
import { OBFundsConfirmation1, OBFundsConfirmationConsent1, OBFundsConfirmationConsentResponse1, OBFundsConfirmationResponse1 } from './funds-confirmation.ts';
import {
  OBWriteDomesticConsent4, OBWriteDomesticConsentResponse5, PaymentStatusResponse, OBWriteDomestic2, OBWriteDomesticResponse5,
  OBWritePaymentDetailsResponse1, OBWriteFundsConfirmationResponse1,
} from './payment-initiation.ts';
import * as families from './payment-families.ts';
import { OBErrorResponse1 } from './error.ts';
import {
  OBDomesticVRPConsentRequest, OBDomesticVRPConsentResponse, OBDomesticVRPDetails, OBDomesticVRPRequest, OBDomesticVRPResponse,
  OBVRPFundsConfirmationRequest, OBVRPFundsConfirmationResponse,
} from './vrp.ts';
import { File, OBReadDirectDebit2, OBReadOffer1, OBReadParty2, OBReadParty3, OBReadProduct2, OBReadScheduledPayment3, OBReadStandingOrder6, OBReadStatement2 } from './account-info-uk.ts';
import { bothLevels } from './common.ts';
import type { Levels } from './common.ts';

export type { Levels } from './common.ts';
export { SHOULD_SOURCE_KEYWORD, SHOULD_SOURCES } from './common.ts';

/** The name of a request or response body of docs/wire.md. */
export type SchemaName =
  | 'OBReadConsent1' | 'OBReadConsentResponse1' | 'OBReadAccount6' | 'OBReadBalance1' | 'OBReadTransaction6' | 'OBReadBeneficiary5'
  | 'OBFundsConfirmationConsent1' | 'OBFundsConfirmationConsentResponse1' | 'OBFundsConfirmation1'
  | 'OBFundsConfirmationResponse1' | 'OBWriteDomesticConsent4' | 'OBWriteDomesticConsentResponse5'
  | 'PaymentStatusResponse' | 'OBErrorResponse1'
  | 'OBWriteDomestic2' | 'OBWriteDomesticResponse5' | 'OBWritePaymentDetailsResponse1' | 'OBWriteFundsConfirmationResponse1'
  | 'OBDomesticVRPConsentRequest' | 'OBDomesticVRPConsentResponse' | 'OBDomesticVRPRequest' | 'OBDomesticVRPResponse'
  | 'OBDomesticVRPDetails' | 'OBVRPFundsConfirmationRequest' | 'OBVRPFundsConfirmationResponse'
  | 'OBReadDirectDebit2' | 'OBReadStandingOrder6' | 'OBReadScheduledPayment3' | 'OBReadOffer1' | 'OBReadParty2' | 'OBReadParty3'
  | 'OBReadProduct2' | 'OBReadStatement2' | 'File'
  | PaymentFamilySchemaName;

/** The schemas of the payment families beyond the domestic payment (UK Read/Write v3.1.11 only). */
export type PaymentFamilySchemaName =
  | 'OBWriteDomesticScheduledConsent4'
  | 'OBWriteDomesticStandingOrderConsent5'
  | 'OBWriteInternationalConsent5'
  | 'OBWriteInternationalScheduledConsent5'
  | 'OBWriteInternationalStandingOrderConsent6'
  | 'OBWriteFileConsent3'
  | 'OBWriteDomesticScheduled2'
  | 'OBWriteDomesticStandingOrder3'
  | 'OBWriteInternational3'
  | 'OBWriteInternationalScheduled3'
  | 'OBWriteInternationalStandingOrder4'
  | 'OBWriteFile2'
  | 'OBWriteDomesticScheduledConsentResponse5'
  | 'OBWriteDomesticStandingOrderConsentResponse6'
  | 'OBWriteInternationalConsentResponse6'
  | 'OBWriteInternationalScheduledConsentResponse6'
  | 'OBWriteInternationalStandingOrderConsentResponse7'
  | 'OBWriteFileConsentResponse4'
  | 'OBWriteDomesticScheduledResponse5'
  | 'OBWriteDomesticStandingOrderResponse6'
  | 'OBWriteInternationalResponse5'
  | 'OBWriteInternationalScheduledResponse6'
  | 'OBWriteInternationalStandingOrderResponse7'
  | 'OBWriteFileResponse3';

/**
 * Both levels of every schema. Request bodies the harness sends are the same at both levels: they
 * follow the official file exactly (test/dialects/obie-crosscheck.test.ts).
 */
export const SCHEMA_LEVELS: Readonly<Record<SchemaName, Levels>> = {
  OBReadConsent1: bothLevels(OBReadConsent1),
  OBReadConsentResponse1,
  OBReadAccount6,
  OBReadBalance1,
  OBReadTransaction6,
  OBReadBeneficiary5,
  OBFundsConfirmationConsent1: bothLevels(OBFundsConfirmationConsent1),
  OBFundsConfirmationConsentResponse1,
  OBFundsConfirmation1: bothLevels(OBFundsConfirmation1),
  OBFundsConfirmationResponse1,
  OBWriteDomesticConsent4: bothLevels(OBWriteDomesticConsent4),
  OBWriteDomesticConsentResponse5,
  PaymentStatusResponse,
  OBErrorResponse1,
  OBWriteDomestic2: bothLevels(OBWriteDomestic2),
  OBWriteDomesticResponse5,
  OBWritePaymentDetailsResponse1,
  OBWriteFundsConfirmationResponse1,
  OBDomesticVRPConsentRequest,
  OBDomesticVRPConsentResponse,
  OBDomesticVRPRequest,
  OBDomesticVRPResponse,
  OBDomesticVRPDetails,
  OBVRPFundsConfirmationRequest,
  OBVRPFundsConfirmationResponse,
  OBReadDirectDebit2,
  OBReadStandingOrder6,
  OBReadScheduledPayment3,
  OBReadOffer1,
  OBReadParty2,
  OBReadParty3,
  OBReadProduct2,
  OBReadStatement2,
  File,
  OBWriteDomesticScheduledConsent4: bothLevels(families.OBWriteDomesticScheduledConsent4),
  OBWriteDomesticStandingOrderConsent5: bothLevels(families.OBWriteDomesticStandingOrderConsent5),
  OBWriteInternationalConsent5: bothLevels(families.OBWriteInternationalConsent5),
  OBWriteInternationalScheduledConsent5: bothLevels(families.OBWriteInternationalScheduledConsent5),
  OBWriteInternationalStandingOrderConsent6: bothLevels(families.OBWriteInternationalStandingOrderConsent6),
  OBWriteFileConsent3: bothLevels(families.OBWriteFileConsent3),
  OBWriteDomesticScheduled2: bothLevels(families.OBWriteDomesticScheduled2),
  OBWriteDomesticStandingOrder3: bothLevels(families.OBWriteDomesticStandingOrder3),
  OBWriteInternational3: bothLevels(families.OBWriteInternational3),
  OBWriteInternationalScheduled3: bothLevels(families.OBWriteInternationalScheduled3),
  OBWriteInternationalStandingOrder4: bothLevels(families.OBWriteInternationalStandingOrder4),
  OBWriteFile2: bothLevels(families.OBWriteFile2),
  OBWriteDomesticScheduledConsentResponse5: families.OBWriteDomesticScheduledConsentResponse5,
  OBWriteDomesticStandingOrderConsentResponse6: families.OBWriteDomesticStandingOrderConsentResponse6,
  OBWriteInternationalConsentResponse6: families.OBWriteInternationalConsentResponse6,
  OBWriteInternationalScheduledConsentResponse6: families.OBWriteInternationalScheduledConsentResponse6,
  OBWriteInternationalStandingOrderConsentResponse7: families.OBWriteInternationalStandingOrderConsentResponse7,
  OBWriteFileConsentResponse4: families.OBWriteFileConsentResponse4,
  OBWriteDomesticScheduledResponse5: families.OBWriteDomesticScheduledResponse5,
  OBWriteDomesticStandingOrderResponse6: families.OBWriteDomesticStandingOrderResponse6,
  OBWriteInternationalResponse5: families.OBWriteInternationalResponse5,
  OBWriteInternationalScheduledResponse6: families.OBWriteInternationalScheduledResponse6,
  OBWriteInternationalStandingOrderResponse7: families.OBWriteInternationalStandingOrderResponse7,
  OBWriteFileResponse3: families.OBWriteFileResponse3,
};

export const SCHEMA_NAMES = Object.keys(SCHEMA_LEVELS) as SchemaName[];

function levelOf(level: keyof Levels): Readonly<Record<SchemaName, object>> {
  return Object.fromEntries(SCHEMA_NAMES.map((n) => [n, SCHEMA_LEVELS[n][level]])) as Record<SchemaName, object>;
}

/** The strict schemas (official + prose + good practice): what the harness itself sends and advises. */
export const SCHEMAS = levelOf('strict');
/** The official-level schemas: what the UK Open Banking v3.1.11 OpenAPI files demand. */
export const OFFICIAL_SCHEMAS = levelOf('official');

/**
 * Where each schema's MUST level comes from. PaymentStatusResponse answers the spec's own
 * `/status` endpoint, which the standard does not have: docs/wire.md defines it.
 */
export const MUST_SOURCES: Readonly<Record<SchemaName, string>> = Object.fromEntries(
  SCHEMA_NAMES.map((n) => [n, n === 'PaymentStatusResponse' ? 'obtpp docs/wire.md: PaymentStatusResponse' : `OBIE v3.1.11 schema ${n}`]),
) as Record<SchemaName, string>;
