// Confirmation of funds at UK Read/Write v3.1.11's paths, as the FCS v3.1 judges it
// (features/obie/uk-funds.feature): the suite's calls, with every answer judged on its status, the
// echoed x-fapi-interaction-id and its Content-Type.
import { Given, When, Then, statusKind } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { authoriseConsent, debtorAccount, fundsRequest, sharedSetup, SHARED_GIVENS } from '../support/setups.ts';
import { describeAnswer, expectJsonContentType, expectStatus } from '../support/judge.ts';
import { buildFundsConsent, consentIdOf } from '../../src/dialects/obie/index.ts';
import type { ApiResult } from '../../src/client/operations.ts';

const DAY = 86_400_000;

/** The suite's own over-long values: its words, repeated past the schema's limit. */
const tooLong = (limit: number, word: string) => word.repeat(Math.ceil((limit + 1) / word.length)).slice(0, limit + 1);

/** The debtor account of the PSU's first account, bent as a scenario names it. */
const DEFECTS: Record<string, (a: { SchemeName: string; Identification: string; Name?: string }) => void> = {
  'a Name of 351 characters': (a) => void (a.Name = tooLong(350, 'MoreThan350characters-')),
  'an Identification of 257 characters': (a) => void (a.Identification = tooLong(256, 'MoreThan256characters-')),
  // The suite's value: no `Country.Issuer.Value` namespace, so no bank can support it.
  'the SchemeName TestingAnInvalidSchemeName': (a) => void (a.SchemeName = 'TestingAnInvalidSchemeName'),
};

/**
 * Tomorrow (the suite's nextDayDateTime) in one of the ISODateTime forms the suite sends, named by
 * its Go layout: fractional seconds or not, UTC (Z) or an offset (-07:00, the layout's own).
 */
function tomorrowAs(layout: string): string {
  const at = new Date(Date.now() + DAY);
  at.setUTCMilliseconds(123);
  const fraction = layout.includes('.999');
  if (layout.endsWith('Z')) {
    const utc = at.toISOString();
    return fraction ? utc : utc.replace(/\.\d+Z$/, 'Z');
  }
  const m = /([+-])(\d\d):(\d\d)$/.exec(layout);
  if (!m) throw new Error(`no ISODateTime form for the layout ${layout}`);
  const offsetMs = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
  const local = new Date(at.getTime() + offsetMs).toISOString().replace('Z', '');
  return `${fraction ? local : local.replace(/\.\d+$/, '')}${m[1]}${m[2]}:${m[3]}`;
}

async function createFunds(world: ConformanceWorld, body: unknown, o: { omitHeaders?: string[] } = {}): Promise<ApiResult> {
  const token = await world.ccToken('cof');
  const r = await world.call('creating the funds-confirmation consent', (c) => c.createFundsConsent(body, { token, ...o }));
  world.consent = { fn: 'cof', id: consentIdOf(r.body) ?? '', created: r, request: body };
  return r;
}

async function firstAccountRef(world: ConformanceWorld) {
  const first = await debtorAccount(world);
  return { schemeName: first.schemeName!, identification: first.identification!, name: first.name };
}

When('the CBPII creates a funds-confirmation consent for the PSU\'s first account, expiring tomorrow', async function (this: ConformanceWorld) {
  // The suite's nextDayDate in RFC 3339 with a zone: UTC gives Z.
  await createFunds(this, buildFundsConsent({ debtorAccount: await firstAccountRef(this), expirationDateTime: tomorrowAs('2006-01-02T15:04:05Z') }));
});

When('the CBPII creates a funds-confirmation consent for the PSU\'s first account, expiring tomorrow, without x-fapi-financial-id', async function (this: ConformanceWorld) {
  // The suite's removeHeaders (OB-312-CBPII-000100): left out whatever the profile's headers add.
  await createFunds(this, buildFundsConsent({ debtorAccount: await firstAccountRef(this), expirationDateTime: tomorrowAs('2006-01-02T15:04:05Z') }), { omitHeaders: ['x-fapi-financial-id'] });
});

/**
 * A funds-confirmation consent through its life, one per run and name: created with the suite's
 * inputs (its answer judged by one scenario), then authorised by the PSU, read, used and deleted,
 * each judged by a scenario of its own, in the feature's order.
 */
function createdFunds(world: ConformanceWorld, name: string): Promise<ConsentRecord> {
  return sharedSetup(world, `${world.variant}:uk-cof:${name}:created`, async () => {
    const body = buildFundsConsent({ debtorAccount: await firstAccountRef(world), expirationDateTime: tomorrowAs('2006-01-02T15:04:05Z') });
    const token = await world.ccToken('cof');
    const created = await world.call('creating the funds-confirmation consent', (c) => c.createFundsConsent(body, { token }));
    return { fn: 'cof' as const, id: consentIdOf(created.body) ?? '', created, request: body };
  });
}

function authorisedFunds(world: ConformanceWorld, name: string): Promise<ConsentRecord> {
  return sharedSetup(world, `${world.variant}:uk-cof:${name}:authorised`, async () => {
    const record = await createdFunds(world, name);
    if (record.created.status !== 201 || !record.id) throw world.blocked('UKCOF-01', `creating the funds-confirmation consent "${name}" (a set-up of this scenario) failed: ${describeAnswer(record.created)}`);
    return authoriseConsent(world, record);
  }, 'UKCOF-01');
}

const AUTHORISED = /^the PSU has authorised the funds-confirmation consent "([^"]+)"$/;
// Prepared ahead with the other shared set-ups (hooks.ts reads the list when the run starts).
SHARED_GIVENS.push([AUTHORISED, (w, name) => authorisedFunds(w, name!)]);

When('the CBPII creates the funds-confirmation consent {string} for the PSU\'s first account, expiring tomorrow', async function (this: ConformanceWorld, name: string) {
  const record = await createdFunds(this, name);
  this.consent = record;
  this.last = record.created;
});

Given(AUTHORISED, async function (this: ConformanceWorld, name: string) {
  this.consent = await authorisedFunds(this, name);
});

When('the CBPII creates a funds-confirmation consent for the PSU\'s first account, expiring tomorrow written as {word}', async function (this: ConformanceWorld, layout: string) {
  await createFunds(this, buildFundsConsent({ debtorAccount: await firstAccountRef(this), expirationDateTime: tomorrowAs(layout) }));
});

When(/^the CBPII creates a funds-confirmation consent for the PSU's first account, whose debtor account has (.+)$/, async function (this: ConformanceWorld, defect: string) {
  const bend = DEFECTS[defect];
  if (!bend) throw new Error(`no such debtor-account defect: ${defect}`);
  const body = buildFundsConsent({ debtorAccount: await firstAccountRef(this), expirationDateTime: tomorrowAs('2006-01-02T15:04:05Z') }) as { Data: { DebtorAccount: { SchemeName: string; Identification: string; Name?: string } } };
  bend(body.Data.DebtorAccount);
  await createFunds(this, body);
});

When('the PSU authorises that funds-confirmation consent', async function (this: ConformanceWorld) {
  const record = this.consent;
  if (!record?.id) throw this.violation(`no ConsentId to authorise: ${record ? describeAnswer(record.created) : 'no consent was created'}`);
  await authoriseConsent(this, record);
});

When('the CBPII deletes the funds-confirmation consent {string}', async function (this: ConformanceWorld, id: string) {
  await this.call('deleting the funds-confirmation consent', async (c) => c.deleteFundsConsent(id, { token: await this.ccToken('cof') }));
});

When(/^the CBPII asks without an access token whether ([\d.]+) in the account's currency is available$/, async function (this: ConformanceWorld, amount: string) {
  const body = await fundsRequest(this, this.consent!.id, amount);
  await this.call('confirming funds', (c) => c.confirmFunds(body, { token: null }));
});

Then('the request carried no x-fapi-financial-id header', function (this: ConformanceWorld) {
  // Removed from the standard at v3.1.2: the suite checks a bank no longer demands it. The call
  // leaves it out whatever the profile's headers add; should it have gone out, nothing is judged.
  const sent = this.answer().exchange.request.headers;
  if (Object.keys(sent).some((h) => h.toLowerCase() === 'x-fapi-financial-id')) {
    throw this.blocked(undefined, 'the request went out with x-fapi-financial-id, so whether the bank still demands it cannot be judged');
  }
}, ['sent-without:x-fapi-financial-id']);

Then(/^the bank answers (\d{3}) [A-Za-z ]+, with the x-fapi-interaction-id the CBPII sent(, as application\/json)?$/, function (this: ConformanceWorld, status: string, json?: string) {
  const r = this.answer();
  expectStatus(this, r, [Number(status)]);
  const got = r.headers['x-fapi-interaction-id'];
  if (r.sentInteractionId !== undefined && got !== r.sentInteractionId) {
    throw this.violation(`expected the x-fapi-interaction-id the CBPII sent (${r.sentInteractionId}) to come back, got ${got === undefined ? 'no such header' : JSON.stringify(got)} on ${describeAnswer(r)}`);
  }
  if (json) expectJsonContentType(this, r);
}, (status, json) => [statusKind([status!]), 'interaction-id', 'interaction-id-echo', ...(json ? ['content-type'] : [])]);
