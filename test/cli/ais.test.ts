// `obtpp ais RESOURCE [accountId] [statementId]`: a word the command does not know, a bulk read the
// standard lacks, a per-account read the standard lacks, a statement read without its StatementId — each
// a usage error (exit 2) naming what to type, before any profile is read or request sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runObtpp } from '../helpers/obtpp.ts';

test('obtpp ais refuses what the standard has no read for, with exit 2 and what to type instead', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['ais', 'mandates'], /^obtpp: obtpp ais mandates: expected one of balances, transactions, .*statement-transactions$/m],
    [['ais', 'product'], /the standard has no bulk read of product: give the account/],
    [['ais', 'products', 'alice-current'], /the standard has no per-account read of products \(leave the account out\)/],
    [['ais', 'statement-file', 'alice-current'], /needs the account and the StatementId: obtpp ais statement-file ACCOUNT STATEMENT/],
  ];
  const runs = await Promise.all(cases.map(([args]) => runObtpp([...args, '--profile', '/nonexistent/profile.yaml'])));
  runs.forEach((run, i) => {
    assert.equal(run.code, 2, `${cases[i]![0].join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, cases[i]![1], cases[i]![0].join(' '));
  });
});
