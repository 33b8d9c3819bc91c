// The one NextGenPSD2 SCA walk (src/session/berlin-group-sca-walk.ts) that the terminal and the
// conformance steps both walk, against a scripted authorisation sub-resource (no sandbox, no
// browser: the sandbox runs are test/cli/bg-in-app-sca.test.ts and test/conformance/bg-*.test.ts):
// where it begins, what it sends in which order, what its hooks see; and the terminal's refusal
// line, read by the profile's standard from the registry (a registered standard's own reader too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { beginningOf, walkSca, type ScaCall, type ScaSeen, type ScaWalk } from '../../src/session/berlin-group-sca-walk.ts';
import type { AuthorisationOps } from '../../src/session/berlin-group-authorisations.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { refusal } from '../../src/session/index.ts';
import { registerStandard } from '../../src/standards/registry.ts';
import type { StandardModule } from '../../src/standards/standard.ts';
import { HttpClient } from '../../src/client/http.ts';

const AT = 'https://bank.example/v1/consents/c1/authorisations';
const result = (status: number, body: unknown, method = 'GET', url = AT): ApiResult =>
  ({ status, body, json: true, text: JSON.stringify(body), headers: {}, exchange: { method, url }, operation: 'getConsentScaStatus' }) as unknown as ApiResult;

/**
 * A bank's embedded and decoupled authorisation, as a script: its scaStatus moves on with each
 * PUT (password → psuAuthenticated, method → scaMethodSelected, the right OTP → finalised, a
 * wrong one → failed); `reads` are the statuses its GETs answer in turn (the last repeats).
 */
function bank(o: { status?: string; reads?: string[]; methods?: string[]; otpRefused?: 401 } = {}) {
  const sent: string[] = [];
  let status = o.status ?? 'psuIdentified';
  const reads = [...(o.reads ?? [])];
  const ops: AuthorisationOps = {
    start: async (body) => {
      sent.push(`POST ${JSON.stringify(body)}`);
      status = (body as { psuData?: unknown })?.psuData ? 'psuAuthenticated' : 'psuIdentified';
      return result(201, { authorisationId: 'a1', scaStatus: status, ...(status === 'psuAuthenticated' ? { scaMethods: (o.methods ?? ['sms']).map((m) => ({ authenticationMethodId: m })) } : {}) }, 'POST');
    },
    update: async (id, body, c) => {
      const b = body as Record<string, unknown>;
      sent.push(`PUT ${id} ${Object.keys(b)[0]} PSU-ID=${c.headers?.['PSU-ID']}`);
      if (b.psuData) status = 'psuAuthenticated';
      else if (b.authenticationMethodId) status = 'scaMethodSelected';
      else if (b.scaAuthenticationData === '123456') status = 'finalised';
      else {
        if (o.otpRefused) return result(401, { tppMessages: [{ code: 'PSU_CREDENTIALS_INVALID' }] }, 'PUT');
        status = 'failed';
      }
      return result(200, { scaStatus: status, ...(status === 'psuAuthenticated' ? { scaMethods: (o.methods ?? ['sms', 'push']).map((m) => ({ authenticationMethodId: m })) } : {}) }, 'PUT');
    },
    read: async (id) => {
      sent.push(`GET ${id}`);
      if (reads.length) status = reads.length > 1 ? reads.shift()! : reads[0]!;
      return result(200, { scaStatus: status });
    },
    list: async () => result(200, { authorisationIds: ['a1'] }),
  };
  return { ops, sent };
}

/** A walk with every hook recorded; `o` overrides. */
function walkOf(ops: AuthorisationOps, o: Partial<ScaWalk> & Pick<ScaWalk, 'beginning'>) {
  const seen: ScaSeen[] = [];
  const answered: ScaCall[] = [];
  const w: ScaWalk = {
    approach: 'embedded', ops, psu: { id: 'alice' },
    secrets: { password: async () => 'pw', otp: async () => '123456' },
    decoupled: { timeoutMs: 2_000, pace: { firstMs: 5, factor: 2, maxMs: 20 } },
    hooks: {
      answered: (c) => void answered.push(c),
      sighted: (s) => void seen.push(s),
      stop: (why) => new Error(`stopped: ${why}`),
    },
    ...o,
  };
  return { walk: () => walkSca(w), seen, answered };
}

test('where a walk begins: a start link (the one with the password first), else the authorisation an updatePsu… or scaStatus link names', () => {
  const links = (l: Record<string, string>) => ({ _links: Object.fromEntries(Object.entries(l).map(([k, href]) => [k, { href }])) });
  assert.deepEqual(beginningOf(links({ startAuthorisation: AT, startAuthorisationWithPsuAuthentication: AT })), { start: true, withPassword: true });
  assert.deepEqual(beginningOf(links({ startAuthorisationWithPsuIdentification: AT })), { start: true, withPassword: false });
  assert.deepEqual(beginningOf(links({ updatePsuAuthentication: `${AT}/a1`, scaStatus: `${AT}/a1` })), { authorisationId: 'a1', awaitsPsuData: true });
  assert.deepEqual(beginningOf(links({ scaStatus: 'https://bank.example/v1/payments/sepa/p1/cancellation-authorisations/x%2Fy' })), { authorisationId: 'x/y', awaitsPsuData: false });
  assert.equal(beginningOf(links({ self: 'https://bank.example/v1/consents/c1' })), undefined);
});

test('embedded, from an answer just received: the password at once, the method, the OTP; every answer seen, in order', async () => {
  const { ops, sent } = bank();
  const { walk, seen, answered } = walkOf(ops, { beginning: { authorisationId: 'a1', awaitsPsuData: true } });
  const walked = await walk();
  assert.deepEqual(sent, ['PUT a1 psuData PSU-ID=alice', 'PUT a1 authenticationMethodId PSU-ID=alice', 'PUT a1 scaAuthenticationData PSU-ID=alice']);
  assert.deepEqual(seen.map((s) => [s.status, s.when, s.factorsDone, s.kind]), [
    ['psuAuthenticated', 'after the password', false, 'step'],
    ['scaMethodSelected', 'after choosing the SCA method', false, 'step'],
    ['finalised', 'after the one-time password', true, 'step'],
  ]);
  assert.deepEqual(answered.map((c) => c.expected), [[200], [200], [200, 401]]);
  assert.deepEqual({ final: walked.final, scaStatus: walked.scaStatus, explicit: walked.explicit }, { final: true, scaStatus: 'finalised', explicit: false });
});

test('embedded, from a link kept since the create: the scaStatus read first, and the walk goes on where it stands (no second password)', async () => {
  // An earlier `consent authorise` stopped for want of the one-time password.
  const a = bank({ status: 'scaMethodSelected' });
  assert.equal((await walkOf(a.ops, { beginning: { authorisationId: 'a1', awaitsPsuData: false } }).walk()).scaStatus, 'finalised');
  assert.deepEqual(a.sent, ['GET a1', 'PUT a1 scaAuthenticationData PSU-ID=alice']);
  // Stopped before the method: a read lists no scaMethods, so the profile's method goes (none: the walk cannot go on).
  const b = bank({ status: 'psuAuthenticated' });
  assert.equal((await walkOf(b.ops, { beginning: { authorisationId: 'a1', awaitsPsuData: false }, method: 'sms' }).walk()).scaStatus, 'finalised');
  assert.deepEqual(b.sent, ['GET a1', 'PUT a1 authenticationMethodId PSU-ID=alice', 'PUT a1 scaAuthenticationData PSU-ID=alice']);
  await assert.rejects(walkOf(bank({ status: 'psuAuthenticated' }).ops, { beginning: { authorisationId: 'a1', awaitsPsuData: false } }).walk(), /stopped: no-sca-method/);
});

test('embedded: the explicit start carries the password where its link says so; the profile\'s method only where offered; a 401 to the OTP is the SCA\'s failure; no method offered stops the walk', async () => {
  const a = bank({ methods: ['push'] });
  const started = walkOf(a.ops, { beginning: { start: true, withPassword: true }, method: 'sms' });
  const walked = await started.walk();
  assert.deepEqual(a.sent, ['POST {"psuData":{"password":"pw"}}', 'PUT a1 authenticationMethodId PSU-ID=alice', 'PUT a1 scaAuthenticationData PSU-ID=alice']);
  assert.deepEqual(started.seen[0], { status: 'psuAuthenticated', when: 'after the password (explicit start)', factorsDone: false, kind: 'start' });
  assert.deepEqual({ id: walked.authorisationId, explicit: walked.explicit }, { id: 'a1', explicit: true });
  const b = bank({ otpRefused: 401 });
  const wrong = await walkOf(b.ops, { beginning: { authorisationId: 'a1', awaitsPsuData: true }, secrets: { password: async () => 'pw', otp: async () => '000000' } }).walk();
  assert.deepEqual({ final: wrong.final, scaStatus: wrong.scaStatus }, { final: true, scaStatus: 'failed' });
  const c = bank({ methods: [] });
  await assert.rejects(walkOf(c.ops, { beginning: { start: true, withPassword: true } }).walk(), /stopped: no-sca-method/);
});

test('decoupled, a PSU the TPP cannot watch (the terminal): told before the first read, read until the first final status, or until the time is up', async () => {
  const events: string[] = [];
  const a = bank({ reads: ['psuIdentified', 'psuIdentified', 'finalised'] });
  const read: AuthorisationOps['read'] = (id, c) => (events.push('read'), a.ops.read(id, c));
  const walked = await walkOf({ ...a.ops, read }, {
    approach: 'decoupled', beginning: { authorisationId: 'a1', awaitsPsuData: false },
    decoupled: { timeoutMs: 2_000, pace: { firstMs: 5, factor: 2, maxMs: 20 }, instruct: () => void events.push('instruct') },
  }).walk();
  assert.deepEqual(events, ['instruct', 'read', 'read', 'read']);
  assert.deepEqual({ final: walked.final, scaStatus: walked.scaStatus }, { final: true, scaStatus: 'finalised' });
  const late = bank({ reads: ['psuIdentified'] });
  const started = Date.now();
  const timedOut = await walkOf(late.ops, { approach: 'decoupled', beginning: { authorisationId: 'a1', awaitsPsuData: false }, decoupled: { timeoutMs: 120, pace: { firstMs: 10, factor: 2, maxMs: 40 } } }).walk();
  assert.deepEqual({ final: timedOut.final, scaStatus: timedOut.scaStatus }, { final: false, scaStatus: 'psuIdentified' });
  assert.ok(Date.now() - started >= 120, 'the last read is at the deadline');
});

test('decoupled, a PSU the TPP watches (the steps): a status final before the PSU is done does not end the walk; each PSU step wakes the poll', async () => {
  const a = bank({ reads: ['finalised'] });
  let done = false;
  let step: (() => void) | undefined;
  const { walk, seen } = walkOf(a.ops, {
    approach: 'decoupled', beginning: { authorisationId: 'a1', awaitsPsuData: false },
    decoupled: {
      timeoutMs: 5_000, pace: { firstMs: 2_000, factor: 2, maxMs: 2_000 },
      watch: async (_id, acted) => {
        step = acted;
        const decided = new Promise<void>((r) => setTimeout(() => {
          done = true;
          r();
        }, 60));
        return { done: () => done, decided };
      },
    },
  });
  const started = Date.now();
  setTimeout(() => step?.(), 20);
  const walked = await walk();
  // Long pauses (2 s), yet the walk ends soon after the PSU is done: the PSU's step and decision woke it.
  assert.ok(Date.now() - started < 1_500, `${Date.now() - started} ms`);
  assert.equal(walked.final, true);
  assert.deepEqual(seen[0], { status: 'finalised', when: 'before the PSU acted', factorsDone: false, kind: 'poll' });
  assert.deepEqual(seen.at(-1), { status: 'finalised', when: 'after the PSU decided', factorsDone: true, kind: 'poll' });
});

test('the terminal\'s refusal line is read by the profile\'s standard, then by the others; a registered standard brings its own reader', () => {
  const http = new HttpClient({});
  const line = (body: unknown, dialect?: string) => refusal('https://bank.example', result(403, body, 'GET', 'https://bank.example/accounts'), http, dialect).message;
  assert.equal(line({ Code: '403', Message: 'no', Errors: [{ ErrorCode: 'UK.OBIE.Resource.ConsentMismatch', Message: 'not yours' }] }, 'obie'), 'the bank refused GET /accounts: 403 UK.OBIE.Resource.ConsentMismatch: not yours');
  assert.equal(line({ tppMessages: [{ category: 'ERROR', code: 'CONSENT_EXPIRED', text: 'the consent has expired' }, { code: 'X' }] }, 'berlin-group'), 'the bank refused GET /accounts: 403 CONSENT_EXPIRED: the consent has expired; X');
  // Another standard's shape is still read (a bank may answer an error of another shape).
  assert.equal(line({ tppMessages: [{ code: 'CONSENT_UNKNOWN' }] }, 'obie'), 'the bank refused GET /accounts: 403 CONSENT_UNKNOWN');
  assert.equal(line({ nothing: 1 }, 'obie'), 'the bank refused GET /accounts: 403');
  registerStandard({ name: 'errors-toy', readError: (body: unknown) => ((body as { oops?: string })?.oops ? { codes: ['OOPS'], words: ` oops: ${(body as { oops: string }).oops}` } : undefined) } as unknown as StandardModule);
  assert.equal(line({ oops: 'it broke' }, 'errors-toy'), 'the bank refused GET /accounts: 403 oops: it broke');
  assert.equal(refusal('https://bank.example', result(403, { oops: 'x' }), http, 'errors-toy').bankCode, 'OOPS');
});
