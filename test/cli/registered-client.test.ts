// A profile that leaves its client to `obtpp register` (a registration block, no auth.clientId):
// before registering, the TPP commands refuse in one line saying to register; after `obtpp
// register`, they run as the client the bank issued (the profile has no other), PSU journey included; after `register
// delete`, they refuse again. The secrets of the registration reach no output.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { harness, profileEntry, readState, type Harness } from './helpers.ts';

describe('obtpp: the registered client is the session\'s client', () => {
  let h: Harness;
  let clientless: Record<string, string>;
  before(async () => {
    h = await harness();
    const raw = h.sb.profile('A') as Record<string, any>;
    delete raw.auth.clientId;
    delete raw.auth.clientAuth;
    const file = join(h.dir, 'clientless.json');
    await writeFile(file, JSON.stringify(raw), { mode: 0o600 });
    clientless = { OBTPP_PROFILE: file };
  });
  after(async () => {
    await h?.stop();
  });

  test('before register: one line saying to register (exit 2); after: consents are created as the registered client; after delete: refused again', async () => {
    const before = await h.obtpp(['consent', 'create', 'ais'], clientless);
    assert.equal(before.code, 2, before.stderr);
    assert.match(before.stderr, /\$\.auth\.clientId: the profile gives no client of its own and none is registered yet/);
    assert.match(before.stderr, /obtpp register/);

    const registered = await h.json(['register', '--verbose'], clientless);
    assert.equal(registered.code, 0, registered.stderr);
    const entry = profileEntry(await readState(h.stateFile));
    assert.equal(entry.clientId, '', 'one state for the profile, whichever client is registered');
    const secrets = [entry.registration.clientSecret, entry.registration.registrationAccessToken];

    const created = await h.json(['consent', 'create', 'ais', '--verbose'], clientless);
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /POST http:\/\/127\.0\.0\.1:\d+\/token → 200/, 'a client-credentials token for the registered client');
    assert.equal(created.doc.Data.Status, 'AwaitingAuthorisation');
    const authorised = await h.json(['consent', 'authorise'], clientless);
    assert.equal(authorised.code, 0, authorised.stderr);
    assert.equal(authorised.doc.status, 'authorised', 'the PSU authorised the registered client\'s consent (code flow with its secret)');
    const accounts = await h.json(['accounts'], clientless);
    assert.equal(accounts.code, 0, accounts.stderr);
    for (const run of [registered, created, authorised, accounts]) for (const s of secrets) assert.ok(!run.stdout.includes(s) && !run.stderr.includes(s), 'no registration secret printed');

    const deleted = await h.json(['register', 'delete'], clientless);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(profileEntry(await readState(h.stateFile)).clientCredentials, {}, 'the deleted client\'s tokens are forgotten');
    const after = await h.obtpp(['consent', 'create', 'ais'], clientless);
    assert.equal(after.code, 2, after.stderr);
  });

  test('a profile without auth.clientId and without a registration block is refused at load, naming the field', async () => {
    const raw = h.sb.profile('A') as Record<string, any>;
    delete raw.auth.clientId;
    delete raw.auth.clientAuth;
    delete raw.registration;
    const file = join(h.dir, 'no-client.json');
    await writeFile(file, JSON.stringify(raw), { mode: 0o600 });
    const run = await h.obtpp(['profile', 'check', file]);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /\$\.auth\.clientId: is required but missing/);
  });
});
