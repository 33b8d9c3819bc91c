/**
 * What an operation of a standard is, as data (see catalogue.ts), and how its path is filled.
 * Nothing here names a standard: each standard's catalogue lives in its own folder.
 */
import type { Fn, ProfilePaths, Standard, Variant } from '../profile/types.ts';

/** Where an operation lives: the spec's own layout, or a published standard at its official paths. */
export type Layout = 'spec' | Standard;

/** The layout a profile is judged in. */
export const layoutOf = (profile: { standard?: Standard }): Layout => profile.standard ?? 'spec';


export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The token an operation is called under: the TPP's own (client credentials), the PSU's
 * (authorization code, after the PSU authorised the consent), or none (a Berlin Group bank with
 * the redirect approach knows the TPP by its certificate and the consent by its Consent-ID header;
 * a token is still sent where the SCA approach gave one).
 */
export type TokenKind = 'client' | 'psu' | 'none';

/** One operation of a standard, as its catalogue declares it. */
export interface OperationSpec {
  /** The API it belongs to, and so the base URL it uses (the profile's `apis`). */
  readonly api: Fn;
  readonly method: HttpMethod;
  /**
   * The path below the API's base URL. `{@name}` is the profile's `paths.name` (which may hold
   * placeholders of its own); `{name}` is an id the call gives, URL-encoded as one path segment;
   * `{payment-product}` is the profile's `paths.paymentProduct`. Spellings the standards use for
   * the same id (`{AccountId}`, `{account-id}`) are one id (see {@link ID_ALIASES}).
   */
  readonly path: string;
  /** The ids the path needs, in the order the client's method takes them. */
  readonly ids: readonly string[];
  /** Whether the operation sends a body (a POST, PUT or PATCH that creates or changes something). */
  readonly body: boolean;
  readonly token: TokenKind;
  /** For a data call: the consent must grant one of these permissions (UK Permissions codes). */
  readonly permissions?: readonly string[];
  /** The variants of the spec whose endpoint tables list it. */
  readonly variants: readonly Variant[];
  /**
   * The layouts that have it: `spec` (the spec's variants) and the published standards a profile
   * names (`standard: uk-3.1`). Absent: every layout of its catalogue.
   */
  readonly standards?: readonly Layout[];
  /** The request carries a detached JWS of its body (UK x-jws-signature) when the profile signs. */
  readonly signedRequest?: boolean;
  /** The bank signs the answer's body (UK x-jws-signature) and the client verifies it against bank.jwks. */
  readonly signedAnswer?: boolean;
  /**
   * The official schema of the answer per status (a schema name of the standard's dialect), null
   * for an answer without a body (204). A status not listed is not a success of this operation.
   */
  readonly responses: Readonly<Record<number, string | null>>;
  /** The standard's request body, as the dialect's builders module builds it (the function's name). */
  readonly builder?: string;
  /** The operation in the words of the CLI: what the user typed, for messages. */
  readonly words: string;
  /**
   * The group it belongs to, and its part there: an authorisation sub-resource of a resource
   * (`{ kind: 'authorisation', of: 'payment', as: 'start' }`: start, list, status, update), a
   * payment family's (`{ kind: 'payment-family', of: 'international', as: 'order' }`: create, get,
   * funds, submit, order, details), a read of account information in its bulk and per-account
   * forms (`{ kind: 'read', of: 'direct-debits', as: 'every' }`: every, one). The terminal client,
   * the session and the steps find an operation by its group ({@link groupOf}) rather than keep
   * lists of their own.
   */
  readonly group?: OperationGroup;
}

/** An operation's place in a group of its catalogue (see {@link OperationSpec.group}). */
export interface OperationGroup {
  readonly kind: 'authorisation' | 'payment-family' | 'read';
  /** The group: the resource authorised, the payment family. */
  readonly of: string;
  /** The operation's part in it. */
  readonly as: string;
}

export type Catalogue = Readonly<Record<string, OperationSpec>>;

/** Spellings of one id across the standards and the spec's tables. */
export const ID_ALIASES: Readonly<Record<string, string>> = {
  AccountId: 'accountId', 'account-id': 'accountId',
  TransactionId: 'resourceId', transactionId: 'resourceId',
  ConsentId: 'consentId', 'consent-id': 'consentId',
  PaymentId: 'paymentId', 'payment-id': 'paymentId',
};

/** A path template whose id is missing. */
export class MissingPathId extends Error {
  readonly placeholder: string;
  constructor(placeholder: string) {
    super(`${placeholder} is missing`);
    this.placeholder = placeholder;
  }
}

/**
 * The path of an operation: `{@name}` from the profile's paths (a trailing slash dropped), then
 * every `{id}` from `ids` (by its canonical name), made one path segment by `segment`. An id that
 * is missing or empty throws {@link MissingPathId}: a literal `{accountId}` never reaches a bank.
 */
export function fillPath(
  template: string, paths: ProfilePaths, ids: Readonly<Record<string, string | undefined>>, segment: (name: string, value: string) => string,
): string {
  const expanded = template.replace(/\{@(\w+)\}/g, (_, name: string) => {
    const value = (paths as unknown as Record<string, string | undefined>)[name];
    if (typeof value !== 'string') throw new MissingPathId(`paths.${name}`);
    return value.replace(/\/+$/, '');
  });
  return expanded.replace(/\{([\w-]+)\}/g, (placeholder, raw: string) => {
    if (raw === 'payment-product') return encodeURIComponent(paths.paymentProduct);
    const name = ID_ALIASES[raw] ?? raw;
    const value = Object.hasOwn(ids, name) ? ids[name] : undefined;
    if (typeof value !== 'string' || value === '') throw new MissingPathId(placeholder);
    return segment(name, value);
  });
}

/** The `{@name}` path keys a catalogue's templates read from the profile. */
export function pathKeysOf(catalogue: Catalogue): string[] {
  return [...new Set(Object.values(catalogue).flatMap((s) => [...s.path.matchAll(/\{@(\w+)\}/g)].map((m) => m[1]!)))];
}

/**
 * The operations of one group of a catalogue, by their part (`{ start: 'startPaymentAuthorisation', … }`);
 * empty for a group the catalogue has not. Two operations in one part are a catalogue's mistake.
 */
export function groupOf(catalogue: Catalogue, kind: OperationGroup['kind'], of: string): Readonly<Record<string, string>> {
  const parts: Record<string, string> = {};
  for (const [id, spec] of Object.entries(catalogue)) {
    if (spec.group?.kind !== kind || spec.group.of !== of) continue;
    if (parts[spec.group.as]) throw new Error(`the catalogue's ${kind} ${of} has two operations as ${spec.group.as}: ${parts[spec.group.as]} and ${id}`);
    parts[spec.group.as] = id;
  }
  return parts;
}

/** The groups of a kind a catalogue has, in catalogue order. */
export function groupsOf(catalogue: Catalogue, kind: OperationGroup['kind']): string[] {
  return [...new Set(Object.values(catalogue).flatMap((spec) => (spec.group?.kind === kind ? [spec.group.of] : [])))];
}
