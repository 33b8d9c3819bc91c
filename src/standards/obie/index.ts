/**
 * The obie standard: UK Open Banking Read/Write, in the spec's own layout (variants A and B) and
 * at the official paths of its published versions v3.1.11 and v4.0. The base standard: a profile
 * that names no dialect speaks it, and every run lists its features.
 *
 * Its rooms: src/dialects/obie (wire format, catalogue), features/obie, step-definitions/obie,
 * src/sandbox/obie (the reference bank), src/cli/obie (the terminal's printers), and here its
 * profile part (profile.ts) and the UK discovery document (discovery.ts).
 */
import { OBIE_OPERATIONS } from '../../dialects/obie/catalogue.ts';
import { defineStandard } from '../define.ts';
import { obieProfile } from './profile.ts';
import { readUkError } from './errors.ts';

export const obie = defineStandard({
  name: 'obie',
  catalogue: OBIE_OPERATIONS,
  versions: [
    {
      name: 'uk-3.1', words: 'UK Read/Write v3.1.11', fcsVersion: '3.1',
      judged: { name: 'UK Open Banking Read/Write API', version: 'v3.1.11 (official schemas)', layout: 'at its official paths (standard: uk-3.1)' },
      help: {
        sandbox: 'uk-3.1 (UK Read/Write v3.1.11, served under {issuer}/open-banking/v3.1)',
        conform: 'uk-3.1 (UK Read/Write v3.1.11, /open-banking/v3.1/{aisp,cbpii,pisp})',
      },
    },
    {
      name: 'uk-4.0', words: 'UK Read/Write v4.0', fcsVersion: '4.0',
      judged: { name: 'UK Open Banking Read/Write API', version: 'v4.0 (official schemas)', layout: 'at its official paths (standard: uk-4.0)' },
      help: {
        sandbox: 'uk-4.0 (v4.0, under {issuer}/open-banking/v4.0)',
        conform: 'uk-4.0 (v4.0, /open-banking/v4.0/…, judged by v4.0\'s code values and schemas)',
      },
    },
  ],
  words: { wire: 'UK Open Banking v3.1', client: 'UK Open Banking (obie)', versions: 'a UK standard', signs: 'a UK bank signs with x-jws-signature' },
  judged: { name: 'UK Open Banking Read/Write API', version: 'v3.1.x (official schemas of v3.1.11)' },
  attested: { name: 'UK Open Banking Read/Write', version: '3.1.11' },
  validators: async (code) => {
    const { makeAjv } = await import('../../dialects/obie/validate.ts');
    return [
      { set: 'obie', levels: (await import('../../dialects/obie/schemas/index.ts')).SCHEMA_LEVELS, ajv: makeAjv({ code }) },
      // UK Read/Write v4.0: the same names, v4.0's content.
      { set: 'obie-v4', levels: (await import('../../dialects/obie/schemas/v4.ts')).V4_SCHEMA_LEVELS, ajv: makeAjv({ code }) },
    ];
  },
  features: 'features/obie',
  signing: 'x-jws-signature',
  profile: obieProfile,
  unauthorisedHint: 'the bank did not accept the token, and obtpp already tried a new one where it could: the consent may have expired or been revoked (obtpp consent authorise again)',
  readError: readUkError,
  sandbox: {
    parseFaults: async (faults) => (await import('../../sandbox/faults.ts')).parseFaults(faults),
    listFaults: async () => (await import('../../sandbox/faults.ts')).listFaults(),
    misfit: async (faults, run) => {
      // A fault of routes only a published standard's layout has would bend nothing in another run: said, not silently passed.
      const { listFaults } = await import('../../sandbox/faults.ts');
      const elsewhere = listFaults().find((f) => faults.includes(f.name) && f.standard !== undefined && f.standard !== run.version);
      if (elsewhere) return `--sandbox-fault ${elsewhere.name} bends only the ${elsewhere.standard} layout of the sandbox: add --standard ${elsewhere.standard}`;
      const otherFlow = listFaults().find((f) => faults.includes(f.name) && f.security !== undefined && f.security !== run.security);
      if (otherFlow) return `--sandbox-fault ${otherFlow.name} bends only the ${otherFlow.security} security profile of the sandbox: add --security ${otherFlow.security}`;
      return undefined;
    },
    describe: {
      json: (issuer) => ({ ukBaseUrl: `${issuer}/open-banking/v3.1`, ukV4BaseUrl: `${issuer}/open-banking/v4.0` }),
      lines: (issuer) => [
        `UK v3.1.11: ${issuer}/open-banking/v3.1/{aisp,cbpii,pisp} (obtpp sandbox --standard uk-3.1 --write-profile FILE)`,
        `UK v4.0:    ${issuer}/open-banking/v4.0/{aisp,cbpii,pisp} (obtpp sandbox --standard uk-4.0 --write-profile FILE)`,
      ],
    },
    bank: async () => (await import('../../sandbox/obie/bank.ts')).obieBank,
  },
  terminal: {
    // Every command but those of NextGenPSD2's own resources (signing baskets, a payment's cancellation).
    speaks: (command) => !command.startsWith('basket ') && command !== 'payment cancel',
    commands: async () => (await import('../../cli/obie/index.ts')).obieCommands,
  },
  setupCheck: async () => (await import('./setup-check.ts')).ukSetupCheck,
});
