/**
 * Members of NextGenPSD2 1.3.12 answers that several schemas share and that carry rules of their
 * own: the SCA method objects and challenge data of a create's answer, structured and array
 * remittance, exchange rates, standing-order details, account owners, and the closed ISO 20022
 * code lists (purpose codes, charge bearers). Written from the facts of the 1.3.12 file; the
 * cross-check (test/dialects/berlin-group.test.ts) compares them with it field by field.
 */
import { amount, bool, CURRENCY_CODE_PATTERN, isoDate, patterned, str, text } from './common.ts';
import type { Level } from './common.ts';

/** ISO 20022 ExternalPurpose1Code, the `purposeCode` of payments and transactions (a closed list in 1.3.12). */
export const PURPOSE_CODES = (
  // cash management, collateral, commercial, consumer, e-commerce, finance, general, investment
  'BKDF BKFE BKFM BKIP BKPP CBLK CDCB CDCD CDCS CDDP CDOC CDQC ETUP FCOL MTUP ACCT CASH COLL CSDB DEPT INTC LIMA NETT '
  + 'BFWD CCIR CCPC CCPM CCSM CRDS CRPR CRSP CRTL EQPT EQUS EXPT EXTD FIXI FWBC FWCC FWSB FWSC MARG MBSB MBSC MGCC MGSC '
  + 'OCCC OPBC OPCC OPSB OPSC OPTN OTCD REPO RPBC RPCC RPSB RPSC RVPO SBSC SCIE SCIR SCRP SHBC SHCC SHSL SLEB SLOA SWBC '
  + 'SWCC SWPT SWSB SWSC TBAS TBBC TBCC TRCP AGRT AREN BEXP BOCE COMC CPYR GDDS GDSV GSCB LICF MP2B POPE ROYA SCVE SERV '
  + 'SUBS SUPP TRAD CHAR COMT MP2P ECPG ECPR ECPU EPAY CLPR COMP DBTC GOVI HLRP HLST INPC INPR INSC INSU INTE LBRI LIFI '
  + 'LOAN LOAR PENO PPTI RELG RINP TRFD FORW FXNT ADMG ADVA BCDM BCFG BLDM BNET CBFF CBFR CCRD CDBL CFEE CGDD CORT COST '
  + 'CPKC DCRD DSMT DVPM EDUC FACT FAND FCPM FEES GOVT ICCP IDCP IHRP INSM IVPT MCDM MCFG MSVC NOWS OCDM OCFG OFEE OTHR '
  + 'PADD PTSP RCKE RCPT REBT REFU RENT REOD RIMB RPNT RRBN RVPM SLPI SPLT STDY TBAN TBIL TCSC TELI TMPG TPRI TPRP TRNC '
  // investment, medical, pension, salary and benefits, securities, tax, transport, utilities
  + 'TRVC WEBI ANNI CAFI CFDI CMDT DERI DIVD FREX HEDG INVS PRME SAVG SECU SEPI TREA UNIT FNET FUTR ANTS CVCF DMEQ DNTS '
  + 'HLTC HLTI HSPC ICRF LTCF MAFC MARF MDCS VIEW CDEP SWFP SWPP SWRS SWUF ADCS AEMP ALLW ALMY BBSC BECH BENE BONU CCHD '
  + 'COMM CSLP GFRP GVEA GVEB GVEC GVED GWLT HREC PAYR PEFC PENS PRCP RHBS SALA SSBE LBIN LCOL LFEE LMEQ LMFI LMRK LREB '
  + 'LREV LSFL ESTX FWLV GSTX HSTX INTX NITX PTXP RDTX TAXS VATX WHLD TAXR B112 BR12 TLRF TLRR AIRB BUSB FERB RLWY TRPT '
  + 'CBTV ELEC ENRG GASB NWCH NWCM OTLC PHON UBIL WTER'
).split(' ');
/** Who bears the charges (ISO 20022 ChargeBearerType1Code). */
export const CHARGE_BEARERS = ['DEBT', 'CRED', 'SHAR', 'SLEV'] as const;
/** The only codes a 201 payment initiation's `tppMessages` may carry (`MessageCode201PaymentInitiation`). */
export const PAYMENT_201_MESSAGE_CODES = ['WARNING', 'BENEFICIARY_WHITELISTING_REQUIRED'] as const;
/** `frequencyCode` of a standing order or periodic payment (EventFrequency7Code). */
export const FREQUENCY_CODES = ['Daily', 'Weekly', 'EveryTwoWeeks', 'Monthly', 'EveryTwoMonths', 'Quarterly', 'SemiAnnual', 'Annual', 'MonthlyVariable'] as const;
export const EXECUTION_RULES = ['following', 'preceding'] as const;
const DAYS = Array.from({ length: 31 }, (_, i) => String(i + 1));
const MONTHS = DAYS.slice(0, 12);

export const purposeCode = { type: 'string', enum: PURPOSE_CODES } as const;
export const chargeBearer = { type: 'string', enum: CHARGE_BEARERS } as const;

/** `authenticationObject`: one SCA method the bank offers (scaMethods) or chose (chosenScaMethod). */
export const authenticationObject = {
  type: 'object',
  required: ['authenticationType', 'authenticationMethodId'],
  properties: { authenticationType: str, authenticationVersion: str, authenticationMethodId: text(35), name: str, explanation: str },
} as const;
export const scaMethods = { type: 'array', items: authenticationObject } as const;

/** `challengeData` of the embedded approach: what the PSU needs to answer the challenge. */
export const challengeData = {
  type: 'object',
  properties: {
    image: { type: 'string', format: 'byte' },
    data: { type: 'array', items: str },
    imageLink: { type: 'string', format: 'url' },
    otpMaxLength: { type: 'integer' },
    otpFormat: { type: 'string', enum: ['characters', 'integer'] },
    additionalInformation: str,
  },
} as const;

/** The SCA members of a create's or an authorisation's answer. */
export const scaMembers = { scaMethods, chosenScaMethod: authenticationObject, challengeData } as const;

/** `remittanceInformationStructured` (35 characters a member) and the transaction's Max140 variant. */
export const remittanceStructured = (max: 35 | 140) => ({
  type: 'object',
  required: ['reference'],
  properties: { reference: text(max), referenceType: text(max), referenceIssuer: text(max) },
}) as const;
export const remittanceStructuredArray = { type: 'array', items: remittanceStructured(35) } as const;
export const remittanceUnstructuredArray = { type: 'array', items: text(140) } as const;

/** `accountOwner`: a name and, optionally, the owner's role. */
export const accountOwner = { type: 'object', required: ['name'], properties: { name: text(70), role: text(35) } } as const;
export const ownerNames = { type: 'array', items: accountOwner } as const;

/** `reportExchangeRateList`: the exchange rates a transaction was booked with. */
export const currencyExchange = (level: Level) => ({
  type: 'array',
  items: {
    type: 'object',
    required: ['sourceCurrency', 'exchangeRate', 'unitCurrency', 'targetCurrency', 'quotationDate'],
    properties: {
      sourceCurrency: patterned(CURRENCY_CODE_PATTERN, level),
      exchangeRate: str,
      unitCurrency: patterned(CURRENCY_CODE_PATTERN, level),
      targetCurrency: patterned(CURRENCY_CODE_PATTERN, level),
      quotationDate: isoDate,
      contractIdentification: text(35),
    },
  },
}) as const;

/** `additionalInformationStructured`: the standing order behind an `information` entry. */
export const additionalInformationStructured = (level: Level) => ({
  type: 'object',
  required: ['standingOrderDetails'],
  properties: {
    standingOrderDetails: {
      type: 'object',
      required: ['startDate', 'frequency'],
      properties: {
        startDate: isoDate,
        frequency: { type: 'string', enum: FREQUENCY_CODES },
        endDate: isoDate,
        executionRule: { type: 'string', enum: EXECUTION_RULES },
        withinAMonthFlag: bool,
        monthsOfExecution: { type: 'array', maxItems: 11, items: { type: 'string', maxLength: 2, enum: MONTHS } },
        multiplicator: { type: 'integer' },
        dayOfExecution: { type: 'string', maxLength: 2, enum: DAYS },
        limitAmount: amount(level),
      },
    },
  },
}) as const;
