/** One HTTP request and its response, as captured (already redacted) for judging and reports. */
export interface Exchange {
  /** Sequence number within the client that made it. */
  seq: number;
  method: string;
  url: string;
  request: {
    headers: Record<string, string>;
    body?: unknown;
  };
  response?: {
    status: number;
    headers: Record<string, string>;
    /** Parsed JSON when the body was JSON (as text, cut, when over 16 KiB), else the text (cut at 4 KiB for evidence). */
    body?: unknown;
    /** True when the body parsed as JSON. */
    json: boolean;
    bytes: number;
    /** Why a body that looked like JSON was not parsed (nested too deep). */
    note?: string;
  };
  /** Set when the exchange failed below HTTP (time-out, reset, TLS, size cap). */
  error?: { code: string; message: string };
  timings: { startedAt: string; durationMs: number; headersMs?: number };
  /** x-fapi-interaction-id as sent and as received, when present. */
  interactionId?: { sent?: string; received?: string };
}

/** Short one-line rendering for verbose logs and failure messages. */
export function exchangeLine(ex: Exchange): string {
  const outcome = ex.response ? String(ex.response.status) : `failed: ${ex.error?.message ?? 'no response'}`;
  return `${ex.method} ${ex.url} → ${outcome} (${ex.timings.durationMs} ms)`;
}
