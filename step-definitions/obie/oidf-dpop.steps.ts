// The OpenID Foundation's FAPI modules of client assertions (SEC-21) and DPoP (SEC-23). A good
// client assertion or DPoP proof is openid-client's own, changed before it is signed where the
// module says so (its `modifyAssertion`); a proof no library would make (unsigned, a private key in
// its jwk, a signature that does not verify, two in one header) is signed here with jose.
import { createHash, randomUUID } from 'node:crypto';
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { WARNING_MEDIA_TYPE, describeAnswer } from '../support/judge.ts';
import { aisBody, createConsent, tokenOf } from '../support/setups.ts';
import { walk } from './oidf-setups.ts';
import { errorsOf, fapi, fapi2, judgeRefused, judgeTokenRefused, need, oneOf, probe, profileWords, results } from './oidf-support.ts';
import type { Auth, BeginOptions } from '../../src/auth/index.ts';
import type { ApiResult } from '../../src/client/operations.ts';
import { HttpError } from '../../src/errors.ts';

const now = () => Math.floor(Date.now() / 1000);

// ── SEC-21: client assertions ──────────────────────────────────────────────────────────────

Given('the TPP authenticates with private_key_jwt at a bank under a FAPI security profile', async function (this: ConformanceWorld) {
  const auth = await fapi(this);
  need(this, auth.security.clientAuth === 'private_key_jwt', `the client authenticates with ${auth.security.clientAuth}, not private_key_jwt: it sends no client assertion to judge`);
});

type Modify = (header: Record<string, unknown>, payload: Record<string, unknown>) => void;

/** Each client assertion a module sends: how it is made, and the footing it needs. */
const ASSERTIONS: Record<string, (world: ConformanceWorld, auth: Auth) => { modify?: Modify; alg?: 'RS256'; none?: true }> = {
  'signed with RS256': (world) => {
    need(world, !/"kty"\s*:\s*"(EC|OKP)"/.test(world.ctx.profile.auth.clientAuth.privateKey ?? ''), 'the client\'s key is not an RSA key, so no RS256 client assertion can be signed with it');
    return { alg: 'RS256' };
  },
  'left out (only the client_id sent)': () => ({ none: true }),
  'whose exp is 5 minutes in the past': () => ({ modify: (_h, p) => Object.assign(p, { iat: now() - 600, nbf: now() - 600, exp: now() - 300 }) }),
  'whose aud is not the authorisation server': () => ({ modify: (_h, p) => void (p.aud = 'https://not-the-authorisation-server.invalid') }),
  'without sub': () => ({ modify: (_h, p) => void delete p.sub }),
  'whose iat and nbf are 70 seconds in the future': () => ({ modify: (_h, p) => Object.assign(p, { iat: now() + 70, nbf: now() + 70, exp: now() + 130 }) }),
  'whose iat and nbf are 8 seconds in the future': () => ({ modify: (_h, p) => Object.assign(p, { iat: now() + 8, nbf: now() + 8, exp: now() + 68 }) }),
  'whose aud is the pushed-request endpoint (FAPI 2.0)': (world, auth) => {
    need(world, fapi2(auth.security), `FAPI 2.0 takes only its issuer as a client assertion's aud; the bank runs ${profileWords(auth.security)}, where the pushed-request endpoint is a valid aud (RFC 9126 §2)`);
    return { modify: (_h, p) => void (p.aud = auth.parEndpoint) };
  },
  'whose aud is an array holding the pushed-request endpoint': (world, auth) => {
    need(world, fapi2(auth.security), `FAPI 2.0 takes only its issuer as a client assertion's aud; the bank runs ${profileWords(auth.security)}`);
    return { modify: (_h, p) => void (p.aud = [auth.parEndpoint]) };
  },
  'whose aud is the token endpoint (FAPI 2.0)': (world, auth) => {
    need(world, fapi2(auth.security), `FAPI 2.0 takes only its issuer as a client assertion's aud; the bank runs ${profileWords(auth.security)}, where the token endpoint is a valid aud`);
    return { modify: (_h, p) => void (p.aud = auth.serverMetadata.token_endpoint) };
  },
  'whose aud is the pushed-request endpoint (FAPI 1.0)': (world, auth) => {
    need(world, auth.security.profile === 'fapi1-advanced', `the bank runs ${profileWords(auth.security)}, where the pushed-request endpoint is no valid aud (FAPI 2.0: the issuer only)`);
    return { modify: (_h, p) => void (p.aud = auth.parEndpoint) };
  },
};

When(new RegExp(`^the TPP sends the (token|pushed-request) endpoint a client assertion ${oneOf(Object.keys(ASSERTIONS))}$`), async function (this: ConformanceWorld, endpoint: string, how: string) {
  const auth = await this.lane.auth();
  if (endpoint !== 'token') need(this, auth.parEndpoint !== undefined, 'the bank\'s discovery advertises no pushed-request endpoint (RFC 9126): there is none to send a client assertion');
  const made = ASSERTIONS[how]!(this, auth);
  const what = `a client assertion ${how}`;
  if (endpoint === 'token') {
    const clientAuth = made.none ? 'none' as const : await auth.assertionAuth({ ...(made.modify ? { modify: made.modify } : {}), ...(made.alg ? { alg: made.alg } : {}) });
    try {
      results.set(this, { attempt: await auth.tryClientCredentials('ais', { clientAuth }), what });
    } catch (error) {
      if (error instanceof HttpError) throw this.violation(`the token endpoint gave no usable answer: ${error.message}`);
      throw error;
    }
    return;
  }
  const record = await createConsent(this, 'ais', aisBody(['ReadAccountsBasic']));
  const options: BeginOptions = { par: true, vary: { parAssertion: { ...(made.modify ? { modify: made.modify } : {}), ...(made.alg ? { alg: made.alg } : {}) } } };
  results.set(this, { probe: await probe(this, record, options), what });
});

Then(/^the (token|pushed-request) endpoint refuses it with (.+)$/, function (this: ConformanceWorld, endpoint: string, errors: string) {
  const r = results.get(this)!;
  if (r.attempt) return judgeTokenRefused(this, r.attempt, errorsOf(errors), r.what);
  const p = r.probe!;
  if (p.refused && p.refused.where !== `the ${endpoint} endpoint`) {
    throw this.violation(`the ${endpoint} endpoint must refuse ${r.what}, but it took it; ${p.refused.where} refused what followed (${p.refused.status}${p.refused.error ? ` ${p.refused.error}` : ''})`);
  }
  judgeRefused(this, p, errorsOf(errors), r.what);
});

Then('the pushed-request endpoint takes it and answers with a request_uri', function (this: ConformanceWorld) {
  const { probe: p, what } = results.get(this)!;
  if (p?.refused?.where === 'the pushed-request endpoint') {
    throw this.violation(`the pushed-request endpoint must take ${what}, but refused it (${p.refused.status}${p.refused.error ? ` ${p.refused.error}` : ''}${p.refused.description ? `: ${JSON.stringify(p.refused.description)}` : ''})`);
  }
});

// ── SEC-23: DPoP proofs at the resource server ─────────────────────────────────────────────

/** The resource server's newest DPoP nonce, per lane (RFC 9449 §9: kept and used until it sends another). */
const nonces = new WeakMap<object, string>();

/** The DPoP nonce a 401 asks for (`use_dpop_nonce`), if it does. */
function nonceAsked(r: ApiResult): string | undefined {
  const challenge = r.headers['www-authenticate'] ?? '';
  const nonce = r.headers['dpop-nonce'];
  return r.status === 401 && /use_dpop_nonce/.test(challenge) && typeof nonce === 'string' ? nonce : undefined;
}

const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/**
 * A DPoP proof signed with jose for one request, changed as a module says (`defect`, `modify`).
 * `pair` is the run's key unless the defect names another.
 */
async function proofFor(pair: CryptoKeyPair, alg: string, o: { htm: string; htu: string; token: string; nonce?: string; defect?: string; modify?: Modify; jti?: string }): Promise<string> {
  const { SignJWT, exportJWK, generateKeyPair } = await import('jose');
  let key = pair;
  if (o.defect === 'is signed with another key than the token\'s') key = await generateKeyPair(alg, { extractable: true }) as CryptoKeyPair;
  const header: Record<string, unknown> = { typ: 'dpop+jwt', alg, jwk: await exportJWK(key.publicKey) };
  const payload: Record<string, unknown> = {
    jti: o.jti ?? randomUUID(), htm: o.htm, htu: o.htu, iat: now(),
    ath: createHash('sha256').update(o.token).digest('base64url'),
    ...(o.nonce ? { nonce: o.nonce } : {}),
  };
  const change: Record<string, () => void> = {
    'has no typ': () => delete header.typ,
    'has another typ than dpop+jwt': () => (header.typ = 'JWT'),
    'carries the private key in its jwk': () => {},
    'has no jwk': () => delete header.jwk,
    'has no jti': () => delete payload.jti,
    'has no htm': () => delete payload.htm,
    'names another method in htm': () => (payload.htm = o.htm === 'PUT' ? 'PATCH' : 'PUT'),
    'has no htu': () => delete payload.htu,
    'names another URL in htu': () => (payload.htu = 'https://another-resource-server.example/accounts'),
    'has no iat': () => delete payload.iat,
    'was issued an hour from now': () => (payload.iat = now() + 3600),
    'was issued an hour ago': () => (payload.iat = now() - 3600),
    'has no ath': () => delete payload.ath,
    'hashes another access token in ath': () => (payload.ath = createHash('sha256').update(`${o.token}-another`).digest('base64url')),
  };
  if (o.defect) change[o.defect]?.();
  o.modify?.(header, payload);
  if (o.defect === 'carries the private key in its jwk') header.jwk = await exportJWK(key.privateKey);
  if (o.defect === 'is not signed (alg none)') return `${part({ ...header, alg: 'none' })}.${part(payload)}.`;
  if (o.defect === 'is not a JWT') return 'this-is-not-a-dpop-proof';
  const signed = await new SignJWT(payload).setProtectedHeader(header as never).sign(key.privateKey);
  if (o.defect === 'carries a signature that does not verify') {
    const [h, p, s] = signed.split('.');
    return `${h}.${p}.${s![0] === 'A' ? 'B' : 'A'}${s!.slice(1)}`;
  }
  if (o.defect === 'comes twice in one DPoP header') {
    const again = await new SignJWT({ ...payload, jti: randomUUID() }).setProtectedHeader(header as never).sign(key.privateKey);
    return `${signed}, ${again}`;
  }
  return signed;
}

/**
 * One call of a resource with a DPoP-bound token and a proof made here (listing the accounts, or
 * creating a consent with `create`): the resource server's nonce honoured with one retry, as the
 * module does. The answer becomes the scenario's last.
 */
export async function dpopCall(world: ConformanceWorld, token: string, o: { defect?: string; modify?: Modify; scheme?: string; create?: unknown; jti?: string; nonce?: string } = {}): Promise<ApiResult> {
  const c = world.client;
  const op = o.create === undefined ? 'listAccounts' as const : 'createAccountAccessConsent' as const;
  const htm = o.create === undefined ? 'GET' : 'POST';
  const htu = c.baseUrlOf('ais') + c.pathOf(op);
  const pair = await world.lane.http.dpop.keyPair();
  const alg = world.lane.http.dpop.alg;
  let nonce = o.nonce ?? nonces.get(world.lane);
  let r: ApiResult | undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const proof = await proofFor(pair, alg, { htm, htu, token, ...(nonce ? { nonce } : {}), ...(o.defect ? { defect: o.defect } : {}), ...(o.modify ? { modify: o.modify } : {}), ...(o.jti ? { jti: o.jti } : {}) });
    const headers = { authorization: `${o.scheme ?? 'DPoP'} ${token}`, dpop: proof };
    r = await world.call(`${o.create === undefined ? 'listing the accounts' : 'creating a consent'} with a DPoP proof${o.defect ? ` that ${o.defect}` : ''}`, (client) =>
      o.create === undefined ? client.listAccounts({ dpop: false, headers }) : client.createAccountAccessConsent(o.create, { dpop: false, headers }));
    const asked = nonceAsked(r);
    if (typeof r.headers['dpop-nonce'] === 'string') nonces.set(world.lane, r.headers['dpop-nonce']);
    if (!asked || asked === nonce) break;
    nonce = asked;
  }
  return r!;
}

/** The "full" consent's token, DPoP-bound (else nothing to prove). */
function boundToken(world: ConformanceWorld): string {
  const record = world.consents.get('full')!;
  const token = tokenOf(record);
  if (!world.lane.http.dpop.bound.has(token)) throw world.blocked(undefined, `the bank issued consent ${record.id}'s access token as a bearer token (token_type ${record.tokens?.tokenType}), not DPoP-bound, although the TPP sent its DPoP proof: nothing to prove`);
  return token;
}

const PROOF_DEFECTS = [
  'has no typ', 'has another typ than dpop+jwt', 'is not signed (alg none)', 'carries a signature that does not verify', 'carries the private key in its jwk',
  'has no jwk', 'has no jti', 'has no htm', 'names another method in htm', 'has no htu', 'names another URL in htu', 'has no iat', 'was issued an hour from now',
  'was issued an hour ago', 'has no ath', 'hashes another access token in ath', 'is signed with another key than the token\'s', 'comes twice in one DPoP header', 'is not a JWT',
];

When(new RegExp(`^the AISP lists the accounts with that consent's DPoP-bound token and a proof that ${oneOf(PROOF_DEFECTS)}$`), async function (this: ConformanceWorld, defect: string) {
  await dpopCall(this, boundToken(this), { defect });
  this.notes.push(`a DPoP proof that ${defect}`);
});

const replays = new WeakMap<ConformanceWorld, { first: ApiResult; second: ApiResult }>();

When('the AISP lists the accounts twice with that consent\'s DPoP-bound token and the same proof', async function (this: ConformanceWorld) {
  const token = boundToken(this);
  // A good call first, for the resource server's current nonce; then one proof sent twice.
  await dpopCall(this, token);
  const jti = randomUUID();
  const first = await dpopCall(this, token, { jti });
  const second = await dpopCall(this, token, { jti, ...(nonces.get(this.lane) ? { nonce: nonces.get(this.lane)! } : {}) });
  replays.set(this, { first, second });
});

Then('the bank should refuse the second request with 400 or 401', function (this: ConformanceWorld) {
  const { first, second } = replays.get(this)!;
  if (first.status !== 200) throw this.blocked(undefined, `the first use of the proof was not taken (${describeAnswer(first)}), so its replay says nothing`);
  if (second.status === 400 || second.status === 401) return;
  const message = `a DPoP proof whose jti the resource server saw a moment before should be refused (RFC 9449 §11.1), but the second use got ${describeAnswer(second)}`;
  this.attach(JSON.stringify({ level: 'SHOULD', source: 'RFC 9449 §11.1', message: `${this.ruleId}: ${message}`, problems: [message] }), WARNING_MEDIA_TYPE);
});

// ── SEC-23: variations both servers must take ──────────────────────────────────────────────

const VARIATIONS: Record<string, Modify> = {
  'carrying claims and header parameters the bank does not know': (h, p) => Object.assign(h, { obtpp_extra: 'ignored' }) && Object.assign(p, { obtpp_extra: 'ignored' }),
  'whose htu carries a query': (_h, p) => void (p.htu = `${String(p.htu)}?obtpp=1`),
  'issued 10 seconds ago': (_h, p) => void (p.iat = now() - 10),
  'issued 10 seconds from now': (_h, p) => void (p.iat = now() + 10),
  'with nbf now and exp 5 minutes from now': (_h, p) => Object.assign(p, { nbf: now(), exp: now() + 300 }),
};

const taken = new WeakMap<ConformanceWorld, { granted: boolean; why?: string; created?: ApiResult; skew?: boolean }>();

When(new RegExp(`^the TPP asks the token endpoint for a client-credentials token, and creates a consent with it, each with a DPoP proof ${oneOf(Object.keys(VARIATIONS))}$`), async function (this: ConformanceWorld, variation: string) {
  const auth = await this.lane.auth();
  const modify = VARIATIONS[variation]!;
  const handle = auth.dpopHandleOf(await this.lane.http.dpop.keyPair(), modify);
  const attempt = await auth.tryClientCredentials('ais', { dpop: handle });
  if (!attempt.granted) return void taken.set(this, { granted: false, why: `the token endpoint refused it: ${attempt.status} ${attempt.error}${attempt.description ? ` (${JSON.stringify(attempt.description)})` : ''}` });
  const created = await dpopCall(this, attempt.tokens.accessToken, { create: aisBody(['ReadAccountsBasic']), modify });
  taken.set(this, { granted: true, created, skew: variation.startsWith('issued 10 seconds') });
});

Then('both take it', function (this: ConformanceWorld) {
  const t = taken.get(this)!;
  if (!t.granted) throw this.violation(t.why!);
  if (t.created!.status === 201) return;
  const message = `the token endpoint took the proof, but the resource server refused the same kind of proof: POST account-access-consents answered ${describeAnswer(t.created!)}`;
  // FAPI 2.0 (5.3.2.1) makes the authorisation server take 10 seconds of clock skew; a resource
  // server's window for iat is its own (RFC 9449 §11.1): there, a SHOULD.
  if (t.skew) {
    this.attach(JSON.stringify({ level: 'SHOULD', source: 'RFC 9449 §11.1', message: `${this.ruleId}: ${message}`, problems: [message] }), WARNING_MEDIA_TYPE);
    return;
  }
  throw this.violation(message);
});

// ── SEC-23: a code bound to a DPoP key ─────────────────────────────────────────────────────

const BINDINGS: Record<string, { par: NonNullable<NonNullable<BeginOptions['vary']>['dpopAtPar']>; exchange?: 'other-key' | 'same-key' }> = {
  'with dpop_jkt of one key and a DPoP proof of another': { par: 'mismatch' },
  'with dpop_jkt, and the PSU authorises it, and the code is sent with another key\'s proof': { par: 'jkt', exchange: 'other-key' },
  'with a DPoP proof, and the PSU authorises it, and the code is sent with another key\'s proof': { par: 'proof', exchange: 'other-key' },
  'with a DPoP proof only, and the PSU authorises it, and the code is sent with that key\'s proof': { par: 'proof', exchange: 'same-key' },
  'with dpop_jkt only, and the PSU authorises it, and the code is sent with that key\'s proof': { par: 'jkt', exchange: 'same-key' },
};

When(new RegExp(`^the TPP pushes the authorisation request of the consent "([^"]+)" ${oneOf(Object.keys(BINDINGS))}$`), async function (this: ConformanceWorld, name: string, how: string) {
  const auth = await this.lane.auth();
  need(this, auth.security.par, `the bank's security profile (${profileWords(auth.security)}) does not push its requests: there is no pushed request to bind`);
  const b = BINDINGS[how]!;
  const record = this.consents.get(name)!;
  const options: BeginOptions = { vary: { dpopAtPar: b.par } };
  const what = `a pushed request ${how}`;
  if (!b.exchange) return void results.set(this, { probe: await probe(this, record, options), what });
  const { pending, journey } = await walk(this, record, options);
  const code = await auth.codeOf(pending, journey.callbackUrl);
  if (!code) throw this.blocked('SEC-18', `the bank's redirect back for consent ${record.id} carried no code`);
  results.set(this, { attempt: await auth.tryCodeExchange(code, pending, b.exchange === 'other-key' ? { dpop: 'other-key' } : {}), what });
});

Then('the token endpoint grants a DPoP-bound token', function (this: ConformanceWorld) {
  const { attempt, what } = results.get(this)!;
  if (!attempt!.granted) throw this.violation(`the token endpoint must grant the code of ${what}, but refused it: ${attempt!.status} ${attempt!.error}${attempt!.description ? ` (${JSON.stringify(attempt!.description)})` : ''}`);
  if (attempt!.tokens.tokenType !== 'DPoP') throw this.violation(`the token endpoint granted the code of ${what} a ${attempt!.tokens.tokenType} token, not a DPoP-bound one`);
});

