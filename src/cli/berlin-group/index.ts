/** The NextGenPSD2 standard's work behind the terminal's commands (src/cli/standard-commands.ts says what each is). */
import type { StandardCommands } from '../standard-commands.ts';
import { createAis, createPis, del, get } from './consent.ts';
import { accounts, balances, transaction, transactions } from './data.ts';
import { confirm } from './funds.ts';
import { cancel, get as getPayment, status, submit } from './payment.ts';
import { ais, cof, pis } from './flow.ts';

const session = () => import('../../session/berlin-group.ts');

export const berlinGroupCommands: StandardCommands = {
  consent: {
    createAis, createPis, get, delete: del,
    // Without an id, the current consent (never the last thing created, which may be a payment).
    deletes: 'ais',
    // A consent's status changes at the bank (a newer recurring consent expires the former, the PSU revokes one).
    refresh: async (s) => (await session()).refreshBgStatuses(s),
    // The redirect approach takes a PSU too: the next PSU of a multilevel SCA (a payment reading PATC).
    namesPsu: (record) => record.sca?.approach === 'redirect',
    authorise: async (s, record, request) => (await session()).authoriseBg(s, record, request),
    next: (fn) => (fn === 'ais' ? 'next: obtpp accounts' : 'next: obtpp payment status'),
  },
  data: { accounts, balances, transactions, transaction },
  funds: { confirm },
  payment: { get: getPayment, status, submit, cancel },
  flow: { ais, cof, pis },
};
