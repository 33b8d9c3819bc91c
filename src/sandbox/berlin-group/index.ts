/**
 * The sandbox's NextGenPSD2 bank: the XS2A resource server under /{A|B}/xs2a (paths /v1/…), the
 * redirect-SCA pages under /bg/sca, and the OAuth2-SCA interaction pages of the shared
 * oidc-provider under /interaction. Mounted by ../index.ts when the sandbox runs with
 * `dialect: 'berlin-group'`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Variant } from '../../profile/types.ts';
import { handleOAuthInteraction, handleScaRedirect } from './pages.ts';
import type { BgStore, ScaApproach } from './store.ts';
import { createXs2a } from './xs2a.ts';
import type { BgFaults } from './faults.ts';

export { BgStore } from './store.ts';
export type { ScaApproach } from './store.ts';
export { SANDBOX_OTP } from './sca.ts';
export { ibanOf } from './data.ts';
export { listBgFaults, parseBgFaults } from './faults.ts';
export type { BgFaultName, BgFaults } from './faults.ts';

/** Where the XS2A interface lives under the issuer, per variant (`{base}/v1/consents` …). */
export const XS2A_PATH = 'xs2a';

export interface BerlinGroupBank {
  /** Serves the request when it is the bank's (resource server, SCA pages); false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL, done: (error: unknown) => void): boolean;
}

export function createBerlinGroupBank(o: { provider: Provider; store: BgStore; issuer: string; baseUrls: Record<Variant, string>; faults: BgFaults; approaches: ReadonlySet<ScaApproach>; signatures?: import('./signatures.ts').BankSignatures; dpop?: import('../dpop.ts').DpopVerifier }): BerlinGroupBank {
  const xs2a = createXs2a(o);
  const pages = { provider: o.provider, store: o.store, faults: o.faults };
  return {
    handle(req, res, url, done) {
      const rs = /^\/(A|B)\/xs2a(\/.*)?$/.exec(url.pathname);
      if (rs) {
        xs2a(req, res, rs[1] as Variant, rs[2] ?? '/', url.search).catch(done);
        return true;
      }
      const sca = /^\/bg\/(sca|app)\/([\w-]+)(?:\/(login|confirm))?$/.exec(url.pathname);
      if (sca) {
        handleScaRedirect(pages, req, res, sca[2], sca[3], sca[1] as 'sca' | 'app').catch(done);
        return true;
      }
      const interaction = /^\/interaction\/([\w-]+)(?:\/(login|confirm|abort))?$/.exec(url.pathname);
      if (interaction) {
        handleOAuthInteraction(pages, req, res, interaction[1], interaction[2]).catch(done);
        return true;
      }
      return false;
    },
  };
}
