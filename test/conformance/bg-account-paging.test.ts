// Issue 28, paging of an account's transaction report by `_links.next` (BG-32): the NextGenPSD2
// sandbox pages a period report longer than ACCOUNT_PAGE_SIZE (a year of alice's current account),
// newest first, a booking day never split, the pending ones on the first page; the chain holds
// the whole report once; an 89-day report (what the other scenarios read) and a delta report come
// whole. Then one scoped `conform --tags @BG-32` run through runObtpp under the fault
// bg-account-pages-repeat fails BG-32 on the account scenario alone. The PSU's SCA is the redirect
// page's two forms posted by fetch: no browser in the sandbox part.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authorisedConsent } from '../helpers/bg-sandbox.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';

type Json = any;
const DAY = 86_400_000;
const isoDay = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY).toISOString().slice(0, 10);

describe('the sandbox pages a long account report', () => {
  let sb: Sandbox;
  let consentId: string;
  before(async () => {
    sb = await startSandbox({ dialect: 'berlin-group', quiet: true });
    consentId = await authorisedConsent(sb, { validUntil: isoDay(-1) });
  });
  after(async () => {
    await sb?.stop();
  });

  const get = async (url: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(url, { headers: { 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', 'Consent-ID': consentId } });
    return { status: res.status, body: await res.json() };
  };
  const report = (query: string) => `${sb.baseUrls.A}/v1/accounts/alice-current/transactions?${query}`;

  test('a year of booked transactions: pages of at least 100 by _links.next, newest first, no day split, each transaction once, the chain ending', async () => {
    const pages: Json[] = [];
    let url: string | undefined = report(`bookingStatus=both&dateFrom=${isoDay(365)}`);
    while (url) {
      const page = await get(url);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      pages.push(page.body.transactions);
      url = page.body.transactions._links.next?.href;
      assert.ok(pages.length < 10, 'the chain ends');
    }
    assert.ok(pages.length >= 2, 'a year of alice\'s current account is paged');
    assert.ok(pages[0]._links.first && pages[0]._links.last && !pages[0]._links.previous, 'the first page links first and last');
    assert.ok(pages[1]._links.previous, 'a later page links its previous');
    assert.equal(pages[0].pending.length, 1, 'the pending transaction heads the first page');
    assert.ok(pages.slice(1).every((p) => p.pending === undefined), 'and no later page');
    const booked = pages.map((p) => p.booked as Json[]);
    assert.ok(booked.slice(0, -1).every((b) => b.length >= 100), 'every page but the last holds at least 100');
    const all = booked.flat();
    const ids = all.map((t) => t.transactionId);
    assert.equal(new Set(ids).size, ids.length, 'no transaction on two pages');
    const dates = all.map((t) => t.bookingDate as string);
    assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first across the pages');
    for (let i = 1; i < booked.length; i++) assert.notEqual(booked[i - 1]!.at(-1).bookingDate, booked[i]![0].bookingDate, `page ${i + 1} does not start on the day page ${i} ends on`);
    // The same report as a delta from its oldest transaction: a delta report comes whole, one page.
    const oldest = all.at(-1);
    const delta = await get(report(`bookingStatus=booked&entryReferenceFrom=${encodeURIComponent(oldest.entryReference)}`));
    assert.equal(delta.body.transactions._links.next, undefined);
    assert.deepEqual(delta.body.transactions.booked.map((t: Json) => t.transactionId), ids.slice(0, -1), 'every later one, in one answer');
  });

  test('an 89-day report, what the other scenarios read, comes whole: no page links; a page the report lacks is refused', async () => {
    const short = await get(report(`bookingStatus=booked&dateFrom=${isoDay(89)}`));
    assert.equal(short.status, 200);
    assert.deepEqual(Object.keys(short.body.transactions._links), ['account']);
    assert.ok(short.body.transactions.booked.length > 20 && short.body.transactions.booked.length < 100);
    const beyond = await get(report(`bookingStatus=booked&dateFrom=${isoDay(89)}&page=2`));
    assert.deepEqual([beyond.status, beyond.body.tppMessages[0].code], [400, 'FORMAT_ERROR']);
  });
});

test('conform --tags @BG-32 under bg-account-pages-repeat: BG-32 fails on the account report alone, naming the repeated transaction', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-account-paging-'));
  try {
    const run = await runObtpp(['conform', '--dialect', 'berlin-group', '--variant', 'A', '--tags', '@BG-32', '--sandbox-fault', 'bg-account-pages-repeat', '--report-dir', dir]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const summary = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8'));
    const rule = summary.variants[0].rules.find((r: { id: string }) => r.id === 'BG-32');
    assert.equal(rule.status, 'failed');
    assert.deepEqual([rule.counts.failed, rule.counts.passed], [1, 1], JSON.stringify(rule.counts));
    assert.match(JSON.stringify(rule), /the account \\"alice-current\\"'s report gives the transaction \\"[^"\\]+\\" on page 1 and again on page 2/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
