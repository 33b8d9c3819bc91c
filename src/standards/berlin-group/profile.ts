/**
 * What the berlin-group standard adds to a profile (NextGenPSD2 XS2A 1.3.x): its SCA approaches,
 * the PSU-IP-Address, its delta reports and payment products, the HTTP signature's certificates,
 * its paths, scopes and intent binding, and a bank without an authorisation server (no auth block).
 */
import type { Profile, ProfilePaths, ScaApproachName } from '../../profile/types.ts';
import type { ProfilePart } from '../standard.ts';

const url = { type: 'string', pattern: '^https?://[^\\s]+$' } as const;

/** NextGenPSD2 1.3.x paths. */
export const BG_PATHS: ProfilePaths = {
  accountAccessConsents: '/v1/consents',
  accounts: '/v1/accounts',
  cardAccounts: '/v1/card-accounts',
  transactionDetail: '/v1/accounts/{AccountId}/transactions/{resourceId}',
  // 1.3.x has no funds-confirmation consent (PIIS is set up at the bank); 2.x puts it here.
  fundsConfirmationConsents: '/v2/consents/confirmation-of-funds',
  fundsConfirmations: '/v1/funds-confirmations',
  paymentProduct: 'sepa-credit-transfers',
  paymentsPrefix: '/v1/payments',
  // No paymentOrders: NextGenPSD2 has no order apart from the payment.
  paymentStatus: '/{payment-product}/{paymentId}/status',
} as ProfilePaths;

/** The SCA approaches of a profile that says none: redirect and OAuth2 (redirect alone without an auth block). */
const DEFAULT_APPROACHES: readonly ScaApproachName[] = ['redirect', 'oauth'];
const PSU_IP_ADDRESS = '127.0.0.1';

export const berlinGroupProfile: ProfilePart = {
  words: "'berlin-group' (NextGenPSD2 XS2A 1.3.x, preview: consent create ais, consent authorise and accounts speak it; the other commands and conform do not yet)",
  changes: 'paths /v1/consents, /v1/accounts, /v1/accounts/{AccountId}/transactions/{resourceId}, /v1/funds-confirmations, /v1/payments/sepa-credit-transfers; scopes AIS, PIIS, PIS bound as {scope}:{intentId}.',
  schema: {
    dialect: {
      sca: {
        type: 'object', additionalProperties: false,
        description: "berlin-group only: the SCA approaches the bank offers, in the TPP's order of preference. redirect: the scaRedirect link (needs TPP-Redirect-URI: sca.redirectUri, else auth.redirectUri); oauth: scaOAuth, the authorisation server with the consent in the scope (needs the auth block); decoupled: the PSU approves in the bank's app while the TPP polls scaStatus; embedded: the PSU's password and one-time password through the TPP (PUT …/authorisations/{authorisationId}). A profile without an auth block (a bank without an authorisation server) offers no oauth.",
        properties: {
          approaches: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['redirect', 'oauth', 'decoupled', 'embedded'] }, description: 'Default [redirect, oauth]; [redirect] in a profile without an auth block.' },
          redirectUri: { ...url, description: 'The TPP-Redirect-URI of the redirect approach. Default auth.redirectUri; required for redirect in a profile without an auth block.' },
          decoupledUrl: { ...url, description: "decoupled: where the PSU approves (the bank's app, a web page the PSU's browser opens; {authorisationId} is filled in). Required for decoupled: obtpp's PSU walks it with psu.driver while the TPP polls scaStatus." },
          decoupledDoneSelector: { type: 'string', minLength: 1, description: 'decoupled: the CSS selector of what the approval page shows once the PSU has decided (the page never sends the PSU back to the TPP). Default [data-testid="sca-done"] (the sandbox\'s).' },
          otp: { type: 'string', minLength: 1, description: "embedded: the PSU's one-time password (scaAuthenticationData) as the bank's test PSU receives it (a secret, like psu.password; ${env:NAME} allowed). Required for embedded." },
          authenticationMethodId: { type: 'string', minLength: 1, description: 'embedded: the SCA method to choose when the bank offers several (authenticationMethodId). Default the first the bank offers.' },
          multilevel: {
            type: 'object', additionalProperties: false, required: ['iban', 'psu'],
            description: "The bank offers multilevel SCA (SCA-03): iban is an account of psu.username whose payments need a second PSU's SCA too (a joint account), psu that second PSU (username: its PSU-ID and login; password: a secret, like psu.password; ${env:NAME} allowed). Absent: SCA-03 is not applicable.",
            properties: {
              iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$' },
              cancellation: { type: 'boolean', description: "The bank also needs both PSUs' SCA to cancel a scheduled payment from that account (SCA-03's cancellation scenario, four PSU journeys). Default false: that scenario is not applicable." },
              psu: {
                type: 'object', additionalProperties: false, required: ['username', 'password'],
                properties: { username: { type: 'string', minLength: 1 }, password: { type: 'string', minLength: 1 } },
              },
            },
          },
        },
      },
      deltaReports: {
        type: 'object', additionalProperties: false,
        description: 'berlin-group only: the delta reports the bank offers on GET /v1/accounts/{account-id}/transactions. entryReferenceFrom: the transactions after the one with that entryReference (BG-53); deltaList: the transactions since the last report access (BG-54); cards: the same ones on GET /v1/card-accounts/{account-id}/transactions too (entryReferenceFrom naming a cardTransactionId). Default false each: their rules (or their card-account scenarios) are then not applicable.',
        properties: { entryReferenceFrom: { type: 'boolean' }, deltaList: { type: 'boolean' }, cards: { type: 'boolean' } },
      },
      paymentProducts: {
        type: 'array', minItems: 1, uniqueItems: true,
        items: { enum: ['sepa-credit-transfers', 'instant-sepa-credit-transfers', 'target-2-payments', 'cross-border-credit-transfers', 'pain.001-sepa-credit-transfers', 'pain.001-instant-sepa-credit-transfers', 'pain.001-target-2-payments', 'pain.001-cross-border-credit-transfers'] },
        description: "berlin-group only: the payment products the bank offers (POST /v1/{payment-service}/{payment-product}): the JSON ones, and the pain.001 ones (an XML pain.001.001.03 body). BG-44 initiates a payment of each JSON product, BG-45 of each pain.001 product (and a bulk of the first); a product not listed is not applicable. Default: paths.paymentProduct alone (sepa-credit-transfers).",
      },
      psuIpAddress: {
        type: 'string', pattern: '^[0-9]{1,3}(\\.[0-9]{1,3}){3}$',
        description: "berlin-group only: the PSU-IP-Address sent on consent and payment creation (the PSU's address as the TPP sees it). Default 127.0.0.1.",
      },
    },
  },
  ownFields: ['sca', 'psuIpAddress', 'deltaReports', 'paymentProducts', 'signing.certificate', 'bank.requiresSignedRequests', 'bank.signingCertificate'],
  ownProblems(raw) {
    // The NextGenPSD2 HTTP signature: obtpp must sign to be served.
    if (raw?.bank?.requiresSignedRequests === true && raw.signing?.certificate === undefined) {
      return ['$.signing.certificate: is required when bank.requiresSignedRequests is true (obtpp must sign its requests to be served)'];
    }
    return [];
  },
  withoutAuth: {
    words: 'a berlin-group bank whose SCA needs no authorisation server',
    problems(raw) {
      const problems: string[] = [];
      const approaches = Array.isArray(raw.sca?.approaches) ? raw.sca.approaches : ['redirect'];
      if (approaches.includes('oauth')) problems.push('$.sca.approaches: oauth needs the bank\'s authorisation server, which a profile without an auth block does not have');
      if (approaches.includes('redirect') && raw.sca?.redirectUri === undefined) problems.push('$.sca.redirectUri: is required for the redirect approach in a profile without an auth block (it is the TPP-Redirect-URI)');
      if (raw.registration !== undefined) problems.push('$.registration: needs the bank\'s authorisation server (an auth block)');
      return problems;
    },
  },
  paths: () => BG_PATHS,
  scopes: { ais: 'AIS', cof: 'PIIS', pis: 'PIS' },
  intentBinding: { method: 'scope', scopeTemplate: '{scope}:{intentId}' },
  redirectUri: (p) => p.sca?.redirectUri,
  secrets: (p) => [p.sca?.otp, p.sca?.multilevel?.psu.password],
  complete(p, { absent }): Partial<Profile> {
    return {
      sca: {
        // Without an authorisation server the default is the redirect approach alone.
        approaches: [...(p.sca?.approaches ?? (absent ? ['redirect'] : DEFAULT_APPROACHES))],
        ...(p.sca?.decoupledUrl ? { decoupledUrl: p.sca.decoupledUrl } : {}),
        ...(p.sca?.decoupledDoneSelector ? { decoupledDoneSelector: p.sca.decoupledDoneSelector } : {}),
        ...(p.sca?.otp ? { otp: p.sca.otp } : {}),
        ...(p.sca?.authenticationMethodId ? { authenticationMethodId: p.sca.authenticationMethodId } : {}),
        ...(p.sca?.multilevel ? { multilevel: { iban: p.sca.multilevel.iban, psu: { ...p.sca.multilevel.psu }, ...(p.sca.multilevel.cancellation ? { cancellation: true } : {}) } } : {}),
      },
      psuIpAddress: p.psuIpAddress ?? PSU_IP_ADDRESS,
      ...(p.deltaReports ? { deltaReports: { entryReferenceFrom: p.deltaReports.entryReferenceFrom === true, deltaList: p.deltaReports.deltaList === true, cards: p.deltaReports.cards === true } } : {}),
      // The payment products the bank offers: the profile's, else the one its paths name.
      paymentProducts: [...(p.paymentProducts ?? [p.paths?.paymentProduct ?? BG_PATHS.paymentProduct])],
    };
  },
};
