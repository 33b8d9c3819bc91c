// SEC-14 (the authorization response protected as the bank's security profile says: FAPI 1.0
// Advanced's detached signature, JARM, RFC 9207's iss) and SEC-15 (a DPoP-bound token honoured only
// with its proof). The checks of the authorization response run in the TPP's own flow (src/auth:
// openid-client's), before the code is used, so a bank that fails them fails SEC-14's own
// authorisation; SEC-15 reuses the run's "full" authorisation for its token.
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { authoriseConsent, fullConsent, tokenOf } from '../support/setups.ts';
import { NotApplicableError } from '../../src/client/operations.ts';
import type { Variant } from '../../src/profile/types.ts';

/** The bank's security profile gives the rule nothing to judge (with the reason). */
class NotThisProfile extends NotApplicableError {
  constructor(variant: Variant, why: string) {
    super('createAccountAccessConsent', variant);
    this.message = why;
  }
}

Given('the bank\'s authorisation server runs a FAPI security profile', async function (this: ConformanceWorld) {
  const security = (await this.lane.auth()).security;
  if (security.profile === 'oauth2') {
    throw new NotThisProfile(this.variant, 'the bank\'s authorisation server runs no FAPI profile (security oauth2: the authorization code with PKCE), so what FAPI asks of it (a protected authorization response, the OpenID Foundation\'s FAPI modules) is not judged (docs/security.md, docs/oidf.md)');
  }
});

When('the PSU authorises the consent {string}, and the TPP checks the authorization response before it uses the code', async function (this: ConformanceWorld, name: string) {
  // Its own journey (never a shared one): an answer that fails the checks fails this rule.
  const record = this.consents.get(name)!;
  await authoriseConsent(this, record);
  this.consent = record;
});

Then('the authorization response was checked as the security profile says before the code was used', async function (this: ConformanceWorld) {
  const record = this.consent!;
  const outcome = record.journey;
  if (!outcome || outcome.outcome !== 'authorised') throw new Error(`consent ${record.id} was not authorised`);
  const auth = await this.lane.auth();
  const security = outcome.pending.security ?? auth.security;
  const { params } = auth.readResponse(outcome.journey.callbackUrl, security);
  const checked: string[] = [];
  if (security.responseType === 'code id_token') {
    const claims = record.tokens?.authorizationClaims;
    if (!claims) throw this.violation('the hybrid flow\'s authorization response carried no ID token (FAPI 1.0 Advanced 5.2.2.1: it is a detached signature over the code and state)');
    const missing = ['c_hash', 's_hash', 'nonce'].filter((k) => typeof claims[k] !== 'string');
    if (missing.length) throw this.violation(`the hybrid flow's ID token lacks ${missing.join(', ')} (FAPI 1.0 Advanced 5.2.2.1)`);
    checked.push(`the ID token in the ${security.responseMode} is a detached signature: signed ${security.signingAlgs?.join(' or ') ?? ''} by a key of the bank's JWKS, iss, aud, exp and iat, nonce, c_hash over the code, s_hash over the state${security.acr ? ', acr' : ''}, openbanking_intent_id`);
  }
  if (security.responseMode.endsWith('jwt')) {
    if (!params.has('response')) throw this.violation(`the authorization response is not a JWT (JARM, response_mode=${security.responseMode}): it carries no response parameter`);
    checked.push(`the response is a JWT (JARM) signed ${security.signingAlgs?.join(' or ') ?? ''} by the bank, its iss, aud and exp checked`);
  } else if (security.issParameter && security.responseType === 'code') {
    const iss = params.get('iss');
    if (iss !== auth.issuer) throw this.violation(`the authorization response's iss is ${iss === null ? 'missing' : JSON.stringify(iss)}, not the issuer ${auth.issuer} (RFC 9207)`);
    checked.push('its iss is the bank\'s issuer (RFC 9207)');
  }
  if (!checked.length) {
    throw new NotThisProfile(this.variant, `the security profile (${security.profile}) asks for no protection of the authorization response that this flow has (response_type=${security.responseType}, response_mode=${security.responseMode}, no iss parameter required)`);
  }
  this.attach(`${this.ruleId}: before the code was used: ${checked.join('; ')}`, 'text/plain');
});

Given('the bank binds its access tokens to the TPP\'s DPoP key', async function (this: ConformanceWorld) {
  const security = (await this.lane.auth()).security;
  if (security.senderConstraint !== 'dpop') {
    throw new NotThisProfile(this.variant, `the bank's tokens are not DPoP-bound in this profile (security.senderConstraint: ${security.senderConstraint}), so a DPoP proof has nothing to prove`);
  }
});

When('the AISP lists the accounts with that consent\'s DPoP-bound token sent as a bearer token, without a DPoP proof', async function (this: ConformanceWorld) {
  const record = await fullConsent(this);
  const token = tokenOf(record);
  if (!this.lane.http.dpop.bound.has(token)) {
    throw this.blocked(undefined, `the bank issued consent ${record.id}'s access token as a bearer token (token_type ${record.tokens?.tokenType}), not DPoP-bound, although the TPP sent its DPoP proof: nothing to prove`);
  }
  await this.call('listing the accounts with a DPoP-bound token as a bearer token', (c) => c.listAccounts({ token, dpop: false }));
  this.notes.push('a DPoP-bound token sent as a bearer token, without a proof');
});
