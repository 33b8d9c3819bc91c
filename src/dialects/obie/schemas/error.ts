/** The error body of 400/403/500 answers, `OBErrorResponse1` (FACTS §1.7). */
import { SHOULD_SOURCE_KEYWORD, SHOULD_SOURCES, text } from './common.ts';
import type { Levels } from './common.ts';

/**
 * `ErrorCode` is a namespaced (open) list in the standard; an ASPSP may add its own codes in its
 * own namespace. The OpenAPI file demands only a string; the harness advises the namespaced shape
 * (`UK.OBIE.Field.Missing`, `GB.Bank.Foo`), never a closed list.
 */
export const ERROR_CODE_PATTERN = '^[A-Z][A-Za-z0-9]*(\\.[A-Za-z0-9]+)+$';

function errorResponse(errorCode: object) {
  return {
    type: 'object',
    required: ['Code', 'Message', 'Errors'],
    properties: {
      Code: text(1, 40),
      Id: text(1, 40),
      Message: text(1, 500),
      Errors: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['ErrorCode', 'Message'],
          properties: {
            ErrorCode: errorCode,
            Message: text(1, 500),
            Path: text(1, 500),
            Url: { type: 'string' },
          },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  } as const;
}

export const OBErrorResponse1: Levels = {
  official: errorResponse({ type: 'string' }),
  strict: errorResponse({ type: 'string', pattern: ERROR_CODE_PATTERN, [SHOULD_SOURCE_KEYWORD]: SHOULD_SOURCES.namespacedErrorCode }),
};
