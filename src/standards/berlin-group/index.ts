/**
 * The berlin-group standard: NextGenPSD2 XS2A 1.3.x (three payment services, four SCA approaches,
 * signing baskets, the HTTP signature). Its rooms: src/dialects/berlin-group (wire format,
 * catalogue), features/berlin-group (tagged @dialect-berlin-group), step-definitions/berlin-group,
 * src/sandbox/berlin-group (the reference bank), src/session/berlin-group*.ts (the terminal's
 * operations), src/cli/berlin-group (its commands' work), and here its profile part.
 */
import { BERLIN_GROUP_OPERATIONS } from '../../dialects/berlin-group/catalogue.ts';
import { defineStandard } from '../define.ts';
import { berlinGroupProfile } from './profile.ts';
import { readBgError } from './errors.ts';

/** The terminal commands a berlin-group profile is served by (the others refuse it in one line). */
const COMMANDS = new Set([
  'consent create ais', 'consent create pis', 'consent get', 'consent delete', 'consent list', 'consent authorise',
  'accounts', 'balances', 'transactions', 'transaction', 'funds confirm',
  'payment get', 'payment status', 'payment submit', 'payment cancel',
  'flow ais', 'flow cof', 'flow pis',
  'basket create', 'basket authorise', 'basket get', 'basket status', 'basket delete',
]);

export const berlinGroup = defineStandard({
  name: 'berlin-group',
  catalogue: BERLIN_GROUP_OPERATIONS,
  versions: [],
  words: {
    wire: 'NextGenPSD2 XS2A 1.3.x', preview: true, client: 'NextGenPSD2 (berlin-group)',
    // NextGenPSD2 has consents and payments, no "payment-order consent".
    kinds: { ais: 'consent', cof: 'funds confirmation', pis: 'payment' }, consentKinds: 'ais|pis',
    commands: 'consent create ais|pis, consent authorise|list|get|delete, accounts, balances, transactions, transaction, funds confirm, payment get|status; see docs/berlin-group.md',
  },
  judged: { name: 'Berlin Group NextGenPSD2 XS2A', version: '1.3.x (official schemas of 1.3.12)' },
  validators: async (code) => [{
    set: 'berlin-group',
    levels: (await import('../../dialects/berlin-group/schemas/index.ts')).BG_SCHEMA_LEVELS,
    ajv: (await import('../../dialects/berlin-group/validate.ts')).makeBgAjv({ code }),
  }],
  features: 'features/berlin-group',
  signing: 'http-signature',
  profile: berlinGroupProfile,
  scaApproaches: ['redirect', 'oauth', 'decoupled', 'embedded'],
  unauthorisedHint: 'the bank no longer accepts the consent: it may have expired (authorising a newer recurring consent of the PSU ends the former one), been revoked or deleted; obtpp consent list reads each one\'s status from the bank, obtpp consent create ais makes a new one',
  readError: readBgError,
  sandbox: {
    parseFaults: async (faults) => (await import('../../sandbox/berlin-group/faults.ts')).parseBgFaults(faults),
    listFaults: async () => (await import('../../sandbox/berlin-group/faults.ts')).listBgFaults(),
    options: {
      sca: { flag: '--sca', profileSays: 'sca.approaches' },
      signatures: { flag: '--signatures', profileSays: 'bank.requiresSignedRequests' },
    },
    apiWords: ' (NextGenPSD2 XS2A: /v1/consents, /v1/accounts, …)',
    bank: async () => (await import('../../sandbox/berlin-group/bank.ts')).berlinGroupBank,
  },
  terminal: {
    speaks: (command) => COMMANDS.has(command),
    commands: async () => (await import('../../cli/berlin-group/index.ts')).berlinGroupCommands,
  },
});
