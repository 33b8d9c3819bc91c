// Issue 28, the SCA approaches: a berlin-group bank without an authorisation server (a profile
// without an auth block) is certified through the redirect approach, with no discovery; the
// decoupled and embedded approaches are walked and judged (SCA-01, SCA-02) against the embedded
// sandbox offering only that approach. Runs go to the test run's warm workers (conformWarm:
// runConformance, the function the binary calls), scoped to a few rules; the faults of SCA-01 and SCA-02 are
// proven with the other faults in test/conformance/conform.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile, profileFromObject, startSandbox } from '../../src/index.ts';
import { ProfileError } from '../../src/errors.ts';
import { Auth } from '../../src/auth/index.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { maskProfile } from '../../src/profile/mask.ts';
import { assertNoSecret, reportText } from '../helpers/obtpp.ts';
import { conformWarm, type RunJob } from '../helpers/warm-cli.ts';

const BASE = {
  name: 'a bank without OAuth', dialect: 'berlin-group', variants: ['A'], baseUrl: 'https://xs2a.bank.example/v1-base',
  psu: { username: 'psu', password: 'psu-password', driver: { kind: 'sandbox' } },
};

describe('a berlin-group profile without an auth block', () => {
  test('loads as a bank without an authorisation server: redirect by default, TPP-Redirect-URI from sca.redirectUri, no discovery possible', async () => {
    const p = await profileFromObject({ ...BASE, sca: { approaches: ['redirect', 'embedded'], redirectUri: 'https://tpp.example/sca-done', otp: '975310' } }, { source: 'test' });
    assert.equal(p.auth.absent, true);
    assert.equal(p.auth.redirectUri, 'https://tpp.example/sca-done');
    assert.deepEqual(p.sca?.approaches, ['redirect', 'embedded']);
    assert.ok(p.secrets.includes('975310'), 'the one-time password is a secret the redactor masks');
    assert.equal(p.auth.par, 'never');
    // Whatever would reach the authorisation server is refused, naming the missing block.
    await assert.rejects(Auth.create(p, httpFromProfile(p)), (e: Error) => e instanceof ProfileError && /no auth block/.test(e.message));
    // What `obtpp profile check` prints: no client made up, the OTP masked.
    const shown = maskProfile(p) as { auth: unknown; sca: { otp: string; redirectUri: string } };
    assert.match(String(shown.auth), /^none \(no auth block/);
    assert.equal(shown.sca.otp, '********');
    assert.equal(shown.sca.redirectUri, 'https://tpp.example/sca-done');
    const d = await profileFromObject({ ...BASE, sca: { redirectUri: 'https://tpp.example/sca-done' } }, { source: 'test' });
    assert.deepEqual(d.sca?.approaches, ['redirect'], 'without OAuth the default approach is redirect alone');
  });

  test('is refused, naming the field, where it cannot work', async () => {
    const refused = async (raw: Record<string, unknown>, field: RegExp) => {
      await assert.rejects(profileFromObject(raw, { source: 'test' }), (e: Error) => e instanceof ProfileError && field.test(e.message), JSON.stringify(raw));
    };
    const { dialect: _d, ...uk } = BASE;
    await refused(uk, /\$\.auth: is required/);
    await refused({ ...BASE, sca: { approaches: ['oauth', 'redirect'], redirectUri: 'https://tpp.example/x' } }, /\$\.sca\.approaches: oauth needs/);
    await refused({ ...BASE, sca: { approaches: ['redirect'] } }, /\$\.sca\.redirectUri: is required/);
    await refused({ ...BASE, sca: { approaches: ['embedded'] }, registration: { softwareStatement: 'x.y.z' } }, /\$\.registration: needs/);
  });
});

describe('obtpp conform --dialect berlin-group --sca …: the embedded sandbox in each approach', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-approaches-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Every rule's status in variant A, and the report dir's text (for secret scans). */
  async function run(name: string, options: RunJob['options']) {
    const reportDir = join(dir, name);
    const { summary, exitCode } = await conformWarm({ variant: 'A', parallel: 1, ...options, reportDir });
    const rules = new Map<string, { status: string; reason?: string; failures: Array<{ message: string }> }>(summary.variants[0]!.rules.map((r: any) => [r.id, r]));
    const failures = [...rules].filter(([, r]) => r.status === 'failed').map(([id, r]) => `${id}: ${r.failures[0]?.message}`);
    const text = await reportText(reportDir);
    return { exitCode, rules, failures, text };
  }

  test('redirect only, no OAuth: the profile has no auth block, the run passes, and the OAuth2 scenarios are not applicable with their cause', async () => {
    // The profile a bank without an authorisation server has, as the sandbox writes it.
    const sb = await startSandbox({ dialect: 'berlin-group', sca: ['redirect'] });
    try {
      const raw = sb.profile('A');
      assert.equal(raw.auth, undefined, 'no auth block');
      assert.equal(raw.registration, undefined);
      const file = join(dir, 'redirect-only.json');
      await writeFile(file, JSON.stringify(raw));
      assert.equal((await loadProfile(file)).auth.absent, true);
      const r = await run('redirect', { profile: file, tags: '@BG-01 or @BG-07' });
      assert.deepEqual(r.failures, []);
      assert.equal(r.exitCode, 0);
      for (const id of ['BG-01', 'BG-07']) assert.equal(r.rules.get(id)?.status, 'passed', id);
      assert.match(r.text, /the profile's sca\.approaches does not offer the OAuth2 SCA approach/);
    } finally {
      await sb.stop();
    }
  });

  for (const approach of ['embedded', 'decoupled'] as const) {
    test(`${approach} only: SCA-01 and SCA-02 judged and passed, BG-01 through the ${approach} SCA, no PSU password or OTP in any report`, async () => {
      const r = await run(approach, { dialect: 'berlin-group', sandboxSca: [approach], tags: '@SCA-01 or @SCA-02 or @BG-01 or @BG-02' });
      assert.deepEqual(r.failures, []);
      assert.equal(r.exitCode, 0);
      for (const id of ['SCA-01', 'SCA-02', 'BG-01', 'BG-02']) assert.equal(r.rules.get(id)?.status, 'passed', `${id}: ${JSON.stringify(r.rules.get(id))}`);
      // The sandbox's PSU alice and the sandbox's one-time password: secrets of the profile.
      assertNoSecret(r.text, ['alice-pass-1', '123456']);
    });
  }

  test('embedded, the password alone finalising the SCA: SCA-02 fails, and its evidence shows the PUTs with the password and the OTP masked', async () => {
    const r = await run('embedded-fault', { dialect: 'berlin-group', sandboxSca: ['embedded'], sandboxFaults: ['bg-embedded-finalised-without-otp'], tags: '@SCA-02' });
    assert.equal(r.exitCode, 1);
    assert.deepEqual(r.failures.map((f) => f.slice(0, 7)), ['SCA-02:']);
    assert.match(r.failures[0]!, /"finalised" after the password, before the TPP sent the one-time password/);
    assert.match(r.text, /"psuData": \{\s*"password": "\[REDACTED\]"/, 'the exchange with the PSU\'s password is in the evidence, masked');
    assert.ok(!r.text.includes('alice-pass-1'));
  });
});
