/**
 * Redaction happens where an exchange is captured, before anything can print or store it.
 * Two layers: fields that are secret by name (tokens, secrets, passwords, assertions, private-key
 * members), and any known secret value wherever it appears in any string.
 */
import { createPrivateKey } from 'node:crypto';

export const REDACTED = '[REDACTED]';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/**
 * Secret by name, matched exactly as the protocols spell them (OAuth, JOSE): `code` is an
 * authorization code, but OBErrorResponse1's `Code` ("400 Bad Request") is evidence.
 */
const SECRET_FIELDS = new Set([
  'code', 'code_verifier', 'request', 'assertion', 'token', 'logout_token', 'registration_access_token', 'software_statement',
  // JWK private members
  'd', 'p', 'q', 'dp', 'dq', 'qi', 'k',
]);
/** Secret by name in any spelling (compared lower-cased): nobody means anything else by these. */
const SECRET_FIELDS_ANY_CASE = new Set([
  'access_token', 'refresh_token', 'id_token', 'client_secret', 'client_assertion',
  'accesstoken', 'refreshtoken', 'idtoken', 'clientsecret', 'clientassertion',
  'password', 'passcode', 'passwd', 'secret', 'private_key', 'privatekey', 'api_key', 'apikey', 'pin', 'otp',
]);
const SECRET_QUERY = new Set(['code', 'access_token', 'id_token', 'refresh_token', 'client_secret', 'client_assertion', 'request', 'password', 'code_verifier']);

/** Whether a JSON member or form field of this name holds a secret. */
export function isSecretField(name: string): boolean {
  return SECRET_FIELDS.has(name) || SECRET_FIELDS_ANY_CASE.has(name.toLowerCase());
}
/**
 * An error message of the bank, whose `code` is evidence: a NextGenPSD2 tppMessage
 * (`category` ERROR or WARNING) or an RFC 7807 problem (`type` with `title` or `detail`). An OAuth
 * authorization code never comes in such an object.
 */
function isBankMessage(o: Record<string, unknown>): boolean {
  if (o.category === 'ERROR' || o.category === 'WARNING') return true;
  return typeof o.type === 'string' && (typeof o.title === 'string' || typeof o.detail === 'string');
}
const PEM_PRIVATE = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g;
const PEM_PRIVATE_ONE = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const JWK_PRIVATE = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];
/** Up to this length a text is scanned position by position (see Redactor.text), beyond it searched per secret. */
const LONG_TEXT = 256 * 1024;
const JWT_LIKE = /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

export class Redactor {
  private readonly secrets = new Set<string>();

  constructor(secrets: Iterable<string> = []) {
    for (const s of secrets) this.add(s);
  }

  /**
   * Remembers a secret value (a token obtained, a password, a key) so it is scrubbed everywhere,
   * in the forms a server's echo or a report may carry it: as is, URL- and form-encoded,
   * JSON-escaped, and base64 / base64url (a Basic header, an attachment).
   */
  add(secret: string | undefined | null): void {
    if (typeof secret !== 'string' || secret.length < 4 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    const forms = [
      encodeURIComponent(secret),
      new URLSearchParams({ x: secret }).toString().slice(2),
      JSON.stringify(secret).slice(1, -1),
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
    ];
    // A key's PEM also travels with its line breaks written `\n` (JSON), or folded away.
    if (secret.includes('\n')) forms.push(secret.replace(/\r?\n/g, ''));
    for (const f of forms) if (f.length >= 4) this.secrets.add(f);
    // A private key in PEM: its JWK private members are the same secret, spelled otherwise.
    if (PEM_PRIVATE_ONE.test(secret)) {
      try {
        const jwk = createPrivateKey(secret).export({ format: 'jwk' }) as Record<string, unknown>;
        for (const m of JWK_PRIVATE) if (typeof jwk[m] === 'string') this.add(jwk[m] as string);
      } catch {
        /* not a key Node can read */
      }
    }
    // A private JWK: each private member is a secret of its own (an echo may quote just `d`).
    if (secret.trimStart().startsWith('{')) {
      try {
        const jwk = JSON.parse(secret) as Record<string, unknown>;
        for (const m of JWK_PRIVATE) if (typeof jwk[m] === 'string') this.add(jwk[m] as string);
      } catch {
        /* not a JWK */
      }
    }
  }

  /** The secrets learned so far (for a redactor that must scrub the same, e.g. a report writer's). */
  known(): string[] {
    return [...this.secrets];
  }

  /**
   * Scrubs an error in place, and the errors of its `cause` chain: their message and stack, and the
   * server's own words some of them carry (`error_description`, a parsed body as `cause`). Errors
   * that quote a server's answer pass through here before anything can print them.
   */
  error<E>(error: E): E {
    const seen = new Set<unknown>();
    let e: unknown = error;
    for (let depth = 0; e && typeof e === 'object' && !seen.has(e) && depth < 6; depth++) {
      seen.add(e);
      const o = e as Record<string, unknown>;
      for (const key of ['message', 'stack', 'error_description', 'error', 'code', 'oauthError', 'hint']) {
        if (typeof o[key] === 'string') {
          try {
            o[key] = this.text(o[key] as string);
          } catch {
            /* a read-only member: left as is */
          }
        }
      }
      const cause = o.cause;
      if (cause && typeof cause === 'object' && !(cause instanceof Error) && !Array.isArray(cause) && seen.size < 6) {
        try {
          o.cause = this.json(cause);
        } catch {
          /* left as is */
        }
        break;
      }
      e = cause;
    }
    return error;
  }

  /**
   * Remembers the credential of an Authorization-style header: the token of `Bearer`/`DPoP`, the
   * base64 blob of `Basic` and the secret inside it (RFC 6749 §2.3.1 form-encodes it first).
   */
  learnCredential(value: string): void {
    const m = /^(\S+)\s+(\S+)\s*$/.exec(value.trim());
    if (!m) {
      this.add(value.trim());
      return;
    }
    this.add(m[2]);
    if (m[1].toLowerCase() === 'basic') {
      const decoded = Buffer.from(m[2], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon >= 0) {
        const secret = decoded.slice(colon + 1);
        this.add(decoded);
        this.add(secret);
        try {
          this.add(decodeURIComponent(secret.replace(/\+/g, ' ')));
        } catch {
          /* not form-encoded */
        }
      }
    }
  }

  /** Scrubs known secrets, private-key PEM blocks and JWTs out of free text. */
  text(value: string): string {
    let out = value;
    // The patterns only where their fixed part is (most strings of a body are short ids and amounts).
    if (out.includes('PRIVATE KEY-----')) out = out.replace(PEM_PRIVATE, REDACTED);
    if (out.includes('eyJ')) out = out.replace(JWT_LIKE, REDACTED);
    if (this.secrets.size === 0 || out.length < 4) return out;
    // A run learns every token it is given, so the secrets grow to hundreds, and thousands of
    // texts (headers, URLs, members of bodies) pass here. A text is read once rather than searched
    // for each secret: each position looks up the secrets that begin with its next two characters
    // (every secret has at least four), longest first. Every occurrence of every secret is covered,
    // overlapping and nested ones included (a secret's encoded form may hold the secret itself),
    // and each covered stretch becomes one mark. A very long text (a report file) is searched per
    // secret instead, longest first: one search of a long text is fast.
    const { index, sorted } = this.prefixIndex();
    if (out.length > LONG_TEXT) {
      for (const s of sorted) if (s.length <= out.length && out.includes(s)) out = out.split(s).join(REDACTED);
      return out;
    }
    let covered: Uint8Array | undefined;
    for (let i = 0; i + 4 <= out.length; i++) {
      const candidates = index.get((out.charCodeAt(i) << 16) | out.charCodeAt(i + 1));
      if (!candidates) continue;
      for (const s of candidates) {
        if (!out.startsWith(s, i)) continue;
        covered ??= new Uint8Array(out.length);
        covered.fill(1, i, i + s.length);
        break; // the longest at this position covers the shorter ones
      }
    }
    if (!covered) return out;
    let result = '';
    for (let i = 0; i < out.length;) {
      const from = i;
      if (covered[i]) {
        while (i < out.length && covered[i]) i++;
        result += REDACTED;
      } else {
        while (i < out.length && !covered[i]) i++;
        result += out.slice(from, i);
      }
    }
    return result;
  }

  /** The secrets by their first two characters, and all of them, longest first (brought up to date when one was added). */
  private prefixIndex(): { index: Map<number, string[]>; sorted: string[] } {
    const at = this.indexed ??= { seen: 0, index: new Map<number, string[]>(), sorted: [] as string[] };
    if (at.seen === this.secrets.size) return at;
    // A Set iterates in insertion order: only the secrets added since the last call are new.
    let n = 0;
    for (const s of this.secrets) {
      if (n++ < at.seen) continue;
      const key = (s.charCodeAt(0) << 16) | s.charCodeAt(1);
      const list = at.index.get(key);
      if (!list) at.index.set(key, [s]);
      else {
        const i = list.findIndex((t) => t.length < s.length);
        list.splice(i < 0 ? list.length : i, 0, s);
      }
      at.sorted.push(s);
    }
    at.sorted.sort((a, b) => b.length - a.length);
    at.seen = this.secrets.size;
    return at;
  }
  private indexed?: { seen: number; index: Map<number, string[]>; sorted: string[] };

  headers(headers: Record<string, string | string[] | undefined>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, raw] of Object.entries(headers)) {
      if (raw === undefined) continue;
      const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
      const lower = name.toLowerCase();
      if (SECRET_HEADERS.has(lower)) {
        const scheme = /^(Bearer|Basic|DPoP)\s/i.exec(value)?.[1];
        if (lower === 'authorization' || lower === 'proxy-authorization' || lower === 'x-api-key') this.learnCredential(value);
        out[lower] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
      } else {
        out[lower] = this.text(value);
      }
    }
    return out;
  }

  /**
   * Deep copy of a JSON value with secret fields and secret values replaced. `inMessages`: the
   * value is an item of a bank's message list (NextGenPSD2 `tppMessages`, RFC 7807
   * `additionalErrors`), whose `code` is the bank's word for the error, not a secret.
   */
  json(value: unknown, inMessages = false): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v, inMessages));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      const message = inMessages || isBankMessage(value as Record<string, unknown>);
      for (const [k, v] of Object.entries(value)) {
        if (k === 'code' && message && (typeof v === 'string' || typeof v === 'number')) out[k] = this.text(String(v)) === String(v) ? v : REDACTED;
        else if (isSecretField(k) && v !== null && v !== undefined && typeof v !== 'boolean') {
          // remember it, so that an echo of it anywhere else (free text, a header) is scrubbed too
          if (typeof v === 'string' || typeof v === 'number') this.add(String(v));
          out[k] = REDACTED;
        } else out[k] = this.json(v, k === 'tppMessages' || k === 'additionalErrors');
      }
      return out;
    }
    return value;
  }

  /** A form-encoded body with secret fields replaced. */
  form(body: string): string {
    const params = new URLSearchParams(body);
    for (const key of [...new Set(params.keys())]) {
      if (isSecretField(key)) {
        for (const v of params.getAll(key)) this.add(v);
        params.set(key, REDACTED);
      } else params.set(key, this.text(params.get(key) ?? ''));
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
      for (const key of [...new Set(u.searchParams.keys())]) {
        if (SECRET_QUERY.has(key.toLowerCase())) {
          for (const v of u.searchParams.getAll(key)) this.add(v);
          u.searchParams.set(key, REDACTED);
        }
      }
      return this.text(u.toString());
    } catch {
      return this.text(url);
    }
  }
}
