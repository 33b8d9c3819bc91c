// The CLI's front door through the REAL binary: a missing subcommand, CLI words in messages,
// --write-profile by extension, --consent where docs/cli.md shows it, and a session that
// survives a restarted bank (a refused client-credentials token is fetched anew once; a refused
// refresh token says to authorise again; token clear says what it cleared).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parse as parseYaml } from 'yaml';
import { runCli } from '../../src/cli/program.ts';
import type { Io } from '../../src/cli/io.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { bin, harness, profileEntry, readState, type Harness, type Run } from './helpers.ts';

/** Exit code, nothing on stdout, exactly one line on stderr matching `line`. */
function oneLine(run: Run, code: number, line: RegExp): void {
  assert.equal(run.code, code, `obtpp ${run.args.join(' ')}: exit ${run.code}\n${run.stdout}\n${run.stderr}`);
  assert.equal(run.stdout, '', `nothing on stdout: ${run.stdout}`);
  const lines = run.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${run.stderr}`);
  assert.match(lines[0], line);
}

describe('obtpp front door (real binary, sandbox)', { timeout: 300_000 }, () => {
  let h: Harness;
  let restarted: Sandbox | undefined;
  before(async () => {
    h = await harness();
  });
  after(async () => {
    await restarted?.stop();
    await h?.stop();
  });

  test('a command group without its subcommand: exit 2, one line naming them and that command\'s --help', async () => {
    oneLine(await h.obtpp([]), 2, /^obtpp: a command is needed \(conform, .*consent.*\); see obtpp --help$/);
    oneLine(await h.obtpp(['consent']), 2, /^obtpp: consent needs a subcommand \(create, authorise, get, delete, list, forget\); see obtpp consent --help$/);
    oneLine(await h.obtpp(['consent', 'create']), 2, /^obtpp: consent create needs a subcommand \(ais, cof, pis\); see obtpp consent create --help$/);
    oneLine(await h.obtpp(['token']), 2, /^obtpp: token needs a subcommand \(show, refresh, clear\); see obtpp token --help$/);
    oneLine(await h.obtpp(['consent', 'creat']), 2, /^obtpp: unknown command 'consent creat' \(did you mean create\?\) .*see obtpp consent --help$/);
    // A usage error points to the --help of the command that has it.
    oneLine(await h.obtpp(['consent', 'create', 'ais', '--bogus']), 2, /^obtpp: unknown option '--bogus' \(see obtpp consent create ais --help\)$/);
    oneLine(await h.obtpp(['conform', '--parallel', '99']), 2, /^obtpp: --parallel takes a whole number from 1 to 8, not 99 \(see obtpp conform --help\)$/);
    // conform finds its profile as every other command does: --profile, else OBTPP_PROFILE (here, files that are not there).
    const fromEnv = await h.obtpp(['conform', '--json'], { OBTPP_PROFILE: 'no-such-bank.yaml' });
    assert.equal(fromEnv.code, 2, fromEnv.stderr);
    assert.match(fromEnv.stderr, /^profile no-such-bank\.yaml: no such file/);
    const flagWins = await h.obtpp(['conform', '--json', '--profile', 'other-bank.yaml'], { OBTPP_PROFILE: 'no-such-bank.yaml' });
    assert.equal(flagWins.code, 2, flagWins.stderr);
    assert.match(flagWins.stderr, /^profile other-bank\.yaml: no such file/);
    assert.doesNotMatch(flagWins.stderr, /no-such-bank/);
    // Help asked for is still help, on stdout, exit 0.
    for (const args of [['consent', '--help'], ['help', 'consent'], ['consent', 'help', 'create']]) {
      const help = await h.obtpp(args);
      assert.equal(help.code, 0, `obtpp ${args.join(' ')}: ${help.stderr}`);
      assert.match(help.stdout, /^Usage: obtpp consent /);
      assert.equal(help.stderr, '');
    }
  });

  test('--consent ID where docs/cli.md shows it; both forms must agree', async () => {
    oneLine(await h.obtpp(['consent', 'delete', '--consent', 'no-such']), 2, /^obtpp: unknown consent no-such for profile/);
    oneLine(await h.obtpp(['consent', 'get', '--consent', 'no-such']), 2, /^obtpp: unknown consent no-such/);
    oneLine(await h.obtpp(['payment', 'status', '--consent', 'a', 'b']), 2, /^obtpp: two different consents given: b and --consent a$/);
    oneLine(await h.obtpp(['consent', 'forget']), 2, /^obtpp: consent forget needs the consent/);
    const conform = await h.obtpp(['conform', '--verbose', '--state', 'x.json', '--help']);
    assert.equal(conform.code, 0, conform.stderr);
  });

  test('an operation a variant lacks is named in the CLI\'s words', async () => {
    oneLine(await h.obtpp(['consent', 'create', 'pis', '--variant', 'B', '--amount', '1', '--creditor-id', '1', '--creditor-name', 'x']), 2,
      /^obtpp: payment initiation \(obtpp consent create pis\) is not part of variant B \(variant B has no .*\)$/);
    const run = await h.obtpp(['consent', 'create', 'pis', '--variant', 'B', '--amount', '1', '--creditor-id', '1', '--creditor-name', 'x']);
    assert.doesNotMatch(run.stderr, /createPaymentConsent/);
  });

  test('sandbox --write-profile writes JSON for .json and commented YAML for .yaml, each accepted by profile check', async () => {
    for (const name of ['sb.json', 'sb.yaml', 'sb.yml']) {
      const file = join(h.dir, name);
      const out = new PassThrough();
      const err = new PassThrough();
      let checked: Run | undefined;
      const io: Io = {
        stdout: out, stderr: err, env: {}, cwd: h.dir, color: false, interactive: false, exitCode: 0,
        waitForSignal: async () => {
          checked = await h.obtpp(['profile', 'check', file, '--json'], { OBTPP_PROFILE: undefined });
          return 'SIGTERM';
        },
      };
      assert.equal(await runCli(['sandbox', '--write-profile', file], io), 0);
      const text = await readFile(file, 'utf8');
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      if (name.endsWith('.json')) {
        assert.equal(JSON.parse(text).auth.clientId, 'obtpp-sandbox-basic');
      } else {
        assert.match(text, /^# obtpp sandbox profile/);
        assert.equal(parseYaml(text).auth.clientId, 'obtpp-sandbox-basic');
      }
      assert.equal(checked!.code, 0, `profile check ${name}: ${checked!.stderr}`);
      assert.equal(JSON.parse(checked!.stdout).auth.clientId, 'obtpp-sandbox-basic');
    }
  });

  test('after the bank restarts: consent create fetches a new client-credentials token once; a refused refresh says to authorise again; token clear says what it cleared', async () => {
    const first = await h.json(['consent', 'create', 'ais']);
    assert.equal(first.code, 0, first.stderr);
    const before = profileEntry(await readState(h.stateFile)).clientCredentials.ais.accessToken;

    // Restart the bank on the same port: it forgets every token it issued (and has a new client secret).
    const port = Number(new URL(h.sb.issuer).port);
    await h.sb.stop();
    let sb2: Sandbox;
    try {
      sb2 = restarted = await startSandbox({ port, quiet: true });
    } catch (error) {
      throw new Error(`could not restart the sandbox on port ${port}: ${(error as Error).message}`);
    }
    await writeFile(h.profileFile, JSON.stringify(sb2.profile('all'), null, 2), { mode: 0o600 });

    const again = await h.json(['consent', 'create', 'ais', '--verbose']);
    assert.equal(again.code, 0, `consent create after a restart: exit ${again.code}\n${again.stderr}`);
    assert.match(again.doc.Data.ConsentId, /\S/);
    // The bank refused the cached token once (401), then the fresh one worked (201): one retry, no more.
    assert.equal((again.stderr.match(/account-access-consents → 401/g) ?? []).length, 1, again.stderr);
    assert.equal((again.stderr.match(/account-access-consents → 201/g) ?? []).length, 1, again.stderr);
    const after = profileEntry(await readState(h.stateFile)).clientCredentials.ais.accessToken;
    assert.notEqual(after, before, 'the new token is kept');

    // A consent authorised at the old bank: its tokens mean nothing to the new one.
    const id = first.doc.Data.ConsentId;
    const oldTokens = async (expiresAt: number) => {
      const state = await readState(h.stateFile);
      profileEntry(state).tokens[id] = { accessToken: 'old-access-token-of-the-old-bank', refreshToken: 'old-refresh-token-of-the-old-bank', expiresAt, obtainedAt: Date.now() - 3_600_000 };
      await writeFile(h.stateFile, JSON.stringify(state), { mode: 0o600 });
    };
    // A data call whose token the bank refuses tries the refresh token once; refused too: authorise again.
    await oldTokens(Date.now() + 3_600_000);
    const read = await h.obtpp(['accounts', '--consent', id, '--verbose']);
    assert.equal(read.code, 1, read.stderr);
    assert.equal(read.stdout, '');
    assert.equal((read.stderr.match(/accounts → 401/g) ?? []).length, 1, read.stderr);
    assert.match(read.stderr, /token → 400/);
    assert.match(read.stderr.trimEnd().split('\n').at(-1)!, new RegExp(`^obtpp: the bank refused the refresh token of consent ${id} \\(invalid_grant\\): run obtpp consent authorise ${id} again`));
    assert.ok(!read.stderr.includes('old-refresh-token-of-the-old-bank') && !read.stderr.includes('old-access-token-of-the-old-bank'), 'tokens stay redacted');
    // `token refresh` itself says the same.
    await oldTokens(Date.now() - 60_000);
    oneLine(await h.obtpp(['token', 'refresh', '--consent', id]), 1,
      new RegExp(`^obtpp: the bank refused the refresh token of consent ${id} \\(invalid_grant\\): run obtpp consent authorise ${id} again`));
    assert.equal(profileEntry(await readState(h.stateFile)).tokens[id], undefined, 'the useless tokens are forgotten');

    const cleared = await h.obtpp(['token', 'clear']);
    assert.equal(cleared.code, 0, cleared.stderr);
    assert.match(cleared.stdout, /^cleared the client-credentials token of ais for profile obtpp sandbox \(variant A\) in \S+state\.json; the consents are kept/);
    const none = await h.obtpp(['token', 'clear']);
    assert.match(none.stdout, /^no tokens to clear for profile obtpp sandbox \(variant A\)/);
  });
});

test('the harness\'s binary exists (build first)', async () => {
  await stat(bin);
  const r = await new Promise<number>((done) => execFile(process.execPath, [bin, '--version'], (e) => done(e ? 1 : 0)));
  assert.equal(r, 0);
});
