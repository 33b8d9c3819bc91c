// Issue 28, the delta reports on card accounts (BG-53 entryReferenceFrom, BG-54 deltaList): the
// NextGenPSD2 sandbox offers both on GET /v1/card-accounts/{account-id}/transactions
// (entryReferenceFrom naming a cardTransactionId), a delta report coming whole; its written
// profile says so (deltaReports.cards). A profile whose deltaReports.cards is false leaves the card
// scenarios not applicable, naming the field, while the account scenarios still judge the rules: a
// scoped `conform --profile` run through runObtpp. The card faults (bg-card-entry-reference-from-ignored,
// bg-card-delta-list-repeats) are caught by their rules in test/conformance/conform.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorisedConsent } from '../helpers/bg-sandbox.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';

type Json = any;
const DAY = 86_400_000;
const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);

let sb: Sandbox;
let dir: string;
before(async () => {
  sb = await startSandbox({ dialect: 'berlin-group', quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-card-delta-'));
});
after(async () => {
  await sb?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the sandbox\'s delta reports on card accounts', () => {
  let consentId: string;
  before(async () => {
    consentId = await authorisedConsent(sb, { validUntil: isoDay(-1) });
  });

  const report = async (card: string, query: string): Promise<{ status: number; body: Json; ids: string[] }> => {
    const res = await fetch(`${sb.baseUrls.A}/v1/card-accounts/${card}/transactions?${query}`, { headers: { 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', 'Consent-ID': consentId } });
    const body = await res.json() as Json;
    return { status: res.status, body, ids: res.status === 200 ? (body.cardTransactions.booked ?? []).map((t: Json) => t.cardTransactionId) : [] };
  };

  test('entryReferenceFrom: the booked card transactions after the one named, newest first, without it; unknown or with deltaList refused', async () => {
    const period = await report('alice-card', `bookingStatus=booked&dateFrom=${isoDay(89)}`);
    assert.deepEqual(period.ids, ['alice-card-T1', 'alice-card-T2', 'alice-card-T3']);
    const delta = await report('alice-card', 'bookingStatus=booked&entryReferenceFrom=alice-card-T3');
    assert.equal(delta.status, 200, JSON.stringify(delta.body));
    assert.deepEqual(delta.ids, ['alice-card-T1', 'alice-card-T2'], 'the two later ones, the period not asked');
    const unknown = await report('alice-card', 'bookingStatus=booked&entryReferenceFrom=no-such-transaction');
    assert.deepEqual([unknown.status, unknown.body.tppMessages[0].code], [400, 'FORMAT_ERROR']);
    const both = await report('alice-card', 'bookingStatus=booked&entryReferenceFrom=alice-card-T3&deltaList=true');
    assert.deepEqual([both.status, both.body.tppMessages[0].code], [400, 'PARAMETER_NOT_CONSISTENT']);
  });

  test('deltaList: what no report of the card account has held yet, in one answer (not paged); right after a report, nothing', async () => {
    // alice's second card, which no test above reads: its first delta report is all its booked transactions, 47, unpaged.
    const first = await report('alice-card-2', 'bookingStatus=booked&deltaList=true');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.ids.length, 47);
    assert.equal(first.body.cardTransactions._links.next, undefined);
    assert.deepEqual((await report('alice-card-2', 'bookingStatus=booked&deltaList=true')).ids, [], 'nothing new since the last report access');
    // A period report counts as a report access too.
    await report('alice-card', `bookingStatus=booked&dateFrom=${isoDay(89)}`);
    assert.deepEqual((await report('alice-card', 'bookingStatus=booked&deltaList=true')).ids, []);
  });
});

test('the written profile offers the delta reports on card accounts; with deltaReports.cards false, the card scenarios are not applicable, naming it, and the accounts\' still pass', async () => {
  const raw = sb.profile('A') as { deltaReports?: Record<string, boolean> };
  assert.deepEqual(raw.deltaReports, { entryReferenceFrom: true, deltaList: true, cards: true });
  const file = join(dir, 'no-card-deltas.json');
  await writeFile(file, JSON.stringify({ ...raw, deltaReports: { entryReferenceFrom: true, deltaList: true, cards: false } }));
  const reportDir = join(dir, 'run');
  const run = await runObtpp(['conform', '--profile', file, '--variant', 'A', '--tags', '@BG-53 or @BG-54', '--report-dir', reportDir]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  for (const id of ['BG-53', 'BG-54']) {
    const rule = summary.variants[0].rules.find((r: { id: string }) => r.id === id);
    assert.equal(rule.status, 'passed', JSON.stringify(rule));
    assert.deepEqual([rule.counts.passed, rule.counts.notApplicable], [1, 1], `${id}: ${JSON.stringify(rule.counts)}`);
    assert.match(JSON.stringify(rule), /deltaReports\.cards/);
  }
});
