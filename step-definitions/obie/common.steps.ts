import { Given, When, Then, statusKind } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { aisBody, splitList, createConsent, authoriseConsent, firstAccountId, tokenOf, fullConsent } from '../support/setups.ts';
import { expectStatus, expectRefusal, expectSchema, expectJsonContentType, parseStatuses, describeAnswer } from '../support/judge.ts';
import { AuthorisationError } from '../../src/errors.ts';

// ── Answers ────────────────────────────────────────────────────────────────────────────────────

Then(/^the bank answers (\d{3}) (?:Created|OK|No Content)$/, function (this: ConformanceWorld, status: string) {
  expectStatus(this, this.answer(), [Number(status)]);
}, (status) => [statusKind([status!])]);

Then(/^the bank refuses the request with ([\d, or]+)$/, function (this: ConformanceWorld, list: string) {
  expectRefusal(this, this.answer(), parseStatuses(list), 'the request');
}, (list) => [statusKind(parseStatuses(list!))]);

Then('the body is a valid {string}', function (this: ConformanceWorld, schema: string) {
  expectSchema(this, this.answer(), schema as never);
}, ['schema']);

/**
 * The schema of whatever came back (the suite's schema check): the operation's own for a success,
 * the standard's OBErrorResponse1 for 400 and 500 (and for a 403 that has a body); 204, 401, 404
 * and the other refusals the files give no body have none to judge.
 */
Then('the body of the answer, whatever its status, is valid against the standard\'s schema for that status', function (this: ConformanceWorld) {
  const r = this.answer();
  const declared = (this.client.specOf(r.operation)?.responses as Record<number, string | null> | undefined)?.[r.status];
  if (declared) return expectSchema(this, r, declared as never);
  if (r.status === 400 || r.status === 500 || (r.status === 403 && r.text.trim() !== '')) {
    if (r.text.trim() === '') throw this.violation(`a ${r.status} answer carries the standard's error body (OBErrorResponse1), but ${describeAnswer(r)} has none`);
    expectSchema(this, r, 'OBErrorResponse1' as never);
  }
}, ['schema']);

// ── Headers ────────────────────────────────────────────────────────────────────────────────────

Then(/^the answer comes as application\/json$/, function (this: ConformanceWorld) {
  expectJsonContentType(this, this.answer());
}, ['content-type']);

Then('the response carries the x-fapi-interaction-id the TPP sent', function (this: ConformanceWorld) {
  const r = this.answer();
  const got = r.headers['x-fapi-interaction-id'];
  if (got !== r.sentInteractionId) {
    throw this.violation(`expected x-fapi-interaction-id ${r.sentInteractionId} echoed, got ${got === undefined ? 'no such header' : JSON.stringify(got)} on ${describeAnswer(r)}`);
  }
}, ['interaction-id', 'interaction-id-echo']);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

Then('the response carries an x-fapi-interaction-id that is a UUID', function (this: ConformanceWorld) {
  const r = this.answer();
  const got = r.headers['x-fapi-interaction-id'];
  if (!got || !UUID.test(got)) throw this.violation(`expected the bank's own x-fapi-interaction-id (an RFC 4122 UUID), got ${got === undefined ? 'no such header' : JSON.stringify(got)} on ${describeAnswer(r)}`);
});

// ── Binding the authorisation to the intent id ────────────────────────────────────────────────

Given(/^the AISP has (?:then )?created a consent "([^"]+)" with permissions "([^"]+)"$/, async function (this: ConformanceWorld, name: string, permissions: string) {
  const record = await createConsent(this, 'ais', aisBody(splitList(permissions)));
  this.consents.set(name, record);
});

When('the PSU authorises the consent {string} with all accounts selected', async function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  await authoriseConsent(this, record);
  this.consent = record;
});

Then('the ID token names the consent {string} in openbanking_intent_id', function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  const claim = record.tokens?.claims?.openbanking_intent_id;
  if (claim !== record.id) {
    throw this.violation(`expected the ID token's openbanking_intent_id to be the consent ${record.id} named in the redirect, got ${claim === undefined ? 'no such claim' : JSON.stringify(claim)}`);
  }
});

Then('with that token the AISP can read the balances of the first account', async function (this: ConformanceWorld) {
  const record = this.consent!;
  const id = await firstAccountId(this, record);
  const r = await this.call('reading the balances', (c) => c.getBalances(id, { token: tokenOf(record) }));
  expectStatus(this, r, [200], `expected the token to carry consent ${record.id}'s ReadBalances (HTTP 200) — a refusal means the authorisation was bound to another consent`);
});

Then('a token refreshed from that authorisation, if the bank issues refresh tokens, still reads the balances of the first account', async function (this: ConformanceWorld) {
  const record = this.consent!;
  const refreshToken = record.tokens?.refreshToken;
  if (!refreshToken) {
    this.attach(`${this.ruleId}: the bank issued no refresh token with this authorisation; refresh not judged`, 'text/plain');
    return;
  }
  let refreshed;
  try {
    refreshed = await (await this.lane.auth()).refresh(refreshToken);
  } catch (error) {
    throw this.violation(`the bank refused to refresh the token it issued with consent ${record.id}'s authorisation: ${(error as Error).message}`);
  }
  const id = await firstAccountId(this, record);
  const r = await this.call('reading the balances', (c) => c.getBalances(id, { token: refreshed.accessToken }));
  expectStatus(this, r, [200], `expected the refreshed token to stay bound to consent ${record.id} and read its balances (HTTP 200)`);
});

// ── The PSU's credentials ─────────────────────────────────────────────────────────────────────

Then('the PSU typed their credentials only on a page of the bank\'s authorisation server', async function (this: ConformanceWorld) {
  const record = await fullConsent(this);
  const journey = record.journey?.journey;
  const auth = await this.lane.auth();
  const bankHost = new URL(auth.authorizationEndpoint).hostname;
  const tppOrigin = new URL(this.ctx.profile.auth.redirectUri).origin;
  if (!journey?.loginOrigin) throw this.violation('the PSU journey recorded no login page');
  const login = new URL(journey.loginOrigin);
  const site = (h: string) => h.split('.').slice(-2).join('.');
  if (login.origin === tppOrigin && login.hostname !== bankHost) throw this.violation(`the PSU typed their password on the TPP's own origin ${login.origin}`);
  if (login.hostname !== bankHost && site(login.hostname) !== site(bankHost)) {
    throw this.violation(`the PSU typed their password on ${login.origin}, which is not the bank's authorisation server (${bankHost})`);
  }
  this.notes.push(login.origin);
});

Then('that page was served over HTTPS, or from the local machine', function (this: ConformanceWorld) {
  const login = new URL(this.notes.at(-1)!);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(login.hostname);
  if (login.protocol !== 'https:' && !loopback) throw this.violation(`the bank's login page ${login.origin} is not served over HTTPS`);
});

// ── Rejection ─────────────────────────────────────────────────────────────────────────────────

async function reject(world: ConformanceWorld, intentId: string, fn: 'ais' | 'pis') {
  try {
    world.outcome = await world.ctx.authorise(world.lane, intentId, fn, { reject: true });
  } catch (error) {
    if (error instanceof AuthorisationError) {
      if (error.evidence?.screenshot) world.screenshots.push(error.evidence.screenshot);
      throw world.violation(`the PSU could not reject the consent: ${error.message}`);
    }
    throw error;
  }
}

When('the PSU rejects the consent {string}', async function (this: ConformanceWorld, name: string) {
  await reject(this, this.consents.get(name)!.id, 'ais');
});

When('the PSU rejects the payment', async function (this: ConformanceWorld) {
  await reject(this, this.payment!.id, 'pis');
});

Then('the PSU comes back to the TPP with the error {string} and no authorisation code', function (this: ConformanceWorld, expected: string) {
  const outcome = this.outcome!;
  if (outcome.outcome === 'code-after-reject') throw this.violation('the PSU rejected the consent, but the bank redirected back with an authorisation code, and the code was exchanged for a token');
  if (outcome.outcome === 'authorised') throw this.violation('the PSU rejected the consent, but the bank authorised it');
  if (outcome.error !== expected) throw this.violation(`expected the OAuth error "${expected}" after the PSU rejected, got "${outcome.error}"`);
});
