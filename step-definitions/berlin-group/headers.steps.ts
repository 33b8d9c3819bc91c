/**
 * The standard's response headers of a create's answer (features/berlin-group): judged by the
 * dialect like a body, MUST problems failing the scenario's rule and SHOULD ones warning.
 */
import { Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, violationWithProblems, warn } from '../support/judge.ts';
import { judgeScaApproachHeader } from '../../src/dialects/berlin-group/index.ts';

Then('the answer\'s ASPSP-SCA-Approach header, where given, names one of the standard\'s SCA approaches', function (this: ConformanceWorld) {
  const r = this.answer();
  const j = judgeScaApproachHeader(r.headers['aspsp-sca-approach'], r.body);
  warn(this, `the ASPSP-SCA-Approach header of ${describeAnswer(r)}`, j.should.map((p) => ({ text: p.message, source: p.source })));
  if (j.must.length) throw violationWithProblems(this, `the ASPSP-SCA-Approach header of ${describeAnswer(r)} is not one the standard names:`, j.must.map((p) => p.message));
});
