/**
 * What a standard is to the rest of obtpp: one typed object per standard, registered once
 * (registry.ts). The shared code — the runner, the CLI, the profile loader, the summary and the
 * reports, the session, the sandbox's front — asks the registry for it and never spells a
 * standard's name. Everything heavy a standard brings (its sandbox bank, its terminal commands,
 * its session operations) is a loader, imported only when used: `obtpp --help` loads none of it.
 *
 * docs/house.md ("Adding a standard") says what a new standard must provide.
 */
import type { Catalogue } from '../dialects/operation-spec.ts';
import type { AuthSettings, Fn, Profile, ProfilePaths, ScaApproachName, Variant } from '../profile/types.ts';

/** A published version of a standard that a profile names (`standard: uk-3.1`): a layout of its catalogue. */
export interface VersionModule {
  /** As a profile and `--standard` name it, and as a scenario's tag (`@uk-3.1`) marks what only it has. */
  readonly name: string;
  /** In messages: "not an operation of UK Read/Write v3.1.11". */
  readonly words: string;
  /** What summary.json and the reports say a run of it judged. */
  readonly judged: { readonly name: string; readonly version: string; readonly layout: string };
  /** The official conformance suite's version whose tests the reports list (src/conformance/fcs-map.ts). */
  readonly fcsVersion?: string;
  /** `--help` of `obtpp sandbox --standard` and `obtpp conform --standard`: the version, and where the sandbox serves it. */
  readonly help: { readonly sandbox: string; readonly conform: string };
}

/** The words the shared code uses of a standard. */
export interface StandardWords {
  /** What its wire format is, in `--dialect` help: "NextGenPSD2 XS2A 1.3.x". */
  readonly wire: string;
  /** The sandbox's `--dialect` help adds ", preview". */
  readonly preview?: boolean;
  /** The standard a client's message names: "UK Open Banking (obie)". */
  readonly client: string;
  /** How its banks sign their messages, where a sandbox option of another standard's signing is refused. */
  readonly signs?: string;
  /** What a profile of another standard is told of a version (`--standard uk-3.1 is a UK standard`). */
  readonly versions?: string;
  /** What the terminal calls its records of each kind (default the UK's: "account-access consent", …). */
  readonly kinds?: Readonly<Record<Fn, string>>;
  /** The kinds `obtpp consent create` makes for it (default `ais|cof|pis`). */
  readonly consentKinds?: string;
  /**
   * The terminal commands it speaks, as a user of another standard's only command is told
   * ("with berlin-group: consent create ais|pis, …; see docs/berlin-group.md"); absent for the
   * base standard (every command speaks it).
   */
  readonly commands?: string;
}

/**
 * The problems of a profile of (or against) this standard that the schema cannot say, before
 * defaults: `mine` for a profile of this standard, else `dialect` is the profile's own.
 */
export interface ProfileContext {
  readonly mine: boolean;
  /** The profile's dialect as written (the base standard's name when it names none). */
  readonly dialect: string;
}

/** A bank's refusal in its standard's words, as the terminal's one line says it (src/session/index.ts, `refusal`). */
export interface BankErrorWords {
  /** The error codes; the first is the error's `bankCode`. */
  readonly codes: readonly string[];
  /** What follows the status on the line, each of the bank's words quoted (src/outside-text.ts): ` "CODE": "text"`. */
  readonly words: string;
}

/** What a standard adds to the profile: its own fields, their checks, and its defaults. */
export interface ProfilePart {
  /** In the profile's `dialect` description: its name quoted, and its wire format in brackets. */
  readonly words: string;
  /** What a profile of it gets by default that another does not, in the `dialect` description. */
  readonly changes?: string;
  /** What its published versions are, in the `standard` description. */
  readonly versionsWords?: string;
  /**
   * JSON Schema of the top-level fields only this standard's profiles have, by the shared field
   * each group follows (`{ apis: { discovery: … } }`): merged into the profile's schema in place,
   * so that its fields keep their place and a profile's problems their order.
   */
  readonly schema?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /**
   * The fields (dotted below the top: `bank.signingCertificate`) only this standard's profiles may
   * carry, in the order a profile of another standard is told of them.
   */
  readonly ownFields?: readonly string[];
  /** Problems of this standard's own profile that the schema cannot say (every profile, even one with schema problems). */
  ownProblems?(raw: Record<string, any>): string[];
  /**
   * Problems of the layout (a profile's `standard`, `discovery`, `implements` and `variants`),
   * once the schema holds; `raw.standard` may be filled in (a discovery document implies one).
   */
  layoutProblems?(raw: Record<string, any>, context: ProfileContext): string[];
  /**
   * A profile of this standard may go without an auth block (a bank without an authorisation
   * server); `words` names such a bank to a profile of another standard that has none.
   */
  readonly withoutAuth?: { readonly words: string; problems(raw: Record<string, any>): string[] };
  /** The TPP-Redirect-URI a profile of it gives apart from auth.redirectUri (a bank without an auth block has no other). */
  redirectUri?(p: Record<string, any>): string | undefined;
  /** The secrets its own fields carry (redacted wherever they appear). */
  secrets?(p: Record<string, any>): Array<string | undefined>;
  /** Its paths, when they are not the spec's (`version`: the profile's `standard`, if any). */
  paths?(version: string | undefined): ProfilePaths | undefined;
  /** Its scopes per API, when they are not the spec's. */
  readonly scopes?: Readonly<Record<Fn, string>>;
  /** How the intent id is bound, when the profile says nothing (default: claims). */
  readonly intentBinding?: AuthSettings['intentBinding'];
  /** Per-API segments below baseUrl of a profile that names a version (`/aisp`, `/cbpii`, `/pisp`). */
  apiSegments?(version: string | undefined): Readonly<Record<Fn, string>> | undefined;
  /**
   * Its own fields of the completed profile, in the order `obtpp profile check` prints them (after
   * `security`): `p` is the profile as written, `absent` true without an auth block.
   */
  complete?(p: Record<string, any>, context: { absent: boolean }): Partial<Profile>;
}

/** The embedded sandbox bank of a standard (src/sandbox/index.ts, the front, starts it). */
export interface SandboxPart {
  /** Its faults, checked: an unknown one is a usage error naming the known ones. */
  parseFaults(faults: readonly string[] | undefined): Promise<ReadonlySet<string>>;
  /** Its faults as `--list-faults` prints them. */
  listFaults(): Promise<ReadonlyArray<{ name: string; rule: string; description: string }>>;
  /**
   * Faults that bend only one layout (a version) or security profile of the sandbox: the run
   * says so rather than judging a fault that bends nothing. Undefined when every fault fits.
   */
  misfit?(faults: readonly string[], run: { version?: string; security?: string }): Promise<string | undefined>;
  /** The options only its bank takes: the flag, and what a profile says instead (the run's usage errors). */
  readonly options?: Readonly<Partial<Record<'sca' | 'signatures', { readonly flag: string; readonly profileSays: string }>>>;
  /** What `obtpp sandbox` says of the bank beyond its variants' base URLs: in its JSON document, and as lines. */
  readonly describe?: { json(issuer: string): Record<string, string>; lines(issuer: string): string[] };
  /** Where the bank's API is told apart on `obtpp sandbox`'s lines: " (NextGenPSD2 XS2A: /v1/consents, /v1/accounts, …)". */
  readonly apiWords?: string;
  /**
   * The bank: mounted on the sandbox's server by the front (src/sandbox/bank.ts says what it gets and gives).
   * Left out of the published types (`stripInternal`): what it gets is oidc-provider's, whose types a
   * library user does not have.
   * @internal
   */
  bank(): Promise<import('../sandbox/bank.ts').SandboxBank>;
}

/** The terminal client of a standard: its commands' work (src/cli/commands/* ask for it). */
export interface TerminalPart {
  /** Whether it speaks a command (`consent create ais`, `basket authorise`): a profile of a standard that does not is refused in one line. */
  speaks(command: string): boolean;
  /**
   * Its commands' work (a `StandardCommands` of src/cli/standard-commands.ts: typed there, so that
   * this module, which the CLI's types read, reads none of the CLI's).
   */
  commands(): Promise<object>;
}

/**
 * The run's set-up check of a standard against a real bank before judging (src/conformance/preflight.ts):
 * the bank's authorisation server (an `Auth`) and the HTTP client it used, opaque here so that the
 * registry reads no module of the client or the authorisation server.
 */
export type SetupCheck = (profile: Profile, auth: object, http: object) => Promise<void>;

/** A standard: everything the shared code needs of it. */
export interface StandardModule<N extends string = string, C extends Catalogue = Catalogue> {
  /** The profile's `dialect`, the `@dialect-<name>` tag of its features, its folder name in every room. */
  readonly name: N;
  /** Its operations, as data (src/dialects/<name>/catalogue.ts). */
  readonly catalogue: C;
  /** The published versions a profile can name as its `standard` (none: the standard has one layout). */
  readonly versions: readonly VersionModule[];
  readonly words: StandardWords;
  /** What a run of it judged, in summary.json's words, when the profile names no version. */
  readonly judged: { readonly name: string; readonly version: string };
  /** What an attestation names as the standard (absent: its name, unversioned). */
  readonly attested?: { readonly name: string; readonly version: string };
  /**
   * Its judges' schemas, per validator set (a folder of src/dialects, e.g. one per version), with
   * the ajv that compiles them: what the build compiles to standalone validators
   * (scripts/build-validators.mjs) and dist/src/dialects/prebuilt.js loads.
   */
  validators?(emit: object): Promise<Array<{ set: string; levels: Record<string, { official: object; strict: object }>; ajv: { compile(schema: object): unknown } }>>;
  /** Its feature files: a folder, absolute or below the package root. */
  readonly features: string;
  /** Step definitions beyond the package's compiled ones (absolute globs cucumber imports). */
  readonly stepDefinitions?: readonly string[];
  /** The message signature its requests carry when the profile signs: UK x-jws-signature, or the NextGenPSD2 HTTP signature. */
  readonly signing?: 'x-jws-signature' | 'http-signature';
  readonly profile: ProfilePart;
  /** The SCA approaches a profile of it can offer (the sandbox's `--sca`), in the order the sandbox tells them. */
  readonly scaApproaches?: readonly ScaApproachName[];
  /** Why a 401 happened, in its words (the terminal's hint). */
  readonly unauthorisedHint?: string;
  /**
   * How its error body reads (UK: `Errors[].ErrorCode` and `Message`; NextGenPSD2: `tppMessages[]`
   * `code` and `text`): undefined for a body not of its shape. The terminal asks the profile's
   * standard first, then the others (a bank may answer an error of another shape).
   */
  readError?(body: unknown): BankErrorWords | undefined;
  readonly sandbox?: SandboxPart;
  readonly terminal?: TerminalPart;
  /** The run's check that the profile's set-up lets the authorisation start (a UK bank: one consent created, its authorisation begun). */
  setupCheck?(): Promise<SetupCheck | undefined>;
}

/** The variants a catalogue entry lists: for the types below. */
export type { Variant };
