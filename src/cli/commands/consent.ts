import { randomUUID } from 'node:crypto';
import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { table } from '../output.ts';
import { consentArg, withSession, when } from './common.ts';
import { FN_NAMES, kindOf, type AuthoriseOutcome, type ConsentRecord, type Session } from '../../session/index.ts';
import { parseAmount, parseCurrency, parseList, parsePermissions, parseWhen, required, text35 } from '../../session/parse.ts';
import { buildAccountAccessConsent, buildFundsConsent, buildPaymentConsent, statusOf, type AccountRef } from '../../dialects/obie/builders.ts';
import { UsageError } from '../../errors.ts';
import type { Fn } from '../../profile/types.ts';
import type { AccountAccess } from '../../dialects/berlin-group/builders.ts';

export const DEFAULT_PERMISSIONS = 'ReadAccountsDetail,ReadBalances,ReadTransactionsDetail,ReadTransactionsCredits,ReadTransactionsDebits';
const SORT_CODE = 'UK.OBIE.SortCodeAccountNumber';

export interface AisFlags extends CommonFlags {
  permissions?: string; expires?: string; from?: string; to?: string;
  /** berlin-group only: the consent's access form. */
  access?: string;
}
export interface CofFlags extends CommonFlags { debtorScheme?: string; debtorId?: string; debtorName?: string; expires?: string }
export interface PisFlags extends CommonFlags {
  amount?: string; currency?: string; creditorId?: string; creditorName?: string; creditorScheme?: string;
  debtorId?: string; debtorScheme?: string; debtorName?: string; reference?: string; idempotencyKey?: string;
  /** berlin-group only. */
  product?: string; creditorIban?: string; debtorIban?: string;
}

/** The request body and local summary of an account-access consent from its flags. */
export function aisConsent(flags: AisFlags) {
  if (flags.access !== undefined) throw new UsageError('--access is a berlin-group term (a NextGenPSD2 consent\'s access form): a UK consent names its Permissions (--permissions)');
  const permissions = parsePermissions('--permissions', flags.permissions ?? DEFAULT_PERMISSIONS);
  const expiration = parseWhen('--expires', flags.expires ?? '+90d');
  const from = parseWhen('--from', flags.from ?? '-90d');
  const to = parseWhen('--to', flags.to ?? 'now');
  if (Date.parse(from) > Date.parse(to)) throw new UsageError(`--from ${flags.from ?? '-90d'} is after --to ${flags.to ?? 'now'}`);
  const body = buildAccountAccessConsent({ permissions, expirationDateTime: expiration, transactionFromDateTime: from, transactionToDateTime: to });
  return { body, summary: { permissions, expiration, transactionFrom: from, transactionTo: to } };
}

/** A debtor from flags: an AccountId obtpp has seen in a listing is turned into its identification. */
export async function debtorFrom(session: Session, flags: { debtorId?: string; debtorScheme?: string; debtorName?: string }): Promise<AccountRef | undefined> {
  if (flags.debtorId === undefined) return undefined;
  const ps = await session.read();
  const known = Object.values(ps.consents).flatMap((c) => c.accounts ?? []).find((a) => a.AccountId === flags.debtorId && a.Identification);
  if (known && !flags.debtorScheme) {
    return { schemeName: known.SchemeName ?? SORT_CODE, identification: known.Identification!, ...(flags.debtorName ?? known.Name ? { name: flags.debtorName ?? known.Name } : {}) };
  }
  return { schemeName: flags.debtorScheme ?? SORT_CODE, identification: flags.debtorId, ...(flags.debtorName ? { name: flags.debtorName } : {}) };
}

const wire = (a: AccountRef) => ({ SchemeName: a.schemeName, Identification: a.identification, ...(a.name ? { Name: a.name } : {}) });

export async function cofConsent(session: Session, flags: CofFlags) {
  required('--debtor-id', flags.debtorId, 'the debtor account\'s identification (e.g. sort code + account number 40400411290112), or an AccountId listed by obtpp accounts');
  const debtor = (await debtorFrom(session, flags))!;
  const expiration = flags.expires === undefined ? undefined : parseWhen('--expires', flags.expires);
  const body = buildFundsConsent({ debtorAccount: debtor, ...(expiration ? { expirationDateTime: expiration } : {}) });
  return { body, summary: { debtor: wire(debtor), ...(expiration ? { expiration } : {}) } };
}

export async function pisConsent(session: Session, flags: PisFlags) {
  const bgOnly = ([['--product', flags.product], ['--creditor-iban', flags.creditorIban], ['--debtor-iban', flags.debtorIban]] as const).filter(([, v]) => v !== undefined).map(([f]) => f);
  if (bgOnly.length) throw new UsageError(`${bgOnly.join(', ')}: berlin-group terms; a UK payment-order consent names --creditor-id and --debtor-id (with their schemes)`);
  const amount = parseAmount('--amount', required('--amount', flags.amount, 'the amount to pay, e.g. 25.00'));
  const currency = parseCurrency('--currency', flags.currency ?? 'GBP');
  const creditorId = required('--creditor-id', flags.creditorId, 'the payee\'s account identification (e.g. sort code + account number)');
  const creditorName = text35('--creditor-name', required('--creditor-name', flags.creditorName, 'the payee\'s name'));
  const creditor = { schemeName: flags.creditorScheme ?? SORT_CODE, identification: creditorId, name: creditorName };
  const debtor = await debtorFrom(session, flags);
  const reference = flags.reference === undefined ? undefined : text35('--reference', flags.reference);
  const tag = randomUUID().replace(/-/g, '').slice(0, 16);
  const body = buildPaymentConsent({
    instructionIdentification: `obtpp-${tag}`,
    endToEndIdentification: `obtpp-e2e-${tag}`,
    amount, currency, creditor,
    ...(debtor ? { debtor } : {}),
    ...(reference ? { remittance: { reference } } : {}),
    // A UK Read/Write v4.0 bank takes v4.0's structured remittance information.
    version: session.profile.standard === 'uk-4.0' ? 'v4.0' : 'v3.1',
  });
  return { body, summary: { amount: { Amount: amount, Currency: currency }, creditor: wire(creditor), ...(debtor ? { debtor: wire(debtor) } : {}) } };
}

function created(out: Out, record: ConsentRecord): void {
  out.line(`created ${FN_NAMES[record.fn]} ${out.c.bold(record.id)} (${record.status}); next: obtpp consent authorise`);
}

/** The speakers of both dialects (the rest speak obie only, so far). */
const BOTH = { dialects: ['obie', 'berlin-group'] } as const;

export async function createAis(io: Io, flags: AisFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') return createBgAis(session, out, flags);
    const { body, summary } = aisConsent(flags);
    const { result, record } = await out.step('creating the account-access consent', () => session.createConsent('ais', body, summary));
    if (out.json) return out.document(result.body);
    created(out, record);
  }, BOTH);
}

/**
 * berlin-group: a recurring consent, bank-offered by default (the PSU picks the accounts at the
 * bank) for accounts, balances and transactions, or of a global form (--access), valid until
 * --expires (a date), 4 accesses a day.
 */
async function createBgAis(session: Session, out: Out, flags: AisFlags): Promise<void> {
  const { body, summary } = await bgAisConsent(flags);
  const { createBgConsent } = await import('../../session/berlin-group.ts');
  const { result, record } = await out.step('creating the consent (POST /v1/consents)', () => createBgConsent(session, body, summary));
  if (out.json) return out.document(result.body);
  out.line(`created consent ${out.c.bold(record.id)} (${record.status}, SCA by ${record.sca?.approach ?? 'an approach obtpp does not speak'}); next: obtpp consent authorise`);
}

/** --access: the bank-offered lists (the PSU picks the accounts at the bank), or a global form, which reaches card accounts too. */
const BG_ACCESS_FORMS = {
  'bank-offered': { accounts: [], balances: [], transactions: [] },
  'all-psd2': { allPsd2: 'allAccounts' },
  'available-accounts': { availableAccounts: 'allAccounts' },
  'available-accounts-with-balance': { availableAccountsWithBalance: 'allAccounts' },
} as const;

function bgAccessOf(value: string): AccountAccess {
  const form = BG_ACCESS_FORMS[value.trim().toLowerCase() as keyof typeof BG_ACCESS_FORMS];
  if (!form) throw new UsageError(`--access ${value}: expected one of ${Object.keys(BG_ACCESS_FORMS).join(', ')}`);
  return structuredClone(form) as AccountAccess;
}

/** The berlin-group consent's body from the flags (the UK-only ones refused); shared with `flow ais`. */
export async function bgAisConsent(flags: AisFlags) {
  if (flags.permissions !== undefined || flags.from !== undefined || flags.to !== undefined) {
    throw new UsageError('--permissions, --from and --to are UK Open Banking terms: a berlin-group consent names access, validUntil (--expires) and frequencyPerDay');
  }
  const validUntil = parseWhen('--expires', flags.expires ?? '+90d').slice(0, 10);
  const { buildConsent } = await import('../../dialects/berlin-group/builders.ts');
  const body = buildConsent({ access: bgAccessOf(flags.access ?? 'bank-offered'), recurringIndicator: true, validUntil, frequencyPerDay: 4 });
  return { body, summary: { expiration: validUntil, access: body.access as Record<string, unknown> } };
}

export async function createCof(io: Io, flags: CofFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const { body, summary } = await cofConsent(session, flags);
    const { result, record } = await out.step('creating the funds-confirmation consent', () => session.createConsent('cof', body, summary));
    if (out.json) return out.document(result.body);
    created(out, record);
  });
}

export async function createPis(io: Io, flags: PisFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') return createBgPis(session, out, flags);
    const { body, summary } = await pisConsent(session, flags);
    const { result, record } = await out.step('creating the payment-order consent', () => session.createConsent('pis', body, summary, flags.idempotencyKey));
    if (out.json) return out.document(result.body);
    created(out, record);
    out.line(`PaymentId ${record.id}: obtpp payment get ${record.id} once authorised`);
  }, BOTH);
}

/** berlin-group: the payment itself, POST /v1/payments/{payment-product} (JSON products), with the SCA link it answers. */
async function createBgPis(session: Session, out: Out, flags: PisFlags): Promise<void> {
  const { product, body } = await bgPayment(session, flags);
  const { createBgPayment } = await import('../../session/berlin-group.ts');
  const { result, record } = await out.step(`initiating the payment (POST /v1/payments/${product})`, () => createBgPayment(session, product, body));
  if (out.json) return out.document(result.body);
  out.line(`created payment ${out.c.bold(record.id)} (${record.status}, SCA by ${record.sca?.approach ?? 'an approach obtpp does not speak'}); next: obtpp consent authorise, then obtpp payment status`);
}

/** The berlin-group payment initiation (product and body) from the flags (the UK-only ones refused); shared with `flow pis`. */
export async function bgPayment(session: Session, flags: PisFlags) {
  const ukOnly = ([['--creditor-id', flags.creditorId], ['--creditor-scheme', flags.creditorScheme], ['--debtor-id', flags.debtorId], ['--debtor-scheme', flags.debtorScheme], ['--debtor-name', flags.debtorName], ['--idempotency-key', flags.idempotencyKey]] as const)
    .filter(([, v]) => v !== undefined).map(([f]) => f);
  if (ukOnly.length) throw new UsageError(`${ukOnly.join(', ')}: UK Open Banking terms; a berlin-group payment names --debtor-iban, --creditor-iban and --creditor-name`);
  const { buildPaymentInitiation } = await import('../../dialects/berlin-group/builders.ts');
  const { PAYMENT_PRODUCTS } = await import('../../dialects/berlin-group/schemas/payments.ts');
  const product = flags.product ?? session.profile.paths.paymentProduct;
  if (!(PAYMENT_PRODUCTS as readonly string[]).includes(product)) throw new UsageError(`--product ${product}: expected one of ${PAYMENT_PRODUCTS.join(', ')}`);
  const iban = (flag: string, value: string | undefined, what: string) => {
    const v = required(flag, value, what).replace(/\s/g, '').toUpperCase();
    if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(v)) throw new UsageError(`${flag} ${value}: not an IBAN (two letters, two check digits, up to 30 letters and digits)`);
    return v;
  };
  const body = buildPaymentInitiation({
    debtor: { iban: iban('--debtor-iban', flags.debtorIban, 'the paying account\'s IBAN, e.g. from obtpp accounts') },
    creditor: { iban: iban('--creditor-iban', flags.creditorIban, 'the payee\'s IBAN') },
    creditorName: required('--creditor-name', flags.creditorName, 'the payee\'s name'),
    amount: parseAmount('--amount', required('--amount', flags.amount, 'the amount to pay, e.g. 25.00')),
    currency: parseCurrency('--currency', flags.currency ?? 'EUR'),
    endToEndIdentification: `obtpp-e2e-${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    ...(flags.reference !== undefined ? { remittance: flags.reference } : {}),
  });
  if (body.creditorName.length > 70) throw new UsageError('--creditor-name: at most 70 characters');
  if ((body.remittanceInformationUnstructured?.length ?? 0) > 140) throw new UsageError('--reference: at most 140 characters');
  return { product, body };
}

/**
 * GET of a consent: account-access consents (UK, both variants), funds-confirmation consents
 * (variant A) and payment-order consents (the payment).
 */
export async function get(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, consentArg(id, flags));
    if (session.profile.dialect === 'berlin-group') {
      if (record.fn === 'pis') throw new UsageError(`${record.id} is a payment, not a consent: obtpp payment get ${record.id} reads it`);
      return getBg(session, out, record);
    }
    const c = session.client;
    const result = session.check(
      await session.withClientToken(record.fn, (token) =>
        record.fn === 'ais' ? c.getAccountAccessConsent(record.id, { token }) : record.fn === 'cof' ? c.getFundsConsent(record.id, { token }) : c.getPayment(record.id, { token })),
      [200],
    );
    await session.rememberStatus(record.id, statusOf(result.body));
    if (out.json) return out.document(result.body);
    printConsentBody(out, record, result.body);
  }, BOTH);
}

/** berlin-group: GET /v1/consents/{consentId} (the account-information consents obtpp creates there). */
async function getBg(session: Session, out: Out, record: ConsentRecord): Promise<void> {
  const { readBgConsent } = await import('../../session/berlin-group.ts');
  const result = await out.step(`reading consent ${record.id} (GET /v1/consents/{consentId})`, () => readBgConsent(session, record));
  if (out.json) return out.document(result.body);
  const b = (result.body ?? {}) as Record<string, unknown>;
  const rows: Array<[string, unknown]> = [
    ['consentId', record.id], ['consentStatus', b.consentStatus], ['validUntil', b.validUntil], ['frequencyPerDay', b.frequencyPerDay],
    ['recurring', b.recurringIndicator], ['lastActionDate', b.lastActionDate],
  ];
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${String(v)}`);
}

function printConsentBody(out: Out, record: ConsentRecord, body: unknown): void {
  const data = ((body as { Data?: Record<string, any> })?.Data ?? {}) as Record<string, any>;
  const rows: Array<[string, string | undefined]> = [
    ['ConsentId', data.ConsentId], ['Status', data.Status], ['Kind', FN_NAMES[record.fn]],
    ['Created', data.CreationDateTime], ['Status updated', data.StatusUpdateDateTime], ['Expires', data.ExpirationDateTime],
  ];
  if (Array.isArray(data.Permissions)) rows.push(['Permissions', data.Permissions.join(', ')]);
  if (data.TransactionFromDateTime || data.TransactionToDateTime) rows.push(['Transactions', `${data.TransactionFromDateTime ?? '…'} to ${data.TransactionToDateTime ?? '…'}`]);
  const debtor = data.DebtorAccount ?? data.Initiation?.DebtorAccount ?? data.Debtor;
  if (debtor) rows.push(['Debtor', `${debtor.Identification} (${debtor.SchemeName}${debtor.Name ? `, ${debtor.Name}` : ''})`]);
  const init = data.Initiation;
  if (init?.InstructedAmount) rows.push(['Amount', `${init.InstructedAmount.Amount} ${init.InstructedAmount.Currency}`]);
  if (init?.CreditorAccount) rows.push(['Creditor', `${init.CreditorAccount.Identification} (${init.CreditorAccount.Name})`]);
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
}

export async function del(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const chosen = consentArg(id, flags);
    // berlin-group: without an id, the current consent (never the last thing created, which may be a payment).
    const record = await session.consent(session.profile.dialect === 'berlin-group' && chosen === undefined ? 'ais' : undefined, chosen);
    if (session.profile.dialect === 'berlin-group') {
      if (record.fn === 'pis') throw new UsageError(`${record.id} is a payment, not a consent: DELETE /v1/consents/{consentId} cannot end it (obtpp payment cancel ${record.id} cancels it)`);
      const { deleteBgConsent } = await import('../../session/berlin-group.ts');
      const result = await out.step(`deleting consent ${record.id} (DELETE /v1/consents/{consentId})`, () => deleteBgConsent(session, record));
      if (out.json) return out.document({ consentId: record.id, fn: record.fn, deleted: true, status: result.status });
      return out.line(`deleted consent ${record.id} (${result.status}): the bank reads it terminatedByTpp; its tokens are forgotten`);
    }
    if (record.fn === 'pis') {
      throw new UsageError(`${FN_NAMES[record.fn]} ${record.id}: the specification has no DELETE for it (obtpp consent forget ${record.id} drops it from the session state)`);
    }
    const fn = record.fn;
    const c = session.client;
    const result = session.check(
      await session.withClientToken(fn, (token) => fn === 'ais' ? c.deleteAccountAccessConsent(record.id, { token }) : c.deleteFundsConsent(record.id, { token })),
      [200, 204],
    );
    await session.update((s) => {
      const r = s.consents[record.id];
      if (r) r.status = 'Deleted';
      delete s.tokens[record.id];
      if (s.current[fn] === record.id) delete s.current[fn];
    });
    if (out.json) return out.document({ consentId: record.id, fn: record.fn, deleted: true, status: result.status });
    out.line(`deleted ${FN_NAMES[fn]} ${record.id} (${result.status}); its tokens are forgotten`);
  }, BOTH);
}

export async function forget(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  const chosen = consentArg(id, flags);
  if (chosen === undefined) throw new UsageError('consent forget needs the consent: obtpp consent forget ID (see obtpp consent list)');
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, chosen);
    await session.update((s) => {
      delete s.consents[record.id];
      delete s.tokens[record.id];
      for (const fn of ['ais', 'cof', 'pis'] as const) if (s.current[fn] === record.id) delete s.current[fn];
      if (s.last === record.id) delete s.last;
    });
    if (out.json) return out.document({ consentId: record.id, fn: record.fn, forgotten: true });
    out.line(`forgot ${kindOf(session.profile.dialect, record.fn)} ${record.id} and its tokens (the bank still has it)`);
  });
}

export async function list(io: Io, flags: CommonFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    // berlin-group: a consent's status changes at the bank (a newer recurring consent expires the
    // former, the PSU revokes one): each status not yet final is read afresh.
    const unread = session.profile.dialect === 'berlin-group' ? await (await import('../../session/berlin-group.ts')).refreshBgStatuses(session) : {};
    const ps = await session.read();
    const now = Date.now();
    const rows = Object.values(ps.consents).sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map((r) => {
      const t = ps.tokens[r.id];
      const token = !t ? 'none' : t.expiresAt === undefined || t.expiresAt > now ? 'valid' : t.refreshToken ? 'expired (refreshable)' : 'expired';
      return { ...r, current: ps.current[r.fn] === r.id, token, ...(t?.expiresAt ? { tokenExpiresAt: new Date(t.expiresAt).toISOString() } : {}), ...(unread[r.id] ? { statusNotRead: unread[r.id] } : {}) };
    });
    if (out.json) return out.document({ profile: session.profile.name, variant: session.variant, state: session.state.path, consents: rows });
    if (rows.length === 0) {
      out.line(`no consents yet for ${session.profile.name} (variant ${session.variant}); create one: obtpp consent create ais`);
      return;
    }
    out.block(table(['', 'CONSENT', 'KIND', 'STATUS', 'CREATED', 'EXPIRES', 'TOKEN', 'WHAT'], rows.map((r) => [
      r.current ? '*' : '', r.id, r.fn, r.statusNotRead ? `${r.status} (as last read)` : r.status, when(r.createdAt), r.expiration ? when(r.expiration) : '—', r.token, summary(r),
    ]), out.c));
    for (const r of rows) if (r.statusNotRead) out.line(out.c.dim(`${r.id}: status not read afresh: ${r.statusNotRead}`));
    out.line(out.c.dim('* the current consent of its kind (used when --consent is not given)'));
  }, BOTH);
}

function summary(r: ConsentRecord): string {
  if (r.fn === 'ais' && r.access) return `${accessOf(r.access)}${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'ais' && r.sca) return `access not recorded${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'ais') return `${r.permissions?.length ?? 0} permissions${r.accountIds?.length ? `; accounts ${r.accountIds.join(', ')}` : ''}`;
  if (r.fn === 'cof') return `debtor ${r.debtor?.Identification ?? '?'}`;
  return `${r.amount?.Amount ?? '?'} ${r.amount?.Currency ?? ''} to ${r.creditor?.Name ?? r.creditor?.Identification ?? '?'}${r.debtor ? ` from ${r.debtor.Identification}` : ''}`;
}

/**
 * What a NextGenPSD2 consent's `access` grants, in its own words: the services (accounts,
 * balances, transactions) with the accounts named, or "the PSU picks" for empty lists (a
 * bank-offered consent), or the global form (allPsd2, availableAccounts…).
 */
export function accessOf(access: Record<string, unknown>): string {
  const global = ['allPsd2', 'availableAccounts', 'availableAccountsWithBalance'].find((k) => access[k] !== undefined);
  if (global) return `${global}: ${String(access[global])}`;
  const services = ['accounts', 'balances', 'transactions'].filter((k) => Array.isArray(access[k]));
  if (!services.length) return 'no access named';
  const named = services.map((k) => access[k] as unknown[]);
  const ids = [...new Set(named.flat().map((a) => (a && typeof a === 'object' ? String((a as Record<string, unknown>).iban ?? (a as Record<string, unknown>).maskedPan ?? (a as Record<string, unknown>).pan ?? '?') : '?')))];
  return `${services.join(', ')}${ids.length ? ` of ${ids.join(', ')}` : ' (the PSU picks the accounts)'}`;
}

export interface AuthoriseFlags extends CommonFlags {
  consent?: string; accounts?: string; debtor?: string; reject?: boolean; manual?: boolean; callbackPort?: string;
  psuId?: string; passwordStdin?: boolean; otpStdin?: boolean; timeout?: string;
}

/** The PSU journey for a consent; shared with `flow`. */
export async function authoriseConsent(session: Session, out: Out, record: ConsentRecord, flags: AuthoriseFlags): Promise<AuthoriseOutcome> {
  let callbackPort: number | undefined;
  if (flags.callbackPort !== undefined) {
    callbackPort = Number(flags.callbackPort);
    if (!Number.isInteger(callbackPort) || callbackPort < 0 || callbackPort > 65535) throw new UsageError(`--callback-port ${flags.callbackPort}: not a port number (0–65535)`);
  }
  const manual = flags.manual === true || callbackPort !== undefined || session.profile.psu.driver.kind === 'manual';
  const request = {
    accounts: parseList(flags.accounts), debtor: flags.debtor, reject: flags.reject === true,
    manual: flags.manual === true, callbackPort,
    log: (line: string) => void out.io.stderr.write(line + '\n'),
  };
  const approach = record.sca?.approach;
  const inApp = approach === 'decoupled' || approach === 'embedded';
  if (!inApp && (flags.psuId !== undefined || flags.passwordStdin || flags.otpStdin || flags.timeout !== undefined)) {
    throw new UsageError('--psu-id, --password-stdin, --otp-stdin and --timeout are for the decoupled and embedded SCA approaches of a berlin-group profile');
  }
  if (inApp && flags.reject) throw new UsageError(`--reject: in the ${approach} SCA approach the PSU rejects in the banking app (decoupled) or by a wrong one-time password (embedded), not through obtpp`);
  if (inApp) {
    let timeoutMs: number | undefined;
    if (flags.timeout !== undefined) {
      const seconds = Number(flags.timeout);
      if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) throw new UsageError(`--timeout ${flags.timeout}: a number of seconds (above 0, at most 3600)`);
      timeoutMs = seconds * 1000;
    }
    const { stdinLines } = await import('../secret-input.ts');
    const lines = stdinLines(out.io, flags.passwordStdin === true, flags.otpStdin === true);
    // What stdin gives wins over the profile (flags over profile), read in the order of the flags' help.
    const password = flags.passwordStdin ? await lines('password') : undefined;
    const otp = flags.otpStdin ? await lines('one-time password') : undefined;
    Object.assign(request, {
      inApp: {
        ...(flags.psuId ? { psuId: flags.psuId } : {}),
        ...(password ? { password } : {}),
        ...(otp ? { otp } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        secret: lines,
        log: request.log,
      },
    });
    // No spinner over the instructions (decoupled) or a prompt (embedded).
    return (await import('../../session/berlin-group.ts')).authoriseBg(session, record, request);
  }
  const doing = `${flags.reject ? 'rejecting' : 'authorising'} ${kindOf(session.profile.dialect, record.fn)} ${record.id} as the PSU${manual ? '' : ' (headless Chromium)'}`;
  const run = session.profile.dialect === 'berlin-group'
    ? async () => (await import('../../session/berlin-group.ts')).authoriseBg(session, record, request)
    : () => session.authorise(record, request);
  // Manual mode prints instructions on stderr: no spinner over them.
  const outcome = manual ? await run() : await out.step(doing, run, (o) => describeOutcome(o, session.profile.dialect));
  return outcome;
}

export function describeOutcome(o: AuthoriseOutcome, dialect?: string): string {
  const kind = kindOf(dialect, o.fn);
  if (o.status === 'refused') return `the bank refused the authorisation request for ${kind} ${o.consentId}: ${o.error}${o.description ? ` (${o.description})` : ''}; the ${kind} is unchanged`;
  // The PSU approved and the bank said no (a payment RJCT for want of funds): the bank's decision, not the PSU's.
  if (o.status === 'rejected' && o.by === 'bank') return `the bank rejected ${kind} ${o.consentId} after the PSU's SCA: ${o.error}${o.description ? ` (${o.description})` : ''}`;
  if (o.status === 'rejected') return `the PSU rejected ${kind} ${o.consentId}: the bank answered ${o.error}${o.description ? ` (${o.description})` : ''}`;
  const parts = [`authorised ${kind} ${o.consentId}`];
  if (o.accounts.length) parts.push(`accounts ${o.accounts.join(', ')}`);
  if (o.debtor) parts.push(`debtor ${o.debtor}`);
  if (o.expiresAt) parts.push(`token until ${when(o.expiresAt)}`);
  return parts.join('; ');
}

export async function authorise(io: Io, id: string | undefined, flags: AuthoriseFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, consentArg(id, flags));
    const outcome = await authoriseConsent(session, out, record, flags);
    // The rejection asked for: access_denied (OAuth2), or a berlin-group consent read rejected / payment RJCT after the redirect SCA.
    const asked = outcome.status === 'rejected' && (outcome.error === 'access_denied' || (flags.reject === true && ['rejected', 'RJCT'].includes(outcome.error)));
    if (outcome.status !== 'authorised' && !asked) io.exitCode = 1;
    if (out.json) return out.document(outcome);
    out.line(describeOutcome(outcome, session.profile.dialect));
    if (outcome.status === 'authorised') out.line(record.vrp ? 'next: obtpp vrp pay --amount AMOUNT (as often as the consent\'s limits allow)' : next(record.fn, session.profile.dialect));
  }, BOTH);
}

function next(fn: Fn, dialect?: string): string {
  if (fn === 'ais') return 'next: obtpp accounts';
  if (dialect === 'berlin-group') return 'next: obtpp payment status';
  if (fn === 'cof') return 'next: obtpp funds confirm --amount 10.00 --currency GBP';
  return 'next: obtpp payment get';
}
