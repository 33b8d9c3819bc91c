import { Given as G, When as W, Then as T } from '@cucumber/cucumber';
import { NotApplicableError } from '../../src/client/operations.ts';
import { NotJudgeable, type ConformanceWorld } from './world.ts';

/** Attachment media type marking a scenario that does not apply to the bank or variant. */
export const NOT_APPLICABLE_MEDIA_TYPE = 'text/x.obtpp.not-applicable';

type Body = (this: ConformanceWorld, ...args: any[]) => Promise<unknown> | unknown;

/**
 * Wraps a step so that an operation the variant lacks makes the scenario not-applicable (skipped,
 * with the reason attached) instead of failed, and a bank that gives nothing to judge skips too.
 */
function wrap(body: Body) {
  const wrapped = async function (this: ConformanceWorld, ...args: any[]) {
    try {
      return await body.apply(this, args);
    } catch (error) {
      if (error instanceof NotApplicableError) {
        this.attach(error.message, NOT_APPLICABLE_MEDIA_TYPE);
        return 'skipped';
      }
      if (error instanceof NotJudgeable) {
        this.attach(`${this.ruleId}: not judged: ${error.message}`, 'text/plain');
        return 'skipped';
      }
      throw error;
    }
  };
  // cucumber checks the declared arity against the step's parameters
  Object.defineProperty(wrapped, 'length', { value: body.length });
  return wrapped;
}

export const Given = (pattern: string | RegExp, body: Body) => G(pattern, wrap(body));
export const When = (pattern: string | RegExp, body: Body) => W(pattern, wrap(body));
export const Then = (pattern: string | RegExp, body: Body) => T(pattern, wrap(body));
