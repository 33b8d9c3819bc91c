/** The error body of 400/403/500 answers, `OBErrorResponse1` (FACTS §1.7). */
import { text } from './common.ts';

/**
 * `ErrorCode` is a namespaced (open) list in the standard; an ASPSP may add its own codes. We
 * check the namespaced shape only (`UK.OBIE.Field.Missing`, `GB.Bank.Foo`), never a closed list.
 */
export const ERROR_CODE_PATTERN = '^[A-Z][A-Za-z0-9]*(\\.[A-Za-z0-9]+)+$';

export const OBErrorResponse1 = {
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
          ErrorCode: { type: 'string', pattern: ERROR_CODE_PATTERN },
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
