// The OpenID Foundation's FAPI modules that walk the PSU through the bank's pages: the
// well-behaved requests that must succeed and whose token must work (SEC-18), the requests a bank
// may refuse or must complete as the request itself says, the codes the token endpoint must refuse
// (SEC-20), the pushed requests' request_uri (SEC-22) and the essential acr (SEC-24). Each journey is
// the PSU's in the one browser; what is done with the code afterwards is each module's own.
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { WARNING_MEDIA_TYPE, describeAnswer } from '../support/judge.ts';
import { sleepUntil, tokenOf } from '../support/setups.ts';
import { heldCode, heldRequestUri, walk } from './oidf-setups.ts';
import {
  errorsOf, fapi, fapi2, judgeRefused, need, oneOf, open, probe, probes, profileWords, randomText, results, secondClient, type Probe,
} from './oidf-support.ts';
import { dpopCall } from './oidf-dpop.steps.ts';
import type { Auth, BeginOptions, PendingAuthorisation, TokenSet } from '../../src/auth/index.ts';
import type { TokenAttempt } from '../../src/auth/index.ts';
import { AuthorisationError, HttpError, ObtppError } from '../../src/errors.ts';

/** The tokens a scenario's journey got, for its Then step. */
const granted = new WeakMap<ConformanceWorld, TokenSet>();

/** A SHOULD-level finding: a warning of the rule, never a failure. */
function warning(world: ConformanceWorld, message: string, source: string): void {
  world.attach(JSON.stringify({ level: 'SHOULD', source, message: `${world.ruleId}: ${message}`, problems: [message] }), WARNING_MEDIA_TYPE);
}

/** The redirect back turned into tokens by obtpp's own checks (finish); a failed check is the rule's violation. */
async function finish(world: ConformanceWorld, auth: Auth, pending: PendingAuthorisation, callbackUrl: string, what: string): Promise<TokenSet> {
  try {
    return await auth.finish(pending, callbackUrl);
  } catch (error) {
    if (error instanceof ObtppError) throw world.violation(`${what}: ${error.message}`);
    throw error;
  }
}

// ── SEC-18: the well-behaved requests ──────────────────────────────────────────────────────

const IDENTITY_CLAIMS = { name: null, given_name: null, family_name: null, email: null, email_verified: null, phone_number: null, address: null, birthdate: null };
const SCA_ACR = 'urn:openbanking:psd2:sca';

/** Each well-behaved way of asking: the variation, and the footing it needs beyond a FAPI profile. */
const FLOWS: Record<string, (world: ConformanceWorld, auth: Auth) => BeginOptions> = {
  'as obtpp asks it': () => ({}),
  'without a state': () => ({ vary: { omit: ['state'] } }),
  'without a nonce': (world, auth) => {
    need(world, fapi2(auth.security), `FAPI 1.0 Advanced requires a nonce of a request for the openid scope (5.2.2.2); a request without one is well-behaved only in FAPI 2.0, and the bank runs ${profileWords(auth.security)}`);
    return { vary: { omit: ['nonce'] } };
  },
  'with a nonce of 64 characters': () => ({ vary: { set: { nonce: randomText(64) } } }),
  'with the scopes in another order': (world) => {
    const a = world.ctx.profile.auth;
    return { vary: { set: { scope: [a.offlineAccess ? 'offline_access' : '', a.scopes.ais, 'openid'].filter(Boolean).join(' ') } } };
  },
  'with identity claims asked in the claims parameter': () => ({ vary: { addClaims: { id_token: IDENTITY_CLAIMS, userinfo: IDENTITY_CLAIMS } } }),
  'with PKCE S256': (world, auth) => {
    need(world, auth.pkceMethods.includes('S256') || auth.security.pkce === 'S256', 'the bank\'s discovery advertises no PKCE (code_challenge_methods_supported without S256), so a request with PKCE has no footing');
    return { pkce: 'S256' };
  },
  'with a request object whose aud names the issuer and another one': (world, auth) => {
    need(world, auth.security.requestObject, `the bank's security profile (${profileWords(auth.security)}) sends no request object`);
    return { vary: { claims: { aud: [auth.issuer, 'https://another-audience.example'] } } };
  },
  'with a request object whose nbf is 8 seconds ahead': (world, auth) => {
    need(world, auth.security.requestObject, `the bank's security profile (${profileWords(auth.security)}) sends no request object`);
    return { vary: { claims: { nbf: Math.floor(Date.now() / 1000) + 8 } } };
  },
  'with its state only outside its request object or pushed request': (world, auth) => {
    need(world, auth.security.requestObject || auth.security.par, 'the profile sends its parameters on the authorization URL itself: there is no outside');
    return { vary: { outsideOnly: ['state'] } };
  },
  'with its request_uri opened twice before the PSU signs in': (world, auth) => {
    need(world, auth.security.par, 'the bank\'s security profile does not push its requests: there is no request_uri');
    return {};
  },
  [`with acr ${SCA_ACR} as essential`]: (world, auth) => {
    // The footing: the bank says it reaches the SCA acr (its discovery), or the profile asks for it (security.acr).
    const offered = auth.serverMetadata.acr_values_supported;
    need(world, (Array.isArray(offered) && offered.includes(SCA_ACR)) || !!auth.security.acr?.includes(SCA_ACR), `the bank's discovery lists no ${SCA_ACR} in acr_values_supported and the profile asks for none (security.acr): an essential acr has no footing`);
    return { flow: { acr: [SCA_ACR] } };
  },
};

When(new RegExp(`^the PSU authorises the consent "([^"]+)", asked ${oneOf(Object.keys(FLOWS))}$`), async function (this: ConformanceWorld, name: string, how: string) {
  const auth = await this.lane.auth();
  const options = FLOWS[how]!(this, auth);
  const record = this.consents.get(name)!;
  let pending: PendingAuthorisation | undefined;
  if (how.includes('opened twice')) {
    // FAPI 2.0 (the module's words): a request_uri is taken again until the PSU's authentication completes (a reload).
    pending = await auth.begin(record.id, record.fn, options);
    for (const n of [1, 2]) {
      const p = await open(this, pending.url);
      if (p.refused) throw this.violation(`the bank refused the request_uri the ${n === 1 ? 'first' : 'second'} time it was opened, before the PSU signed in: ${p.refused.where} answered ${p.refused.status}${p.refused.error ? ` ${p.refused.error}` : ''}`);
    }
  }
  const { pending: sent, journey } = await walk(this, record, options, { asViolation: true, ...(pending ? { pending } : {}) });
  if (how === 'as obtpp asks it' && sent.security?.par) {
    // A pushed request's URL carries only client_id and request_uri (the module "PAR without duplicate parameters").
    const extra = [...new URL(sent.url).searchParams.keys()].filter((k) => k !== 'client_id' && k !== 'request_uri');
    if (extra.length) throw new Error(`obtpp's pushed request repeats ${extra.join(', ')} on the authorization URL`);
  }
  const tokens = await finish(this, auth, sent, journey.callbackUrl, `the bank's answer to a request ${how}`);
  granted.set(this, tokens);
  record.tokens = tokens;
});

Then('the TPP gets its tokens, checked as the security profile says, and the access token lists the accounts', async function (this: ConformanceWorld) {
  const tokens = granted.get(this)!;
  const r = await this.call('listing the accounts with the token of that authorisation', (c) => c.listAccounts({ token: tokens.accessToken }));
  if (r.status !== 200) throw this.violation(`the access token the bank granted does not work: GET accounts answered ${describeAnswer(r)}`);
  this.attach(`${this.ruleId}: tokens granted (${tokens.tokenType}${tokens.senderConstraint && tokens.senderConstraint !== 'none' ? `, bound by ${tokens.senderConstraint}` : ''}), the ID token checked before the code was used, the accounts listed with the access token`, 'text/plain');
});

Then(`both ID tokens carry acr ${SCA_ACR}`, function (this: ConformanceWorld) {
  const tokens = granted.get(this)!;
  const front = tokens.authorizationClaims?.acr;
  const back = tokens.claims?.acr;
  if (back !== SCA_ACR) throw this.violation(`the token endpoint's ID token carries acr ${JSON.stringify(back)}, not ${SCA_ACR}, asked for as essential`);
  if (tokens.authorizationClaims && front !== SCA_ACR) throw this.violation(`the authorization endpoint's ID token carries acr ${JSON.stringify(front)}, not ${SCA_ACR}, asked for as essential`);
});

// ── SEC-18: a request the bank may refuse, or must complete as the request itself says ───────

/** What came of a request a bank may refuse: its refusal, or the tokens of the completed authorisation. */
const outcomes = new WeakMap<ConformanceWorld, { refused?: Probe['refused']; tokens?: TokenSet; what: string }>();

const MAY_REFUSE: Record<string, (world: ConformanceWorld, auth: Auth) => BeginOptions> = {
  'carrying a nonce of 384 characters': () => ({ vary: { set: { nonce: randomText(384) } } }),
  'carrying a state of 384 characters': () => ({ vary: { set: { state: randomText(384) } } }),
  'carrying another nonce outside its request object or pushed request': (world, auth) => {
    need(world, auth.security.requestObject || auth.security.par, 'the profile sends its parameters on the authorization URL itself: there is no outside');
    need(world, auth.security.responseType === 'code id_token' || !!auth.security.signingAlgs, 'no ID token to carry the nonce');
    return { vary: { outside: { nonce: randomText(43) } } };
  },
  'carrying another state outside its request object or pushed request': (world, auth) => {
    need(world, auth.security.requestObject || auth.security.par, 'the profile sends its parameters on the authorization URL itself: there is no outside');
    return { vary: { outside: { state: randomText(43) } } };
  },
  'for the hybrid flow with response_mode=query': (world, auth) => {
    need(world, auth.security.responseType === 'code id_token', `the bank's security profile (${profileWords(auth.security)}) does not run the hybrid flow`);
    return { flow: { responseMode: 'query' } };
  },
};

When(new RegExp(`^the TPP sends the PSU to the bank for the consent "([^"]+)" with a request ${oneOf(Object.keys(MAY_REFUSE))}$`), async function (this: ConformanceWorld, name: string, how: string) {
  const auth = await this.lane.auth();
  const options = MAY_REFUSE[how]!(this, auth);
  const record = this.consents.get(name)!;
  const p = await probe(this, record, options);
  const what = `a request ${how}`;
  if (p.refused) return void outcomes.set(this, { refused: p.refused, what });
  const { pending, journey } = await walk(this, record, options, { asViolation: true, pending: p.pending! });
  if (how.includes('response_mode=query')) {
    // The hybrid flow's code and ID token must never come back in the query (OIDC: the fragment; FAPI: detached signature).
    const query = new URL(journey.callbackUrl).searchParams;
    if (query.has('code') || query.has('id_token')) throw this.violation(`the bank answered the hybrid flow with response_mode=query in the query (${['code', 'id_token'].filter((k) => query.has(k)).join(', ')}): its code and ID token must not travel in the query`);
    const back = { ...pending, security: { ...pending.security!, responseMode: 'fragment' as const } };
    return void outcomes.set(this, { tokens: await finish(this, auth, back, journey.callbackUrl, `the bank's answer to ${what}`), what });
  }
  outcomes.set(this, { tokens: await finish(this, auth, pending, journey.callbackUrl, `the bank's answer to ${what} (checked against the request's own nonce and state)`), what });
});

Then('the bank refuses it with an OAuth error, or the PSU\'s authorisation completes as the request itself says', function (this: ConformanceWorld) {
  const o = outcomes.get(this)!;
  if (o.refused) {
    this.attach(`${this.ruleId}: ${o.what}: ${o.refused.where} refused it (${o.refused.status}${o.refused.error ? `, ${o.refused.error}` : ''})`, 'text/plain');
    return;
  }
  this.attach(`${this.ruleId}: ${o.what}: the authorisation completed, its answer carrying the request's own nonce and state`, 'text/plain');
});

// ── SEC-20: codes the token endpoint must refuse ───────────────────────────────────────────

const CODE_MISUSES: Record<string, true> = {
  'a second time, a second after the first use': true,
  'as another client of the TPP': true,
  'naming another client\'s client_id with its own key': true,
  'without its code_verifier': true,
  'with another code_verifier': true,
  'without the sender constraint (no TLS client certificate, or no DPoP proof)': true,
};

When(new RegExp(`^the PSU authorises the consent "([^"]+)", and the TPP sends its code to the token endpoint ${oneOf(Object.keys(CODE_MISUSES))}$`), async function (this: ConformanceWorld, name: string, how: string) {
  const auth = await this.lane.auth();
  const s = auth.security;
  const record = this.consents.get(name)!;
  // The footing each misuse needs, before the PSU's journey.
  let second: Auth | undefined;
  if (how === 'as another client of the TPP') second = await secondClient(this);
  if (how.startsWith('naming another client')) await secondClient(this);
  if (how.startsWith('without the sender constraint')) need(this, s.senderConstraint !== 'none', `the bank's tokens are not sender-constrained in this profile (${profileWords(s)}): there is nothing to leave out`);
  const { pending, journey } = await walk(this, record, {});
  const code = await auth.codeOf(pending, journey.callbackUrl);
  if (!code) throw this.blocked('SEC-18', `the bank's redirect back for consent ${record.id} carried no code`);
  if (how.endsWith('code_verifier') || how.includes('another code_verifier')) need(this, pending.codeVerifier !== undefined, 'obtpp\'s request carried no PKCE (the bank advertises none): there is no code_verifier to leave out or change');
  let attempt: TokenAttempt;
  try {
    switch (how) {
      case 'a second time, a second after the first use': {
        const first = await finish(this, auth, pending, journey.callbackUrl, 'the first use of the code');
        await sleepUntil(Date.now() + 1_000);
        attempt = await auth.tryCodeExchange(code, pending);
        // RFC 6749 §4.1.2: the tokens issued from a code used twice should be revoked.
        const r = await this.call('listing the accounts with the token of the code\'s first use', (c) => c.listAccounts({ token: first.accessToken }));
        if (!attempt.granted && r.status === 200) warning(this, 'the access token issued from a code that was then used a second time still works: the bank should revoke it (RFC 6749 §4.1.2)', 'RFC 6749 §4.1.2');
        break;
      }
      case 'as another client of the TPP':
        attempt = await second!.tryCodeExchange(code, pending);
        break;
      case 'naming another client\'s client_id with its own key':
        attempt = await auth.tryCodeExchange(code, pending, { clientId: this.ctx.profile.auth.secondClient!.clientId });
        break;
      case 'without its code_verifier':
        attempt = await auth.tryCodeExchange(code, pending, { verifier: null });
        break;
      case 'with another code_verifier':
        attempt = await auth.tryCodeExchange(code, pending, { verifier: randomText(64) });
        break;
      default:
        attempt = await auth.tryCodeExchange(code, pending, s.senderConstraint === 'dpop' ? { dpop: 'none' } : { withoutCertificate: true });
    }
  } catch (error) {
    // A bank that ends the TLS handshake of a client without its certificate refuses it the module's way too.
    if (error instanceof HttpError && how.startsWith('without the sender constraint')) {
      attempt = { granted: false, status: 400, error: 'invalid_client', description: `the TLS connection was refused without a client certificate (${error.message})` };
    } else if (error instanceof HttpError) {
      throw this.violation(`the token endpoint gave no usable answer: ${error.message}`);
    } else throw error;
  }
  results.set(this, { attempt, what: `the code of consent ${record.id} sent ${how}` });
});

// Its Then is "the token endpoint refuses it with …" (oidf-dpop.steps.ts), as SEC-21's and SEC-23's.

Given('the PSU has authorised a consent whose code the TPP holds back, under FAPI 2.0', async function (this: ConformanceWorld) {
  await heldCode(this);
});

When('the TPP sends that code to the token endpoint 62 seconds after the bank issued it', async function (this: ConformanceWorld) {
  const held = await heldCode(this);
  const waited = this.ctx.waitFor('expiry', `the code of consent ${held.record.id} to outlive 60 seconds`);
  const started = Date.now();
  try {
    await sleepUntil(held.at + 62_000);
  } finally {
    waited();
    this.pauses.push({ what: `waits for the code of consent ${held.record.id} to be 62 s old`, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started });
  }
  results.set(this, { attempt: await (await this.lane.auth()).tryCodeExchange(held.code, held.pending), what: `the code of consent ${held.record.id}, 62 seconds after the bank issued it` });
});

// ── SEC-22: a pushed request's request_uri ─────────────────────────────────────────────────

Given('the TPP pushes its authorisation requests to the bank under a FAPI security profile', async function (this: ConformanceWorld) {
  const auth = await fapi(this);
  need(this, auth.security.par, `the bank's security profile (${profileWords(auth.security)}) does not push its authorization requests${auth.parEndpoint ? '' : ' (its discovery advertises no pushed-request endpoint)'}: the PAR modules do not apply (the UK variant of FAPI 1.0 Advanced sends its requests by value)`);
});

const PUSHED_URI = 'urn:ietf:params:oauth:request_uri:obtpp-never-pushed';

const PAR_MISUSES: Record<string, true> = {
  'a request_uri again, after the PSU\'s authorisation completed': true,
  'a request_uri pushed by another client': true,
  'a pushed request that carries a request_uri': true,
  'its pushed request as a GET, not a POST': true,
};

When(new RegExp(`^the TPP sends the bank, for the consent "([^"]+)", ${oneOf(Object.keys(PAR_MISUSES))}$`), async function (this: ConformanceWorld, name: string, what: string) {
  const auth = await this.lane.auth();
  const record = this.consents.get(name)!;
  let p: Probe;
  switch (what) {
    case 'a request_uri again, after the PSU\'s authorisation completed': {
      const { pending, journey } = await walk(this, record, {});
      try {
        await auth.finish(pending, journey.callbackUrl);
      } catch (error) {
        if (error instanceof ObtppError) throw this.blocked('SEC-18', `the PSU's authorisation of consent ${record.id} did not complete (${error.message}), so a second use of its request_uri says nothing`);
        throw error;
      }
      p = await open(this, pending.url);
      break;
    }
    case 'a request_uri pushed by another client': {
      const second = await secondClient(this);
      const pending = await auth.begin(record.id, record.fn);
      const url = new URL(pending.url);
      url.searchParams.set('client_id', second.profile.auth.clientId);
      p = await open(this, url.href);
      break;
    }
    case 'a pushed request that carries a request_uri':
      p = await probe(this, record, { vary: { pushed: { request_uri: PUSHED_URI } } });
      break;
    default: {
      const at = auth.parEndpoint!;
      const r = await this.lane.http.request('GET', `${at}?client_id=${encodeURIComponent(this.ctx.profile.auth.clientId)}`);
      this.last = { ...r, operation: 'createAccountAccessConsent' } as never;
      p = r.status >= 400 && r.status < 500 ? { refused: { where: 'the pushed-request endpoint', status: r.status } } : { wentOn: `${r.status}` };
    }
  }
  probes.set(this, { probe: p, what });
});

Given('the TPP has pushed an authorisation request ahead, and kept its request_uri unused', async function (this: ConformanceWorld) {
  await heldRequestUri(this);
});

/** The longest request_uri lifetime obtpp waits out (a bank's longer one is not judged). */
const MAX_WAIT_S = 120;

When('the TPP sends the PSU to the bank with that request_uri a second after it expired', async function (this: ConformanceWorld) {
  const held = await heldRequestUri(this);
  if (held.expiresIn > MAX_WAIT_S) throw this.blocked(undefined, `the bank's request_uri lives ${held.expiresIn} s (expires_in), longer than obtpp waits (${MAX_WAIT_S} s)`);
  const waited = this.ctx.waitFor('expiry', `a request_uri to expire (${held.expiresIn} s)`);
  const started = Date.now();
  try {
    await sleepUntil(held.at + held.expiresIn * 1000 + 1_000);
  } finally {
    waited();
    this.pauses.push({ what: `waits for a request_uri to expire (expires_in ${held.expiresIn} s)`, startedAt: new Date(started).toISOString(), durationMs: Date.now() - started });
  }
  probes.set(this, { probe: await open(this, held.pending.url), what: `a request_uri ${held.expiresIn + 1} s after it was pushed (expires_in ${held.expiresIn})` });
});

// The general refusal of SEC-22 and SEC-24 (SEC-17 and SEC-19 have their own words): OAuth error
// codes (`invalid_request_uri or invalid_request`) or "an HTTP 405 or another 4xx", nothing else, so
// that no other rule's "the bank refuses it with …" (UKPIS-03's "400 or 403 and an OBIE error body") is ambiguous with it.
Then(/^the bank refuses it with (an HTTP \d{3} or another 4xx|[a-z_]+(?:(?:, | or )[a-z_]+)*)$/, function (this: ConformanceWorld, errors: string) {
  const { probe: p, what } = probes.get(this)!;
  judgeRefused(this, p, errorsOf(errors), what);
});

// ── SEC-18: the scheme of the Authorization header, in lower case ───────────────────────────

When('the AISP lists the accounts with that consent\'s token, its scheme written in lower case', async function (this: ConformanceWorld) {
  const token = tokenOf(this.consents.get('full')!);
  if (this.lane.http.dpop.bound.has(token)) {
    await dpopCall(this, token, { scheme: 'dpop' });
  } else {
    await this.call('listing the accounts with the scheme "bearer"', (c) => c.listAccounts({ token, dpop: false, headers: { authorization: `bearer ${token}` } }));
  }
});
