/**
 * A standard's work behind the terminal's commands (src/cli/commands/* parse the flags, open the
 * session and hand the rest to the profile's standard): what each standard's folder of the CLI
 * room provides (src/cli/<standard>/index.ts), found through the registry
 * (src/standards/registry.ts, `terminal.commands()`).
 */
import type { Out } from './output.ts';
import type { AuthoriseOutcome, AuthoriseRequest, ConsentRecord, Session } from '../session/index.ts';
import type { Fn } from '../profile/types.ts';
import type { AccountsFlags, AisFlags, CofFlags, CommonFlags, ConfirmFlags, DataFlags, PisFlags, TransactionsFlags } from './flags.ts';
import { standardOf } from '../standards/registry.ts';

type Journey = { manual?: boolean; callbackPort?: string };

/** The work of one standard's terminal commands; a command a standard does not speak is refused before (its `terminal.speaks`). */
export interface StandardCommands {
  consent: {
    createAis(session: Session, out: Out, flags: AisFlags): Promise<void>;
    createCof?(session: Session, out: Out, flags: CofFlags): Promise<void>;
    createPis(session: Session, out: Out, flags: PisFlags): Promise<void>;
    get(session: Session, out: Out, record: ConsentRecord): Promise<void>;
    /** The kind `consent delete` means without an id (absent: the last thing created). */
    readonly deletes?: Fn;
    delete(session: Session, out: Out, record: ConsentRecord): Promise<void>;
    /** The statuses not yet final, read afresh before `consent list`; each one that could not be read, with why. */
    refresh?(session: Session): Promise<Record<string, string>>;
    /** Whether the PSU of a record's SCA is named (`--psu-id`): a multilevel SCA's next PSU. */
    namesPsu?(record: ConsentRecord): boolean;
    /** The PSU's SCA of a record. */
    authorise(session: Session, record: ConsentRecord, request: AuthoriseRequest): Promise<AuthoriseOutcome>;
    /** What to run once a record of a kind is authorised. */
    next(fn: Fn): string;
  };
  data: {
    accounts(session: Session, out: Out, accountId: string | undefined, flags: AccountsFlags): Promise<void>;
    balances(session: Session, out: Out, accountId: string, flags: DataFlags): Promise<void>;
    transactions(session: Session, out: Out, accountId: string, flags: TransactionsFlags, query: { fromBookingDateTime?: string; toBookingDateTime?: string }, bookingStatus?: string): Promise<void>;
    transaction(session: Session, out: Out, accountId: string, resourceId: string, flags: DataFlags): Promise<void>;
  };
  funds: { confirm(session: Session, out: Out, flags: ConfirmFlags): Promise<void> };
  payment: {
    get(session: Session, out: Out, id: string | undefined, flags: { consent?: string }): Promise<void>;
    status(session: Session, out: Out, id: string | undefined, flags: { consent?: string; xml?: boolean }): Promise<void>;
    submit(session: Session, out: Out, id: string | undefined, flags: CommonFlags & { consent?: string; idempotencyKey?: string }): Promise<void>;
    cancel?(session: Session, out: Out, id: string | undefined, flags: { consent?: string }): Promise<void>;
  };
  flow: {
    ais(session: Session, out: Out, flags: AisFlags & Journey & { accounts?: string }): Promise<void>;
    cof(session: Session, out: Out, flags: CofFlags & Journey & { amount?: string; currency?: string; reference?: string }): Promise<void>;
    pis(session: Session, out: Out, flags: PisFlags & Journey & { debtor?: string }): Promise<void>;
  };
}

/** The terminal commands of the session's standard. */
export async function commandsOf(session: Session): Promise<StandardCommands> {
  const terminal = standardOf(session.profile.dialect).terminal;
  if (!terminal) throw new RangeError(`the ${session.profile.dialect} standard has no terminal commands`);
  return (await terminal.commands()) as StandardCommands;
}
