// Confirmation of funds at UK Read/Write v3.1.11's paths, as the FCS v3.1 judges it
// (features/obie/uk-funds.feature): the suite's calls, with every answer judged on its status, the
// echoed x-fapi-interaction-id and its Content-Type.
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { authoriseConsent, debtorAccount, fundsRequest } from '../support/setups.ts';
import { describeAnswer, expectStatus, warn } from '../support/judge.ts';
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

async function createFunds(world: ConformanceWorld, body: unknown): Promise<ApiResult> {
  const token = await world.ccToken('cof');
  const r = await world.call('creating the funds-confirmation consent', (c) => c.createFundsConsent(body, { token }));
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
  // Removed from the standard at v3.1.2: the suite checks a bank no longer demands it. A profile
  // that adds it to every request (headers) leaves nothing to judge.
  const sent = this.answer().exchange.request.headers;
  if (Object.keys(sent).some((h) => h.toLowerCase() === 'x-fapi-financial-id')) {
    throw this.blocked(undefined, "the profile's headers send x-fapi-financial-id on every request, so whether the bank still demands it cannot be judged");
  }
});

/** What the answer's Content-Type must be: application/json, in UTF-8 where a charset is named. */
function judgeContentType(world: ConformanceWorld, r: ApiResult): void {
  const type = r.headers['content-type'];
  const [media, ...params] = (type ?? '').split(';').map((s) => s.trim());
  if (media?.toLowerCase() !== 'application/json') {
    throw world.violation(`expected Content-Type application/json (the standard's; the FCS asserts "application/json; charset=utf-8"), got ${type === undefined ? 'none' : JSON.stringify(type)} on ${describeAnswer(r)}`);
  }
  const charset = params.find((p) => /^charset=/i.test(p))?.slice('charset='.length).replace(/"/g, '');
  // JSON between systems is UTF-8 (RFC 8259 §8.1): another charset is wrong, none only less explicit than the FCS asks.
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw world.violation(`JSON must be UTF-8, but the Content-Type of ${describeAnswer(r)} names charset ${charset}`);
  }
  if (charset === undefined) {
    warn(world, `the Content-Type of ${describeAnswer(r)}`, [{ text: `"${type}" names no charset; the FCS asserts "application/json; charset=utf-8"`, source: 'FCS v3.1 OB3GLOAssertContentType' }]);
  }
}

Then(/^the bank answers (\d{3}) [A-Za-z ]+, with the x-fapi-interaction-id the CBPII sent(, as application\/json)?$/, function (this: ConformanceWorld, status: string, json?: string) {
  const r = this.answer();
  expectStatus(this, r, [Number(status)]);
  const got = r.headers['x-fapi-interaction-id'];
  if (r.sentInteractionId !== undefined && got !== r.sentInteractionId) {
    throw this.violation(`expected the x-fapi-interaction-id the CBPII sent (${r.sentInteractionId}) to come back, got ${got === undefined ? 'no such header' : JSON.stringify(got)} on ${describeAnswer(r)}`);
  }
  if (json) judgeContentType(this, r);
});
