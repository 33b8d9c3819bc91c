/**
 * The NextGenPSD2 bank's state for one run: account-information consents, payments, their
 * authorisation sub-resources and the daily access counters, in memory.
 */
import { randomUUID } from 'node:crypto';
import type { FixtureAccount, FixturePsu } from '../fixtures.ts';
import { cardAccountsOf, ibanOf, type CardAccount } from './data.ts';

export type BgConsentStatus = 'received' | 'rejected' | 'valid' | 'revokedByPsu' | 'expired' | 'terminatedByTpp' | 'partiallyAuthorised';
export type BgScaStatus = 'received' | 'psuIdentified' | 'psuAuthenticated' | 'scaMethodSelected' | 'finalised' | 'failed';
export type ScaApproach = 'REDIRECT' | 'OAUTH' | 'DECOUPLED' | 'EMBEDDED';

/** One SCA of a consent or payment (`/authorisations/{authorisationId}`). */
export interface BgAuthorisation {
  authorisationId: string;
  scaStatus: BgScaStatus;
  approach: ScaApproach;
  /** Where the PSU goes back after a redirect SCA (TPP-Redirect-URI / TPP-Nok-Redirect-URI). */
  redirectUri?: string;
  nokRedirectUri?: string;
  /** The PSU who logged in on the SCA page (the page's own session: the id is unguessable), or whose password the TPP sent (embedded). */
  psu?: string;
  /** The PSU-ID the TPP named (decoupled, embedded): only that PSU may authorise. */
  psuId?: string;
  /** embedded: the SCA method the TPP chose for the PSU. */
  method?: string;
  /** How often GET …/authorisations/{authorisationId} was read once final (the bg-sca-status-regresses fault). */
  finalReads?: number;
  /** An authorisation of the payment's cancellation (…/cancellation-authorisations), not of the payment. */
  cancellation?: boolean;
}

interface Resource {
  id: string;
  /** The PSU who authorised or rejected it. */
  psu?: string;
  authorisations: BgAuthorisation[];
  approach: ScaApproach;
  created: Date;
}

/** `access` as the TPP wrote it, kept to echo unchanged. */
export type Access = Record<string, unknown>;

export interface BgConsent extends Resource {
  kind: 'ais';
  access: Access;
  recurringIndicator: boolean;
  /** As asked, or shortened by the bank. */
  validUntil: string;
  frequencyPerDay: number;
  combinedServiceIndicator: boolean;
  status: BgConsentStatus;
  lastActionDate: string;
  /** AccountIds the consent covers, per service, fixed at authorisation. */
  covered: { accounts: string[]; balances: string[]; transactions: string[] };
  /** Card account ids the consent covers, per service (by maskedPan, or a global form), fixed at authorisation. */
  cards: { accounts: string[]; balances: string[]; transactions: string[] };
  /** The PSU chooses the accounts at the bank (bank-offered consent: empty lists in `access`). */
  bankOffered: boolean;
  /** A one-off consent whose access session has read balances or transactions: a new session (a list read again) finds it expired. */
  oneOffUsed?: boolean;
  /** Multilevel SCA (a consent naming a joint account): the PSUs who have authorised it so far, in order. */
  approvals?: string[];
}

export interface BgPayment extends Resource {
  kind: 'pis';
  /** The payment service: a single payment, a standing order or a bulk. */
  service: 'payments' | 'periodic-payments' | 'bulk-payments';
  product: string;
  body: Record<string, unknown>;
  amountMinor: number;
  transactionStatus: string;
  /** The TPP asked to cancel it (DELETE) and the bank wants the PSU to authorise that (202). */
  cancelRequested?: boolean;
  /** The authorisations of its cancellation (…/cancellation-authorisations/{authorisationId}). */
  cancellations: BgAuthorisation[];
  /** A pain.001 product's document as the TPP sent it (its GET answers it as application/xml). */
  xml?: string;
  /** A standing order with a pain.001 body: its JSON part as sent (its GET answers both parts, multipart/form-data). */
  standingOrder?: string;
  /** Multilevel SCA (a joint account): the PSUs who have authorised it so far, in order. */
  approvals?: string[];
  /** Multilevel SCA of its cancellation: the PSUs who have authorised the cancellation so far, in order. */
  cancelApprovals?: string[];
}

/** A signing basket: consents and payments not yet authorised, which one SCA of the basket authorises. */
export interface BgBasket extends Resource {
  kind: 'sbs';
  consentIds: string[];
  paymentIds: string[];
  /** transactionStatus_SBS: RCVD until the PSU decides, then ACTC (authorised) or RJCT. */
  transactionStatus: 'RCVD' | 'ACTC' | 'RJCT' | 'CANC';
}

export class BgStore {
  readonly psus: FixturePsu[];
  readonly consents = new Map<string, BgConsent>();
  readonly payments = new Map<string, BgPayment>();
  readonly baskets = new Map<string, BgBasket>();
  /** oidc-provider grant id → the consent or payment the grant was authorised for (OAuth SCA). */
  readonly intentByGrant = new Map<string, string>();
  /** `${consentId} ${path} ${day}` → accesses without the PSU (frequencyPerDay). */
  readonly accesses = new Map<string, number>();
  readonly now: () => number;

  constructor(psus: FixturePsu[], now: () => number = Date.now) {
    this.psus = psus;
    this.now = now;
  }

  psu(username: string | undefined): FixturePsu | undefined {
    return this.psus.find((p) => p.username === username);
  }

  /** The account with this IBAN (spaces ignored), and its PSU. */
  byIban(iban: unknown): { psu: FixturePsu; account: FixtureAccount } | undefined {
    if (typeof iban !== 'string') return undefined;
    const wanted = iban.replace(/\s/g, '');
    for (const psu of this.psus) {
      const account = psu.accounts.find((a) => ibanOf(a) === wanted);
      if (account) return { psu, account };
    }
    return undefined;
  }

  account(id: string): { psu: FixturePsu; account: FixtureAccount } | undefined {
    for (const psu of this.psus) {
      const account = psu.accounts.find((a) => a.AccountId === id);
      if (account) return { psu, account };
    }
    return undefined;
  }

  /** The PSU's card accounts. */
  cardsOf(username: string | undefined): CardAccount[] {
    const index = this.psus.findIndex((p) => p.username === username);
    return index < 0 ? [] : cardAccountsOf(this.psus[index]!, index);
  }

  /** The card account with this id, and its PSU. */
  card(id: string): { psu: FixturePsu; card: CardAccount } | undefined {
    for (const psu of this.psus) {
      const card = this.cardsOf(psu.username).find((c) => c.id === id);
      if (card) return { psu, card };
    }
    return undefined;
  }

  newId(prefix: string): string {
    return `${prefix}-${randomUUID()}`;
  }

  /** The consent or payment an authorisation id belongs to. */
  byAuthorisation(authorisationId: string): { resource: BgConsent | BgPayment | BgBasket; authorisation: BgAuthorisation } | undefined {
    for (const resource of [...this.consents.values(), ...this.payments.values(), ...this.baskets.values()]) {
      const authorisation = [...resource.authorisations, ...(resource.kind === 'pis' ? resource.cancellations : [])].find((a) => a.authorisationId === authorisationId);
      if (authorisation) return { resource, authorisation };
    }
    return undefined;
  }

  /** A valid consent past its validUntil becomes expired (the bank's clock, day granularity). */
  refresh(consent: BgConsent): BgConsent {
    if (consent.status === 'valid' && new Date(this.now()).toISOString().slice(0, 10) > consent.validUntil) consent.status = 'expired';
    return consent;
  }

  /**
   * The side effect of authorising a recurring consent (POST /v1/consents, "Side Effects"): the
   * PSU's former recurring consents expire as soon as the new one is authorised. One-off consents
   * neither expire others nor are expired. `keep` leaves them valid (a fault).
   */
  authorised(consent: BgConsent, keep = false): void {
    if (!consent.recurringIndicator || keep) return;
    for (const other of this.consents.values()) {
      if (other !== consent && other.psu === consent.psu && other.recurringIndicator && this.refresh(other).status === 'valid') other.status = 'expired';
    }
  }

  /** The resource scopes the authorisation server knows: one per consent and payment (`AIS:{id}`, `PIS:{id}`). */
  scopes(): string {
    return [...[...this.consents.keys()].map((id) => `AIS:${id}`), ...[...this.payments.keys()].map((id) => `PIS:${id}`)].join(' ');
  }
}
