import { Given, When, Then } from '../support/define.ts';
import { NotJudgeable, type ConformanceWorld, type ConsentRecord } from '../support/world.ts';
import {
  sharedFunds, fundsConsentBody, fundsRequest, createConsent, tokenOf, debtorAccount, availableBalance,
  expiringConsent,
} from '../support/setups.ts';
import { expectStatus, expectJsonBody, describeAnswer, quote, judgeSchema, warn, violationWithProblems, expectedStatus, versionOfWorld } from '../support/judge.ts';
import { consentIdOf, statusOf, fundsAvailableOf } from '../../src/dialects/obie/index.ts';

/** `Data.FundsAvailable` as it came back (a string "true" included), for messages. */
const rawFundsAvailable = (body: unknown): unknown => (body as any)?.Data?.FundsAvailable;

const DAY = 86_400_000;

async function createFunds(world: ConformanceWorld, body: unknown, token: string | null) {
  const r = await world.call('creating the funds-confirmation consent', (c) => c.createFundsConsent(body, { token }));
  world.consent = { fn: 'cof', id: consentIdOf(r.body) ?? '', created: r, request: body };
  return r;
}

When('the CBPII creates a funds-confirmation consent for the PSU\'s first account, expiring in {int} days', async function (this: ConformanceWorld, days: number) {
  await createFunds(this, await fundsConsentBody(this, { expiresInMs: days * DAY }), await this.ccToken('cof'));
});

When('the CBPII creates a funds-confirmation consent for the PSU\'s first account, with no expiration', async function (this: ConformanceWorld) {
  await createFunds(this, await fundsConsentBody(this, { noExpiration: true }), await this.ccToken('cof'));
});

When('the CBPII creates a funds-confirmation consent without a debtor account', async function (this: ConformanceWorld) {
  await createFunds(this, await fundsConsentBody(this, { noDebtor: true }), await this.ccToken('cof'));
});

When('the CBPII creates a funds-confirmation consent for the PSU\'s first account without an access token', async function (this: ConformanceWorld) {
  await createFunds(this, await fundsConsentBody(this), null);
});

Then('the consent\'s debtor account is the one requested', function (this: ConformanceWorld) {
  const asked = this.consent?.request?.Data?.DebtorAccount;
  const got = (this.answer().body as any)?.Data?.DebtorAccount;
  // The bank may mask the identification, but the scheme and the rest of the account must stay.
  const masked = typeof got?.Identification === 'string' && /[*xX•]/.test(got.Identification);
  if (!got || got.SchemeName !== asked.SchemeName || (!masked && got.Identification !== asked.Identification)) {
    throw this.violation(`expected Data.DebtorAccount ${JSON.stringify(asked)}, got ${quote(got)}`);
  }
});

Given('the PSU has authorised the {string} funds-confirmation consent for their first account', async function (this: ConformanceWorld, name: string) {
  await sharedFunds(this, name);
});

Given('the CBPII has created a funds-confirmation consent for the PSU\'s first account that the PSU has not authorised', async function (this: ConformanceWorld) {
  this.consent = await createConsent(this, 'cof', await fundsConsentBody(this));
});

async function confirm(world: ConformanceWorld, record: ConsentRecord, consentId: string, amount: string, token: string) {
  const body = await fundsRequest(world, consentId, amount);
  world.notes.push(amount);
  return world.call('confirming funds', (c) => c.confirmFunds(body, { token }));
}

When(/^the CBPII asks whether ([\d.]+) in the account's currency is available$/, async function (this: ConformanceWorld, amount: string) {
  const record = this.consent!;
  await confirm(this, record, record.id, amount, tokenOf(record));
});

When(/^the CBPII asks, with a client-credentials token, whether ([\d.]+) is available under that consent$/, async function (this: ConformanceWorld, amount: string) {
  const record = this.consent!;
  await confirm(this, record, record.id, amount, await this.ccToken('cof'));
});

When(/^the CBPII asks with the "([^"]+)" consent's token whether ([\d.]+) is available, naming the "([^"]+)" consent's ConsentId$/, async function (this: ConformanceWorld, tokenOwner: string, amount: string, named: string) {
  const owner = this.consents.get(`cof:${tokenOwner}`)!;
  const other = this.consents.get(`cof:${named}`)!;
  await confirm(this, owner, other.id, amount, tokenOf(owner));
});

Then('the answer is only whether funds are available, and no balance is disclosed', async function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [201]);
  expectJsonBody(this, r);
  const available = fundsAvailableOf(r.body);
  if (typeof available !== 'boolean') throw this.violation(`expected Data.FundsAvailable to be true or false, got ${quote(rawFundsAvailable(r.body))} in ${describeAnswer(r)}`);
  const instructed = this.notes.at(-1)!;
  const leaks: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (/balance|availableamount|limit|creditline|overdraft/i.test(k) && k !== 'FundsAvailable') leaks.push(`${path}.${k}`);
        walk(x, `${path}.${k}`);
      }
    } else if ((typeof v === 'string' || typeof v === 'number') && /^-?\d+(\.\d+)?$/.test(String(v)) && Number(v) !== Number(instructed) && !/Id$|Reference$/.test(path)) {
      leaks.push(`${path} = ${v}`);
    }
  };
  walk(r.body, '(body)');
  // The standard leaves Data open; the rule does not: only the six fields of the answer.
  const allowed = new Set(['FundsConfirmationId', 'ConsentId', 'CreationDateTime', 'FundsAvailable', 'Reference', 'InstructedAmount', 'SupplementaryData']);
  const data = (r.body as any)?.Data ?? {};
  for (const k of Object.keys(data)) if (!allowed.has(k)) leaks.push(`Data.${k}`);
  for (const k of Object.keys(data.InstructedAmount ?? {})) if (k !== 'Amount' && k !== 'Currency') leaks.push(`Data.InstructedAmount.${k}`);
  const balance = await availableBalance(this, await debtorAccount(this));
  if (r.text.includes(balance.text) && balance.text !== instructed) leaks.push(`the account's balance ${balance.text} appears in the body`);
  for (const [h, v] of Object.entries(r.headers)) if (v.includes(balance.text) && !/date|id$/i.test(h)) leaks.push(`header ${h} carries ${balance.text}`);
  if (leaks.length) throw this.violation(`the answer discloses more than whether funds are available: ${leaks.slice(0, 5).join('; ')}`);
  const judged = judgeSchema('OBFundsConfirmationResponse1', r.body, versionOfWorld(this));
  warn(this, `the body of ${describeAnswer(r)} as OBFundsConfirmationResponse1`, judged.should);
  if (judged.must.length) throw violationWithProblems(this, `the answer is not a plain OBFundsConfirmationResponse1 (${judged.must.length} problem${judged.must.length === 1 ? '' : 's'}):`, judged.must);
});

Given('the AISP knows the available balance of that account', async function (this: ConformanceWorld) {
  const balance = await availableBalance(this, await debtorAccount(this));
  this.notes.push(JSON.stringify(balance));
});

function balanceNote(world: ConformanceWorld): { amount: number } {
  const note = [...world.notes].reverse().find((n) => n.startsWith('{'));
  return JSON.parse(note!);
}

When('the CBPII asks whether an amount well below the available balance is available', async function (this: ConformanceWorld) {
  const { amount } = balanceNote(this);
  if (amount < 0.1) {
    throw new NotJudgeable(`the account's available balance (${amount}) leaves no amount that is surely covered`);
  }
  const ask = Math.max(0.01, Math.floor((amount / 10) * 100) / 100).toFixed(2);
  const record = this.consent!;
  await confirm(this, record, record.id, ask, tokenOf(record));
});

When('the CBPII asks whether an amount far above the available balance is available', async function (this: ConformanceWorld) {
  const { amount } = balanceNote(this);
  const ask = (Math.max(amount, 0) * 10 + 1_000_000).toFixed(2);
  const record = this.consent!;
  await confirm(this, record, record.id, ask, tokenOf(record));
});

Then('the funds are available', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [201]);
  expectJsonBody(this, r);
  const v = fundsAvailableOf(r.body);
  if (v !== true) throw this.violation(`the account's available balance covers ${this.notes.at(-1)}, so Data.FundsAvailable must be true; got ${quote(rawFundsAvailable(r.body))} in ${describeAnswer(r)}`);
});

Then('the funds are not available', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [201]);
  expectJsonBody(this, r);
  const v = fundsAvailableOf(r.body);
  if (v !== false) throw this.violation(`the account's available balance is far below ${this.notes.at(-1)}, so Data.FundsAvailable must be false; got ${quote(rawFundsAvailable(r.body))} in ${describeAnswer(r)}`);
});

Given('the PSU has authorised a funds-confirmation consent that expires a few seconds later, and the CBPII confirmed funds before it expired', async function (this: ConformanceWorld) {
  const expiring = await expiringConsent(this, 'cof');
  this.consent = expiring.record;
  expectStatus(this, expiring.before, [201], 'expected the funds confirmation to answer 201 while the consent was still valid');
  this.expiring = expiring;
});

When('the CBPII reads that consent', async function (this: ConformanceWorld) {
  const record = this.consent!;
  await this.call('reading the funds-confirmation consent', async (c) => c.getFundsConsent(record.id, { token: await this.ccToken('cof') }));
});

When('the CBPII reads the funds-confirmation consent {string}', async function (this: ConformanceWorld, id: string) {
  await this.call('reading the funds-confirmation consent', async (c) => c.getFundsConsent(id, { token: await this.ccToken('cof') }));
});

When('the CBPII deletes that consent', async function (this: ConformanceWorld) {
  const record = this.consent!;
  await this.call('deleting the funds-confirmation consent', async (c) => c.deleteFundsConsent(record.id, { token: await this.ccToken('cof') }));
});

Then('the consent is no longer usable', function (this: ConformanceWorld) {
  const r = this.answer();
  if ([400, 403, 404, 410].includes(r.status)) return;
  const status = statusOf(r.body);
  if (r.status === 200 && (status === expectedStatus(this, 'Revoked').value || status === expectedStatus(this, 'Rejected').value)) return;
  throw this.violation(`after DELETE the consent must be gone (HTTP 400) or revoked, got ${describeAnswer(r)}${status ? ` with Status ${status}` : ''}`);
});
