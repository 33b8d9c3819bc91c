// The steps of features/obie/uk-accounts.feature: every account-information read of UK Read/Write
// v3.1.11 and v4.0 (the same reads; the judges read the profile's version), named in words ("the standing orders of every account") and mapped to the catalogue's
// operation, under one of two pooled consents ("uk full", "uk basic"), and the judgements of the
// FCS cases and of the rules beyond them.
import { Given, When, Then, statusKind, errorCodeKind } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { createConsent, authoriseConsent, sharedSetup, tokenOf, firstAccountId, accountIdsOf, SHARED_GIVENS } from '../support/setups.ts';
import { expectStatus, expectSchema, describeAnswer, versionOfWorld, violationWithProblems, warn } from '../support/judge.ts';
import { buildAccountAccessConsent, isoDateTime, v4ErrorCodeOf } from '../../src/dialects/obie/index.ts';
import type { SchemaName } from '../../src/dialects/obie/index.ts';
import type { ApiResult, CallOptions, TppClient } from '../../src/client/operations.ts';
import { OBIE_OPERATIONS } from '../../src/dialects/obie/catalogue.ts';
import { groupOf, groupsOf } from '../../src/dialects/operation-spec.ts';

const DAY = 86_400_000;

/** The two consents of the feature: over the PSU's first account, from 100 days ago to 60 days ahead. */
const CONSENTS: Record<string, string[]> = {
  'uk full': [
    'ReadAccountsBasic', 'ReadAccountsDetail', 'ReadBalances', 'ReadBeneficiariesBasic', 'ReadBeneficiariesDetail', 'ReadDirectDebits',
    'ReadOffers', 'ReadPAN', 'ReadParty', 'ReadPartyPSU', 'ReadProducts', 'ReadScheduledPaymentsBasic', 'ReadScheduledPaymentsDetail',
    'ReadStandingOrdersBasic', 'ReadStandingOrdersDetail', 'ReadStatementsBasic', 'ReadStatementsDetail',
    'ReadTransactionsBasic', 'ReadTransactionsCredits', 'ReadTransactionsDebits', 'ReadTransactionsDetail',
  ],
  'uk basic': [
    'ReadAccountsBasic', 'ReadBeneficiariesBasic', 'ReadScheduledPaymentsBasic', 'ReadStandingOrdersBasic', 'ReadStatementsBasic',
    'ReadTransactionsBasic', 'ReadTransactionsCredits', 'ReadTransactionsDebits',
  ],
};
const FROM_DAYS_AGO = 100;
const TO_DAYS_AHEAD = 60;

function ukConsent(world: ConformanceWorld, name: string): Promise<ConsentRecord> {
  const permissions = CONSENTS[name];
  if (!permissions) throw new Error(`no consent called "${name}" in features/obie/uk-accounts.feature (${Object.keys(CONSENTS).join(', ')})`);
  const key = `${world.variant}:ais:${world.client.profile.standard ?? 'uk'}:${name}`;
  return sharedSetup(world, key, async () => {
    const from = new Date(Date.now() - FROM_DAYS_AGO * DAY);
    from.setUTCHours(0, 0, 0, 0);
    const body = buildAccountAccessConsent({
      permissions,
      expirationDateTime: isoDateTime(new Date(Date.now() + 2 * DAY)),
      transactionFromDateTime: isoDateTime(from),
      transactionToDateTime: isoDateTime(new Date(Date.now() + TO_DAYS_AHEAD * DAY)),
    });
    const consent = await createConsent(world, 'ais', body);
    return authoriseConsent(world, consent, { accounts: { pick: 'first' } });
  }, 'SEC-01');
}

// The same consents at v3.1.11 and v4.0 (the permission codes did not change: FACTS-v4 §3.3).
const GIVEN = /^the PSU has authorised the "([^"]+)" consent of UK Read\/Write$/;
// Prepared ahead with the other shared set-ups (hooks.ts reads the list when the run starts).
SHARED_GIVENS.push([GIVEN, (w, name) => ukConsent(w, name!)]);

Given(GIVEN, async function (this: ConformanceWorld, name: string) {
  const record = await ukConsent(this, name);
  this.consents.set(name, record);
  this.consent = record;
});

// ── The reads, in words ────────────────────────────────────────────────────────────────────────

type Op = Parameters<TppClient['getUndefined']>[0];

/**
 * A resource's words → its per-account and bulk operations: the catalogue's read groups
 * ("direct debits" is the group `direct-debits`), those of a statement's own reads left out (their
 * steps name the statement apart, below).
 */
const RESOURCES: Record<string, { one?: Op; every?: Op }> = Object.fromEntries(groupsOf(OBIE_OPERATIONS, 'read').flatMap((of) => {
  const { one, every } = groupOf(OBIE_OPERATIONS, 'read', of) as { one?: Op; every?: Op };
  return one && OBIE_OPERATIONS[one as keyof typeof OBIE_OPERATIONS].ids.length > 1 ? [] : [[of.replaceAll('-', ' '), { one, every }]];
}));

/** One read: the operation and the ids of its path (the first account's, found through the consent). */
interface Read { op: Op; ids: string[] }

async function resolve(world: ConformanceWorld, what: string, record: ConsentRecord | undefined): Promise<Read> {
  const first = async () => {
    if (!record) throw new Error(`"${what}" needs the scenario's consent (a Given step) to find the first account`);
    return firstAccountId(world, record);
  };
  if (what === 'the account list') return { op: 'listAccounts', ids: [] };
  if (what === 'the first account') return { op: 'getAccount', ids: [await first()] };
  if (what === 'the PSU\'s own party') return { op: 'getParty', ids: [] };
  const statement = /^(?:the (file|transactions) of )?the first statement of the first account$/.exec(what);
  if (statement) {
    const accountId = await first();
    const list = await world.call('reading the statements', (c) => c.getStatements(accountId, { token: tokenOf(record!) }));
    const id = (list.body as any)?.Data?.Statement?.find((s: any) => typeof s?.StatementId === 'string')?.StatementId;
    if (list.status !== 200 || !id) throw world.blocked('UKAIS-10', `the first account's statements named no StatementId to read further (${describeAnswer(list)})`);
    const op: Op = statement[1] === 'file' ? 'getStatementFile' : statement[1] === 'transactions' ? 'getStatementTransactions' : 'getStatement';
    return { op, ids: [accountId, id] };
  }
  const m = /^the (.+?) of (the first account|every account|the account "([^"]*)")$/.exec(what);
  const resource = m ? RESOURCES[m[1]!] : undefined;
  if (!m || !resource) throw new Error(`no read called "${what}" in step-definitions/obie/uk-accounts.ts`);
  if (m[2] === 'every account') {
    if (!resource.every) throw new Error(`the standard has no bulk read of ${m[1]}`);
    return { op: resource.every, ids: [] };
  }
  if (!resource.one) throw new Error(`the standard has no per-account read of ${m[1]}`);
  return { op: resource.one, ids: [m[3] ?? await first()] };
}

function invoke(c: TppClient, read: Read, o: CallOptions): Promise<ApiResult> {
  return c.invoke(read.op, [...read.ids, o]);
}

/** `a=1&b=2` as the feature writes it: values verbatim (a `+` is a zone's sign, not a space), encoded by the client. */
function parseQuery(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  return Object.fromEntries(text.split('&').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

// The other "requests" steps below (undefined paths, batches) are their own.
When(/^the AISP requests (?!the undefined |every bulk read |the standing orders, the scheduled payments )(.+?)(?: under the "([^"]+)" consent)?( without an access token| with a client-credentials token)?(?:, sending the x-fapi-interaction-id "([^"]+)")?(?:, with the query "([^"]*)")?(, without x-fapi-financial-id)?$/,
  async function (this: ConformanceWorld, what: string, name: string | undefined, tokenless: string | undefined, interactionId: string | undefined, query: string | undefined, noFinancialId: string | undefined) {
    const record = name ? this.consents.get(name) : this.consent;
    if (name && !record) throw new Error(`the scenario has no consent called "${name}"`);
    const read = await resolve(this, what, record ?? this.consent);
    const token = tokenless?.includes('without') ? null : tokenless ? await this.ccToken('ais') : tokenOf(record!);
    // The suite's removeHeaders: a header the standard dropped (v3.1.3) is left out, whatever the profile adds.
    const omit = noFinancialId ? { omitHeaders: ['x-fapi-financial-id'] } : {};
    await this.call(`reading ${what}`, (c) => invoke(c, read, { token, ...(interactionId ? { interactionId } : {}), ...(query ? { query: parseQuery(query) } : {}), ...omit }));
  }, (...args) => (args[4] ? [`query:${args[4]}`] : []));

When(/^the AISP requests the undefined path "([^"]+)" of the account-information API under the "([^"]+)" consent$/, async function (this: ConformanceWorld, path: string, name: string) {
  const record = this.consents.get(name)!;
  await this.call(`requesting ${path}`, (c) => c.getUndefined('listAccounts', path, { token: tokenOf(record) }));
});

When(/^the AISP requests the undefined sub-resource "([^"]+)" below (.+) under the "([^"]+)" consent$/, async function (this: ConformanceWorld, segment: string, what: string, name: string) {
  const record = this.consents.get(name)!;
  const read = await resolve(this, what, record);
  const ids = Object.fromEntries(this.client.specOf(read.op)!.ids.map((id, i) => [id, read.ids[i]!]));
  const path = `${this.client.pathOf(read.op, ids)}/${encodeURIComponent(segment)}`;
  await this.call(`requesting ${path}`, (c) => c.getUndefined(read.op, path, { token: tokenOf(record) }));
});

// ── Judgements ─────────────────────────────────────────────────────────────────────────────────

Then('the body is valid against the standard\'s schema of that read', function (this: ConformanceWorld) {
  const r = this.answer();
  const schema = this.client.specOf(r.operation)?.responses[200] as SchemaName | undefined;
  if (!schema) throw new Error(`${r.operation} declares no answer schema`);
  // A statement's file is whatever form the bank keeps it in (a PDF): only a JSON answer has a shape to
  // judge. Empty, it is no file at all (no bytes, or JSON holding nothing: {}, [], null, "").
  if (schema === 'File') {
    const b = r.body as unknown;
    const empty = !r.text.trim().length || (r.json && (b === null || b === '' || (typeof b === 'object' && Object.keys(b as object).length === 0)));
    if (empty) throw this.violation(`the statement's file is empty: ${describeAnswer(r)}`);
    if (!r.json) return;
  }
  expectSchema(this, r, schema);
}, ['schema']);

Then(/^the bank refuses the request with 403, or with 400 and the error code "([^"]+)" or "([^"]+)"$/, function (this: ConformanceWorld, v3a: string, v3b: string) {
  const r = this.answer();
  // v4.0's codes are four characters; the suite's V4 assertions pair these two (U002, U011).
  const inVersion = (code: string) => (versionOfWorld(this) === 'v4.0' ? v4ErrorCodeOf(code) ?? code : code);
  const [a, b] = [inVersion(v3a), inVersion(v3b)];
  if (r.status === 403) return;
  const codes: string[] = Array.isArray((r.body as any)?.Errors) ? (r.body as any).Errors.map((e: any) => e?.ErrorCode) : [];
  if (r.status === 400 && (codes.includes(a) || codes.includes(b))) return;
  const got = r.status === 400 ? `400 with the error codes ${JSON.stringify(codes)}` : describeAnswer(r);
  throw this.violation(`expected the bank to refuse an account outside the consent with 403, or 400 and ${a} or ${b}, got ${got}`);
}, (a, b) => [statusKind([400, 403]), errorCodeKind([a!, b!])]);

/** The fields that only the Detail permission of a payee-carrying resource opens. */
const PAYEE_DETAIL = ['CreditorAccount', 'CreditorAgent'] as const;

When('the AISP requests the standing orders, the scheduled payments and the beneficiaries of the first account and of every account under the {string} consent', async function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  this.batch = [];
  const skipped: Op[] = [];
  for (const resource of ['standing orders', 'scheduled payments', 'beneficiaries']) {
    for (const scope of ['the first account', 'every account']) {
      const read = await resolve(this, `the ${resource} of ${scope}`, record);
      // A bank that offers only some of these reads is judged on those it offers.
      if (!this.client.supports(read.op)) {
        skipped.push(read.op);
        continue;
      }
      this.batch.push(await this.call(`reading the ${resource} of ${scope}`, (c) => invoke(c, read, { token: tokenOf(record) })));
    }
  }
  if (!this.batch.length) throw this.client.unsupported(skipped[0]!);
});

Then('every answer is 200 OK and none of them names a payee\'s CreditorAccount or CreditorAgent', function (this: ConformanceWorld) {
  const problems: string[] = [];
  for (const r of this.batch) {
    if (r.status !== 200) {
      problems.push(`${describeAnswer(r)}: expected 200`);
      continue;
    }
    const data = (r.body as any)?.Data ?? {};
    const items = Object.values(data).flatMap((v) => (Array.isArray(v) ? v : []));
    for (const item of items) {
      const leaked = PAYEE_DETAIL.filter((f) => item && typeof item === 'object' && f in item);
      if (leaked.length) problems.push(`${r.operation}: ${item.StandingOrderId ?? item.ScheduledPaymentId ?? item.BeneficiaryId ?? item.AccountId ?? '?'} carries ${leaked.join(' and ')}`);
    }
  }
  if (problems.length) throw violationWithProblems(this, `the consent holds the Basic permissions only, but the payee's details came back (${problems.length}):`, problems);
});

Then('every statement\'s period and every ScheduledPaymentDateTime in the answer fall inside the consent\'s transaction period', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const d = this.consent!.request.Data;
  const from = Date.parse(d.TransactionFromDateTime);
  const to = Date.parse(d.TransactionToDateTime);
  const data = (r.body as any)?.Data ?? {};
  const outside: string[] = [];
  const straddling: string[] = [];
  // A statement wholly outside the period is not the consent's (a failure). One that straddles a
  // bound is a warning: the profile's prose shows only statements wholly inside the period (FACTS
  // §2.4, read at v3.1.5 and not confirmed for v3.1.11: not made a hard failure).
  for (const s of Array.isArray(data.Statement) ? data.Statement : []) {
    const start = Date.parse(s?.StartDateTime);
    const end = Date.parse(s?.EndDateTime);
    const what = `statement ${s?.StatementId ?? '?'} from ${s?.StartDateTime} to ${s?.EndDateTime}`;
    if (!(end >= from && start <= to)) outside.push(what);
    else if (start < from || end > to) straddling.push(what);
  }
  warn(this, `the statements of ${describeAnswer(r)}`, straddling.map((text) => ({
    text: `${text} lies only partly inside the consent's transaction period (${d.TransactionFromDateTime} to ${d.TransactionToDateTime})`,
    source: 'OBIE Account and Transaction API profile: Transaction To/From Date Time (FACTS §2.4)',
  })));
  for (const p of Array.isArray(data.ScheduledPayment) ? data.ScheduledPayment : []) {
    const at = Date.parse(p?.ScheduledPaymentDateTime);
    if (!(at >= from && at <= to)) outside.push(`scheduled payment ${p?.ScheduledPaymentId ?? '?'} at ${p?.ScheduledPaymentDateTime}`);
  }
  if (outside.length) {
    throw violationWithProblems(this, `the consent's transaction period is ${d.TransactionFromDateTime} to ${d.TransactionToDateTime}, but ${outside.length} answered item(s) lie outside it:`, outside);
  }
});

/** The member of Data that lists a resource's items, each an account's (the PSU's own party is not one). */
const LISTED_IN: Readonly<Record<string, string>> = {
  balances: 'Balance', transactions: 'Transaction', beneficiaries: 'Beneficiary', 'direct-debits': 'DirectDebit', 'standing-orders': 'StandingOrder',
  'scheduled-payments': 'ScheduledPayment', offers: 'Offer', products: 'Product', statements: 'Statement',
};

/** Every bulk read of the standard (the catalogue's read groups), with the member of Data that lists its resources. */
const BULK: Array<[Op, string]> = groupsOf(OBIE_OPERATIONS, 'read').flatMap((of) => {
  const every = groupOf(OBIE_OPERATIONS, 'read', of).every as Op | undefined;
  return every && LISTED_IN[of] ? [[every, LISTED_IN[of]] as [Op, string]] : [];
});

When('the AISP requests every bulk read of the standard under the {string} consent', async function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  await accountIdsOf(this, record);
  this.batch = [];
  for (const [op] of BULK) {
    if (!this.client.supports(op)) continue;
    this.batch.push(await this.call(`reading ${op}`, (c) => c.invoke(op, [{ token: tokenOf(record) }])));
  }
});

Then('every resource listed belongs to an account of the consent\'s account list', function (this: ConformanceWorld) {
  const allowed = new Set(this.consent?.accountIds ?? []);
  const problems: string[] = [];
  for (const r of this.batch) {
    if (r.status !== 200) {
      problems.push(`${describeAnswer(r)}: expected 200`);
      continue;
    }
    const key = BULK.find(([op]) => op === r.operation)![1];
    const items = (r.body as any)?.Data?.[key];
    const foreign = [...new Set((Array.isArray(items) ? items : []).map((x: any) => x?.AccountId).filter((id: unknown) => !allowed.has(id as string)))];
    if (foreign.length) problems.push(`${r.operation}: ${key} of ${foreign.map((x) => JSON.stringify(x)).join(', ')}, not in GET /accounts (${[...allowed].join(', ')})`);
  }
  if (problems.length) throw violationWithProblems(this, `the bulk reads list resources of accounts the PSU did not select (${problems.length}):`, problems);
});
