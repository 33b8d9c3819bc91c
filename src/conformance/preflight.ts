/**
 * Before a run: the browser the PSU journeys need exists, and the bank's authorisation server
 * answers and accepts the profile's set-up (its standard's set-up check); a bank nobody can talk
 * to is exit 3, in one line, before anything is judged.
 */
import { BrowserUnavailableError, ExitCode, ObtppError } from '../errors.ts';
import type { Profile } from '../profile/types.ts';
import { standardOf } from '../standards/registry.ts';

/** The PSU journeys need a browser: without one the run cannot happen (exit 3), said up front. */
export async function requireBrowser(env: Record<string, string | undefined>): Promise<void> {
  const { PsuBrowser } = await import('../psu/index.ts');
  if (!PsuBrowser.executablePath(env)) throw new BrowserUnavailableError('no Chromium or Chrome found for the PSU journeys');
}

/** Before a run against a real bank: the browser exists and the authorisation server answers. */
export async function preflight(profile: Profile, env: Record<string, string | undefined>): Promise<{ summary: Record<string, unknown>; line: string } | undefined> {
  if (profile.psu.driver.kind !== 'manual') await requireBrowser(env);
  const { httpFromProfile } = await import('../client/factory.ts');
  const { Auth } = await import('../auth/index.ts');
  // A bank without an authorisation server (a profile without auth, where its standard allows it): nothing to discover.
  if (profile.auth.absent) return undefined;
  const http = httpFromProfile(profile);
  try {
    let auth: Awaited<ReturnType<typeof Auth.create>>;
    try {
      auth = await Auth.create(profile, http);
    } catch (error) {
      if (error instanceof ObtppError && (error.exitCode !== ExitCode.cannotRun || error.code === 'flow_refused')) throw error;
      // The one line names the field that points at the discovery document.
      const field = profile.auth.discoveryUrl ? 'auth.discoveryUrl' : 'auth.issuer';
      throw new ObtppError('bank_unreachable', `${field}: the bank's authorisation server cannot be used: ${(error as Error).message}`, {
        cause: error, exitCode: ExitCode.cannotRun, hint: 'check auth.issuer / auth.discoveryUrl, the network and the TLS settings of the profile',
      });
    }
    // A set-up error (redirect URI, client, scope) stops the run before judging, naming the field.
    if (profile.auth.clientFrom !== 'registration' && profile.psu.driver.kind !== 'manual') {
      const setupCheck = await standardOf(profile.dialect).setupCheck?.();
      await setupCheck?.(profile, auth, http);
    }
    const { describeSecurity, securitySummary } = await import('../auth/security.ts');
    return { summary: securitySummary(auth.security), line: describeSecurity(auth.security) };
  } finally {
    await http.close();
  }
}

