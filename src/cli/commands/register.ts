/**
 * `obtpp register`: dynamic client registration (OBIE DCR 3.3 / RFC 7591) with the profile's
 * software statement, and the registration's read, update and delete (RFC 7592). The client secret and
 * the registration access token go to the session state only; `register show --reveal` is the one
 * command that prints them.
 */
import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { withSession, when } from './common.ts';
import { UsageError } from '../../errors.ts';
import type { StoredRegistration } from '../../session/state.ts';
import type { Session } from '../../session/index.ts';

export async function create(io: Io, flags: CommonFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const { registrationOf, registrationClaims, signRegistration, sendRegistration, registrationFrom } = await import('../../auth/register.ts');
    const settings = registrationOf(session.profile);
    const auth = await session.authForRegistration();
    const endpoint = auth.registrationEndpoint;
    if (!endpoint) throw new UsageError('the bank\'s discovery document advertises no registration_endpoint: give registration.endpoint in the profile');
    const reg = await out.step(`registering obtpp at ${endpoint} (${settings.tokenEndpointAuthMethod})`, async () =>
      registrationFrom(await sendRegistration(session.http, endpoint, await signRegistration(session.profile, registrationClaims(session.profile, auth.issuer, { security: auth.security })))));
    const stored: StoredRegistration = {
      clientId: reg.clientId,
      ...(reg.clientSecret ? { clientSecret: reg.clientSecret } : {}),
      ...(reg.registrationAccessToken ? { registrationAccessToken: reg.registrationAccessToken } : {}),
      ...(reg.registrationClientUri ? { registrationClientUri: reg.registrationClientUri } : {}),
      ...(reg.tokenEndpointAuthMethod ? { tokenEndpointAuthMethod: reg.tokenEndpointAuthMethod } : {}),
      endpoint,
      registeredAt: Date.now(),
    };
    await session.update((s) => {
      s.registration = stored;
      // The session's client is the registered one: tokens of an earlier client are no use to it.
      if (session.profile.auth.clientFrom === 'registration') s.clientCredentials = {};
    });
    if (out.json) return out.document(view(stored, false));
    out.line(`registered client ${out.c.bold(stored.clientId)} (${stored.tokenEndpointAuthMethod ?? 'client auth not stated'}); its client secret and registration access token are in the session state (obtpp register show --reveal)`);
  });
}

export async function show(io: Io, flags: CommonFlags & { reveal?: boolean; remote?: boolean }): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const stored = await registered(session);
    let remote: unknown;
    if (flags.remote) {
      const { manageRegistration } = await import('../../auth/register.ts');
      const r = await manageRegistration(session.http, asRegistration(stored), 'GET');
      if (r.status !== 200) throw new UsageError(`the bank answered the registration read with ${r.status}: the registration may be gone (obtpp register delete forgets it)`);
      remote = hideSecrets(r.body, flags.reveal === true);
    }
    const doc = { ...view(stored, flags.reveal === true), ...(remote !== undefined ? { remote } : {}) };
    out.revealSecrets = flags.reveal === true;
    if (out.json) return out.document(doc);
    print(out, doc);
  });
}

export async function update(io: Io, flags: CommonFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const stored = await registered(session);
    const { updatableMetadata, updateRegistration } = await import('../../auth/register.ts');
    const changes = updatableMetadata(session.profile, (await session.authForRegistration()).security);
    const r = await out.step(`updating registration ${stored.clientId}`, () => updateRegistration(session.http, asRegistration(stored), changes));
    if (r.status !== 200) {
      const b = r.exchange.response?.body as { error?: unknown; error_description?: unknown } | undefined;
      const why = typeof b?.error === 'string' ? ` (${b.error}${typeof b.error_description === 'string' ? `: ${b.error_description}` : ''})` : '';
      throw new UsageError(`the bank answered the registration update with ${r.status}${why}; the registration is unchanged in the session state`);
    }
    const body = r.body as Record<string, unknown>;
    // The bank may rotate the registration access token or the secret on an update (RFC 7592 §2.2).
    const next: StoredRegistration = {
      ...stored,
      ...(typeof body.client_secret === 'string' ? { clientSecret: body.client_secret } : {}),
      ...(typeof body.registration_access_token === 'string' ? { registrationAccessToken: body.registration_access_token } : {}),
      ...(typeof body.token_endpoint_auth_method === 'string' ? { tokenEndpointAuthMethod: body.token_endpoint_auth_method } : {}),
    };
    await session.update((s) => void (s.registration = next));
    const set = Object.keys(changes).filter((k) => JSON.stringify(body[k]) === JSON.stringify(changes[k]));
    if (out.json) return out.document({ clientId: stored.clientId, status: r.status, set, registration: hideSecrets(body, false) });
    out.line(`updated registration ${out.c.bold(stored.clientId)} (${r.status}): ${set.join(', ') || 'nothing the profile sets'} as the profile says`);
  });
}

export async function del(io: Io, flags: CommonFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const stored = await registered(session);
    const { manageRegistration } = await import('../../auth/register.ts');
    const r = await out.step(`deleting registration ${stored.clientId}`, () => manageRegistration(session.http, asRegistration(stored), 'DELETE'));
    if (r.status !== 204 && r.status !== 200) throw new UsageError(`the bank answered the registration delete with ${r.status}; the registration is kept in the session state`);
    await session.update((s) => {
      delete s.registration;
      if (session.profile.auth.clientFrom === 'registration') s.clientCredentials = {};
    });
    if (out.json) return out.document({ clientId: stored.clientId, deleted: true, status: r.status });
    out.line(`deleted registration ${stored.clientId} (${r.status}); its secrets are forgotten`);
  });
}

async function registered(session: Session): Promise<StoredRegistration> {
  const stored = (await session.read()).registration;
  if (!stored) throw new UsageError(`no registration yet for ${session.profile.name}: obtpp register`);
  for (const s of [stored.clientSecret, stored.registrationAccessToken]) session.http.redactor.add(s);
  return stored;
}

function asRegistration(s: StoredRegistration) {
  return { clientId: s.clientId, clientSecret: s.clientSecret, registrationAccessToken: s.registrationAccessToken, registrationClientUri: s.registrationClientUri, metadata: {} };
}

/** The registration as printed: its secrets only with --reveal. */
function view(s: StoredRegistration, reveal: boolean): Record<string, unknown> {
  const { clientSecret, registrationAccessToken, ...rest } = s;
  return {
    ...rest,
    registeredAt: new Date(s.registeredAt).toISOString(),
    ...(reveal ? { ...(clientSecret ? { clientSecret } : {}), ...(registrationAccessToken ? { registrationAccessToken } : {}) } : { clientSecret: clientSecret ? 'held (--reveal prints it)' : 'none' }),
  };
}

function hideSecrets(body: unknown, reveal: boolean): unknown {
  if (reveal || !body || typeof body !== 'object') return body;
  // The bank may echo the software statement (RFC 7591 §3.2.1): as secret as the client secret.
  const { client_secret: _s, registration_access_token: _t, software_statement: _ssa, ...rest } = body as Record<string, unknown>;
  return rest;
}

function print(out: Out, doc: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(doc)) {
    if (k === 'remote') continue;
    out.line(`${out.c.dim(k.padEnd(24))} ${k === 'registeredAt' ? when(String(v)) : String(v)}`);
  }
  if (doc.remote) out.line(`${out.c.dim('at the bank'.padEnd(24))} ${JSON.stringify(doc.remote)}`);
}
