import { randomUUID } from 'node:crypto';
import { ObtppError, ExitCode } from '../errors.ts';
import type { Fn, Profile, Variant } from '../profile/types.ts';
import { baseUrlFor } from '../profile/load.ts';
import type { HttpClient, HttpResult } from './http.ts';
import type { KeySource, MessageSigner, SignatureCheck } from './jws.ts';

/** Every logical operation of the tpp client. */
export type Operation =
  | 'createAccountAccessConsent' | 'getAccountAccessConsent' | 'deleteAccountAccessConsent'
  | 'listAccounts' | 'getAccount' | 'getBalances' | 'getTransactions' | 'getTransaction'
  | 'createFundsConsent' | 'getFundsConsent' | 'deleteFundsConsent' | 'confirmFunds'
  | 'createPaymentConsent' | 'getPayment' | 'getPaymentStatus'
  | 'submitPayment' | 'getPaymentOrder' | 'getPaymentDetails' | 'getPaymentFunds';

/** The operations whose requests carry x-jws-signature (FACTS §1.8): the payment POSTs. */
export const SIGNED_REQUESTS: ReadonlySet<Operation> = new Set<Operation>(['createPaymentConsent', 'submitPayment']);

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
    'submitPayment', 'getPaymentOrder', 'getPaymentDetails', 'getPaymentFunds',
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
    submitPayment: 'submitting a payment (obtpp payment submit)',
    getPaymentOrder: 'reading a payment order (obtpp payment get --order)',
    getPaymentDetails: 'reading a payment order\'s details',
    getPaymentFunds: 'the funds check of a payment consent (obtpp payment funds)',
  };
}

/** The profile signs no messages (signing.enabled: false, or no signing key): the signature rules are not applicable. */
export class SigningOffError extends NotApplicableError {
  constructor(variant: Variant, profile: Profile) {
    super('createPaymentConsent', variant);
    this.message = profile.signing
      ? 'the profile turns message signing off (signing.enabled: false): the bank\'s version of the standard has no x-jws-signature'
      : 'the profile has no signing key (signing.key): obtpp does not sign, so the x-jws-signature rules are not judged';
    (this as { hint?: string }).hint = 'give signing.key and signing.kid in the profile to judge message signing';
  }
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

/** The longest id (consent, account, payment, transaction…) obtpp puts into a path: the standards' ids are 1–128 characters; a bank's id 8 times that is refused. */
export const MAX_ID_LENGTH = 1024;

/**
 * An id the bank chose that cannot be one path segment: longer than MAX_ID_LENGTH, or a dot
 * segment (`.`, `..`), which every URL parser (WHATWG URL, undici) resolves away even when
 * percent-encoded (`%2E%2E`), so the request would reach another resource. Never sent; in a
 * conformance run it is a failed verdict of the rule (the bank's answer gave it).
 */
export class UnusableIdError extends ObtppError {
  readonly operation: Operation;
  constructor(operation: Operation, name: string, why: string) {
    super('unusable_id', `the bank's ${name} ${why}, so ${operation} cannot put it into a request path: the request is not sent`, { exitCode: ExitCode.nonConformant });
    this.operation = operation;
  }
}

/** One id as a path segment: percent-encoded (slashes, `?`, `#` included), or UnusableIdError (see there). */
export function pathSegment(operation: Operation, name: string, value: string): string {
  if (value.length > MAX_ID_LENGTH) throw new UnusableIdError(operation, name, `is ${value.length} characters long, more than the ${MAX_ID_LENGTH} obtpp accepts (${JSON.stringify(value.slice(0, 24))}…)`);
  const segment = encodeURIComponent(value);
  if (/^(\.|%2e){1,2}$/i.test(segment)) throw new UnusableIdError(operation, name, `is ${JSON.stringify(value)}, a dot segment that URLs resolve away`);
  return segment;
}

/** The API each operation belongs to (and so which base URL it uses). */
export const OPERATION_API: Record<Operation, Fn> = {
  createAccountAccessConsent: 'ais', getAccountAccessConsent: 'ais', deleteAccountAccessConsent: 'ais', listAccounts: 'ais', getAccount: 'ais', getBalances: 'ais', getTransactions: 'ais', getTransaction: 'ais',
  createFundsConsent: 'cof', getFundsConsent: 'cof', deleteFundsConsent: 'cof', confirmFunds: 'cof',
  createPaymentConsent: 'pis', getPayment: 'pis', getPaymentStatus: 'pis',
  submitPayment: 'pis', getPaymentOrder: 'pis', getPaymentDetails: 'pis', getPaymentFunds: 'pis',
};

/** An operation of the variant that the profile's `implements` leaves out. Conformance reports it as not-applicable. */
export class NotOfferedError extends NotApplicableError {
  constructor(operation: Operation, variant: Variant, message?: string) {
    super(operation, variant);
    this.message = message ?? `the profile says the bank does not offer ${operation} (variant ${variant})`;
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
  /** x-jws-signature on a signed request: default signed with the profile's key; `false` sends none; a string is sent as is. */
  signature?: string | false;
  /** The exact body text to send (a tampered body under another body's signature); default the JSON of `body`. */
  bodyText?: string;
}

export interface ApiResult<T = any> extends HttpResult<T> {
  operation: Operation;
  /** The x-fapi-interaction-id this call sent, if any. */
  sentInteractionId?: string;
  /** The x-jws-signature this call sent, if any. */
  sentSignature?: string;
  /**
   * The bank's x-jws-signature checked against its JWKS (payment-initiation answers with a body,
   * when the profile signs); absent when there was nothing to check.
   */
  signature?: SignatureCheck;
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
    return VARIANT_OPERATIONS[this.variant].has(operation) && (this.offered?.has(operation) ?? true) && !this.profile.absentApis?.includes(OPERATION_API[operation]);
  }

  /** Why an operation cannot be called: not in the variant, or not offered by the bank (the profile's implements or apis). */
  unsupported(operation: Operation): NotApplicableError {
    if (!VARIANT_OPERATIONS[this.variant].has(operation)) return new NotApplicableError(operation, this.variant);
    const api = OPERATION_API[operation];
    return this.profile.absentApis?.includes(api) ? new NotOfferedError(operation, this.variant, `the profile gives no base URL for ${api} (apis.${api}): the bank does not offer ${operation} (variant ${this.variant})`) : new NotOfferedError(operation, this.variant);
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
      return pathSegment(operation, k, value);
    };
    // Only the payment-order operations need it (a dialect without payment orders has no such path).
    const orders = () => `${p.paymentsPrefix.replace(/\/+$/, '')}${(p.paymentOrders ?? '/{payment-product}').replace('{payment-product}', encodeURIComponent(p.paymentProduct))}`;
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
      case 'getPaymentStatus':
        return p.paymentStatus
          ? `${p.paymentsPrefix.replace(/\/+$/, '')}${p.paymentStatus.replace('{payment-product}', encodeURIComponent(p.paymentProduct)).replace('{paymentId}', id('paymentId'))}`
          : `${product}/${id('paymentId')}/status`;
      case 'submitPayment': return orders();
      case 'getPaymentOrder': return `${orders()}/${id('paymentOrderId')}`;
      case 'getPaymentDetails': return `${orders()}/${id('paymentOrderId')}/payment-details`;
      case 'getPaymentFunds': return `${product}/${id('paymentId')}/funds-confirmation`;
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
  submitPayment(body: unknown, o?: CallOptions) { return this.call('submitPayment', 'POST', {}, body, o); }
  getPaymentOrder(paymentOrderId: string, o?: CallOptions) { return this.call('getPaymentOrder', 'GET', { paymentOrderId }, undefined, o); }
  getPaymentDetails(paymentOrderId: string, o?: CallOptions) { return this.call('getPaymentDetails', 'GET', { paymentOrderId }, undefined, o); }
  getPaymentFunds(paymentId: string, o?: CallOptions) { return this.call('getPaymentFunds', 'GET', { paymentId }, undefined, o); }

  /**
   * Whether this profile signs payment requests and checks the bank's payment signatures
   * (x-jws-signature, a UK Open Banking header: never for a berlin-group bank).
   */
  get signs(): boolean {
    return this.profile.signing?.enabled === true && this.profile.dialect !== 'berlin-group';
  }

  private signer?: Promise<MessageSigner>;
  private bankKeys?: Promise<KeySource | undefined>;

  /** The profile's message-signing key, imported once. */
  messageSigner(): Promise<MessageSigner> {
    const s = this.profile.signing!;
    this.signer ??= import('./jws.ts').then(async ({ importMessageKey }) => {
      try {
        return { key: await importMessageKey(s.key), kid: s.kid, issuer: s.issuer, trustAnchor: s.trustAnchor };
      } catch (error) {
        throw new ObtppError('profile_invalid', `$.signing.key: the signing key cannot be imported (${(error as Error).message.split('\n')[0]})`, {
          hint: 'give a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----") or a private RSA JWK for PS256', exitCode: ExitCode.usage,
        });
      }
    });
    return this.signer;
  }

  /**
   * The bank's signing keys (the profile's bank.jwks), or undefined when the profile names none. A
   * JWKS URL is fetched once through this client's HTTP core (the profile's CA, mTLS and time-out);
   * a fetch that fails is tried again on the next call.
   */
  bankKeySource(): Promise<KeySource | undefined> {
    const jwks = this.profile.bank?.jwks;
    if (!jwks) return Promise.resolve(undefined);
    this.bankKeys ??= import('./jws.ts').then(async ({ jwksSource }) => {
      if (typeof jwks !== 'string') return jwksSource(jwks as never);
      const r = await this.http.request('GET', jwks);
      const keys = (r.body as { keys?: unknown } | undefined)?.keys;
      if (r.status !== 200 || !Array.isArray(keys)) throw new Error(`GET ${jwks} answered ${r.status}${Array.isArray(keys) ? '' : ', not a JWKS ({"keys": [...]})'}`);
      return jwksSource(r.body as never);
    });
    this.bankKeys.catch(() => (this.bankKeys = undefined));
    return this.bankKeys;
  }

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
    const text = body === undefined ? undefined : (o.bodyText ?? JSON.stringify(body));
    if (text !== undefined) headers['content-type'] ??= 'application/json';
    const signed = SIGNED_REQUESTS.has(operation) && this.signs;
    if (signed && o.signature !== false && text !== undefined) {
      headers['x-jws-signature'] = typeof o.signature === 'string' ? o.signature : await (await import('./jws.ts')).signDetached(text, await this.messageSigner());
    }
    Object.assign(headers, lowerKeys(o.headers ?? {}));
    const result = await this.http.request(method, url, text === undefined ? { headers } : { headers, body: text });
    const out: ApiResult = { ...result, operation, sentInteractionId: interactionId, ...(headers['x-jws-signature'] ? { sentSignature: headers['x-jws-signature'] } : {}) };
    if (OPERATION_API[operation] === 'pis' && this.signs && result.text.length > 0) {
      try {
        const keys = await this.bankKeySource();
        if (keys) out.signature = await (await import('./jws.ts')).verifyDetached(result.headers['x-jws-signature'], result.text, keys);
      } catch (error) {
        out.signature = { valid: false, code: 'Invalid', problem: `the bank's JWKS (bank.jwks) could not be read: ${(error as Error).message.split('\n')[0]}` };
      }
    }
    return out;
  }
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
