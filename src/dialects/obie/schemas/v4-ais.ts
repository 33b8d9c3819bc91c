/**
 * UK Read/Write v4.0's schemas of the account-information reads only the UK layout has (direct
 * debits, standing orders, scheduled payments, offers, party, parties, product, statements),
 * written from ../shared/reference/FACTS-v4.md §3.3 and §4.2 as what v4.0 changed from our v3.1.11
 * schemas, and checked against the official v4.0 file by test/dialects/obie-v4-crosscheck.test.ts.
 *
 * schemas/v4.ts owns the way a v3.1.11 schema is copied and changed, and hands it in with the
 * account-info spelling of the building blocks (`V4Tools`; schemas/v4-blocks.ts makes them), so
 * this module imports nothing from it and the two make no import circle.
 */
import { closedEnum, dateTime, text } from './common.ts';
import type { Levels } from './common.ts';
import type { SchemaName } from './index.ts';

type Json = Record<string, any>;

/** What schemas/v4.ts lends: its copy-and-change helpers and its v4.0 building blocks. */
export interface V4Tools {
  v4(levels: Levels, change: (schema: Json, level: keyof Levels) => void): Levels;
  at(schema: Json, path: string): Json;
  put(schema: Json, path: string, name: string, value: object | undefined): void;
  postalAddress7(closed: boolean): Json;
  proxy: Json;
  lei: Json;
  remittance: Json;
}

/** `ExternalMandateStatus1Code`: the standing-order and direct-debit statuses (§3.3; v3.1.11: Active, Inactive). */
export const V4_MANDATE_STATUSES = ['ACTV', 'CANC', 'EXPI', 'SUSP'] as const;
/** `OBFrequency6Code` as the account-info file lists it (16 values; PIS4's copy repeats WEEK: FACTS-v4 §8). */
export const V4_FREQUENCY_CODES = ['ADHO', 'YEAR', 'DAIL', 'FRTN', 'INDA', 'MNTH', 'QURT', 'MIAN', 'WEEK', 'WODL', 'FOWK', 'TWMH', 'FOMH', 'FIMH', 'ALMH', 'NONE'] as const;
/** v3.1.11's standing-order Frequency grammar, still one of v4.0's two forms of a frequency's Type (with NotKnown). */
const FREQUENCY_1 = '^(NotKnown)$|^(EvryDay)$|^(EvryWorkgDay)$|^(IntrvlDay:((0[2-9])|([1-2][0-9])|3[0-1]))$|^(IntrvlWkDay:0[1-9]:0[1-7])$|^(WkInMnthDay:0[1-5]:0[1-7])$|^(IntrvlMnthDay:(0[1-6]|12|24):(-0[1-5]|0[1-9]|[12][0-9]|3[01]))$|^(QtrDay:(ENGLISH|SCOTTISH|RECEIVED))$';

/**
 * `OBMandateRelatedInformation1` (§4.1): where a standing order's and a direct debit's schedule
 * now lives; only Frequency (and within it Type) is required. Its CategoryPurposeCode is an
 * external ISO list of 44 values obtpp checks as a string (the cross-check knows the list).
 */
const mandateRelatedInformation = {
  type: 'object',
  required: ['Frequency'],
  properties: {
    MandateIdentification: text(1, 35),
    Classification: closedEnum(['FIXE', 'USGB', 'VARI']),
    CategoryPurposeCode: { type: 'string' },
    FirstPaymentDateTime: dateTime,
    RecurringPaymentDateTime: dateTime,
    FinalPaymentDateTime: dateTime,
    Frequency: {
      type: 'object',
      required: ['Type'],
      properties: {
        // One of the ISO codes, or v3.1.11's grammar (FACTS-v4 §3.4).
        Type: { oneOf: [closedEnum(V4_FREQUENCY_CODES), { type: 'string', pattern: FREQUENCY_1 }] },
        CountPerPeriod: { type: 'integer', format: 'int32' },
        PointInTime: { type: 'string', maxLength: 2 },
      },
    },
    Reason: text(1, 256),
  },
} as const;

/** A creditor's agent in v4.0 (§4.2): gains Name, PostalAddress and LEI. */
function agent(t: V4Tools, s: Json, path: string): void {
  t.put(s, path, 'Name', text(1, 140));
  t.put(s, path, 'PostalAddress', t.postalAddress7(false));
  t.put(s, path, 'LEI', t.lei);
}

/** A party (OBParty2): its addresses are OBPostalAddress7 (no Country required, seven lines), and it gains an LEI. */
function party(t: V4Tools, s: Json, path: string): void {
  t.at(s, `${path}.Address`).items = t.postalAddress7(false);
  t.put(s, path, 'LEI', t.lei);
}

/**
 * The v4.0 schemas of the UK layout's other reads, by name, each member for member (a mandate's
 * CategoryPurposeCode, an external ISO list, by its type: see schemas/v4.ts); `open` names the one
 * left open, the product catalogue.
 */
export function v4AisSchemas(t: V4Tools, v3: Readonly<Record<string, Levels>>): { levels: Partial<Record<SchemaName, Levels>>; open: SchemaName[] } {
  const levels: Partial<Record<SchemaName, Levels>> = {
    // MandateIdentification and Frequency move into MandateRelatedInformation; the status is ISO (§4.2).
    OBReadDirectDebit2: t.v4(v3.OBReadDirectDebit2!, (s) => {
      const item = t.at(s, 'Data.DirectDebit[]');
      item.required = ['AccountId', 'Name'];
      t.put(s, 'Data.DirectDebit[]', 'MandateIdentification', undefined);
      t.put(s, 'Data.DirectDebit[]', 'Frequency', undefined);
      t.put(s, 'Data.DirectDebit[]', 'DirectDebitStatusCode', closedEnum(V4_MANDATE_STATUSES));
      t.put(s, 'Data.DirectDebit[]', 'MandateRelatedInformation', mandateRelatedInformation);
    }),
    // Frequency, Reference and the first and final payment dates leave; only AccountId stays required (§4.2).
    OBReadStandingOrder6: t.v4(v3.OBReadStandingOrder6!, (s) => {
      const item = t.at(s, 'Data.StandingOrder[]');
      item.required = ['AccountId'];
      for (const gone of ['Frequency', 'Reference', 'FirstPaymentDateTime', 'FinalPaymentDateTime']) t.put(s, 'Data.StandingOrder[]', gone, undefined);
      t.put(s, 'Data.StandingOrder[]', 'StandingOrderStatusCode', closedEnum(V4_MANDATE_STATUSES));
      t.put(s, 'Data.StandingOrder[]', 'MandateRelatedInformation', mandateRelatedInformation);
      t.put(s, 'Data.StandingOrder[]', 'RemittanceInformation', t.remittance);
      t.put(s, 'Data.StandingOrder[].CreditorAccount', 'Proxy', t.proxy);
      agent(t, s, 'Data.StandingOrder[].CreditorAgent');
    }),
    OBReadScheduledPayment3: t.v4(v3.OBReadScheduledPayment3!, (s) => {
      t.put(s, 'Data.ScheduledPayment[].CreditorAccount', 'Proxy', t.proxy);
      agent(t, s, 'Data.ScheduledPayment[].CreditorAgent');
    }),
    // Amount sub-types are ISO codes; a rate is at most 40 characters (§3.3, §4.2).
    OBReadStatement2: t.v4(v3.OBReadStatement2!, (s) => {
      for (const amount of ['Amount', 'LocalAmount']) t.put(s, `Data.Statement[].StatementAmount[].${amount}`, 'SubType', closedEnum(['BCUR', 'LCUR']));
      const rate = t.at(s, 'Data.Statement[].StatementRate[]').properties.Rate;
      rate.maxLength = 40;
    }),
    // Party addresses are OBPostalAddress7 (no Country required, seven lines); a party gains its LEI.
    OBReadParty2: t.v4(v3.OBReadParty2!, (s) => party(t, s, 'Data.Party')),
    OBReadParty3: t.v4(v3.OBReadParty3!, (s) => party(t, s, 'Data.Party[]')),
    // Unchanged in v4.0 (§4.2): the v3.1.11 schema, proved equal by the cross-check.
    OBReadOffer1: v3.OBReadOffer1!,
    // Open as at v3.1.11: the product catalogue's detail (BCA, PCA, OtherProductType: about a
    // thousand members, 136 code lists of 1061 values in v4.0, and the file's OB_CodeMnemonic
    // pattern `^\\w{0,4}$`, which matches no four-letter code) is judged as objects only.
    OBReadProduct2: v3.OBReadProduct2!,
  };
  return { levels, open: ['OBReadProduct2'] };
}
