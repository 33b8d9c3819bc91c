/**
 * What the obie standard adds to a profile: the UK discovery document (`discovery`, which implies
 * `standard: uk-3.1`) and the official paths of a published version (`standard: uk-3.1` or
 * `uk-4.0`: each API below its own segment of the bank's …/open-banking/v3.1, the payment-order
 * consent and the order in collections of their own). The spec's own layout takes the shared
 * defaults (src/profile/load.ts).
 */
import type { Fn, ProfilePaths } from '../../profile/types.ts';
import type { ProfilePart } from '../standard.ts';
import { fromDiscovery } from './discovery.ts';

/** The per-API segments of a UK Read/Write bank below its …/open-banking/v3.1 (or v4.0). */
export const UK_API_SEGMENTS: Readonly<Record<Fn, string>> = { ais: '/aisp', cof: '/cbpii', pis: '/pisp' };

/** Both UK versions publish the same paths (FACTS-v4 §1.1); only the version segment of baseUrl differs. */
export const UK_PATHS: ProfilePaths = {
  accountAccessConsents: '/account-access-consents',
  accounts: '/accounts',
  // The standard has no single-transaction read; the catalogue says so (getTransaction is the spec's only).
  transactionDetail: '/accounts/{AccountId}/transactions/{resourceId}',
  fundsConfirmationConsents: '/funds-confirmation-consents',
  fundsConfirmations: '/funds-confirmations',
  paymentProduct: 'domestic-payment-consents',
  paymentsPrefix: '',
  paymentOrders: '/domestic-payments',
  paymentStatus: '/{payment-product}/{paymentId}',
};

/** The version a discovery document implies: UK Read/Write v3.1's shape. */
const DISCOVERY_VERSION = 'uk-3.1';

export const obieProfile: ProfilePart & { discovery: { version: string; read: typeof fromDiscovery } } = {
  words: "'obie' (UK Open Banking v3.1)",
  versionsWords: "obie only: the bank serves the published UK Open Banking Read/Write standard (uk-3.1: v3.1.11 under …/open-banking/v3.1; uk-4.0: v4.0 under …/open-banking/v4.0, judged with v4.0's ISO 20022 code values and schemas) at its official paths rather than the spec's layout. baseUrl is then the bank's …/open-banking/v3.1 (each API at /aisp, /cbpii, /pisp below it unless apis says otherwise); the payment-order consent is at /domestic-payment-consents and the order at /domestic-payments; the operations of the whole standard are offered, those only the spec's layout has (the single-transaction read, the payment's /status) are not. Default: the spec's layout (variants A and B).",
  schema: {
    apis: {
      discovery: {
        type: 'string', minLength: 1,
        description: "obie, UK Read/Write v3.1 (implies standard: uk-3.1): the bank's published discovery document, in the UK conformance suite's discovery shape (discoveryModel.discoveryItems: per API and version, resourceBaseUri and the endpoints it serves as method + path). A file (file:PATH or PATH, relative to the profile) or an http(s) URL, read at load. It gives each API's base URL (apis and baseUrl, where given, win) and the operations the bank offers, instead of implements; an API it does not list is not offered; an endpoint obtpp does not know, or an item of another API or version, is a note (obtpp profile check prints them), not an error.",
      },
    },
  },
  layoutProblems(raw, { mine, dialect }) {
    const problems: string[] = [];
    // A discovery document is UK Read/Write v3.1's: it says standard uk-3.1 by itself.
    if (mine && raw.discovery !== undefined && raw.standard === undefined) raw.standard = DISCOVERY_VERSION;
    if (!mine && raw.discovery !== undefined) problems.push(`$.discovery: a UK Read/Write v3.1 discovery document; a ${dialect} profile has none (leave discovery out)`);
    if (raw.discovery !== undefined && raw.implements !== undefined) problems.push('$.implements: the discovery document lists the operations the bank offers; leave implements out (or discovery)');
    return problems;
  },
  paths: (version) => (version ? UK_PATHS : undefined),
  apiSegments: (version) => (version ? UK_API_SEGMENTS : undefined),
  discovery: { version: DISCOVERY_VERSION, read: fromDiscovery },
};
