/**
 * The faults of the v4.0 layout's payment families (domestic scheduled, standing orders,
 * international, file): each answers an order in one v3.1.11 shape where v4.0 changed it
 * (../../shared/reference/FACTS-v4.md §3.2, §4.1, §4.4). v4.ts's toV4 calls in here for every
 * answer it re-spells; the bank's own answers are v4.0's without a fault.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import type { ResourceContext } from './plumbing.ts';

export const V4_PIS_FAULTS = [
  { name: 'v4-order-status-v3-name', rule: 'UKPIS-01', description: 'UK v4.0: the orders of the payment families answer their v3.1.11 status names (InitiationPending, AcceptedSettlementInProcess…), not their v4.0 codes (PDNG, ACSP…)', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-order-remittance-v3', rule: 'UKPIS-01', description: 'UK v4.0: the orders of the payment families answer their structured remittance flattened to v3.1.11\'s RemittanceInformation.Reference', kind: 'rule', standard: 'uk-4.0' },
  { name: 'v4-standing-order-v3-schedule', rule: 'UKPIS-01', description: 'UK v4.0: standing orders answer their schedule in v3.1.11\'s place (Initiation.Frequency, FirstPaymentDateTime), not in MandateRelatedInformation', kind: 'rule', standard: 'uk-4.0' },
] as const satisfies readonly FaultDeclaration[];

/** Where an order of the families names itself: an answer with one of these is an order's. */
const ORDER_IDS = ['DomesticScheduledPaymentId', 'DomesticStandingOrderId', 'InternationalPaymentId', 'InternationalScheduledPaymentId', 'InternationalStandingOrderId', 'FilePaymentId'];

const isFamilyOrder = (data: Record<string, any>): boolean => ORDER_IDS.some((f) => typeof data[f] === 'string');

/** Whether the answer's Data.Status stays in v3.1.11's words (the fault v4-order-status-v3-name). */
export function keepsV3OrderStatus(k: ResourceContext, data: Record<string, any>): boolean {
  return k.faults.has('v4-order-status-v3-name') && isFamilyOrder(data);
}

/** Bends an order's answer of the families into v3.1.11's shapes, under the faults above (a copy: the store keeps the consent's Initiation). */
export function familyOrderFaultsV4(k: ResourceContext, data: Record<string, any>): void {
  if (!isFamilyOrder(data) || !data.Initiation || typeof data.Initiation !== 'object') return;
  const bendRemittance = k.faults.has('v4-order-remittance-v3') && data.Initiation.RemittanceInformation;
  const bendSchedule = k.faults.has('v4-standing-order-v3-schedule') && data.Initiation.MandateRelatedInformation;
  if (!bendRemittance && !bendSchedule) return;
  const init = structuredClone(data.Initiation);
  if (bendRemittance) {
    const reference = init.RemittanceInformation.Structured?.[0]?.CreditorReferenceInformation?.Reference;
    init.RemittanceInformation = reference === undefined ? {} : { Reference: reference };
  }
  if (bendSchedule) {
    const { MandateRelatedInformation: m, ...rest } = init;
    data.Initiation = { Frequency: m.Frequency?.Type, FirstPaymentDateTime: m.FirstPaymentDateTime, ...rest };
    return;
  }
  data.Initiation = init;
}
