import { randomUUID } from 'node:crypto';
import { ObtppError, ExitCode } from '../errors.ts';
import type { Profile, Variant } from '../profile/types.ts';
import { baseUrlFor } from '../profile/load.ts';
import type { HttpClient, HttpResult } from './http.ts';

/** Every logical operation of the tpp client. */
export type Operation =
  | 'createAccountAccessConsent' | 'listAccounts' | 'getAccount' | 'getBalances' | 'getTransactions' | 'getTransaction'
  | 'createFundsConsent' | 'getFundsConsent' | 'deleteFundsConsent' | 'confirmFunds'
  | 'createPaymentConsent' | 'getPayment' | 'getPaymentStatus';

/** The endpoint set of each variant, as the spec's tables list them. */
export const VARIANT_OPERATIONS: Record<Variant, ReadonlySet<Operation>> = {
  A: new Set<Operation>([
    'createAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions', 'getTransaction',
    'createFundsConsent', 'getFundsConsent', 'deleteFundsConsent', 'confirmFunds',
    'createPaymentConsent', 'getPayment', 'getPaymentStatus',
  ]),
  B: new Set<Operation>([
    'createAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions',
    'createFundsConsent', 'confirmFunds',
  ]),
};

/** An operation the variant does not list. Conformance reports it as not-applicable. */
export class NotApplicableError extends ObtppError {
  readonly operation: Operation;
  readonly variant: Variant;
  constructor(operation: Operation, variant: Variant) {
    super('not_applicable', `${operation} is not part of variant ${variant}`, {
      hint: variant === 'B' ? 'variant B has no transaction detail, funds-consent read/delete or payment initiation' : undefined,
      exitCode: ExitCode.usage,
    });
    this.operation = operation;
    this.variant = variant;
  }
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header at all. */
  token?: string | null;
  /** Extra or overriding headers for this call. */
  headers?: Record<string, string>;
  /** x-fapi-interaction-id to send; default a fresh UUID; `false` sends none. */
  interactionId?: string | false;
  /** x-idempotency-key on creates; default a fresh UUID; `false` sends none. */
  idempotencyKey?: string | false;
  query?: Record<string, string | undefined>;
}

export interface ApiResult<T = any> extends HttpResult<T> {
  operation: Operation;
  /** The x-fapi-interaction-id this call sent, if any. */
  sentInteractionId?: string;
}

/**
 * The tpp client: one method per logical operation, mapped to method and path by the variant and
 * the profile. Callers pass bodies built by the dialect (or deliberately broken ones); nobody
 * else builds an HTTP request.
 */
export class TppClient {
  readonly profile: Profile;
  readonly variant: Variant;
  readonly http: HttpClient;
  readonly baseUrl: string;

  constructor(profile: Profile, variant: Variant, http: HttpClient) {
    this.profile = profile;
    this.variant = variant;
    this.http = http;
    this.baseUrl = baseUrlFor(profile, variant);
  }

  supports(operation: Operation): boolean {
    return VARIANT_OPERATIONS[this.variant].has(operation);
  }

  /** The path an operation would use (for messages and reports). */
  pathOf(operation: Operation, ids: Record<string, string> = {}): string {
    const p = this.profile.paths;
    const product = `${p.paymentsPrefix.replace(/\/+$/, '')}/${encodeURIComponent(p.paymentProduct)}`;
    const id = (k: string) => encodeURIComponent(ids[k] ?? `{${k}}`);
    switch (operation) {
      case 'createAccountAccessConsent': return p.accountAccessConsents;
      case 'listAccounts': return p.accounts;
      case 'getAccount': return `${p.accounts}/${id('accountId')}`;
      case 'getBalances': return `${p.accounts}/${id('accountId')}/balances`;
      case 'getTransactions': return `${p.accounts}/${id('accountId')}/transactions`;
      case 'getTransaction':
        return p.transactionDetail
          .replace(/\{(AccountId|account-id|accountId)\}/, id('accountId'))
          .replace(/\{(resourceId|TransactionId|transactionId)\}/, id('resourceId'));
      case 'createFundsConsent': return p.fundsConfirmationConsents;
      case 'getFundsConsent':
      case 'deleteFundsConsent': return `${p.fundsConfirmationConsents}/${id('consentId')}`;
      case 'confirmFunds': return p.fundsConfirmations;
      case 'createPaymentConsent': return product;
      case 'getPayment': return `${product}/${id('paymentId')}`;
      case 'getPaymentStatus': return `${product}/${id('paymentId')}/status`;
    }
  }

  createAccountAccessConsent(body: unknown, o?: CallOptions) { return this.call('createAccountAccessConsent', 'POST', {}, body, o); }
  listAccounts(o?: CallOptions) { return this.call('listAccounts', 'GET', {}, undefined, o); }
  getAccount(accountId: string, o?: CallOptions) { return this.call('getAccount', 'GET', { accountId }, undefined, o); }
  getBalances(accountId: string, o?: CallOptions) { return this.call('getBalances', 'GET', { accountId }, undefined, o); }
  getTransactions(accountId: string, o?: CallOptions) { return this.call('getTransactions', 'GET', { accountId }, undefined, o); }
  getTransaction(accountId: string, resourceId: string, o?: CallOptions) { return this.call('getTransaction', 'GET', { accountId, resourceId }, undefined, o); }
  createFundsConsent(body: unknown, o?: CallOptions) { return this.call('createFundsConsent', 'POST', {}, body, o); }
  getFundsConsent(consentId: string, o?: CallOptions) { return this.call('getFundsConsent', 'GET', { consentId }, undefined, o); }
  deleteFundsConsent(consentId: string, o?: CallOptions) { return this.call('deleteFundsConsent', 'DELETE', { consentId }, undefined, o); }
  confirmFunds(body: unknown, o?: CallOptions) { return this.call('confirmFunds', 'POST', {}, body, o); }
  createPaymentConsent(body: unknown, o?: CallOptions) { return this.call('createPaymentConsent', 'POST', {}, body, o); }
  getPayment(paymentId: string, o?: CallOptions) { return this.call('getPayment', 'GET', { paymentId }, undefined, o); }
  getPaymentStatus(paymentId: string, o?: CallOptions) { return this.call('getPaymentStatus', 'GET', { paymentId }, undefined, o); }

  private async call(operation: Operation, method: string, ids: Record<string, string>, body: unknown, o: CallOptions = {}): Promise<ApiResult> {
    if (!this.supports(operation)) throw new NotApplicableError(operation, this.variant);
    let url = this.baseUrl + this.pathOf(operation, ids);
    const query = Object.entries(o.query ?? {}).filter(([, v]) => v !== undefined) as [string, string][];
    if (query.length) url += '?' + new URLSearchParams(query).toString();
    const headers: Record<string, string> = { ...lowerKeys(this.profile.headers) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const interactionId = o.interactionId === false ? undefined : (o.interactionId ?? randomUUID());
    if (interactionId) headers['x-fapi-interaction-id'] = interactionId;
    if (method === 'POST' && o.idempotencyKey !== false) headers['x-idempotency-key'] = o.idempotencyKey ?? randomUUID();
    Object.assign(headers, lowerKeys(o.headers ?? {}));
    const result = await this.http.request(method, url, body === undefined ? { headers } : { headers, json: body });
    return { ...result, operation, sentInteractionId: interactionId };
  }
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
