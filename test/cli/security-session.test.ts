// The terminal client against a FAPI 2.0 bank whose tokens are DPoP-bound (the sandbox's fapi2-dpop
// set-up), through the CLI: PAR, PKCE and DPoP on every call of every command, one process after
// another (the session keeps its DPoP key with its tokens, in the state file, mode 0600); `token
// show` says how the token is bound; and a profile asking a flow the bank does not serve ends in
// one line naming the field to change, exit 3.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, type Harness } from './helpers.ts';

describe('obtpp terminal client against a FAPI 2.0 bank with DPoP-bound tokens', { timeout: 600_000 }, () => {
  let h: Harness;
  before(async () => {
    h = await harness({ security: 'fapi2-dpop' });
  });
  after(async () => {
    await h?.stop();
  });

  test('consent authorise, the data and payment commands, token show and refresh: every call with a fresh DPoP proof', async () => {
    const created = await h.json(['consent', 'create', 'ais', '--permissions', 'ReadAccountsBasic,ReadBalances', '--expires', '+1d']);
    assert.equal(created.code, 0, created.stderr);
    const auth = await h.json(['consent', 'authorise', '--accounts', 'alice-current']);
    assert.equal(auth.code, 0, auth.stderr);
    assert.equal(auth.doc.status, 'authorised');

    const accounts = await h.json(['accounts', '--verbose']);
    assert.equal(accounts.code, 0, accounts.stderr);
    assert.deepEqual(accounts.doc.Data.Account.map((a: any) => a.AccountId), ['alice-current']);
    assert.match(accounts.stderr, /authorization: DPoP \[REDACTED\]/, 'the DPoP scheme');
    assert.match(accounts.stderr, /\bdpop: /, 'a proof');
    assert.doesNotMatch(accounts.stderr, /authorization: Bearer/);

    const shown = await h.json(['token', 'show']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.doc.tokenType, 'DPoP');
    assert.equal(shown.doc.senderConstraint, 'dpop');
    assert.match(shown.doc.dpopJkt, /^[A-Za-z0-9_-]{43}$/);
    const text = await h.obtpp(['token', 'show']);
    assert.match(text.stdout, /^bound {10}DPoP \(token_type DPoP\): sent as Authorization: DPoP with a fresh proof of the session's key, jkt [A-Za-z0-9_-]{43}$/m);

    // The key is the session's: kept in the state file (0600) beside the tokens bound to it.
    const state = JSON.parse(await readFile(h.stateFile, 'utf8'));
    const entry = Object.values(state.profiles)[0] as any;
    assert.equal(entry.dpopKey.kty, 'EC');
    assert.equal(typeof entry.dpopKey.d, 'string');

    const refreshed = await h.json(['token', 'refresh']);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    const balances = await h.json(['balances', 'alice-current']);
    assert.equal(balances.code, 0, balances.stderr);
    assert.equal((await h.json(['token', 'show'])).doc.dpopJkt, shown.doc.dpopJkt, 'the same key after a refresh, in another process');

    const payment = await h.json(['consent', 'create', 'pis', '--amount', '3.50', '--creditor-id', '30963452000417', '--creditor-name', 'Bob Baker', '--reference', 'dpop test']);
    assert.equal(payment.code, 0, payment.stderr);
    assert.equal((await h.json(['consent', 'authorise', '--debtor', 'alice-current'])).code, 0);
    assert.equal((await h.json(['payment', 'status'])).code, 0);
  });

  test('a profile asking for what the bank does not serve: one line naming the field, exit 3', async () => {
    const raw = JSON.parse(await readFile(h.profileFile, 'utf8'));
    const file = join(h.dir, 'no-par.json');
    await writeFile(file, JSON.stringify({ ...raw, security: { profile: 'fapi2', par: false } }), { mode: 0o600 });
    const run = await h.obtpp(['conform', '--profile', file, '--report-dir', join(h.dir, 'refused')]);
    assert.equal(run.code, 3, run.stderr);
    const lines = run.stderr.trim().split('\n').filter((l) => !/^(⠋|profile )/.test(l));
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /^obtpp: set-up error, nothing was judged: security\.par: the bank's authorisation server \(http:\/\/127\.0\.0\.1:\d+\) requires pushed authorization requests/);
  });
});
