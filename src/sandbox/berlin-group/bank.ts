/**
 * The NextGenPSD2 bank of the sandbox (sandbox/bank.ts says what a bank is to the front): the
 * XS2A resource server under /{A|B}/xs2a, its SCA pages, and the OAuth2-SCA interaction pages of
 * the shared authorisation server (index.ts). Its faults are its own (faults.ts); the sandbox's
 * own parts' faults are not switched on with it.
 */
import { UsageError } from '../../errors.ts';
import type { ScaApproachName } from '../../profile/types.ts';
import type { SandboxBank } from '../bank.ts';
import { parseFaults } from '../faults.ts';
import type { SandboxPsu } from '../sandbox-types.ts';
import { BgStore, createBerlinGroupBank, ibanOf, SANDBOX_OTP, XS2A_PATH, type ScaApproach } from './index.ts';
import { parseBgFaults, type BgFaults } from './faults.ts';
import { servedOperations } from './xs2a.ts';

const SCA_APPROACHES: readonly ScaApproachName[] = ['redirect', 'oauth', 'decoupled', 'embedded'];

/** The bank's SCA approaches: known, each once, at least one; default redirect and oauth. */
function parseSca(sca: readonly string[] | undefined): ScaApproachName[] {
  if (sca === undefined) return ['redirect', 'oauth'];
  const unknown = sca.filter((a) => !SCA_APPROACHES.includes(a as ScaApproachName));
  if (unknown.length) throw new UsageError(`unknown SCA approach ${unknown.map((a) => JSON.stringify(a)).join(', ')}: ${SCA_APPROACHES.join(', ')}`);
  if (!sca.length || new Set(sca).size !== sca.length) throw new UsageError(`--sca ${sca.join(',')}: name each approach the bank offers once (${SCA_APPROACHES.join(', ')})`);
  return [...sca] as ScaApproachName[];
}

/** The profile's multilevel SCA: payments from alice's joint account need bob's SCA too (multilevel.ts). */
function multilevelOf(psus: SandboxPsu[], cancellation: boolean): { multilevel?: { iban: string; psu: { username: string; password: string }; cancellation?: true } } {
  const iban = psus.find((p) => p.username === 'alice')?.accounts.find((a) => a.AccountId === 'alice-joint')?.iban;
  const second = psus.find((p) => p.username === 'bob');
  // The bank needs both holders to cancel such a payment whatever the approach; the profile says so
  // only where the run walks the embedded approach first (no browser): the cancellation scenario
  // costs four PSU journeys, too many for the default redirect run.
  return iban && second ? { multilevel: { iban, psu: { username: second.username, password: second.password }, ...(cancellation ? { cancellation: true as const } : {}) } } : {};
}

export const berlinGroupBank: SandboxBank = {
  configure(options) {
    const faults = parseBgFaults(options.faults);
    const sca = parseSca(options.sca);
    // The sandbox's own parts (authorisation server, pages, chaos) run without faults here.
    return { shared: parseFaults([]), names: [...faults], sca };
  },
  signatures: true,
  basePath: XS2A_PATH,
  store: (psus, clock) => new BgStore(psus, clock),
  resourceScopes: (store) => () => (store as BgStore).scopes(),
  mount(store, ctx) {
    const bgStore = store as BgStore;
    const bank = createBerlinGroupBank({
      provider: ctx.provider, store: bgStore, issuer: ctx.issuer, baseUrls: ctx.baseUrls, faults: new Set(ctx.config.names) as BgFaults,
      approaches: new Set(ctx.config.sca!.map((a) => a.toUpperCase() as ScaApproach)),
      // The NextGenPSD2 bank checks DPoP proofs too (no nonce of its own: its nonce-free path is the other resource server's).
      dpop: ctx.dpop({ requireNonce: false }),
      ...(ctx.signatures ? { signatures: ctx.signatures } : {}),
    });
    return {
      handle: (req, res, url, done) => bank.handle(req, res, url, done),
      psuRevoke: (consentId) => {
        const consent = bgStore.consents.get(consentId);
        if (!consent || bgStore.refresh(consent).status !== 'valid') return false;
        consent.status = 'revokedByPsu';
        return true;
      },
    };
  },
  account: (a) => ({ Currency: 'EUR', iban: ibanOf(a) }),
  profileName: ' (berlin-group)',
  // A bank without OAuth2 SCA has no authorisation server for the TPP: no auth block, no registration.
  oauth: (sb) => (sb.sca ?? ['redirect', 'oauth']).includes('oauth'),
  profileHead({ sb, variants, client, psu }, oauth) {
    const sca = sb.sca ?? ['redirect', 'oauth'];
    return {
      dialect: 'berlin-group',
      sca: {
        approaches: [...sca],
        ...(oauth ? {} : sca.includes('redirect') ? { redirectUri: client.redirectUri } : {}),
        ...(sca.includes('decoupled') ? { decoupledUrl: `${sb.issuer}/bg/app/{authorisationId}` } : {}),
        ...(sca.includes('embedded') ? { otp: SANDBOX_OTP } : {}),
        // Multilevel SCA: payments from alice's joint account need bob's SCA too (variant A has the payments).
        ...(variants.includes('A') && psu.username === 'alice' ? multilevelOf(sb.psus, sca[0] === 'embedded') : {}),
      },
      psuIpAddress: '127.0.0.1',
      deltaReports: { entryReferenceFrom: true, deltaList: true, cards: true },
      paymentProducts: ['sepa-credit-transfers', 'instant-sepa-credit-transfers', 'target-2-payments', 'cross-border-credit-transfers', 'pain.001-sepa-credit-transfers', 'pain.001-instant-sepa-credit-transfers', 'pain.001-target-2-payments', 'pain.001-cross-border-credit-transfers'],
    };
  },
  // NextGenPSD2 1.3.x: /v1/… paths, no funds-confirmation consent, no transaction detail in B: what its routes serve.
  profileOperations: () => ({ implements: { A: servedOperations('A'), B: servedOperations('B') } }),
  profileAuth: () => ({ scopes: { ais: 'AIS', cof: 'PIIS', pis: 'PIS' }, intentBinding: { method: 'scope', scopeTemplate: '{scope}:{intentId}' }, offlineAccess: false }),
};
