// The breadth rules of issue 39 in both UK versions: what a Basic consent discloses (UKAIS-02), a PAN
// without ReadPAN (UKAIS-05), statements and their transactions inside the consent's period
// (UKAIS-03), answers that may not be empty (UKAIS-10's statement file, UKPIS-11), the refusals the
// rules name and the harness now sends (UKPIS-05, UKPIS-06, UKPIS-10's unsigned orders, VRP-05's
// payment after ValidToDateTime, VRP-08's payment signed over another body), and a VRP funds check
// that discloses no balance (VRP-07). The fault sweep (conform.test.ts) proves each of their faults
// at uk-3.1; here each is caught by its own rule in a uk-4.0 run scoped to that rule (the same
// routes, re-spelt in v4.0's codes), in the sweep's worker pool (fault-runs.ts: one process per
// core, one browser each).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFaults, type FaultRow } from './fault-runs.ts';
import { listFaults } from '../../src/sandbox/faults.ts';

/** The faults of the breadth checks, each with the rule that must catch it. */
const BREADTH = [
  'basic-shows-account-detail', 'basic-shows-transaction-detail', 'basic-shows-beneficiary-detail', 'basic-shows-statement-amounts',
  'statements-straddle-period', 'statement-transactions-outside-period', 'pan-unmasked', 'statement-file-empty',
  'unagreed-rate-contract-accepted', 'file-count-unchecked', 'file-control-sum-unchecked', 'file-report-empty', 'payment-details-empty',
  'vrp-funds-balance-disclosed', 'family-order-signature-unchecked', 'vrp-validity-end-ignored',
  'vrp-signature-presence-only',
];

test('at uk-4.0, each fault of the breadth checks is caught by its own rule (a SHOULD fault as its warning), nothing else judged', async () => {
  const declared = new Map(listFaults().map((f) => [f.name, f]));
  const rows: FaultRow[] = BREADTH.map((name) => {
    const f = declared.get(name);
    assert.ok(f, `${name} is a sandbox fault`);
    // Pinned to no layout: the same routes serve v3.1.11 and v4.0.
    assert.equal(f.standard, undefined, `${name} bends both UK layouts`);
    return { label: 'uk-4.0 ', name, rule: f.rule, ...(f.level ? { level: f.level } : {}), options: { standard: 'uk-4.0', parallel: 1, sandboxFaults: [name], tags: `@${f.rule}` } };
  });
  const outcomes = await checkFaults(rows, 2, (o) => process.stdout.write(`${o.line}\n`));
  assert.deepEqual(outcomes.flatMap((o) => o.problems), []);
});
