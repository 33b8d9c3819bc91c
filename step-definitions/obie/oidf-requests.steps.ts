// The OpenID Foundation's FAPI modules that judge the discovery document (SEC-16) and the
// authorisation requests a bank must refuse (SEC-17: request objects; SEC-19: the request itself;
// SEC-24: another client's consent). Nothing here opens a browser: each request is built by
// obtpp's own flow (openid-client; a request object signed with jose only where it must be broken),
// varied as the module says, and the bank's first answer says whether it refused.
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer } from '../support/judge.ts';
import { errorsOf, fapi, fapi2, judgeRefused, need, oneOf, probe, probes, profileWords, secondClient } from './oidf-support.ts';
import type { Auth, BeginOptions, ResolvedSecurity } from '../../src/auth/index.ts';
import { HttpError } from '../../src/errors.ts';

// ── SEC-16: the discovery document ─────────────────────────────────────────────────────────

const discovered = new WeakMap<ConformanceWorld, Record<string, unknown>>();

// "the bank's authorisation server runs a FAPI security profile" is SEC-14's step (security-profile.steps.ts).

When('the TPP reads the bank\'s discovery document', async function (this: ConformanceWorld) {
  const a = this.ctx.profile.auth;
  const url = a.discoveryUrl ?? `${a.issuer}/.well-known/openid-configuration`;
  try {
    const r = await this.lane.http.request('GET', url);
    this.last = { ...r, operation: 'createAccountAccessConsent' } as never;
    if (r.status !== 200 || !r.body || typeof r.body !== 'object') throw this.violation(`the discovery document (${url}) must be JSON with 200: ${describeAnswer(this.last!)}`);
    discovered.set(this, r.body as Record<string, unknown>);
  } catch (error) {
    if (error instanceof HttpError) throw this.violation(`the discovery document (${url}) gave no usable answer: ${error.message}`);
    throw error;
  }
});

Then('it names the issuer, its endpoints and keys, and the response types, algorithms and sender constraint its security profile needs', async function (this: ConformanceWorld) {
  const auth = await this.lane.auth();
  const s = auth.security;
  const d = discovered.get(this)!;
  const problems = discoveryProblems(d, s, this.ctx.profile.auth.issuer ?? auth.issuer, this.ctx.profile.auth.intentBinding.method);
  if (problems.length) throw this.violation([`the discovery document does not advertise what ${profileWords(s)} needs:`, ...problems.map((p) => `- ${p}`)]);
  this.attach(`${this.ruleId}: the discovery document advertises ${profileWords(s)}: ${s.responseType}${s.par ? ', PAR' : ''}, ${s.senderConstraint === 'none' ? 'no sender constraint' : s.senderConstraint}, ${s.clientAuth}`, 'text/plain');
});

/** What a FAPI bank's discovery must say (FAPI 1.0 Advanced 5.2.2, 8.6; FAPI 2.0 SP 5.3, 5.4; RFC 8414, RFC 9126, RFC 9207, RFC 9449). */
export function discoveryProblems(d: Record<string, unknown>, s: ResolvedSecurity, issuer: string, binding: string): string[] {
  const problems: string[] = [];
  const list = (k: string) => (Array.isArray(d[k]) ? (d[k] as unknown[]).filter((x): x is string => typeof x === 'string') : undefined);
  const secure = (k: string) => {
    const v = d[k];
    if (typeof v !== 'string') return problems.push(`${k} is missing`);
    try {
      const u = new URL(v);
      const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(u.hostname);
      if (u.protocol !== 'https:' && !loopback) problems.push(`${k} ${JSON.stringify(v)} is not https`);
    } catch {
      problems.push(`${k} ${JSON.stringify(v)} is not a URL`);
    }
    return 0;
  };
  if (d.issuer !== issuer) problems.push(`issuer is ${JSON.stringify(d.issuer)}, not ${issuer}`);
  for (const k of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) secure(k);
  const algs = fapi2(s) ? ['PS256', 'ES256', 'EdDSA'] : ['PS256', 'ES256'];
  const offersAlg = (k: string, what: string) => {
    const l = list(k);
    if (!l?.some((a) => algs.includes(a))) problems.push(`${k} ${l ? `lists ${l.join(', ') || 'nothing'}` : 'is missing'}: ${what} must be signable with ${algs.join(' or ')}`);
  };
  const types = list('response_types_supported');
  if (!types?.includes(s.responseType)) problems.push(`response_types_supported ${types ? `lists ${types.join(', ')}` : 'is missing'}, without ${s.responseType}`);
  if (list('scopes_supported') && !list('scopes_supported')!.includes('openid')) problems.push('scopes_supported does not list openid');
  offersAlg('id_token_signing_alg_values_supported', 'ID tokens');
  if (s.requestObject) offersAlg('request_object_signing_alg_values_supported', 'request objects');
  if (s.requestObject && !s.par && d.request_parameter_supported !== true) problems.push('request_parameter_supported is not true, and the profile sends request objects by value');
  const methods = list('token_endpoint_auth_methods_supported');
  if (methods && !methods.includes(s.clientAuth)) problems.push(`token_endpoint_auth_methods_supported lists ${methods.join(', ')}, without ${s.clientAuth}`);
  if (s.clientAuth === 'private_key_jwt') offersAlg('token_endpoint_auth_signing_alg_values_supported', 'client assertions');
  if (s.senderConstraint === 'mtls' && d.tls_client_certificate_bound_access_tokens !== true) problems.push('tls_client_certificate_bound_access_tokens is not true, and the profile binds tokens to the client certificate');
  if (s.senderConstraint === 'dpop' && !list('dpop_signing_alg_values_supported')?.some((a) => ['ES256', 'PS256', 'EdDSA'].includes(a))) problems.push('dpop_signing_alg_values_supported lists no ES256, PS256 or EdDSA, and the profile binds tokens by DPoP');
  if (s.par) secure('pushed_authorization_request_endpoint');
  if (fapi2(s)) {
    if (d.require_pushed_authorization_requests !== true) problems.push('require_pushed_authorization_requests is not true (FAPI 2.0 takes authorization requests only pushed)');
    if (d.authorization_response_iss_parameter_supported !== true) problems.push('authorization_response_iss_parameter_supported is not true (FAPI 2.0: RFC 9207)');
    if (!list('code_challenge_methods_supported')?.includes('S256')) problems.push('code_challenge_methods_supported does not list S256 (FAPI 2.0: PKCE with S256)');
  }
  if (s.responseMode.endsWith('jwt')) {
    if (!list('response_modes_supported')?.includes(s.responseMode)) problems.push(`response_modes_supported does not list ${s.responseMode} (JARM)`);
    offersAlg('authorization_signing_alg_values_supported', 'JARM responses');
  }
  // UK Open Banking: the intent id travels in the claims parameter, and the acr asked is one the bank reaches.
  if ((binding === 'claims' || binding === 'request-object') && d.claims_parameter_supported !== true) problems.push('claims_parameter_supported is not true, and the consent is bound through the claims parameter (openbanking_intent_id)');
  for (const acr of s.acr ?? []) if (!list('acr_values_supported')?.includes(acr)) problems.push(`acr_values_supported does not list ${acr}, which the profile asks for as essential`);
  return problems;
}

// ── SEC-17: request objects FAPI forbids ───────────────────────────────────────────────────

Given('the bank\'s authorisation server takes signed request objects under a FAPI security profile', async function (this: ConformanceWorld) {
  const auth = await fapi(this);
  need(this, auth.security.requestObject, `the bank's security profile (${profileWords(auth.security)}) sends no request object: the parameters are ${auth.security.par ? 'pushed as they are' : 'sent as they are'} (FAPI 2.0 without Message Signing), so there is no request object to judge`);
  need(this, auth.canSignRequestObjects, 'the profile has no key to sign request objects (auth.clientAuth.privateKey)');
});

const now = () => Math.floor(Date.now() / 1000);
const PUSHED_URI = 'urn:ietf:params:oauth:request_uri:obtpp-never-pushed';

/** Each defect of a request object: the variation, and the footing it needs beyond request objects. */
const RO_DEFECTS: Record<string, (world: ConformanceWorld, auth: Auth) => BeginOptions> = {
  'without nbf': () => ({ vary: { claims: { nbf: null } } }),
  'without scope': () => ({ vary: { omit: ['scope'] } }),
  'without nonce': (world, auth) => {
    need(world, auth.security.profile === 'fapi1-advanced', `FAPI 1.0 Advanced requires a nonce of a request for the openid scope (5.2.2.2); FAPI 2.0 leaves it optional, and the bank runs ${profileWords(auth.security)}`);
    return { vary: { omit: ['nonce'] } };
  },
  'whose aud is not the authorisation server': () => ({ vary: { claims: { aud: 'https://not-the-authorisation-server.invalid' } } }),
  'whose exp is more than 60 minutes after nbf': () => ({ vary: { claims: { nbf: now(), exp: now() + 65 * 60 } } }),
  'whose nbf is more than 60 minutes in the past': () => ({ vary: { claims: { iat: now() - 65 * 60, nbf: now() - 65 * 60, exp: now() + 300 } } }),
  'signed with RS256': (world) => {
    const key = world.ctx.profile.auth.clientAuth.privateKey ?? '';
    need(world, !/"kty"\s*:\s*"(EC|OKP)"/.test(key), 'the client\'s key is not an RSA key, so no RS256 request object can be signed with it');
    return { vary: { signature: 'RS256' } };
  },
  'whose signature does not verify': () => ({ vary: { signature: 'broken' } }),
  'signed with a key the client never registered': () => ({ vary: { signature: 'unregistered-key' } }),
  'carrying a request_uri, pushed': (world, auth) => {
    need(world, auth.security.par, 'the bank\'s security profile sends request objects by value: a request_uri inside a pushed request object has nothing to judge');
    return { vary: { claims: { request_uri: PUSHED_URI } } };
  },
  'left out, the parameters pushed unsigned': (world, auth) => {
    need(world, auth.security.profile === 'fapi2-message-signing' && auth.security.par, `FAPI 2.0 Message Signing requires a signed request object at the pushed-request endpoint; the bank runs ${profileWords(auth.security)}`);
    return { flow: { requestObject: false } };
  },
};

When(new RegExp(`^the TPP sends the PSU to the bank for the consent "([^"]+)" with a request object ${oneOf(Object.keys(RO_DEFECTS))}$`), async function (this: ConformanceWorld, name: string, defect: string) {
  const make = RO_DEFECTS[defect];
  if (!make) throw new Error(`no such request-object defect: ${defect}`);
  const auth = await this.lane.auth();
  const options = make(this, auth);
  probes.set(this, { probe: await probe(this, this.consents.get(name)!, options), what: `a request object ${defect}` });
});

Then('the bank refuses it with invalid_request_object or invalid_request, before any login page', function (this: ConformanceWorld) {
  const { probe: p, what } = probes.get(this)!;
  judgeRefused(this, p, ['invalid_request_object', 'invalid_request'], what);
});

// ── SEC-19: authorisation requests the profile forbids ─────────────────────────────────────

/** The unregistered redirect URI a request names: the registered one with a path appended (the module's own choice). */
function unregistered(redirectUri: string): string {
  const u = new URL(redirectUri);
  u.pathname = `${u.pathname.replace(/\/$/, '')}/obtpp-never-registered`;
  return u.href;
}

const REQUEST_DEFECTS: Record<string, (world: ConformanceWorld, s: ResolvedSecurity) => BeginOptions> = {
  'of response_type=code without JARM': (world, s) => {
    need(world, s.profile === 'fapi1-advanced', `response_type=code without JARM is refused by FAPI 1.0 Advanced (5.2.2-2); the bank runs ${profileWords(s)}, where code is the flow`);
    return { flow: { responseType: 'code', responseMode: 'query' } };
  },
  'of response_type=code id_token': (world, s) => {
    need(world, fapi2(s), `FAPI 2.0 takes only response_type=code; the bank runs ${profileWords(s)}`);
    return { flow: { responseType: 'code id_token', responseMode: 'fragment' } };
  },
  'of response_type=token': (world, s) => {
    need(world, fapi2(s), `FAPI 2.0 takes only response_type=code; the bank runs ${profileWords(s)}`);
    return { vary: { set: { response_type: 'token' } }, flow: { responseMode: 'fragment' } };
  },
  'without a request object': (world, s) => {
    need(world, s.profile === 'fapi1-advanced', `FAPI 1.0 Advanced requires a signed request object (5.2.2-1); the bank runs ${profileWords(s)}`);
    return { flow: { requestObject: false } };
  },
  'sent by value, not pushed': (world, s) => {
    need(world, fapi2(s), `FAPI 2.0 takes authorization requests only pushed (5.3.2.2); the bank runs ${profileWords(s)}`);
    return { par: false, flow: { requestObject: false } };
  },
  'without a redirect_uri': () => ({ vary: { omit: ['redirect_uri'] } }),
  'whose redirect_uri is only outside its request object or pushed request': (world, s) => {
    need(world, s.requestObject || s.par, 'the profile sends its parameters on the authorization URL itself (no request object, not pushed): there is no outside to put the redirect_uri in');
    return { vary: { outsideOnly: ['redirect_uri'] } };
  },
  'with a redirect_uri the client never registered': (world) => ({ vary: { set: { redirect_uri: unregistered(world.ctx.profile.auth.redirectUri) } } }),
};

When(new RegExp(`^the TPP sends the PSU to the bank for the consent "([^"]+)" with an authorisation request ${oneOf(Object.keys(REQUEST_DEFECTS))}$`), async function (this: ConformanceWorld, name: string, defect: string) {
  const make = REQUEST_DEFECTS[defect];
  if (!make) throw new Error(`no such authorisation-request defect: ${defect}`);
  const auth = await this.lane.auth();
  const options = make(this, auth.security);
  probes.set(this, { probe: await probe(this, this.consents.get(name)!, options), what: `an authorisation request ${defect}` });
});

Then(/^the bank refuses it with (.+), and sends the PSU to no redirect URI it was not given$/, async function (this: ConformanceWorld, errors: string) {
  const { probe: p, what } = probes.get(this)!;
  const s = (await this.lane.auth()).security;
  const unregisteredRow = /never registered/.test(what);
  // RFC 9126 §2.4: a bank may take an unregistered redirect URI in an authenticated client's pushed request (FAPI 2.0 tolerates it).
  if (unregisteredRow && !p.refused && fapi2(s) && s.par) {
    this.attach(`${this.ruleId}: the bank took a redirect_uri the client never registered in a pushed request, as RFC 9126 §2.4 allows an authenticated client's (FAPI 2.0: tolerated); it went on: ${p.wentOn}`, 'text/plain');
    return;
  }
  // A redirect URI the request did not name is never where an error about that request goes.
  if (unregisteredRow && p.refused?.location) {
    throw this.violation(`the bank must show an error for a redirect_uri the client never registered, never redirect (RFC 6749 §3.1.2.4, §4.1.2.1), but it sent the PSU to ${new URL(p.refused.location).origin}${new URL(p.refused.location).pathname} with ${p.refused.error}`);
  }
  judgeRefused(this, p, errorsOf(errors), what);
});

// ── SEC-24: the consent of another client ──────────────────────────────────────────────────

Given('the bank binds the authorisation to the consent named in openbanking_intent_id', async function (this: ConformanceWorld) {
  await fapi(this);
  const binding = this.ctx.profile.auth.intentBinding.method;
  need(this, binding === 'claims' || binding === 'request-object', `the profile binds the consent by ${binding}, not through the openbanking_intent_id claim as UK Open Banking does`);
});

When('another client of the TPP sends the PSU to the bank naming the consent {string}', async function (this: ConformanceWorld, name: string) {
  const second = await secondClient(this);
  probes.set(this, { probe: await probe(this, this.consents.get(name)!, {}, second), what: `another client's authorisation request naming consent ${this.consents.get(name)!.id}` });
});

// Its Then is the general "the bank refuses it with …" (oidf-flows.steps.ts).
