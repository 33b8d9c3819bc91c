import type { Profile } from './types.ts';

const MASK = '********';

/** A copy of the profile fit to print: every secret replaced, the secrets list dropped. */
export function maskProfile(profile: Profile): Record<string, unknown> {
  const { secrets, ...rest } = profile;
  const copy = structuredClone(rest) as Record<string, any>;
  const ca = copy.auth?.clientAuth;
  if (ca?.secret) ca.secret = MASK;
  if (ca?.privateKey) ca.privateKey = MASK;
  if (copy.mtls?.key) copy.mtls.key = MASK;
  if (copy.mtls?.cert) copy.mtls.cert = `<certificate, ${copy.mtls.cert.length} characters>`;
  if (copy.mtls?.ca) copy.mtls.ca = `<CA bundle, ${copy.mtls.ca.length} characters>`;
  if (copy.psu?.password) copy.psu.password = MASK;
  if (copy.signing?.key) copy.signing.key = MASK;
  if (copy.sca?.otp) copy.sca.otp = MASK;
  if (copy.sca?.multilevel?.psu?.password) copy.sca.multilevel.psu.password = MASK;
  // A bank without an authorisation server: what the profile left out is said as such, not as a client.
  if (copy.auth?.absent) {
    if (copy.sca?.approaches?.includes('redirect')) copy.sca = { ...copy.sca, redirectUri: copy.auth.redirectUri };
    copy.auth = 'none (no auth block: the bank has no authorisation server; SCA without OAuth2)';
  }
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') return secrets.some((s) => v.includes(s)) ? MASK : v;
    if (Array.isArray(v)) return v.map(scrub);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]));
    return v;
  };
  return scrub(copy) as Record<string, unknown>;
}
