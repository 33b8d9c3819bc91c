import type { Io } from '../io.ts';
import type { CommonFlags, Out } from '../output.ts';
import { withSession } from './common.ts';
import type { Session, ConsentRecord } from '../../session/index.ts';
import type { ApiResult } from '../../client/operations.ts';
import { buildFundsConfirmation, fundsAvailableOf } from '../../dialects/obie/builders.ts';
import { parseAmount, parseCurrency, required, text35 } from '../../session/parse.ts';
import { UsageError } from '../../errors.ts';

export interface ConfirmFlags extends CommonFlags { amount?: string; currency?: string; reference?: string; consent?: string; iban?: string }

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

export async function confirm(io: Io, flags: ConfirmFlags): Promise<void> {
  await withSession(io, flags, async (session, out) => {
    if (session.profile.dialect === 'berlin-group') return confirmBg(session, out, flags);
    if (flags.iban !== undefined) throw new UsageError('--iban names the account of a berlin-group funds confirmation: a UK one uses the debtor account of its COF consent (--consent)');
    const args = confirmArgs(flags);
    const record = await session.consent('cof', flags.consent);
    const result = await out.step(`confirming funds for ${args.amount} ${args.currency}`, () => confirmFunds(session, record, args));
    if (out.json) return out.document(result.body);
    printConfirmation(out, args, result.body, record.id);
  }, { dialects: ['obie', 'berlin-group'] });
}

/** berlin-group: POST /v1/funds-confirmations for the account --iban (the PSU's PIIS consent lives at the bank). */
async function confirmBg(session: Session, out: Out, flags: ConfirmFlags): Promise<void> {
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
