/**
 * The UK bank of the sandbox (sandbox/bank.ts says what a bank is to the front): the resource
 * server in the spec's layout under /{A|B}/open-banking/v3.1 and at UK Read/Write's official paths
 * (v3.1.11 under /open-banking/v3.1, v4.0 under /open-banking/v4.0), and the PSU's consent pages of
 * the shared authorisation server under /interaction. Its faults are those of ../faults.ts (the
 * sandbox's own parts' with them).
 */
import type { Variant } from '../../profile/types.ts';
import type { SandboxBank } from '../bank.ts';
import { parseFaults } from '../faults.ts';
import { handleInteraction } from '../pages.ts';
import { Store } from '../store.ts';
import { createResourceServer } from './index.ts';

/** The spec's layout below the issuer, per variant. */
const API = 'open-banking/v3.1';
/** UK Read/Write v3.1.11 at its official paths; v4.0 is the same bank, the same paths, v4.0's code values (v4.ts). */
const VERSIONS: Readonly<Record<string, { path: string; name: string }>> = {
  'uk-3.1': { path: 'open-banking/v3.1', name: 'obtpp sandbox (UK Read/Write v3.1.11)' },
  'uk-4.0': { path: 'open-banking/v4.0', name: 'obtpp sandbox (UK Read/Write v4.0)' },
};

export const obieBank: SandboxBank = {
  configure: (options) => {
    const shared = parseFaults(options.faults);
    return { shared, names: [...shared] };
  },
  basePath: API,
  store: (psus, clock) => new Store(psus, clock),
  mount(store, ctx) {
    const { provider, config, keys } = ctx;
    const faults = config.shared;
    // Message signing: the bank signs with its authorisation server's key (published at {issuer}/jwks);
    // the bad-response-signature fault signs with a key outside that JWKS under the same kid. TPPs sign
    // with the key every client registered.
    const resources = createResourceServer({
      provider, store: store as Store, faults, baseUrls: ctx.baseUrls, audience: ctx.audience,
      signing: {
        bankKey: { privateJwk: keys.signing.privateJwk as never, kid: keys.signing.kid },
        ...(keys.stray ? { strayKey: { privateJwk: { ...keys.stray.privateJwk, kid: keys.signing.kid } as never, kid: keys.signing.kid } } : {}),
        tppKeys: { keys: [keys.client.publicJwk as never] },
        issuer: ctx.issuer,
      },
      // A DPoP set-up's resource server demands its nonce too, so that the TPP's one retry is exercised.
      dpop: ctx.dpop({ requireNonce: ctx.dpopBound }),
    });
    const pagesContext = { provider, store: store as Store, faults };
    return {
      handle(req, res, url, done) {
        const rs = /^\/(A|B)\/open-banking\/v3\.1(\/.*)?$/.exec(url.pathname);
        const uk = /^\/open-banking\/v3\.1(\/.*)?$/.exec(url.pathname);
        const uk4 = /^\/open-banking\/v4\.0(\/.*)?$/.exec(url.pathname);
        const interaction = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec(url.pathname);
        if (rs) resources(req, res, rs[1] as Variant, rs[2] ?? '/', url.search).catch(done);
        else if (uk) resources(req, res, 'A', uk[1] ?? '/', url.search, 'uk-3.1').catch(done);
        else if (uk4) resources(req, res, 'A', uk4[1] ?? '/', url.search, 'uk-4.0').catch(done);
        else if (interaction) handleInteraction(pagesContext, req, res, interaction[1]!, interaction[2]).catch(done);
        else return false;
        return true;
      },
    };
  },
  account: (a) => ({ Currency: a.Currency }),
  oauth: () => true,
  secondClient: true,
  profileOperations: () => ({ paths: { accountAccessConsents: '/account-access-consents', paymentProduct: 'domestic-payments' } }),
  profileAuth: () => ({ scopes: { ais: 'accounts', cof: 'fundsconfirmations', pis: 'payments' }, intentBinding: { method: 'claims' }, offlineAccess: true }),
  versionProfile(sb, version, profileA) {
    const at = VERSIONS[version];
    if (!at) return undefined;
    // The standard's own paths below {issuer}/open-banking/v3.1 (or v4.0): no variants, no path overrides.
    const { variants: _v, variantBaseUrls: _u, paths: _p, ...rest } = profileA;
    return { ...rest, name: at.name, standard: version, baseUrl: `${sb.issuer}/${at.path}` };
  },
};
