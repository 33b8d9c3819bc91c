import type { Io } from '../io.ts';
import type { CommonFlags } from '../output.ts';
import { str } from '../output.ts';
import { withSession } from './common.ts';
import { UsageError } from '../../errors.ts';
import { inAppRequest, type AuthoriseFlags } from './consent.ts';

/** Signing baskets are NextGenPSD2's: a profile of a standard without them is refused in one line by withSession. */
const BASKET = (what: string) => ({ command: `basket ${what}` });

const session = () => import('../../session/berlin-group-basket.ts');

export async function create(io: Io, ids: string[], flags: CommonFlags): Promise<void> {
  await withSession(io, flags, async (s, out) => {
    const { createBgBasket } = await session();
    const { result, basket } = await out.step(`creating the signing basket (POST /v1/signing-baskets)`, () => createBgBasket(s, ids));
    if (out.json) return out.document(result.body);
    const members = [basket.paymentIds.length ? `${basket.paymentIds.length} payment${basket.paymentIds.length === 1 ? '' : 's'}` : '', basket.consentIds.length ? `${basket.consentIds.length} consent${basket.consentIds.length === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
    out.line(`created signing basket ${out.c.bold(basket.id)} of ${members} (${basket.status}, SCA by ${basket.sca?.approach ?? 'an approach obtpp does not speak'}); next: obtpp basket authorise`);
  }, BASKET('create'));
}

export async function authorise(io: Io, id: string | undefined, flags: AuthoriseFlags): Promise<void> {
  await withSession(io, flags, async (s, out) => {
    const b = await session();
    const basket = await b.basketOf(s, id);
    const approach = basket.sca?.approach;
    const inApp = approach === 'decoupled' || approach === 'embedded';
    if (!inApp && (flags.otpStdin || flags.timeout !== undefined)) throw new UsageError('--otp-stdin and --timeout are for a basket whose SCA is decoupled or embedded');
    if (inApp && flags.reject) throw new UsageError(`--reject: in the ${approach} SCA approach the PSU rejects in the banking app (decoupled) or by a wrong one-time password (embedded), not through obtpp`);
    const log = (line: string) => void out.io.stderr.write(line + '\n');
    const request = { reject: flags.reject === true, log, inApp: await inAppRequest(out, flags, log) };
    const run = () => b.authoriseBgBasket(s, basket, request);
    // No spinner over the PSU's instructions (decoupled) or a prompt (embedded).
    const outcome = inApp ? await run() : await out.step(`${flags.reject ? 'rejecting' : 'authorising'} signing basket ${basket.id} as the PSU (headless Chromium)`, run);
    const asked = outcome.status === 'rejected' && flags.reject === true && outcome.transactionStatus === 'RJCT';
    if (outcome.status !== 'authorised' && !asked) io.exitCode = 1;
    if (out.json) return out.document(outcome);
    if (outcome.status === 'authorised') {
      out.line(`authorised signing basket ${basket.id} (${outcome.transactionStatus}): one SCA for its ${basket.consentIds.length + basket.paymentIds.length || 'every'} member${basket.consentIds.length + basket.paymentIds.length === 1 ? '' : 's'}`);
      return out.line('next: obtpp consent list (each member\'s status, read afresh)');
    }
    out.line(outcome.by === 'psu' ? `the PSU rejected signing basket ${basket.id}: ${outcome.description}` : `the bank rejected signing basket ${basket.id} after the PSU's SCA: ${outcome.description}`);
  }, BASKET('authorise'));
}

async function read(io: Io, id: string | undefined, flags: CommonFlags, what: 'basket' | 'status'): Promise<void> {
  await withSession(io, flags, async (s, out) => {
    const b = await session();
    const basket = await b.basketOf(s, id);
    const result = await out.step(`reading ${what === 'status' ? 'the status of ' : ''}signing basket ${basket.id}`, () => b.readBgBasket(s, basket, what));
    if (out.json) return out.document(result.body);
    const body = (result.body ?? {}) as Record<string, unknown>;
    if (what === 'status') return out.line(`signing basket ${basket.id}: ${str(body, 'transactionStatus') ?? 'no status'}`);
    const ids = (k: string) => (Array.isArray(body[k]) ? (body[k] as unknown[]).map(String).join(', ') : undefined);
    const rows: Array<[string, string | undefined]> = [['basketId', basket.id], ['Status', str(body, 'transactionStatus')], ['Payments', ids('payments')], ['Consents', ids('consents')]];
    for (const [k, v] of rows) if (v) out.line(`${out.c.dim(k.padEnd(15))} ${v}`);
  }, { command: `basket ${what === 'status' ? 'status' : 'get'}` });
}

export const get = (io: Io, id: string | undefined, flags: CommonFlags) => read(io, id, flags, 'basket');
export const status = (io: Io, id: string | undefined, flags: CommonFlags) => read(io, id, flags, 'status');

export async function del(io: Io, id: string | undefined, flags: CommonFlags): Promise<void> {
  await withSession(io, flags, async (s, out) => {
    const b = await session();
    const basket = await b.basketOf(s, id);
    const result = await out.step(`deleting signing basket ${basket.id} (DELETE /v1/signing-baskets/{basketId})`, () => b.deleteBgBasket(s, basket));
    if (out.json) return out.document({ basketId: basket.id, deleted: true, status: result.status });
    out.line(`deleted signing basket ${basket.id} (${result.status}); its consents and payments stay as they were`);
  }, BASKET('delete'));
}
