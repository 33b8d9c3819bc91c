import { Agent, request as undiciRequest, fetch as undiciFetch, type Dispatcher } from 'undici';
import { randomUUID } from 'node:crypto';
import { HttpError } from '../errors.ts';
import type { Exchange } from './exchange.ts';
import { Redactor } from './redact.ts';

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
  /** Called with every captured (redacted) exchange. */
  onExchange?: (exchange: Exchange) => void;
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
  private seq = 0;
  private readonly onExchange?: (exchange: Exchange) => void;

  constructor(options: HttpOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBodyBytes = options.maxBodyBytes ?? 5 * 1024 * 1024;
    this.redactor = new Redactor(options.secrets ?? []);
    if (options.key) this.redactor.add(options.key);
    this.onExchange = options.onExchange;
    if (options.insecure) {
      (options.warn ?? ((m: string) => process.stderr.write(m + '\n')))(
        'WARNING: TLS certificate verification is OFF for this profile (tls.insecure: true). Never use this against a production bank.',
      );
    }
    this.dispatcher = new Agent({
      keepAliveTimeout: 10_000,
      connections: 16,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: {
        ca: options.ca,
        cert: options.cert,
        key: options.key,
        rejectUnauthorized: !options.insecure,
        timeout: this.timeoutMs,
      },
    });
  }

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
    const exchange: Exchange = {
      seq: ++this.seq,
      method,
      url: this.redactor.url(url),
      request: { headers: this.redactor.headers(headers), body: this.captureRequestBody(body, headers['content-type']) },
      timings: { startedAt: new Date().toISOString(), durationMs: 0 },
      interactionId: headers['x-fapi-interaction-id'] ? { sent: headers['x-fapi-interaction-id'] } : undefined,
    };
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Dispatcher.ResponseData;
    try {
      res = await undiciRequest(url, { method: method as Dispatcher.HttpMethod, headers, body, dispatcher: this.dispatcher, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    } catch (error) {
      throw this.fail(exchange, started, error, timeoutMs);
    }
    exchange.timings.headersMs = Math.round(performance.now() - started);
    const resHeaders = flatten(res.headers);
    let text: string;
    let bytes = 0;
    try {
      const declared = Number(resHeaders['content-length']);
      if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
        res.body.destroy();
        throw new HttpError('body_too_large', `response body over ${this.maxBodyBytes} bytes (Content-Length ${declared})`);
      }
      const chunks: Buffer[] = [];
      for await (const chunk of res.body) {
        bytes += (chunk as Buffer).length;
        if (bytes > this.maxBodyBytes) {
          res.body.destroy();
          throw new HttpError('body_too_large', `response body over ${this.maxBodyBytes} bytes (read ${bytes} before stopping)`);
        }
        chunks.push(chunk as Buffer);
      }
      text = Buffer.concat(chunks).toString('utf8');
    } catch (error) {
      exchange.response = { status: res.statusCode, headers: this.redactor.headers(resHeaders), json: false, bytes };
      throw this.fail(exchange, started, error, timeoutMs);
    }
    let parsed: unknown;
    let isJson = false;
    if (text.trim().length > 0) {
      try {
        parsed = JSON.parse(text);
        isJson = true;
      } catch {
        parsed = undefined;
      }
    }
    exchange.response = {
      status: res.statusCode,
      headers: this.redactor.headers(resHeaders),
      body: isJson ? this.redactor.json(parsed) : text.length ? this.redactor.text(text.slice(0, EVIDENCE_TEXT_LIMIT)) : undefined,
      json: isJson,
      bytes,
    };
    if (resHeaders['x-fapi-interaction-id']) exchange.interactionId = { ...exchange.interactionId, received: resHeaders['x-fapi-interaction-id'] };
    exchange.timings.durationMs = Math.round(performance.now() - started);
    this.emit(exchange);
    return { status: res.statusCode, headers: resHeaders, body: parsed as T | undefined, text, json: isJson, exchange };
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
    const started = performance.now();
    const exchange: Exchange = {
      seq: ++this.seq,
      method,
      url: this.redactor.url(url),
      request: { headers: this.redactor.headers(headers), body: this.captureRequestBody(bodyText, headers['content-type']) },
      timings: { startedAt: new Date().toISOString(), durationMs: 0 },
    };
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
    const text = await response.clone().text().catch(() => '');
    let parsed: unknown;
    let isJson = false;
    try {
      parsed = JSON.parse(text);
      isJson = true;
      this.learnTokens(parsed);
    } catch {
      /* not JSON */
    }
    const resHeaders: Record<string, string> = {};
    response.headers.forEach((v, k) => (resHeaders[k] = v));
    exchange.response = {
      status: response.status,
      headers: this.redactor.headers(resHeaders),
      body: isJson ? this.redactor.json(parsed) : text ? this.redactor.text(text.slice(0, EVIDENCE_TEXT_LIMIT)) : undefined,
      json: isJson,
      bytes: Buffer.byteLength(text),
    };
    exchange.timings.durationMs = Math.round(performance.now() - started);
    this.emit(exchange);
    return response;
  };

  /** Teaches the redactor the tokens in a token response (and anything that looks like one). */
  learnTokens(body: unknown): void {
    if (!body || typeof body !== 'object') return;
    for (const key of ['access_token', 'refresh_token', 'id_token']) {
      const v = (body as Record<string, unknown>)[key];
      if (typeof v === 'string') this.redactor.add(v);
    }
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
      return this.redactor.text(body.slice(0, EVIDENCE_TEXT_LIMIT));
    }
  }

  private fail(exchange: Exchange, started: number, error: unknown, timeoutMs: number): HttpError {
    const { code, message } = classify(error, timeoutMs, exchange.url);
    exchange.error = { code, message };
    exchange.timings.durationMs = Math.round(performance.now() - started);
    this.emit(exchange);
    return new HttpError(code, message, { cause: error, exchange });
  }
}

/** Turns undici/Node socket errors into one clear sentence each. */
export function classify(error: unknown, timeoutMs: number, url: string): { code: string; message: string } {
  if (error instanceof HttpError) return { code: error.code, message: error.message };
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code ?? '';
  const msg = e?.cause?.message ?? e?.message ?? String(error);
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
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return { code: 'tls_certificate_mismatch', message: `TLS certificate mismatch: the certificate presented by ${host} is not valid for that host (${msg})` };
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(String(code))) return { code: 'tls_untrusted', message: `TLS certificate of ${host} is not trusted (${code}); set mtls.ca/caFile to the bank's CA` };
  if (/certificate required|alert number 116|handshake failure|alert certificate/i.test(msg)) {
    return { code: 'tls_client_certificate', message: `TLS handshake with ${host} failed: the server requires a client certificate (mtls.cert/key) and did not accept ours (${msg})` };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || /other side closed|socket hang up/i.test(msg)) {
    return { code: 'connection_reset', message: `connection to ${host} was closed before the response was complete (${msg})` };
  }
  return { code: 'transport', message: `request to ${host} failed: ${msg}` };
}

export function newInteractionId(): string {
  return randomUUID();
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
