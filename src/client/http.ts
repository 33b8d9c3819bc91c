import { Agent, buildConnector, request as undiciRequest, fetch as undiciFetch, type Dispatcher } from 'undici';
import { randomUUID } from 'node:crypto';
import { HttpError } from '../errors.ts';
import type { Exchange } from './exchange.ts';
import { Redactor } from './redact.ts';
import { DpopKey } from './dpop-key.ts';

export interface HttpOptions {
  /** PEM strings for mTLS and private CAs. */
  ca?: string;
  cert?: string;
  key?: string;
  /** Skip certificate verification (the profile's tls.insecure). A loud warning is emitted. */
  insecure?: boolean;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** Values to scrub from every capture (client secret, PSU password, private key …). */
  secrets?: Iterable<string>;
  /** A redactor shared with other clients (the lanes of one run), so a token one learns is scrubbed by all. */
  redactor?: Redactor;
  /** Called with every captured (redacted) exchange. */
  onExchange?: (exchange: Exchange) => void;
  /** The DPoP key shared with other clients of one run or session (its tokens are bound to it); default a new one, made on first use. */
  dpop?: DpopKey;
  /** Where warnings go (stderr in the CLI). */
  warn?: (message: string) => void;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A JSON body (sent with Content-Type application/json unless headers say otherwise). */
  json?: unknown;
  /** A raw body. */
  body?: string;
  timeoutMs?: number;
}

export interface HttpResult<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined when the body was empty or not JSON (see `text`). */
  body: T | undefined;
  text: string;
  json: boolean;
  exchange: Exchange;
}

const EVIDENCE_TEXT_LIMIT = 4096;
/** A JSON body kept as evidence: up to this many characters of its (redacted) JSON text, else cut. */
const EVIDENCE_JSON_LIMIT = 16 * 1024;
/**
 * JSON nested deeper than this is not parsed: no bank's answer needs it, and walking it (judging,
 * redaction, JSON.stringify) would overflow the stack. It is judged as a body that is not JSON.
 */
export const MAX_JSON_DEPTH = 256;
/** `a=b&c=d`: a body that is a form whatever its content type says. */
const FORM_LIKE = /^[A-Za-z0-9_.~%-]+=[^&\s]*(&[A-Za-z0-9_.~%-]+=[^&\s]*)*$/;

/**
 * Text kept as evidence is cut at 4 KiB, always after redaction (a cut must not split a secret),
 * with a marker saying how much was left out, so that a report stays small whatever the bank sends.
 */
function evidenceText(redacted: string, limit = EVIDENCE_TEXT_LIMIT): string {
  return redacted.length > limit ? `${redacted.slice(0, limit)}…[cut: ${redacted.length - limit} more characters not kept]` : redacted;
}

/** A parsed JSON body as evidence: redacted, and cut (as text) when its JSON is over 16 KiB. */
function evidenceJson(redactor: Redactor, parsed: unknown): unknown {
  const redacted = redactor.json(parsed);
  const text = JSON.stringify(redacted);
  return text.length > EVIDENCE_JSON_LIMIT ? evidenceText(text, EVIDENCE_JSON_LIMIT) : redacted;
}

/** Whether JSON text nests arrays/objects deeper than `max` (strings skipped), without parsing it. */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/**
 * JSON.parse that never throws: undefined for a body that is not JSON, or nested too deep to handle.
 * Only a body that opens as nesting JSON does (`[` or `{`) is measured: a PDF or an XML document
 * full of brackets is merely not JSON, never "nested too deep".
 */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; why?: string } {
  const start = text.trimStart();
  if (start.length === 0) return { ok: false };
  if ((start[0] === '[' || start[0] === '{') && nestsDeeperThan(text, MAX_JSON_DEPTH)) return { ok: false, why: `JSON nested deeper than ${MAX_JSON_DEPTH} levels, not parsed` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The HTTP core: one keep-alive undici dispatcher per profile (mTLS when the profile has a client
 * certificate), a time-out per request, a cap on response size, JSON parsing that never throws,
 * and a redacted Exchange for every call.
 */
export class HttpClient {
  readonly dispatcher: Agent;
  readonly redactor: Redactor;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly exchanges: Exchange[] = [];
  /** The DPoP key (RFC 9449) the tokens sent through this client are bound to, when the bank binds them so. */
  readonly dpop: DpopKey;
  private seq = 0;
  private readonly onExchange?: (exchange: Exchange) => void;

  constructor(options: HttpOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
    this.redactor = options.redactor ?? new Redactor();
    for (const secret of options.secrets ?? []) this.redactor.add(secret);
    if (options.key) this.redactor.add(options.key);
    this.onExchange = options.onExchange;
    this.dpop = options.dpop ?? new DpopKey();
    if (options.insecure) {
      (options.warn ?? ((m: string) => process.stderr.write(m + '\n')))(
        'WARNING: TLS certificate verification is OFF for this profile (tls.insecure: true). Never use this against a production bank.',
      );
    }
    this.hasClientCertificate = Boolean(options.cert && options.key);
    const connector = buildConnector({
      ca: options.ca,
      cert: options.cert,
      key: options.key,
      rejectUnauthorized: !options.insecure,
      timeout: this.timeoutMs,
    });
    this.dispatcher = new Agent({
      keepAliveTimeout: 10_000,
      connections: 16,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // undici reports a TLS 1.3 alert sent after the handshake (a server refusing our client
      // certificate) as a bare "other side closed"; remember the socket's real TLS error so
      // that classify() can say what happened.
      connect: (opts, callback) =>
        connector(opts, (error, socket) => {
          if (socket) {
            const port = socket.localPort;
            if (port !== undefined) this.tlsErrors.delete(port);
            socket.on('error', (e: NodeJS.ErrnoException) => {
              if (port !== undefined && /^ERR_(SSL|TLS)_/.test(String(e.code))) {
                this.tlsErrors.set(port, e);
                if (this.tlsErrors.size > 64) this.tlsErrors.delete(this.tlsErrors.keys().next().value!);
              }
            });
            callback(null, socket);
          } else callback(error!, null);
        }),
    });
  }

  /** True when the client presents a certificate (mTLS); lets classify() word TLS refusals. */
  private readonly hasClientCertificate: boolean;
  /** The last TLS error seen on each socket, by local port (see the connector above). */
  private readonly tlsErrors = new Map<number, Error>();

  /** Keep exchanges for a caller (a conformance scenario) from now on; returns a function that stops. */
  recordInto(sink: Exchange[]): () => void {
    const listener = (ex: Exchange) => sink.push(ex);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  private readonly listeners = new Set<(ex: Exchange) => void>();

  private emit(ex: Exchange): void {
    this.exchanges.push(ex);
    if (this.exchanges.length > 500) this.exchanges.shift();
    this.onExchange?.(ex);
    for (const l of this.listeners) l(ex);
  }

  /** Sends one request. Resolves for every HTTP status; rejects with HttpError only below HTTP. */
  async request<T = unknown>(method: string, url: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...lower(options.headers ?? {}) };
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const started = performance.now();
    const exchange = this.startExchange(method, url, headers, body, headers['content-type']);
    exchange.interactionId = headers['x-fapi-interaction-id'] ? { sent: headers['x-fapi-interaction-id'] } : undefined;
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Dispatcher.ResponseData;
    try {
      res = await undiciRequest(url, { method: method as Dispatcher.HttpMethod, headers, body, dispatcher: this.dispatcher, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    } catch (error) {
      throw this.fail(exchange, started, error, timeoutMs);
    }
    exchange.timings.headersMs = Math.round(performance.now() - started);
    const resHeaders = flatten(res.headers);
    const read = { bytes: 0 };
    let text: string;
    try {
      text = (await this.readCapped(res.body, resHeaders, read)).toString('utf8');
    } catch (error) {
      exchange.response = { status: res.statusCode, headers: this.redactor.headers(resHeaders), json: false, bytes: read.bytes };
      throw this.fail(exchange, started, error, timeoutMs);
    }
    const json = parseJson(text);
    const parsed = json.ok ? json.value : undefined;
    this.recordAnswer(exchange, res.statusCode, resHeaders, text, json, read.bytes);
    if (resHeaders['x-fapi-interaction-id']) exchange.interactionId = { ...exchange.interactionId, received: resHeaders['x-fapi-interaction-id'] };
    exchange.timings.durationMs = Math.round(performance.now() - started);
    this.emit(exchange);
    return { status: res.statusCode, headers: resHeaders, body: parsed as T | undefined, text, json: json.ok, exchange };
  }

  /**
   * A fetch for openid-client (its customFetch): same dispatcher (so mTLS and private CAs apply
   * to the authorisation server too), same capture and redaction. Token responses teach the
   * redactor the tokens they carry.
   */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = headersToRecord(init.headers);
    const bodyText = typeof init.body === 'string' ? init.body : init.body instanceof URLSearchParams ? init.body.toString() : undefined;
    const contentType = headers['content-type'] ?? (init.body instanceof URLSearchParams ? 'application/x-www-form-urlencoded' : undefined);
    const started = performance.now();
    const exchange = this.startExchange(method, url, headers, bodyText, contentType);
    let response: Response;
    try {
      response = (await undiciFetch(url, {
        ...(init as object),
        dispatcher: this.dispatcher,
        signal: init.signal ?? AbortSignal.timeout(this.timeoutMs),
      } as never)) as unknown as Response;
    } catch (error) {
      throw this.fail(exchange, started, error, this.timeoutMs);
    }
    const resHeaders: Record<string, string> = {};
    response.headers.forEach((v, k) => (resHeaders[k] = v));
    // The authorisation server's answers are capped like the API's: read up to the limit, then stop.
    const read = { bytes: 0 };
    let raw: Buffer;
    try {
      raw = await this.readFetchCapped(response, resHeaders, url, read);
    } catch (error) {
      exchange.response = { status: response.status, headers: this.redactor.headers(resHeaders), json: false, bytes: read.bytes };
      throw this.fail(exchange, started, error, this.timeoutMs);
    }
    const text = raw.toString('utf8');
    const json = parseJson(text);
    if (json.ok) this.learnTokens(json.value);
    this.recordAnswer(exchange, response.status, resHeaders, text, json, read.bytes);
    // openid-client reads the answer from here: the bytes already read (a body too deep to be JSON is
    // handed on as not JSON, which openid-client refuses like any malformed answer).
    const body = json.ok || !json.why ? raw : Buffer.from(json.why);
    response = new Response(response.status === 204 || response.status === 304 ? null : new Uint8Array(body), { status: response.status, statusText: response.statusText, headers: response.headers });
    exchange.timings.durationMs = Math.round(performance.now() - started);
    this.emit(exchange);
    return response;
  };

  /** An exchange's record as its request leaves: method, URL, headers and body, redacted. */
  private startExchange(method: string, url: string, headers: Record<string, string>, body: string | undefined, contentType: string | undefined): Exchange {
    return {
      seq: ++this.seq,
      method,
      url: this.redactor.url(url),
      request: { headers: this.redactor.headers(headers), body: this.captureRequestBody(body, contentType) },
      timings: { startedAt: new Date().toISOString(), durationMs: 0 },
    };
  }

  /** The answer on the exchange's record, redacted: status, headers, the body as JSON or text, its size. */
  private recordAnswer(exchange: Exchange, status: number, headers: Record<string, string>, text: string, json: ReturnType<typeof parseJson>, bytes: number): void {
    exchange.response = {
      status,
      headers: this.redactor.headers(headers),
      body: json.ok ? evidenceJson(this.redactor, json.value) : text.length ? evidenceText(this.redactor.text(text)) : undefined,
      json: json.ok,
      bytes,
      ...(!json.ok && json.why ? { note: json.why } : {}),
    };
  }

  /** An API answer's body, read up to limits.maxBodyBytes (its Content-Length first); `read` counts the bytes as they come. */
  private async readCapped(body: Dispatcher.ResponseData['body'], headers: Record<string, string>, read: { bytes: number }): Promise<Buffer> {
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      discard(body);
      throw new HttpError('body_too_large', `response body over ${this.maxBodyBytes} bytes (Content-Length ${declared}): cut at the limit (limits.maxBodyBytes)`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of body) {
      read.bytes += (chunk as Buffer).length;
      if (read.bytes > this.maxBodyBytes) {
        discard(body);
        throw new HttpError('body_too_large', `response body over ${this.maxBodyBytes} bytes (read ${read.bytes} before stopping): cut at the limit (limits.maxBodyBytes)`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  /** The authorisation server's answer (a fetch Response), read up to limits.maxBodyBytes likewise. */
  private async readFetchCapped(response: Response, headers: Record<string, string>, url: string, read: { bytes: number }): Promise<Buffer> {
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new HttpError('body_too_large', `the answer of ${hostOf(url)} was cut at the limit of ${this.maxBodyBytes} bytes (limits.maxBodyBytes): it declared Content-Length ${declared}`);
    }
    const chunks: Buffer[] = [];
    if (response.body) {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        read.bytes += value.byteLength;
        if (read.bytes > this.maxBodyBytes) {
          await reader.cancel().catch(() => undefined);
          throw new HttpError('body_too_large', `the answer of ${hostOf(url)} was cut at the limit of ${this.maxBodyBytes} bytes (limits.maxBodyBytes): more was coming`);
        }
        chunks.push(Buffer.from(value));
      }
    }
    return Buffer.concat(chunks);
  }

  /** Teaches the redactor the tokens in a token response (and anything that looks like one). */
  learnTokens(body: unknown): void {
    if (!body || typeof body !== 'object') return;
    for (const key of ['access_token', 'refresh_token', 'id_token']) {
      const v = (body as Record<string, unknown>)[key];
      if (typeof v === 'string') this.redactor.add(v);
    }
    const b = body as { access_token?: unknown; token_type?: unknown };
    if (typeof b.access_token === 'string' && typeof b.token_type === 'string' && b.token_type.toLowerCase() === 'dpop') this.dpop.bound.add(b.access_token);
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }

  private captureRequestBody(body: string | undefined, contentType: string | undefined): unknown {
    if (body === undefined) return undefined;
    if (contentType?.includes('application/x-www-form-urlencoded')) return this.redactor.form(body);
    try {
      return this.redactor.json(JSON.parse(body));
    } catch {
      // openid-client may send a form without naming its content type
      if (FORM_LIKE.test(body)) return this.redactor.form(body);
      return evidenceText(this.redactor.text(body));
    }
  }

  private fail(exchange: Exchange, started: number, error: unknown, timeoutMs: number): HttpError {
    const port = socketInfo(error)?.localPort;
    const tlsError = port === undefined ? undefined : this.tlsErrors.get(port);
    if (port !== undefined) this.tlsErrors.delete(port);
    const { code, message } = classify(tlsError ?? error, timeoutMs, exchange.url, { clientCertificate: this.hasClientCertificate });
    exchange.error = { code, message };
    exchange.timings.durationMs = Math.round(performance.now() - started);
    this.emit(exchange);
    return new HttpError(code, message, { cause: error, exchange });
  }
}

/** What the client knew when the error happened, so the sentence can say what to fix. */
export interface ClassifyContext {
  /** Whether a client certificate was configured (mtls.cert/key). */
  clientCertificate?: boolean;
}

/**
 * TLS alerts a server sends about the client's certificate: none sent (certificate_required,
 * or handshake_failure under TLS 1.2), or one it would not accept (unknown_ca, bad_certificate …).
 */
const CLIENT_CERT_ALERT = /ALERT_(CERTIFICATE_REQUIRED|HANDSHAKE_FAILURE|UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED)|alert (number (40|42|43|44|45|46|48|49|116)\b|certificate required|handshake failure|unknown ca|bad certificate)/i;

/** Turns undici/Node socket errors into one clear sentence each. */
export function classify(error: unknown, timeoutMs: number, url: string, context: ClassifyContext = {}): { code: string; message: string } {
  if (error instanceof HttpError) return { code: error.code, message: error.message };
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const msg = (e?.cause?.message ?? e?.message ?? String(error)).split('\n')[0].trim();
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    /* keep url */
  }
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ABORT_ERR') {
    return { code: 'timeout', message: `time-out after ${timeoutMs} ms waiting for ${host}` };
  }
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message: `connection refused by ${host}` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'dns', message: `cannot resolve host of ${host}` };
  // Checked before the trust codes below: ERR_SSL_…_ALERT_CERTIFICATE_REQUIRED also contains "CERT".
  if (CLIENT_CERT_ALERT.test(String(code)) || CLIENT_CERT_ALERT.test(msg)) {
    const alert = String(code || msg);
    return {
      code: 'tls_client_certificate',
      message: context.clientCertificate
        ? `TLS handshake with ${host} failed: the server refused our client certificate (${alert}); check mtls.cert/key and that the bank trusts its issuer`
        : `TLS handshake with ${host} failed: the server requires a client certificate and none was sent (${alert}); set mtls.certFile and mtls.keyFile`,
    };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    type WithCert = { cert?: { subjectaltname?: string; subject?: { CN?: string } }; cause?: WithCert };
    const names = (error as WithCert)?.cert ?? (error as WithCert)?.cause?.cert;
    const isFor = names?.subjectaltname ?? (names?.subject?.CN ? `CN=${names.subject.CN}` : undefined);
    return { code: 'tls_certificate_mismatch', message: `TLS certificate mismatch: the certificate presented by ${host} is not valid for that host${isFor ? ` (it is for ${isFor})` : ''}: ${msg.replace(/[\s:]+$/, '')}` };
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(String(code))) return { code: 'tls_untrusted', message: `TLS certificate of ${host} is not trusted (${code}); set mtls.ca/caFile to the bank's CA` };
  // A server that checks the client certificate itself (Node's https, some gateways) just closes the
  // connection, with no alert: say so when nothing at all was received over TLS.
  const https = /^https:/i.test(url);
  const nothingRead = socketInfo(error)?.bytesRead === 0;
  const certHint = context.clientCertificate
    ? 'if the bank requires mTLS, it may have refused our client certificate (check mtls.cert/key and that the bank trusts its issuer)'
    : 'if the bank requires mTLS, it wants a client certificate (set mtls.certFile and mtls.keyFile)';
  if (https && /before secure TLS connection was established/i.test(msg)) {
    return { code: 'tls_handshake', message: `TLS handshake with ${host} was cut off by the server (${msg}); ${certHint}` };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || /other side closed|socket hang up/i.test(msg)) {
    if (https && nothingRead) return { code: 'connection_reset', message: `connection to ${host} was closed before any response arrived (${msg}); ${certHint}` };
    return { code: 'connection_reset', message: `connection to ${host} was closed before the response was complete (${msg})` };
  }
  return { code: 'transport', message: `request to ${host} failed: ${msg}` };
}

/** The socket facts (local port, bytes read) an undici SocketError carries, here or in its causes. */
function socketInfo(error: unknown): { localPort?: number; bytesRead?: number } | undefined {
  const seen = new Set<unknown>();
  let e = error as { socket?: { localPort?: unknown; bytesRead?: unknown }; cause?: unknown } | undefined;
  while (e && typeof e === 'object' && !seen.has(e)) {
    seen.add(e);
    if (e.socket && typeof e.socket === 'object' && typeof e.socket.localPort === 'number') return e.socket as { localPort?: number; bytesRead?: number };
    e = e.cause as typeof e;
  }
  return undefined;
}

/**
 * Stops reading a response body. undici's body emits an AbortError when destroyed unread; with no
 * listener that would be an uncaught exception, so swallow it (the caller reports its own error).
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

export function newInteractionId(): string {
  return randomUUID();
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function lower(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

function flatten(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function headersToRecord(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (h instanceof Headers || (typeof (h as unknown as Headers).forEach === "function" && !Array.isArray(h))) {
    (h as unknown as Headers).forEach((v, k) => (out[k.toLowerCase()] = v));
  } else if (Array.isArray(h)) {
    for (const [k, v] of h) out[k.toLowerCase()] = v;
  } else {
    for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
  }
  return out;
}
