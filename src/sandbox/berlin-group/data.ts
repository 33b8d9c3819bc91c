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

/** One booked or pending purchase on a card account, dated in days before the bank's today. */
export interface CardPurchase { id: string; daysAgo: number; minor: number; acceptor: string; mcc: string; town: string; booked: boolean }

/** A card account of a PSU (`/v1/card-accounts`): named by its masked PAN, its debits quoted negative. */
export interface CardAccount { id: string; maskedPan: string; name: string; product: string; creditLimitMinor: number; purchases: CardPurchase[] }

const purchases = (prefix: string, seed: number): CardPurchase[] => [
  { id: `${prefix}-T1`, daysAgo: 3, minor: 2390 + seed, acceptor: 'Corner Bakery', mcc: '5462', town: 'Berlin', booked: true },
  { id: `${prefix}-T2`, daysAgo: 12, minor: 8450 + seed, acceptor: 'Rail Tickets', mcc: '4112', town: 'Hamburg', booked: true },
  { id: `${prefix}-T3`, daysAgo: 41, minor: 1999 + seed, acceptor: 'Book Shop', mcc: '5942', town: 'Munich', booked: true },
  { id: `${prefix}-P1`, daysAgo: 0, minor: 650 + seed, acceptor: 'Coffee Bar', mcc: '5814', town: 'Berlin', booked: false },
];

/** A long run of small purchases, one every other day over 88 days: a report the bank pages (CARD_PAGE_SIZE). */
const travel = (prefix: string): CardPurchase[] => Array.from({ length: 44 }, (_, i) => ({
  id: `${prefix}-R${String(i + 1).padStart(2, '0')}`, daysAgo: 2 * i + 1, minor: 280 + 10 * i, acceptor: 'City Transit', mcc: '4111', town: 'Berlin', booked: true,
}));

/** Booked card transactions per page of a report: a longer one is paged by `_links.next`. */
export const CARD_PAGE_SIZE = 20;

/**
 * The PSU's card accounts: two for the first PSU (so that a consent naming one can be seen to
 * leave the other out), one for the others. Their ids and masked PANs are derived from the PSU.
 */
export function cardAccountsOf(psu: FixturePsu, index: number): CardAccount[] {
  const digits = (n: number) => String(1000 + ((index * 7 + n * 13) % 9000)).slice(-4);
  const cards: CardAccount[] = [
    { id: `${psu.username}-card`, maskedPan: `525412******${digits(1)}`, name: `${psu.name} Credit Card`, product: 'Credit card', creditLimitMinor: 300_000, purchases: purchases(`${psu.username}-card`, 0) },
  ];
  if (index === 0) cards.push({ id: `${psu.username}-card-2`, maskedPan: `491761******${digits(2)}`, name: `${psu.name} Travel Card`, product: 'Charge card', creditLimitMinor: 150_000, purchases: [...purchases(`${psu.username}-card-2`, 5), ...travel(`${psu.username}-card-2`)] });
  return cards;
}

/** The card account's balances: booked and available (the credit limit less what is booked and pending). */
export function cardBalances(card: CardAccount, today: Date): Array<Record<string, unknown>> {
  const booked = card.purchases.filter((p) => p.booked).reduce((n, p) => n + p.minor, 0);
  const pendingMinor = card.purchases.filter((p) => !p.booked).reduce((n, p) => n + p.minor, 0);
  return [
    { balanceAmount: { currency: CURRENCY, amount: bgAmount(-booked) }, balanceType: 'interimBooked', referenceDate: isoDay(today) },
    { balanceAmount: { currency: CURRENCY, amount: bgAmount(card.creditLimitMinor - booked - pendingMinor) }, balanceType: 'interimAvailable', creditLimitIncluded: true, referenceDate: isoDay(today) },
  ];
}

/** One card transaction as the report shows it (a pending one has no booking date). */
export function cardTransaction(card: CardAccount, p: CardPurchase, today: Date): Record<string, unknown> {
  const day = isoDay(new Date(today.getTime() - p.daysAgo * 86_400_000));
  return {
    cardTransactionId: p.id,
    transactionDate: day,
    ...(p.booked ? { bookingDate: day } : {}),
    transactionAmount: { currency: CURRENCY, amount: bgAmount(-p.minor) },
    cardAcceptorAddress: { townName: p.town, country: 'DE' },
    merchantCategoryCode: p.mcc,
    maskedPAN: card.maskedPan,
    transactionDetails: p.acceptor,
    invoiced: p.booked && p.daysAgo > 30,
  };
}
