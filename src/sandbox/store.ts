/**
 * The sandbox bank's state: consents of the three kinds, the idempotency memory and the fixtures,
 * in memory, for one run.
 */
import { randomUUID } from 'node:crypto';
import type { FixtureAccount, FixturePsu } from './fixtures.ts';

export type ConsentKind = 'ais' | 'cof' | 'pis';
export type ConsentStatus = 'AwaitingAuthorisation' | 'Authorised' | 'Rejected' | 'Revoked' | 'Consumed';

/** An account as a TPP names it in a body: `{ SchemeName, Identification, Name?, … }`. */
export interface AccountRef {
  SchemeName: string;
  Identification: string;
  Name?: string;
  SecondaryIdentification?: string;
}

interface ConsentBase {
  ConsentId: string;
  clientId: string;
  Status: ConsentStatus;
  CreationDateTime: Date;
  StatusUpdateDateTime: Date;
  /** True once the PSU approved or rejected; status alone cannot tell under consent-status-not-awaiting. */
  decided: boolean;
  /** The PSU who decided (username). */
  psu?: string;
}

/** An account-access consent; the date fields keep the TPP's own strings so they echo unchanged. */
export interface AisConsent extends ConsentBase {
  kind: 'ais';
  Permissions: string[];
  ExpirationDateTime: string;
  TransactionFromDateTime: string;
  TransactionToDateTime: string;
  /** AccountIds the PSU selected. */
  accounts: string[];
  /** Deleted by the TPP (DELETE /account-access-consents/{ConsentId}): gone, and its tokens open nothing. */
  deleted?: boolean;
}

export interface CofConsent extends ConsentBase {
  kind: 'cof';
  DebtorAccount: AccountRef;
  ExpirationDateTime?: string;
  /** The PSU's account behind DebtorAccount, known once authorised. */
  accountId?: string;
  deleted: boolean;
}

export interface PisConsent extends ConsentBase {
  kind: 'pis';
  Initiation: Record<string, unknown> & { DebtorAccount?: AccountRef; InstructedAmount: { Amount: string; Currency: string } };
  Risk: Record<string, unknown>;
  /** The debtor the PSU chose during authorisation (only when Initiation had none). */
  Debtor?: AccountRef;
  /** A domestic VRP consent (one consent, many payments): its control parameters; revoked once deleted. */
  vrp?: { ControlParameters: Record<string, any>; ReadRefundAccount?: string; deleted?: boolean };
}

/** A payment made under a VRP consent (`OBDomesticVRPResponse`). */
export interface VrpPayment {
  DomesticVRPId: string;
  ConsentId: string;
  clientId: string;
  Status: 'AcceptedSettlementInProcess';
  CreationDateTime: Date;
  StatusUpdateDateTime: Date;
  /** Minor units, for the periodic limits. */
  minor: number;
  Initiation: Record<string, unknown>;
  Instruction: Record<string, unknown>;
  Risk: Record<string, unknown>;
  DebtorAccount?: AccountRef;
}

export type Consent = AisConsent | CofConsent | PisConsent;

/** A payment order submitted on an authorised payment-order consent (`OBWriteDomesticResponse5`). */
export interface PaymentOrder {
  DomesticPaymentId: string;
  ConsentId: string;
  clientId: string;
  Status: 'AcceptedSettlementInProcess' | 'AcceptedSettlementCompleted';
  CreationDateTime: Date;
  StatusUpdateDateTime: Date;
  Initiation: PisConsent['Initiation'];
  Debtor?: AccountRef;
}

/** The state of one sandbox run. */
export class Store {
  readonly psus: FixturePsu[];
  readonly consents = new Map<string, Consent>();
  /** Payment orders by DomesticPaymentId. */
  readonly orders = new Map<string, PaymentOrder>();
  /** Payments under VRP consents by DomesticVRPId. */
  readonly vrps = new Map<string, VrpPayment>();
  /** `${clientId} ${route} ${key}` → the body first sent with that key and the resource it created. */
  readonly idempotency = new Map<string, { body: string; id: string }>();
  /** oidc-provider grant id → the consent that grant was authorised for. */
  readonly intentByGrant = new Map<string, string>();
  /** The bank's clock for consent dates and expiry (tests may drive it; tokens keep real time). */
  readonly now: () => number;

  constructor(psus: FixturePsu[], now: () => number = Date.now) {
    this.psus = psus;
    this.now = now;
  }

  psu(username: string | undefined): FixturePsu | undefined {
    return this.psus.find((p) => p.username === username);
  }

  account(accountId: string): { psu: FixturePsu; account: FixtureAccount } | undefined {
    for (const psu of this.psus) {
      const account = psu.accounts.find((a) => a.AccountId === accountId);
      if (account) return { psu, account };
    }
    return undefined;
  }

  /** The PSU's account a TPP's account reference names (scheme and identification), if any. */
  accountByRef(ref: AccountRef | undefined, psu?: FixturePsu): FixtureAccount | undefined {
    if (!ref) return undefined;
    const pool = psu ? psu.accounts : this.psus.flatMap((p) => p.accounts);
    const id = String(ref.Identification).replace(/[\s-]/g, '');
    return pool.find((a) => a.SchemeName === ref.SchemeName && a.Identification === id);
  }

  add<C extends Consent>(consent: Omit<C, 'ConsentId' | 'CreationDateTime' | 'StatusUpdateDateTime' | 'decided'> & { Status: ConsentStatus }): C {
    const now = new Date(this.now());
    const full = { ...consent, ConsentId: `${consent.kind}-${randomUUID()}`, CreationDateTime: now, StatusUpdateDateTime: now, decided: false } as unknown as C;
    this.consents.set(full.ConsentId, full);
    return full;
  }

  setStatus(consent: Consent, status: ConsentStatus): void {
    consent.Status = status;
    consent.StatusUpdateDateTime = new Date(this.now());
  }

  /** The most recent undecided consent of this client and kind (what intent-not-bound binds to). */
  latestUndecided(clientId: string, kind: ConsentKind): Consent | undefined {
    return [...this.consents.values()].reverse().find((c) => c.clientId === clientId && c.kind === kind && !c.decided);
  }
}
