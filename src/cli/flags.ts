/** The flags of the session commands, as the shared commands and each standard's work read them. */
import type { CommonFlags } from './output.ts';

export type { CommonFlags } from './output.ts';

export interface AisFlags extends CommonFlags {
  permissions?: string; expires?: string; from?: string; to?: string;
  /** berlin-group only: the consent's access form. */
  access?: string;
}
export interface CofFlags extends CommonFlags { debtorScheme?: string; debtorId?: string; debtorName?: string; expires?: string }
export interface PisFlags extends CommonFlags {
  amount?: string; currency?: string; creditorId?: string; creditorName?: string; creditorScheme?: string;
  debtorId?: string; debtorScheme?: string; debtorName?: string; reference?: string; idempotencyKey?: string;
  /** berlin-group only. */
  product?: string; creditorIban?: string; debtorIban?: string;
  service?: string; startDate?: string; endDate?: string; frequency?: string; executionRule?: string; dayOfExecution?: string;
  payments?: string; batchBooking?: boolean;
}

export interface AuthoriseFlags extends CommonFlags {
  consent?: string; accounts?: string; debtor?: string; reject?: boolean; manual?: boolean; callbackPort?: string;
  psuId?: string; passwordStdin?: boolean; otpStdin?: boolean; timeout?: string;
}

export interface DataFlags extends CommonFlags { consent?: string }
export interface AccountsFlags extends DataFlags { cards?: boolean }
export interface TransactionsFlags extends DataFlags { from?: string; to?: string; bookingStatus?: string }

export interface ConfirmFlags extends CommonFlags { amount?: string; currency?: string; reference?: string; consent?: string; iban?: string }
