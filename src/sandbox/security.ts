/**
 * The security profiles the sandbox's authorisation server can run (`obtpp sandbox --security …`),
 * each as real banks' servers run it (FACTS-security §1): the sandbox's own choices, written apart
 * from the harness's (src/auth/security.ts) so that the bank and its examiner share no mistake.
 * Without one, the sandbox serves the code flow with PKCE (PAR offered), as it always has.
 */
import { UsageError } from '../errors.ts';

/** The acr the sandbox's sign-in reaches: the PSU signs in on the bank's own page (UK Open Banking's SCA value). */
export const SANDBOX_ACR = 'urn:openbanking:psd2:sca';

export interface SandboxSecurityInfo {
  /** The `--security` value. */
  name: string;
  description: string;
  /** oidc-provider's FAPI profile. */
  fapi: '1.0 Final' | '2.0';
  /** The response types the server offers. */
  responseTypes: Array<'code' | 'code id_token'>;
  /** Pushed authorization requests: not offered, offered, or required. */
  par: 'off' | 'offered' | 'required';
  /** JARM (response_mode=jwt and its forms). */
  jarm: boolean;
  /** Request objects must be signed (by value or pushed). */
  signedRequestObject: boolean;
  /** How tokens are bound: mTLS (the sandbox serves TLS) or DPoP (with a nonce to honour). */
  senderConstraint: 'mtls' | 'dpop';
  /** What the written profile's `security` says (the harness resolves the rest from discovery). */
  profile: { profile: 'fapi1-advanced' | 'fapi2' | 'fapi2-message-signing'; senderConstraint: 'mtls' | 'dpop'; acr?: string[] };
}

export const SANDBOX_SECURITY: readonly SandboxSecurityInfo[] = [
  {
    name: 'fapi1-advanced',
    description: 'FAPI 1.0 Advanced as UK Open Banking runs it: a signed request object by value, response_type code id_token (the answer in the fragment, the ID token a detached signature), no PAR, no JARM; tokens bound to the client certificate (the sandbox serves TLS)',
    fapi: '1.0 Final', responseTypes: ['code id_token'], par: 'off', jarm: false, signedRequestObject: true, senderConstraint: 'mtls',
    // As UK TPPs ask it: the SCA acr, essential (the sandbox's sign-in reaches it).
    profile: { profile: 'fapi1-advanced', senderConstraint: 'mtls', acr: [SANDBOX_ACR] },
  },
  {
    name: 'fapi1-advanced-par-jarm',
    description: 'FAPI 1.0 Advanced with pushed authorization requests (required) and JARM: response_type code, response_mode jwt, PKCE S256; tokens bound to the client certificate (TLS)',
    fapi: '1.0 Final', responseTypes: ['code'], par: 'required', jarm: true, signedRequestObject: true, senderConstraint: 'mtls',
    profile: { profile: 'fapi1-advanced', senderConstraint: 'mtls' },
  },
  {
    name: 'fapi2-dpop',
    description: 'FAPI 2.0 Security Profile: PAR only, response_type code, PKCE S256, the iss response parameter; tokens bound by DPoP (the server demands a DPoP nonce)',
    fapi: '2.0', responseTypes: ['code'], par: 'required', jarm: false, signedRequestObject: false, senderConstraint: 'dpop',
    profile: { profile: 'fapi2', senderConstraint: 'dpop' },
  },
  {
    name: 'fapi2-mtls',
    description: 'FAPI 2.0 Security Profile with tokens bound to the client certificate (TLS): PAR only, response_type code, PKCE S256, the iss response parameter',
    fapi: '2.0', responseTypes: ['code'], par: 'required', jarm: false, signedRequestObject: false, senderConstraint: 'mtls',
    profile: { profile: 'fapi2', senderConstraint: 'mtls' },
  },
  {
    name: 'fapi2-message-signing',
    description: 'FAPI 2.0 Message Signing: a signed request object pushed (PAR only), JARM, PKCE S256; tokens bound by DPoP',
    fapi: '2.0', responseTypes: ['code'], par: 'required', jarm: true, signedRequestObject: true, senderConstraint: 'dpop',
    profile: { profile: 'fapi2-message-signing', senderConstraint: 'dpop' },
  },
];

export type SandboxSecurityName = 'fapi1-advanced' | 'fapi1-advanced-par-jarm' | 'fapi2-dpop' | 'fapi2-mtls' | 'fapi2-message-signing';

/** The set-up of a `--security` value; an unknown one is a usage error naming the valid ones. */
export function sandboxSecurity(name: string | undefined): SandboxSecurityInfo | undefined {
  if (name === undefined) return undefined;
  const found = SANDBOX_SECURITY.find((s) => s.name === name);
  if (!found) throw new UsageError(`unknown sandbox security profile "${name}"; valid: ${SANDBOX_SECURITY.map((s) => s.name).join(', ')}`, { hint: 'obtpp sandbox --list-security describes each' });
  return found;
}
