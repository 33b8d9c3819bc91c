/** The UK standard's work behind the terminal's commands (src/cli/standard-commands.ts says what each is). */
import type { StandardCommands } from '../standard-commands.ts';
import { createAis, createCof, createPis, del, get, next } from './consent.ts';
import { accounts, balances, transaction, transactions } from './data.ts';
import { confirm } from './funds.ts';
import { get as getPayment, status, submit } from './payment.ts';
import { ais, cof, pis } from './flow.ts';

export const obieCommands: StandardCommands = {
  consent: {
    createAis, createCof, createPis, get, delete: del, next,
    authorise: (session, record, request) => session.authorise(record, request),
  },
  data: { accounts, balances, transactions, transaction },
  funds: { confirm },
  payment: { get: getPayment, status, submit },
  flow: { ais, cof, pis },
};
