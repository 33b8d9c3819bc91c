// The terminal client through the REAL binary against a running sandbox, real Chromium, real
// sockets: whole AIS, COF and PIS sessions using only CLI commands and their --json outputs, the
// error lines and exit codes, the state file, and no secret in any output but `token show`'s.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { harness, profileEntry, readState, type Harness } from './helpers.ts';

describe('obtpp terminal client (real binary, sandbox, Chromium)', { timeout: 600_000 }, () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(async () => {
    await h?.stop();
  });

  /** A failed command: the exit code, one line on stderr matching `line`, nothing on stdout. */
  function failsWith(run: { code: number; stdout: string; stderr: string; args: string[] }, code: number, line: RegExp) {
    assert.equal(run.code, code, `obtpp ${run.args.join(' ')}: exit ${run.code}\n${run.stderr}`);
    const lines = run.stderr.trim().split('\n');
    assert.equal(lines.length, 1, `one line on stderr, got:\n${run.stderr}`);
    assert.match(lines[0], line);
    if (run.args.includes('--json')) assert.equal(run.stdout, '', 'nothing on stdout with --json on error');
  }

  test('an AIS session: create, authorise, accounts, balances, transactions, one transaction', async () => {
    const created = await h.json(['consent', 'create', 'ais', '--permissions', 'ReadAccountsDetail,ReadBalances,ReadTransactionsDetail,ReadTransactionsCredits,ReadTransactionsDebits', '--expires', '+30d', '--from', '-60d']);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stderr, '');
    const consentId = created.doc.Data.ConsentId;
    assert.equal(created.doc.Data.Status, 'AwaitingAuthorisation');

    const auth = await h.json(['consent', 'authorise', '--accounts', 'alice-current,alice-savings']);
    assert.equal(auth.code, 0, auth.stderr);
    assert.deepEqual(Object.keys(auth.doc).sort(), ['accounts', 'consentId', 'expiresAt', 'fn', 'scope', 'status']);
    assert.equal(auth.doc.consentId, consentId);
    assert.equal(auth.doc.status, 'authorised');
    assert.deepEqual([...auth.doc.accounts].sort(), ['alice-current', 'alice-savings']);

    const accounts = await h.json(['accounts', '--verbose']);
    assert.equal(accounts.code, 0, accounts.stderr);
    assert.deepEqual(accounts.doc.Data.Account.map((a: any) => a.AccountId).sort(), ['alice-current', 'alice-savings']);
    assert.match(accounts.stderr, /GET http:\/\/127\.0\.0\.1:\d+\/A\/open-banking\/v3\.1\/accounts → 200/);
    assert.match(accounts.stderr, /authorization: Bearer \[REDACTED\]/);

    const one = await h.json(['accounts', 'alice-savings']);
    assert.deepEqual(one.doc.Data.Account.map((a: any) => a.AccountId), ['alice-savings']);

    const balances = await h.json(['balances', 'alice-current']);
    assert.equal(balances.code, 0, balances.stderr);
    assert.ok(balances.doc.Data.Balance.length > 0);
    assert.ok(balances.doc.Data.Balance.every((b: any) => b.AccountId === 'alice-current'));

    const txs = await h.json(['transactions', 'alice-current', '--from', '-30d']);
    assert.equal(txs.code, 0, txs.stderr);
    const list = txs.doc.Data.Transaction;
    assert.ok(list.length > 0);
    const since = Date.now() - 31 * 86_400_000;
    assert.ok(list.every((t: any) => Date.parse(t.BookingDateTime) >= since), 'the --from filter reached the bank');

    const detail = await h.json(['transaction', 'alice-current', list[0].TransactionId]);
    assert.equal(detail.code, 0, detail.stderr);
    assert.equal(detail.doc.Data.Transaction[0].TransactionId, list[0].TransactionId);

    // The human table carries the identification the debtor resolution relies on.
    const table = await h.obtpp(['accounts']);
    assert.match(table.stdout, /^ACCOUNT\s+NAME\s+CCY\s+SUBTYPE/m);
    assert.match(table.stdout, /^alice-current\s+Everyday\s+GBP\s+CurrentAccount\s+Personal\s+40400411290112$/m);

    // An expired access token is refreshed by itself, and saved.
    const state = await readState(h.stateFile);
    const entry = profileEntry(state);
    const before = entry.tokens[consentId].accessToken;
    entry.tokens[consentId].expiresAt = Date.now() - 1000;
    await writeFile(h.stateFile, JSON.stringify(state), { mode: 0o600 });
    const again = await h.json(['accounts']);
    assert.equal(again.code, 0, again.stderr);
    const after = profileEntry(await readState(h.stateFile)).tokens[consentId];
    assert.notEqual(after.accessToken, before);
    assert.ok(after.expiresAt > Date.now());
  });

  test('a bank refusal is one line with the bank\'s code, exit 1, and nothing on stdout', async () => {
    const run = await h.json(['accounts', 'bob-current']);
    failsWith(run, 1, /^obtpp: the bank refused GET \/accounts\/bob-current: 403 UK\.OBIE\.Resource\.ConsentMismatch: .+/);
    // A permission the consent lacks (no ReadBalances) is the bank's to refuse, too.
    const narrow = await h.json(['consent', 'create', 'ais', '--permissions', 'ReadAccountsBasic']);
    assert.equal(narrow.code, 0, narrow.stderr);
    assert.equal((await h.obtpp(['consent', 'authorise'])).code, 0);
    const refused = await h.obtpp(['balances', 'alice-current']);
    failsWith(refused, 1, /^obtpp: the bank refused GET \/accounts\/alice-current\/balances: 40[13]/);
  });

  test('an AIS consent read back and deleted: consent get shows it unchanged, consent delete revokes it at the bank', async () => {
    const created = await h.json(['consent', 'create', 'ais', '--permissions', 'ReadAccountsDetail,ReadBalances', '--expires', '+10d', '--from', '-20d', '--to', 'now']);
    assert.equal(created.code, 0, created.stderr);
    const consentId = created.doc.Data.ConsentId;
    assert.equal((await h.obtpp(['consent', 'authorise', consentId, '--accounts', 'alice-current'])).code, 0);

    const read = await h.json(['consent', 'get', consentId]);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.doc.Data.Status, 'Authorised');
    assert.deepEqual(read.doc.Data.Permissions, created.doc.Data.Permissions);
    for (const f of ['ExpirationDateTime', 'TransactionFromDateTime', 'TransactionToDateTime']) assert.equal(read.doc.Data[f], created.doc.Data[f], f);
    const table = await h.obtpp(['consent', 'get', consentId]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^Status\s+Authorised$/m);
    assert.match(table.stdout, /^Permissions\s+ReadAccountsDetail, ReadBalances$/m);

    const token = profileEntry(await readState(h.stateFile)).tokens[consentId].accessToken;
    const deleted = await h.json(['consent', 'delete', consentId]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.doc, { consentId, fn: 'ais', deleted: true, status: 204 });
    assert.equal(profileEntry(await readState(h.stateFile)).tokens[consentId], undefined, 'its tokens are forgotten');
    failsWith(await h.json(['consent', 'get', consentId]), 1, /^obtpp: the bank refused GET \/account-access-consents\/ais-[\w-]+: 400 UK\.OBIE\.Resource\.NotFound/);

    // The token obtpp held before the DELETE opens nothing at the bank any more.
    const state = await readState(h.stateFile);
    profileEntry(state).tokens[consentId] = { accessToken: token, tokenType: 'Bearer', grant: 'authorization_code', expiresAt: Date.now() + 60_000 };
    await writeFile(h.stateFile, JSON.stringify(state), { mode: 0o600 });
    const refused = await h.json(['accounts', '--consent', consentId]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /the bank refused GET \/accounts: 401/);
  });

  test('a COF session: create with a listed account as debtor, authorise, confirm, read, delete', async () => {
    const created = await h.json(['consent', 'create', 'cof', '--debtor-id', 'alice-current', '--expires', '+7d']);
    assert.equal(created.code, 0, created.stderr);
    const consentId = created.doc.Data.ConsentId;
    assert.deepEqual(created.doc.Data.DebtorAccount, { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '40400411290112', Name: 'Alice Archer' });

    const auth = await h.json(['consent', 'authorise', consentId]);
    assert.equal(auth.code, 0, auth.stderr);
    assert.equal(auth.doc.status, 'authorised');
    assert.equal(auth.doc.fn, 'cof');

    const yes = await h.json(['funds', 'confirm', '--amount', '10.00', '--currency', 'GBP']);
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal(yes.doc.Data.FundsAvailable, true);
    assert.equal(yes.doc.Data.ConsentId, consentId);
    const no = await h.json(['funds', 'confirm', '--amount', '99999999']);
    assert.equal(no.doc.Data.FundsAvailable, false);

    const read = await h.json(['consent', 'get', consentId]);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.doc.Data.Status, 'Authorised');

    const deleted = await h.json(['consent', 'delete', consentId]);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.doc, { consentId, fn: 'cof', deleted: true, status: 204 });
    failsWith(await h.json(['funds', 'confirm', '--amount', '1.00', '--consent', consentId]), 2, new RegExp(`^obtpp: consent ${consentId} is not authorised yet: run obtpp consent authorise ${consentId}$`));
  });

  test('a PIS session: create without debtor, the PSU chooses one, read the payment and its status', async () => {
    const created = await h.json(['consent', 'create', 'pis', '--amount', '12.50', '--creditor-id', '30963452000417', '--creditor-name', 'Bob Baker', '--reference', 'cli test']);
    assert.equal(created.code, 0, created.stderr);
    const paymentId = created.doc.Data.ConsentId;
    assert.equal(created.doc.Data.Initiation.DebtorAccount, undefined);

    const auth = await h.json(['consent', 'authorise', '--debtor', 'alice-savings']);
    assert.equal(auth.code, 0, auth.stderr);
    assert.equal(auth.doc.debtor, 'alice-savings');

    const payment = await h.json(['payment', 'get']);
    assert.equal(payment.code, 0, payment.stderr);
    assert.equal(payment.doc.Data.ConsentId, paymentId);
    assert.equal(payment.doc.Data.Status, 'Authorised');
    assert.equal(payment.doc.Data.Debtor.Identification, '40400411290139');

    const status = await h.json(['payment', 'status', paymentId]);
    assert.equal(status.doc.Data.Status, 'Authorised');

    // Submitting: the consent's Initiation and Risk, signed, under the PSU's token; the consent is then Consumed.
    const submitted = await h.json(['payment', 'submit', '--consent', paymentId, '--idempotency-key', 'cli-submit-1']);
    assert.equal(submitted.code, 0, submitted.stderr);
    const orderId = submitted.doc.Data.DomesticPaymentId;
    assert.ok(orderId);
    assert.equal(submitted.doc.Data.ConsentId, paymentId);
    assert.equal(submitted.doc.Data.Initiation.InstructedAmount.Amount, '12.50');
    const replay = await h.json(['payment', 'submit', '--idempotency-key', 'cli-submit-1']);
    assert.equal(replay.doc.Data.DomesticPaymentId, orderId, 'the same key gives the same payment order');
    failsWith(await h.obtpp(['payment', 'submit']), 1, /^obtpp: the bank refused POST .*\/domestic-payments: 400 UK\.OBIE\.Resource\.InvalidConsentStatus/);
    assert.equal((await h.json(['payment', 'get', orderId])).doc.Data.DomesticPaymentId, orderId);
    assert.equal((await h.json(['payment', 'get'])).doc.Data.Status, 'Consumed');
    const human = await h.obtpp(['payment', 'submit', '--consent', paymentId, '--idempotency-key', 'cli-submit-1']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(`Payment order\\s+${orderId}`));

    const rejected = await h.json(['consent', 'create', 'pis', '--amount', '1.00', '--creditor-id', '30963452000417', '--creditor-name', 'Bob Baker']);
    const no = await h.json(['consent', 'authorise', '--reject']);
    assert.equal(no.code, 0, no.stderr);
    assert.deepEqual({ ...no.doc, description: undefined }, { consentId: rejected.doc.Data.ConsentId, fn: 'pis', status: 'rejected', error: 'access_denied', description: undefined });
    assert.equal((await h.json(['payment', 'status'])).doc.Data.Status, 'Rejected');

    // A rejection the bank refuses (the consent is no longer awaiting authorisation: an OAuth error
    // other than access_denied) is not a rejection: the session's state is as it was, and exit 1.
    const kept = structuredClone(profileEntry(await readState(h.stateFile)).consents[paymentId]);
    const refused = await h.json(['consent', 'authorise', '--reject', '--consent', paymentId]);
    assert.equal(refused.code, 1, refused.stderr);
    const doc = JSON.parse(refused.stdout);
    assert.equal(doc.status, 'refused');
    assert.notEqual(doc.error, 'access_denied');
    assert.deepEqual(profileEntry(await readState(h.stateFile)).consents[paymentId], kept);
    assert.ok(profileEntry(await readState(h.stateFile)).tokens[paymentId], 'its tokens are kept');
  });

  test('flows: ais, cof (finding its debtor) and pis, each one JSON summary', async () => {
    const ais = await h.json(['flow', 'ais', '--accounts', 'alice-joint', '--verbose']);
    assert.equal(ais.code, 0, ais.stderr);
    assert.deepEqual(Object.keys(ais.doc), ['flow', 'consentId', 'authorisation', 'accounts', 'accountId', 'balances', 'transactions']);
    assert.equal(ais.doc.accountId, 'alice-joint');
    assert.equal(ais.doc.balances.Data.Balance[0].AccountId, 'alice-joint');

    const cof = await h.json(['flow', 'cof', '--amount', '5.00'], { OBTPP_STATE: `${h.stateFile}.flow` });
    assert.equal(cof.code, 0, cof.stderr);
    assert.ok(cof.doc.aisConsentId, 'with no account known yet, an AIS journey found the debtor');
    assert.equal(cof.doc.fundsAvailable, true);
    assert.equal(cof.doc.confirmation.Data.ConsentId, cof.doc.consentId);

    const pis = await h.json(['flow', 'pis', '--creditor-id', '30963452000417', '--creditor-name', 'Bob Baker', '--debtor', 'alice-joint']);
    assert.equal(pis.code, 0, pis.stderr);
    assert.equal(pis.doc.status.Data.Status, 'Authorised');
    assert.equal(pis.doc.submitted.Data.ConsentId, pis.doc.paymentId);
    assert.equal(pis.doc.payment.Data.DomesticPaymentId, pis.doc.submitted.Data.DomesticPaymentId, 'the flow ends with a submitted payment, read back');

    const human = await h.obtpp(['flow', 'ais']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stderr, /✓ created account-access consent/);
    assert.match(human.stderr, /✓ read \d+ account\(s\)/);
    assert.match(human.stdout, /^Accounts \(consent /m);
  });

  test('consent list, token show / refresh / clear', async () => {
    const list = await h.json(['consent', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.ok(list.doc.consents.length >= 5);
    assert.equal(list.doc.consents.filter((c: any) => c.current && c.fn === 'ais').length, 1);
    assert.ok(!JSON.stringify(list.doc).includes('accessToken'));

    const current = list.doc.consents.find((c: any) => c.current && c.fn === 'ais').id;
    const shown = await h.json(['token', 'show', '--consent', current]);
    assert.equal(shown.code, 0, shown.stderr);
    const stored = profileEntry(await readState(h.stateFile)).tokens[current];
    assert.equal(shown.doc.accessToken, stored.accessToken);
    assert.equal(shown.doc.refreshToken, stored.refreshToken);

    const refreshed = await h.json(['token', 'refresh', '--consent', current, '--verbose']);
    assert.equal(refreshed.code, 0, refreshed.stderr);
    assert.equal(refreshed.doc.refreshed, true);
    assert.notEqual(profileEntry(await readState(h.stateFile)).tokens[current].accessToken, stored.accessToken);
    assert.match(refreshed.stderr, /POST http:\/\/127\.0\.0\.1:\d+\/\S*token → 200/);

    const human = await h.obtpp(['token', 'show', '--consent', current]);
    assert.match(human.stdout, /^access_token\s+\S{20,}$/m);

    const cleared = await h.json(['token', 'clear', '--consent', current]);
    assert.deepEqual(cleared.doc, { cleared: 1, consents: [current], clientCredentials: [], consentId: current, state: h.stateFile });
    failsWith(await h.obtpp(['accounts', '--consent', current]), 2, /is not authorised yet: run obtpp consent authorise/);
  });

  test('usage and state errors: one line, exit 2', async () => {
    failsWith(await h.json(['accounts', '--consent', 'no-such-consent']), 2, /^obtpp: unknown consent no-such-consent for profile obtpp sandbox \(variant A\) \(see obtpp consent list/);
    failsWith(await h.json(['accounts'], { OBTPP_PROFILE: undefined }), 2, /^obtpp: no profile: pass --profile FILE \(e\.g\. one written by obtpp sandbox --write-profile\)$/);
    failsWith(await h.obtpp(['accounts', '--no-such-flag']), 2, /^obtpp: unknown option '--no-such-flag'/);
    failsWith(await h.obtpp(['consent', 'create', 'ais', '--permissions', 'ReadAccountsDetail,ReadEverything']), 2, /^obtpp: --permissions: unknown permission ReadEverything/);
    failsWith(await h.obtpp(['consent', 'create', 'pis', '--amount', '12,50', '--creditor-id', '1', '--creditor-name', 'x']), 2, /^obtpp: --amount 12,50: expected a positive amount/);
    failsWith(await h.obtpp(['consent', 'create', 'ais', '--expires', 'tomorrow']), 2, /^obtpp: --expires tomorrow: expected now, a relative time/);
    failsWith(await h.obtpp(['consent', 'create', 'cof']), 2, /^obtpp: --debtor-id is required/);
    failsWith(await h.obtpp(['accounts', '--variant', 'C']), 2, /^obtpp: --variant C: expected A or B$/);
    // Variant B has its own state (no consent yet) and lacks transaction detail and payments.
    failsWith(await h.obtpp(['accounts', '--variant', 'B']), 2, /^obtpp: no current account-access consent for profile obtpp sandbox \(variant B\)/);
    failsWith(await h.obtpp(['consent', 'create', 'pis', '--variant', 'B', '--amount', '1', '--creditor-id', '1', '--creditor-name', 'x']), 2, /^obtpp: payment initiation \(obtpp consent create pis\) is not part of variant B/);
  });

  test('a bank that cannot be reached: exit 3 with the transport error', async () => {
    const profile = JSON.parse(await readFile(h.profileFile, 'utf8'));
    const dead = profile.baseUrl.replace(/:\d+\//, ':9/');
    const file = `${h.profileFile}.dead.json`;
    await writeFile(file, JSON.stringify({ ...profile, baseUrl: dead, variantBaseUrls: { A: dead } , variants: ['A'] }), { mode: 0o600 });
    // The cached client-credentials token is per profile identity (baseUrl differs), so a fresh one is fetched first, then the create fails.
    const run = await h.obtpp(['consent', 'create', 'ais', '--profile', file]);
    failsWith(run, 3, /^obtpp: connection refused by 127\.0\.0\.1:9$/);
  });

  test('the state file is 0600 in a 0700 directory, and holds the tokens', async () => {
    assert.equal((await stat(h.stateFile)).mode & 0o777, 0o600);
    assert.equal((await stat(dirname(h.stateFile))).mode & 0o777, 0o700);
    const entry = profileEntry(await readState(h.stateFile));
    assert.ok(Object.keys(entry.tokens).length > 0);
    assert.ok(entry.clientCredentials.ais.accessToken);
  });

  test('every command\'s --help has an example', async () => {
    const commands = [
      [], ['consent'], ['consent', 'create'], ['consent', 'create', 'ais'], ['consent', 'create', 'cof'], ['consent', 'create', 'pis'], ['consent', 'get'], ['consent', 'delete'],
      ['consent', 'list'], ['consent', 'authorise'], ['consent', 'forget'], ['accounts'], ['balances'], ['transactions'], ['transaction'], ['ais'],
      ['funds', 'confirm'], ['payment', 'get'], ['payment', 'status'], ['payment', 'submit'], ['flow', 'ais'], ['flow', 'cof'], ['flow', 'pis'],
      ['token', 'show'], ['token', 'refresh'], ['token', 'clear'], ['funds'], ['payment'], ['flow'], ['token'],
    ];
    // --help reads no state and calls no bank: four at a time.
    const runs = new Map<string[], Awaited<ReturnType<typeof h.obtpp>>>();
    const queue = [...commands];
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let c = queue.shift(); c; c = queue.shift()) runs.set(c, await h.obtpp([...c, '--help']));
    }));
    for (const c of commands) {
      const run = runs.get(c)!;
      assert.equal(run.code, 0, `${c.join(' ')} --help`);
      assert.match(run.stdout, /Example/, `obtpp ${c.join(' ')} --help has an example`);
      if (!['', 'consent', 'consent create', 'funds', 'payment', 'flow', 'token'].includes(c.join(' '))) assert.match(run.stdout, /--profile/, `obtpp ${c.join(' ')} takes --profile`);
    }
  });

  /** The client secret and registration access token `register` obtained (for the secret scan below). */
  const dcrSecrets: string[] = [];

  test('register: DCR with the profile\'s software statement, secrets only in the state and under --reveal; show, update, delete', async () => {
    const created = await h.json(['register', '--verbose']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /POST http:\/\/127\.0\.0\.1:\d+\/reg → 201/);
    assert.equal(created.doc.clientSecret, 'held (--reveal prints it)');
    assert.equal(created.doc.tokenEndpointAuthMethod, 'client_secret_basic');
    const stored = profileEntry(await readState(h.stateFile)).registration;
    assert.equal(stored.clientId, created.doc.clientId);
    assert.ok(stored.clientSecret && stored.registrationAccessToken);
    dcrSecrets.push(stored.clientSecret, stored.registrationAccessToken);
    for (const secret of dcrSecrets) assert.ok(!created.stderr.includes(secret) && !created.stdout.includes(secret), 'no DCR secret printed by register --verbose');

    const remote = await h.json(['register', 'show', '--remote', '--verbose']);
    assert.equal(remote.code, 0, remote.stderr);
    assert.equal(remote.doc.remote.client_id, stored.clientId);
    assert.equal(remote.doc.remote.client_secret, undefined);
    const revealed = await h.json(['register', 'show', '--reveal']);
    assert.equal(revealed.doc.clientSecret, stored.clientSecret);
    assert.equal(revealed.doc.registrationAccessToken, stored.registrationAccessToken);

    const updated = await h.json(['register', 'update', '--verbose']);
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(updated.doc.status, 200);
    assert.ok(updated.doc.set.includes('redirect_uris') && updated.doc.set.includes('scope'), JSON.stringify(updated.doc.set));
    assert.equal(updated.doc.registration.client_id, stored.clientId);
    assert.match(updated.stderr, /PUT http:\/\/127\.0\.0\.1:\d+\/reg\/\S+ → 200/);
    for (const secret of dcrSecrets) assert.ok(!updated.stderr.includes(secret) && !updated.stdout.includes(secret), 'no DCR secret printed by register update --verbose');

    const deleted = await h.json(['register', 'delete']);
    assert.deepEqual(deleted.doc, { clientId: stored.clientId, deleted: true, status: 204 });
    assert.equal(profileEntry(await readState(h.stateFile)).registration, undefined);
    failsWith(await h.obtpp(['register', 'show']), 2, /^obtpp: no registration yet for obtpp sandbox/);
  });

  test('no token or secret in any output, except token show\'s stdout', async () => {
    // One more verbose round trip through every kind of exchange (cc grant, code exchange, refresh).
    await h.obtpp(['token', 'clear']);
    await h.obtpp(['consent', 'create', 'ais', '--verbose']);
    await h.obtpp(['consent', 'authorise', '--verbose']);
    await h.obtpp(['accounts', '--verbose']);
    await h.obtpp(['token', 'refresh', '--verbose']);

    const secrets = h.tokens;
    const profile = JSON.parse(await readFile(h.profileFile, 'utf8'));
    const fixed = [profile.auth.clientAuth.secret, profile.psu.password, profile.registration.softwareStatement, ...profile.registration.key.split('\n').filter((l: string) => l.length >= 40 && !l.startsWith('-----'))];
    for (const s of dcrSecrets) secrets.add(s);
    assert.ok(secrets.size >= 10, `tokens collected: ${secrets.size}`);
    let shown = 0;
    for (const run of h.runs) {
      const isShow = (run.args[0] === 'token' && run.args[1] === 'show' && !run.args.includes('--help')) || (run.args[0] === 'register' && run.args.includes('--reveal'));
      for (const s of [...secrets, ...fixed]) {
        assert.ok(!run.stderr.includes(s), `obtpp ${run.args.join(' ')}: a secret on stderr`);
        if (!isShow || fixed.includes(s)) assert.ok(!run.stdout.includes(s), `obtpp ${run.args.join(' ')}: a secret on stdout`);
      }
      if (isShow && run.code === 0) {
        assert.ok([...secrets].some((s) => run.stdout.includes(s)), `obtpp ${run.args.join(' ')} prints a token the state held:\n${run.stdout}`);
        shown++;
      }
    }
    assert.ok(shown >= 2);
    assert.ok(h.runs.length > 40, `runs checked: ${h.runs.length}`);
    assert.ok(h.runs.some((r) => r.args.includes('--verbose')));
  });
});
