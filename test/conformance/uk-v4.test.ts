// `standard: uk-4.0`: a profile of a bank at UK Read/Write v4.0 places each API below
// …/open-banking/v4.0/{aisp,cbpii,pisp}; the embedded sandbox serves that layout with v4.0's code
// values beside v3.1.11's (one bank, two versions); the judges read a rule's v3.1.11 words in the
// profile's version; one scoped conformance run passes the rules whose meaning v4.0 changed (the
// faults that break them are proven by conform.test.ts, which runs every fault in its standard).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { profileFromObject } from '../../src/profile/load.ts';
import { NotApplicableError, TppClient } from '../../src/client/operations.ts';
import { httpFromProfile } from '../../src/client/factory.ts';
import { ProfileError } from '../../src/errors.ts';
import { buildPaymentConsent, judgeBody } from '../../src/dialects/obie/index.ts';
import { buildVrpConsent } from '../../src/dialects/obie/builders.ts';
import { aisBody, Tpp } from '../sandbox/tpp.ts';
import { runObtpp } from '../helpers/obtpp.ts';

const minimal = (extra: Record<string, unknown>) => ({
  name: 'uk v4 bank', baseUrl: 'https://bank.example/open-banking/v4.0',
  auth: { issuer: 'https://as.bank.example', clientId: 'c', clientAuth: { method: 'client_secret_basic', secret: 's3cret' }, redirectUri: 'https://tpp.example/cb' },
  psu: { username: 'u', password: 'p', driver: { kind: 'manual' } },
  ...extra,
});

describe('standard uk-4.0: the profile', () => {
  test('places each API below its segment of the v4.0 base, at the standard\'s paths, judged by variant A', async () => {
    const p = await profileFromObject(minimal({ standard: 'uk-4.0' }), { source: 'test', env: {} });
    assert.equal(p.standard, 'uk-4.0');
    assert.deepEqual(p.variants, ['A']);
    assert.equal(p.apis.ais?.baseUrl, 'https://bank.example/open-banking/v4.0/aisp');
    assert.equal(p.apis.cof?.baseUrl, 'https://bank.example/open-banking/v4.0/cbpii');
    assert.equal(p.apis.pis?.baseUrl, 'https://bank.example/open-banking/v4.0/pisp');
    const c = new TppClient(p, 'A', {} as never);
    assert.equal(c.pathOf('createPaymentConsent'), '/domestic-payment-consents');
    assert.equal(c.pathOf('submitPayment'), '/domestic-payments');
    assert.equal(c.pathOf('createVrpConsent'), '/domestic-vrp-consents');
    assert.equal(c.supports('createVrpConsent'), true, 'VRP is an operation of v4.0 too');
    for (const op of ['getTransaction', 'getPaymentStatus'] as const) {
      const why = c.unsupported(op);
      assert.ok(why instanceof NotApplicableError, op);
      assert.match(why.message, /is not an operation of UK Read\/Write v4\.0/);
    }
  });

  test('contradictions are refused with the field named', async () => {
    const refused = async (raw: Record<string, unknown>, field: RegExp) => {
      await assert.rejects(profileFromObject(raw, { source: 'test', env: {} }), (e: unknown) => e instanceof ProfileError && field.test(e.message));
    };
    await refused(minimal({ standard: 'uk-4.0', variants: ['A', 'B'] }), /\$\.variants: a uk-4\.0 profile is judged by variant A's rules only/);
    await refused(minimal({ standard: 'uk-4.0', dialect: 'berlin-group' }), /\$\.standard: uk-4\.0 is a UK standard/);
    await refused(minimal({ standard: 'uk-4.1' }), /standard/);
  });
});

describe('standard uk-4.0: one sandbox serves v3.1.11 and v4.0', () => {
  let sb: Sandbox;
  let tpp: Tpp;
  before(async () => {
    sb = await startSandbox({ quiet: true });
    tpp = await Tpp.connect(sb);
  });
  after(async () => sb?.stop());

  const clientAt = async (standard: 'uk-3.1' | 'uk-4.0') => {
    const profile = await profileFromObject(sb.profile(standard), { source: 'sandbox', env: {} });
    return new TppClient(profile, 'A', httpFromProfile(profile));
  };

  test('an account-access consent: AWAU at v4.0 (valid against the v4.0 schema, not v3.1.11\'s), AwaitingAuthorisation at v3.1; errors in 4-character codes', async () => {
    const v4 = await clientAt('uk-4.0');
    const token = await tpp.cc('accounts');
    const created = await v4.createAccountAccessConsent(aisBody(), { token });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.Data.Status, 'AWAU');
    assert.equal(created.body.Links.Self, `${sb.issuer}/open-banking/v4.0/aisp/account-access-consents/${created.body.Data.ConsentId}`);
    assert.deepEqual(judgeBody('OBReadConsentResponse1', created.body, 'v4.0').must, []);
    assert.notDeepEqual(judgeBody('OBReadConsentResponse1', created.body, 'v3.1').must, []);
    // The same consent, read at v3.1.11: the bank's state, in that version's words.
    const v3 = await clientAt('uk-3.1');
    const read = await v3.getAccountAccessConsent(created.body.Data.ConsentId, { token });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.Data.Status, 'AwaitingAuthorisation');

    const refused = await v4.createAccountAccessConsent({ Data: {}, Risk: {} }, { token });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.Errors[0].ErrorCode, /^[A-Z0-9]{4}$/);
    assert.deepEqual(judgeBody('OBErrorResponse1', refused.body, 'v4.0').must, []);
  });

  test('a payment-order consent and a VRP consent in v4.0\'s bodies: AWAU, structured remittance echoed, signed answers', async () => {
    const v4 = await clientAt('uk-4.0');
    const token = await tpp.cc('payments');
    const creditor = { schemeName: 'UK.OBIE.SortCodeAccountNumber', identification: '11223321325698', name: 'Receiver' };
    const body = buildPaymentConsent({
      instructionIdentification: 'i-1', endToEndIdentification: 'e-1', amount: '1.00', currency: 'GBP', creditor,
      remittance: { reference: 'INV-1', unstructured: 'invoice 1' }, version: 'v4.0',
    });
    assert.deepEqual(body.Data.Initiation.RemittanceInformation, { Unstructured: ['invoice 1'], Structured: [{ CreditorReferenceInformation: { Reference: 'INV-1' } }] });
    assert.deepEqual(judgeBody('OBWriteDomesticConsent4', body, 'v4.0').must, [], 'the builder sends a valid v4.0 body');
    const consent = await v4.createPaymentConsent(body, { token });
    assert.equal(consent.status, 201, consent.text);
    assert.equal(consent.body.Data.Status, 'AWAU');
    assert.deepEqual(consent.body.Data.Initiation.RemittanceInformation, body.Data.Initiation.RemittanceInformation);
    assert.equal(consent.signature?.valid, true, 'the bank signs the v4.0 answer, after re-spelling it');
    assert.deepEqual(judgeBody('OBWriteDomesticConsentResponse5', consent.body, 'v4.0').must, []);

    const vrp = buildVrpConsent({
      creditor, reference: 'VRP-1', maximumIndividualAmount: { amount: '10.00', currency: 'GBP' },
      periodicLimits: [{ periodType: 'Day', periodAlignment: 'Calendar', amount: '20.00', currency: 'GBP' }], version: 'v4.0',
    });
    const vc = await v4.createVrpConsent(vrp, { token });
    assert.equal(vc.status, 201, vc.text);
    assert.equal(vc.body.Data.Status, 'AWAU');
    assert.deepEqual(judgeBody('OBDomesticVRPConsentResponse', vc.body, 'v4.0').must, []);
  });
});

test('a run of the spec\'s layout asked for VRP scenarios says which --standard judges them (exit 2), before any bank starts', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-uk4-tags-'));
  try {
    const run = await runObtpp(['conform', '--tags', '@VRP-01', '--report-dir', join(dir, 'r')], { cwd: dir, timeoutMs: 60_000 });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--tags "@VRP-01" selects only scenarios of @uk-3\.1 and @uk-4\.0, which the run does not judge/);
    assert.match(run.stderr, /pass --standard uk-3\.1/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('conform --standard uk-4.0: the rules whose meaning v4.0 changed pass on the v4.0 bank, every call at /open-banking/v4.0', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'obtpp-uk4-'));
  try {
    const tags = '@AIS-01 or @AIS-11 or @PIS-01 or @VRP-01 or @SEC-06';
    const code = (await runObtpp(['conform', '--standard', 'uk-4.0', '--tags', tags, '--report-dir', join(dir, 'r'), '--json'], { cwd: dir, timeoutMs: 300_000 })).code;
    const summary = JSON.parse(await readFile(join(dir, 'r', 'summary.json'), 'utf8'));
    const rules = summary.variants[0].rules.filter((r: any) => r.status !== 'skipped');
    assert.equal(code, 0, JSON.stringify(rules.map((r: any) => [r.id, r.status, r.reason])));
    assert.deepEqual(rules.map((r: any) => [r.id, r.status]).sort(), [['AIS-01', 'passed'], ['AIS-11', 'passed'], ['PIS-01', 'passed'], ['SEC-06', 'passed'], ['VRP-01', 'passed']]);
    // AIS-11's report names each resource it judged: all at the v4.0 layout, none at v3.1.11's.
    // (AIS-01, PIS-01 and VRP-01 passing means the bank answered AWAU, v4.0's word.)
    // What the run did (attachments, results), not the feature files' text, which may name paths in prose.
    const messages = (await readFile(join(dir, 'r', 'messages.ndjson'), 'utf8')).split('\n').filter((l) => !/^\{"(source|gherkinDocument|pickle)"/.test(l)).join('\n');
    assert.ok(messages.includes('GET /open-banking/v4.0/aisp/accounts'), 'AIS-11 judged the accounts at v4.0');
    assert.equal(/open-banking\/v3\.1\//.test(messages), false, 'no call to the v3.1.11 layout');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
