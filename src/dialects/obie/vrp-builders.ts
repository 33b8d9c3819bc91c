/**
 * Request bodies of Variable Recurring Payments (UK Read/Write v3.1.11 VRP; FACTS-v4.md §6): the
 * domestic VRP consent with its control parameters, one payment under it, and the consent's funds
 * check. Key order as the standard writes it; optional members left out, never sent as {}.
 */

/** An account as the TPP names it (builders.ts's AccountRef; not imported, so that the two modules stay apart). */
interface AccountRef {
  schemeName: string;
  identification: string;
  name?: string;
  secondaryIdentification?: string;
}

/** v3.1.11's `{ Unstructured, Reference }`, or v4.0's structured remittance (FACTS-v4 §4.1, §6.1). */
export type VrpRemittance =
  | { Unstructured?: string; Reference?: string }
  | { Unstructured?: string[]; Structured?: Array<{ CreditorReferenceInformation: { Reference: string } }> };

export type VrpPeriodType = 'Day' | 'Week' | 'Fortnight' | 'Month' | 'Half-year' | 'Year';

export interface VrpLimit {
  periodType: VrpPeriodType;
  periodAlignment: 'Consent' | 'Calendar';
  amount: string;
  currency: string;
}

const account = (a: AccountRef & { name: string }) => ({
  SchemeName: a.schemeName, Identification: a.identification, Name: a.name,
  ...(a.secondaryIdentification !== undefined ? { SecondaryIdentification: a.secondaryIdentification } : {}),
});

export interface VrpConsentBody {
  Data: {
    ReadRefundAccount?: 'Yes' | 'No';
    ControlParameters: {
      ValidFromDateTime?: string;
      ValidToDateTime?: string;
      MaximumIndividualAmount: { Amount: string; Currency: string };
      PeriodicLimits: Array<{ PeriodType: VrpPeriodType; PeriodAlignment: 'Consent' | 'Calendar'; Amount: string; Currency: string }>;
      VRPType: string[];
      PSUAuthenticationMethods: string[];
      PSUInteractionTypes?: Array<'InSession' | 'OffSession'>;
    };
    Initiation: {
      DebtorAccount?: ReturnType<typeof account>;
      CreditorAccount?: ReturnType<typeof account>;
      RemittanceInformation?: VrpRemittance;
    };
  };
  Risk: Record<string, unknown>;
}

/** POST /domestic-vrp-consents (`OBDomesticVRPConsentRequest`). Sweeping, SCA on the consent, off-session payments by default. */
export function buildVrpConsent(o: {
  creditor: AccountRef & { name: string };
  debtor?: AccountRef & { name: string };
  reference?: string;
  maximumIndividualAmount: { amount: string; currency: string };
  periodicLimits: VrpLimit[];
  vrpType?: string;
  psuAuthenticationMethods?: string[];
  psuInteractionTypes?: Array<'InSession' | 'OffSession'>;
  validFrom?: string;
  validTo?: string;
  risk?: Record<string, unknown>;
  /** The UK Read/Write version whose body to build (v4.0: the reference in structured remittance); default v3.1.11. */
  version?: 'v3.1' | 'v4.0';
}): VrpConsentBody {
  return {
    Data: {
      ControlParameters: {
        ...(o.validFrom !== undefined ? { ValidFromDateTime: o.validFrom } : {}),
        ...(o.validTo !== undefined ? { ValidToDateTime: o.validTo } : {}),
        MaximumIndividualAmount: { Amount: o.maximumIndividualAmount.amount, Currency: o.maximumIndividualAmount.currency },
        PeriodicLimits: o.periodicLimits.map((l) => ({ PeriodType: l.periodType, PeriodAlignment: l.periodAlignment, Amount: l.amount, Currency: l.currency })),
        VRPType: [o.vrpType ?? 'UK.OBIE.VRPType.Sweeping'],
        PSUAuthenticationMethods: o.psuAuthenticationMethods ?? ['UK.OBIE.SCA'],
        PSUInteractionTypes: o.psuInteractionTypes ?? ['OffSession'],
      },
      Initiation: {
        ...(o.debtor ? { DebtorAccount: account(o.debtor) } : {}),
        CreditorAccount: account(o.creditor),
        ...(o.reference !== undefined ? { RemittanceInformation: o.version === 'v4.0' ? { Structured: [{ CreditorReferenceInformation: { Reference: o.reference } }] } : { Reference: o.reference } } : {}),
      },
    },
    Risk: { ...(o.risk ?? {}) },
  };
}

export interface VrpBody {
  Data: {
    ConsentId: string;
    PSUAuthenticationMethod: string;
    PSUInteractionType?: 'InSession' | 'OffSession';
    VRPType: string;
    Initiation: VrpConsentBody['Data']['Initiation'];
    Instruction: {
      InstructionIdentification: string;
      EndToEndIdentification: string;
      RemittanceInformation?: VrpRemittance;
      InstructedAmount: { Amount: string; Currency: string };
      CreditorAccount: ReturnType<typeof account>;
    };
  };
  Risk: Record<string, unknown>;
}

/**
 * POST /domestic-vrps (`OBDomesticVRPRequest`): one payment under an authorised consent. The
 * Initiation and Risk are the consent's, unchanged; the creditor and the reference are the
 * consent's too (v3.1.11: the Instruction's Reference equals the consent's).
 */
export function buildVrp(consentId: string, consent: VrpConsentBody, o: { instructionIdentification: string; endToEndIdentification: string; amount: string; currency: string; interaction?: 'InSession' | 'OffSession' }): VrpBody {
  const init = consent.Data.Initiation;
  const c = consent.Data.ControlParameters;
  if (!init.CreditorAccount) throw new TypeError('buildVrp: the consent names no creditor account');
  return {
    Data: {
      ConsentId: consentId,
      PSUAuthenticationMethod: c.PSUAuthenticationMethods[0]!,
      PSUInteractionType: o.interaction ?? c.PSUInteractionTypes?.[0] ?? 'OffSession',
      VRPType: c.VRPType[0]!,
      Initiation: structuredClone(init),
      Instruction: {
        InstructionIdentification: o.instructionIdentification,
        EndToEndIdentification: o.endToEndIdentification,
        ...(init.RemittanceInformation ? { RemittanceInformation: structuredClone(init.RemittanceInformation) } : {}),
        InstructedAmount: { Amount: o.amount, Currency: o.currency },
        CreditorAccount: structuredClone(init.CreditorAccount),
      },
    },
    Risk: structuredClone(consent.Risk),
  };
}

/** POST /domestic-vrp-consents/{ConsentId}/funds-confirmation (`OBVRPFundsConfirmationRequest`). */
export function buildVrpFundsConfirmation(o: { consentId: string; amount: string; currency: string; reference?: string }) {
  return { Data: { ConsentId: o.consentId, ...(o.reference !== undefined ? { Reference: o.reference } : {}), InstructedAmount: { Amount: o.amount, Currency: o.currency } } };
}
