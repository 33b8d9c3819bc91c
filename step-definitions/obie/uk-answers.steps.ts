// Answers that must say something, and say no more than they may (features/obie/uk-payments.feature
// UKPIS-11, uk-vrp.feature VRP-07): a file payment's report file is never empty, an order's payment
// details name its status (a SHOULD), and a VRP funds check answers only whether the amount is
// covered. These judge the scenario's last answer; the calls are uk-payments.ts's and vrp.steps.ts's.
import { Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectStatus, quote, violationWithProblems, warn } from '../support/judge.ts';

Then('the report file is not empty', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  // The answer's 200 declares a body, the report of the file's payments (the PIS file's
  // 200FilePaymentsFilePaymentIdReportFileRead): no bytes, or JSON holding nothing, is no report.
  const b = r.body as unknown;
  const empty = !r.text.trim().length || (r.json && (b === null || b === '' || (typeof b === 'object' && Object.keys(b as object).length === 0)));
  if (empty) throw this.violation(`the file payment's report file is empty: ${describeAnswer(r)}`);
});

Then('the payment details name at least one status of the payment', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  const list = (r.body as any)?.Data?.PaymentStatus;
  // The standard lets PaymentStatus be 0..n (OBWritePaymentDetailsResponse1; v3.1.2 made it so):
  // details that name no status say nothing, but break no rule of the file.
  if (!Array.isArray(list) || list.length === 0) {
    warn(this, `the payment details ${describeAnswer(r)}`, [{ text: 'Data.PaymentStatus names no status of the payment: the details of a submitted order say nothing of where it stands', source: 'harness expectation (OBWritePaymentDetailsResponse1 allows an empty list)' }]);
  }
});

/** The members the VRP file gives a funds check's answer (OBVRPFundsConfirmationResponse, v3.1.11 and v4.0 alike: FACTS-v4 §6.3). */
const FUNDS_DATA = new Set(['FundsConfirmationId', 'ConsentId', 'CreationDateTime', 'Reference', 'FundsAvailableResult', 'InstructedAmount']);
const FUNDS_RESULT = new Set(['FundsAvailableDateTime', 'FundsAvailable']);
const ENVELOPE = new Set(['Data', 'Links', 'Meta']);

/** Whether a member tells an amount of money: an object with an Amount, or a name that says balance or amount. */
function tellsAmount(key: string, value: unknown, depth = 0): boolean {
  if (/balance|amount|limit|overdraft/i.test(key)) return true;
  if (depth > 8 || !value || typeof value !== 'object') return false;
  if (!Array.isArray(value) && 'Amount' in (value as object)) return true;
  return Object.entries(value as object).some(([k, v]) => tellsAmount(k, v, depth + 1));
}

Then('the funds check answers only whether the amount is available, and discloses no balance', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [201]);
  const body = (r.body ?? {}) as Record<string, any>;
  const data = (body.Data ?? {}) as Record<string, any>;
  const result = (data.FundsAvailableResult ?? {}) as Record<string, any>;
  if (result.FundsAvailable !== 'Available' && result.FundsAvailable !== 'NotAvailable') {
    throw this.violation(`the VRP funds check answers Data.FundsAvailableResult.FundsAvailable "Available" or "NotAvailable", got ${quote(result.FundsAvailable)} (${describeAnswer(r)})`);
  }
  const extra = [
    ...Object.keys(body).filter((k) => !ENVELOPE.has(k)).map((k) => [k, body[k]] as const),
    ...Object.keys(data).filter((k) => !FUNDS_DATA.has(k)).map((k) => [`Data.${k}`, data[k]] as const),
    ...Object.keys(result).filter((k) => !FUNDS_RESULT.has(k)).map((k) => [`Data.FundsAvailableResult.${k}`, result[k]] as const),
  ];
  // The result is "the availability of funds given the Amount in the request" (the VRP file), and a
  // funds check is never a balance (the spec's funds-confirmation rule): an amount beside it, or an
  // InstructedAmount other than the one asked, discloses what the PSU holds.
  const asked = (r.exchange.request.body as any)?.Data?.InstructedAmount;
  const problems = extra.filter(([k, v]) => tellsAmount(k.split('.').at(-1)!, v)).map(([k]) => `${k}: an amount the funds check does not answer`);
  if (asked && (data.InstructedAmount?.Amount !== asked.Amount || data.InstructedAmount?.Currency !== asked.Currency)) {
    problems.push(`Data.InstructedAmount is ${quote(data.InstructedAmount)}, not the ${asked.Amount} ${asked.Currency} asked`);
  }
  if (problems.length) throw violationWithProblems(this, `the VRP funds check discloses more than whether ${asked ? `${asked.Amount} ${asked.Currency}` : 'the amount'} is available (${describeAnswer(r)}):`, problems);
  // Other members the file does not name are allowed by its open objects, but say what no rule asks.
  warn(this, `the VRP funds check ${describeAnswer(r)}`, extra.map(([k]) => ({ text: `${k}: a member OBVRPFundsConfirmationResponse does not define`, source: 'harness expectation (the VRP file leaves these objects open)' })));
});
