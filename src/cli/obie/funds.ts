/** UK funds confirmation at the terminal: POST /funds-confirmations under a COF consent's token. */
import type { Out } from '../output.ts';
import type { ConfirmFlags } from '../flags.ts';
import type { ConsentRecord, Session } from '../../session/index.ts';
import type { ApiResult } from '../../client/operations.ts';
import { buildFundsConfirmation, fundsAvailableOf } from '../../dialects/obie/builders.ts';
import { parseAmount, parseCurrency, required, text35 } from '../../session/parse.ts';
import { UsageError } from '../../errors.ts';

/** POST /funds-confirmations for a COF consent, with its authorization-code token. */
export async function confirmFunds(session: Session, record: ConsentRecord, o: { amount: string; currency: string; reference: string }): Promise<ApiResult> {
  const body = buildFundsConfirmation({ consentId: record.id, reference: o.reference, amount: o.amount, currency: o.currency });
  return session.withUserToken(record, async (token) => session.check(await session.client.confirmFunds(body, { token }), [200, 201]));
}

export function confirmArgs(flags: ConfirmFlags, defaultAmount?: string) {
  return {
    amount: parseAmount('--amount', required('--amount', flags.amount ?? defaultAmount, 'the amount to check, e.g. 10.00')),
    currency: parseCurrency('--currency', flags.currency ?? 'GBP'),
    reference: text35('--reference', flags.reference ?? 'obtpp'),
  };
}

export function printConfirmation(out: Out, o: { amount: string; currency: string }, body: unknown, consentId: string): void {
  const available = fundsAvailableOf(body);
  const verdict = available === true ? out.c.green('yes') : available === false ? out.c.red('no') : out.c.yellow('no answer');
  out.line(`funds available for ${o.amount} ${o.currency}: ${verdict} (consent ${consentId})`);
}

export async function confirm(session: Session, out: Out, flags: ConfirmFlags): Promise<void> {
  if (flags.iban !== undefined) throw new UsageError('--iban names the account of a berlin-group funds confirmation: a UK one uses the debtor account of its COF consent (--consent)');
  const args = confirmArgs(flags);
  const record = await session.consent('cof', flags.consent);
  const result = await out.step(`confirming funds for ${args.amount} ${args.currency}`, () => confirmFunds(session, record, args));
  if (out.json) return out.document(result.body);
  printConfirmation(out, args, result.body, record.id);
}
