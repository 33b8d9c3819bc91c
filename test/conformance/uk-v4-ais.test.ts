// UK Read/Write v4.0 account information and CBPII (issue 27): the sandbox's v4.0 layout re-spells
// every AIS read's v3.1.11 answer into a body valid against v4.0's schema (and no longer v3.1.11's),
// each v4.0 fault of these APIs keeps one v3.1.11 spelling that v4.0's schema refuses, and the FCS
// v4.0 map covers every account-information and CBPII test or says why not. No server, no browser:
// the re-spelling (src/sandbox/obie/v4.ts) is called on our v3.1.11 sample bodies and judged by the
// examiner's v4.0 schemas; the conformance run itself (obtpp conform --standard uk-4.0) and each
// fault's run scoped to its rule are conform.test.ts's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toV4 } from '../../src/sandbox/obie/v4.ts';
import type { ResourceContext } from '../../src/sandbox/obie/plumbing.ts';
import { judgeBody, type SchemaName } from '../../src/dialects/obie/index.ts';
import { fcsDir, fcsMap, FCS_NOT_APPLICABLE } from '../../src/conformance/fcs-map.ts';
import { sample } from '../dialects/obie-samples.ts';
import { readFileSync } from 'node:fs';
import { OBIE_OPERATIONS } from '../../src/dialects/obie/catalogue.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { TppClient } from '../../src/client/operations.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The sandbox's v4.0 spelling of one answer, with these faults on. */
function respelt(schema: SchemaName, operation: string, faults: string[] = []): any {
  const reply = { status: 200, body: sample(schema) };
  toV4({ faults: new Set(faults) } as unknown as ResourceContext, operation, reply);
  return reply.body;
}
const must = (schema: SchemaName, body: unknown, version: 'v3.1' | 'v4.0') => judgeBody(schema, body, version).must.map((p) => p.message);

/** Every AIS and CBPII answer the v4.0 layout re-spells, with the sandbox's name of its route. */
const READS: Array<[SchemaName, string]> = [
  ['OBReadAccount6', 'getAccount'], ['OBReadBalance1', 'listBalances'], ['OBReadTransaction6', 'listTransactions'],
  ['OBReadBeneficiary5', 'listBeneficiaries'], ['OBReadDirectDebit2', 'listDirectDebits'], ['OBReadStandingOrder6', 'listStandingOrders'],
  ['OBReadScheduledPayment3', 'listScheduledPayments'], ['OBReadOffer1', 'listOffers'], ['OBReadParty2', 'getParty'],
  ['OBReadParty3', 'getAccountParties'], ['OBReadProduct2', 'listProducts'], ['OBReadStatement2', 'listStatements'],
  ['OBReadConsentResponse1', 'getAccountAccessConsent'], ['OBFundsConfirmationConsentResponse1', 'getFundsConsent'],
  ['OBFundsConfirmationResponse1', 'confirmFunds'],
];

describe('the sandbox\'s v4.0 layout: AIS and CBPII answers', () => {
  for (const [schema, operation] of READS) {
    test(`${operation}: valid against v4.0's ${schema}`, () => {
      assert.deepEqual(must(schema, respelt(schema, operation), 'v4.0'), []);
    });
  }

  test('the re-spelling is v4.0\'s: a standing order\'s schedule in MandateRelatedInformation, ISO statuses; the v3.1.11 schema refuses it', () => {
    const order = respelt('OBReadStandingOrder6', 'listStandingOrders').Data.StandingOrder[0];
    assert.equal(order.StandingOrderStatusCode, 'ACTV');
    assert.equal(order.Frequency, undefined);
    assert.equal(order.Reference, undefined);
    assert.ok(order.MandateRelatedInformation.Frequency.Type);
    assert.deepEqual(order.RemittanceInformation, { Structured: [{ CreditorReferenceInformation: { Reference: sample('OBReadStandingOrder6').Data.StandingOrder[0].Reference } }] });
    const debit = respelt('OBReadDirectDebit2', 'listDirectDebits').Data.DirectDebit[0];
    assert.equal(debit.DirectDebitStatusCode, 'ACTV');
    assert.equal(debit.MandateRelatedInformation.MandateIdentification, sample('OBReadDirectDebit2').Data.DirectDebit[0].MandateIdentification);
    for (const [schema, operation] of [['OBReadStandingOrder6', 'listStandingOrders'], ['OBReadDirectDebit2', 'listDirectDebits'], ['OBReadParty2', 'getParty']] as const) {
      assert.notDeepEqual(must(schema, respelt(schema, operation), 'v3.1'), [], `${schema} is v4.0's, not v3.1.11's`);
    }
  });

  // Each fault keeps one v3.1.11 spelling; v4.0's schema names the member it breaks.
  const FAULTS: Array<[string, SchemaName, string, RegExp]> = [
    ['v4-balance-type-v3', 'OBReadBalance1', 'listBalances', /Balance\/0\/Type|Balance\[0\]\.Type|Type: expected one of/],
    ['v4-transaction-status-v3', 'OBReadTransaction6', 'listTransactions', /Status: expected one of/],
    ['v4-standing-order-v3', 'OBReadStandingOrder6', 'listStandingOrders', /StandingOrderStatusCode: expected one of[\s\S]*|Frequency: unexpected field/],
    ['v4-direct-debit-v3', 'OBReadDirectDebit2', 'listDirectDebits', /DirectDebitStatusCode: expected one of/],
    ['v4-address-type-v3', 'OBReadParty2', 'getParty', /AddressType: expected one of/],
    ['v4-funds-consent-status-v3-name', 'OBFundsConfirmationConsentResponse1', 'getFundsConsent', /Status: expected one of AWAU/],
  ];
  for (const [fault, schema, operation, message] of FAULTS) {
    test(`${fault}: ${schema} fails v4.0's schema`, () => {
      const problems = must(schema, respelt(schema, operation, [fault]), 'v4.0');
      assert.match(problems.join('\n'), message);
      // Only the fault's own answer: the others stay v4.0's.
      for (const [other, otherOperation] of READS.filter(([s]) => s !== schema)) assert.deepEqual(must(other, respelt(other, otherOperation, [fault]), 'v4.0'), [], `${fault} leaves ${other} alone`);
    });
  }
});

const V4 = join(root, '..', 'shared', 'reference', 'obie-v4');
const noV4 = existsSync(join(V4, 'account-info-openapi.json')) ? false : `the official v4.0 files are not at ${V4}`;

/** The operations whose success answer has a body (not the two DELETEs' 204). */
const SCHEMAS = 31;

describe('a uk-4.0 profile: every AIS and CBPII operation of the v4.0 files', { skip: noV4 }, () => {
  test('is a catalogue operation the client supports at v4.0, at the file\'s path, answering the file\'s schema', async () => {
    const profile = await profileFromObject({
      name: 'uk v4 bank', standard: 'uk-4.0', baseUrl: 'https://bank.example/open-banking/v4.0',
      auth: { issuer: 'https://as.bank.example', clientId: 'c', clientAuth: { method: 'client_secret_basic', secret: 's' }, redirectUri: 'https://tpp.example/cb' },
      psu: { username: 'u', password: 'p', driver: { kind: 'manual' } },
    }, { source: 'test', env: {} });
    const client = new TppClient(profile, 'A', {} as never);
    const ours = new Map<string, { op: string; schema?: string }>();
    for (const [op, spec] of Object.entries(OBIE_OPERATIONS) as Array<[string, any]>) {
      if ((spec.api !== 'ais' && spec.api !== 'cof') || !client.supports(op as never)) continue;
      const path = client.pathOf(op as never, Object.fromEntries(spec.ids.map((id: string) => [id, 'ID'])));
      ours.set(`${spec.method} ${spec.api} ${path}`, { op, schema: Object.values(spec.responses ?? {})[0] as string | undefined });
    }
    let count = 0;
    let schemas = 0;
    for (const [file, api] of [['account-info', 'ais'], ['confirmation-funds', 'cof']] as const) {
      const doc = JSON.parse(readFileSync(join(V4, `${file}-openapi.json`), 'utf8'));
      for (const [path, methods] of Object.entries(doc.paths) as Array<[string, any]>) {
        for (const [method, operation] of Object.entries(methods) as Array<[string, any]>) {
          if (!['get', 'post', 'delete'].includes(method)) continue;
          count += 1;
          const key = `${method.toUpperCase()} ${api} ${path.replace(/\{[^}]+\}/g, 'ID')}`;
          const mine = ours.get(key);
          assert.ok(mine, `${key} (${operation.operationId}) is no operation a uk-4.0 profile supports`);
          const ok = Object.entries(operation.responses).find(([status]) => /^20[01]$/.test(status))?.[1] as any;
          const ref = JSON.stringify(ok ?? {}).match(/#\/components\/(?:responses|schemas)\/([A-Za-z0-9]+)/)?.[1];
          const official = ref && doc.components.responses?.[ref] ? JSON.stringify(doc.components.responses[ref]).match(/#\/components\/schemas\/([A-Za-z0-9]+)/)?.[1] : ref;
          if (official && mine.schema) {
            assert.equal(mine.schema, official, key);
            schemas += 1;
          }
        }
      }
    }
    assert.equal(count, 33, 'the 29 account-information and 4 CBPII operations of the v4.0 files');
    assert.equal(schemas, SCHEMAS, 'every operation with a body\'s answer compared');
  });
});

const dir = fcsDir(root, process.env, root);
const skip = existsSync(join(dir, 'manifests', 'ob_4.0_accounts_transactions_fca.json')) ? false : `the FCS manifests are not at ${dir}`;

describe('the FCS v4.0 map: account information and CBPII', { skip }, () => {
  test('every AIS and CBPII v4.0 test is covered by a scenario that runs at v4.0, or has its stated reason', async () => {
    const map = await fcsMap(root, dir, '4.0');
    const ours = map.entries.filter((e) => e.tests.some((t) => /ob_4\.0_(accounts_transactions|cbpii)_fca\.json$/.test(t.manifest)));
    assert.equal(ours.length, 108, 'the 94 account-information ids and the 14 CBPII ids (two reuse v3.1 numbers)');
    assert.deepEqual(ours.filter((e) => !e.covers.length && !FCS_NOT_APPLICABLE[e.id]).map((e) => e.id), []);
    assert.deepEqual(ours.filter((e) => !e.covers.length).map((e) => e.id), ['OB-400-PRO-103403']);
    // The covers are the features that run at both versions: one feature, no fork.
    const features = new Set(ours.flatMap((e) => e.covers.map((c) => c.feature)));
    assert.deepEqual([...features].sort(), ['features/obie/uk-accounts.feature', 'features/obie/uk-funds.feature']);
  });
});
