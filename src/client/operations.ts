import { randomUUID } from 'node:crypto';
import { ObtppError, ExitCode } from '../errors.ts';
import type { Fn, Profile, Variant } from '../profile/types.ts';
import { baseUrlFor } from '../profile/load.ts';
import type { HttpClient, HttpResult } from './http.ts';

/** Every logical operation of the tpp client. */
export type Operation =
  | 'createAccountAccessConsent' | 'getAccountAccessConsent' | 'deleteAccountAccessConsent'
  | 'listAccounts' | 'getAccount' | 'getBalances' | 'getTransactions' | 'getTransaction'
  | 'createFundsConsent' | 'getFundsConsent' | 'deleteFundsConsent' | 'confirmFunds'
  | 'createPaymentConsent' | 'getPayment' | 'getPaymentStatus';

/**
 * The endpoint set of each variant, as the spec's tables list them. The read and delete of the
 * account-access consent are in neither table, but the spec leaves revocation "not shown", so
 * the UK standard decides: both variants have them (a bank that lacks them says so in `implements`).
 */
export const VARIANT_OPERATIONS: Record<Variant, ReadonlySet<Operation>> = {
  A: new Set<Operation>([
    'createAccountAccessConsent', 'getAccountAccessConsent', 'deleteAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions', 'getTransaction',
    'createFundsConsent', 'getFundsConsent', 'deleteFundsConsent', 'confirmFunds',
    'createPaymentConsent', 'getPayment', 'getPaymentStatus',
  ]),
  B: new Set<Operation>([
    'createAccountAccessConsent', 'getAccountAccessConsent', 'deleteAccountAccessConsent', 'listAccounts', 'getAccount', 'getBalances', 'getTransactions',
    'createFundsConsent', 'confirmFunds',
  ]),
};

/** An operation the variant does not list. Conformance reports it as not-applicable. */
export class NotApplicableError extends ObtppError {
  readonly operation: Operation;
  readonly variant: Variant;
  constructor(operation: Operation, variant: Variant) {
    super('not_applicable', `${NotApplicableError.words[operation]} is not part of variant ${variant}`, {
      hint: variant === 'B' ? 'variant B has no transaction detail, funds-consent read/delete or payment initiation (pass --variant A with a profile that has it)' : undefined,
      exitCode: ExitCode.usage,
    });
    this.operation = operation;
    this.variant = variant;
  }

  /** Each operation in the words of the CLI (messages name what the user typed, not a function). */
  static readonly words: Record<Operation, string> = {
    createAccountAccessConsent: 'creating an account-access consent (obtpp consent create ais)',
    getAccountAccessConsent: 'reading an account-access consent (obtpp consent get)',
    deleteAccountAccessConsent: 'deleting an account-access consent (obtpp consent delete)',
    listAccounts: 'listing accounts (obtpp accounts)',
    getAccount: 'reading one account (obtpp accounts ID)',
    getBalances: 'reading balances (obtpp balances)',
    getTransactions: 'reading transactions (obtpp transactions)',
    getTransaction: 'reading one transaction (obtpp transaction)',
    createFundsConsent: 'creating a funds-confirmation consent (obtpp consent create cof)',
    getFundsConsent: 'reading a funds-confirmation consent (obtpp consent get)',
    deleteFundsConsent: 'deleting a funds-confirmation consent (obtpp consent delete)',
    confirmFunds: 'confirming funds (obtpp funds confirm)',
    createPaymentConsent: 'payment initiation (obtpp consent create pis)',
    getPayment: 'reading a payment (obtpp payment get)',
    getPaymentStatus: 'reading a payment\'s status (obtpp payment status)',
  };
}

/** A path that would keep a placeholder (`{accountId}`) because its id is missing: never sent. */
export class UnfilledPathError extends ObtppError {
  readonly operation: Operation;
  readonly placeholder: string;
  readonly path: string;
  constructor(operation: Operation, placeholder: string) {
    super('unfilled_path', `${operation} needs ${placeholder}, and none was given: the request is not sent`, { exitCode: ExitCode.usage });
    this.operation = operation;
    this.placeholder = placeholder;
    this.path = operation;
  }
}

/** The API each operation belongs to (and so which base URL it uses). */
export const OPERATION_API: Record<Operation, Fn> = {
  createAccountAccessConsent: 'ais', getAccountAccessConsent: 'ais', deleteAccountAccessConsent: 'ais', listAccounts: 'ais', getAccount: 'ais', getBalances: 'ais', getTransactions: 'ais', getTransaction: 'ais',
  createFundsConsent: 'cof', getFundsConsent: 'cof', deleteFundsConsent: 'cof', confirmFunds: 'cof',
  createPaymentConsent: 'pis', getPayment: 'pis', getPaymentStatus: 'pis',
};

/** An operation of the variant that the profile's `implements` leaves out. Conformance reports it as not-applicable. */
export class NotOfferedError extends NotApplicableError {
  constructor(operation: Operation, variant: Variant) {
    super(operation, variant);
    this.message = `the profile says the bank does not offer ${operation} (variant ${variant})`;
    (this as { hint?: string }).hint = 'the profile\'s implements lists the operations the bank offers; add it there if the bank does';
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
  /** The variant's base URL (the AIS one when the profile gives one per API). */
  readonly baseUrl: string;
  private readonly offered?: ReadonlySet<Operation>;

  constructor(profile: Profile, variant: Variant, http: HttpClient) {
    this.profile = profile;
    this.variant = variant;
    this.http = http;
    this.baseUrl = baseUrlFor(profile, variant, 'ais');
    const listed = profile.implements?.[variant];
    if (listed) this.offered = new Set(listed);
  }

  /** The base URL of one API in this variant. */
  baseUrlOf(fn: Fn): string {
    return baseUrlFor(this.profile, this.variant, fn);
  }

  /** Whether the variant has the operation and the bank offers it (the profile's implements; all when it has none). */
  supports(operation: Operation): boolean {
    return VARIANT_OPERATIONS[this.variant].has(operation) && (this.offered?.has(operation) ?? true);
  }

  /** Why an operation cannot be called: not in the variant, or not offered by the bank. */
  private unsupported(operation: Operation): NotApplicableError {
    return VARIANT_OPERATIONS[this.variant].has(operation) ? new NotOfferedError(operation, this.variant) : new NotApplicableError(operation, this.variant);
  }

  /**
   * The path an operation uses. An id it needs that is missing or empty is refused
   * (UnfilledPathError): a literal `{accountId}` never reaches the bank.
   */
  pathOf(operation: Operation, ids: Record<string, string> = {}): string {
    const p = this.profile.paths;
    const product = `${p.paymentsPrefix.replace(/\/+$/, '')}/${encodeURIComponent(p.paymentProduct)}`;
    const id = (k: string) => {
      const value = ids[k];
      if (typeof value !== 'string' || value === '') throw new UnfilledPathError(operation, `{${k}}`);
      return encodeURIComponent(value);
    };
    switch (operation) {
      case 'createAccountAccessConsent': return p.accountAccessConsents;
      case 'getAccountAccessConsent':
      case 'deleteAccountAccessConsent': return `${p.accountAccessConsents}/${id('consentId')}`;
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
  getAccountAccessConsent(consentId: string, o?: CallOptions) { return this.call('getAccountAccessConsent', 'GET', { consentId }, undefined, o); }
  deleteAccountAccessConsent(consentId: string, o?: CallOptions) { return this.call('deleteAccountAccessConsent', 'DELETE', { consentId }, undefined, o); }
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
    if (!this.supports(operation)) throw this.unsupported(operation);
    let url = this.baseUrlOf(OPERATION_API[operation]) + this.pathOf(operation, ids);
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
