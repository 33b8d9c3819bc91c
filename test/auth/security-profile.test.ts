/**
 * The profile's `security` field and its resolution against a bank's discovery (src/auth/security.ts),
 * without a bank: what each security profile implies, what the UK standard and the discovery
 * default, that a field of the profile wins, that a choice the profile cannot back is a profile
 * error (exit 2) and one the bank's discovery says it does not serve a refusal naming the field to
 * change (exit 3), and which of a bank's refusals of obtpp's own flow name which field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerMetadata } from 'openid-client';
import { profileFromObject } from '../../src/profile/load.ts';
import { describeSecurity, refusedField, resolveSecurity, type ResolveContext } from '../../src/auth/security.ts';
import { ExitCode, FlowRefusedError, ProfileError } from '../../src/errors.ts';
import { setupProblemOf } from '../../src/conformance/setup-check.ts';
import { AuthorisationError } from '../../src/errors.ts';

function raw(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'a bank',
    standard: 'uk-3.1',
    baseUrl: 'https://ob.bank.example/open-banking/v3.1',
    auth: { issuer: 'https://as.bank.example', clientId: 'c', clientAuth: { method: 'private_key_jwt', privateKey: 'unused-here', kid: 'k' }, redirectUri: 'https://tpp.example/cb' },
    psu: { username: 'u', password: 'p4ssword', driver: { kind: 'sandbox' } },
    ...over,
  };
}

const profile = (over: Record<string, unknown> = {}) => profileFromObject(raw(over), { source: 'test.yaml', env: {} });

/** A UK bank's discovery: FAPI 1.0 Advanced by value, certificate-bound tokens, no PAR. */
const UK: ServerMetadata = {
  issuer: 'https://as.bank.example', authorization_endpoint: 'https://as.bank.example/auth', token_endpoint: 'https://as.bank.example/token',
  response_types_supported: ['code id_token'], code_challenge_methods_supported: ['S256'], tls_client_certificate_bound_access_tokens: true,
  request_parameter_supported: true,
};
/** A FAPI 2.0 bank's discovery: PAR only, code, DPoP, iss. */
const FAPI2: ServerMetadata = {
  issuer: 'https://as.bank.example', authorization_endpoint: 'https://as.bank.example/auth', token_endpoint: 'https://as.bank.example/token',
  pushed_authorization_request_endpoint: 'https://as.bank.example/par', require_pushed_authorization_requests: true,
  response_types_supported: ['code'], code_challenge_methods_supported: ['S256'], dpop_signing_alg_values_supported: ['PS256', 'ES256'],
  authorization_response_iss_parameter_supported: true,
};
const signed: ResolveContext = { clientCertificate: true, canSign: true };

test('a UK-standard profile defaults to FAPI 1.0 Advanced as the UK runs it: code id_token in the fragment, a request object by value, mTLS-bound tokens', async () => {
  const s = resolveSecurity(await profile(), UK, signed);
  assert.equal(s.profile, 'fapi1-advanced');
  assert.deepEqual([s.responseType, s.responseMode, s.par, s.requestObject, s.pkce, s.senderConstraint], ['code id_token', 'fragment', false, true, 'S256', 'mtls']);
  assert.deepEqual(s.signingAlgs, ['PS256', 'ES256']);
  assert.match(s.from.profile!, /standard uk-3\.1/);
  assert.match(describeSecurity(s), /^FAPI 1\.0 Advanced \(fapi1-advanced\): response_type=code id_token \(in the fragment\), a signed request object by value/);
});

test('a bank whose discovery requires PAR defaults to FAPI 2.0; DPoP where it offers DPoP and the profile has no client certificate', async () => {
  const s = resolveSecurity(await profile({ standard: undefined, variants: ['A'] }), FAPI2, { clientCertificate: false, canSign: true, parEndpoint: FAPI2.pushed_authorization_request_endpoint });
  assert.equal(s.profile, 'fapi2');
  assert.deepEqual([s.responseType, s.responseMode, s.par, s.requestObject, s.pkce, s.senderConstraint, s.issParameter, s.dpopAlg], ['code', 'query', true, false, 'S256', 'dpop', true, 'ES256']);
});

test('the profile\'s own fields win over the security profile and the discovery', async () => {
  const s = resolveSecurity(await profile({ security: { profile: 'fapi1-advanced', responseType: 'code', responseMode: 'query.jwt', par: true, acr: ['urn:openbanking:psd2:sca'] } }),
    { ...UK, response_types_supported: ['code', 'code id_token'], response_modes_supported: ['query', 'fragment', 'jwt', 'query.jwt'], pushed_authorization_request_endpoint: 'https://as.bank.example/par' },
    { ...signed, parEndpoint: 'https://as.bank.example/par' });
  assert.deepEqual([s.responseType, s.responseMode, s.par, s.pkce], ['code', 'query.jwt', true, 'S256']);
  assert.equal(s.from.responseMode, 'security.responseMode');
  assert.deepEqual(s.acr, ['urn:openbanking:psd2:sca']);
});

test('what the bank\'s discovery says it does not serve is refused before anything is sent: exit 3, naming the field to change', async () => {
  const cases: Array<[Record<string, unknown>, ServerMetadata, string]> = [
    // The bank: a UK server that offers only code id_token, asked for code with PKCE.
    [{ security: 'oauth2' }, UK, 'security.responseType'],
    [{ security: { profile: 'fapi2', senderConstraint: 'dpop' } }, { ...FAPI2, dpop_signing_alg_values_supported: undefined }, 'security.senderConstraint'],
    [{ security: { profile: 'fapi1-advanced', par: false } }, { ...FAPI2, response_types_supported: ['code id_token'] }, 'security.par'],
    [{ security: { profile: 'fapi1-advanced', responseType: 'code' } }, { ...UK, response_types_supported: ['code'], response_modes_supported: ['query', 'fragment'] }, 'security.responseMode'],
  ];
  for (const [over, meta, field] of cases) {
    const p = await profile(over);
    assert.throws(() => resolveSecurity(p, meta, { ...signed, ...(meta.pushed_authorization_request_endpoint ? { parEndpoint: meta.pushed_authorization_request_endpoint } : {}) }), (error: unknown) => {
      assert.ok(error instanceof FlowRefusedError, String(error));
      assert.equal(error.exitCode, ExitCode.cannotRun);
      assert.equal(error.field, field);
      assert.match(error.message, new RegExp(`^set-up error, nothing was judged: ${field.replace('.', '\\.')}: `));
      return true;
    }, `${JSON.stringify(over)} → ${field}`);
  }
});

test('a choice the profile itself cannot back is a profile error (exit 2): a request object without a key, mTLS without a certificate', async () => {
  const keyless = await profile({ auth: { ...(raw().auth as object), clientAuth: { method: 'client_secret_post', secret: 's3cret-value' } }, security: 'fapi1-advanced' });
  assert.throws(() => resolveSecurity(keyless, UK, { clientCertificate: true, canSign: false }), (e: unknown) => e instanceof ProfileError && /auth\.clientAuth\.privateKey/.test(e.message));
  const mtls = await profile({ security: { profile: 'fapi2', senderConstraint: 'mtls' } });
  assert.throws(() => resolveSecurity(mtls, FAPI2, { clientCertificate: false, canSign: true, parEndpoint: 'x' }), (e: unknown) => e instanceof ProfileError && /\$\.mtls/.test(e.message));
  // Without a key and without a word from the profile, a UK profile falls back to code with PKCE, and says why.
  const unsaid = await profile({ auth: (raw().auth as Record<string, unknown>) && { ...(raw().auth as object), clientAuth: { method: 'client_secret_post', secret: 's3cret-value' } } });
  const fallback = resolveSecurity(unsaid, { ...UK, response_types_supported: ['code', 'code id_token'] }, { clientCertificate: false, canSign: false });
  assert.equal(fallback.profile, 'oauth2');
  assert.match(fallback.notes.join(), /no key to sign request objects/);
});

test('the security field: a name or an object, checked at load', async () => {
  assert.deepEqual((await profile({ security: 'fapi2' })).security, { profile: 'fapi2' });
  assert.deepEqual((await profile({ security: { profile: 'fapi2', senderConstraint: 'dpop' } })).security, { profile: 'fapi2', senderConstraint: 'dpop' });
  const bad = async (security: unknown) => {
    try {
      await profile({ security });
    } catch (error) {
      assert.ok(error instanceof ProfileError);
      return error.problems.join('\n');
    }
    return '';
  };
  assert.match(await bad('fapi3'), /\$\.security: expected fapi1-advanced, fapi2, fapi2-message-signing or oauth2/);
  assert.match(await bad({ responseType: 'code id_token', responseMode: 'jwt' }), /\$\.security\.responseMode: jwt cannot carry a code id_token answer/);
});

test('a bank\'s refusal of obtpp\'s own flow names the profile field to change; other refusals are verdicts', async () => {
  assert.equal(refusedField('unsupported_response_type', ''), 'security.responseType');
  assert.equal(refusedField('invalid_grant', 'client credentials grant: the bank answered 400 invalid_grant: DPoP proof JWT not provided'), 'security.senderConstraint');
  assert.equal(refusedField('invalid_request', 'requested response_mode is not allowed for this client or request'), 'security.responseMode');
  assert.equal(refusedField('invalid_request', 'Pushed Authorization Request must be used'), 'security.par');
  assert.equal(refusedField('invalid_id_token', 'the bank\'s id_token failed a check: JWT "s_hash" (state hash) claim missing'), undefined);
  assert.equal(refusedField('access_denied', 'the PSU rejected the consent'), undefined);
  const p = await profile();
  const problem = setupProblemOf(new AuthorisationError('unsupported_response_type', 'the bank answered the authorisation with error=unsupported_response_type'), p, 'ais');
  assert.equal(problem?.field, 'security.responseType');
  assert.equal(problem?.exitCode, ExitCode.cannotRun);
});
