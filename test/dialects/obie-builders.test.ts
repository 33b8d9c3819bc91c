import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildAccountAccessConsent, buildFundsConsent, buildFundsConfirmation, buildPaymentConsent, validate, judgeBody, formatProblems,
  consentIdOf, statusOf, permissionsOf, accountsOf, balancesOf, transactionsOf, fundsAvailableOf, errorCodesOf,
  PERMISSIONS, CONSENT_STATUSES, PAYMENT_CONSENT_STATUSES, DETAIL_ONLY_ACCOUNT_FIELDS, DETAIL_ONLY_TRANSACTION_FIELDS,
  permissionRules, isoDateTime,
} from '../../src/dialects/obie/index.ts';
import { sample } from './obie-samples.ts';

const debtor = { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '40400411290112', name: 'Mr Kevin' };

describe('request builders', () => {
  test('account-access consent: all fields, valid OBReadConsent1', () => {
    const body = buildAccountAccessConsent({
      permissions: ['ReadAccountsDetail', 'ReadBalances'],
      expirationDateTime: '2027-05-22T00:00:00+00:00',
      transactionFromDateTime: '2025-11-22T00:00:00+00:00',
      transactionToDateTime: '2026-11-22T00:00:00+00:00',
    });
    assert.deepEqual(body, {
      Data: {
        Permissions: ['ReadAccountsDetail', 'ReadBalances'],
        ExpirationDateTime: '2027-05-22T00:00:00+00:00',
        TransactionFromDateTime: '2025-11-22T00:00:00+00:00',
        TransactionToDateTime: '2026-11-22T00:00:00+00:00',
      },
      Risk: {},
    });
    assert.deepEqual(judgeBody('OBReadConsent1', body), { must: [], should: [] });
  });
  test('account-access consent: absent dates stay absent (no undefined keys)', () => {
    const body = buildAccountAccessConsent({ permissions: ['ReadAccountsBasic'] });
    assert.deepEqual(Object.keys(body.Data), ['Permissions']);
    assert.equal(JSON.stringify(body), '{"Data":{"Permissions":["ReadAccountsBasic"]},"Risk":{}}');
  });
  test('account-access consent: the caller\'s array is copied', () => {
    const perms = ['ReadAccountsBasic'];
    const body = buildAccountAccessConsent({ permissions: perms });
    perms.push('ReadBalances');
    assert.deepEqual(body.Data.Permissions, ['ReadAccountsBasic']);
  });
  test('funds consent with and without a debtor account', () => {
    const withDebtor = buildFundsConsent({ debtorAccount: debtor, expirationDateTime: '2027-01-01T00:00:00+00:00' });
    assert.deepEqual(withDebtor, {
      Data: {
        DebtorAccount: { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400411290112', Name: 'Mr Kevin' },
        ExpirationDateTime: '2027-01-01T00:00:00+00:00',
      },
    });
    assert.deepEqual(judgeBody('OBFundsConfirmationConsent1', withDebtor), { must: [], should: [] });
    const without = buildFundsConsent({});
    assert.equal(JSON.stringify(without), '{"Data":{}}');
    assert.equal(formatProblems(validate('OBFundsConfirmationConsent1', without)), 'Data: missing required field DebtorAccount');
  });
  test('funds confirmation', () => {
    const body = buildFundsConfirmation({ consentId: 'fcc-1', reference: 'Purchase01', amount: '20.00', currency: 'GBP' });
    assert.deepEqual(body, { Data: { ConsentId: 'fcc-1', Reference: 'Purchase01', InstructedAmount: { Amount: '20.00', Currency: 'GBP' } } });
    assert.deepEqual(judgeBody('OBFundsConfirmation1', body), { must: [], should: [] });
  });
  test('payment consent with debtor and remittance, in the standard\'s key order', () => {
    const body = buildPaymentConsent({
      instructionIdentification: 'ACME412',
      endToEndIdentification: 'FRESCO.21302.GFX.20',
      amount: '165.88',
      currency: 'GBP',
      creditor: { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '08080021325698', name: 'ACME Inc' },
      debtor,
      remittance: { unstructured: 'Internal ops code 5120101', reference: 'FRESCO-101' },
    });
    assert.deepEqual(Object.keys(body.Data.Initiation), [
      'InstructionIdentification', 'EndToEndIdentification', 'InstructedAmount', 'DebtorAccount', 'CreditorAccount', 'RemittanceInformation',
    ]);
    assert.deepEqual(body.Data.Initiation.CreditorAccount, { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc' });
    assert.deepEqual(body.Risk, {});
    assert.deepEqual(judgeBody('OBWriteDomesticConsent4', body), { must: [], should: [] });
  });
  test('payment consent without debtor (PIS-02) and with an empty remittance: both left out', () => {
    const body = buildPaymentConsent({
      instructionIdentification: 'I1', endToEndIdentification: 'E1', amount: '1.00', currency: 'GBP',
      creditor: { schemeName: 'UK.OBIE.IBAN', identification: 'GB29NWBK60161331926819', name: 'Jane' },
      remittance: {},
    });
    assert.equal('DebtorAccount' in body.Data.Initiation, false);
    assert.equal('RemittanceInformation' in body.Data.Initiation, false);
    assert.deepEqual(judgeBody('OBWriteDomesticConsent4', body), { must: [], should: [] });
  });
});

describe('accessors are tolerant', () => {
  const junk: unknown[] = [undefined, null, 'text', 42, [], {}, { Data: null }, { Data: 'x' }, { Data: [] }, { Data: { Account: 'x', Permissions: {}, Balance: 1, Transaction: null } }];
  test('wrong shapes give undefined or [] and never throw', () => {
    for (const body of junk) {
      assert.equal(consentIdOf(body), undefined);
      assert.equal(statusOf(body), undefined);
      assert.deepEqual(permissionsOf(body), []);
      assert.deepEqual(accountsOf(body), []);
      assert.deepEqual(balancesOf(body), []);
      assert.deepEqual(transactionsOf(body), []);
      assert.equal(fundsAvailableOf(body), undefined);
      assert.deepEqual(errorCodesOf(body), []);
    }
  });
  test('read real answers', () => {
    assert.equal(consentIdOf(sample('OBReadConsentResponse1')), 'aac-6f1c2b9e-58a3-4d6e-9a77-0c3b8f4e2d11');
    assert.equal(statusOf(sample('OBReadConsentResponse1')), 'AwaitingAuthorisation');
    assert.deepEqual(permissionsOf(sample('OBReadConsentResponse1')), ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail', 'ReadTransactionsCredits', 'ReadTransactionsDebits']);
    assert.deepEqual(accountsOf(sample('OBReadAccount6')).map((a) => a.AccountId), ['22289', '31820', '40017']);
    assert.equal(balancesOf(sample('OBReadBalance1')).length, 2);
    assert.deepEqual(transactionsOf(sample('OBReadTransaction6')).map((t) => t.TransactionId), ['tx-123', 'tx-124']);
    assert.equal(fundsAvailableOf(sample('OBFundsConfirmationResponse1')), true);
    assert.deepEqual(errorCodesOf(sample('OBErrorResponse1')), ['UK.OBIE.Field.Missing']);
  });
  test('only the well-typed members are returned', () => {
    assert.deepEqual(permissionsOf({ Data: { Permissions: ['ReadBalances', 7, null] } }), ['ReadBalances']);
    assert.deepEqual(accountsOf({ Data: { Account: [{ AccountId: '1' }, 'x', null, [1]] } }), [{ AccountId: '1' }]);
    assert.equal(fundsAvailableOf({ Data: { FundsAvailable: 'true' } }), undefined);
    assert.equal(fundsAvailableOf({ Data: { FundsAvailable: false } }), false);
    assert.deepEqual(errorCodesOf({ Errors: [{ ErrorCode: 'UK.OBIE.Field.Invalid' }, { ErrorCode: 3 }, 'x'] }), ['UK.OBIE.Field.Invalid']);
  });
});

describe('constants and helpers', () => {
  test('the permission, status and detail lists', () => {
    assert.equal(PERMISSIONS.length, 21);
    assert.equal(new Set(PERMISSIONS).size, 21);
    assert.deepEqual([...CONSENT_STATUSES].sort(), ['Authorised', 'AwaitingAuthorisation', 'Rejected', 'Revoked']);
    assert.deepEqual([...PAYMENT_CONSENT_STATUSES].sort(), ['Authorised', 'AwaitingAuthorisation', 'Consumed', 'Rejected']);
    assert.deepEqual([...DETAIL_ONLY_ACCOUNT_FIELDS], ['Account', 'Servicer']);
    assert.deepEqual([...DETAIL_ONLY_TRANSACTION_FIELDS].sort(), ['Balance', 'CreditorAccount', 'CreditorAgent', 'DebtorAccount', 'DebtorAgent', 'MerchantDetails', 'TransactionInformation']);
  });
  test('permissionRules', () => {
    assert.deepEqual(permissionRules(['ReadAccountsBasic']), { accounts: 'basic', balances: false, transactions: false, credits: false, debits: false });
    assert.deepEqual(
      permissionRules(['ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsBasic', 'ReadTransactionsCredits']),
      { accounts: 'detail', balances: true, transactions: 'basic', credits: true, debits: false },
    );
    assert.deepEqual(
      permissionRules(['ReadTransactionsDetail', 'ReadTransactionsDebits']),
      { accounts: false, balances: false, transactions: 'detail', credits: false, debits: true },
    );
    assert.deepEqual(permissionRules([]), { accounts: false, balances: false, transactions: false, credits: false, debits: false });
  });
  test('isoDateTime writes UTC with +00:00 and whole seconds, and validates', () => {
    assert.equal(isoDateTime(new Date(Date.UTC(2026, 10, 22, 10, 0, 0, 999))), '2026-11-22T10:00:00+00:00');
    assert.equal(isoDateTime(new Date('2027-01-02T03:04:05.678+02:00')), '2027-01-02T01:04:05+00:00');
    const body = buildAccountAccessConsent({ permissions: ['ReadAccountsBasic'], expirationDateTime: isoDateTime(new Date()) });
    assert.deepEqual(judgeBody('OBReadConsent1', body), { must: [], should: [] });
  });
});
