/**
 * The independent test bank's customers, accounts, balances and transactions. Written for this bank
 * alone (it shares nothing with src/sandbox): opaque UUID AccountIds, a PSU known by a customer
 * number, amounts kept in pence.
 */
import { randomUUID } from 'node:crypto';

export interface BankAccount {
  accountId: string;
  /** Sort code + account number, as UK.OBIE.SortCodeAccountNumber writes it. */
  identification: string;
  /** The holder's name on the account (shown with ReadAccountsDetail, as Account[].Name is optional: never sent). */
  label: string;
  currency: string;
  /** Available balance in minor units (pence). */
  availablePence: number;
  transactions: BankTransaction[];
}

export interface BankTransaction {
  transactionId: string;
  credit: boolean;
  pence: number;
  bookedAt: number;
}

export interface Customer {
  customerNumber: string;
  secretWord: string;
  displayName: string;
  accounts: BankAccount[];
}

const DAY = 86_400_000;

function ledger(seed: number, now: number): BankTransaction[] {
  // Two transactions a week for 420 days, alternating credits and debits of varying size.
  const out: BankTransaction[] = [];
  for (let d = 1; d <= 420; d += 3) {
    out.push({
      transactionId: `TXN${String(seed).padStart(2, '0')}${String(d).padStart(4, '0')}${randomUUID().slice(0, 6).toUpperCase()}`,
      credit: (d + seed) % 2 === 0,
      pence: 100 + ((d * 7919 + seed * 104_729) % 250_000),
      bookedAt: now - d * DAY - ((d * 3_600_000) % DAY),
    });
  }
  return out;
}

export function makeCustomers(now = Date.now()): Customer[] {
  const account = (identification: string, label: string, availablePence: number, seed: number): BankAccount => ({
    accountId: randomUUID(),
    identification,
    label,
    currency: 'GBP',
    availablePence,
    transactions: ledger(seed, now),
  });
  return [
    {
      customerNumber: '88001234',
      secretWord: 'larch-meadow-41',
      displayName: 'R. Okafor',
      accounts: [
        account('20325845612378', 'Everyday account', 1_843_562, 1),
        account('20325870014496', 'Rainy-day saver', 4_210_000, 2),
        account('20325899120033', 'Joint bills', 56_210, 3),
      ],
    },
  ];
}

/** `1234.5` style minor units to the standard's amount string. */
export function amountOf(pence: number): string {
  return (pence / 100).toFixed(2);
}

/** The standard's amount string to minor units; undefined when it is not one. */
export function penceOf(amount: unknown): number | undefined {
  if (typeof amount !== 'string' || !/^\d{1,13}$|^\d{1,13}\.\d{1,5}$/.test(amount)) return undefined;
  const [whole, frac = ''] = amount.split('.');
  return Number(whole) * 100 + Number((frac + '00').slice(0, 2)) + (Number(frac.slice(2) || '0') > 0 ? 1 : 0);
}
