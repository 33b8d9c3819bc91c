/** What the independent bank remembers: its customers and the consents TPPs created. */
import type { BankAccount, Customer } from './data.ts';

export type ConsentStatus = 'AwaitingAuthorisation' | 'Authorised' | 'Rejected' | 'Consumed' | 'Revoked';

interface ConsentBase {
  id: string;
  clientId: string;
  status: ConsentStatus;
  created: string;
  statusUpdated: string;
  /** The customer who decided it. */
  customer?: string;
}

export interface AccessConsent extends ConsentBase {
  api: 'ais';
  permissions: string[];
  expiration?: string;
  from?: string;
  to?: string;
  /** AccountIds the PSU ticked. */
  accounts: string[];
}

export interface FundsConsent extends ConsentBase {
  api: 'cof';
  debtor: { SchemeName: string; Identification: string; Name?: string; SecondaryIdentification?: string };
  expiration?: string;
  deleted: boolean;
  /** The customer's account the debtor names, once authorised. */
  accountId?: string;
}

export interface PaymentConsent extends ConsentBase {
  api: 'pis';
  initiation: Record<string, any>;
  risk: Record<string, unknown>;
  /** Set when the PSU chose the debtor account at authorisation. */
  debtor?: { SchemeName: string; Identification: string };
  /** The payment family (its consents' path stem, e.g. `domestic-scheduled-payment`); none for a domestic payment. */
  family?: string;
  /** A file payment's file as uploaded. */
  file?: string;
  /** The exchange rate the bank gave an international payment (ExchangeRateInformation of its answers). */
  rate?: Record<string, unknown>;
  /** A domestic VRP consent: its ControlParameters, and whether the TPP deleted it. */
  vrp?: { controls: Record<string, any>; deleted: boolean; readRefundAccount?: string };
}

/** An order (a payment, scheduled payment, standing order, file payment or VRP) made on a payment consent. */
export interface PaymentOrder {
  id: string;
  consentId: string;
  clientId: string;
  created: string;
  status: string;
  /** The request's Data and Risk as accepted. */
  data: Record<string, any>;
  risk?: Record<string, unknown>;
  /** Minor units paid (VRP limits count them). */
  pence: number;
  at: number;
}

export type Consent = AccessConsent | FundsConsent | PaymentConsent;

export class BankState {
  readonly customers: Customer[];
  readonly consents = new Map<string, Consent>();
  /** oidc-provider grant id → consent id, so tokens carry the consent they were issued for. */
  readonly consentOfGrant = new Map<string, string>();
  /** `${clientId} ${route} ${key}` → consent id, with the request body it was made from. */
  readonly idempotency = new Map<string, { id: string; body: string; at: number }>();
  /** Orders made on payment consents, by their id. */
  readonly orders = new Map<string, PaymentOrder>();
  /** Successful logins so far (every third one shows a security notice first). */
  logins = 0;
  /** Requests each server answered, by name. */
  readonly hits: Record<string, number> = {};

  /** Defects switched on (none in a conformant bank); a test may switch them between runs. */
  readonly defects: Set<string>;
  /** The UK Read/Write version the bank speaks (its records stay in its own words; v4.ts says them at v4.0). */
  readonly version: 'v3.1' | 'v4.0';

  constructor(customers: Customer[], defects: Iterable<string> = [], version: 'v3.1' | 'v4.0' = 'v3.1') {
    this.customers = customers;
    this.defects = new Set(defects);
    this.version = version;
  }

  customer(number: string | undefined): Customer | undefined {
    return this.customers.find((c) => c.customerNumber === number);
  }

  /** The account of any customer with this AccountId. */
  account(accountId: string): { customer: Customer; account: BankAccount } | undefined {
    for (const customer of this.customers) {
      const account = customer.accounts.find((a) => a.accountId === accountId);
      if (account) return { customer, account };
    }
    return undefined;
  }

  /** The customer's account an OBIE account reference names (sort code + account number). */
  accountByReference(customer: Customer, ref: { SchemeName?: string; Identification?: string }): BankAccount | undefined {
    if (ref.SchemeName !== 'UK.OBIE.SortCodeAccountNumber') return undefined;
    return customer.accounts.find((a) => a.identification === ref.Identification);
  }
}

export function nowIso(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
