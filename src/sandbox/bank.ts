/**
 * What a standard's sandbox bank is to the sandbox's front (index.ts): the front runs the server,
 * the keys, the clients and the authorisation server, and asks the standard's module (the
 * registry's `sandbox.bank()`) for the bank that serves the standard's API and PSU pages and
 * writes its profile. Each standard's bank lives in its folder (obie/bank.ts, berlin-group/bank.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyObject } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { ScaApproachName, Variant } from '../profile/types.ts';
import type { FixturePsu } from './fixtures.ts';
import type { Faults } from './faults.ts';
import type { AuthServerOptions } from './auth-server.ts';
import type { DpopVerifier } from './dpop.ts';
import type { RsaKey } from './keys.ts';
import type { Sandbox, SandboxClient, SandboxOptions, SandboxPsu } from './sandbox-types.ts';

/** A bank's options and faults, checked before anything starts. */
export interface BankConfig {
  /** The faults of the sandbox's own parts (authorisation server, PSU pages, registration, chaos): none for a bank that has none of them. */
  shared: Faults;
  /** Every fault switched on, as the sandbox lists them. */
  names: string[];
  /** The SCA approaches the bank offers, for a standard that has them. */
  sca?: ScaApproachName[];
}

/** What the front gives a bank to mount it. */
export interface MountContext {
  provider: Provider;
  issuer: string;
  baseUrls: Record<Variant, string>;
  /** The audience every sandbox access token carries. */
  audience: string;
  config: BankConfig;
  /** The bank's signing key (its JWKS, and its answers' signatures), the TPP client's key, a stray key (bad-response-signature). */
  keys: { signing: RsaKey; client: RsaKey; stray?: RsaKey };
  /** With `signatures`: the certificates of the TPP's and the bank's signing keys, and the bank's key. */
  signatures?: { tppCertPem: string; bankCertPem: string; bankKey: KeyObject };
  /** A DPoP verifier (its nonce demanded where the set-up binds tokens to DPoP keys). */
  dpop(o: { requireNonce: boolean }): DpopVerifier;
  /** Whether the set-up binds tokens to DPoP keys. */
  dpopBound: boolean;
}

/** A bank on the sandbox's server. */
export interface MountedBank {
  /** Serves the request when it is the bank's (its API, its PSU pages); false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, done: (error: unknown) => void): boolean;
  /** The PSU revokes a valid consent at the bank (online banking); false when there is none such. */
  psuRevoke?(consentId: string): boolean;
}

/** The state a bank keeps, as the authorisation server reads it (the consents it authorises, their PSUs). */
export type BankStore = AuthServerOptions['store'];

/** The profile a standard's bank writes for itself, from the front's shared parts. */
export interface ProfileParts {
  sb: Sandbox;
  variant: Variant | 'all';
  variants: Variant[];
  client: SandboxClient;
  psu: SandboxPsu;
}

export interface SandboxBank {
  /** Its options and faults checked (an unknown one is a usage error naming the known ones). */
  configure(options: SandboxOptions): BankConfig;
  /** Whether the bank can require the NextGenPSD2 HTTP signature (the `signatures` option). */
  readonly signatures?: boolean;
  /** Below the issuer, per variant: `{issuer}/{A|B}/{basePath}`. */
  readonly basePath: string;
  /** Its state over the fixture PSUs. */
  store(psus: FixturePsu[], clock: (() => number) | undefined): BankStore;
  /** The scopes its consents add at the authorisation server (NextGenPSD2's `AIS:{consentId}`), if any. */
  resourceScopes?(store: BankStore): () => string;
  mount(store: BankStore, ctx: MountContext): MountedBank;
  /** A PSU's account as the sandbox lists it: its currency, and what else the standard names it by (an IBAN). */
  account(a: FixturePsu['accounts'][number]): { Currency: string; iban?: string };
  /** The profile's name after "obtpp sandbox" (" (berlin-group)"), before the variant. */
  readonly profileName?: string;
  /** Whether its profile names a FAPI set-up's second private_key_jwt client (`auth.secondClient`: the OIDF checks that need another client). */
  readonly secondClient?: boolean;
  /** Whether the profile has an auth block (a bank whose SCA needs no authorisation server has none). */
  oauth(sb: Sandbox): boolean;
  /** Its own fields right after the profile's name. */
  profileHead?(parts: ProfileParts, oauth: boolean): Record<string, unknown>;
  /** Its `implements` or `paths`, after tppName. */
  profileOperations(parts: ProfileParts): Record<string, unknown>;
  /** Its scopes, intent binding and offline access, in the auth block. */
  profileAuth(): Record<string, unknown>;
  /** The profile of the same bank at a published version's official paths, from its variant-A profile; undefined for none. */
  versionProfile?(sb: Sandbox, version: string, profileA: Record<string, unknown>): Record<string, unknown> | undefined;
}
