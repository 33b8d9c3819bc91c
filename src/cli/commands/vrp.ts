/**
 * Variable Recurring Payments from the terminal (UK Read/Write v3.1.11 VRP; a profile with
 * `standard: uk-3.1`): create a VRP consent with its control parameters, let the PSU authorise it
 * once (`obtpp consent authorise`), then pay many times without the PSU, check funds, read the
 * payments. Chained by the session state like the other commands: the current VRP consent is kept
 * apart from the current payment-order consent.
 */
import { randomUUID } from 'node:crypto';
import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { str } from '../output.ts';
import { consentArg, withSession } from './common.ts';
import { debtorFrom } from '../obie/consent.ts';
import { BankError, StateError, UsageError } from '../../errors.ts';
import { parseAmount, parseCurrency, parseWhen, required, text35 } from '../../session/parse.ts';
import type { ConsentRecord, Session } from '../../session/index.ts';
import { versionOf } from '../../dialects/obie/versions.ts';
import { buildVrp, buildVrpConsent, buildVrpFundsConfirmation, type VrpConsentBody, type VrpLimit, type VrpPeriodType } from '../../dialects/obie/vrp-builders.ts';

const SORT_CODE = 'UK.OBIE.SortCodeAccountNumber';
const PERIODS: readonly VrpPeriodType[] = ['Day', 'Week', 'Fortnight', 'Month', 'Half-year', 'Year'];
const TYPES: Record<string, string> = { sweeping: 'UK.OBIE.VRPType.Sweeping', other: 'UK.OBIE.VRPType.Other' };

export interface VrpConsentFlags extends CommonFlags {
  creditorId?: string; creditorName?: string; creditorScheme?: string;
  debtorId?: string; debtorScheme?: string; debtorName?: string;
  max?: string; currency?: string; limit?: string[]; type?: string;
  validFrom?: string; validTo?: string; reference?: string; idempotencyKey?: string;
}

/** `--limit Month=500.00` or `--limit Week=100:Calendar` (alignment Consent by default). */
export function parseLimit(value: string, currency: string): VrpLimit {
  const m = /^([A-Za-z-]+)=([^:]+)(?::(Consent|Calendar))?$/i.exec(value.trim());
  const period = m && PERIODS.find((p) => p.toLowerCase() === m[1]!.toLowerCase());
  if (!m || !period) throw new UsageError(`--limit ${value}: expected PERIOD=AMOUNT[:Consent|Calendar], PERIOD one of ${PERIODS.join(', ')} (e.g. --limit Month=500.00)`);
  const alignment = m[3] ? (m[3][0]!.toUpperCase() + m[3].slice(1).toLowerCase()) as 'Consent' | 'Calendar' : 'Consent';
  return { periodType: period, periodAlignment: alignment, amount: parseAmount(`--limit ${period}`, m[2]!), currency };
}

/** The request body and the session's summary of a VRP consent, from the flags. */
export async function vrpConsent(session: Session, flags: VrpConsentFlags): Promise<{ body: VrpConsentBody; vrp: NonNullable<ConsentRecord['vrp']> }> {
  const currency = parseCurrency('--currency', flags.currency ?? 'GBP');
  const max = parseAmount('--max', required('--max', flags.max, 'the most one payment may be (MaximumIndividualAmount), e.g. 100.00'));
  if (!flags.limit?.length) throw new UsageError('--limit is required: at least one periodic limit, e.g. --limit Month=500.00 (repeatable: --limit Day=50 --limit Year=2000:Calendar)');
  const limits = flags.limit.map((l) => parseLimit(l, currency));
  const type = TYPES[(flags.type ?? 'sweeping').toLowerCase()];
  if (!type) throw new UsageError(`--type ${flags.type}: expected sweeping or other`);
  const creditorId = required('--creditor-id', flags.creditorId, 'the payee\'s account identification (e.g. sort code + account number)');
  const creditorName = text35('--creditor-name', required('--creditor-name', flags.creditorName, 'the payee\'s name'));
  const debtor = await debtorFrom(session, flags);
  const validFrom = flags.validFrom === undefined ? undefined : parseWhen('--valid-from', flags.validFrom);
  const validTo = flags.validTo === undefined ? undefined : parseWhen('--valid-to', flags.validTo);
  if (validFrom && validTo && Date.parse(validFrom) > Date.parse(validTo)) throw new UsageError(`--valid-from ${flags.validFrom} is after --valid-to ${flags.validTo}`);
  const body = buildVrpConsent({
    creditor: { schemeName: flags.creditorScheme ?? SORT_CODE, identification: creditorId, name: creditorName },
    ...(debtor ? { debtor: { ...debtor, name: debtor.name ?? 'PSU account' } } : {}),
    ...(flags.reference !== undefined ? { reference: text35('--reference', flags.reference) } : {}),
    maximumIndividualAmount: { amount: max, currency },
    periodicLimits: limits,
    vrpType: type,
    ...(validFrom ? { validFrom } : {}),
    ...(validTo ? { validTo } : {}),
    // A UK Read/Write v4.0 bank takes v4.0's structured remittance information.
    version: versionOf(session.profile.standard),
  });
  const vrp = { maximum: { Amount: max, Currency: currency }, limits: body.Data.ControlParameters.PeriodicLimits, type };
  return { body, vrp };
}

/** The VRP consent named, or the current one; a consent that is not a VRP consent is refused. */
async function vrpRecord(session: Session, id: string | undefined): Promise<ConsentRecord> {
  const ps = await session.read();
  const chosen = id ?? ps.current.vrp;
  if (!chosen) throw new StateError('no_consent', `no current VRP consent for profile ${session.profile.name}: pass --consent ID or create one with obtpp vrp consent create`);
  const record = ps.consents[chosen];
  if (!record) throw new StateError('unknown_consent', `unknown VRP consent ${chosen} for profile ${session.profile.name} (see obtpp consent list, or create one with obtpp vrp consent create)`);
  if (!record.vrp) throw new UsageError(`consent ${chosen} is not a VRP consent (a ${record.fn} consent); VRP consents come from obtpp vrp consent create`);
  return record;
}

function printConsent(out: Out, body: unknown): void {
  const d = (body as { Data?: Record<string, any> })?.Data;
  const cp = d?.ControlParameters;
  const rows: Array<[string, string | undefined]> = [
    ['ConsentId', str(d, 'ConsentId')], ['Status', str(d, 'Status')], ['Type', Array.isArray(cp?.VRPType) ? cp.VRPType.join(', ') : undefined],
    ['Per payment', str(cp, 'MaximumIndividualAmount', 'Amount') && `${str(cp, 'MaximumIndividualAmount', 'Amount')} ${str(cp, 'MaximumIndividualAmount', 'Currency') ?? ''}`],
    ['Limits', Array.isArray(cp?.PeriodicLimits) ? cp.PeriodicLimits.map((l: any) => `${l?.Amount} ${l?.Currency} per ${l?.PeriodType} (${l?.PeriodAlignment})`).join('; ') : undefined],
    ['Valid', cp?.ValidFromDateTime || cp?.ValidToDateTime ? `${cp.ValidFromDateTime ?? '…'} to ${cp.ValidToDateTime ?? '…'}` : undefined],
    ['Creditor', str(d, 'Initiation', 'CreditorAccount', 'Identification') && `${str(d, 'Initiation', 'CreditorAccount', 'Identification')} (${str(d, 'Initiation', 'CreditorAccount', 'Name') ?? ''})`],
    ['Debtor', str(d, 'DebtorAccount', 'Identification') ?? str(d, 'Initiation', 'DebtorAccount', 'Identification')],
  ];
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
}

function printPayment(out: Out, body: unknown): void {
  const d = (body as { Data?: Record<string, any> })?.Data;
  const rows: Array<[string, string | undefined]> = [
    ['DomesticVRPId', str(d, 'DomesticVRPId')], ['ConsentId', str(d, 'ConsentId')], ['Status', str(d, 'Status')], ['Created', str(d, 'CreationDateTime')],
    ['Amount', str(d, 'Instruction', 'InstructedAmount', 'Amount') && `${str(d, 'Instruction', 'InstructedAmount', 'Amount')} ${str(d, 'Instruction', 'InstructedAmount', 'Currency') ?? ''}`],
    ['Creditor', str(d, 'Instruction', 'CreditorAccount', 'Identification')],
  ];
  for (const [k, v] of rows) if (v !== undefined) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
}

/** VRP is an operation of UK Read/Write v3.1.11: a profile in the spec's layout is told how to get there. */
function requireVrp(session: Session): void {
  if (!session.client.supports('createVrpConsent')) throw session.client.unsupported('createVrpConsent');
}

export async function createConsent(io: Io, flags: VrpConsentFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    requireVrp(session);
    const { body, vrp } = await vrpConsent(session, flags);
    const key = flags.idempotencyKey ?? randomUUID();
    const result = await out.step('creating the VRP consent', async () => session.check(await session.withClientToken('pis', (token) => session.client.createVrpConsent(body, { token, idempotencyKey: key })), [201]));
    const id = str(result.body, 'Data', 'ConsentId');
    if (!id) throw new BankError(result.status, 'the bank created the VRP consent but gave no Data.ConsentId', { exchange: result.exchange });
    const record: ConsentRecord = { id, fn: 'pis', status: str(result.body, 'Data', 'Status') ?? 'unknown', createdAt: new Date().toISOString(), vrp };
    // Current as the VRP consent, and the last consent (what `consent authorise` takes by default); the payment-order consent stays current.
    await session.update((s) => {
      s.consents[id] = record;
      s.current.vrp = id;
      s.last = id;
    });
    if (out.json) return out.document(result.body);
    out.line(`created VRP consent ${out.c.bold(id)} (${record.status}); next: obtpp consent authorise, then obtpp vrp pay --amount AMOUNT`);
  });
}

export async function getConsent(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    requireVrp(session);
    const record = await vrpRecord(session, consentArg(id, flags));
    const result = await out.step(`reading VRP consent ${record.id}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.getVrpConsent(record.id, { token })), [200]));
    await session.rememberStatus(record.id, str(result.body, 'Data', 'Status'));
    if (out.json) return out.document(result.body);
    printConsent(out, result.body);
  });
}

export async function deleteConsent(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    requireVrp(session);
    const record = await vrpRecord(session, consentArg(id, flags));
    await out.step(`revoking VRP consent ${record.id}`, async () => session.check(await session.withClientToken('pis', (token) => session.client.deleteVrpConsent(record.id, { token })), [204]));
    await session.update((s) => {
      const r = s.consents[record.id];
      if (r) r.status = 'Revoked';
      delete s.tokens[record.id];
      if (s.current.vrp === record.id) delete s.current.vrp;
    });
    if (out.json) return out.document({ consentId: record.id, status: 'revoked' });
    out.line(`VRP consent ${record.id} revoked: it pays no more`);
  });
}

/** The consent as the bank holds it: its Initiation, Risk and control parameters are what a payment carries. */
async function consentAtBank(session: Session, record: ConsentRecord): Promise<VrpConsentBody> {
  const result = session.check(await session.withClientToken('pis', (token) => session.client.getVrpConsent(record.id, { token })), [200]);
  const data = (result.body as { Data?: Record<string, any> } | undefined)?.Data;
  if (!data?.ControlParameters || !data.Initiation) throw new BankError(result.status, `the bank's VRP consent ${record.id} has no Data.ControlParameters or Data.Initiation to pay under`, { exchange: result.exchange });
  return { Data: { ControlParameters: data.ControlParameters, Initiation: data.Initiation }, Risk: ((result.body as { Risk?: unknown }).Risk ?? {}) as Record<string, unknown> };
}

/** A v3.1.11 remittance ({ Unstructured, Reference } strings) in v4.0's shape; a v4.0 one as it is (FACTS-v4 §4.1). */
function remittanceV4(r: unknown): unknown {
  if (!r || typeof r !== 'object') return r;
  const { Unstructured, Reference, ...rest } = r as Record<string, unknown>;
  if (typeof Unstructured !== 'string' && typeof Reference !== 'string') return r;
  return {
    ...rest,
    ...(Unstructured !== undefined ? { Unstructured: Array.isArray(Unstructured) ? Unstructured : [Unstructured] } : {}),
    ...(typeof Reference === 'string' ? { Structured: [...((rest.Structured as unknown[] | undefined) ?? []), { CreditorReferenceInformation: { Reference } }] } : {}),
  };
}

/** The consent's update (PUT or PATCH) is UK v4.0's: a profile at another version is told so. */
function requireUpdate(session: Session, operation: 'updateVrpConsent' | 'patchVrpConsent'): void {
  if (!session.client.supports(operation)) throw session.client.unsupported(operation);
}

export async function updateConsent(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; idempotencyKey?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    requireUpdate(session, 'updateVrpConsent');
    const record = await vrpRecord(session, consentArg(id, flags));
    const held = await out.step(`reading VRP consent ${record.id}`, () => consentAtBank(session, record));
    const initiation = { ...held.Data.Initiation } as Record<string, unknown>;
    if (initiation.RemittanceInformation !== undefined) initiation.RemittanceInformation = remittanceV4(initiation.RemittanceInformation);
    const body = { Data: { ControlParameters: held.Data.ControlParameters, Initiation: initiation }, Risk: held.Risk };
    const key = flags.idempotencyKey ?? randomUUID();
    const result = await out.step(`migrating VRP consent ${record.id} by PUT`, async () => session.check(await session.withClientToken('pis', (token) => session.client.updateVrpConsent(record.id, body, { token, idempotencyKey: key })), [200]));
    await session.rememberStatus(record.id, str(result.body, 'Data', 'Status'));
    if (out.json) return out.document(result.body);
    printConsent(out, result.body);
  });
}

export async function patchConsent(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; patch?: string; idempotencyKey?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    requireUpdate(session, 'patchVrpConsent');
    const record = await vrpRecord(session, consentArg(id, flags));
    const given = required('--patch', flags.patch, 'the JSON Patch: a JSON array of operations, e.g. [{"op":"replace","path":"/Data/Initiation/RemittanceInformation","value":{"Unstructured":["rent"]}}], or @FILE');
    let text = given;
    if (given.startsWith('@')) {
      const { readFile } = await import('node:fs/promises');
      text = await readFile(given.slice(1), 'utf8').catch((e: Error) => {
        throw new UsageError(`--patch ${given}: ${e.message}`);
      });
    }
    let patch: unknown;
    try {
      patch = JSON.parse(text);
    } catch {
      throw new UsageError('--patch: not JSON (expected a JSON array of operations, RFC 6902)');
    }
    if (!Array.isArray(patch) || patch.length === 0) throw new UsageError('--patch: expected a non-empty JSON array of operations (RFC 6902), e.g. [{"op":"replace","path":"/Data/Initiation/RemittanceInformation","value":{"Unstructured":["rent"]}}]');
    const key = flags.idempotencyKey ?? randomUUID();
    const result = await out.step(`migrating VRP consent ${record.id} by JSON Patch`, async () => session.check(await session.withClientToken('pis', (token) => session.client.patchVrpConsent(record.id, patch, { token, idempotencyKey: key, bodyText: text.trim() })), [200]));
    await session.rememberStatus(record.id, str(result.body, 'Data', 'Status'));
    if (out.json) return out.document(result.body);
    printConsent(out, result.body);
  });
}

export async function pay(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; amount?: string; currency?: string; idempotencyKey?: string; interaction?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    requireVrp(session);
    const record = await vrpRecord(session, consentArg(id, flags));
    const amount = parseAmount('--amount', required('--amount', flags.amount, 'the amount of this payment, e.g. 25.00'));
    const interaction = flags.interaction === undefined ? undefined : flags.interaction === 'in-session' ? 'InSession' : flags.interaction === 'off-session' ? 'OffSession' : undefined;
    if (flags.interaction !== undefined && !interaction) throw new UsageError(`--interaction ${flags.interaction}: expected in-session or off-session`);
    const consent = await out.step(`reading VRP consent ${record.id}`, () => consentAtBank(session, record));
    const currency = parseCurrency('--currency', flags.currency ?? consent.Data.ControlParameters.MaximumIndividualAmount.Currency);
    const tag = randomUUID().replace(/-/g, '').slice(0, 16);
    const body = buildVrp(record.id, consent, { instructionIdentification: `obtpp-vrp-${tag}`, endToEndIdentification: `obtpp-e2e-${tag}`, amount, currency, ...(interaction ? { interaction } : {}) });
    // One key for both tries: a retry after a refreshed token must not pay twice.
    const key = flags.idempotencyKey ?? randomUUID();
    const result = await out.step(`paying ${amount} ${currency} under VRP consent ${record.id}`, () => session.withUserToken(record, async (token) => session.check(await session.client.createVrp(body, { token, idempotencyKey: key }), [201])), (r) => `VRP payment ${str(r.body, 'Data', 'DomesticVRPId') ?? '?'}: ${str(r.body, 'Data', 'Status') ?? 'no status'}`);
    const paymentId = str(result.body, 'Data', 'DomesticVRPId');
    if (paymentId) {
      await session.update((s) => {
        const r = s.consents[record.id];
        if (r?.vrp) r.vrp.payments = [...new Set([...(r.vrp.payments ?? []), paymentId])];
      });
    }
    if (out.json) return out.document(result.body);
    printPayment(out, result.body);
    if (paymentId) out.line(`read it back: obtpp vrp get ${paymentId}`);
  });
}

export async function funds(io: Io, id: string | undefined, flags: CommonFlags & { consent?: string; amount?: string; currency?: string; reference?: string }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    requireVrp(session);
    const record = await vrpRecord(session, consentArg(id, flags));
    const amount = parseAmount('--amount', required('--amount', flags.amount, 'the amount to check, e.g. 25.00'));
    const currency = parseCurrency('--currency', flags.currency ?? record.vrp!.maximum.Currency);
    const body = buildVrpFundsConfirmation({ consentId: record.id, amount, currency, ...(flags.reference !== undefined ? { reference: text35('--reference', flags.reference) } : {}) });
    const result = await out.step(`checking funds of ${amount} ${currency} under VRP consent ${record.id}`, () => session.withUserToken(record, async (token) => session.check(await session.client.confirmVrpFunds(record.id, body, { token }), [201])));
    if (out.json) return out.document(result.body);
    out.line(`funds for ${amount} ${currency}: ${str(result.body, 'Data', 'FundsAvailableResult', 'FundsAvailable') ?? 'no answer'}`);
  });
}

export async function get(io: Io, paymentId: string | undefined, flags: CommonFlags & { details?: boolean }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    requireVrp(session);
    let id = paymentId;
    if (!id) {
      const ps = await session.read();
      const current = ps.current.vrp ? ps.consents[ps.current.vrp] : undefined;
      id = current?.vrp?.payments?.at(-1);
      if (!id) throw new StateError('no_payment', 'no VRP payment made in this session: pass its DomesticVRPId, or pay with obtpp vrp pay --amount AMOUNT');
    }
    const vrpId = id;
    const result = await out.step(`reading VRP payment ${vrpId}${flags.details ? '\'s details' : ''}`, async () => session.check(await session.withClientToken('pis', (token) =>
      flags.details ? session.client.getVrpDetails(vrpId, { token }) : session.client.getVrp(vrpId, { token })), [200]));
    if (out.json) return out.document(result.body);
    if (!flags.details) return printPayment(out, result.body);
    const rows = ((result.body as any)?.Data?.PaymentStatus ?? []) as Array<Record<string, unknown>>;
    for (const r of rows) out.line(`${String(r.PaymentTransactionId ?? '?')}: ${String(r.Status ?? '?')} (${String(r.StatusUpdateDateTime ?? '')})`);
    if (!rows.length) out.line('the bank lists no payment status');
  });
}
