/**
 * obtpp as a library: the same conformance run, sandbox bank, profile loader and TPP operations
 * the `obtpp` command uses (the CLI is a thin caller of these).
 *
 * @example
 * import { runConformance } from 'obtpp';
 * const { summary, exitCode } = await runConformance({ tags: '@ais', reportDir: 'reports/ci',
 *   onEvent: (e) => e.type === 'scenario' && console.log(e.status, e.rule, e.name) });
 *
 * Heavy parts (cucumber, puppeteer, oidc-provider) load only when a function needs them.
 * @packageDocumentation
 */
import type { Profile } from './profile/types.ts';
import type { LoadOptions } from './profile/load.ts';
import type { RunConformanceOptions, ConformanceResult } from './conformance/runner.ts';
import type { Sandbox, SandboxOptions, FaultInfo } from './sandbox/index.ts';
import type { PsuBrowser } from './psu/index.ts';

export type { RunConformanceOptions, ConformanceResult, ConformanceEvent, ReportKind } from './conformance/runner.ts';
export type { Summary, RuleResult, RuleStatus, InternalError } from './conformance/summary.ts';
export type { Sandbox, SandboxOptions, SandboxClient, SandboxPsu, FaultInfo } from './sandbox/index.ts';
export type { Profile, Variant, Fn } from './profile/types.ts';
export type { LoadOptions } from './profile/load.ts';
export type { PsuBrowser } from './psu/index.ts';
export type { Exchange } from './client/exchange.ts';
export type { Operation, CallOptions, ApiResult } from './client/operations.ts';
export type { SignatureCheck } from './client/jws.ts';
export type { TokenSet, AuthoriseOptions, AuthoriseResult } from './auth/index.ts';
export type { ClientOptions, ObtppClient } from './api/client.ts';
export { createClient } from './api/client.ts';
/** Request bodies of the obie dialect (`obie.buildAccountAccessConsent(…)`) and accessors for the answers (`obie.consentIdOf(body)`). */
export * as obie from './dialects/obie/builders.ts';
/**
 * Request bodies, headers and accessors of the berlin-group dialect, NextGenPSD2 XS2A 1.3.x
 * (`berlinGroup.buildConsent(…)`, `berlinGroup.bgHeaders(…)`, `berlinGroup.linkOf(body, 'scaRedirect')`). Preview.
 */
export * as berlinGroup from './dialects/berlin-group/builders.ts';
export {
  ExitCode, ObtppError, UsageError, ProfileError, StateError, BankUnreachableError, BrowserUnavailableError,
  HttpError, BankError, AuthorisationError,
} from './errors.ts';
export { NotApplicableError } from './client/operations.ts';
/**
 * The standards obtpp speaks, and the one way to add one: `registerStandard(module)` (a module as
 * src/standards/standard.ts describes it; docs/house.md, "Adding a standard"). From then on the
 * runner, the CLI and the profile loader accept its profiles as they accept the package's own.
 */
export { registerStandard, standards } from './standards/registry.ts';
export type { BankErrorWords, StandardModule, VersionModule } from './standards/standard.ts';
export { DiscoveryError } from './auth/index.ts';

/**
 * Certifies a bank (by default the embedded sandbox bank, variants A and B) against the
 * specification, and writes summary.json, summary.md, junit.xml, report.html and messages.ndjson
 * to the report dir. Progress arrives through `onEvent` (`note`, `scenario`, `done`); `signal` stops
 * the run cleanly (verdict `interrupted`; a partial junit.xml marks the scenarios not run).
 *
 * Resolves with the summary, the report dir and the exit code the CLI would use (0 conformant,
 * 1 non-conformant, 3 nothing could be judged or obtpp itself failed in a step — then
 * `internalErrors` says where —, 130/143 interrupted). Rejects with an
 * {@link ObtppError} whose `exitCode` is 2 for usage and profile errors (including a selection of
 * no scenario) and 3 when the run could not happen (bank unreachable, no browser).
 */
export async function runConformance(options: RunConformanceOptions = {}): Promise<ConformanceResult> {
  const { runConformance: run } = await import('./conformance/runner.ts');
  return run(options);
}

/**
 * Starts the embedded sandbox bank (authorisation server, PSU pages, resource server for variants
 * A and B) on 127.0.0.1 and an OS-picked port; `sandbox.profile()` is a profile object for it.
 * Stop it with `sandbox.stop()`.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await import('./sandbox/index.ts');
  return sandbox.startSandbox(options);
}

/**
 * A PSU browser (headless Chromium, started at its first journey) for several `runConformance`
 * calls one after another: `runConformance({ browser })` uses it instead of starting its own and
 * leaves it open, so Chromium starts once. Each journey still gets a context wiped of the previous
 * journey's cookies and storage. Close it with `browser.close()` when done.
 *
 * @example
 * const browser = await openBrowser();
 * try {
 *   for (const tags of ['@ais', '@pis']) await runConformance({ tags, browser, reportDir: `reports/${tags.slice(1)}` });
 * } finally {
 *   await browser.close();
 * }
 */
export async function openBrowser(options: { env?: Record<string, string | undefined> } = {}): Promise<PsuBrowser> {
  const { PsuBrowser } = await import('./psu/index.ts');
  return new PsuBrowser({ env: options.env ?? process.env });
}

/** The sandbox's faults, each breaking one rule (or misbehaving below the spec, for chaos faults). */
export async function listFaults(): Promise<FaultInfo[]> {
  const faults = await import('./sandbox/faults.ts');
  return faults.listFaults();
}

/**
 * Reads, interpolates (`${env:VAR}`), validates and completes a profile: a YAML or JSON file, or
 * the name of a built-in profile. A bad profile rejects with a ProfileError (exit code 2) listing
 * every problem with its JSON path.
 */
export async function loadProfile(nameOrFile: string, options: LoadOptions = {}): Promise<Profile> {
  const load = await import('./profile/load.ts');
  return load.loadProfile(nameOrFile, options);
}

export type { VerifyOptions, VerifyResult, Manifest, AttestedRule } from './attest/attest.ts';
/**
 * Validates and completes a profile given as an object (what a profile file holds, such as
 * `sandbox.profile()`): `${env:VAR}` interpolated from `options.env`, every problem listed in a
 * ProfileError (exit code 2) with its JSON path.
 */
export async function profileFromObject(raw: Record<string, unknown>, options: LoadOptions & { source?: string } = {}): Promise<Profile> {
  const load = await import('./profile/load.ts');
  return load.profileFromObject(raw, { ...options, source: options.source ?? 'profile object' });
}

export type { Waiver, WaiverOutcome } from './conformance/waivers.ts';
export type { SummaryDiff, RuleChange, VariantDiff } from './conformance/diff.ts';

/**
 * Checks an attested report dir offline (what `obtpp verify` does): the signature of
 * `attestation.jws` against `key` (PEM or JWK text) or `jwks` (URL, file text or set), then the
 * SHA-256 of every file the manifest lists. `ok` is true only when both hold; otherwise `problem`
 * says what is wrong and `firstMismatch` names the first file that differs.
 */
export async function verifyAttestation(dir: string, options: import('./attest/attest.ts').VerifyOptions): Promise<import('./attest/attest.ts').VerifyResult> {
  const attest = await import('./attest/attest.ts');
  return attest.verifyAttestation(dir, options);
}

/**
 * The rules whose verdict changed between two runs (what `obtpp diff` does), per variant:
 * newly failing, fixed, newly not judged. Each argument is a report dir or a summary.json.
 */
export async function diffRuns(oldRun: string, newRun: string): Promise<import('./conformance/diff.ts').SummaryDiff> {
  const diff = await import('./conformance/diff.ts');
  const [a, b] = await Promise.all([diff.readSummary(oldRun), diff.readSummary(newRun)]);
  return diff.diffSummaries(a, b);
}

/** Reads and validates a waiver file (YAML or JSON); a bad file rejects with a ProfileError (exit code 2) naming every problem. */
export async function loadWaivers(file: string): Promise<import('./conformance/waivers.ts').Waiver[]> {
  const waivers = await import('./conformance/waivers.ts');
  return waivers.loadWaivers(file);
}
