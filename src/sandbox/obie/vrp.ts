/**
 * Variable Recurring Payments (UK Read/Write v3.1.11 VRP, below /pisp in the UK layout only): the
 * domestic VRP consent (create, read, delete, funds check) and the payments made under it (create,
 * read, payment details). The PSU authorises the consent once, on the same pages as a payment
 * (it is a payment consent with control parameters); then the TPP pays many times without the PSU,
 * each payment bounded by the consent's ControlParameters: the maximum individual amount, the
 * periodic limits, the validity window, the VRP type and the authentication method. A payment
 * beyond them is refused with 400 `UK.OBIE.Rules.FailsControlParameters`. Answers are signed and
 * POSTs must be, as for every payment (FACTS-v4.md §6).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FaultDeclaration } from '../fault-declaration.ts';
import { availableBalance, money, parseMoney } from '../fixtures.ts';
import type { PisConsent, VrpPayment } from '../store.ts';
import {
  A, ApiError, authenticate, clientCredentials, forbidden, idempotent, invalid, isObject, iso, links, missing, notFound,
  parseDateTime, requireAmount, requireText, route, sameJson, status, unauthorised,
  type Reply, type Req, type ResourceContext, type UkRoute,
} from './plumbing.ts';
import { sign, verify } from './pis.ts';

/**
 * The faults of these routes (docs/rules.md, VRP-xx); their rules are judged in the UK layouts only.
 * One that names no `standard` bends the v4.0 layout alike (the same routes): a uk-4.0 run shows it too.
 */
export const VRP_FAULTS = [
  { name: 'vrp-periodic-limits-optional', rule: 'VRP-01', description: 'a VRP consent without PeriodicLimits is accepted (the v3.1.11 file requires at least one)', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-consent-consumed', rule: 'VRP-02', description: 'a VRP consent is Consumed by its first payment: the second payment under it is refused', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-reads-unsigned', rule: 'VRP-02', description: 'the reads of a VRP consent, a VRP payment and its payment details answer without an x-jws-signature', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-reads-latin1', rule: 'VRP-02', description: 'the reads of a VRP consent, a VRP payment and its payment details label their JSON "application/json; charset=iso-8859-1" (JSON is UTF-8: the file lists application/json and charset=utf-8 only)', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-individual-limit-ignored', rule: 'VRP-03', description: 'a VRP payment above the consent\'s MaximumIndividualAmount is accepted', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-periodic-limit-ignored', rule: 'VRP-04', description: 'VRP payments whose sum in a period passes the consent\'s PeriodicLimits are accepted', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-validity-ignored', rule: 'VRP-05', description: 'a VRP payment before the consent\'s ValidFromDateTime is accepted', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-validity-end-ignored', rule: 'VRP-05', description: 'a VRP payment after the consent\'s ValidToDateTime is accepted', kind: 'rule' },
  { name: 'vrp-revoked-pays', rule: 'VRP-06', description: 'a VRP consent the TPP deleted still pays', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-deleted-consent-bare-400', rule: 'VRP-06', description: 'reading or deleting again a VRP consent the TPP deleted answers 400 without an OBErrorResponse1 body', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-funds-boolean', rule: 'VRP-07', description: 'the funds check of a VRP consent answers FundsAvailable as a boolean (the CBPII shape), not Available/NotAvailable', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-funds-balance-disclosed', rule: 'VRP-07', description: 'the funds check of a VRP consent also answers the debtor account\'s available balance (FundsAvailableResult.AvailableBalance)', kind: 'rule' },
  { name: 'vrp-unsigned-payment-accepted', rule: 'VRP-08', description: 'a VRP payment request with a missing or broken x-jws-signature is accepted', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-signature-presence-only', rule: 'VRP-08', description: 'a VRP payment whose x-jws-signature is there but does not verify (made over another body) is accepted: only its presence is checked', kind: 'rule' },
  { name: 'vrp-idempotency-ignored', rule: 'VRP-09', description: 'a VRP payment sent again under the same x-idempotency-key makes a second payment', kind: 'rule', standard: 'uk-3.1' },
  { name: 'vrp-initiation-unchecked', rule: 'VRP-10', description: 'a VRP payment whose Initiation (its creditor) is not the consent\'s is accepted', kind: 'rule', standard: 'uk-3.1' },
] as const satisfies readonly FaultDeclaration[];

const FAILS = 'UK.OBIE.Rules.FailsControlParameters';
const DAY = 86_400_000;

// ---- representations ---------------------------------------------------------------------

export function consentBody(c: PisConsent, self: string) {
  const debtor = c.Debtor ?? c.Initiation.DebtorAccount;
  return {
    Data: {
      ...(c.vrp!.ReadRefundAccount ? { ReadRefundAccount: c.vrp!.ReadRefundAccount } : {}),
      ConsentId: c.ConsentId, CreationDateTime: iso(c.CreationDateTime), Status: c.Status, StatusUpdateDateTime: iso(c.StatusUpdateDateTime),
      ControlParameters: c.vrp!.ControlParameters,
      Initiation: c.Initiation,
      // v3.1.11: populated once the consent is approved (the PSU's chosen account, or the one named).
      ...(c.Status === 'Authorised' && debtor ? { DebtorAccount: { Name: 'PSU account', ...debtor } } : {}),
    },
    Risk: c.Risk,
    Links: { Self: self },
    Meta: {},
  };
}

function vrpBody(p: VrpPayment, self: string) {
  return {
    Data: {
      DomesticVRPId: p.DomesticVRPId, ConsentId: p.ConsentId, CreationDateTime: iso(p.CreationDateTime), Status: p.Status,
      StatusUpdateDateTime: iso(p.StatusUpdateDateTime), Initiation: p.Initiation, Instruction: p.Instruction,
      ...(p.DebtorAccount ? { DebtorAccount: { Name: 'PSU account', ...p.DebtorAccount } } : {}),
    },
    Risk: p.Risk,
    Links: { Self: self },
    Meta: {},
  };
}

// ---- checks of a consent request -----------------------------------------------------------

const PERIOD_TYPES = ['Day', 'Week', 'Fortnight', 'Month', 'Half-year', 'Year'];
const ALIGNMENTS = ['Consent', 'Calendar'];

function requireCodes(value: unknown, path: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string' && v !== '')) throw invalid(path, 'must be a list of at least one code');
  return value as string[];
}

export function checkControlParameters(k: ResourceContext, cp: unknown): Record<string, any> {
  if (!isObject(cp)) throw missing('Data.ControlParameters');
  requireCodes(cp.VRPType, 'Data.ControlParameters.VRPType');
  requireCodes(cp.PSUAuthenticationMethods, 'Data.ControlParameters.PSUAuthenticationMethods');
  if (cp.PSUInteractionTypes !== undefined && (!Array.isArray(cp.PSUInteractionTypes) || !cp.PSUInteractionTypes.every((t: unknown) => t === 'InSession' || t === 'OffSession'))) {
    throw invalid('Data.ControlParameters.PSUInteractionTypes', 'must list InSession or OffSession');
  }
  requireAmount(cp.MaximumIndividualAmount, 'Data.ControlParameters.MaximumIndividualAmount');
  // vrp-periodic-limits-optional: a consent without limits is taken as one with none (an empty list).
  if (k.faults.has('vrp-periodic-limits-optional') && cp.PeriodicLimits === undefined) cp.PeriodicLimits = [];
  else if (!Array.isArray(cp.PeriodicLimits) || cp.PeriodicLimits.length === 0) throw invalid('Data.ControlParameters.PeriodicLimits', 'must list at least one limit');
  cp.PeriodicLimits.forEach((l: unknown, i: number) => {
    const at = `Data.ControlParameters.PeriodicLimits[${i}]`;
    if (!isObject(l)) throw invalid(at, 'must be an object');
    if (!PERIOD_TYPES.includes(l.PeriodType)) throw invalid(`${at}.PeriodType`, `must be one of ${PERIOD_TYPES.join(', ')}`);
    if (!ALIGNMENTS.includes(l.PeriodAlignment)) throw invalid(`${at}.PeriodAlignment`, 'must be Consent or Calendar');
    requireAmount({ Amount: l.Amount, Currency: l.Currency }, at);
  });
  for (const field of ['ValidFromDateTime', 'ValidToDateTime']) {
    if (cp[field] !== undefined && parseDateTime(cp[field]) === undefined) throw invalid(`Data.ControlParameters.${field}`, 'must be an ISO 8601 date-time with a time zone');
  }
  return cp;
}

// ---- periodic limits -----------------------------------------------------------------------

const addMonths = (ms: number, n: number) => {
  const d = new Date(ms);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.getTime();
};

/** Where the period that holds `now` began: counted from the consent's start, or on the calendar (UTC). */
export function periodStart(type: string, alignment: string, anchorMs: number, nowMs: number): number {
  const months: Record<string, number> = { Month: 1, 'Half-year': 6, Year: 12 };
  const days: Record<string, number> = { Day: 1, Week: 7, Fortnight: 14 };
  if (alignment === 'Calendar' && type !== 'Fortnight') {
    const d = new Date(nowMs);
    const y = d.getUTCFullYear();
    if (type === 'Day') return Date.UTC(y, d.getUTCMonth(), d.getUTCDate());
    if (type === 'Week') return Date.UTC(y, d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY;
    if (type === 'Month') return Date.UTC(y, d.getUTCMonth(), 1);
    if (type === 'Half-year') return Date.UTC(y, d.getUTCMonth() < 6 ? 0 : 6, 1);
    return Date.UTC(y, 0, 1);
  }
  if (days[type]) {
    const length = days[type]! * DAY;
    return anchorMs + Math.floor(Math.max(0, nowMs - anchorMs) / length) * length;
  }
  let start = anchorMs;
  while (addMonths(start, months[type] ?? 1) <= nowMs) start = addMonths(start, months[type] ?? 1);
  return start;
}

/** Refuses a payment the consent's control parameters do not allow (unless a fault lets it through). */
function checkAgainstControls(k: ResourceContext, c: PisConsent, minor: number, currency: string): void {
  const cp = c.vrp!.ControlParameters;
  const now = k.store.now();
  const from = parseDateTime(cp.ValidFromDateTime);
  const to = parseDateTime(cp.ValidToDateTime);
  if (from !== undefined && now < from && !k.faults.has('vrp-validity-ignored')) throw new ApiError(400, FAILS, 'the consent is not valid yet (ValidFromDateTime)', 'Data.Instruction.InstructedAmount');
  if (to !== undefined && now > to && !k.faults.has('vrp-validity-end-ignored')) throw new ApiError(400, FAILS, 'the consent is no longer valid (ValidToDateTime)', 'Data.Instruction.InstructedAmount');
  const max = cp.MaximumIndividualAmount;
  if (currency !== max.Currency) throw new ApiError(400, FAILS, `the payment's currency ${currency} is not the consent's ${max.Currency}`, 'Data.Instruction.InstructedAmount.Currency');
  if (!k.faults.has('vrp-individual-limit-ignored') && minor > (parseMoney(max.Amount) ?? 0)) {
    throw new ApiError(400, FAILS, `the amount is above the consent's MaximumIndividualAmount of ${max.Amount} ${max.Currency}`, 'Data.Instruction.InstructedAmount.Amount');
  }
  if (k.faults.has('vrp-periodic-limit-ignored')) return;
  const anchor = parseDateTime(cp.ValidFromDateTime) ?? c.CreationDateTime.getTime();
  const paid = [...k.store.vrps.values()].filter((p) => p.ConsentId === c.ConsentId);
  for (const limit of cp.PeriodicLimits as Array<Record<string, string>>) {
    if (limit.Currency !== currency) continue;
    const start = periodStart(limit.PeriodType!, limit.PeriodAlignment!, anchor, now);
    const spent = paid.filter((p) => p.CreationDateTime.getTime() >= start).reduce((sum, p) => sum + p.minor, 0);
    if (spent + minor > (parseMoney(limit.Amount) ?? 0)) {
      throw new ApiError(400, FAILS, `the payment would pass the consent's ${limit.PeriodType} limit of ${limit.Amount} ${limit.Currency} (${(spent / 100).toFixed(2)} paid in this period)`, 'Data.Instruction.InstructedAmount.Amount');
    }
  }
}

// ---- the consent ---------------------------------------------------------------------------

async function createVrpConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const auth = await clientCredentials(k, r, 'payments');
  const data = r.body?.Data;
  if (!isObject(data)) throw missing('Data');
  const controls = checkControlParameters(k, data.ControlParameters);
  const initiation = data.Initiation;
  if (!isObject(initiation)) throw missing('Data.Initiation');
  if (data.ReadRefundAccount !== undefined && data.ReadRefundAccount !== 'Yes' && data.ReadRefundAccount !== 'No') throw invalid('Data.ReadRefundAccount', 'must be Yes or No');
  if (!isObject(r.body.Risk)) throw missing('Risk');
  const consent = idempotent(k, r, auth.clientId, 'domestic-vrp-consents', true, () => k.store.add<PisConsent>({
    kind: 'pis', clientId: auth.clientId, Status: 'AwaitingAuthorisation',
    // The maximum individual amount is what the PSU's pages show as the payment's amount.
    Initiation: { ...initiation, InstructedAmount: controls.MaximumIndividualAmount } as PisConsent['Initiation'],
    Risk: r.body.Risk,
    vrp: { ControlParameters: controls, ...(data.ReadRefundAccount ? { ReadRefundAccount: data.ReadRefundAccount } : {}) },
  }));
  return { status: status(k, r, true), body: consentBody(shown(consent), `${r.self}/${consent.ConsentId}`) };
}

/** The consent as the TPP sent it: the amount the pages show is the sandbox's own. */
export function shown(c: PisConsent): PisConsent {
  const { InstructedAmount: _amount, ...initiation } = c.Initiation;
  return { ...c, Initiation: initiation as PisConsent['Initiation'] };
}

/** A VRP consent of this client, read with its client-credentials token or the consent's own PSU token. */
async function ownVrpConsent(k: ResourceContext, r: Req, id: string): Promise<PisConsent> {
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (!auth.scopes.includes('payments')) throw forbidden('the access token lacks the scope payments');
  const c = k.store.consents.get(id);
  if (!c || c.kind !== 'pis' || !c.vrp || c.clientId !== auth.clientId || c.vrp.deleted) throw notFound('VRP consent', 'ConsentId');
  if (auth.kind === 'code' && auth.consent?.ConsentId !== c.ConsentId) throw forbidden('the access token was authorised for another consent');
  return c;
}

/** Under the fault, a deleted consent's refusal comes as a bare 400: no OBErrorResponse1. */
function bareWhenDeleted(k: ResourceContext, r: Req): Reply | undefined {
  const c = k.store.consents.get(r.params.consentId!);
  return c?.kind === 'pis' && c.vrp?.deleted && k.faults.has('vrp-deleted-consent-bare-400') ? { status: 400 } : undefined;
}

async function getVrpConsent(k: ResourceContext, r: Req): Promise<Reply> {
  return bareWhenDeleted(k, r) ?? { status: 200, body: consentBody(shown(await ownVrpConsent(k, r, r.params.consentId!)), r.self) };
}

async function deleteVrpConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const auth = await clientCredentials(k, r, 'payments');
  const bare = bareWhenDeleted(k, r);
  if (bare) return bare;
  const c = k.store.consents.get(r.params.consentId!);
  if (!c || c.kind !== 'pis' || !c.vrp || c.clientId !== auth.clientId || c.vrp.deleted) throw notFound('VRP consent', 'ConsentId');
  c.vrp.deleted = true;
  return { status: 204 };
}

/** The PSU's token for an authorised, live VRP consent: what a payment and a funds check need. */
async function payingConsent(k: ResourceContext, r: Req, consentId: string | undefined): Promise<PisConsent> {
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (auth.kind !== 'code') throw forbidden('a VRP payment and its funds check need the PSU\'s authorization-code token, not a client-credentials token');
  const c = auth.consent;
  if (!auth.scopes.includes('payments') || !c || c.kind !== 'pis' || !c.vrp) throw forbidden('the access token was not issued for a VRP consent');
  if (consentId !== undefined && consentId !== c.ConsentId) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId is not the consent this token was authorised for', 'Data.ConsentId');
  if (c.vrp.deleted && !k.faults.has('vrp-revoked-pays')) throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', 'the consent has been revoked', 'Data.ConsentId');
  if (c.Status !== 'Authorised') throw new ApiError(400, 'UK.OBIE.Resource.InvalidConsentStatus', `the consent is ${c.Status}`, 'Data.ConsentId');
  return c;
}

async function confirmVrpFunds(k: ResourceContext, r: Req): Promise<Reply> {
  const data = r.body?.Data;
  if (!isObject(data)) throw missing('Data');
  const id = requireText(data, 'ConsentId', 'Data.ConsentId', 128);
  if (id !== r.params.consentId) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.ConsentId is not the consent of the path', 'Data.ConsentId');
  const c = await payingConsent(k, r, id);
  const asked = requireAmount(data.InstructedAmount, 'Data.InstructedAmount');
  if (data.Reference !== undefined) requireText(data, 'Reference', 'Data.Reference', 35);
  const account = k.store.accountByRef(c.Debtor ?? c.Initiation.DebtorAccount);
  const enough = account ? (parseMoney(asked.Amount) ?? Infinity) <= availableBalance(account) : false;
  const now = new Date(k.store.now());
  const fundsConfirmationId = `vrpf-${randomUUID()}`.slice(0, 40);
  return {
    status: status(k, r, true),
    body: {
      Data: {
        FundsConfirmationId: fundsConfirmationId, ConsentId: c.ConsentId, CreationDateTime: iso(now),
        ...(data.Reference !== undefined ? { Reference: data.Reference } : {}),
        FundsAvailableResult: {
          FundsAvailableDateTime: iso(now), FundsAvailable: k.faults.has('vrp-funds-boolean') ? enough : enough ? 'Available' : 'NotAvailable',
          // The fault tells the TPP what the PSU has, where the answer is only whether the amount is covered.
          ...(k.faults.has('vrp-funds-balance-disclosed') && account ? { AvailableBalance: { Amount: money(availableBalance(account)), Currency: account.Currency } } : {}),
        },
        InstructedAmount: asked,
      },
      Links: links(r),
      Meta: {},
    },
  };
}

// ---- the payments --------------------------------------------------------------------------

/** The TPP's x-jws-signature on a VRP payment, checked like every payment's (unless VRP-08's fault skips it). */
async function verifyVrp(k: ResourceContext, raw: IncomingMessage, bodyText: string): Promise<void> {
  if (k.faults.has('vrp-unsigned-payment-accepted')) return;
  if (k.faults.has('vrp-signature-presence-only') && typeof raw.headers['x-jws-signature'] === 'string') return;
  await verify(k, raw, bodyText);
}

async function createVrp(k: ResourceContext, r: Req): Promise<Reply> {
  const data = r.body?.Data;
  if (!isObject(data)) throw missing('Data');
  const consentId = requireText(data, 'ConsentId', 'Data.ConsentId', 128);
  const c = await payingConsent(k, r, consentId);
  const cp = c.vrp!.ControlParameters;
  const method = requireText(data, 'PSUAuthenticationMethod', 'Data.PSUAuthenticationMethod', 40);
  if (!cp.PSUAuthenticationMethods.includes(method)) throw new ApiError(400, FAILS, `PSUAuthenticationMethod ${method} is not one the consent allows`, 'Data.PSUAuthenticationMethod');
  const type = requireText(data, 'VRPType', 'Data.VRPType', 40);
  if (!cp.VRPType.includes(type)) throw new ApiError(400, FAILS, `VRPType ${type} is not one the consent allows`, 'Data.VRPType');
  if (data.PSUInteractionType !== undefined && cp.PSUInteractionTypes && !cp.PSUInteractionTypes.includes(data.PSUInteractionType)) {
    throw new ApiError(400, FAILS, `PSUInteractionType ${String(data.PSUInteractionType)} is not one the consent allows`, 'Data.PSUInteractionType');
  }
  if (!isObject(data.Initiation)) throw missing('Data.Initiation');
  // vrp-initiation-unchecked: the payment's Initiation and creditor are taken as sent.
  const checksInitiation = !k.faults.has('vrp-initiation-unchecked');
  if (checksInitiation && !sameJson(data.Initiation, shown(c).Initiation)) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Data.Initiation differs from the consent\'s', 'Data.Initiation');
  if (!isObject(r.body.Risk)) throw missing('Risk');
  if (!sameJson(r.body.Risk, c.Risk)) throw new ApiError(400, 'UK.OBIE.Resource.ConsentMismatch', 'Risk differs from the consent\'s', 'Risk');
  const instruction = data.Instruction;
  if (!isObject(instruction)) throw missing('Data.Instruction');
  requireText(instruction, 'InstructionIdentification', 'Data.Instruction.InstructionIdentification', 35);
  requireText(instruction, 'EndToEndIdentification', 'Data.Instruction.EndToEndIdentification', 35);
  const amount = requireAmount(instruction.InstructedAmount, 'Data.Instruction.InstructedAmount');
  if (!isObject(instruction.CreditorAccount)) throw missing('Data.Instruction.CreditorAccount');
  const creditor = (c.Initiation as Record<string, any>).CreditorAccount;
  if (checksInitiation && creditor && !sameJson(instruction.CreditorAccount, creditor)) throw new ApiError(400, FAILS, 'the creditor is not the consent\'s', 'Data.Instruction.CreditorAccount');
  const reference = (c.Initiation as Record<string, any>).RemittanceInformation?.Reference;
  if (reference !== undefined && instruction.RemittanceInformation?.Reference !== reference) {
    throw new ApiError(400, FAILS, 'Instruction.RemittanceInformation.Reference must be the consent\'s', 'Data.Instruction.RemittanceInformation.Reference');
  }
  const key = r.headers['x-idempotency-key'];
  if (typeof key !== 'string' || key === '' || key.length > 40) throw new ApiError(400, 'UK.OBIE.Header.Missing', 'x-idempotency-key is required (1 to 40 characters)', 'x-idempotency-key');
  const slot = `${c.clientId} domestic-vrps ${key}`;
  // vrp-idempotency-ignored: the key is not looked up, so a repeated request pays again.
  const seen = k.faults.has('vrp-idempotency-ignored') ? undefined : k.store.idempotency.get(slot);
  if (seen) {
    if (seen.body !== JSON.stringify(r.body)) throw new ApiError(400, 'UK.OBIE.Header.Invalid', 'x-idempotency-key was already used with a different body', 'x-idempotency-key');
    const earlier = k.store.vrps.get(seen.id);
    if (earlier) return { status: status(k, r, true), body: vrpBody(earlier, `${r.self}/${earlier.DomesticVRPId}`) };
  }
  const minor = parseMoney(amount.Amount)!;
  checkAgainstControls(k, c, minor, amount.Currency);
  const now = new Date(k.store.now());
  const payment: VrpPayment = {
    DomesticVRPId: `vrp-${randomUUID()}`.slice(0, 40), ConsentId: c.ConsentId, clientId: c.clientId, Status: 'AcceptedSettlementInProcess',
    CreationDateTime: now, StatusUpdateDateTime: now, minor, Initiation: data.Initiation, Instruction: instruction, Risk: r.body.Risk,
    ...(c.Debtor ?? c.Initiation.DebtorAccount ? { DebtorAccount: c.Debtor ?? c.Initiation.DebtorAccount } : {}),
  };
  k.store.vrps.set(payment.DomesticVRPId, payment);
  k.store.idempotency.set(slot, { body: JSON.stringify(r.body), id: payment.DomesticVRPId });
  // One consent, many payments: the consent stays Authorised (a fault consumes it like a single payment's).
  if (k.faults.has('vrp-consent-consumed')) k.store.setStatus(c, 'Consumed');
  return { status: status(k, r, true), body: vrpBody(payment, `${r.self}/${payment.DomesticVRPId}`) };
}

async function ownVrp(k: ResourceContext, r: Req): Promise<VrpPayment> {
  const auth = await authenticate(k, r);
  if (!auth) throw unauthorised('an access token is required');
  if (!auth.scopes.includes('payments')) throw forbidden('the access token lacks the scope payments');
  const p = k.store.vrps.get(r.params.vrpId!);
  if (!p || p.clientId !== auth.clientId) throw notFound('VRP payment', 'DomesticVRPId');
  if (auth.kind === 'code' && auth.consent?.ConsentId !== p.ConsentId) throw forbidden('the access token was authorised for another consent');
  return p;
}

async function getVrp(k: ResourceContext, r: Req): Promise<Reply> {
  return { status: 200, body: vrpBody(await ownVrp(k, r), r.self) };
}

async function getVrpDetails(k: ResourceContext, r: Req): Promise<Reply> {
  const p = await ownVrp(k, r);
  return {
    status: 200,
    body: { Data: { PaymentStatus: [{ PaymentTransactionId: `${p.DomesticVRPId}-1`, Status: p.Status, StatusUpdateDateTime: iso(p.StatusUpdateDateTime) }] }, Links: links(r), Meta: {} },
  };
}

/** A read's answer signed, unless the fault leaves the reads unsigned. */
async function signRead(k: ResourceContext, reply: Reply): Promise<void> {
  if (k.faults.has('vrp-reads-unsigned')) return;
  if (!Buffer.isBuffer(reply.body)) return sign(k, reply);
  // The JSON labelled as Latin-1 (the other fault) is signed as the JSON it is.
  const signed: Reply = { status: reply.status, body: JSON.parse(reply.body.toString('utf8')) };
  await sign(k, signed);
  reply.headers = { ...reply.headers, ...signed.headers };
}

/** A read whose JSON, under the fault, is labelled with a charset JSON never has. */
function read(handler: (k: ResourceContext, r: Req) => Promise<Reply>) {
  return async (k: ResourceContext, r: Req): Promise<Reply> => {
    const reply = await handler(k, r);
    if (!k.faults.has('vrp-reads-latin1') || reply.body === undefined || Buffer.isBuffer(reply.body)) return reply;
    return { ...reply, body: Buffer.from(JSON.stringify(reply.body)), headers: { ...reply.headers, 'content-type': 'application/json; charset=iso-8859-1' } };
  };
}

/** The VRP routes, in the UK layout only (below /pisp): the spec's tables have no VRP. */
export const VRP_UK_ROUTES: UkRoute[] = [
  route(A, 'POST', '/pisp/domestic-vrp-consents', createVrpConsent, { sign, verify }),
  route(A, 'GET', '/pisp/domestic-vrp-consents/:consentId', read(getVrpConsent), { sign: signRead }),
  route(A, 'DELETE', '/pisp/domestic-vrp-consents/:consentId', deleteVrpConsent),
  route(A, 'POST', '/pisp/domestic-vrp-consents/:consentId/funds-confirmation', confirmVrpFunds, { sign, verify }),
  route(A, 'POST', '/pisp/domestic-vrps', createVrp, { sign, verify: verifyVrp }),
  route(A, 'GET', '/pisp/domestic-vrps/:vrpId', read(getVrp), { sign: signRead }),
  route(A, 'GET', '/pisp/domestic-vrps/:vrpId/payment-details', read(getVrpDetails), { sign: signRead }),
];
