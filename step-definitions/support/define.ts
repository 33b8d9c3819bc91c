import { Given as G, When as W, Then as T } from '@cucumber/cucumber';
import { NotApplicableError, UnfilledPathError } from '../../src/client/operations.ts';
import { NotJudgeable, UnusableAnswer, type ConformanceWorld } from './world.ts';

/** Attachment media type marking a scenario that does not apply to the bank or variant. */
export const NOT_APPLICABLE_MEDIA_TYPE = 'text/x.obtpp.not-applicable';
/** Attachment media type marking a scenario that could not be judged: `{ message, blockedBy? }`. */
export const NOT_JUDGED_MEDIA_TYPE = 'application/vnd.obtpp.not-judged+json';

type Body = (this: ConformanceWorld, ...args: any[]) => Promise<unknown> | unknown;

/**
 * Wraps a step so that an operation the variant lacks makes the scenario not-applicable (skipped,
 * with the reason attached) instead of failed, and a scenario whose preconditions the bank did not
 * provide is not judged (skipped, with the cause and the rule that blocked it attached): cucumber's
 * own `skipped`, so JUnit shows it as skipped, neither passed nor failed. A precondition blocked
 * by the scenario's own rule is that rule's failure.
 */
function wrap(body: Body) {
  const wrapped = async function (this: ConformanceWorld, ...args: any[]) {
    try {
      return await body.apply(this, args);
    } catch (error) {
      // Every failure's text passes through the run's redactor before cucumber sees it: a message
      // may quote a bank's answer that echoes a secret (messages.ndjson, JUnit, summary, HTML).
      this.ctx?.redactor.error(error);
      if (error instanceof NotApplicableError) {
        this.attach(error.message, NOT_APPLICABLE_MEDIA_TYPE);
        return 'skipped';
      }
      if (error instanceof NotJudgeable || error instanceof UnfilledPathError) {
        const blockedBy = error instanceof NotJudgeable ? error.blockedBy : undefined;
        for (const shot of (error as NotJudgeable).screenshots ?? []) if (!this.screenshots.includes(shot)) this.screenshots.push(shot);
        // An answer nothing can be read from fails the rule that needed it, whichever rule that is.
        if ((blockedBy && blockedBy === this.ruleId) || error instanceof UnusableAnswer) {
          const violation = this.violation(error.message.split('\n'));
          if (this.screenshots.length) (violation as { screenshots?: string[] }).screenshots = this.screenshots;
          throw violation;
        }
        const message = error instanceof UnfilledPathError ? `the harness has no value for ${error.placeholder} in ${error.path}` : error.message;
        this.notJudged = { message, ...(blockedBy ? { blockedBy } : {}) };
        this.attach(JSON.stringify(this.notJudged), NOT_JUDGED_MEDIA_TYPE);
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
