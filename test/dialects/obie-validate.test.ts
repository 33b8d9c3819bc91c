import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { validate, judgeBody, formatProblems, compileAll, SCHEMA_NAMES } from '../../src/dialects/obie/index.ts';
import { valueAt } from '../../src/dialects/obie/validate.ts';
import type { SchemaName, SchemaProblem } from '../../src/dialects/obie/index.ts';
import { sample, SAMPLE_NAMES } from './obie-samples.ts';

function lines(name: SchemaName, body: unknown): string[] {
  return formatProblems(validate(name, body), 100).split('\n').filter(Boolean);
}

/** The SHOULD warnings only, as plain lines (their source checked where it matters). */
function warnings(name: SchemaName, body: unknown): string[] {
  return judgeBody(name, body).should.map((p) => p.message);
}

describe('obie schemas accept conformant bodies', () => {
  test('there is a sample for every schema', () => {
    assert.deepEqual([...SAMPLE_NAMES].sort(), [...SCHEMA_NAMES].sort());
  });
  for (const name of SAMPLE_NAMES) {
    test(`${name}: the sample is valid, with no warning either`, () => {
      const judgement = judgeBody(name, sample(name));
      assert.deepEqual(judgement, { must: [], should: [] }, formatProblems(judgement, 100));
    });
  }
  test('date-times with Z, an offset or fractions are valid', () => {
    for (const dt of ['2026-11-22T10:00:00Z', '2026-11-22T10:00:00.123+01:00', '2026-11-22T10:00:00-05:00']) {
      const body = sample('OBReadBalance1');
      body.Data.Balance[0].DateTime = dt;
      assert.deepEqual(validate('OBReadBalance1', body), [], dt);
    }
  });
  test('amounts at the limits of the standard are valid', () => {
    for (const amount of ['0', '9999999999999', '1.5', '9999999999999.12345']) {
      const body = sample('OBFundsConfirmation1');
      body.Data.InstructedAmount.Amount = amount;
      assert.deepEqual(validate('OBFundsConfirmation1', body), [], amount);
    }
  });
  test('a namespaced code the list does not name (ASPSP extension) is valid', () => {
    const body = sample('OBReadAccount6');
    body.Data.Account[0].Account[0].SchemeName = 'GB.AlphaBank.Internal';
    const err = sample('OBErrorResponse1');
    err.Errors[0].ErrorCode = 'GB.AlphaBank.Quota.Exceeded';
    assert.deepEqual(validate('OBReadAccount6', body), []);
    assert.deepEqual(validate('OBErrorResponse1', err), []);
  });
  test('every payment-order status is a valid payment status, with a DomesticPaymentId', () => {
    for (const status of ['AwaitingAuthorisation', 'Authorised', 'Rejected', 'Consumed', 'Pending', 'AcceptedSettlementInProcess', 'AcceptedSettlementCompleted', 'AcceptedWithoutPosting', 'AcceptedCreditSettlementCompleted']) {
      const body = sample('PaymentStatusResponse');
      body.Data.Status = status;
      body.Data.DomesticPaymentId = 'dp-1';
      assert.deepEqual(validate('PaymentStatusResponse', body), [], status);
    }
  });
});

describe('obie schemas refuse each kind of violation, readably', () => {
  test('missing required field', () => {
    const body = sample('OBReadAccount6');
    delete body.Data.Account[0].AccountId;
    assert.deepEqual(lines('OBReadAccount6', body), ['Data.Account[0]: missing required field AccountId']);
    const funds = sample('OBFundsConfirmationConsent1');
    delete funds.Data.DebtorAccount;
    assert.deepEqual(lines('OBFundsConfirmationConsent1', funds), ['Data: missing required field DebtorAccount']);
  });
  test('missing Links and Meta: a SHOULD (mandatory by the profile prose, optional in the schema)', () => {
    const body = sample('OBReadBalance1');
    delete body.Links;
    delete body.Meta;
    assert.deepEqual(lines('OBReadBalance1', body), []);
    assert.deepEqual(warnings('OBReadBalance1', body), ['(root): missing required field Links', '(root): missing required field Meta']);
    const [w] = judgeBody('OBReadBalance1', body).should;
    assert.equal(w?.level, 'SHOULD');
    assert.match(w?.source ?? '', /^OBIE v3\.1 prose: Links and Meta/);
    assert.equal(formatProblems(judgeBody('OBReadBalance1', body), 1).split('\n')[0], `(root): missing required field Links (SHOULD: ${w?.source})`);
  });
  test('Links present without Self is a MUST (the schema requires Self inside Links)', () => {
    const body = sample('OBReadBalance1');
    body.Links = {};
    assert.deepEqual(lines('OBReadBalance1', body), ['Links: missing required field Self']);
    assert.deepEqual(judgeBody('OBReadBalance1', body).must[0]?.source, 'OBIE v3.1.11 schema OBReadBalance1');
  });
  test('unexpected field where the standard closes the object', () => {
    const body = sample('OBReadTransaction6');
    body.Data.Transaction[0].Foo = 'bar';
    body.Data.Transaction[0].Balance.AvailableAmount = '12.00';
    assert.deepEqual(lines('OBReadTransaction6', body), [
      'Data.Transaction[0].Foo: unexpected field (not in the standard)',
      'Data.Transaction[0].Balance.AvailableAmount: unexpected field (not in the standard)',
    ]);
    const problem = validate('OBReadTransaction6', body)[0] as SchemaProblem;
    assert.equal(problem.got, '"bar"');
    assert.equal(problem.keyword, 'additionalProperties');
  });
  test('the value a problem shows is read from the body at the error\'s path, a name holding / or ~ included', () => {
    // The validators are compiled without ajv's verbose errors: what a problem got comes from the
    // body, at the JSON Pointer ajv names (where / is ~1 and ~ is ~0).
    const body = sample('OBReadTransaction6');
    body.Data.Transaction[0]['a/b~c'] = { odd: true };
    body.Data.Transaction[0].Amount.Currency = 'gbpx';
    const problems = validate('OBReadTransaction6', body) as SchemaProblem[];
    const odd = problems.find((p) => p.keyword === 'additionalProperties');
    assert.equal(odd?.got, '{"odd":true}');
    const currency = problems.find((p) => p.path === 'Data.Transaction[0].Amount.Currency');
    assert.equal(currency?.got, '"gbpx"');
    assert.equal(valueAt(body, '/Data/Transaction/0/a~1b~0c'), body.Data.Transaction[0]['a/b~c']);
    assert.equal(valueAt(body, '/Data/Transaction/99'), undefined);
    assert.equal(valueAt(body, ''), body);
  });
  test('a balance disclosed in a funds confirmation is an unexpected field (COF-04)', () => {
    const body = sample('OBFundsConfirmationResponse1');
    body.Data.AvailableBalance = { Amount: '1230.00', Currency: 'GBP' };
    // OBFundsConfirmationResponse1.Data is not closed in the standard; the top level is.
    assert.deepEqual(validate('OBFundsConfirmationResponse1', body), []);
    const top = sample('OBFundsConfirmationResponse1');
    top.Balance = '1230.00';
    assert.deepEqual(lines('OBFundsConfirmationResponse1', top), ['Balance: unexpected field (not in the standard)']);
  });
  test('bad amount', () => {
    for (const amount of ['12,50', '-5.00', '1.123456', '12345678901234', '1e3', ' 1.00', '']) {
      const body = sample('OBReadBalance1');
      body.Data.Balance[1].Amount.Amount = amount;
      assert.deepEqual(lines('OBReadBalance1', body), [
        `Data.Balance[1].Amount.Amount: expected a string matching ^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$, got ${JSON.stringify(amount)}`,
      ], amount);
    }
  });
  test('amount as a number is a wrong type (reported once)', () => {
    const body = sample('OBFundsConfirmation1');
    body.Data.InstructedAmount.Amount = 20;
    assert.deepEqual(lines('OBFundsConfirmation1', body), ['Data.InstructedAmount.Amount: expected a string, got 20']);
  });
  test('bad currency', () => {
    const body = sample('OBReadAccount6');
    body.Data.Account[0].Currency = 'gbp';
    assert.deepEqual(lines('OBReadAccount6', body), ['Data.Account[0].Currency: expected a string matching ^[A-Z]{3,3}$, got "gbp"']);
    body.Data.Account[0].Currency = 'GBPX';
    assert.deepEqual(lines('OBReadAccount6', body), ['Data.Account[0].Currency: expected a string matching ^[A-Z]{3,3}$, got "GBPX"']);
  });
  test('date-time without a timezone, and other non-date-times', () => {
    for (const dt of ['2026-11-22T10:00:00', '2026-11-22', '22/11/2026 10:00', '2026-02-30T10:00:00Z']) {
      const body = sample('OBReadConsentResponse1');
      body.Data.CreationDateTime = dt;
      assert.deepEqual(lines('OBReadConsentResponse1', body), [
        `Data.CreationDateTime: expected a date-time with a timezone (e.g. 2026-11-22T10:00:00+00:00), got ${JSON.stringify(dt)}`,
      ], dt);
    }
  });
  test('bad enum', () => {
    const body = sample('OBReadConsentResponse1');
    body.Data.Status = 'Pending';
    assert.deepEqual(lines('OBReadConsentResponse1', body), [
      'Data.Status: expected one of Authorised, AwaitingAuthorisation, Rejected, Revoked, got "Pending"',
    ]);
    const consent = sample('OBReadConsent1');
    consent.Data.Permissions.push('ReadEverything');
    assert.match(formatProblems(validate('OBReadConsent1', consent)), /^Data\.Permissions\[5\]: expected one of ReadAccountsBasic, ReadAccountsDetail, .*ReadTransactionsDetail, got "ReadEverything"$/);
  });
  test('wrong type', () => {
    const body = sample('OBFundsConfirmationResponse1');
    body.Data.FundsAvailable = 'true';
    assert.deepEqual(lines('OBFundsConfirmationResponse1', body), ['Data.FundsAvailable: expected a boolean (true or false), got "true"']);
    const accounts = sample('OBReadAccount6');
    accounts.Data.Account = { AccountId: '1' };
    assert.deepEqual(lines('OBReadAccount6', accounts), ['Data.Account: expected an array, got {"AccountId":"1"}']);
  });
  test('length limits and empty lists', () => {
    const body = sample('OBReadConsentResponse1');
    body.Data.ConsentId = '';
    body.Data.Permissions = [];
    assert.deepEqual(lines('OBReadConsentResponse1', body), [
      'Data.ConsentId: expected a string of at least 1 character, got ""',
      'Data.Permissions: expected at least 1 item, got []',
    ]);
    const acc = sample('OBReadAccount6');
    acc.Data.Account[0].AccountId = 'x'.repeat(80);
    assert.deepEqual(lines('OBReadAccount6', acc), [
      `Data.Account[0].AccountId: expected a string of at most 40 characters, got "${'x'.repeat(58)}…`,
    ]);
  });
  test('Links.Self must be an absolute URI', () => {
    const body = sample('PaymentStatusResponse');
    body.Links.Self = '/domestic-payments/pay-58923/status';
    assert.deepEqual(lines('PaymentStatusResponse', body), ['Links.Self: expected an absolute URI, got "/domestic-payments/pay-58923/status"']);
  });
  test('AIS consent Risk must be {}', () => {
    const body = sample('OBReadConsentResponse1');
    body.Risk = { PaymentContextCode: 'Other' };
    assert.deepEqual(lines('OBReadConsentResponse1', body), ['Risk.PaymentContextCode: unexpected field (not in the standard)']);
  });
  test('ErrorCode should be namespaced (a SHOULD); Errors must not be empty (a MUST)', () => {
    const body = sample('OBErrorResponse1');
    body.Errors[0].ErrorCode = 'FIELD_MISSING';
    assert.deepEqual(lines('OBErrorResponse1', body), []);
    assert.deepEqual(warnings('OBErrorResponse1', body), [
      'Errors[0].ErrorCode: expected a string matching ^[A-Z][A-Za-z0-9]*(\\.[A-Za-z0-9]+)+$, got "FIELD_MISSING"',
    ]);
    assert.match(judgeBody('OBErrorResponse1', body).should[0]?.source ?? '', /namespaced enumerations/);
    body.Errors[0].ErrorCode = 42;
    assert.deepEqual(lines('OBErrorResponse1', body), ['Errors[0].ErrorCode: expected a string, got 42']);
    assert.deepEqual(warnings('OBErrorResponse1', body), [], 'a wrong type is a MUST, not repeated as a SHOULD');
    body.Errors = [];
    assert.deepEqual(lines('OBErrorResponse1', body), ['Errors: expected at least 1 item, got []']);
  });
  test('a Berlin Group error body is not OBErrorResponse1 (SEC-06)', () => {
    const problems = lines('OBErrorResponse1', { tppMessages: [{ category: 'ERROR', code: 'FORMAT_ERROR' }] });
    assert.deepEqual(problems, [
      '(root): missing required field Code',
      '(root): missing required field Message',
      '(root): missing required field Errors',
      'tppMessages: unexpected field (not in the standard)',
    ]);
  });
  test('payment status outside the lists', () => {
    const body = sample('PaymentStatusResponse');
    body.Data.Status = 'ACSC';
    assert.match(formatProblems(validate('PaymentStatusResponse', body)), /^Data\.Status: expected one of AwaitingAuthorisation|.*Consumed.*AcceptedCreditSettlementCompleted, got "ACSC"$/);
  });
  test('a non-switched account should carry Currency, AccountType and AccountSubType (a SHOULD: OBAccount6 description)', () => {
    const body = sample('OBReadAccount6');
    body.Data.Account[2].SwitchStatus = 'UK.CASS.NotSwitched';
    assert.deepEqual(lines('OBReadAccount6', body), []);
    const should = judgeBody('OBReadAccount6', body).should;
    assert.ok(should.every((p) => p.level === 'SHOULD' && /OBAccount6 description/.test(p.source)), JSON.stringify(should));
    assert.deepEqual(warnings('OBReadAccount6', body), [
      'Data.Account[2]: missing required field Currency',
      'Data.Account[2]: missing required field AccountType',
      'Data.Account[2]: missing required field AccountSubType',
    ]);
  });
  test('a payment consent without CreditorAccount.Name', () => {
    const body = sample('OBWriteDomesticConsent4');
    delete body.Data.Initiation.CreditorAccount.Name;
    body.Data.Initiation.InstructedAmount.Currency = 'gb';
    assert.deepEqual(lines('OBWriteDomesticConsent4', body), [
      'Data.Initiation.InstructedAmount.Currency: expected a string matching ^[A-Z]{3,3}$, got "gb"',
      'Data.Initiation.CreditorAccount: missing required field Name',
    ]);
  });
});

describe('bodies that are not JSON objects', () => {
  test('HTML', () => {
    const html = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    const problems = validate('OBReadAccount6', html);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.path, '(body)');
    assert.equal(formatProblems(problems), `(body): expected a JSON object, got text ${JSON.stringify(html).slice(0, 59)}…`);
  });
  test('nothing, null, an array, a number', () => {
    assert.equal(formatProblems(validate('OBErrorResponse1', undefined)), '(body): expected a JSON object, got undefined (no body)');
    assert.equal(formatProblems(validate('OBErrorResponse1', null)), '(body): expected a JSON object, got null');
    assert.equal(formatProblems(validate('OBErrorResponse1', [1])), '(body): expected a JSON object, got an array [1]');
    assert.equal(formatProblems(validate('OBErrorResponse1', 42)), '(body): expected a JSON object, got number 42');
    assert.equal(formatProblems(validate('OBErrorResponse1', '')), '(body): expected a JSON object, got an empty body');
  });
});

test('formatProblems shows the first `max` and counts the rest', () => {
  const body = sample('OBReadBalance1');
  for (const b of body.Data.Balance) b.Amount.Currency = 'x';
  body.Data.Balance[0].Type = 'Nope';
  body.Data.Balance[0].AccountId = '';
  const problems = validate('OBReadBalance1', body);
  assert.equal(problems.length, 4);
  const text = formatProblems(problems, 2).split('\n');
  assert.equal(text.length, 3);
  assert.equal(text[2], '… and 2 more');
  assert.equal(formatProblems([]), '');
});

test('problems carry schemaPath for traceability', () => {
  const body = sample('OBReadAccount6');
  body.Data.Account[0].Currency = 'gbp';
  const [p] = validate('OBReadAccount6', body);
  assert.equal(p?.schemaPath, '#/properties/Data/properties/Account/items/properties/Currency/pattern');
  assert.equal(p?.got, '"gbp"');
  assert.equal(p?.expected, 'a string matching ^[A-Z]{3,3}$');
});

test('validation is fast once compiled (hot path of every exchange)', () => {
  compileAll();
  const body = sample('OBReadTransaction6');
  const n = 20_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) validate('OBReadTransaction6', body);
  const perCallUs = Number(process.hrtime.bigint() - start) / n / 1000;
  // A generous bound so a loaded CI machine does not flake; typically a few µs.
  assert.ok(perCallUs < 200, `validation took ${perCallUs.toFixed(1)} µs per call`);
});
