/**
 * The UK error body (`OBErrorResponse1`: Code, Message, Errors[] of ErrorCode and Message), read
 * without the rest of the dialect: the terminal's refusal line (src/standards/obie/errors.ts)
 * and the judges read it alike.
 */
type WireObject = Record<string, unknown>;

function isObject(v: unknown): v is WireObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `Errors[].ErrorCode` of an `OBErrorResponse1` (the string ones). */
export function errorCodesOf(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.Errors)) return [];
  return body.Errors.filter(isObject).map((e) => e.ErrorCode).filter((c): c is string => typeof c === 'string');
}

/** The first `Errors[].Message`, else the top-level `Message` (the string ones). */
export function errorMessageOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const first = Array.isArray(body.Errors) ? body.Errors.filter(isObject).find((e) => typeof e.Message === 'string')?.Message : undefined;
  return typeof first === 'string' ? first : typeof body.Message === 'string' ? body.Message : undefined;
}
