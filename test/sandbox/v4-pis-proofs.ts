/**
 * What each fault of the v4.0 layout's payments (src/sandbox/obie/v4-pis.ts, and vrp-v4.ts's update of a VRP consent) must visibly
 * change, for test/sandbox/faults.test.ts: the sandbox under the fault, called at UK Read/Write
 * v4.0's paths (below {issuer}/open-banking/v4.0/pisp) with v4.0 bodies, as a TPP would.
 */
import assert from 'node:assert/strict';
import { fetch as undiciFetch } from 'undici';
import type { Browser } from 'puppeteer';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { tppSignature, type Tpp } from './tpp.ts';

interface ProofWorld { sb: Sandbox; tpp: Tpp; browser: Browser }

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 19) + '+00:00';
const creditor = { SchemeName: 'UK.OBIE.SortCodeAccountNumber', Identification: '08080021325698', Name: 'ACME Inc' };
const amount = { Amount: '1.00', Currency: 'GBP' };
const remittance = { Structured: [{ CreditorReferenceInformation: { Reference: 'INV-42' } }] };

/** v4.0 consents: a scheduled payment with structured remittance, a standing order with its schedule in MandateRelatedInformation. */
const BODIES = {
  scheduled: () => ({
    Data: { Permission: 'Create', Initiation: { InstructionIdentification: 'I-1', EndToEndIdentification: 'E-1', RequestedExecutionDateTime: tomorrow(), InstructedAmount: amount, CreditorAccount: creditor, RemittanceInformation: remittance } },
    Risk: {},
  }),
  standing: () => ({
    Data: { Permission: 'Create', Initiation: { MandateRelatedInformation: { FirstPaymentDateTime: tomorrow(), Frequency: { Type: 'EvryDay' } }, FirstPaymentAmount: amount, CreditorAccount: creditor } },
    Risk: {},
  }),
};
const PATHS = { scheduled: ['/domestic-scheduled-payment-consents', '/domestic-scheduled-payments'], standing: ['/domestic-standing-order-consents', '/domestic-standing-orders'] } as const;

async function pisp4(w: ProofWorld, method: string, path: string, o: { token: string; body?: unknown }) {
  const text = o.body === undefined ? undefined : JSON.stringify(o.body);
  const headers: Record<string, string> = { authorization: `Bearer ${o.token}`, accept: 'application/json' };
  if (text !== undefined) {
    headers['content-type'] = method === 'PATCH' ? 'application/json-patch+json' : 'application/json';
    headers['x-idempotency-key'] = `k-${Math.random().toString(36).slice(2)}`;
    headers['x-jws-signature'] = await tppSignature(w.sb, text);
  }
  const res = await undiciFetch(`${w.sb.issuer}/open-banking/v4.0/pisp${path}`, { method, headers, body: text, dispatcher: w.tpp.dispatcher });
  const raw = await res.text();
  return { status: res.status, body: raw ? JSON.parse(raw) : undefined };
}

/** A v4.0 consent of the family the PSU authorised, and the order it places (the answer). */
async function placedOrder(w: ProofWorld, family: keyof typeof BODIES) {
  const body = BODIES[family]();
  const [consents, orders] = PATHS[family];
  const created = await pisp4(w, 'POST', consents, { token: await w.tpp.cc('payments'), body });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.Data.ConsentId as string;
  const debtor = w.sb.psus.find((p) => p.username === 'alice')!.accounts[0]!.AccountId;
  const token = (await w.tpp.authorise(w.browser, id, 'payments', { debtor })).tokens!.access_token;
  const placed = await pisp4(w, 'POST', orders, { token, body: { Data: { ConsentId: id, Initiation: body.Data.Initiation }, Risk: body.Risk } });
  assert.equal(placed.status, 201, JSON.stringify(placed.body));
  return { consent: created.body, order: placed.body };
}

export const V4_PIS_PROOFS: Record<string, (w: ProofWorld) => Promise<void>> = {
  'v4-order-status-v3-name': async (w) => {
    const { consent, order } = await placedOrder(w, 'scheduled');
    assert.equal(consent.Data.Status, 'AWAU', 'the consent is still v4.0\'s');
    assert.equal(order.Data.Status, 'InitiationPending');
  },
  'v4-order-remittance-v3': async (w) => {
    const { consent, order } = await placedOrder(w, 'scheduled');
    assert.deepEqual(consent.Data.Initiation.RemittanceInformation, remittance, 'the consent keeps its structured remittance');
    assert.deepEqual(order.Data.Initiation.RemittanceInformation, { Reference: 'INV-42' });
  },
  'v4-standing-order-v3-schedule': async (w) => {
    const { consent, order } = await placedOrder(w, 'standing');
    assert.equal(consent.Data.Initiation.MandateRelatedInformation.Frequency.Type, 'EvryDay', 'the consent keeps v4.0\'s schedule');
    assert.equal(order.Data.Initiation.Frequency, 'EvryDay');
    assert.equal(order.Data.Initiation.MandateRelatedInformation, undefined);
  },
  'v4-frequency-code-rewritten': async (w) => {
    const body = BODIES.standing();
    body.Data.Initiation.MandateRelatedInformation.Frequency = { Type: 'MNTH', CountPerPeriod: 1, PointInTime: '15' } as never;
    const created = await pisp4(w, 'POST', PATHS.standing[0], { token: await w.tpp.cc('payments'), body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.Data.Initiation.MandateRelatedInformation.Frequency, { Type: 'EvryDay' }, 'the ISO code kept in the bank\'s own words');
  },
  'vrp-update-new-consent': async (w) => {
    const body = {
      Data: {
        ControlParameters: {
          VRPType: ['UK.OBIE.VRPType.Sweeping'], PSUAuthenticationMethods: ['UK.OBIE.SCA'], MaximumIndividualAmount: { Amount: '5.00', Currency: 'GBP' },
          PeriodicLimits: [{ PeriodType: 'Day', PeriodAlignment: 'Calendar', Amount: '20.00', Currency: 'GBP' }],
        },
        Initiation: { CreditorAccount: creditor, RemittanceInformation: remittance },
      },
      Risk: {},
    };
    const token = await w.tpp.cc('payments');
    const created = await pisp4(w, 'POST', '/domestic-vrp-consents', { token, body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.Data.ConsentId as string;
    const put = await pisp4(w, 'PUT', `/domestic-vrp-consents/${id}`, { token, body });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.notEqual(put.body.Data.ConsentId, id);
    const patched = await pisp4(w, 'PATCH', `/domestic-vrp-consents/${id}`, { token, body: [{ op: 'replace', path: '/Data/Initiation/RemittanceInformation', value: { Unstructured: ['x'] } }] });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.notEqual(patched.body.Data.ConsentId, id);
  },
};
