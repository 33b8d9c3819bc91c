// Issue 28, multilevel SCA (SCA-03): a payment from the berlin-group sandbox's joint account needs
// alice's and bob's SCA; the profile's sca.multilevel says so (bob's password a secret). Scoped
// `obtpp conform --tags @SCA-03` runs through runObtpp (build first): the embedded approach (no
// browser) and the redirect approach (two PSU journeys) pass; a profile without sca.multilevel
// leaves SCA-03 not applicable with its reason. Each fault of SCA-03 is proven by
// test/conformance/conform.test.ts with the other faults.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { profileFromObject, startSandbox } from '../../src/index.ts';
import { ProfileError } from '../../src/errors.ts';
import { maskProfile } from '../../src/profile/mask.ts';
import { assertNoSecret, runObtpp, reportText } from '../helpers/obtpp.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-multilevel-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A scoped conform run: its exit code, SCA-03's row of summary.json, and every report file's text. */
async function conform(name: string, args: string[]) {
  const reportDir = join(dir, name);
  const run = await runObtpp(['conform', '--variant', 'A', '--tags', '@SCA-03', '--report-dir', reportDir, ...args]);
  const summary = JSON.parse(await readFile(join(reportDir, 'summary.json'), 'utf8'));
  const rule = summary.variants[0].rules.find((r: { id: string }) => r.id === 'SCA-03');
  const text = await reportText(reportDir);
  return { run, rule, text };
}

describe('multilevel SCA (SCA-03)', () => {
  test('the profile\'s sca.multilevel: loaded, the second PSU\'s password a secret, masked; incomplete, refused naming the field', async () => {
    const sb = await startSandbox({ dialect: 'berlin-group', sca: ['embedded'] });
    try {
      const raw = sb.profile('A') as { sca: { multilevel?: { iban: string; psu: { username: string; password: string } } } };
      assert.deepEqual(raw.sca.multilevel?.psu.username, 'bob', 'the sandbox writes its joint account\'s second PSU');
      const p = await profileFromObject(raw, { source: 'test' });
      assert.equal(p.sca?.multilevel?.iban, sb.psus[0]!.accounts.find((a) => a.AccountId === 'alice-joint')?.iban);
      assert.ok(p.secrets.includes('bob-pass-1'), 'the second PSU\'s password is a secret the redactor masks');
      assert.equal((maskProfile(p) as { sca: { multilevel: { psu: { password: string } } } }).sca.multilevel.psu.password, '********');
      const { psu: _psu, ...noPsu } = raw.sca.multilevel!;
      await assert.rejects(profileFromObject({ ...raw, sca: { ...raw.sca, multilevel: noPsu } }, { source: 'test' }), (e: Error) => e instanceof ProfileError && /\$\.sca\.multilevel/.test(e.message));
    } finally {
      await sb.stop();
    }
  });

  test('embedded: the two PSUs\' authorisations walked through PUT …/authorisations, SCA-03 passes, neither password nor OTP in any report', async () => {
    const { run, rule, text } = await conform('embedded', ['--dialect', 'berlin-group', '--sca', 'embedded']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(rule.status, 'passed', JSON.stringify(rule));
    assert.match(text, /PUT [^ ]*\/authorisations\//, 'the embedded PUTs are in the evidence');
    assertNoSecret(text, ['alice-pass-1', 'bob-pass-1', '123456']);
  });

  test('redirect: each PSU on the bank\'s page, SCA-03 passes', async () => {
    const { run, rule } = await conform('redirect', ['--dialect', 'berlin-group']);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(rule.status, 'passed', JSON.stringify(rule));
  });

  test('a profile without sca.multilevel: SCA-03 not applicable, naming why', async () => {
    const sb = await startSandbox({ dialect: 'berlin-group', sca: ['embedded'] });
    try {
      const raw = sb.profile('A') as { sca: Record<string, unknown> };
      const { multilevel: _m, ...sca } = raw.sca;
      const file = join(dir, 'no-multilevel.json');
      await writeFile(file, JSON.stringify({ ...raw, sca }));
      const { run, rule } = await conform('none', ['--profile', file]);
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.equal(rule.status, 'not-applicable', JSON.stringify(rule));
      assert.match(JSON.stringify(rule), /sca\.multilevel does not say the bank offers multilevel SCA/);
    } finally {
      await sb.stop();
    }
  });
});
