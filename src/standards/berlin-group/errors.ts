/** How a NextGenPSD2 bank's refusal reads on the terminal's line: each tppMessage's code and text (or an RFC 7807 problem's). */
import { errorMessagesOf } from '../../dialects/berlin-group/errors.ts';
import { quoteOutside } from '../../outside-text.ts';
import type { BankErrorWords } from '../standard.ts';

/** `"CONSENT_UNKNOWN": "<text>"; "FORMAT_ERROR"`; undefined for a body without a message of either shape. */
export function readBgError(body: unknown): BankErrorWords | undefined {
  const messages = errorMessagesOf(body);
  if (!messages.length) return undefined;
  return {
    codes: messages.map((m) => m.code),
    words: ` ${messages.map((m) => (m.text ? `${quoteOutside(m.code)}: ${quoteOutside(m.text)}` : quoteOutside(m.code))).join('; ')}`,
  };
}
