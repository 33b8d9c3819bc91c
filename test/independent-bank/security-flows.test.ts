// The security profiles on a bank this project did not build its judge against: Larchmont Bank
// (test/independent-bank), its authorisation server configured from scratch. As a UK bank that
// offers only the hybrid flow (response_type code id_token, a signed request object by value, no
// PKCE, no PAR), a UK profile that says nothing of security gets its tokens (FAPI 1.0 Advanced, the
// UK's default) and SEC-14 judges the detached signature; a profile asking for code with PKCE is told,
// before anything is judged, which field to change (the issue's bank: every journey refused, 34
// rules unjudged and 14 failed). As a FAPI 2.0 bank whose resource servers take DPoP-bound tokens
// only with their proof, obtpp's DPoP passes and SEC-15 judges the proof is required. The runs go
// to the test run's warm workers (conformWarm); the one refused before it starts runs in-process,
// where its error can be read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runConformance } from '../../src/index.ts';
import { ExitCode } from '../../src/errors.ts';
import { startIndependentBank } from './bank.ts';
import { larchmontAuthAndPsu, larchmontEnv } from './profile-parts.ts';
import { conformWarm } from '../helpers/warm-cli.ts';

type Bank = Awaited<ReturnType<typeof startIndependentBank>>;

function profileFor(bank: Bank, security = ''): string {
  return `# Larchmont Bank at UK Read/Write v3.1.11's paths${security ? `, ${security}` : ''}.
name: Larchmont Bank (independent test bank)
standard: uk-3.1
apis:
  ais: { baseUrl: ${bank.apis.ais.A} }
  cof: { baseUrl: ${bank.apis.cof.A} }
  pis: { baseUrl: ${bank.apis.pis.A} }
implements:
  A: [createAccountAccessConsent, getAccountAccessConsent, deleteAccountAccessConsent, listAccounts, getAccount, getBalances, getTransactions]
${security}
${larchmontAuthAndPsu(bank)}`;
}

describe('Larchmont\'s authorisation server in the security profiles real banks run', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'obtpp-independent-security-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** The bank's profile as a file. */
  async function profileFile(name: string, profile: string): Promise<string> {
    const file = join(dir, `${name}.yaml`);
    await writeFile(file, profile);
    return file;
  }

  /** One run of the bank's profile; the profile's secrets reach the step definitions through the environment, as from a shell. */
  async function run(bank: Bank, name: string, profile: string, tags: string) {
    return conformWarm({ profile: await profileFile(name, profile), tags, reportDir: join(dir, name), env: larchmontEnv(bank) });
  }

  /** The same run in this process, for one whose error is to be read. */
  async function runHere(bank: Bank, name: string, profile: string, tags: string) {
    const file = await profileFile(name, profile);
    const env = larchmontEnv(bank);
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      return await runConformance({ profile: file, tags, reportDir: join(dir, name), env: { ...process.env, CI: 'true' } });
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
  }

  test('a UK bank offering only code id_token (no PKCE, no PAR) gives obtpp its tokens; asked for code with PKCE, exit 3 naming security.responseType', async () => {
    const bank = await startIndependentBank({ flow: 'hybrid' });
    try {
      const { summary, exitCode } = await run(bank, 'hybrid', profileFor(bank), '@SEC-01 or @SEC-04 or @SEC-14');
      const rules = new Map<string, any>(summary.variants[0]!.rules.map((r: any) => [r.id, r]));
      for (const id of ['SEC-01', 'SEC-04', 'SEC-14']) assert.equal(rules.get(id)?.status, 'passed', `${id}: ${JSON.stringify(rules.get(id)?.failures?.[0]?.message ?? rules.get(id)?.notJudged?.[0]?.message)}`);
      assert.equal(exitCode, 0);
      const s = summary.security as Record<string, unknown>;
      assert.deepEqual([s.profile, s.responseType, s.responseMode, s.par, s.requestObject, s.pkce], ['fapi1-advanced', 'code id_token', 'fragment', false, true, 'none']);
      assert.match(String((s.from as Record<string, string>).profile), /standard uk-3\.1/);

      await assert.rejects(runHere(bank, 'code-asked', profileFor(bank, 'security: oauth2'), '@SEC-01'), (error: any) => {
        assert.equal(error.exitCode, ExitCode.cannotRun);
        assert.equal(error.field, 'security.responseType');
        assert.match(error.message, /^set-up error, nothing was judged: security\.responseType: the bank's authorisation server \(http:\/\/127\.0\.0\.1:\d+\) does not offer response_type=code .*its discovery offers code id_token$/);
        return true;
      });
    } finally {
      await bank.stop();
    }
  });

  test('a FAPI 2.0 bank binding tokens by DPoP: PAR, PKCE, a fresh proof on every call, and a token without its proof refused (SEC-15)', async () => {
    const bank = await startIndependentBank({ flow: 'dpop' });
    try {
      const { summary, exitCode } = await run(bank, 'dpop', profileFor(bank, 'security: fapi2'), '@SEC-01 or @SEC-14 or @SEC-15 or @AIS-04');
      const rules = new Map<string, any>(summary.variants[0]!.rules.map((r: any) => [r.id, r]));
      for (const id of ['SEC-01', 'SEC-14', 'SEC-15', 'AIS-04']) assert.equal(rules.get(id)?.status, 'passed', `${id}: ${JSON.stringify(rules.get(id)?.failures?.[0]?.message ?? rules.get(id)?.notJudged?.[0]?.message)}`);
      assert.equal(exitCode, 0);
      const s = summary.security as Record<string, unknown>;
      assert.deepEqual([s.profile, s.par, s.pkce, s.senderConstraint, s.issParameter], ['fapi2', true, 'S256', 'dpop', true]);
    } finally {
      await bank.stop();
    }
  });
});

describe('Larchmont\'s authorisation server judged by the OpenID Foundation\'s FAPI modules that apply to it', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'obtpp-independent-oidf-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * What Larchmont truly does not do, each failing the module that judges it (a bank this project
   * did not build its judge against: oidc-provider configured from scratch, its own resource servers).
   */
  const TRUE_FAILURES: Record<'hybrid' | 'dpop', string[]> = {
    // oidc-provider, as Larchmont configures it, takes the client's one registered redirect URI when
    // the request names none, and one outside the request object (FAPI 1.0 Advanced 5.2.2-10: only
    // the request object's parameters; OIDC Core 3.1.2.1: redirect_uri is required).
    hybrid: [
      'SEC-19 An authorisation request without a redirect_uri is refused',
      'SEC-19 An authorisation request whose redirect_uri is only outside its request object or pushed request is refused',
    ],
    // Larchmont's resource servers take a DPoP proof without a jti (RFC 9449 §4.2: required), and
    // compare htu with its query (RFC 9449 §4.3: ignoring any query and fragment).
    dpop: [
      'SEC-23 The resource server refuses a DPoP-bound token whose proof has no jti',
      'SEC-23 The token endpoint and the resource server take a DPoP proof whose htu carries a query',
    ],
  };

  for (const flow of ['hybrid', 'dpop'] as const) {
    test(`${flow}: --tags @oidf fails only what Larchmont truly does not do; the rest passes, or is not applicable or not judged with the reason`, async () => {
      const bank = await startIndependentBank({ flow });
      try {
        const file = join(dir, `${flow}.yaml`);
        await writeFile(file, profileFor(bank, flow === 'dpop' ? 'security: fapi2' : ''));
        const { summary } = await conformWarm({ profile: file, tags: '@oidf and not @waits', reportDir: join(dir, flow), env: larchmontEnv(bank) });
        const rules = summary.variants[0]!.rules as any[];
        const failed = rules.flatMap((r) => (r.failures ?? []).map((f: any) => `${r.id} ${f.scenario}`)).sort();
        assert.deepEqual(failed, [...TRUE_FAILURES[flow]].sort());
        // What Larchmont cannot be asked (one client, no SCA acr, no request-object key for DPoP) is said, never failed.
        const notJudged = rules.flatMap((r) => (r.notJudged ?? []).map((n: any) => n.message as string));
        for (const m of notJudged) assert.match(m, /auth\.secondClient|no key to sign request objects/, m);
        const passed = rules.filter((r) => r.status === 'passed' || r.verdict?.startsWith('pass')).map((r) => r.id);
        for (const id of ['SEC-01', 'SEC-04', 'SEC-16', 'SEC-18']) assert.ok(passed.includes(id), `${flow}: ${id} passed (${rules.find((r) => r.id === id)?.status})`);
      } finally {
        await bank.stop();
      }
    });
  }
});
