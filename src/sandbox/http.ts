/** Small node:http helpers shared by the sandbox's pages and resource server. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body the sandbox reads; a bank answers more with 413, this is a sandbox. */
const MAX_BODY = 1024 * 1024;

export class BodyTooLargeError extends Error {}

/** Reads the whole request body as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyTooLargeError('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Escapes text for HTML element content and quoted attribute values. */
export function html(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function sendHtml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** The sandbox's page frame, with the banner that says loudly what it is. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${html(title)} — obtpp sandbox bank</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}
.banner{background:#b00020;color:#fff;padding:.5rem 1rem;font-weight:bold;letter-spacing:.05em}
.error{background:#fde7ea;border:1px solid #b00020;padding:.5rem 1rem}
fieldset{margin:1rem 0}label{display:block;margin:.25rem 0}
button{font-size:1rem;padding:.4rem 1.2rem;margin-right:.5rem}
dt{font-weight:bold}dd{margin:0 0 .5rem 0}
</style></head>
<body><div class="banner" data-testid="sandbox-banner">SANDBOX — not a bank</div>
<h1>${html(title)}</h1>
${body}
</body></html>`;
}

/** A request path's segments, each percent-decoded (a segment that does not decode is kept as sent). */
export function pathSegments(path: string): string[] {
  return path.split('/').filter(Boolean).map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
}

/** The `:name` parameters of a route pattern matched against a path's segments; undefined when it does not match. */
export function matchPath(pattern: string[], segments: string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i]!.startsWith(':')) params[pattern[i]!.slice(1)] = segments[i]!;
    else if (pattern[i] !== segments[i]) return undefined;
  }
  return params;
}
