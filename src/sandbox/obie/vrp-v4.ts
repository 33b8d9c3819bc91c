/**
 * UK Read/Write v4.0's update of a domestic VRP consent (the v4.0 layout only): PUT with the whole
 * consent request, PATCH with a JSON Patch (RFC 6902), both reserved by the file for migrating a
 * consent between versions (../../shared/reference/FACTS-v4.md §6.4). The file says no more; this
 * bank's reading: the consent keeps its ConsentId, its status and what the PSU agreed (its
 * ControlParameters: a PUT or PATCH that changes them is refused), and takes the Initiation and
 * Risk as sent, in the version's shape. Both are signed and idempotent like a create; the answer
 * is the consent (200), with the payload-version it is now in.
 */
import type { FaultDeclaration } from '../fault-declaration.ts';
import type { PisConsent } from '../store.ts';
import {
  A, ApiError, clientCredentials, invalid, isObject, missing, notFound, route, sameJson,
  type Reply, type Req, type ResourceContext, type UkRoute,
} from './plumbing.ts';
import { sign, verify } from './pis.ts';
import { checkControlParameters, consentBody, shown } from './vrp.ts';

export const VRP_V4_FAULTS = [
  { name: 'vrp-update-new-consent', rule: 'VRP-11', description: 'UK v4.0: a PUT or PATCH of a VRP consent answers with another consent (a new ConsentId), not the consent it names', kind: 'rule', standard: 'uk-4.0' },
] as const satisfies readonly FaultDeclaration[];

/** The payload-version an updated consent is now in (a response header of the v4.0 consent answers). */
const PAYLOAD_VERSION = '4.0';

/** This client's live VRP consent at the path, under a client-credentials token; v3.1.11 has no such update. */
async function updatable(k: ResourceContext, r: Req): Promise<PisConsent> {
  if (r.layout !== 'uk-4.0') throw new ApiError(405, 'UK.OBIE.UnexpectedError', 'a VRP consent is updated only at v4.0');
  const auth = await clientCredentials(k, r, 'payments');
  const key = r.headers['x-idempotency-key'];
  if (typeof key !== 'string' || key.length === 0 || key.length > 40) throw new ApiError(400, 'UK.OBIE.Header.Missing', 'x-idempotency-key is required (1 to 40 characters)', 'x-idempotency-key');
  const c = k.store.consents.get(r.params.consentId!);
  if (!c || c.kind !== 'pis' || !c.vrp || c.clientId !== auth.clientId || c.vrp.deleted) throw notFound('VRP consent', 'ConsentId');
  return c;
}

/** Takes the consent request `body` (PUT's, or the PATCHed one) into consent `c`: same ControlParameters, new Initiation and Risk. */
function take(k: ResourceContext, r: Req, c: PisConsent, body: any): Reply {
  const data = body?.Data;
  if (!isObject(data)) throw missing('Data');
  const controls = checkControlParameters(k, data.ControlParameters);
  if (!sameJson(controls, c.vrp!.ControlParameters)) {
    throw new ApiError(400, 'UK.OBIE.Field.Invalid', 'the ControlParameters the PSU agreed cannot be changed by an update (it migrates a consent between versions)', 'Data.ControlParameters');
  }
  if (!isObject(data.Initiation)) throw missing('Data.Initiation');
  if (!isObject(body.Risk)) throw missing('Risk');
  const target = k.faults.has('vrp-update-new-consent')
    ? k.store.add<PisConsent>({ ...structuredClone({ kind: c.kind, clientId: c.clientId, Status: c.Status, Initiation: c.Initiation, Risk: c.Risk, vrp: c.vrp }) } as never)
    : c;
  // The amount the PSU's pages show stays the sandbox's own (see vrp.ts).
  target.Initiation = { ...data.Initiation, InstructedAmount: c.vrp!.ControlParameters.MaximumIndividualAmount } as PisConsent['Initiation'];
  target.Risk = body.Risk;
  const self = r.self.replace(/[^/]+$/, target.ConsentId);
  return { status: 200, body: consentBody(shown(target), self), headers: { 'payload-version': PAYLOAD_VERSION } };
}

async function updateVrpConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await updatable(k, r);
  return take(k, r, c, r.body);
}

/** Applies a JSON Patch (add, replace, remove, test; RFC 6902) to a copy of `doc`; a path into ControlParameters is refused by `take`. */
export function applyPatch(doc: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops) || ops.length === 0) throw invalid('(body)', 'must be a JSON Patch: a non-empty array of operations');
  const out = structuredClone(doc) as any;
  ops.forEach((op: any, i: number) => {
    const at = `[${i}]`;
    if (!isObject(op) || typeof op.path !== 'string' || !op.path.startsWith('/')) throw invalid(`${at}.path`, 'must be a JSON Pointer');
    const parts = op.path.slice(1).split('/').map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = parts.pop()!;
    let parent = out;
    for (const p of parts) {
      if (!parent || typeof parent !== 'object' || !(p in parent)) throw invalid(`${at}.path`, `${op.path} names no member`);
      parent = parent[p];
    }
    if (!parent || typeof parent !== 'object') throw invalid(`${at}.path`, `${op.path} names no member`);
    switch (op.op) {
      case 'add':
      case 'replace':
        if (!('value' in op)) throw missing(`${at}.value`);
        if (op.op === 'replace' && !(last in parent)) throw invalid(`${at}.path`, `${op.path} names no member to replace`);
        if (Array.isArray(parent) && last === '-') parent.push(op.value);
        else parent[last] = op.value;
        break;
      case 'remove':
        if (!(last in parent)) throw invalid(`${at}.path`, `${op.path} names no member to remove`);
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
        break;
      case 'test':
        if (!sameJson(parent[last], op.value)) throw new ApiError(400, 'UK.OBIE.Field.Invalid', `the test at ${op.path} failed`, `${at}.value`);
        break;
      default:
        throw invalid(`${at}.op`, 'must be add, replace, remove or test');
    }
  });
  return out;
}

async function patchVrpConsent(k: ResourceContext, r: Req): Promise<Reply> {
  const c = await updatable(k, r);
  // The patch applies to the consent request as the bank holds it: Data (ReadRefundAccount, ControlParameters, Initiation) and Risk.
  const held = shown(c);
  const request = { Data: { ...(c.vrp!.ReadRefundAccount ? { ReadRefundAccount: c.vrp!.ReadRefundAccount } : {}), ControlParameters: c.vrp!.ControlParameters, Initiation: held.Initiation }, Risk: c.Risk };
  return take(k, r, c, applyPatch(request, r.body));
}

export const VRP_V4_ROUTES: UkRoute[] = [
  route(A, 'PUT', '/pisp/domestic-vrp-consents/:consentId', updateVrpConsent, { sign, verify }),
  route(A, 'PATCH', '/pisp/domestic-vrp-consents/:consentId', patchVrpConsent, { sign, verify }),
];
