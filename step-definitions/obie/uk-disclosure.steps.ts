// What a UK Read/Write consent may disclose, read by read (features/obie/uk-accounts.feature:
// UKAIS-02, UKAIS-03, UKAIS-05): every account-information read of the standard's catalogue that the
// consent's permissions open, judged for the fields only a Detail permission opens and for PANs in
// the clear without ReadPAN; and each statement's transactions against the consent's transaction
// period. The consents are uk-accounts.ts's ("uk basic", "uk full"); nothing here authorises anew.
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { firstAccountId, tokenOf } from '../support/setups.ts';
import { describeAnswer, violationWithProblems } from '../support/judge.ts';
import { OBIE_OPERATIONS } from '../../src/dialects/obie/catalogue.ts';
import type { Operation } from '../../src/client/operations.ts';

type AisRead = keyof typeof OBIE_OPERATIONS;

function consentNamed(world: ConformanceWorld, name: string): ConsentRecord {
  const record = world.consents.get(name);
  if (!record) throw new Error(`the scenario has no consent called "${name}" (a Given step names it)`);
  return record;
}

const permissionsOf = (record: ConsentRecord): string[] => (Array.isArray(record.request?.Data?.Permissions) ? record.request.Data.Permissions : []);

/**
 * The account-information reads of the catalogue (GET, under the PSU's token) whose permission the
 * consent holds and which the bank offers, with the ids their paths need: the consent's first
 * account, and that account's first statement (where a read needs one and the bank lists one).
 */
async function permittedReads(world: ConformanceWorld, record: ConsentRecord): Promise<Array<{ op: Operation; ids: string[] }>> {
  const held = new Set(permissionsOf(record));
  const reads = (Object.entries(OBIE_OPERATIONS) as Array<[AisRead, (typeof OBIE_OPERATIONS)[AisRead]]>).filter(([op, spec]) =>
    spec.api === 'ais' && spec.method === 'GET' && spec.token === 'psu' && 'permissions' in spec
    && (spec.permissions as readonly string[]).some((p) => held.has(p)) && (spec.ids as readonly string[]).every((id) => id === 'accountId' || id === 'statementId')
    && world.client.supports(op as Operation));
  const accountId = await firstAccountId(world, record);
  let statementId: string | undefined;
  if (reads.some(([, spec]) => (spec.ids as readonly string[]).includes('statementId')) && world.client.supports('getStatements')) {
    const list = await world.call('reading the first account\'s statements', (c) => c.getStatements(accountId, { token: tokenOf(record) }));
    statementId = (list.body as any)?.Data?.Statement?.find((s: any) => typeof s?.StatementId === 'string')?.StatementId;
  }
  return reads
    .filter(([, spec]) => statementId !== undefined || !(spec.ids as readonly string[]).includes('statementId'))
    .map(([op, spec]) => ({ op: op as Operation, ids: (spec.ids as readonly string[]).map((id) => (id === 'accountId' ? accountId : statementId!)) }));
}

When('the AISP makes every read the {string} consent permits', async function (this: ConformanceWorld, name: string) {
  const record = consentNamed(this, name);
  const reads = await permittedReads(this, record);
  if (!reads.length) throw this.client.unsupported('getAccount');
  this.batch = [];
  for (const read of reads) {
    this.batch.push(await this.call(`${read.op} under the "${name}" consent`, (c) => c.invoke(read.op, [...read.ids, { token: tokenOf(record) }])));
  }
});

/**
 * The fields only a Detail permission opens, by the Data member that lists the resource (FACTS §2.3,
 * from the Account and Transaction API profile's permission table; unchanged at v4.0).
 */
const DETAIL: Readonly<Record<string, { permission: string; fields: readonly string[] }>> = {
  Account: { permission: 'ReadAccountsDetail', fields: ['Account', 'Servicer'] },
  Transaction: { permission: 'ReadTransactionsDetail', fields: ['TransactionInformation', 'Balance', 'MerchantDetails', 'CreditorAgent', 'CreditorAccount', 'DebtorAgent', 'DebtorAccount'] },
  Beneficiary: { permission: 'ReadBeneficiariesDetail', fields: ['CreditorAgent', 'CreditorAccount'] },
  StandingOrder: { permission: 'ReadStandingOrdersDetail', fields: ['CreditorAgent', 'CreditorAccount'] },
  ScheduledPayment: { permission: 'ReadScheduledPaymentsDetail', fields: ['CreditorAgent', 'CreditorAccount'] },
  Statement: { permission: 'ReadStatementsDetail', fields: ['StatementAmount'] },
};

const idOf = (item: any): string => item?.TransactionId ?? item?.StatementId ?? item?.BeneficiaryId ?? item?.StandingOrderId ?? item?.ScheduledPaymentId ?? item?.AccountId ?? '?';

Then('every answer is 200 OK and none carries a field that only a Detail permission opens', function (this: ConformanceWorld) {
  const held = new Set(permissionsOf(this.consent!));
  const problems: string[] = [];
  for (const r of this.batch) {
    if (r.status !== 200) {
      problems.push(`${describeAnswer(r)}: expected 200 (the consent grants the read's permission)`);
      continue;
    }
    const data = (r.body as any)?.Data ?? {};
    for (const [member, rule] of Object.entries(DETAIL)) {
      if (held.has(rule.permission)) continue;
      const items = Array.isArray(data[member]) ? data[member] : data[member] && typeof data[member] === 'object' ? [data[member]] : [];
      for (const item of items) {
        const leaked = rule.fields.filter((f) => item && typeof item === 'object' && f in item);
        if (leaked.length) problems.push(`${r.operation}: ${member} ${idOf(item)} carries ${leaked.join(', ')}, which only ${rule.permission} opens`);
      }
    }
  }
  if (problems.length) throw violationWithProblems(this, `the consent holds no Detail permission, but its reads disclosed what only one opens (${problems.length}):`, problems);
});

/** A PAN in the clear: 12 to 19 digits (spaces or hyphens between them) whose last is the ISO/IEC 7812 (Luhn) check digit. */
export function isClearPan(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Every PAN a body carries: a card's Identification, and any account identified by the scheme UK.OBIE.PAN. */
export function pansIn(node: unknown, path = 'Data', found: Array<{ path: string; value: string }> = [], depth = 0): Array<{ path: string; value: string }> {
  if (depth > 16 || !node || typeof node !== 'object') return found;
  if (Array.isArray(node)) {
    node.forEach((n, i) => pansIn(n, `${path}[${i}]`, found, depth + 1));
    return found;
  }
  const o = node as Record<string, unknown>;
  const isCard = /(^|\.)CardInstrument$/.test(path);
  const isPanAccount = typeof o.SchemeName === 'string' && /(^|\.)PAN$/.test(o.SchemeName);
  if ((isCard || isPanAccount) && typeof o.Identification === 'string') found.push({ path: `${path}.Identification`, value: o.Identification });
  for (const [key, value] of Object.entries(o)) pansIn(value, `${path}.${key}`, found, depth + 1);
  return found;
}

Then('no answer carries a PAN in the clear', function (this: ConformanceWorld) {
  if (permissionsOf(this.consent!).includes('ReadPAN')) throw new Error('this judgement is of a consent without ReadPAN');
  let seen = 0;
  const problems: string[] = [];
  for (const r of this.batch) {
    if (r.status !== 200) continue;
    for (const pan of pansIn((r.body as any)?.Data)) {
      seen += 1;
      // The PAN itself never goes into a report: its last four digits say which one it was.
      if (isClearPan(pan.value)) problems.push(`${r.operation}: ${pan.path} is a full card number (…${pan.value.replace(/[\s-]/g, '').slice(-4)}), not masked`);
    }
  }
  if (problems.length) throw violationWithProblems(this, `the consent does not hold ReadPAN, so every PAN comes back masked (FACTS §2.3), but ${problems.length} came in the clear:`, problems);
  if (!seen) throw this.blocked(undefined, `no answer under the consent carries a PAN (a CardInstrument, or an account identified by UK.OBIE.PAN): nothing shows whether the bank masks it (${this.batch.length} read(s))`);
});

// ── A statement's transactions and the consent's transaction period (UKAIS-03) ──────────────

When('the AISP reads the transactions of each statement of the first account under the {string} consent', async function (this: ConformanceWorld, name: string) {
  const record = consentNamed(this, name);
  for (const op of ['getStatements', 'getStatementTransactions'] as const) if (!this.client.supports(op)) throw this.client.unsupported(op);
  const accountId = await firstAccountId(this, record);
  const list = await this.call('reading the first account\'s statements', (c) => c.getStatements(accountId, { token: tokenOf(record) }));
  if (list.status !== 200) throw this.blocked('UKAIS-10', `the first account's statements could not be read: ${describeAnswer(list)}`);
  const ids: string[] = ((list.body as any)?.Data?.Statement ?? []).map((s: any) => s?.StatementId).filter((id: unknown): id is string => typeof id === 'string');
  if (!ids.length) throw this.blocked(undefined, `the first account has no statement inside the consent's transaction period: nothing to judge (${describeAnswer(list)})`);
  this.batch = [];
  // A year of monthly statements at most: enough to see whether the bank bounds them.
  for (const id of ids.slice(0, 12)) {
    this.batch.push(await this.call(`reading the transactions of statement ${id}`, (c) => c.getStatementTransactions(accountId, id, { token: tokenOf(record) })));
  }
});

Then('every answer is 200 OK and every transaction\'s BookingDateTime falls inside the consent\'s transaction period', function (this: ConformanceWorld) {
  const d = this.consent!.request.Data;
  const from = d.TransactionFromDateTime === undefined ? -Infinity : Date.parse(d.TransactionFromDateTime);
  const to = d.TransactionToDateTime === undefined ? Infinity : Date.parse(d.TransactionToDateTime);
  const problems: string[] = [];
  for (const r of this.batch) {
    if (r.status !== 200) {
      problems.push(`${describeAnswer(r)}: expected 200`);
      continue;
    }
    for (const t of Array.isArray((r.body as any)?.Data?.Transaction) ? (r.body as any).Data.Transaction : []) {
      const at = Date.parse(t?.BookingDateTime);
      // FACTS §2.4: the AISP sees only the transactions booked inside the consent's window.
      if (!(at >= from && at <= to)) problems.push(`${r.exchange.url.split('?')[0]!.replace(/^.*\/accounts\//, '/accounts/')}: transaction ${t?.TransactionId ?? '?'} booked ${t?.BookingDateTime}`);
    }
  }
  if (problems.length) throw violationWithProblems(this, `the consent's transaction period is ${d.TransactionFromDateTime} to ${d.TransactionToDateTime}, but the statements' transactions hold ${problems.length} outside it:`, problems);
});
