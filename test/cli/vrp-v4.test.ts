// UK Read/Write v4.0's migration of a VRP consent from the terminal (obtpp vrp consent update and
// patch), through the REAL binary against the sandbox's v4.0 layout: PUT keeps the consent (its
// ConsentId, status and control parameters) and takes the remittance in v4.0's shape; PATCH applies
// a JSON Patch; a patch of the control parameters is the bank's refusal (exit 1); a v3.1.11
// profile is told the update is not an operation of its standard (exit 2). No PSU is needed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, type Harness } from './helpers.ts';

describe('obtpp vrp consent update and patch (real binary, v4.0 sandbox)', { timeout: 120_000 }, () => {
  let h: Harness;
  before(async () => {
    h = await harness({ standard: 'uk-4.0' });
  });
  after(async () => h?.stop());

  test('create at v4.0, migrate by PUT, patch the remittance; the control parameters stay; a v3.1.11 profile is refused', async () => {
    const created = await h.json(['vrp', 'consent', 'create', '--creditor-id', '08080021325698', '--creditor-name', 'My savings', '--max', '10.00', '--limit', 'Day=25.00:Calendar', '--reference', 'sweep']);
    assert.equal(created.code, 0, created.stderr);
    const id = created.doc.Data.ConsentId as string;
    assert.equal(created.doc.Data.Status, 'AWAU');
    assert.deepEqual(created.doc.Data.Initiation.RemittanceInformation, { Structured: [{ CreditorReferenceInformation: { Reference: 'sweep' } }] }, 'v4.0\'s shape from the start');

    const put = await h.json(['vrp', 'consent', 'update']);
    assert.equal(put.code, 0, put.stderr);
    assert.equal(put.doc.Data.ConsentId, id);
    assert.equal(put.doc.Data.Status, 'AWAU');
    assert.deepEqual(put.doc.Data.ControlParameters, created.doc.Data.ControlParameters);

    const value = { Unstructured: ['rent'], Structured: [{ CreditorReferenceInformation: { Reference: 'sweep' } }] };
    const patch = JSON.stringify([{ op: 'replace', path: '/Data/Initiation/RemittanceInformation', value }]);
    const patched = await h.json(['vrp', 'consent', 'patch', id, '--patch', patch]);
    assert.equal(patched.code, 0, patched.stderr);
    assert.equal(patched.doc.Data.ConsentId, id);
    assert.deepEqual(patched.doc.Data.Initiation.RemittanceInformation, value);
    const file = join(h.dir, 'patch.json');
    await writeFile(file, JSON.stringify([{ op: 'replace', path: '/Data/ControlParameters/MaximumIndividualAmount/Amount', value: '99.00' }]));
    const refused = await h.obtpp(['vrp', 'consent', 'patch', '--patch', `@${file}`]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /400 U002: .*ControlParameters/);
    const read = await h.json(['vrp', 'consent', 'get']);
    assert.equal(read.doc.Data.ControlParameters.MaximumIndividualAmount.Amount, '10.00', 'what the PSU agreed is unchanged');

    const bad = await h.obtpp(['vrp', 'consent', 'patch', '--patch', '{"op":"remove"}']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--patch: expected a non-empty JSON array/);
    const v31 = join(h.dir, 'uk31.json');
    await writeFile(v31, JSON.stringify(h.sb.profile('uk-3.1')), { mode: 0o600 });
    const old = await h.obtpp(['vrp', 'consent', 'update', id, '--profile', v31]);
    assert.equal(old.code, 2, old.stderr);
    assert.match(old.stderr, /not an operation of UK Read\/Write v3\.1\.11/);
  });
});
