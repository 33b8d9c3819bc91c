/**
 * One client of NextGenPSD2's authorisation sub-resources, for the terminal client and the steps
 * alike: a consent's, a payment's, a payment cancellation's and a signing basket's
 * (`…/authorisations`, `…/cancellation-authorisations`), each the catalogue's authorisation group
 * (`group: { kind: 'authorisation', of: 'payment', as: 'start' }`) rather than a list of its own.
 */
import { catalogueOf, groupOf } from '../dialects/catalogue.ts';
import type { ApiResult, CallOptions, Operation, TppClient } from '../client/operations.ts';

/** What an authorisation authorises: the resource whose sub-resource it is. */
export type AuthorisedResource = 'consent' | 'payment' | 'cancellation' | 'basket';

/** An authorisation's sub-resource: start one, send the PSU's data to it, read its scaStatus, list them. */
export interface AuthorisationOps {
  start: (body: unknown, o: CallOptions) => Promise<ApiResult>;
  update: (id: string, body: unknown, o: CallOptions) => Promise<ApiResult>;
  read: (id: string, o: CallOptions) => Promise<ApiResult>;
  list: (o: CallOptions) => Promise<ApiResult>;
}

/** The operations of a resource's authorisation sub-resource in the client's catalogue, by their part. */
export function authorisationOperations(client: TppClient, of: AuthorisedResource): { start: Operation; update: Operation; status: Operation; list: Operation } {
  const ops = groupOf(catalogueOf(client.dialect), 'authorisation', of);
  for (const part of ['start', 'update', 'status', 'list']) {
    if (!ops[part]) throw new Error(`the ${client.dialect} catalogue has no ${part} operation of a ${of}'s authorisations`);
  }
  return ops as unknown as { start: Operation; update: Operation; status: Operation; list: Operation };
}

/** The authorisation sub-resource of the resource `id` (a consent's, payment's or basket's id), called through `client`. */
export function authorisationOps(client: TppClient, of: AuthorisedResource, id: string): AuthorisationOps {
  const ops = authorisationOperations(client, of);
  return {
    start: (body, o) => client.invoke(ops.start, [id, body, o]),
    update: (authorisationId, body, o) => client.invoke(ops.update, [id, authorisationId, body, o]),
    read: (authorisationId, o) => client.invoke(ops.status, [id, authorisationId, o]),
    list: (o) => client.invoke(ops.list, [id, o]),
  };
}
