// The embedded sandbox's authorisation server in the security profiles real banks run, each judged
// by a conformance run in the test run's warm workers (conformWarm: runConformance, the function the
// binary calls): FAPI 1.0 Advanced as the UK runs it (hybrid, by value, mTLS-bound tokens), FAPI 1.0
// Advanced with PAR and JARM, FAPI 2.0 with DPoP, FAPI 2.0 with mTLS — each passes SEC-14 (its
// authorization response checked before the code is used) on a journey of its own, and SEC-15
// where tokens are DPoP-bound. The runs are scoped to those rules: the full runs (every rule) are
// `obtpp conform --security …` by hand (docs/security.md gives their figures). A bank refusing the
// profile's flow stops the run with exit 3 naming the field to change (run in-process, where the
// error can be read).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance, startSandbox } from '../../src/index.ts';
import { conformWarm } from '../helpers/warm-cli.ts';
import { ExitCode } from '../../src/errors.ts';

describe('obtpp conform --security …: the sandbox in each security profile passes', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'obtpp-security-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const SET_UPS: Array<{ security: string; profile: RegExp; judged: string[] }> = [
    { security: 'fapi1-advanced', profile: /^FAPI 1\.0 Advanced \(fapi1-advanced\): response_type=code id_token \(in the fragment\), a signed request object by value, .*tokens bound to the client certificate \(mTLS\), client auth private_key_jwt, acr urn:openbanking:psd2:sca essential$/, judged: ['SEC-14'] },
    { security: 'fapi1-advanced-par-jarm', profile: /^FAPI 1\.0 Advanced \(fapi1-advanced\): response_type=code \(JARM, response_mode=jwt\), pushed \(PAR\) as a signed request object, PKCE S256, .*\(mTLS\)/, judged: ['SEC-14'] },
    { security: 'fapi2-dpop', profile: /^FAPI 2\.0 Security Profile \(fapi2\): response_type=code, pushed \(PAR\), PKCE S256, iss checked \(RFC 9207\), tokens bound by DPoP/, judged: ['SEC-14', 'SEC-15'] },
    { security: 'fapi2-mtls', profile: /^FAPI 2\.0 Security Profile \(fapi2\): response_type=code, pushed \(PAR\), PKCE S256, iss checked \(RFC 9207\), tokens bound to the client certificate \(mTLS\)/, judged: ['SEC-14'] },
  ];

  for (const s of SET_UPS) {
    test(`${s.security}: exit 0, the security profile named in the report, ${s.judged.join(' and ')} passed`, async () => {
      const { summary, exitCode, events } = await conformWarm({
        sandboxSecurity: s.security, variant: 'A', parallel: 1, tags: '@SEC-14 or @SEC-15', reportDir: join(dir, s.security),
      });
      const notes = events.flatMap(({ e }) => (e.type === 'note' ? [e.message] : []));
      const rules = new Map<string, any>(summary.variants[0]!.rules.map((r: any) => [r.id, r]));
      const failures = [...rules.values()].filter((r) => r.status !== 'passed' && s.judged.includes(r.id)).map((r) => `${r.id} ${r.status}: ${r.failures?.[0]?.message ?? r.notJudged?.[0]?.message ?? r.reason}`);
      assert.deepEqual(failures, []);
      assert.equal(exitCode, 0);
      assert.match(String(summary.security?.description), s.profile);
      assert.ok(notes.some((n) => /^authorisation server: /.test(n) && s.profile.test(n.slice('authorisation server: '.length))), `the console names the profile judged: ${notes.join(' | ')}`);
      for (const id of ['SEC-14', 'SEC-15'].filter((x) => !s.judged.includes(x))) assert.equal(rules.get(id)?.status, 'not-applicable', id);
      assert.match(await readFile(join(dir, s.security, 'summary.md'), 'utf8'), /^Authorisation server: FAPI /m, 'summary.md names it too');
    });
  }

  test('a bank refusing the profile\'s flow: exit 3 naming the field to change, before anything is judged', async () => {
    // A UK bank that serves only the hybrid flow, and a profile that asks for code with PKCE.
    const uk = await startSandbox({ security: 'fapi1-advanced' });
    // A FAPI 2.0 bank that binds tokens by DPoP, and a profile that sends no DPoP proof.
    const dpop = await startSandbox({ security: 'fapi2-dpop' });
    try {
      const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
        ['code-only', { ...uk.profile('A'), security: { profile: 'oauth2' } }, 'security.responseType', /does not offer response_type=code/],
        ['no-dpop', { ...dpop.profile('A'), security: { profile: 'fapi2', senderConstraint: 'none' } }, 'security.senderConstraint', /DPoP/],
      ];
      for (const [name, raw, field, why] of cases) {
        const file = join(dir, `${name}.json`);
        await writeFile(file, JSON.stringify(raw));
        await assert.rejects(runConformance({ profile: file, variant: 'A', reportDir: join(dir, `refused-${name}`), env: { ...process.env, CI: 'true' } }), (error: any) => {
          assert.equal(error.exitCode, ExitCode.cannotRun, error.message);
          assert.equal(error.field, field);
          assert.match(error.message, new RegExp(`^set-up error, nothing was judged: ${field.replace('.', '\\.')}: `));
          assert.match(error.message, why);
          assert.doesNotMatch(error.message, /\n/, 'one line');
          return true;
        });
      }
    } finally {
      await Promise.all([uk.stop(), dpop.stop()]);
    }
  });
});
