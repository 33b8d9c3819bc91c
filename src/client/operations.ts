import { randomUUID } from 'node:crypto';
import { ObtppError, ExitCode } from '../errors.ts';
import type { Fn, Profile, Variant } from '../profile/types.ts';
import { baseUrlFor } from '../profile/load.ts';
import { anySpecOf, fillPath, layoutOf, MissingPathId, OPERATION_IDS, specOf, type Operation, type OperationSpec } from '../dialects/catalogue.ts';
import { layoutWords, standardOf, type BUILT_IN, type StandardModule } from '../standards/registry.ts';
import type { HttpClient, HttpResult } from './http.ts';
import type { KeySource, MessageSigner, SignatureCheck } from './jws.ts';

/** Every logical operation of the tpp client: the ids of the standards' catalogues (src/dialects/catalogue.ts). */
export type { Operation } from '../dialects/catalogue.ts';

/** An operation the variant (or the profile's standard) does not list. Conformance reports it as not-applicable. */
export class NotApplicableError extends ObtppError {
  readonly operation: Operation;
  readonly variant: Variant;
  constructor(operation: Operation, variant: Variant, message?: string) {
    super('not_applicable', message ?? `${NotApplicableError.wordsOf(operation)} is not part of variant ${variant}`, {
      hint: variant === 'B' ? 'variant B has no transaction detail, funds-consent read/delete or payment initiation (pass --variant A with a profile that has it)' : undefined,
      exitCode: ExitCode.usage,
    });
    this.operation = operation;
    this.variant = variant;
  }

  /** An operation in the words of the CLI (messages name what the user typed, not a function). */
  static wordsOf(operation: Operation): string {
    return anySpecOf(operation)?.words ?? operation;
  }
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
  /** Headers this call leaves out, whatever the profile's `headers` add (a header the standard no longer has: x-fapi-financial-id). */
  omitHeaders?: string[];
  /** x-fapi-interaction-id to send; default a fresh UUID; `false` sends none. */
  interactionId?: string | false;
  /** x-idempotency-key on creates; default a fresh UUID; `false` sends none. */
  idempotencyKey?: string | false;
  query?: Record<string, string | undefined>;
  /** x-jws-signature on a signed request: default signed with the profile's key; `false` sends none; a string is sent as is. */
  signature?: string | false;
  /** The exact body text to send (a tampered body under another body's signature); default the JSON of `body`. */
  bodyText?: string;
  /**
   * berlin-group, where the profile signs requests (signing.certificate): `false` sends no
   * Digest, Signature or TPP-Signature-Certificate; `{ digestOf }` computes the Digest over
   * that text instead of the body (a request whose Digest does not match its body).
   */
  httpSignature?: false | { digestOf: string };
  /**
   * `false`: a token the bank bound to the run's DPoP key is sent as given (a `Bearer` header,
   * without a proof), as the SEC-15 check sends it; default: with a fresh DPoP proof.
   */
  dpop?: false;
}

export interface ApiResult<T = any> extends HttpResult<T> {
  operation: Operation;
  /** The x-fapi-interaction-id this call sent, if any. */
  sentInteractionId?: string;
  /** The x-jws-signature this call sent, if any. */
  sentSignature?: string;
  /** berlin-group: the bank's signed answer (Digest, Signature) checked against bank.signingCertificate; absent where the profile names none. */
  httpSignature?: import('./http-signature.ts').HttpSignatureCheck;
  /**
   * The bank's x-jws-signature checked against its JWKS (payment-initiation answers with a body,
   * when the profile signs); absent when there was nothing to check.
   */
  signature?: SignatureCheck;
}

/** The spec of an operation as the first of the package's standards that has it declares it. */
type FirstSpec<K extends string, L extends readonly unknown[]> = L extends readonly [infer H extends { catalogue: object }, ...infer T]
  ? (K extends keyof H['catalogue'] ? H['catalogue'][K] : FirstSpec<K, T>) : never;
type SpecOf<K extends Operation> = FirstSpec<K, typeof BUILT_IN> & OperationSpec;
type IdArgs<T extends readonly string[]> = { [I in keyof T]: string };
/** A method's arguments, from its spec: the path's ids in order, the body where it sends one, the call's options. */
type ArgsOf<S extends OperationSpec> = S['body'] extends true ? [...IdArgs<S['ids']>, body: unknown, o?: CallOptions] : [...IdArgs<S['ids']>, o?: CallOptions];
/** One method per operation of the catalogues (`client.getBalances(accountId, options)`), made from the catalogue. */
export type OperationMethods = { [K in Operation]: (...args: ArgsOf<SpecOf<K>>) => Promise<ApiResult> };

/**
 * The tpp client: one method per operation of the profile's standard, each mapped to method, path,
 * base URL and signing by the standard's catalogue (src/dialects/catalogue.ts), the variant and
 * the profile. Callers pass bodies built by the dialect (or deliberately broken ones); nobody
 * else builds an HTTP request.
 */
export interface TppClient extends OperationMethods {}
export class TppClient {
  readonly profile: Profile;
  readonly variant: Variant;
  readonly http: HttpClient;
  /** The variant's base URL (the AIS one when the profile gives one per API). */
  readonly baseUrl: string;
  /** The standard whose catalogue maps the operations (the profile's dialect). */
  readonly dialect: string;
  /** That standard's module. */
  private readonly standard: StandardModule;
  private readonly offered?: ReadonlySet<string>;

  constructor(profile: Profile, variant: Variant, http: HttpClient) {
    this.profile = profile;
    this.variant = variant;
    this.http = http;
    this.standard = standardOf(profile.dialect);
    this.dialect = this.standard.name;
    this.baseUrl = baseUrlFor(profile, variant, 'ais');
    const listed = profile.implements?.[variant];
    if (listed) this.offered = new Set(listed);
  }

  /** The base URL of one API in this variant. */
  baseUrlOf(fn: Fn): string {
    return baseUrlFor(this.profile, this.variant, fn);
  }

  /** The operation as the profile's standard declares it, where the standard has it. */
  specOf(operation: Operation): OperationSpec | undefined {
    return specOf(this.dialect, operation);
  }

  /** Whether the profile's standard has the operation in this variant (whatever the bank offers). */
  inVariant(operation: Operation): boolean {
    const spec = this.specOf(operation);
    return spec !== undefined && spec.variants.includes(this.variant) && this.inLayout(spec);
  }

  /** Whether the profile's layout (the spec's, or the published standard it names) has the operation. */
  private inLayout(spec: OperationSpec): boolean {
    return spec.standards?.includes(layoutOf(this.profile)) ?? true;
  }

  /** Whether the variant has the operation and the bank offers it (the profile's implements and apis; all when it says nothing). */
  supports(operation: Operation): boolean {
    const spec = this.specOf(operation);
    return spec !== undefined && spec.variants.includes(this.variant) && this.inLayout(spec) && (this.offered?.has(operation) ?? true) && !this.profile.absentApis?.includes(spec.api);
  }

  /** Why an operation cannot be called: not in the standard or the variant, or not offered by the bank (the profile's implements or apis). */
  unsupported(operation: Operation): NotApplicableError {
    const spec = this.specOf(operation);
    if (!spec) {
      return new NotApplicableError(operation, this.variant, `${NotApplicableError.wordsOf(operation)} is not an operation of the ${this.standard.words.client} standard the profile speaks`);
    }
    if (!this.inLayout(spec)) {
      return new NotApplicableError(operation, this.variant, `${NotApplicableError.wordsOf(operation)} is not an operation of ${layoutWords(layoutOf(this.profile))}, the standard the profile says the bank serves`);
    }
    if (!spec.variants.includes(this.variant)) return new NotApplicableError(operation, this.variant);
    return this.profile.absentApis?.includes(spec.api)
      ? new NotOfferedError(operation, this.variant, `the profile gives no base URL for ${spec.api} (apis.${spec.api}): the bank does not offer ${operation} (variant ${this.variant})`)
      : new NotOfferedError(operation, this.variant);
  }

  /**
   * The path an operation uses, from its catalogue entry and the profile's paths. An id it needs
   * that is missing or empty is refused (UnfilledPathError): a literal `{accountId}` never reaches
   * the bank; one that cannot be a path segment is refused too (UnusableIdError).
   */
  pathOf(operation: Operation, ids: Record<string, string> = {}): string {
    const spec = this.specOf(operation) ?? anySpecOf(operation);
    if (!spec) throw this.unsupported(operation);
    try {
      return fillPath(spec.path, this.profile.paths, ids, (name, value) => pathSegment(operation, name, value));
    } catch (error) {
      if (error instanceof MissingPathId) throw new UnfilledPathError(operation, error.placeholder);
      throw error;
    }
  }

  /**
   * Calls one operation: `args` as its method takes them (the path's ids in order, the body where
   * it sends one, then the options). The named methods (`getBalances(…)`) are this, made from the
   * catalogue.
   */
  invoke(operation: Operation, args: readonly unknown[]): Promise<ApiResult> {
    const spec = this.specOf(operation) ?? anySpecOf(operation);
    if (!spec) return Promise.reject(this.unsupported(operation));
    const ids: Record<string, string> = {};
    spec.ids.forEach((name, i) => (ids[name] = args[i] as string));
    const body = spec.body ? args[spec.ids.length] : undefined;
    const o = args[spec.ids.length + (spec.body ? 1 : 0)] as CallOptions | undefined;
    return this.call(operation, ids, body, o);
  }

  /**
   * Whether this profile signs payment requests and checks the bank's payment signatures
   * (x-jws-signature, a UK Open Banking header: only where the standard signs with it).
   */
  get signs(): boolean {
    return this.profile.signing?.enabled === true && this.standard.signing !== 'http-signature';
  }

  /** Whether requests carry the NextGenPSD2 HTTP signature (its standard signs so, the profile gives signing.certificate, and signing is on). */
  get httpSigns(): boolean {
    return this.standard.signing === 'http-signature' && this.profile.signing?.enabled !== false && !!this.profile.signing?.certificate;
  }

  private requestSigner?: import('./http-signature.ts').RequestSigner;
  /** The profile's signing key with its certificate, read once (checked at profile load). */
  private httpSigner(hs: typeof import('./http-signature.ts')): import('./http-signature.ts').RequestSigner {
    const s = this.profile.signing!;
    try {
      this.requestSigner ??= hs.requestSigner(s.key, s.certificate!);
    } catch (error) {
      throw new ObtppError('profile_invalid', `$.signing: ${(error as Error).message.split('\n')[0]}`, { hint: 'give signing.key (an RSA key) and signing.certificate (the PEM certificate of that key)', exitCode: ExitCode.usage });
    }
    return this.requestSigner;
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

  /**
   * GET a path the standard does not define below the base of an operation's API (`/foobar`,
   * `/accounts/{AccountId}/balances/foobar`): what the standard's suite sends to see a 404. `path`
   * is sent as given (the caller builds it from pathOf and encoded segments).
   */
  getUndefined(operation: Operation, path: string, o: CallOptions = {}): Promise<ApiResult> {
    return this.call(operation, {}, undefined, o, path);
  }

  private async call(operation: Operation, ids: Record<string, string>, body: unknown, o: CallOptions = {}, undefinedPath?: string): Promise<ApiResult> {
    if (!this.supports(operation)) throw this.unsupported(operation);
    const spec = this.specOf(operation)!;
    const method = undefinedPath === undefined ? spec.method : 'GET';
    let url = this.baseUrlOf(spec.api) + (undefinedPath ?? this.pathOf(operation, ids));
    const query = Object.entries(o.query ?? {}).filter(([, v]) => v !== undefined) as [string, string][];
    if (query.length) url += '?' + new URLSearchParams(query).toString();
    const headers: Record<string, string> = { ...lowerKeys(this.profile.headers) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const interactionId = o.interactionId === false ? undefined : (o.interactionId ?? randomUUID());
    if (interactionId) headers['x-fapi-interaction-id'] = interactionId;
    // Creates, and the signed updates of UK v4.0 (a VRP consent's PUT and PATCH), carry an idempotency key.
    const keyed = method === 'POST' || ((method === 'PUT' || method === 'PATCH') && spec.signedRequest === true);
    if (keyed && o.idempotencyKey !== false) headers['x-idempotency-key'] = o.idempotencyKey ?? randomUUID();
    const text = body === undefined ? undefined : (o.bodyText ?? JSON.stringify(body));
    // A JSON Patch document has its own media type (RFC 6902; the v4.0 VRP file's PATCH).
    if (text !== undefined) headers['content-type'] ??= method === 'PATCH' ? 'application/json-patch+json' : 'application/json';
    if (spec.signedRequest && this.signs && o.signature !== false && text !== undefined) {
      headers['x-jws-signature'] = typeof o.signature === 'string' ? o.signature : await (await import('./jws.ts')).signDetached(text, await this.messageSigner());
    }
    Object.assign(headers, lowerKeys(o.headers ?? {}));
    for (const name of o.omitHeaders ?? []) delete headers[name.toLowerCase()];
    const hs = this.standard.signing === 'http-signature' ? await import('./http-signature.ts') : undefined;
    if (hs && this.httpSigns && o.httpSignature !== false) {
      headers.date ??= new Date().toUTCString();
      Object.assign(headers, hs.signRequest(this.httpSigner(hs), headers, text ?? '', o.httpSignature ? o.httpSignature.digestOf : undefined));
    }
    // A token the bank bound to the run's DPoP key goes with a fresh proof and the DPoP scheme, whoever set the header.
    const bound = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    const result = bound && o.dpop !== false && this.http.dpop.bound.has(bound)
      ? await (await import('./dpop.ts')).dpopRequest(this.http, this.http.dpop, bound, method, url, headers, text)
      : await this.http.request(method, url, text === undefined ? { headers } : { headers, body: text });
    const out: ApiResult = { ...result, operation, sentInteractionId: interactionId, ...(headers['x-jws-signature'] ? { sentSignature: headers['x-jws-signature'] } : {}) };
    const bankCert = this.profile.bank?.signingCertificate;
    if (hs && bankCert) out.httpSignature = hs.verifyAnswer(result.headers as Record<string, string | undefined>, result.text, new (await import('node:crypto')).X509Certificate(bankCert));
    if (spec.signedAnswer && this.signs && result.text.length > 0) {
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

// The named methods, one per operation of the catalogues.
for (const operation of OPERATION_IDS) {
  Object.defineProperty(TppClient.prototype, operation, {
    value(this: TppClient, ...args: unknown[]) {
      return this.invoke(operation, args);
    },
    writable: true,
    configurable: true,
  });
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}
