/**
 * The sandbox's PSUs and accounts as a NextGenPSD2 bank shows them: the same fixtures as the UK
 * bank (fixtures.ts), in euro, each account with a German IBAN derived from its sort code and
 * number, so that both dialects serve the same PSUs with the same balances and transactions.
 */
import type { FixtureAccount, FixturePsu, FixtureTransaction } from '../fixtures.ts';

/** ISO 13616 check digits by mod 97 (letters as 10–35). */
function ibanCheck(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return String(98n - (BigInt(digits) % 97n)).padStart(2, '0');
}

/** DE IBAN: bank code `50` + sort code, account `00` + account number. */
export function ibanOf(account: FixtureAccount): string {
  const bban = `50${account.Identification.slice(0, 6)}00${account.Identification.slice(6)}`;
  return `DE${ibanCheck('DE', bban)}${bban}`;
}

/** Whether an IBAN's check digits are right (a TPP's typo is told apart from an unknown account). */
export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/.test(iban)) return false;
  return ibanCheck(iban.slice(0, 2), iban.slice(4)) === iban.slice(2, 4);
}

export const BIC = 'OBTPDEFFXXX';
export const CURRENCY = 'EUR';

/** Minor units as a BG amount: signed, two decimals. */
export function bgAmount(minor: number): string {
  return (minor / 100).toFixed(2);
}

/** A BG amount string to minor units (up to 3 decimals, sign allowed); undefined when not one. */
export function parseBgAmount(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^-?[0-9]{1,14}(\.[0-9]{1,3})?$/.test(value)) return undefined;
  const negative = value.startsWith('-');
  const [whole, frac = ''] = value.replace('-', '').split('.');
  // Fractions of a cent round up: 0.001 is not covered by a balance of 0.00.
  const minor = Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2)) + (/[1-9]/.test(frac.slice(2)) ? 1 : 0);
  return negative ? -minor : minor;
}

/** PIIS (confirmation of funds) is activated by the PSU at the bank, out of band: here for alice and bob, not carol. */
export function piisActivated(psu: FixturePsu): boolean {
  return psu.username !== 'carol';
}

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** `accountDetails` of one account. */
export function accountDetails(psu: FixturePsu, a: FixtureAccount): Record<string, unknown> {
  return {
    resourceId: a.AccountId,
    iban: ibanOf(a),
    currency: CURRENCY,
    ownerName: a.Name,
    name: a.Nickname,
    product: a.AccountSubType === 'Savings' ? 'Savings account' : 'Current account',
    cashAccountType: a.AccountSubType === 'Savings' ? 'SVGS' : 'CACC',
    status: 'enabled',
    bic: BIC,
    usage: a.AccountType === 'Business' ? 'ORGA' : 'PRIV',
  };
}

/** The two balances the sandbox keeps: booked at the end of yesterday, and available now (credit line included). */
export function balances(a: FixtureAccount, today: Date): Array<Record<string, unknown>> {
  const yesterday = new Date(today.getTime() - 86_400_000);
  return [
    { balanceAmount: { currency: CURRENCY, amount: bgAmount(a.booked) }, balanceType: 'closingBooked', referenceDate: isoDay(yesterday) },
    { balanceAmount: { currency: CURRENCY, amount: bgAmount(a.booked + a.creditLine) }, balanceType: 'interimAvailable', creditLimitIncluded: a.creditLine > 0, referenceDate: isoDay(today) },
  ];
}

/** One booked transaction; `detailsHref` when the variant offers the detail path. */
export function transaction(t: FixtureTransaction, detailsHref?: string): Record<string, unknown> {
  return {
    transactionId: t.TransactionId,
    entryReference: t.reference,
    bookingDate: isoDay(t.booking),
    valueDate: isoDay(t.booking),
    transactionAmount: { currency: CURRENCY, amount: bgAmount(t.credit ? t.amount : -t.amount) },
    ...(t.credit ? { debtorName: t.counterparty } : { creditorName: t.counterparty }),
    remittanceInformationUnstructured: t.information,
    bankTransactionCode: t.credit ? 'PMNT-RCDT-ESCT' : 'PMNT-ICDT-ESCT',
    balanceAfterTransaction: { balanceAmount: { currency: CURRENCY, amount: bgAmount(t.balanceAfter) }, balanceType: 'interimBooked' },
    ...(detailsHref ? { _links: { transactionDetails: { href: detailsHref } } } : {}),
  };
}

/**
 * The account's pending transactions: one card payment authorised today and not yet booked, so
 * that a report asked for bookingStatus pending or both has something to tell apart from booked.
 */
export function pendingTransactions(a: FixtureAccount, today: Date): Array<Record<string, unknown>> {
  return [{
    entryReference: `${a.AccountId}-P1`,
    valueDate: isoDay(today),
    transactionAmount: { currency: CURRENCY, amount: bgAmount(-1250) },
    creditorName: 'Corner Bakery',
    remittanceInformationUnstructured: 'Card payment, not yet booked',
    bankTransactionCode: 'PMNT-CCRD-POSD',
  }];
}
