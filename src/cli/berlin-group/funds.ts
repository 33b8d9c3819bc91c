/** NextGenPSD2 funds confirmation at the terminal: for an account (--iban) whose PIIS consent lives at the bank. */
import type { Out } from '../output.ts';
import type { ConfirmFlags } from '../flags.ts';
import type { Session } from '../../session/index.ts';
import { parseAmount, parseCurrency, required } from '../../session/parse.ts';
import { UsageError } from '../../errors.ts';

/** berlin-group: POST /v1/funds-confirmations for the account --iban (the PSU's PIIS consent lives at the bank). */
export async function confirm(session: Session, out: Out, flags: ConfirmFlags): Promise<void> {
  if (flags.consent !== undefined || flags.reference !== undefined) throw new UsageError('--consent and --reference are UK terms: a berlin-group funds confirmation names the account (--iban) and the amount');
  const iban = required('--iban', flags.iban, 'the account to check, e.g. DE89370400440532013000').replace(/\s/g, '');
  const amount = parseAmount('--amount', required('--amount', flags.amount, 'the amount to check, e.g. 10.00'));
  const currency = parseCurrency('--currency', flags.currency ?? 'EUR');
  const { confirmBgFunds } = await import('../../session/berlin-group.ts');
  const result = await out.step(`confirming funds for ${amount} ${currency} (POST /v1/funds-confirmations)`, () => confirmBgFunds(session, { iban, amount, currency }));
  if (out.json) return out.document(result.body);
  const { fundsAvailableOf: available } = await import('../../dialects/berlin-group/builders.ts');
  const a = available(result.body);
  out.line(`funds available for ${amount} ${currency} on ${iban}: ${a === true ? out.c.green('yes') : a === false ? out.c.red('no') : out.c.yellow('no answer')}`);
}
