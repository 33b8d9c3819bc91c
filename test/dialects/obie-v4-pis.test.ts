/**
 * UK Read/Write v4.0's payment families on the judging side, without a bank: the builders' v4.0
 * bodies pass the official v4.0 payment-initiation file and our v4.0 schemas (schemas/v4-pis.ts),
 * their v3.1.11 spelling fails both; each family's order answer is judged by its own status list;
 * and the sandbox's JSON Patch of a VRP consent (src/sandbox/obie/vrp-v4.ts) follows RFC 6902.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { judgeBody, type SchemaName } from '../../src/dialects/obie/index.ts';
import {
  buildDomesticScheduledConsent, buildDomesticStandingOrderConsent, buildFamilyOrder, buildFileConsent, buildInternationalConsent, buildInternationalStandingOrderConsent,
  buildPaymentFile, buildRisk,
} from '../../src/dialects/obie/builders.ts';
import { applyPatch } from '../../src/sandbox/obie/vrp-v4.ts';
import { ApiError } from '../../src/sandbox/obie/plumbing.ts';
import { sample } from './obie-samples.ts';

const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;
const FILE = fileURLToPath(new URL('../../../shared/reference/obie-v4/payment-initiation-openapi.json', import.meta.url));
const skip = existsSync(FILE) ? false : `official v4.0 payment-initiation file not found at ${FILE}`;

const creditor = { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '08080021325698', name: 'ACME Inc' };
const abroad = { schemeName: 'UK.OBIE.IBAN', identification: 'DE89370400440532013000', name: 'Baeckerei Schmidt GmbH' };
const when = '2030-01-02T10:00:00+00:00';

let ajv: Ajv | undefined;
function official(name: SchemaName) {
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    ajv.addSchema({ $id: 'https://obtpp.test/v4/pis.json', components: JSON.parse(readFileSync(FILE, 'utf8')).components });
  }
  return ajv.getSchema(`https://obtpp.test/v4/pis.json#/components/schemas/${name}`)!;
}
const must = (name: SchemaName, body: unknown) => judgeBody(name, body, 'v4.0').must.map((p) => p.message);

describe('the v4.0 payment families, judged without a bank', { skip }, () => {
  test('the builders\' v4.0 bodies pass the official file and ours; the v3.1.11 spelling fails both', () => {
    const file = buildPaymentFile([{ instructionIdentification: 'I-1', endToEndIdentification: 'E-1', amount: '1.00', currency: 'GBP', creditor }], 'v4.0');
    const cases: Array<[SchemaName, SchemaName, (v: 'v3.1' | 'v4.0') => any]> = [
      ['OBWriteDomesticStandingOrderConsent5', 'OBWriteDomesticStandingOrder3', (version) => buildDomesticStandingOrderConsent({ frequency: 'EvryDay', firstPaymentDateTime: when, firstAmount: '1.00', currency: 'GBP', creditor, reference: 'RENT', version })],
      ['OBWriteInternationalStandingOrderConsent6', 'OBWriteInternationalStandingOrder4', (version) => buildInternationalStandingOrderConsent({ frequency: 'EvryDay', firstPaymentDateTime: when, amount: '1.00', currency: 'GBP', currencyOfTransfer: 'EUR', creditor: abroad, reference: 'RENT', version })],
      ['OBWriteDomesticScheduledConsent4', 'OBWriteDomesticScheduled2', (version) => buildDomesticScheduledConsent({ instructionIdentification: 'I-1', endToEndIdentification: 'E-1', amount: '1.00', currency: 'GBP', creditor, requestedExecutionDateTime: when, reference: 'INV-1', version })],
      ['OBWriteFileConsent3', 'OBWriteFile2', (version) => buildFileConsent({ file: version === 'v4.0' ? file : { ...file, fileType: 'UK.OBIE.PaymentInitiation.3.1' } })],
    ];
    for (const [consentName, orderName, build] of cases) {
      const v4 = build('v4.0');
      for (const [name, body] of [[consentName, v4], [orderName, buildFamilyOrder('c-1', v4)]] as const) {
        assert.ok(official(name)(body), `${name}: ${JSON.stringify(official(name).errors)}`);
        assert.deepEqual(must(name, body), [], name);
      }
      // A standing order's v3.1.11 schedule (Initiation.Frequency) is no v4.0 body: MandateRelatedInformation is required.
      // (A flat { Reference } remittance is not refused by the file: OBRemittanceInformation2 is open.)
      if (!/StandingOrder/.test(consentName)) continue;
      const v3 = build('v3.1');
      assert.equal(official(consentName)(v3), false, `${consentName}: the official v4.0 file refuses the v3.1.11 spelling`);
      assert.notDeepEqual(must(consentName, v3), [], `${consentName}: ours too`);
    }
    // v4.0's new members: the ultimate parties, regulatory reports, Risk in v4.0's spelling.
    const international = buildInternationalConsent({
      instructionIdentification: 'I-2', endToEndIdentification: 'E-2', amount: '1.00', currency: 'GBP', currencyOfTransfer: 'EUR', creditor: abroad, version: 'v4.0',
      ultimateCreditor: { name: 'Schmidt Holding AG' }, ultimateDebtor: { name: 'Alice Ltd' }, regulatoryReporting: [{ indicator: 'DEBT', authority: { name: 'Bank of England', countryCode: 'GB' } }],
      risk: buildRisk('v4.0', { paymentContextCode: 'TransferToThirdParty', contractPresent: true, categoryPurposeCode: 'SUPP' }),
    });
    assert.equal((international.Risk as any).ContractPresentIndicator, true);
    for (const [name, body] of [['OBWriteInternationalConsent5', international], ['OBWriteInternational3', buildFamilyOrder('c-2', international)]] as const) {
      assert.ok(official(name)(body), `${name}: ${JSON.stringify(official(name).errors)}`);
      assert.deepEqual(must(name, body), [], name);
    }
    const v3Risk = { ...international, Risk: buildRisk('v3.1', { contractPresent: true }) };
    assert.deepEqual(v3Risk.Risk, { ContractPresentInidicator: true }, 'v3.1.11\'s own spelling');
    assert.equal(official('OBWriteInternationalConsent5')(v3Risk), false, 'v4.0 closes Risk: the old spelling fails');
    assert.throws(() => buildRisk('v4.0', { paymentContextCode: 'PartyToParty' }), /not a UK Read\/Write v4\.0 code/);
    assert.throws(() => buildInternationalConsent({ instructionIdentification: 'I', endToEndIdentification: 'E', amount: '1', currency: 'GBP', currencyOfTransfer: 'EUR', creditor: abroad, ultimateCreditor: { name: 'x' } }), /v4\.0 members/);
    assert.equal(file.fileType, 'UK.OBIE.PaymentInitiation.4.0');
    assert.match(file.text, /"Structured":\[\{"CreditorReferenceInformation"|"CreditorAccount"/);
  });

  test('each order answer is judged by its own family\'s status list (v4.0 lists differ)', () => {
    const scheduled = sample('OBWriteDomesticScheduledResponse5');
    const international = sample('OBWriteInternationalResponse5');
    for (const body of [scheduled, international]) {
      delete body.Data.Initiation.RemittanceInformation;
      if (body.Data.MultiAuthorisation) body.Data.MultiAuthorisation.Status = 'AUTH';
    }
    scheduled.Data.Status = 'RCVD';
    assert.deepEqual(must('OBWriteDomesticScheduledResponse5', scheduled), [], 'RCVD is a domestic scheduled payment\'s');
    international.Data.Status = 'RCVD';
    assert.match(must('OBWriteInternationalResponse5', international).join('\n'), /Data\.Status: expected one of PDNG/, 'an international payment has no RCVD');
    scheduled.Data.Status = 'InitiationPending';
    assert.match(must('OBWriteDomesticScheduledResponse5', scheduled).join('\n'), /Data\.Status/, 'v3.1.11\'s name fails');
  });
});

describe('the sandbox\'s JSON Patch of a VRP consent (RFC 6902)', () => {
  const doc = { Data: { ControlParameters: { Max: '5.00' }, Initiation: { RemittanceInformation: { Reference: 'A' }, Lines: ['x'] } }, Risk: {} };

  test('replace, add, remove and test apply to a copy', () => {
    const out = applyPatch(doc, [
      { op: 'test', path: '/Data/ControlParameters/Max', value: '5.00' },
      { op: 'replace', path: '/Data/Initiation/RemittanceInformation', value: { Unstructured: ['r'] } },
      { op: 'add', path: '/Data/Initiation/Lines/-', value: 'y' },
      { op: 'add', path: '/Risk/PaymentContextCode', value: 'TransferToSelf' },
      { op: 'remove', path: '/Data/Initiation/Lines/0' },
    ]) as any;
    assert.deepEqual(out, { Data: { ControlParameters: { Max: '5.00' }, Initiation: { RemittanceInformation: { Unstructured: ['r'] }, Lines: ['y'] } }, Risk: { PaymentContextCode: 'TransferToSelf' } });
    assert.deepEqual(doc.Data.Initiation.Lines, ['x'], 'the consent itself is untouched');
  });

  test('a failed test, a missing member, an unknown op or a body that is no patch is a 400', () => {
    for (const ops of [
      [{ op: 'test', path: '/Data/ControlParameters/Max', value: '9.00' }],
      [{ op: 'replace', path: '/Data/Nothing', value: 1 }],
      [{ op: 'remove', path: '/Data/Initiation/Nope' }],
      [{ op: 'move', from: '/Risk', path: '/Data/Risk' }],
      [{ op: 'add', path: 'Data' , value: 1 }],
      { op: 'add' },
      [],
    ]) {
      assert.throws(() => applyPatch(doc, ops), (e: unknown) => e instanceof ApiError && e.status === 400, JSON.stringify(ops));
    }
  });
});
