// A set-up error is not the bank's failure (issue 24, item 6): with a profile copied wrongly for
// Larchmont Bank (written without obtpp's code), the run stops before judging, exits 3 and prints
// one line naming the profile field to fix, and writes no verdicts. A bank that answers 500 is
// still the bank's failure. One bank for the file; each run is scoped to one rule.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { larchmont, profileFor, ruleOf } from './larchmont.ts';

describe('set-up errors stop the run with exit 3 and name the profile field', { concurrency: 2 }, () => {
  let lb: Awaited<ReturnType<typeof larchmont>>;
  before(async () => {
    lb = await larchmont();
  });
  after(() => lb?.stop());

  /** The last line obtpp printed on stderr (the CLI's one line). */
  const lastLine = (stderr: string) => stderr.trim().split('\n').filter(Boolean).at(-1) ?? '';

  async function expectSetupError(profile: string, field: RegExp, extraEnv: Record<string, string> = {}) {
    const run = await lb.conform(profile, ['--tags', '@AIS-04', '--json'], extraEnv);
    const said = (run.summary?.variants?.[0]?.rules ?? []).flatMap((r: any) => [...(r.notJudged ?? []), ...r.failures].map((f: any) => `${r.id}: ${f.message}`));
    assert.equal(run.code, 3, `exit 3, not the bank's failure (stderr: ${run.stderr.slice(-1500)}; verdicts: ${said.join(' | ').slice(0, 1500)})`);
    assert.match(lastLine(run.stderr), field, run.stderr.slice(-1500));
    assert.equal(run.summary, undefined, 'no verdict is written');
    return run;
  }

  test('a redirect URI the client was not registered with: pushed (PAR), and on the authorization URL itself', async () => {
    for (const par of ['auto', 'never'] as const) {
      const run = await expectSetupError(profileFor(lb.bank, { auth: { redirectUri: 'https://tpp.example.org/wrong/callback', par } }), /auth\.redirectUri/);
      assert.match(run.stderr, /redirect/i);
    }
  });

  test('a client secret the bank refuses (invalid_client)', async () => {
    await expectSetupError(profileFor(lb.bank), /auth\.clientId \/ auth\.clientAuth.*invalid_client/, { LARCHMONT_CLIENT_SECRET: 'not-the-secret-at-all-0000' });
  });

  test('a scope the bank does not know', async () => {
    await expectSetupError(profileFor(lb.bank, { auth: { scopesAis: 'accountz' } }), /auth\.scopes\.ais.*accountz/);
  });

  test('a discovery URL that answers 404', async () => {
    await expectSetupError(profileFor(lb.bank, { auth: { discoveryUrl: `${lb.bank.issuer}/nowhere/.well-known/openid-configuration` } }), /^obtpp: auth\.discoveryUrl: /);
  });

  test('a wrong PSU password, on the first journey', async () => {
    await expectSetupError(profileFor(lb.bank), /psu\.username \/ psu\.password/, { LARCHMONT_SECRET_WORD: 'wrong-secret-word' });
  });

  test('a page step whose selector never matches, on the first journey', async () => {
    await expectSetupError(profileFor(lb.bank, { firstSelector: '#customer-no' }), /psu\.driver\.steps\[0\].*never matched/);
  });

  test('a bank that answers 500 is still the bank\'s failure (exit 1, a verdict)', async () => {
    // A bank of its own: the tests above run two at a time, and a defect switched on in the shared
    // bank would make their consents fail too (a 500 where they expect a set-up error).
    const own = await larchmont();
    own.bank.state.defects.add('consent-500');
    try {
      const run = await own.conform(profileFor(own.bank), ['--tags', '@AIS-01', '--json']);
      assert.equal(run.code, 1, run.stderr.slice(-1500));
      assert.equal(ruleOf(run.summary, 'AIS-01').status, 'failed');
    } finally {
      await own.stop();
    }
  });
});
