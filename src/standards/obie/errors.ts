/** How a UK bank's refusal reads on the terminal's line: `Errors[].ErrorCode`, then the first `Errors[].Message` (or `Message`). */
import { errorCodesOf, errorMessageOf } from '../../dialects/obie/errors.ts';
import { quoteOutside } from '../../outside-text.ts';
import type { BankErrorWords } from '../standard.ts';

/** `"UK.OBIE.Resource.ConsentMismatch": "<Message>"`; undefined for a body of neither. */
export function readUkError(body: unknown): BankErrorWords | undefined {
  const codes = errorCodesOf(body);
  const message = errorMessageOf(body);
  if (!codes.length && !message) return undefined;
  // The bank's words quoted (src/outside-text.ts): plain text as it is, anything else a JSON string on this one line.
  return { codes, words: `${codes.length ? ` ${codes.map((c) => quoteOutside(c)).join(', ')}` : ''}${message ? `: ${quoteOutside(message)}` : ''}` };
}
