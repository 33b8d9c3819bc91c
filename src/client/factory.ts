import type { Profile } from '../profile/types.ts';
import { HttpClient, type HttpOptions } from './http.ts';

/** The HTTP core for one profile: its mTLS material, TLS policy, time-out, body cap and secrets. */
export function httpFromProfile(profile: Profile, options: Pick<HttpOptions, 'onExchange' | 'warn' | 'redactor' | 'dpop'> = {}): HttpClient {
  return new HttpClient({
    ca: profile.mtls?.ca,
    cert: profile.mtls?.cert,
    key: profile.mtls?.key,
    insecure: profile.tls.insecure,
    timeoutMs: profile.timeouts.requestMs,
    maxBodyBytes: profile.limits.maxBodyBytes,
    secrets: profile.secrets,
    ...options,
  });
}
