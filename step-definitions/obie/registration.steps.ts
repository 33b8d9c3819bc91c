// DCR-01, DCR-02, DCR-03: dynamic client registration (OBIE DCR 3.3, RFC 7591 and 7592), through the same
// registration code `obtpp register` uses. Every registration a scenario makes is deleted again
// where the bank offers RFC 7592.
import { After } from '@cucumber/cucumber';
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, quote } from '../support/judge.ts';
import { NotApplicableError, type ApiResult } from '../../src/client/operations.ts';
import { AuthorisationError, HttpError } from '../../src/errors.ts';
import type { Variant } from '../../src/profile/types.ts';
import type { HttpResult } from '../../src/client/http.ts';
import {
  registrationClaims, signRegistration, sendRegistration, registrationFrom, manageRegistration, updateRegistration, updatableMetadata, manageWithoutToken,
  type Registration,
} from '../../src/auth/register.ts';

/** The profile has no registration block: the bank's registration is not for this run to judge. */
class RegistrationNotConfigured extends NotApplicableError {
  constructor(variant: Variant, why: string) {
    super('createAccountAccessConsent', variant);
    this.message = why;
  }
}

const registrations = new WeakMap<ConformanceWorld, Registration[]>();

async function endpoint(world: ConformanceWorld): Promise<string> {
  if (!world.ctx.profile.registration) throw new RegistrationNotConfigured(world.variant, 'the profile has no registration block (software statement and key), so dynamic client registration is not judged');
  const auth = await world.lane.auth();
  const at = auth.registrationEndpoint;
  if (!at) throw new RegistrationNotConfigured(world.variant, 'the bank\'s discovery document advertises no registration_endpoint, and the profile gives none (registration.endpoint)');
  return at;
}

/** Sends one registration; the answer becomes the scenario's last. */
async function register(world: ConformanceWorld, variant: 'valid' | 'no-ssa' | 'self-signed-ssa'): Promise<HttpResult> {
  const at = await endpoint(world);
  const profile = world.ctx.profile;
  const auth = await world.lane.auth();
  let ssa: string | null | undefined;
  if (variant === 'no-ssa') ssa = null;
  if (variant === 'self-signed-ssa') {
    // The same statement, signed with the TPP's own key in place of the directory's.
    const payload = JSON.parse(Buffer.from(profile.registration!.softwareStatement.split('.')[1] ?? '', 'base64url').toString('utf8'));
    ssa = await signRegistration(profile, payload);
  }
  try {
    const r = await sendRegistration(world.lane.http, at, await signRegistration(profile, registrationClaims(profile, auth.issuer, { softwareStatement: ssa, security: auth.security })));
    world.last = { ...r, operation: 'createAccountAccessConsent' } as ApiResult;
    if (r.status === 201) {
      try {
        const reg = registrationFrom(r);
        registrations.set(world, [...(registrations.get(world) ?? []), reg]);
      } catch {
        // judged by the steps that need the client
      }
    }
    return r;
  } catch (error) {
    if (error instanceof HttpError) throw world.violation(`registering: the bank gave no usable answer: ${error.message}`);
    throw error;
  }
}

function latest(world: ConformanceWorld): Registration {
  const reg = registrations.get(world)?.at(-1);
  if (!reg) throw world.violation(`the registration must answer 201 with a client_id, got ${describeAnswer(world.answer())}`);
  return reg;
}

Given('a registration with the profile\'s software statement is accepted', async function (this: ConformanceWorld) {
  const r = await register(this, 'valid');
  if (r.status !== 201) throw this.blocked('DCR-02', `a registration with the profile's software statement (a set-up of this scenario) was refused: ${describeAnswer(this.answer())}`);
});

When('the TPP registers with a request that carries no software statement', async function (this: ConformanceWorld) {
  await register(this, 'no-ssa');
  this.notes.push('a registration without a software statement');
});

When('the TPP registers with a software statement it signed itself', async function (this: ConformanceWorld) {
  await register(this, 'self-signed-ssa');
  this.notes.push('a registration whose software statement the TPP signed itself');
});

Then('the bank refuses the registration', function (this: ConformanceWorld) {
  const r = this.answer();
  if (r.status >= 400 && r.status < 500) return;
  const error = (r.body as { error?: unknown } | undefined)?.error;
  throw this.violation(`the bank must refuse ${this.notes.at(-1)} (RFC 7591: 400 invalid_software_statement), got ${describeAnswer(r)}${error ? ` (${quote(error)})` : ''}`);
});

When('the TPP registers with the profile\'s software statement', async function (this: ConformanceWorld) {
  await register(this, 'valid');
});

Given('the TPP has registered with the profile\'s software statement', async function (this: ConformanceWorld) {
  const r = await register(this, 'valid');
  if (r.status !== 201) throw this.blocked('DCR-02', `a registration with the profile's software statement was refused: ${describeAnswer(this.answer())}`);
});

Then('the registration names the client it issued', function (this: ConformanceWorld) {
  latest(this);
});

Then('the registered client can obtain a client-credentials token', async function (this: ConformanceWorld) {
  const reg = latest(this);
  if (!reg.clientSecret) throw this.blocked(undefined, `the bank registered client ${reg.clientId} with ${reg.tokenEndpointAuthMethod ?? 'no'} client authentication and no client_secret: obtpp obtains tokens for registered clients with a client secret only`);
  try {
    await (await this.lane.auth()).clientCredentialsAs(reg.clientId, reg.clientSecret, reg.tokenEndpointAuthMethod ?? 'client_secret_basic', this.ctx.profile.auth.scopes.ais);
  } catch (error) {
    if (error instanceof AuthorisationError || error instanceof HttpError) throw this.violation(`the registered client ${reg.clientId} could not obtain a client-credentials token: ${error.message}`);
    throw error;
  }
});

/** The kind of RFC 7592 call a scenario makes: with the token (read, update, delete), or without it (read, update). */
type Management = 'GET' | 'PUT' | 'DELETE' | 'GET without token' | 'PUT without token';

/** What the last update sent (the registration must read back with it). */
const updates = new WeakMap<ConformanceWorld, Record<string, unknown>>();

async function manage(world: ConformanceWorld, method: Management): Promise<void> {
  const reg = latest(world);
  if (!reg.registrationClientUri || !reg.registrationAccessToken) {
    throw new RegistrationNotConfigured(world.variant, 'the bank gave no registration_client_uri and registration access token: it does not offer RFC 7592 management');
  }
  try {
    const changes = updatableMetadata(world.ctx.profile, (await world.lane.auth()).security);
    if (method === 'PUT') updates.set(world, changes);
    const r = method === 'PUT' ? await updateRegistration(world.lane.http, reg, changes)
      : method === 'GET without token' ? await manageWithoutToken(world.lane.http, reg, 'GET')
        : method === 'PUT without token' ? await manageWithoutToken(world.lane.http, reg, 'PUT', { ...reg.metadata, ...changes })
          : await manageRegistration(world.lane.http, reg, method);
    if (method.endsWith('without token')) world.notes.push(`a registration ${method.startsWith('GET') ? 'read' : 'update'} without the registration access token`);
    world.last = { ...r, operation: 'createAccountAccessConsent' } as ApiResult;
    if (method === 'DELETE' && r.status === 204) (reg as { deleted?: boolean }).deleted = true;
    // A bank may rotate the registration access token on an update (RFC 7592 §2.2): later calls use the new one.
    const rotated = method === 'PUT' && r.status === 200 ? (r.body as { registration_access_token?: unknown } | undefined)?.registration_access_token : undefined;
    if (typeof rotated === 'string') reg.registrationAccessToken = rotated;
  } catch (error) {
    if (error instanceof HttpError) throw world.violation(`${method} of the registration: the bank gave no usable answer: ${error.message}`);
    throw error;
  }
}

When('the TPP reads the registration with its registration access token', async function (this: ConformanceWorld) {
  await manage(this, 'GET');
});

When('the TPP deletes the registration with its registration access token', async function (this: ConformanceWorld) {
  await manage(this, 'DELETE');
});

When('the TPP updates the registration with its registration access token, as the profile describes the client', async function (this: ConformanceWorld) {
  await manage(this, 'PUT');
});

When('the TPP reads the registration without its registration access token', async function (this: ConformanceWorld) {
  await manage(this, 'GET without token');
});

When('the TPP updates the registration without its registration access token', async function (this: ConformanceWorld) {
  await manage(this, 'PUT without token');
});

Then('the bank refuses the registration request', function (this: ConformanceWorld) {
  const r = this.answer();
  if (r.status >= 400 && r.status < 500) return;
  throw this.violation(`the bank must refuse ${this.notes.at(-1)} (RFC 7592 §2: the registration access token is required, RFC 6750: 401 invalid_token), got ${describeAnswer(r)}`);
});

Then('the registration reads back with the redirect URIs and scope of the update', async function (this: ConformanceWorld) {
  const reg = latest(this);
  const sent = updates.get(this)!;
  const answered = this.answer().body as Record<string, unknown> | undefined;
  if (answered?.client_id !== reg.clientId) throw this.violation(`the update must answer the registration of client ${reg.clientId}, got client_id ${quote(answered?.client_id)}`);
  const read = await manageRegistration(this.lane.http, reg, 'GET');
  if (read.status !== 200) throw this.violation(`after the update, the registration must still read back (200), got ${describeAnswer(read as ApiResult)}`);
  const body = read.body as Record<string, unknown>;
  const differs = ['redirect_uris', 'scope'].filter((k) => sent[k] !== undefined && !sameValue(body[k], sent[k]));
  if (differs.length) throw this.violation(`after an update that answered 200, the registration reads back ${differs.map((k) => `${k} ${quote(body[k])} (the update sent ${quote(sent[k])})`).join(', ')}`);
});

/** Equal as metadata: arrays in any order, scopes as sets of words. */
function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (Array.isArray(v) ? [...v].map(String).sort().join(' ') : typeof v === 'string' ? v.split(/\s+/).filter(Boolean).sort().join(' ') : JSON.stringify(v));
  return norm(a) === norm(b);
}

Then('the registration reads back the client it issued', function (this: ConformanceWorld) {
  const reg = latest(this);
  const got = (this.answer().body as { client_id?: unknown } | undefined)?.client_id;
  if (got !== reg.clientId) throw this.violation(`expected the registration of client ${reg.clientId}, got client_id ${quote(got)}`);
});

Then('the deleted client can no longer obtain a client-credentials token', async function (this: ConformanceWorld) {
  const reg = latest(this);
  if (!reg.clientSecret) throw this.blocked(undefined, `client ${reg.clientId} has no client_secret to try`);
  try {
    await (await this.lane.auth()).clientCredentialsAs(reg.clientId, reg.clientSecret, reg.tokenEndpointAuthMethod ?? 'client_secret_basic', this.ctx.profile.auth.scopes.ais);
  } catch (error) {
    if (error instanceof AuthorisationError) return;
    throw error;
  }
  throw this.violation(`client ${reg.clientId} still obtains tokens after its registration was deleted (204)`);
});

// Registrations the scenario made and did not delete are deleted, where the bank offers it (not judged).
After({ tags: '@dcr' }, async function (this: ConformanceWorld) {
  for (const reg of registrations.get(this) ?? []) {
    if ((reg as { deleted?: boolean }).deleted || !reg.registrationClientUri || !reg.registrationAccessToken) continue;
    await manageRegistration(this.lane.http, reg, 'DELETE').catch(() => undefined);
  }
});
