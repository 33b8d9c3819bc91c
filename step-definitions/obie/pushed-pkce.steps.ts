// SEC-12 (pushed authorization requests need client authentication, RFC 9126 §2.1) and SEC-13
// (PKCE required where the bank requires it; FAPI 1 Advanced 5.2.2-18 for pushed requests), judged
// by sending the requests the bank must refuse. Each check first shows the bank takes the
// well-formed request, so that a bank refusing everything is not mistaken for one that checks.
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { describeAnswer, WARNING_MEDIA_TYPE } from '../support/judge.ts';
import { refusal, where } from './request-object.steps.ts';
import { NotApplicableError, type ApiResult } from '../../src/client/operations.ts';
import type { Variant } from '../../src/profile/types.ts';
import type { Auth, PkceMethod, WithJourney } from '../../src/auth/index.ts';
import { AuthorisationError, HttpError } from '../../src/errors.ts';
import { firstGet } from './oidf-support.ts';

/** The bank gave no footing for the check: the rule is not for it (with the reason). */
class NoFooting extends NotApplicableError {
  constructor(variant: Variant, why: string) {
    super('createAccountAccessConsent', variant);
    this.message = why;
  }
}

/** PSU-journey failures that say nothing about the bank's answer to the request (not-judged). */
const JOURNEY_FAILURES = new Set(['login_failed', 'step_failed', 'step_timeout', 'journey_timeout', 'state_mismatch']);

/** Why the bank must refuse a request without PKCE, and at which level (SEC-13). */
interface Footing {
  level: 'MUST' | 'SHOULD';
  why: string;
  /** The probe is pushed (the bank offers PAR and obtpp uses it). */
  par: boolean;
}

const footings = new WeakMap<ConformanceWorld, Footing>();
/** What came of the probe: the refusal (where and how) or, when the bank went on, what happened. */
const outcomes = new WeakMap<ConformanceWorld, { refused?: string; wentOn?: string }>();

function footingOf(world: ConformanceWorld, auth: Auth): Footing {
  const said = world.ctx.profile.auth.pkce;
  if (auth.usesPar) return { level: 'MUST', par: true, why: 'the bank offers pushed authorization requests, which FAPI 1 Advanced (5.2.2-18) requires to use PKCE with S256' };
  if (said === 'required') return { level: 'MUST', par: false, why: 'the profile says the bank requires PKCE (auth.pkce: required)' };
  if (said === 'optional') throw new NoFooting(world.variant, 'the profile says the bank does not require PKCE (auth.pkce: optional) and obtpp does not push its authorization requests, so PKCE enforcement is not judged');
  if (auth.pkceMethods.includes('S256')) {
    return { level: 'SHOULD', par: false, why: 'the bank\'s discovery advertises PKCE (code_challenge_methods_supported has S256) but nothing says it requires it, so a request without is judged as a SHOULD' };
  }
  throw new NoFooting(world.variant, 'the bank gave no footing for PKCE: it offers no pushed authorization requests, its discovery advertises no code_challenge_methods_supported with S256, and the profile does not say auth.pkce: required');
}

/** A SHOULD-level finding: a warning of the rule, never a failure. */
function warning(world: ConformanceWorld, message: string, source: string): void {
  world.attach(JSON.stringify({ level: 'SHOULD', source, message: `${world.ruleId}: ${message}`, problems: [message] }), WARNING_MEDIA_TYPE);
}

/**
 * Builds the authorization request (pushed where `par`) and sends the PSU's first GET of it,
 * redirects not followed. A refusal at the PAR endpoint or at the authorization endpoint is returned
 * as its description; `undefined` means the bank went on (its login page).
 */
async function probe(world: ConformanceWorld, record: ConsentRecord, pkce: PkceMethod, par: boolean): Promise<string | undefined> {
  const auth = await world.lane.auth();
  let url: string;
  try {
    url = (await auth.begin(record.id, record.fn, { pkce, par })).url;
  } catch (error) {
    if (error instanceof AuthorisationError) return `the pushed authorization request was refused (${error.oauthError})`;
    if (error instanceof HttpError) throw world.violation(`the pushed authorization request: the bank gave no usable answer: ${error.message}`);
    throw error;
  }
  const r = await firstGet(world, url);
  const refused = refusal(world, r);
  if (refused) return `the authorization endpoint refused it (${refused})`;
  world.notes.push(where(r));
  return undefined;
}

/** The control: the same request with S256 goes on, or the refusals below would say nothing. */
async function control(world: ConformanceWorld, record: ConsentRecord, par: boolean): Promise<void> {
  const refused = await probe(world, record, 'S256', par);
  if (refused) throw world.blocked(undefined, `even a well-formed authorisation request (PKCE S256) for consent ${record.id} was refused: ${refused}; a refusal without PKCE would say nothing`);
}

Given('the bank accepts a pushed authorization request for the consent {string} from the authenticated TPP', async function (this: ConformanceWorld, name: string) {
  const auth = await this.lane.auth();
  if (!auth.parEndpoint) throw new NoFooting(this.variant, 'the bank\'s discovery document advertises no pushed_authorization_request_endpoint: it offers no pushed authorization requests (RFC 9126)');
  if (this.ctx.profile.auth.clientAuth.method === 'tls_client_auth') {
    throw this.blocked(undefined, 'the client authenticates with its TLS certificate (tls_client_auth), which every request obtpp sends carries: a request without client authentication cannot be sent on this connection');
  }
  const record = this.consents.get(name)!;
  try {
    await auth.begin(record.id, record.fn, { par: true });
  } catch (error) {
    if (error instanceof AuthorisationError || error instanceof HttpError) throw this.blocked(undefined, `the bank refused even the authenticated pushed authorization request for consent ${record.id}: ${error.message}`);
    throw error;
  }
});

When('the TPP pushes an authorization request for the consent {string} without client authentication', async function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  try {
    this.last = { ...(await (await this.lane.auth()).unauthenticatedPar(record.id, record.fn)), operation: 'createAccountAccessConsent' } as ApiResult;
  } catch (error) {
    if (error instanceof HttpError) throw this.violation(`the pushed authorization request endpoint gave no usable answer: ${error.message}`);
    throw error;
  }
});

Then('the bank refuses the pushed authorization request', function (this: ConformanceWorld) {
  const r = this.answer();
  if (r.status >= 400 && r.status < 500) return;
  const uri = (r.body as { request_uri?: unknown } | undefined)?.request_uri;
  throw this.violation(`the bank must authenticate the client of a pushed authorization request as at its token endpoint (RFC 9126 §2.1: 401 invalid_client), but a request carrying only a client_id got ${describeAnswer(r)}${uri ? ' with a request_uri' : ''}`);
});

Given('the bank requires PKCE', async function (this: ConformanceWorld) {
  footings.set(this, footingOf(this, await this.lane.auth()));
});

When('the TPP sends the PSU to the bank for the consent {string} without a code_challenge', async function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  const f = footings.get(this)!;
  await control(this, record, f.par);
  const refused = await probe(this, record, 'none', f.par);
  if (refused) return void outcomes.set(this, { refused });
  // The bank showed its login page: it may still refuse the code at the token endpoint, for want of a code_verifier.
  try {
    const result = await this.ctx.authorise(this.lane, record.id, record.fn, { request: { pkce: 'none', par: f.par } });
    outcomes.set(this, { wentOn: `the PSU's authorisation went through (${result.outcome}) and the code was exchanged without a code_verifier` });
  } catch (error) {
    if (!(error instanceof AuthorisationError)) throw error;
    const journey = (error as WithJourney).journey;
    if (JOURNEY_FAILURES.has(error.oauthError)) {
      throw this.blocked(undefined, `the bank showed its login page to a request without PKCE, and the PSU's journey to see whether it refuses the code did not complete: ${error.message}`);
    }
    outcomes.set(this, { refused: `${journey ? 'after the PSU\'s journey, ' : ''}the bank answered ${error.oauthError}` });
  }
});

Then('the bank refuses the authorisation request, or the token request without a code_verifier', function (this: ConformanceWorld) {
  const f = footings.get(this)!;
  const o = outcomes.get(this)!;
  if (o.refused) return;
  const message = `${f.why}: a request without a code_challenge must be refused (an OAuth error at the authorization endpoint, or the code refused without a code_verifier), but the bank showed its login page (${this.notes.at(-1) ?? 'no refusal'}) and ${o.wentOn}`;
  if (f.level === 'SHOULD') return warning(this, message, 'RFC 8414 code_challenge_methods_supported (the bank advertises S256)');
  throw this.violation(message);
});

When('the TPP sends the PSU to the bank for the consent {string} with the plain code_challenge_method', async function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  const f = footings.get(this)!;
  await control(this, record, f.par);
  const refused = await probe(this, record, 'plain', f.par);
  outcomes.set(this, refused ? { refused } : { wentOn: `went on to ${this.notes.at(-1)}` });
});

Then('the bank refuses the plain method, as FAPI asks', async function (this: ConformanceWorld) {
  const o = outcomes.get(this)!;
  if (o.refused) return;
  // A bank under a FAPI security profile that takes pushed requests must refuse plain (FAPI 1
  // Advanced 5.2.2-18, FAPI 2.0 5.3.2.2: PKCE with S256; the OIDF modules par-ensure-plain-pkce-rejected);
  // elsewhere the UK standard does not itself forbid plain: a SHOULD.
  const security = (await this.lane.auth()).security;
  const message = `a request with code_challenge_method plain should be refused (FAPI 1 Advanced 5.2.2-18, FAPI 2.0 5.3.2.2: PKCE with S256), but the bank ${o.wentOn}`;
  if (footings.get(this)!.par && security.profile !== 'oauth2') throw this.violation(message.replace('should be', 'must be'));
  warning(this, message, 'FAPI 1 Advanced 5.2.2-18');
});
