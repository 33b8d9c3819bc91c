/**
 * The top-level commands, in the order `obtpp --help` lists them, each with its line there: its term
 * (name, `[options]`, arguments) and its description. A command's definition (src/cli/define/) takes
 * its description from here, so that it is written once; its term is what the definition makes of
 * it, and test/cli/program.test.ts holds this table to that.
 *
 * Why a table: `obtpp --help` needs these lines and nothing of any command's options, and a command
 * needs only its own definition. So a run defines in full only the command it invokes
 * (`createProgram` in program.ts), and the others stay these heads: loading every definition, the
 * standards' registry behind two of them and every command's options was about a fifth of
 * `obtpp --help`'s start.
 */
export const HEADS = {
  conform: { term: 'conform [options]', description: 'certify a bank against the specification (default: the embedded sandbox bank, variants A and B)' },
  profile: { term: 'profile', description: 'work with bank profiles' },
  sandbox: { term: 'sandbox [options]', description: 'run the embedded sandbox bank (variants A and B) until Ctrl-C — a sandbox, not a bank' },
  consent: { term: 'consent', description: 'create, authorise, read, delete and list consents (the session remembers them)' },
  accounts: { term: 'accounts [options] [accountId]', description: 'list the accounts of the current AIS consent, or read one' },
  balances: { term: 'balances [options] <accountId>', description: "read an account's balances (GET /accounts/{AccountId}/balances)" },
  transactions: { term: 'transactions [options] <accountId>', description: "read an account's transactions (GET /accounts/{AccountId}/transactions)" },
  transaction: { term: 'transaction [options] <accountId> <resourceId>', description: 'read one transaction (GET /{account-id}/transactions/{resourceId}; variant A)' },
  ais: { term: 'ais [options] <resource> [accountId] [statementId]', description: 'read a UK Read/Write v3.1.11 account-information resource: bulk (GET /direct-debits) or per account (GET /accounts/{AccountId}/direct-debits)' },
  funds: { term: 'funds', description: 'confirmation of funds' },
  payment: { term: 'payment', description: 'read, submit (UK) and cancel (berlin-group) payments' },
  basket: { term: 'basket', description: 'berlin-group: signing baskets, one SCA for several consents and payments (/v1/signing-baskets)' },
  pay: { term: 'pay', description: 'the payment families of UK Read/Write v3.1.11 (a profile with standard: uk-3.1): scheduled, standing orders, international, file' },
  vrp: { term: 'vrp', description: 'Variable Recurring Payments (UK Read/Write v3.1.11 or v4.0, a profile with standard: uk-3.1 or uk-4.0): one consent, many payments' },
  flow: { term: 'flow', description: 'a whole journey in one command, printing each step' },
  token: { term: 'token', description: 'the tokens kept in the session state (mode 0600)' },
  verify: { term: 'verify [options] <dir>', description: 'check an attested report dir offline: the signature, then the digest of every file; print the verdict it attests' },
  diff: { term: 'diff [options] <old-dir> <new-dir>', description: 'what changed between two runs: per variant, the rules newly failing, fixed, newly not judged' },
  register: { term: 'register', description: 'register obtpp at the bank (dynamic client registration, OBIE DCR 3.3 / RFC 7591); show, update or delete the registration' },
  rules: { term: 'rules [options]', description: "the rules the features encode (id, feature, scenarios); with --fcs, the map from the official FCS tests to the scenarios that cover them; with --oidf, the map from the OpenID Foundation's FAPI test modules" },
} as const satisfies Record<string, { term: string; description: string }>;

export type HeadName = keyof typeof HEADS;
