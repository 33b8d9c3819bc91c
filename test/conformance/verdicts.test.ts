// Verdicts a bank cannot dispute, through the real binary against the real sandbox (real sockets,
// real Chromium): a set-up the bank broke makes the scenarios that need it not-judged (with the
// cause and the rule that blocked them), never failed; a rule with an unjudged scenario is not
// passed; every validation problem reaches summary.json, JUnit and the messages; AIS-11 judges
// balances and transactions even when the account list is malformed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObtpp } from '../helpers/obtpp.ts';

interface Run { code: number; stdout: string; stderr: string; dir: string; summary: any; junit: string; messages: string }

/** `obtpp …args` from the project's folder (in a warm worker: nothing here needs a process of its own). */
function obtpp(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runObtpp(args);
}

async function conform(args: string[]): Promise<Run> {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-verdicts-'));
  const run = await obtpp(['conform', '--variant', 'A', '--report-dir', dir, '--json', ...args]);
  const read = (f: string) => readFile(join(dir, f), 'utf8').catch(() => '');
  const text = await read('summary.json');
  assert.ok(text, `summary.json written (exit ${run.code}; ${run.stderr.slice(-1000)})`);
  return { ...run, dir, summary: JSON.parse(text), junit: await read('junit.xml'), messages: await read('messages.ndjson') };
}

const rulesOf = (summary: any): any[] => summary.variants[0].rules;
const rule = (summary: any, id: string): any => rulesOf(summary).find((r: any) => r.id === id);
/** COF and PIS rules, and the SEC rules whose scenarios need the PSU's accounts. */
const DEPENDENT = ['COF-01', 'COF-02', 'COF-03', 'COF-04', 'COF-05', 'COF-06', 'PIS-01', 'PIS-02', 'PIS-03', 'SEC-04', 'SEC-05', 'SEC-08'];

function exchangesOf(summary: any): any[] {
  return rulesOf(summary).flatMap((r: any) => [...r.failures, ...(r.notJudged ?? [])].flatMap((f: any) => f.evidence?.exchanges ?? []));
}

function junitCount(junit: string, attribute: string): number {
  return Number(new RegExp(`<testsuite[^>]* ${attribute}="(\\d+)"`).exec(junit)?.[1] ?? NaN);
}

describe('verdicts on a bank that breaks what other rules need', { concurrency: 2 }, () => {
  test('a malformed account list fails AIS-11 only: the scenarios that need the accounts are not judged, blocked by AIS-11', async () => {
    const run = await conform(['--sandbox-fault', 'accounts-not-array']);
    try {
      const { summary } = run;
      assert.equal(run.code, 1, run.stderr.slice(-2000));
      assert.equal(summary.verdict, 'fail');
      const ais11 = rule(summary, 'AIS-11');
      assert.equal(ais11.status, 'failed');
      for (const id of DEPENDENT) {
        const r = rule(summary, id);
        assert.notEqual(r.status, 'failed', `${id} must not fail on AIS-11's malformed list: ${r.failures[0]?.message}`);
        assert.notEqual(r.status, 'passed', `${id} has scenarios that could not be judged`);
      }
      for (const id of ['COF-02', 'COF-04', 'COF-05', 'PIS-01', 'PIS-03', 'SEC-05', 'SEC-08']) {
        const r = rule(summary, id);
        assert.equal(r.status, 'not-judged', id);
        assert.ok(r.notJudged.length > 0, id);
        for (const f of r.notJudged) {
          assert.equal(f.blockedBy, 'AIS-11', `${id} ${f.scenario}`);
          assert.match(f.message, /^blocked by AIS-11: .*Data\.Account is not an array/, `${id} ${f.scenario}`);
        }
      }
      // AIS-11 judged the balances and the transactions of the account it could find, and says so.
      const failure = ais11.failures[0];
      assert.match(failure.message, /✗ GET \S+\/accounts → 200/);
      assert.match(failure.message, /✓ GET \S+\/accounts\/alice-current\/balances → 200 .*valid/);
      assert.match(failure.message, /✓ GET \S+\/accounts\/alice-current\/transactions → 200 .*valid/);
      assert.ok(failure.problems.some((p: string) => /Data\.Account: expected an array/.test(p)), failure.problems.join('\n'));
      const paths = (failure.evidence?.exchanges ?? []).map((e: any) => new URL(e.url).pathname);
      assert.ok(paths.some((p: string) => p.endsWith('/balances')) && paths.some((p: string) => p.endsWith('/transactions')), paths.join(', '));
      // No literal placeholder ever reached the bank.
      assert.doesNotMatch(run.messages, /%7B(accountId|AccountId|resourceId|paymentId|consentId)%7D/);
      // JUnit: not-judged (and not-applicable) scenarios are skipped, neither passed nor failed.
      assert.equal(junitCount(run.junit, 'skipped'), summary.totals.scenarios.notJudged + summary.totals.scenarios.notApplicable);
      // …and each says why: the cause and the rule that blocked it.
      const skipped = [...run.junit.matchAll(/<skipped message="([^"]*)"\/>/g)].map((m) => m[1]!);
      assert.equal(skipped.length, summary.totals.scenarios.notJudged + summary.totals.scenarios.notApplicable, 'every skipped test case carries its cause');
      const causes = skipped.filter((m) => !m.startsWith('not applicable: '));
      assert.equal(causes.length, summary.totals.scenarios.notJudged);
      assert.ok(causes.every((m) => m.startsWith('not judged: ')), causes.join('\n'));
      assert.ok(causes.some((m) => m.startsWith('not judged: blocked by AIS-11: ')), causes.join('\n'));
      assert.equal(junitCount(run.junit, 'failures'), summary.totals.scenarios.failed);
      assert.ok(summary.totals.scenarios.notJudged >= 20, `not judged: ${summary.totals.scenarios.notJudged}`);
      assert.ok(summary.totals.rules['not-judged'] > 0);
      await rm(run.dir, { recursive: true, force: true });
    } catch (error) {
      process.stdout.write(`# reports kept in ${run.dir}\n`);
      throw error;
    }
  });

  test('a lower-case currency is never copied into a request; every validation problem reaches summary, JUnit and messages', async () => {
    const run = await conform(['--sandbox-fault', 'currency-lowercase']);
    try {
      const { summary } = run;
      assert.equal(run.code, 1, run.stderr.slice(-2000));
      const ais11 = rule(summary, 'AIS-11');
      assert.equal(ais11.status, 'failed');
      for (const id of DEPENDENT) assert.notEqual(rule(summary, id).status, 'failed', `${id}: ${rule(summary, id).failures[0]?.message}`);
      for (const id of ['COF-02', 'PIS-01', 'SEC-05']) {
        assert.ok(rule(summary, id).notJudged.every((f: any) => f.blockedBy === 'AIS-11' && /Currency "gbp"/.test(f.message)), id);
      }
      // The harness's own requests never carry the bank's malformed currency.
      const sent = exchangesOf(summary).filter((e) => JSON.stringify(e.request?.body ?? '').includes('"gbp"'));
      assert.deepEqual(sent.map((e) => `${e.method} ${e.url}`), []);
      // Every problem is kept: the message counts what it does not show, problems holds them all.
      const failure = ais11.failures[0];
      assert.ok(failure.problems.length > 5, `problems: ${failure.problems.length}`);
      assert.match(failure.message, new RegExp(`… and ${failure.problems.length - 5} more$`));
      const currency = failure.problems.filter((p: string) => /Currency: expected a string matching/.test(p));
      assert.ok(currency.length >= 3, failure.problems.join('\n'));
      for (const p of failure.problems) {
        const path = /: (Data\.[^:]+):/.exec(p)?.[1] ?? p;
        assert.ok(run.messages.includes(JSON.stringify(p).slice(1, -1)) || run.messages.includes(path), `messages.ndjson carries ${p}`);
      }
      // The HTML report too (entities decoded: the report escapes quotes and angle brackets).
      const html = (await readFile(join(run.dir, 'report.html'), 'utf8')).replace(/&quot;|&#34;/g, '"').replace(/&#39;|&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      for (const p of failure.problems) assert.ok(html.includes(p), `report.html carries ${p}`);
      const junitFailure = /AIS-11 — [^"]*- Every account[\s\S]*?<\/testcase>/.exec(run.junit)?.[0] ?? '';
      for (const p of failure.problems) assert.ok(junitFailure.includes(/: (Data\.[^:]+):/.exec(p)?.[1] ?? p), `junit.xml carries ${p}`);
      // The failure's message attribute and its text both carry the whole list.
      assert.ok((junitFailure.match(/Currency: expected a string matching/g)?.length ?? 0) >= currency.length);
      await rm(run.dir, { recursive: true, force: true });
    } catch (error) {
      process.stdout.write(`# reports kept in ${run.dir}\n`);
      throw error;
    }
  });
});

describe('a rule with an unjudged scenario', () => {
  test('is not passed: the verdict is incomplete, exit 0, and exit 1 with --strict', async () => {
    const tags = ['--tags', '@COF-05', '--sandbox-fault', 'zero-balance'];
    const [plain, strict] = [await conform(tags), await conform([...tags, '--strict'])];
    try {
      for (const run of [plain, strict]) {
        const cof05 = rule(run.summary, 'COF-05');
        assert.equal(cof05.status, 'not-judged');
        assert.equal(run.summary.verdict, 'incomplete');
        assert.equal(run.summary.totals.rules.passed, 0);
        assert.equal(run.summary.totals.scenarios.notJudged, 1);
        assert.match(cof05.notJudged[0].message, /available balance \(0\) leaves no amount that is surely covered/);
        assert.equal(junitCount(run.junit, 'skipped'), 1);
        assert.equal(junitCount(run.junit, 'failures'), 0);
      }
      assert.equal(plain.code, 0, plain.stderr.slice(-1000));
      assert.equal(strict.code, 1, strict.stderr.slice(-1000));
      await rm(plain.dir, { recursive: true, force: true });
      await rm(strict.dir, { recursive: true, force: true });
    } catch (error) {
      process.stdout.write(`# reports kept in ${plain.dir} and ${strict.dir}\n`);
      throw error;
    }
  });
});

describe('a rule the bank does not offer', () => {
  test('is not applicable with the profile\'s reason, in summary.json, the table, report.html and JUnit', async () => {
    const { startSandbox } = await import('../../src/sandbox/index.ts');
    const sb = await startSandbox();
    const dir = await mkdtemp(join(tmpdir(), 'obtpp-offers-'));
    try {
      const offered = ['createAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions', 'getTransaction', 'createFundsConsent', 'confirmFunds', 'createPaymentConsent', 'getPayment', 'getPaymentStatus'];
      const profile = { ...sb.profile('all'), implements: { A: offered } };
      const file = join(dir, 'bank.json');
      await writeFile(file, JSON.stringify(profile), { mode: 0o600 });
      const reports = join(dir, 'reports');
      const run = await obtpp(['conform', '--profile', file, '--variant', 'A', '--tags', '@COF-07 or @AIS-01', '--report-dir', reports]);
      const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
      const cof07 = rule(summary, 'COF-07');
      assert.equal(cof07.status, 'not-applicable', JSON.stringify(cof07));
      assert.match(cof07.reason, /the profile says the bank does not offer (getFundsConsent|deleteFundsConsent)/);
      assert.equal(rule(summary, 'AIS-01').status, 'passed');
      assert.equal(rule(summary, 'AIS-01').reason, undefined, 'a judged rule has no reason');
      assert.equal(run.code, 0, run.stderr.slice(-1000));
      assert.match(run.stdout, /Not applicable:\n {2}\[A\] COF-07 the profile says the bank does not offer/);
      const html = await readFile(join(reports, 'report.html'), 'utf8');
      assert.match(html, /the profile says the bank does not offer (getFundsConsent|deleteFundsConsent)/);
      const junit = await readFile(join(reports, 'junit.xml'), 'utf8');
      const skipped = [...junit.matchAll(/<skipped message="([^"]*)"\/>/g)].map((m) => m[1]!);
      assert.equal(skipped.length, junitCount(junit, 'skipped'), 'every skipped test case says why');
      assert.ok(skipped.length >= 1 && skipped.every((m) => /^not applicable: the profile says the bank does not offer /.test(m)), skipped.join('\n'));
      await rm(dir, { recursive: true, force: true });
    } catch (error) {
      process.stdout.write(`# reports kept in ${dir}\n`);
      throw error;
    } finally {
      await sb.stop();
    }
  });
});
