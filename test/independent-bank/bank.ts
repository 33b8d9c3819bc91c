/**
 * A second, independent test bank (Larchmont Bank), built from different parts than src/sandbox
 * and importing nothing from it: its own oidc-provider configuration and sign-in pages on one
 * server, and account information, funds confirmation and payment initiation each on a server of
 * its own, under the UK paths /open-banking/v3.1/aisp, /cbpii and /pisp (variant B under /b/…).
 * It is conformant in its own way: UUID AccountIds, JWT access tokens, client_secret_post, a
 * two-step sign-in, bodies with only the official schemas' required fields, payment-order consents
 * at /domestic-payment-consents, and no transaction-detail endpoint (the UK standard has none).
 * Started with `paymentFamilies`, it also serves every payment family of UK Read/Write v3.1.11 and
 * VRP (payments.ts) and signs its payment answers and checks the TPP's (signing.ts). Started with
 * `version: 'v4.0'`, it serves the same operations under /open-banking/v4.0/… in v4.0's words (v4.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import { makeProvider, pages, type Flow } from './auth.ts';
import { resourceServers } from './apis.ts';
import { makeCustomers } from './data.ts';
import { BankState } from './state.ts';
import { familyRoutes } from './payments.ts';
import { makeSigning, type TppSigningKey } from './signing.ts';

export interface IndependentBank {
  issuer: string;
  /** Base URL of each API per variant (payment initiation: variant A only). */
  apis: { ais: { A: string; B: string }; cof: { A: string; B: string }; pis: { A: string } };
  /** `privateKeyPem`/`kid`: with the hybrid flow, the key the TPP signs its request objects with (registered with the bank). */
  client: { clientId: string; clientSecret: string; redirectUri: string; privateKeyPem?: string; kid?: string };
  psu: { username: string; password: string };
  /** With paymentFamilies: the TPP's message-signing key (PKCS#8 PEM) and its kid, as the directory issued them. */
  tppSigningKey?: TppSigningKey;
  state: BankState;
  stop(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Defects the bank can be started with, to show the harness catches them on a bank it does not know. */
export type BankDefect =
  | 'lists-unselected-accounts' | 'discloses-balance'
  /** Each account's Account is an object, not an array (AIS-11), its identification still readable. */
  | 'account-object'
  /** Each account's Account is an object of the bank's own shape: no identification can be read from it. */
  | 'account-object-unreadable'
  /** A payment's status lives at /payment-status/{paymentId}, not …/{paymentId}/status. */
  | 'status-elsewhere'
  /** POST /account-access-consents answers 500: the bank's failure, never a set-up error. */
  | 'consent-500'
  /** Standing orders read under ReadStandingOrdersBasic carry the payee's account (UKAIS-02). */
  | 'payee-under-basic'
  /** Signing in takes SLOW_SIGN_IN_MS: every PSU journey outlasts a consent valid for 3 seconds. */
  | 'slow-sign-in';

export async function startIndependentBank(options: { redirectUri?: string; defects?: BankDefect[]; paymentFamilies?: boolean; version?: 'v3.1' | 'v4.0'; flow?: Flow } = {}): Promise<IndependentBank> {
  const version = options.version ?? 'v3.1';
  const state = new BankState(makeCustomers(), options.defects ?? [], version);
  const { privateKey } = await generateKeyPair('PS256', { modulusLength: 2048, extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid: `lb-${randomBytes(4).toString('hex')}`, use: 'sig' };
  const redirectUri = options.redirectUri ?? 'https://tpp.example.org/ob/callback';
  const client: IndependentBank['client'] = { clientId: `lb-tpp-${randomBytes(3).toString('hex')}`, clientSecret: randomBytes(24).toString('base64url'), redirectUri };
  // The hybrid flow's request objects are signed: the TPP's key, made here as a directory would issue it.
  let publicJwk: Record<string, unknown> | undefined;
  if (options.flow === 'hybrid') {
    const tpp = await generateKeyPair('PS256', { modulusLength: 2048, extractable: true });
    client.kid = `lb-tpp-key-${randomBytes(3).toString('hex')}`;
    client.privateKeyPem = await exportPKCS8(tpp.privateKey);
    publicJwk = { ...(await exportJWK(tpp.publicKey)), kid: client.kid, use: 'sig' };
  }

  let authHandler: (req: IncomingMessage, res: ServerResponse) => void = (_q, r) => void r.writeHead(503).end();
  const auth = await listen((req, res) => authHandler(req, res));
  const issuer = auth.origin;
  const provider = makeProvider({ issuer, state, privateJwk, flow: options.flow, client: { ...client, redirectUris: [redirectUri], name: 'Independent test TPP', ...(publicJwk ? { publicJwk } : {}) } });
  const signin = pages(provider, state);
  const oidc = provider.callback();
  authHandler = (req, res) => {
    state.hits.auth = (state.hits.auth ?? 0) + 1;
    const m = /^\/signin\/([\w-]+)(?:\/(identify|verify|notice|decide))?$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (m) {
      signin(req, res, m[1]!, m[2]).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    } else oidc(req, res);
  };

  const bases = {
    ais: { A: `/open-banking/${version}/aisp`, B: `/b/open-banking/${version}/aisp` },
    cof: { A: `/open-banking/${version}/cbpii`, B: `/b/open-banking/${version}/cbpii` },
    pis: { A: `/open-banking/${version}/pisp` },
  };
  // paymentFamilies: the bank as UK Read/Write v3.1.11 has it from v3.1.4 on — every payment family
  // and VRP, and message signing both ways (the TPP's key is issued here, as a directory would).
  const signed = options.paymentFamilies ? await makeSigning(privateJwk, issuer) : undefined;
  const handlers = resourceServers(state, issuer, bases, signed?.signing, options.paymentFamilies ? familyRoutes(state) : []);
  const [ais, cof, pis] = await Promise.all([listen(handlers.ais), listen(handlers.cof), listen(handlers.pis)]);
  const servers = [auth.server, ais.server, cof.server, pis.server];
  const customer = state.customers[0]!;
  return {
    issuer,
    apis: {
      ais: { A: ais.origin + bases.ais.A, B: ais.origin + bases.ais.B },
      cof: { A: cof.origin + bases.cof.A, B: cof.origin + bases.cof.B },
      pis: { A: pis.origin + bases.pis.A },
    },
    client,
    psu: { username: customer.customerNumber, password: customer.secretWord },
    ...(signed ? { tppSigningKey: signed.tpp } : {}),
    state,
    stop: () => Promise.all(servers.map((s) => new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    }))).then(() => undefined),
  };
}
