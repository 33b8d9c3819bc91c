/** Every obie schema by name (see ../validate.ts for the compiled validators). */
import { OBReadAccount6, OBReadBalance1, OBReadConsent1, OBReadConsentResponse1, OBReadTransaction6 } from './account-info.ts';
import { OBFundsConfirmation1, OBFundsConfirmationConsent1, OBFundsConfirmationConsentResponse1, OBFundsConfirmationResponse1 } from './funds-confirmation.ts';
import { OBWriteDomesticConsent4, OBWriteDomesticConsentResponse5, PaymentStatusResponse } from './payment-initiation.ts';
import { OBErrorResponse1 } from './error.ts';

/** The name of a request or response body of docs/wire.md. */
export type SchemaName =
  | 'OBReadConsent1' | 'OBReadConsentResponse1' | 'OBReadAccount6' | 'OBReadBalance1' | 'OBReadTransaction6'
  | 'OBFundsConfirmationConsent1' | 'OBFundsConfirmationConsentResponse1' | 'OBFundsConfirmation1'
  | 'OBFundsConfirmationResponse1' | 'OBWriteDomesticConsent4' | 'OBWriteDomesticConsentResponse5'
  | 'PaymentStatusResponse' | 'OBErrorResponse1';

export const SCHEMAS = {
  OBReadConsent1,
  OBReadConsentResponse1,
  OBReadAccount6,
  OBReadBalance1,
  OBReadTransaction6,
  OBFundsConfirmationConsent1,
  OBFundsConfirmationConsentResponse1,
  OBFundsConfirmation1,
  OBFundsConfirmationResponse1,
  OBWriteDomesticConsent4,
  OBWriteDomesticConsentResponse5,
  PaymentStatusResponse,
  OBErrorResponse1,
} as const satisfies Record<SchemaName, object>;

export const SCHEMA_NAMES = Object.keys(SCHEMAS) as SchemaName[];
