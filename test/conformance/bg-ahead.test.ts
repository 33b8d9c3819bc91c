// Issue 37 (item 3), the Berlin Group run's speed without a check less: the scenarios whose PSU
// authorises a recurring consent of their own run first (@recurring-consent), grouped by their
// first step; the recurring consent of one Given serves the scenarios that ask for it until
// another recurring consent expires it; one rejected consent per variant; the one-off and
// rejected consents are prepared ahead of their scenarios (step-definitions/berlin-group/ahead.ts).
// Scoped runs of the library the CLI calls, in the test run's warm workers (conformWarm).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOrder } from '../../src/conformance/order-plugin.ts';
import { conformWarm } from '../helpers/warm-cli.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-ahead-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('the run order: @recurring-consent first, grouped by first step; @waits last; the rest as written', () => {
  const s = (name: string, tags: string[], first: string) => ({ name, tags, first });
  const plan = [
    s('a', [], 'x'), s('r1', ['@recurring-consent'], 'all'), s('w', ['@waits'], 'x'), s('r2', ['@recurring-consent'], 'first'),
    s('b', [], 'y'), s('r3', ['@recurring-consent'], 'all'),
  ];
  assert.deepEqual(runOrder(plan, (p) => p.tags, (p) => p.first).map((p) => p.name), ['r1', 'r3', 'r2', 'a', 'b', 'w']);
});

test('shared and prepared consents: fewer PSU journeys, prepared while the recurring scenarios run, every scenario judged and passed', async () => {
  // AIS-04's two scenarios share one recurring consent; SEC-04 and BG-02 one rejected consent;
  // BG-04 and BG-05 a one-off consent each, prepared while AIS-04 runs.
  const rules = ['AIS-04', 'SEC-04', 'BG-02', 'BG-04', 'BG-05'];
  const { summary, exitCode, events } = await conformWarm({
    dialect: 'berlin-group', variant: 'A', tags: rules.map((r) => `@${r}`).join(' or '), reportDir: join(dir, 'run'),
  });
  const variant = summary.variants[0]!;
  const judged = variant.rules.filter((r: any) => rules.includes(r.id));
  assert.deepEqual(judged.map((r: any) => `${r.id} ${r.status}`).sort(), rules.map((r) => `${r} passed`).sort());
  assert.equal(exitCode, 0);
  const scenarios = events.flatMap(({ at, e }) => (e.type === 'scenario' ? [{ at, rule: e.rule }] : []));
  assert.equal(scenarios.length, 6);
  // The recurring consent's scenarios first.
  assert.deepEqual(scenarios.slice(0, 2).map((x) => x.rule), ['AIS-04', 'AIS-04']);
  const journeys = events.flatMap(({ at, e }) => (e.type === 'wait' && e.kind === 'journey' && e.state === 'start' ? [at] : []));
  // 1 (AIS-04, shared) + 1 (the rejected consent, shared) + 2 (one-off, one each): 6 without sharing.
  assert.equal(journeys.length, 4, `PSU journeys: ${journeys.length}`);
  // While the first scenario ran (its own journey), a consent of a later one was prepared beside it.
  assert.ok(journeys.filter((at) => at <= scenarios[0]!.at).length >= 2, JSON.stringify({ journeys, scenarios }));
});

test('decoupled: the TPP reads the scaStatus soon after each step of the PSU\'s, so it sees the status between login and approval', async () => {
  const { summary, exitCode } = await conformWarm({
    dialect: 'berlin-group', variant: 'A', tags: '@SCA-01', sandboxSca: ['decoupled'], sandboxFaults: ['bg-sca-status-regresses'],
    reportDir: join(dir, 'decoupled'),
  });
  assert.equal(exitCode, 1);
  const sca01 = summary.variants[0]!.rules.find((r: any) => r.id === 'SCA-01');
  assert.equal(sca01.status, 'failed');
  // The sandbox's PSU is authenticated after the login step and finalised after the approval: a
  // read after the login step sees psuAuthenticated while the PSU is still at it.
  assert.match(sca01.failures[0].message, /psuIdentified before the PSU acted → psuAuthenticated polling while the PSU approves → finalised/);
});
