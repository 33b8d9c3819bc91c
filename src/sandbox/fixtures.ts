/**
 * The sandbox's PSUs, accounts, balances and a year of transactions, generated from a fixed seed
 * relative to an anchor day, so that the same anchor always yields the same data and tests can
 * reason about it. Amounts are kept in pence (integers) and rendered as strings only on the wire.
 */

/** One booked transaction. `amount` is in minor units and always positive. */
export interface FixtureTransaction {
  TransactionId: string;
  credit: boolean;
  amount: number;
  booking: Date;
  reference: string;
  information: string;
  counterparty: string;
  /** Running booked balance after this transaction, in minor units (may be negative). */
  balanceAfter: number;
  code: { Code: string; SubCode: string };
}

/** One account of a PSU. */
export interface FixtureAccount {
  AccountId: string;
  SchemeName: 'UK.OBIE.SortCodeAccountNumber';
  /** Sort code and account number, 14 digits. */
  Identification: string;
  Name: string;
  Nickname: string;
  Currency: 'GBP';
  AccountType: 'Personal' | 'Business';
  AccountSubType: 'CurrentAccount' | 'Savings';
  OpeningDate: Date;
  /** Booked balance today, in minor units. */
  booked: number;
  /** Agreed overdraft, in minor units; included in the available balance. */
  creditLine: number;
  /** Oldest first. */
  transactions: FixtureTransaction[];
}

/** A sandbox PSU: the login typed on the bank's page, and the accounts behind it. */
export interface FixturePsu {
  username: string;
  password: string;
  name: string;
  accounts: FixtureAccount[];
}

interface AccountSeed {
  id: string;
  name: string;
  nickname: string;
  type: FixtureAccount['AccountType'];
  subType: FixtureAccount['AccountSubType'];
  sortCode: string;
  number: string;
  /** Booked balance today, in pence. */
  booked: number;
  creditLine?: number;
  /** Transactions per year. */
  volume: number;
}

const SEEDS: Array<{ username: string; name: string; accounts: AccountSeed[] }> = [
  {
    username: 'alice', name: 'Alice Archer', accounts: [
      { id: 'alice-current', name: 'Alice Archer', nickname: 'Everyday', type: 'Personal', subType: 'CurrentAccount', sortCode: '404004', number: '11290112', booked: 184_237, volume: 220 },
      { id: 'alice-savings', name: 'Alice Archer', nickname: 'Rainy day', type: 'Personal', subType: 'Savings', sortCode: '404004', number: '11290139', booked: 1_250_000, volume: 24 },
      { id: 'alice-joint', name: 'A Archer and D Archer', nickname: 'Joint', type: 'Personal', subType: 'CurrentAccount', sortCode: '404004', number: '11290147', booked: -15_000, creditLine: 50_000, volume: 120 },
    ],
  },
  {
    username: 'bob', name: 'Bob Baker', accounts: [
      { id: 'bob-current', name: 'Bob Baker', nickname: 'Main', type: 'Personal', subType: 'CurrentAccount', sortCode: '309634', number: '52000417', booked: 1_240, volume: 180 },
      { id: 'bob-business', name: 'Baker & Sons Ltd', nickname: 'Bakery', type: 'Business', subType: 'CurrentAccount', sortCode: '309634', number: '52000425', booked: 32_000, creditLine: 100_000, volume: 260 },
    ],
  },
  {
    username: 'carol', name: 'Carol Carter', accounts: [
      { id: 'carol-current', name: 'Carol Carter', nickname: 'Current', type: 'Personal', subType: 'CurrentAccount', sortCode: '600001', number: '73314459', booked: 500_000, volume: 200 },
      { id: 'carol-savings', name: 'Carol Carter', nickname: 'Holiday', type: 'Personal', subType: 'Savings', sortCode: '600001', number: '73314467', booked: 80_000, volume: 12 },
      { id: 'carol-bills', name: 'Carol Carter', nickname: 'Bills', type: 'Personal', subType: 'CurrentAccount', sortCode: '600001', number: '73314475', booked: 23_456, volume: 60 },
      { id: 'carol-isa', name: 'Carol Carter', nickname: 'ISA', type: 'Personal', subType: 'Savings', sortCode: '600001', number: '73314483', booked: 1_000_000, volume: 6 },
    ],
  },
];

const DEBITS = [
  ['Tesco Stores', 'Groceries', 1_500, 9_000], ['Transport for London', 'Travel', 280, 1_500], ['Pret A Manger', 'Lunch', 450, 1_200],
  ['Octopus Energy', 'Energy bill', 6_000, 14_000], ['Amazon UK', 'Online shopping', 999, 8_999], ['Boots', 'Pharmacy', 350, 2_500],
  ['Council Tax', 'Council tax', 14_000, 16_000], ['Vodafone', 'Mobile phone', 1_800, 3_200], ['Landlord Ltd', 'Rent', 85_000, 95_000],
] as const;
const CREDITS = [
  ['Employer plc', 'Salary', 180_000, 260_000], ['HMRC', 'Tax refund', 2_000, 25_000], ['J Smith', 'Transfer', 1_000, 20_000],
  ['Interest', 'Interest paid', 50, 900],
] as const;

/** mulberry32: tiny, fast, and the same numbers on every machine. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

const DAY = 86_400_000;

/** Midnight UTC of the day `now` falls in: the anchor every fixture date is relative to. */
export function anchorDay(now: Date = new Date()): Date {
  return new Date(Math.floor(now.getTime() / DAY) * DAY);
}

function transactions(seed: AccountSeed, anchor: Date): FixtureTransaction[] {
  const random = prng(hash(seed.id));
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const drafts = Array.from({ length: seed.volume }, () => {
    // Savings accounts mostly receive; current accounts mostly pay out.
    const credit = random() < (seed.subType === 'Savings' ? 0.75 : 0.25);
    const [counterparty, information, min, max] = credit ? pick(CREDITS) : pick(DEBITS);
    const amount = min + Math.floor(random() * (max - min));
    // Days 1..365 before the anchor, so every transaction is already booked.
    const booking = new Date(anchor.getTime() - (1 + Math.floor(random() * 365)) * DAY + Math.floor(random() * DAY / 1000) * 1000);
    return { credit, amount, booking, counterparty, information };
  }).sort((a, b) => a.booking.getTime() - b.booking.getTime());
  const net = drafts.reduce((sum, d) => sum + (d.credit ? d.amount : -d.amount), 0);
  let balance = seed.booked - net;
  return drafts.map((d, i) => {
    balance += d.credit ? d.amount : -d.amount;
    const n = String(i + 1).padStart(4, '0');
    return {
      TransactionId: `${seed.id}-${n}`,
      credit: d.credit,
      amount: d.amount,
      booking: d.booking,
      reference: `REF${hash(seed.id + n).toString(36).toUpperCase().slice(0, 8)}`,
      information: `${d.information} ${d.counterparty}`,
      counterparty: d.counterparty,
      balanceAfter: balance,
      code: d.credit ? { Code: 'ReceivedCreditTransfer', SubCode: 'DomesticCreditTransfer' } : { Code: 'IssuedCreditTransfer', SubCode: 'DomesticCreditTransfer' },
    };
  });
}

/** Builds every PSU with their accounts and transactions, relative to `anchor` (see anchorDay). */
export function buildFixtures(anchor: Date): FixturePsu[] {
  return SEEDS.map((psu) => ({
    username: psu.username,
    password: `${psu.username}-pass-1`,
    name: psu.name,
    accounts: psu.accounts.map((a) => ({
      AccountId: a.id,
      SchemeName: 'UK.OBIE.SortCodeAccountNumber' as const,
      Identification: a.sortCode + a.number,
      Name: a.name,
      Nickname: a.nickname,
      Currency: 'GBP' as const,
      AccountType: a.type,
      AccountSubType: a.subType,
      OpeningDate: new Date(anchor.getTime() - 3 * 365 * DAY),
      booked: a.booked,
      creditLine: a.creditLine ?? 0,
      transactions: transactions(a, anchor),
    })),
  }));
}

/** The available balance a funds confirmation is judged against: booked plus the agreed credit line. */
export function availableBalance(account: FixtureAccount): number {
  return account.booked + account.creditLine;
}

/** Renders minor units as an OBIE amount string (always positive, two decimals). */
export function money(minor: number): string {
  return (Math.abs(minor) / 100).toFixed(2);
}

/** Parses an OBIE amount string to minor units; undefined when it is not one. */
export function parseMoney(amount: unknown): number | undefined {
  if (typeof amount !== 'string' || !/^\d{1,13}$|^\d{1,13}\.\d{1,5}$/.test(amount)) return undefined;
  const [whole, frac = ''] = amount.split('.');
  // Fractions of a penny round up: 0.001 is not covered by a balance of 0.00.
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2)) + (/[1-9]/.test(frac.slice(2)) ? 1 : 0);
}
