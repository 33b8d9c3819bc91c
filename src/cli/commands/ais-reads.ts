/**
 * The resources of `obtpp ais`, each with its bulk and per-account operations of the catalogue
 * (light: the command's definition reads it for --help).
 */
export interface AisRead {
  /** The bulk read (every consented account), if the standard has one. */
  every?: string;
  /** The per-account read (or per statement, with `statement`). */
  one?: string;
  /** The read needs a StatementId as well. */
  statement?: boolean;
}

export const AIS_READS: Readonly<Record<string, AisRead>> = {
  balances: { every: 'listBalances', one: 'getBalances' },
  transactions: { every: 'listTransactions', one: 'getTransactions' },
  beneficiaries: { every: 'listBeneficiaries', one: 'getBeneficiaries' },
  'direct-debits': { every: 'listDirectDebits', one: 'getDirectDebits' },
  'standing-orders': { every: 'listStandingOrders', one: 'getStandingOrders' },
  'scheduled-payments': { every: 'listScheduledPayments', one: 'getScheduledPayments' },
  offers: { every: 'listOffers', one: 'getOffers' },
  party: { every: 'getParty', one: 'getAccountParty' },
  parties: { one: 'getAccountParties' },
  product: { one: 'getProduct' },
  products: { every: 'listProducts' },
  statements: { every: 'listStatements', one: 'getStatements' },
  statement: { one: 'getStatement', statement: true },
  'statement-file': { one: 'getStatementFile', statement: true },
  'statement-transactions': { one: 'getStatementTransactions', statement: true },
};
