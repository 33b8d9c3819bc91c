// SEC-11: the FAPI checks of the authorisation request, judged by sending request objects the bank
// must refuse. Nothing here opens a browser: the authorization endpoint's first answer says whether
// the bank refused (an OAuth error, on the redirect URI or as a 4xx) or went on to its login page.
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { describeAnswer } from '../support/judge.ts';
import { NotApplicableError, type ApiResult } from '../../src/client/operations.ts';
import type { Variant } from '../../src/profile/types.ts';
import { HttpError } from '../../src/errors.ts';

type Defect = 'well-formed' | 'none' | 'no-exp' | 'expired';
const DEFECTS: Record<string, Defect> = {
  'unsigned (alg none)': 'none',
  'without exp': 'no-exp',
  'with an exp in the past': 'expired',
};

/** The bank takes no request objects (its discovery says so): SEC-11 is not for it. */
class RequestObjectsNotOffered extends NotApplicableError {
  constructor(variant: Variant) {
    super('createAccountAccessConsent', variant);
    this.message = 'the bank\'s discovery document does not advertise request objects (request_parameter_supported is not true), so the request-object checks do not apply';
  }
}

/** A bank that takes authorization requests only pushed refuses every request object by value, good or bad: SEC-11 judges the authorization endpoint's. */
class PushedOnly extends NotApplicableError {
  constructor(variant: Variant) {
    super('createAccountAccessConsent', variant);
    this.message = 'the bank takes authorization requests only pushed (require_pushed_authorization_requests): a request object sent to its authorization endpoint by value is refused whatever it holds, so the request-object checks of the authorization endpoint do not apply';
  }
}

/** Sends the authorisation request (GET, redirects not followed) and keeps the answer. */
async function send(world: ConformanceWorld, record: ConsentRecord, defect: Defect): Promise<ApiResult & { url: string }> {
  const auth = await world.lane.auth();
  if (!auth.requestObjectsSupported) throw new RequestObjectsNotOffered(world.variant);
  if (auth.requiresPar) throw new PushedOnly(world.variant);
  if (defect !== 'none' && !auth.canSignRequestObjects) {
    throw world.blocked(undefined, 'the profile has no key to sign request objects with (auth.clientAuth.privateKey), so a signed request object cannot be sent');
  }
  const { url } = await auth.requestObjectUrl(record.id, record.fn, defect);
  try {
    const r = await world.lane.http.request('GET', url, { headers: { accept: 'text/html' } });
    return { ...r, url, operation: 'createAccountAccessConsent' } as ApiResult & { url: string };
  } catch (error) {
    if (error instanceof HttpError) throw world.violation(`the authorization endpoint gave no usable answer: ${error.message}`);
    throw error;
  }
}

/** Why the answer is a refusal per OIDC (an error on the redirect URI, or a 4xx), or undefined when it is not. */
export function refusal(world: ConformanceWorld, r: ApiResult & { url?: string }): string | undefined {
  if (r.status >= 400 && r.status < 500) return `${r.status}`;
  const location = r.headers.location;
  if (r.status >= 300 && r.status < 400 && typeof location === 'string') {
    const redirect = world.ctx.profile.auth.redirectUri;
    const to = new URL(location, r.url ?? redirect);
    const back = new URL(redirect);
    if (to.origin !== back.origin || to.pathname !== back.pathname) return undefined;
    // The error where the response mode puts it: the query, the fragment (the hybrid flow), or a JARM response in either.
    for (const params of [to.searchParams, new URLSearchParams(to.hash.slice(1))]) {
      const answer = jarmAnswer(params.get('response')) ?? params;
      if (answer.get('error') && !answer.get('code')) return `error=${answer.get('error')}`;
    }
  }
  return undefined;
}

/** A JARM response's parameters, read (not verified: the question is only whether the bank refused). */
function jarmAnswer(response: string | null): URLSearchParams | undefined {
  const payload = response?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    return new URLSearchParams(Object.entries(claims).filter(([, v]) => typeof v === 'string') as Array<[string, string]>);
  } catch {
    return undefined;
  }
}

export function where(r: ApiResult & { url?: string }): string {
  const location = r.headers.location;
  return typeof location === 'string' ? `${r.status} to ${new URL(location, r.url ?? 'http://x').pathname}` : describeAnswer(r);
}

/**
 * The control: the same request, well formed, is not refused. Without it a bank that refuses
 * every request object would pass every check below without having judged anything.
 */
async function control(world: ConformanceWorld, record: ConsentRecord): Promise<void> {
  const auth = await world.lane.auth();
  if (!auth.requestObjectsSupported) throw new RequestObjectsNotOffered(world.variant);
  if (auth.requiresPar) throw new PushedOnly(world.variant);
  if (!auth.canSignRequestObjects) return;
  const r = await send(world, record, 'well-formed');
  const refused = refusal(world, r);
  if (refused) throw world.blocked(undefined, `the bank refused even a well-formed request object for consent ${record.id} (${refused}), so a refusal of a bad one says nothing`);
}

When(/^the TPP sends the PSU to the bank for the consent "([^"]+)" with a request object (unsigned \(alg none\)|without exp|with an exp in the past)$/, async function (this: ConformanceWorld, name: string, defect: string) {
  const record = this.consents.get(name)!;
  await control(this, record);
  this.last = await send(this, record, DEFECTS[defect]!);
  this.notes.push(`a request object ${defect}`);
});

Given('a well-formed request object for the consent {string} is not refused', async function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  await control(this, record);
});

When('the TPP sends the PSU to the bank with a well-formed request object naming the {string} consent, which the PSU already authorised', async function (this: ConformanceWorld, name: string) {
  const record = this.consents.get(name)!;
  this.last = await send(this, record, 'well-formed');
  this.notes.push(`a request object naming consent ${record.id}, already authorised (bound to another authorisation)`);
});

Then('the bank refuses the authorisation request with an OAuth error, without showing a login page', function (this: ConformanceWorld) {
  const r = this.answer();
  if (refusal(this, r)) return;
  throw this.violation(`the bank must refuse ${this.notes.at(-1)} (an error on the redirect URI, or a 4xx), but it went on: ${where(r)}`);
});
