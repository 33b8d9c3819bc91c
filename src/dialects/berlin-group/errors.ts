/**
 * The NextGenPSD2 error body (`tppMessages[]`, or RFC 7807's `code` and `additionalErrors[]`), read
 * without the rest of the dialect: the terminal's refusal line (src/standards/berlin-group/errors.ts)
 * and the judges read it alike.
 */
/** A JSON object of the wire; the accessors below are tolerant of any shape and never throw (the builders use them too). */
export type WireObject = Record<string, unknown>;

export function isObject(v: unknown): v is WireObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function stringAt(o: unknown, key: string): string | undefined {
  const v = isObject(o) ? o[key] : undefined;
  return typeof v === 'string' ? v : undefined;
}

export function objectsAt(o: unknown, key: string): WireObject[] {
  const v = isObject(o) ? o[key] : undefined;
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** One error message, from either shape. */
export interface BgErrorMessage {
  code: string;
  category?: string;
  text?: string;
  path?: string;
}

/**
 * The messages of an error answer: `tppMessages[]` (NextGenPSD2 style) or `code` plus
 * `additionalErrors[]` (RFC 7807, application/problem+json). Entries without a string code are skipped.
 */
export function errorMessagesOf(body: unknown): BgErrorMessage[] {
  if (!isObject(body)) return [];
  const out: BgErrorMessage[] = [];
  for (const m of objectsAt(body, 'tppMessages')) {
    const code = stringAt(m, 'code');
    if (code === undefined) continue;
    const category = stringAt(m, 'category');
    const text = stringAt(m, 'text');
    const path = stringAt(m, 'path');
    out.push({ code, ...(category ? { category } : {}), ...(text ? { text } : {}), ...(path ? { path } : {}) });
  }
  const top = stringAt(body, 'code');
  if (top !== undefined) {
    const text = stringAt(body, 'detail') ?? stringAt(body, 'title');
    out.push({ code: top, ...(text ? { text } : {}) });
    for (const e of objectsAt(body, 'additionalErrors')) {
      const code = stringAt(e, 'code');
      const t = stringAt(e, 'detail') ?? stringAt(e, 'title');
      if (code !== undefined) out.push({ code, ...(t ? { text: t } : {}) });
    }
  }
  return out;
}

