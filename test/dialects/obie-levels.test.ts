/**
 * MUST and SHOULD (issue 11 §2): bodies built from the OFFICIAL v3.1.11 OpenAPI files (see
 * official-bodies.ts; skipped when ../shared/reference/obie is absent) are never a MUST failure of
 * judgeBody; the minimal ones carry exactly the warnings the harness's stricter reading gives
 * (Links/Meta, the account's Currency/AccountType/AccountSubType), and real violations of the
 * official schema — wrong type, missing required field, value outside an enum — stay MUST.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { judgeBody, formatProblems, validate } from '../../src/dialects/obie/index.ts';
import type { Judgement, SchemaName } from '../../src/dialects/obie/index.ts';
import { generate, officialFilesPresent, officialValidator, OFFICIAL_DIR } from './official-bodies.ts';
import type { OfficialFile } from './official-bodies.ts';

const skip = officialFilesPresent ? false : `official OpenAPI files not found in ${OFFICIAL_DIR}`;

type Json = Record<string, any>;

/**
 * Every response the harness judges, with its official component. OBWriteDomesticResponse5 and
 * OBWritePaymentDetailsResponse1 are not judged: the spec's GET of a payment answers the consent's
 * shape, and its /status is the project's own PaymentStatusResponse (no official counterpart).
 */
const RESPONSES: [SchemaName, OfficialFile, string][] = [
  ['OBReadConsentResponse1', 'account-info', 'OBReadConsentResponse1'],
  ['OBReadAccount6', 'account-info', 'OBReadAccount6'],
  ['OBReadBalance1', 'account-info', 'OBReadBalance1'],
  ['OBReadTransaction6', 'account-info', 'OBReadTransaction6'],
  ['OBReadBeneficiary5', 'account-info', 'OBReadBeneficiary5'],
  ['OBFundsConfirmationConsentResponse1', 'confirmation-funds', 'OBFundsConfirmationConsentResponse1'],
  ['OBFundsConfirmationResponse1', 'confirmation-funds', 'OBFundsConfirmationResponse1'],
  ['OBWriteDomesticConsentResponse5', 'payment-initiation', 'OBWriteDomesticConsentResponse5'],
  ['OBErrorResponse1', 'confirmation-funds', 'OBErrorResponse1'],
];

/** The lists inside Data that are optional in the schema but are the point of the answer. */
const LISTS: Partial<Record<SchemaName, string[]>> = {
  OBReadAccount6: ['Data.Account'],
  OBReadTransaction6: ['Data.Transaction'],
  OBReadBeneficiary5: ['Data.Beneficiary'],
};

const SEEDS = 50;
const LINKS_META = ['(root): missing required field Links', '(root): missing required field Meta'];

function messages(j: Judgement, level: 'must' | 'should'): string[] {
  return j[level].map((p) => p.message);
}

describe('official-valid bodies are never a MUST failure', { skip }, () => {
  let judged = 0;
  for (const [name, file, component] of RESPONSES) {
    test(`${name}: ${SEEDS} full and ${SEEDS * 2} minimal bodies from ${file}#/components/schemas/${component}`, () => {
      const official = officialValidator(file, component);
      for (let seed = 0; seed < SEEDS; seed++) {
        const bodies = [
          { kind: 'full', body: generate(file, component, { mode: 'full', seed }) },
          { kind: 'minimal', body: generate(file, component, { mode: 'minimal', seed }) },
          { kind: 'minimal with lists', body: generate(file, component, { mode: 'minimal', seed, include: LISTS[name] ?? [] }) },
        ];
        for (const { kind, body } of bodies) {
          // The generator is checked by the official file itself: a body it builds is official-valid.
          assert.ok(official(body), `${name} ${kind} #${seed}: the generator built an invalid body: ${JSON.stringify(official.errors)}`);
          const j = judgeBody(name, body);
          assert.deepEqual(j.must, [], `${name} ${kind} #${seed}:\n${formatProblems(j.must, 100)}\n${JSON.stringify(body)}`);
          assert.deepEqual(validate(name, body), []);
          for (const w of j.should) assert.equal(w.level, 'SHOULD');
          if (kind === 'full') assert.deepEqual(j.should, [], `${name} full #${seed}: a body with every field has no warning\n${formatProblems(j.should, 100)}`);
          judged++;
        }
      }
    });
  }
  test('hundreds of bodies were judged', () => {
    assert.ok(judged >= RESPONSES.length * SEEDS * 3, `${judged} bodies`);
  });
});

describe('the minimal official bodies carry the expected SHOULD warnings', { skip }, () => {
  for (const [name, file, component] of RESPONSES) {
    test(`${name}: minimal body`, () => {
      const j = judgeBody(name, generate(file, component, { mode: 'minimal', seed: 0 }));
      if (name === 'OBErrorResponse1') {
        // No envelope in an error body; the generated ErrorCode is a namespaced member of the list.
        assert.deepEqual(messages(j, 'should'), []);
        return;
      }
      assert.deepEqual(messages(j, 'should'), LINKS_META);
      for (const w of j.should) assert.match(w.source, /^OBIE v3\.1 prose: Links and Meta/);
    });
  }

  test('OBReadAccount6: a minimal account (AccountId only, not switched) also warns of Currency, AccountType, AccountSubType', () => {
    const body = generate('account-info', 'OBReadAccount6', { mode: 'minimal', seed: 0, include: ['Data.Account'] });
    assert.deepEqual(Object.keys(body.Data.Account[0]), ['AccountId']);
    const j = judgeBody('OBReadAccount6', body);
    assert.deepEqual(j.must, []);
    assert.deepEqual(messages(j, 'should'), [
      ...LINKS_META,
      'Data.Account[0]: missing required field Currency',
      'Data.Account[0]: missing required field AccountType',
      'Data.Account[0]: missing required field AccountSubType',
    ]);
    for (const w of j.should.slice(2)) assert.match(w.source, /OBAccount6 description/);
  });

  test('a switched account without them gives no account warning', () => {
    const body = generate('account-info', 'OBReadAccount6', { mode: 'minimal', seed: 0, include: ['Data.Account'] });
    body.Data.Account[0].SwitchStatus = 'UK.CASS.SwitchCompleted';
    assert.deepEqual(messages(judgeBody('OBReadAccount6', body), 'should'), LINKS_META);
  });

  test('OBErrorResponse1: an ErrorCode outside any namespace is accepted by the official schema, and is a SHOULD', () => {
    const body = generate('confirmation-funds', 'OBErrorResponse1', { mode: 'minimal', seed: 0 });
    body.Errors[0].ErrorCode = 'FIELD_MISSING';
    assert.ok(officialValidator('confirmation-funds', 'OBErrorResponse1')(body));
    const j = judgeBody('OBErrorResponse1', body);
    assert.deepEqual(j.must, []);
    assert.equal(j.should.length, 1);
    assert.equal(j.should[0]?.path, 'Errors[0].ErrorCode');
    assert.match(j.should[0]?.source ?? '', /namespaced enumerations/);
  });

  test('formatProblems writes a judgement, MUST lines first, SHOULD lines with their source', () => {
    const body = generate('account-info', 'OBReadBalance1', { mode: 'minimal', seed: 0 });
    body.Data.Balance[0].Type = 'Nope';
    const text = formatProblems(judgeBody('OBReadBalance1', body), 100).split('\n');
    assert.match(text[0] ?? '', /^Data\.Balance\[0\]\.Type: expected one of .*, got "Nope"$/);
    assert.match(text[1] ?? '', /^\(root\): missing required field Links \(SHOULD: OBIE v3\.1 prose: Links and Meta/);
    assert.equal(text.length, 3);
  });
});

describe('real violations of the official schema stay MUST', { skip }, () => {
  function full(name: SchemaName, file: OfficialFile, component: string): Json {
    return generate(file, component, { mode: 'full', seed: 3 });
  }

  test('wrong type', () => {
    const body = full('OBFundsConfirmationResponse1', 'confirmation-funds', 'OBFundsConfirmationResponse1');
    body.Data.FundsAvailable = 'true';
    const j = judgeBody('OBFundsConfirmationResponse1', body);
    assert.deepEqual(messages(j, 'must'), ['Data.FundsAvailable: expected a boolean (true or false), got "true"']);
    assert.equal(j.must[0]?.level, 'MUST');
    assert.equal(j.must[0]?.source, 'OBIE v3.1.11 schema OBFundsConfirmationResponse1');
    assert.deepEqual(j.should, [], 'not repeated as a warning');
    const accounts = full('OBReadAccount6', 'account-info', 'OBReadAccount6');
    accounts.Data.Account = { AccountId: '1' };
    assert.deepEqual(messages(judgeBody('OBReadAccount6', accounts), 'must'), ['Data.Account: expected an array, got {"AccountId":"1"}']);
  });

  test('missing required official field', () => {
    const body = full('OBReadBalance1', 'account-info', 'OBReadBalance1');
    delete body.Data.Balance[0].Amount;
    assert.deepEqual(messages(judgeBody('OBReadBalance1', body), 'must'), ['Data.Balance[0]: missing required field Amount']);
    const consent = full('OBReadConsentResponse1', 'account-info', 'OBReadConsentResponse1');
    delete consent.Risk;
    delete consent.Data.ConsentId;
    assert.deepEqual(messages(judgeBody('OBReadConsentResponse1', consent), 'must'), [
      '(root): missing required field Risk',
      'Data: missing required field ConsentId',
    ]);
    const error = full('OBErrorResponse1', 'confirmation-funds', 'OBErrorResponse1');
    delete error.Errors[0].ErrorCode;
    assert.deepEqual(messages(judgeBody('OBErrorResponse1', error), 'must'), ['Errors[0]: missing required field ErrorCode']);
  });

  test('bad enum, bad pattern, unknown field in a closed object', () => {
    const body = full('OBWriteDomesticConsentResponse5', 'payment-initiation', 'OBWriteDomesticConsentResponse5');
    body.Data.Status = 'Pending';
    body.Data.Initiation.InstructedAmount.Currency = 'gbp';
    body.Balance = '1230.00';
    assert.deepEqual(messages(judgeBody('OBWriteDomesticConsentResponse5', body), 'must').sort(), [
      'Balance: unexpected field (not in the standard)',
      'Data.Initiation.InstructedAmount.Currency: expected a string matching ^[A-Z]{3,3}$, got "gbp"',
      'Data.Status: expected one of Authorised, AwaitingAuthorisation, Consumed, Rejected, got "Pending"',
    ]);
  });

  test('Links present without Self is MUST (the schema requires Self inside Links)', () => {
    const body = full('OBReadTransaction6', 'account-info', 'OBReadTransaction6');
    body.Links = { Next: body.Links.Self };
    assert.deepEqual(messages(judgeBody('OBReadTransaction6', body), 'must'), ['Links: missing required field Self']);
  });

  test('over many mutations, MUST is empty exactly when the official schema accepts', () => {
    let mutations = 0;
    let refused = 0;
    for (const [name, file, component] of RESPONSES) {
      const official = officialValidator(file, component);
      for (let seed = 0; seed < 20; seed++) {
        const body = generate(file, component, { mode: seed % 2 ? 'full' : 'minimal', seed, include: LISTS[name] ?? [] });
        // A minimal body may have no leaf at all (every member of a Beneficiary is optional): then Data is mutated.
        const leaves = leafPaths(body).filter((l) => l.length > 0);
        if (leaves.length === 0) leaves.push(['Data']);
        const target = leaves[(seed * 7) % leaves.length] as (string | number)[];
        mutate(body, target, seed % 4);
        const officialOk = official(body);
        const must = judgeBody(name, body).must;
        assert.equal(must.length === 0, officialOk, `${name} #${seed} ${target.join('.')}: official ${officialOk}, MUST ${formatProblems(must)}; ${JSON.stringify(official.errors)}`);
        mutations++;
        if (!officialOk) refused++;
      }
    }
    assert.ok(refused > mutations / 2, `${refused} of ${mutations} mutations broke the official schema`);
  });
});

function leafPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leafPaths(v, [...prefix, i]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
  }
  return [prefix];
}

/** 0: wrong type (number), 1: delete the field, 2: a value outside any list, 3: an unknown sibling field. */
function mutate(body: Json, path: (string | number)[], how: number): void {
  const parent = path.slice(0, -1).reduce<Json>((o, k) => o[k as keyof Json], body) as Record<string, unknown>;
  const key = path[path.length - 1] as string;
  const inList = Array.isArray(parent as unknown);
  if (how === 0) parent[key] = typeof parent[key] === 'number' ? 'text' : 12345;
  else if (how === 1 && !inList) delete parent[key];
  else if (how === 2) parent[key] = typeof parent[key] === 'string' ? 'Not-In-Any-List ~' : 'x';
  else if (!inList) parent.InventedField = 'x';
  else parent[key] = { InventedField: 'x' };  // an array member: an object where a value is due
}
