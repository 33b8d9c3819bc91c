// SEC-13 judges PKCE only on the footing the bank gave, at the level that footing carries, through
// the real binary against a sandbox that does not require PKCE (the pkce-not-required fault), with
// obtpp not pushing its requests (auth.par: never) so that FAPI's PAR rule is out of play:
// the profile says the bank requires PKCE → failed; the profile is silent but the discovery
// advertises S256 → a SHOULD warning, the rule passed; the profile says PKCE is optional →
// not applicable, with the reason. Never passed without a footing, never failed on a SHOULD.
// (`obtpp conform` runs in the test run's warm workers: nothing here needs a process of its own.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runObtpp } from '../helpers/obtpp.ts';

describe('SEC-13: PKCE judged on the bank\'s footing', () => {
  let sb: Sandbox;
  let dir: string;
  before(async () => {
    sb = await startSandbox({ faults: ['pkce-not-required'], quiet: true });
    dir = await mkdtemp(join(tmpdir(), 'obtpp-pkce-'));
  });
  after(async () => {
    await sb?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** One scoped run with the profile's auth patched; SEC-13's result and the exit code. */
  async function sec13(auth: Record<string, unknown>): Promise<{ code: number; rule: any }> {
    const raw = sb.profile('A') as Record<string, any>;
    Object.assign(raw.auth, { par: 'never', ...auth });
    const name = Object.values(auth).join('-') || 'silent';
    const profile = join(dir, `${name}.json`);
    await writeFile(profile, JSON.stringify(raw), { mode: 0o600 });
    const reports = join(dir, `reports-${name}`);
    const { code } = await runObtpp(['conform', '--profile', profile, '--tags', '@SEC-13', '--report-dir', reports, '--json']);
    const summary = JSON.parse(await readFile(join(reports, 'summary.json'), 'utf8'));
    return { code, rule: summary.variants[0].rules.find((r: any) => r.id === 'SEC-13') };
  }

  test('auth.pkce: required → failed (MUST), the code exchanged without a code_verifier named', async () => {
    const { code, rule } = await sec13({ pkce: 'required' });
    assert.equal(code, 1);
    assert.equal(rule.status, 'failed');
    assert.match(rule.failures[0].message, /auth\.pkce: required.*exchanged without a code_verifier/s);
  });

  test('silent profile, S256 advertised → passed with a SHOULD warning, never failed', async () => {
    const { code, rule } = await sec13({});
    assert.equal(code, 0);
    assert.equal(rule.status, 'passed');
    assert.ok(rule.warnings.some((w: any) => /code_challenge_methods_supported has S256/.test(w.message)), JSON.stringify(rule.warnings));
  });

  test('auth.pkce: optional → not applicable, with the reason', async () => {
    const { rule } = await sec13({ pkce: 'optional' });
    assert.equal(rule.status, 'not-applicable');
    assert.match(JSON.stringify(rule), /auth\.pkce: optional/);
  });
});
