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

/**
 * The kinds of assertion a step makes, as the official suites' tests name theirs (the FCS map,
 * src/conformance/fcs-map.ts, reads them to prove what an `@fcs:` scenario claims): a list, or a
 * function of the step's arguments (`the bank answers 201 Created` → `status:201`). The words are
 * {@link import('../../src/conformance/fcs-map.ts').AssertionKind}'s.
 */
export type Judges = readonly string[] | ((...args: Array<string | undefined>) => readonly string[]);

/** A step's options as cucumber keeps them on its definition (read back by the FCS map). */
const declare = (judges: Judges | undefined) => (judges ? { wrapperOptions: { judges } } : {});

export const Given = (pattern: string | RegExp, body: Body, judges?: Judges) => G(pattern, declare(judges), wrap(body));
export const When = (pattern: string | RegExp, body: Body, judges?: Judges) => W(pattern, declare(judges), wrap(body));
export const Then = (pattern: string | RegExp, body: Body, judges?: Judges) => T(pattern, declare(judges), wrap(body));

/** The kind a judgement of the answer's status declares: `status:400|403`. */
export const statusKind = (codes: Iterable<number | string>): string => `status:${[...new Set([...codes].map(String))].sort().join('|')}`;
/** The kind a judgement of the error body's codes declares (v3.1.11's codes): `error-code:UK.OBIE.Field.Invalid|UK.OBIE.Resource.NotFound`. */
export const errorCodeKind = (codes: Iterable<string>): string => `error-code:${[...new Set(codes)].sort().join('|')}`;
