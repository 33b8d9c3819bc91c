// SEC-11: the FAPI checks of the authorisation request, judged by sending request objects the bank
// must refuse. Nothing here opens a browser: the authorization endpoint's first answer says whether
// the bank refused (an OAuth error, on the redirect URI or as a 4xx) or went on to its login page.
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { NotApplicableError, type ApiResult } from '../../src/client/operations.ts';
import type { Variant } from '../../src/profile/types.ts';
import type { RequestVariation } from '../../src/auth/index.ts';
import { AuthorisationError, HttpError } from '../../src/errors.ts';
import { refusal, where } from './authorisation-answer.ts';

export { refusal, where };

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

/** The same defects, made by obtpp's own request-object builder (openid-client), for a request object pushed. */
function variationOf(defect: Defect): RequestVariation {
  const now = Math.floor(Date.now() / 1000);
  if (defect === 'none') return { signature: 'none' };
  if (defect === 'no-exp') return { claims: { exp: null } };
  if (defect === 'expired') return { claims: { iat: now - 4000, nbf: now - 4000, exp: now - 3600 } };
  return {};
}

/**
 * Sends the authorisation request (GET, redirects not followed) and keeps the answer. A bank that
 * takes authorization requests only pushed gets the request object pushed (RFC 9126): its
 * pushed-request endpoint's refusal is then the answer.
 */
async function send(world: ConformanceWorld, record: ConsentRecord, defect: Defect): Promise<ApiResult & { url: string }> {
  const auth = await world.lane.auth();
  if (!auth.requestObjectsSupported) throw new RequestObjectsNotOffered(world.variant);
  if (defect !== 'none' && !auth.canSignRequestObjects) {
    throw world.blocked(undefined, 'the profile has no key to sign request objects with (auth.clientAuth.privateKey), so a signed request object cannot be sent');
  }
  let url: string;
  if (auth.requiresPar) {
    // A pushed request object is made by obtpp's own builder, which signs (an unsigned one is a signed one stripped).
    if (!auth.canSignRequestObjects) throw world.blocked(undefined, 'the bank takes only pushed requests, and the profile has no key to sign request objects with (auth.clientAuth.privateKey), so no request object can be pushed');
    try {
      url = (await auth.begin(record.id, record.fn, { par: true, flow: { requestObject: true }, vary: variationOf(defect) })).url;
    } catch (error) {
      const status = (error as { cause?: { status?: unknown } }).cause?.status;
      if (error instanceof AuthorisationError && typeof status === 'number') {
        // The pushed-request endpoint's OAuth error, as the answer the Then step reads.
        return { status, headers: {}, body: { error: error.oauthError }, text: '', json: true, url: auth.parEndpoint!, operation: 'createAccountAccessConsent' } as unknown as ApiResult & { url: string };
      }
      if (error instanceof HttpError) throw world.violation(`the pushed-request endpoint gave no usable answer: ${error.message}`);
      throw error;
    }
  } else url = (await auth.requestObjectUrl(record.id, record.fn, defect)).url;
  try {
    const r = await world.lane.http.request('GET', url, { headers: { accept: 'text/html' } });
    return { ...r, url, operation: 'createAccountAccessConsent' } as ApiResult & { url: string };
  } catch (error) {
    if (error instanceof HttpError) throw world.violation(`the authorization endpoint gave no usable answer: ${error.message}`);
    throw error;
  }
}

/**
 * The control: the same request, well formed, is not refused. Without it a bank that refuses
 * every request object would pass every check below without having judged anything.
 */
async function control(world: ConformanceWorld, record: ConsentRecord): Promise<void> {
  const auth = await world.lane.auth();
  if (!auth.requestObjectsSupported) throw new RequestObjectsNotOffered(world.variant);
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
