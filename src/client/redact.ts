/**
 * Redaction happens where an exchange is captured, before anything can print or store it.
 * Two layers: fields that are secret by name (tokens, secrets, passwords, assertions, private-key
 * members), and any known secret value wherever it appears in any string.
 */
export const REDACTED = '[REDACTED]';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
const SECRET_FIELDS = new Set([
  'access_token', 'refresh_token', 'id_token', 'client_secret', 'client_assertion', 'assertion',
  'password', 'code', 'code_verifier', 'request', 'private_key', 'privatekey', 'secret', 'token',
  'logout_token', 'registration_access_token', 'pin', 'otp',
  // JWK private members
  'd', 'p', 'q', 'dp', 'dq', 'qi', 'k',
]);
const SECRET_QUERY = new Set(['code', 'access_token', 'id_token', 'refresh_token', 'client_secret', 'client_assertion', 'request', 'password', 'code_verifier']);
const PEM_PRIVATE = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g;
const JWT_LIKE = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

export class Redactor {
  private readonly secrets = new Set<string>();

  constructor(secrets: Iterable<string> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Remembers a secret value (a token obtained, a password, a key) so it is scrubbed everywhere. */
  add(secret: string | undefined | null): void {
    if (typeof secret === 'string' && secret.length >= 4) this.secrets.add(secret);
  }

  /** Scrubs known secrets, private-key PEM blocks and JWTs out of free text. */
  text(value: string): string {
    let out = value.replace(PEM_PRIVATE, REDACTED).replace(JWT_LIKE, REDACTED);
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(headers)) {
      if (raw === undefined) continue;
      const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
      const lower = name.toLowerCase();
      if (SECRET_HEADERS.has(lower)) {
        const scheme = /^(Bearer|Basic|DPoP)\s/i.exec(value)?.[1];
        out[lower] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
      } else {
        out[lower] = this.text(value);
      }
    }
    return out;
  }

  /** Deep copy of a JSON value with secret fields and secret values replaced. */
  json(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] = SECRET_FIELDS.has(k.toLowerCase()) && v !== null && v !== undefined && typeof v !== 'boolean' ? REDACTED : this.json(v);
      }
      return out;
    }
    return value;
  }

  /** A form-encoded body with secret fields replaced. */
  form(body: string): string {
    const params = new URLSearchParams(body);
    for (const key of [...params.keys()]) {
      if (SECRET_FIELDS.has(key.toLowerCase())) params.set(key, REDACTED);
      else params.set(key, this.text(params.get(key) ?? ''));
    }
    return params.toString();
  }

  url(url: string): string {
    try {
      const u = new URL(url);
      if (u.username || u.password) {
        u.username = u.username ? REDACTED : '';
        u.password = u.password ? REDACTED : '';
      }
      for (const key of [...u.searchParams.keys()]) {
        if (SECRET_QUERY.has(key.toLowerCase())) u.searchParams.set(key, REDACTED);
      }
      return this.text(u.toString());
    } catch {
      return this.text(url);
    }
  }
}
