import type { Io } from '../io.ts';
import type { CommonFlags } from '../output.ts';
import { withSession, when } from './common.ts';
import { FN_NAMES } from '../../session/index.ts';
import { StateError } from '../../errors.ts';

export interface TokenFlags extends CommonFlags { consent?: string }

/** The only command that prints a token: the current (or --consent) consent's, on stdout. */
export async function show(io: Io, flags: TokenFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, flags.consent);
    const ps = await session.read();
    const t = ps.tokens[record.id];
    if (!t) {
      throw new StateError('not_authorised', `consent ${record.id} is not authorised yet: run obtpp consent authorise ${record.id}`);
    }
    // How the token is bound: a DPoP-bound one is of no use without a proof of the session's key (its thumbprint shown, never the key).
    const constraint = t.senderConstraint ?? (t.tokenType?.toLowerCase() === 'dpop' ? 'dpop' : undefined);
    const jkt = constraint === 'dpop' ? await session.http.dpop.thumbprint() : undefined;
    const doc = {
      consentId: record.id, fn: record.fn, tokenType: t.tokenType ?? 'Bearer', accessToken: t.accessToken,
      ...(constraint ? { senderConstraint: constraint } : {}),
      ...(jkt ? { dpopJkt: jkt } : {}),
      ...(t.refreshToken ? { refreshToken: t.refreshToken } : {}),
      ...(t.expiresAt ? { expiresAt: new Date(t.expiresAt).toISOString(), expired: t.expiresAt <= Date.now() } : {}),
      ...(t.scope ? { scope: t.scope } : {}),
      ...(t.intentId ? { intentId: t.intentId } : {}),
    };
    // This command's job is to print the tokens: the last line of redaction stands aside.
    out.revealSecrets = true;
    if (out.json) return out.document(doc);
    out.line(`${FN_NAMES[record.fn]} ${record.id}`);
    out.line(`access_token   ${t.accessToken}`);
    out.line(`bound          ${constraint === 'dpop' ? `DPoP (token_type DPoP): sent as Authorization: DPoP with a fresh proof of the session's key, jkt ${jkt}` : constraint === 'mtls' ? 'to the client certificate (mTLS): sent only over a connection with mtls.cert' : constraint === 'none' ? 'not bound (a bearer token)' : 'not said'}`);
    if (t.refreshToken) out.line(`refresh_token  ${t.refreshToken}`);
    out.line(`expires        ${t.expiresAt ? `${when(t.expiresAt)}${t.expiresAt <= Date.now() ? ' (expired)' : ''}` : 'not said'}`);
    if (t.scope) out.line(`scope          ${t.scope}`);
    if (t.intentId) out.line(`intent id      ${t.intentId} (openbanking_intent_id of the id_token)`);
    out.note('These are secrets: do not paste them into tickets or chats.');
  });
}

export async function refresh(io: Io, flags: TokenFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const record = await session.consent(undefined, flags.consent);
    const t = await out.step(`refreshing the tokens of ${record.id}`, () => session.refresh(record.id));
    const doc = { consentId: record.id, fn: record.fn, refreshed: true, ...(t.expiresAt ? { expiresAt: new Date(t.expiresAt).toISOString() } : {}), ...(t.scope ? { scope: t.scope } : {}) };
    if (out.json) return out.document(doc);
    out.line(`refreshed the tokens of ${FN_NAMES[record.fn]} ${record.id}${t.expiresAt ? `; valid until ${when(t.expiresAt)}` : ''}`);
  });
}

export async function clear(io: Io, flags: TokenFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    const target = flags.consent ? (await session.consent(undefined, flags.consent)).id : undefined;
    const { consents, clientCredentials } = await session.update((s) => {
      if (target) {
        const had = s.tokens[target] ? [target] : [];
        delete s.tokens[target];
        return { consents: had, clientCredentials: [] as string[] };
      }
      const gone = { consents: Object.keys(s.tokens), clientCredentials: Object.keys(s.clientCredentials) };
      s.tokens = {};
      s.clientCredentials = {};
      return gone;
    });
    const cleared = consents.length + clientCredentials.length;
    const where = `profile ${session.profile.name} (variant ${session.variant}) in ${session.state.path}`;
    if (out.json) {
      return out.document({ cleared, consents, clientCredentials, ...(target ? { consentId: target } : { profile: session.profile.name, variant: session.variant }), state: session.state.path });
    }
    if (cleared === 0) {
      out.line(target ? `consent ${target} had no tokens to clear (${where})` : `no tokens to clear for ${where}`);
      return;
    }
    const parts: string[] = [];
    if (consents.length) parts.push(`the PSU tokens of ${consents.length === 1 ? 'consent' : `${consents.length} consents:`} ${consents.join(', ')}`);
    if (clientCredentials.length) parts.push(`the client-credentials token${clientCredentials.length === 1 ? '' : 's'} of ${clientCredentials.join(', ')}`);
    out.line(`cleared ${parts.join(' and ')} for ${where}; the consents are kept (a new authorisation gives new tokens: obtpp consent authorise)`);
  });
}
