// A hostile bank on loopback (plain node:http): a discovery document that works, and an
// authorisation server and resource server whose every answer is whatever the test wants it to be —
// an error echoing secrets (body and headers), a `]]>` breakout, a body of 200 MB, JSON nested
// 100 000 levels deep. The hostile tests point obtpp's CLI and conformance run at it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLoopback } from '../helpers/loopback.ts';

/**
 * How a path answers, instead of an echo: `huge` a streamed body of hugeBytes (200 MB), `deep` JSON
 * nested 100 000 levels, `big` valid JSON of ~900 KB (under the 1 MiB cap, over any evidence cap).
 */
export type Abuse = 'huge' | 'deep' | 'big';

export interface HostileOptions {
  /** The text every error answer carries (in error_description, Message, and extra members). */
  echo: string;
  /** Extra response headers on every answer (values must be header-safe). */
  headers?: Record<string, string>;
  /** Per endpoint: answer with abuse instead of the usual. */
  abuse?: Partial<Record<'discovery' | 'token' | 'resource', Abuse>>;
  /** API paths (by the end of the path) answered with abuse, before `abuse.resource`. */
  paths?: Record<string, Abuse>;
  /** API paths (by the end of the path) answered 200 with this JSON. */
  answers?: Record<string, unknown>;
  /** Client credentials granted for every scope (else only `accounts`). */
  grantAll?: boolean;
  /** Bytes of a huge answer (default 200 MB). */
  hugeBytes?: number;
  /** The ErrorCode of the API's error answers (default UK.OBIE.Field.Invalid, a code of the standard). */
  errorCode?: string;
}

export interface HostileBank {
  base: string;
  /** Paths asked, in order (`POST /token grant_type=…`). */
  seen: string[];
  /** The access token the token endpoint issues for the `accounts` scope (client credentials). */
  ccToken: string;
  /** Bytes written in huge answers so far. */
  hugeWritten: () => number;
  close(): Promise<void>;
}

const DEEP = 100_000;

export async function startHostileBank(o: HostileOptions): Promise<HostileBank> {
  const seen: string[] = [];
  let hugeWritten = 0;
  let base = '';
  const ccToken = `cc-${randomBytes(16).toString('hex')}`;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', ...(o.headers ?? {}) });
    res.end(text);
  };
  const abuse = async (res: ServerResponse, how: Abuse) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(o.headers ?? {}) });
    if (how === 'deep') return void res.end('['.repeat(DEEP) + ']'.repeat(DEEP));
    if (how === 'big') return void res.end(JSON.stringify({ Data: { pad: Array.from({ length: 900 }, (_v, i) => `${i}:${'y'.repeat(1000)}`) } }));
    // Streamed (no Content-Length), so that only reading tells how big it is.
    const total = o.hugeBytes ?? 200 * 1024 * 1024;
    const chunk = Buffer.from('{"pad":"' + 'x'.repeat(64 * 1024 - 10) + '"}');
    res.write('[');
    let closed = false;
    let wake: () => void = () => undefined;
    res.on('close', () => {
      closed = true;
      wake();
    });
    res.on('drain', () => wake());
    while (!closed && hugeWritten < total) {
      hugeWritten += chunk.length;
      if (!res.write(chunk)) await new Promise<void>((r) => (wake = r));
      if (!closed) res.write(',');
    }
    res.end('{}]');
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      seen.push(`${req.method} ${url.pathname}${form.get('grant_type') ? ` grant_type=${form.get('grant_type')}` : ''}`);
      if (url.pathname === '/.well-known/openid-configuration') {
        if (o.abuse?.discovery) return void abuse(res, o.abuse.discovery);
        return send(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          jwks_uri: `${base}/jwks`,
          registration_endpoint: `${base}/register`,
          pushed_authorization_request_endpoint: `${base}/par`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
          code_challenge_methods_supported: ['S256'],
          request_parameter_supported: true,
          scopes_supported: ['openid', 'accounts', 'fundsconfirmations', 'payments'],
          service_documentation: o.echo,
        });
      }
      if (url.pathname === '/token') {
        if (o.abuse?.token) return void abuse(res, o.abuse.token);
        const grant = form.get('grant_type');
        if (grant === 'refresh_token') return send(res, 400, { error: 'invalid_request', error_description: `refresh token ${form.get('refresh_token')} is not valid here; ${o.echo}` });
        // One scope gets a token (so that the API is reached), the others an error echoing everything.
        if (grant === 'client_credentials' && (o.grantAll || /\baccounts\b/.test(form.get('scope') ?? ''))) return send(res, 200, { access_token: ccToken, token_type: 'Bearer', expires_in: 300, scope: 'accounts' });
        return send(res, 400, { error: 'invalid_client', error_description: o.echo, echo: o.echo });
      }
      if (url.pathname === '/par') return send(res, 400, { error: 'invalid_request', error_description: o.echo });
      if (url.pathname === '/register') return send(res, 400, { error: 'invalid_software_statement', error_description: o.echo });
      if (url.pathname === '/jwks') return send(res, 500, { error: 'server_error', error_description: o.echo });
      const answer = Object.entries(o.answers ?? {}).find(([end]) => url.pathname.endsWith(end));
      if (answer) return send(res, 200, answer[1]);
      const byPath = Object.entries(o.paths ?? {}).find(([end]) => url.pathname.endsWith(end));
      if (byPath) return void abuse(res, byPath[1]);
      if (o.abuse?.resource) return void abuse(res, o.abuse.resource);
      // The API echoes the request's own token too.
      const told = `${o.echo} | your token: ${req.headers.authorization ?? 'none'}`;
      send(res, 400, { Code: '400 Bad Request', Id: o.echo.slice(0, 40), Message: told, Errors: [{ ErrorCode: o.errorCode ?? 'UK.OBIE.Field.Invalid', Message: told, Path: o.echo }] });
    });
  });
  const { base: b, close } = await listenLoopback(server);
  base = b;
  return { base, seen, ccToken, hugeWritten: () => hugeWritten, close };
}

/** A profile (JSON) for the hostile bank: client_secret_basic, manual PSU driver (no browser), PAR, DCR. */
export function hostileProfile(base: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'hostile bank',
    variants: ['A'],
    baseUrl: `${base}/A/open-banking/v3.1`,
    paths: { accountAccessConsents: '/account-access-consents', paymentProduct: 'domestic-payments' },
    auth: {
      issuer: base,
      clientId: 'obtpp-hostile',
      clientAuth: { method: 'client_secret_basic', secret: '${env:H_CLIENT_SECRET}', privateKey: '${env:H_PRIVATE_KEY}', kid: 'k1', alg: 'PS256' },
      redirectUri: 'http://127.0.0.1:9/callback',
      scopes: { ais: 'accounts', cof: 'fundsconfirmations', pis: 'payments' },
      intentBinding: { method: 'claims' },
      offlineAccess: true,
      par: 'always',
    },
    psu: { username: '${env:H_PSU_USER}', password: '${env:H_PSU_PASSWORD}', driver: { kind: 'manual' } },
    registration: { softwareStatement: '${env:H_SSA}', key: '${env:H_PRIVATE_KEY}', kid: 'k1' },
    bank: { jwks: `${base}/jwks` },
    timeouts: { requestMs: 5000, browserStepMs: 5000, authorisationMs: 5000 },
    ...over,
  };
}

/**
 * A CLI session state for the hostile profile (variant A) that already holds one AIS consent and
 * its tokens, as after `obtpp consent authorise`.
 */
export async function writeSessionState(file: string, base: string, consent: { id: string; status: string }, tokens: Record<string, unknown>): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  const record = { id: consent.id, fn: 'ais', status: consent.status, createdAt: new Date().toISOString() };
  await writeFile(file, JSON.stringify({
    version: 1,
    profiles: {
      [`hostile bank | ${base}/A/open-banking/v3.1 | obtpp-hostile | A`]: {
        profile: 'hostile bank', baseUrl: `${base}/A/open-banking/v3.1`, clientId: 'obtpp-hostile', variant: 'A',
        current: { ais: record.id }, last: record.id, consents: { [record.id]: record },
        tokens: { [record.id]: tokens },
        clientCredentials: {},
      },
    },
  }), { mode: 0o600 });
}
