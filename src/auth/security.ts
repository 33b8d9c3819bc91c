/**
 * The security profile the bank's authorisation server runs, resolved once per discovery into one
 * object that every flow step reads: which response type and mode, by value or pushed, a request
 * object or not, PKCE, how tokens are sender-constrained, client authentication, whether the `iss`
 * response parameter is required, the essential `acr`. Each field comes from the profile's
 * `security` block where it says so, else from the security profile it names, else from the bank's
 * discovery document (FACTS-security §1–§4); `from` records which, for the report.
 *
 * A choice the bank's discovery says it does not serve (a response type it does not list, DPoP it
 * does not offer, PAR without a PAR endpoint) is a {@link FlowRefusedError}: obtpp cannot run its
 * own flow there, which is a set-up error naming the profile field to change, never a bank failure.
 */
import type { ServerMetadata } from 'openid-client';
import { FlowRefusedError, ProfileError } from '../errors.ts';
import type { ClientAuthMethod, Profile, ResponseMode, SecurityProfileName, SecuritySettings, SenderConstraint } from '../profile/types.ts';

export { FlowRefusedError } from '../errors.ts';

/** What one authorisation asks of the bank's authorisation server, decided. */
export interface ResolvedSecurity {
  profile: SecurityProfileName;
  responseType: 'code' | 'code id_token';
  responseMode: ResponseMode;
  /** The request is pushed (RFC 9126) and the PSU's URL carries only its request_uri. */
  par: boolean;
  /** The parameters travel in a signed request object (JAR). */
  requestObject: boolean;
  /** `plain` only where one request varies it on purpose (SEC-13). */
  pkce: 'S256' | 'plain' | 'none';
  senderConstraint: SenderConstraint;
  clientAuth: ClientAuthMethod;
  /** The authorization response must carry `iss` (RFC 9207), compared with the issuer before the code is used. */
  issParameter: boolean;
  /** acr values asked for as essential; the ID token must carry one. */
  acr?: string[];
  /** The DPoP proofs' alg (senderConstraint dpop). */
  dpopAlg?: 'ES256' | 'PS256' | 'EdDSA';
  /** The JWS algorithms the ID tokens (and JARM responses) may be signed with; absent: whatever the bank advertises. */
  signingAlgs?: string[];
  /** Where each decided field came from: `security.<field>`, `auth.par`, the security profile, or the bank's discovery. */
  from: Record<string, string>;
  /** What the resolution had to settle that the user may want to know (one line each). */
  notes: string[];
}

/** The fields of a resolved security profile a profile may override, in the order the report lists them. */
export const SECURITY_FIELDS = ['responseType', 'responseMode', 'par', 'requestObject', 'pkce', 'senderConstraint', 'issParameter', 'acr', 'dpopAlg'] as const;

const NAMES: Record<SecurityProfileName, string> = {
  'fapi1-advanced': 'FAPI 1.0 Advanced',
  fapi2: 'FAPI 2.0 Security Profile',
  'fapi2-message-signing': 'FAPI 2.0 Message Signing',
  oauth2: 'OAuth 2.0 authorization code with PKCE',
};

/** FAPI's signing algorithms: PS256 and ES256 (FAPI 1.0 Advanced 8.6), and EdDSA in FAPI 2.0. */
const FAPI1_ALGS = ['PS256', 'ES256'];
const FAPI2_ALGS = ['PS256', 'ES256', 'EdDSA'];
const DPOP_ALGS = ['ES256', 'PS256', 'EdDSA'] as const;

export interface ResolveContext {
  /** The profile gives a TLS client certificate (mtls.cert and mtls.key). */
  clientCertificate: boolean;
  /** The profile gives a key to sign request objects with. */
  canSign: boolean;
  /** The bank's PAR endpoint, when its discovery advertises one. */
  parEndpoint?: string;
}

/**
 * Resolves the profile's `security` against the bank's discovery. Throws ProfileError (exit 2) for
 * a choice the profile itself cannot back (a request object without a key, mTLS without a
 * certificate), FlowRefusedError (exit 3) for one the bank's discovery says it does not serve.
 */
export function resolveSecurity(profile: Profile, meta: ServerMetadata, ctx: ResolveContext): ResolvedSecurity {
  const r = resolution(profile.security ?? {}, meta, ctx);
  const name = securityProfileOf(profile, r);
  const flow = flowOf(profile, name, r);
  const { senderConstraint, issParameter, acr, dpopAlg } = bindingOf(name, r);
  const resolved: ResolvedSecurity = {
    profile: name, ...flow, senderConstraint,
    clientAuth: profile.auth.clientAuth.method, issParameter,
    ...(acr ? { acr } : {}), ...(dpopAlg ? { dpopAlg } : {}),
    ...(name === 'oauth2' ? {} : { signingAlgs: isFapi2(name) ? FAPI2_ALGS : FAPI1_ALGS }),
    from: r.from, notes: r.notes,
  };
  checkProfileBacks(resolved, ctx);
  checkBankServes(resolved, meta, ctx);
  return resolved;
}

/** A resolution under way: what it reads (the profile's settings, the discovery, the context) and what it records (each field's source, the notes). */
interface Resolution {
  settings: SecuritySettings;
  meta: ServerMetadata;
  ctx: ResolveContext;
  from: Record<string, string>;
  notes: string[];
  /** Whether the discovery's list names the value; undefined when the discovery gives no such list. */
  lists(field: keyof ServerMetadata, value: string): boolean | undefined;
  /** A field: the profile's own when it gives one, else what the security profile or the discovery decides; its source recorded either way. */
  pick<K extends keyof SecuritySettings>(field: K, byProfile: () => [NonNullable<SecuritySettings[K]>, string]): NonNullable<SecuritySettings[K]>;
}

function resolution(settings: SecuritySettings, meta: ServerMetadata, ctx: ResolveContext): Resolution {
  const from: Record<string, string> = {};
  return {
    settings, meta, ctx, from, notes: [],
    lists(field, value) {
      const listed = meta[field];
      return Array.isArray(listed) ? listed.includes(value) : undefined;
    },
    pick(field, byProfile) {
      if (settings[field] !== undefined) {
        from[field] = `security.${field}`;
        return settings[field] as NonNullable<SecuritySettings[typeof field]>;
      }
      const [value, why] = byProfile();
      from[field] = why;
      return value;
    },
  };
}

const isFapi2 = (name: SecurityProfileName): boolean => name === 'fapi2' || name === 'fapi2-message-signing';

/** The security profile: the profile's, else the UK's where the bank serves it, else what the discovery shows. */
function securityProfileOf(profile: Profile, r: Resolution): SecurityProfileName {
  const { settings: s, meta, ctx, from } = r;
  const hybridOffered = r.lists('response_types_supported', 'code id_token');
  const codeOffered = r.lists('response_types_supported', 'code');
  if (s.profile) {
    from.profile = 'security.profile';
    return s.profile;
  }
  if (profile.standard && hybridOffered !== false && ctx.canSign) {
    from.profile = `standard ${profile.standard} (UK Open Banking runs FAPI 1.0 Advanced)`;
    return 'fapi1-advanced';
  }
  if (meta.require_pushed_authorization_requests === true) {
    from.profile = 'discovery (require_pushed_authorization_requests)';
    return 'fapi2';
  }
  if (hybridOffered === true && codeOffered === false && ctx.canSign) {
    from.profile = 'discovery (response_types_supported offers code id_token, not code)';
    return 'fapi1-advanced';
  }
  from.profile = 'default';
  if (profile.standard && hybridOffered !== false && !ctx.canSign) {
    r.notes.push(`standard ${profile.standard} would default to FAPI 1.0 Advanced, but the profile has no key to sign request objects (auth.clientAuth.privateKey): obtpp asks response_type=code with PKCE`);
  }
  return 'oauth2';
}

/** How the authorisation request travels and comes back: response type and mode, pushed or not, a request object, PKCE. */
function flowOf(profile: Profile, name: SecurityProfileName, r: Resolution): Pick<ResolvedSecurity, 'responseType' | 'responseMode' | 'par' | 'requestObject' | 'pkce'> {
  const { meta, ctx } = r;
  const hybridOffered = r.lists('response_types_supported', 'code id_token');
  const responseType = r.pick('responseType', () => {
    if (name !== 'fapi1-advanced') return ['code', name];
    if (hybridOffered !== false) return ['code id_token', `${name}${hybridOffered ? '' : ' (the discovery lists no response types)'}`];
    return ['code', `${name} (discovery offers no code id_token: code with JARM)`];
  });
  const responseMode = r.pick('responseMode', () => {
    if (responseType === 'code id_token') return ['fragment', 'the hybrid flow'];
    if (name === 'fapi1-advanced' || name === 'fapi2-message-signing') return ['jwt', `${name} (JARM)`];
    return ['query', name];
  });
  const par = r.pick('par', () => {
    if (isFapi2(name)) return [true, name];
    if (name === 'fapi1-advanced') {
      return meta.require_pushed_authorization_requests === true ? [true, 'discovery (require_pushed_authorization_requests)'] : [false, `${name} (by value, as the UK runs it)`];
    }
    const p = profile.auth.par;
    return [p === 'always' || (p === 'auto' && ctx.parEndpoint !== undefined), `auth.par (${p})`];
  });
  const requestObject = r.pick('requestObject', () => {
    if (profile.auth.intentBinding.method === 'request-object') return [true, 'auth.intentBinding (request-object)'];
    return [name === 'fapi1-advanced' || name === 'fapi2-message-signing', name];
  });
  const pkce = r.pick('pkce', () => {
    if (name !== 'fapi1-advanced' || par) return ['S256', par && name === 'fapi1-advanced' ? `${name} with PAR` : name];
    return r.lists('code_challenge_methods_supported', 'S256') === false || meta.code_challenge_methods_supported === undefined
      ? ['none', 'discovery (no S256 in code_challenge_methods_supported)']
      : ['S256', 'discovery (code_challenge_methods_supported)'];
  });
  return { responseType, responseMode, par, requestObject, pkce };
}

/** What the tokens and the answer are bound to: the sender constraint (and DPoP's alg), the iss parameter, the essential acr. */
function bindingOf(name: SecurityProfileName, r: Resolution): Pick<ResolvedSecurity, 'senderConstraint' | 'issParameter' | 'acr' | 'dpopAlg'> {
  const { settings: s, meta, ctx, from } = r;
  const fapi2 = isFapi2(name);
  const dpopOffered = Array.isArray(meta.dpop_signing_alg_values_supported) && meta.dpop_signing_alg_values_supported.length > 0;
  const boundToCertificate = meta.tls_client_certificate_bound_access_tokens === true;
  const senderConstraint = r.pick('senderConstraint', () => {
    if (ctx.clientCertificate && boundToCertificate) return ['mtls', 'discovery (tls_client_certificate_bound_access_tokens) and the profile\'s client certificate'];
    if (fapi2 && dpopOffered) return ['dpop', 'discovery (dpop_signing_alg_values_supported)'];
    if (name !== 'oauth2' && !ctx.clientCertificate && !dpopOffered) r.notes.push(`${NAMES[name]} asks for sender-constrained tokens, but the bank's discovery offers neither certificate-bound tokens to a client certificate of the profile nor DPoP: its tokens are bearer tokens`);
    return ['none', 'discovery'];
  });
  const issParameter = r.pick('issParameter', () => (fapi2 ? [true, name] : [meta.authorization_response_iss_parameter_supported === true, 'discovery (authorization_response_iss_parameter_supported)']));
  const acr = s.acr ? (from.acr = 'security.acr', [...s.acr]) : undefined;
  let dpopAlg: ResolvedSecurity['dpopAlg'];
  if (senderConstraint === 'dpop') {
    const offered = (meta.dpop_signing_alg_values_supported ?? []) as string[];
    dpopAlg = r.pick('dpopAlg', () => [DPOP_ALGS.find((a) => offered.includes(a)) ?? 'ES256', 'discovery (dpop_signing_alg_values_supported)']);
  }
  return { senderConstraint, issParameter, acr, dpopAlg };
}

/** What the profile itself must give for the resolved choices: a signing key, a client certificate. */
function checkProfileBacks(r: ResolvedSecurity, ctx: ResolveContext): void {
  if (r.requestObject && !ctx.canSign) {
    throw new ProfileError(`$.auth.clientAuth.privateKey: ${NAMES[r.profile]} sends a signed request object (${r.from.requestObject}), and the profile gives no key to sign it`, ['$.auth.clientAuth.privateKey'], {
      hint: 'give auth.clientAuth.privateKey (or privateKeyFile) and kid, or set security.requestObject: false',
    });
  }
  if (r.senderConstraint === 'mtls' && !ctx.clientCertificate) {
    throw new ProfileError('$.mtls: security.senderConstraint mtls binds the tokens to the TLS client certificate, and the profile gives none', ['$.mtls'], {
      hint: 'give mtls.certFile and mtls.keyFile, or set security.senderConstraint to dpop or none',
    });
  }
}

/** What the bank's discovery says it does not serve: a refusal of obtpp's own flow, before anything is sent. */
function checkBankServes(r: ResolvedSecurity, meta: ServerMetadata, ctx: ResolveContext): void {
  const issuer = meta.issuer;
  const listed = (field: keyof ServerMetadata) => (Array.isArray(meta[field]) ? (meta[field] as string[]) : undefined);
  const types = listed('response_types_supported');
  if (types && !types.includes(r.responseType)) {
    throw new FlowRefusedError('security.responseType', `the bank's authorisation server (${issuer}) does not offer response_type=${r.responseType} (${r.from.responseType}); its discovery offers ${types.join(', ')}${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`);
  }
  const modes = listed('response_modes_supported');
  if (modes && r.responseMode.endsWith('jwt') && !modes.includes(r.responseMode)) {
    throw new FlowRefusedError('security.responseMode', `the bank's authorisation server (${issuer}) does not offer response_mode=${r.responseMode} (JARM; ${r.from.responseMode}); its discovery offers ${modes.join(', ')}`);
  }
  if (r.par && !ctx.parEndpoint) {
    throw new FlowRefusedError(r.from.par?.startsWith('auth.par') ? 'auth.par' : 'security.par', `the bank's authorisation server (${issuer}) advertises no pushed_authorization_request_endpoint, and ${NAMES[r.profile]} pushes its requests (${r.from.par})`);
  }
  if (!r.par && meta.require_pushed_authorization_requests === true) {
    throw new FlowRefusedError(r.from.par?.startsWith('auth.par') ? 'auth.par' : 'security.par', `the bank's authorisation server (${issuer}) requires pushed authorization requests (require_pushed_authorization_requests), and the profile sends them by value (${r.from.par})`);
  }
  if (r.pkce === 'S256' && listed('code_challenge_methods_supported') && !listed('code_challenge_methods_supported')!.includes('S256')) {
    throw new FlowRefusedError('security.pkce', `the bank's authorisation server (${issuer}) does not offer PKCE S256 (code_challenge_methods_supported: ${listed('code_challenge_methods_supported')!.join(', ') || 'none'})`);
  }
  if (r.senderConstraint === 'dpop') {
    const algs = listed('dpop_signing_alg_values_supported');
    if (!algs?.length) throw new FlowRefusedError('security.senderConstraint', `the bank's authorisation server (${issuer}) offers no DPoP (its discovery has no dpop_signing_alg_values_supported), and the profile asks for DPoP-bound tokens (${r.from.senderConstraint})`);
    if (r.dpopAlg && !algs.includes(r.dpopAlg)) throw new FlowRefusedError('security.dpopAlg', `the bank's authorisation server (${issuer}) takes DPoP proofs signed with ${algs.join(', ')}, not ${r.dpopAlg}`);
  }
  if (r.senderConstraint === 'mtls' && meta.tls_client_certificate_bound_access_tokens === false) {
    throw new FlowRefusedError('security.senderConstraint', `the bank's authorisation server (${issuer}) does not bind tokens to client certificates (tls_client_certificate_bound_access_tokens: false), and the profile asks for mTLS-bound tokens (${r.from.senderConstraint})`);
  }
  if (r.requestObject && !r.par && meta.request_parameter_supported === false) {
    throw new FlowRefusedError('security.requestObject', `the bank's authorisation server (${issuer}) takes no request objects by value (request_parameter_supported: false)`);
  }
}

/** The security profile in one line, for the console and the report. */
export function describeSecurity(r: ResolvedSecurity): string {
  const parts = [
    `response_type=${r.responseType}${r.responseMode === 'query' ? '' : ` (${r.responseMode.endsWith('jwt') ? `JARM, response_mode=${r.responseMode}` : 'in the fragment'})`}`,
    r.par ? `pushed (PAR)${r.requestObject ? ' as a signed request object' : ''}` : r.requestObject ? 'a signed request object by value' : 'by value',
    r.pkce === 'S256' ? 'PKCE S256' : 'no PKCE',
    ...(r.issParameter ? ['iss checked (RFC 9207)'] : []),
    r.senderConstraint === 'mtls' ? 'tokens bound to the client certificate (mTLS)' : r.senderConstraint === 'dpop' ? `tokens bound by DPoP (${r.dpopAlg ?? 'ES256'})` : 'bearer tokens',
    `client auth ${r.clientAuth}`,
    ...(r.acr ? [`acr ${r.acr.join(' or ')} essential`] : []),
  ];
  return `${NAMES[r.profile]} (${r.profile}): ${parts.join(', ')}`;
}

/** The resolved security profile as the report's summary keeps it (no secrets: only choices and their sources). */
export function securitySummary(r: ResolvedSecurity): Record<string, unknown> {
  const { from, notes, signingAlgs: _a, ...choices } = r;
  return { ...choices, description: describeSecurity(r), from, ...(notes.length ? { notes } : {}) };
}

/**
 * The profile field a refusal of obtpp's own flow points at, when the bank's answer is one (an OAuth
 * error code and its description, or obtpp's own check of the answer): a response type or mode the
 * server does not serve, DPoP or a client certificate it wants and did not get (or got and does not
 * take), PAR or a request object it requires, PKCE, the iss parameter. Undefined: not a refusal of
 * the flow (a verdict for the rules to give, or another set-up error).
 */
export function refusedField(oauthError: string, text: string): string | undefined {
  if (oauthError === 'unsupported_response_type') return 'security.responseType';
  if (oauthError === 'unsupported_response_mode') return 'security.responseMode';
  if (oauthError === 'invalid_dpop_proof' || oauthError === 'use_dpop_nonce' || /\bDPoP\b/.test(text)) return 'security.senderConstraint';
  if (/mutual TLS client certificate|certificate[- ]bound/i.test(text)) return 'security.senderConstraint';
  if (oauthError === 'invalid_request' || oauthError === 'invalid_request_object' || oauthError === 'invalid_response') {
    if (/response_mode/.test(text)) return 'security.responseMode';
    if (/response_type/.test(text)) return 'security.responseType';
    if (/pushed authorization request|request_uri/i.test(text) && /(must|required|only)/i.test(text)) return 'security.par';
    if (/request object/i.test(text) && /(must|required|signed)/i.test(text)) return 'security.requestObject';
    if (/"iss" \(issuer\)|iss \(RFC 9207\)/.test(text) && /missing/.test(text)) return 'security.issParameter';
    if (/PKCE|code_challenge/.test(text)) return 'security.pkce';
  }
  return undefined;
}
