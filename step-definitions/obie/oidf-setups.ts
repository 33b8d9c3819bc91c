// The set-ups of the OpenID Foundation's FAPI modules (oidf-flows.steps.ts) that the run starts ahead
// (step-definitions/support/hooks.ts): an authorization code and a pushed request_uri kept unused
// from the start of the run, so that the minute their modules must wait out passes while the other
// scenarios run; and the PSU's journey up to the redirect back, not exchanged.
import type { ConformanceWorld, ConsentRecord } from '../support/world.ts';
import { aisBody, createConsent, sharedSetup } from '../support/setups.ts';
import { fapi, fapi2, need, profileWords } from './oidf-support.ts';
import type { BeginOptions, PendingAuthorisation } from '../../src/auth/index.ts';
import type { JourneyResult } from '../../src/psu/index.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { AuthorisationError, HttpError } from '../../src/errors.ts';

/** The PSU's journey for a request, up to the redirect back; a journey that fails is this rule's violation (`asViolation`) or leaves it unjudged. */
export async function walk(world: ConformanceWorld, record: ConsentRecord, options: BeginOptions, o: { pending?: PendingAuthorisation; asViolation?: boolean; priority?: number } = {}): Promise<{ pending: PendingAuthorisation; journey: JourneyResult }> {
  try {
    return await world.ctx.walk(world.lane, record.id, record.fn, options, { ...(o.pending ? { pending: o.pending } : {}), ...(o.priority ? { priority: o.priority } : {}) });
  } catch (error) {
    if (!(error instanceof AuthorisationError) && !(error instanceof HttpError)) throw error;
    const shot = (error as AuthorisationError).evidence?.screenshot;
    if (shot) world.screenshots.push(shot);
    const message = `the PSU's authorisation of consent ${record.id} did not come back: ${error.message}`;
    if (o.asViolation) throw world.violation(message);
    throw world.blocked('SEC-18', `${message}, so the code cannot be judged here`);
  }
}

/** A PSU's authorisation whose code is kept unused from the start of the run (FAPI 2.0: codes live at most 60 s). */
interface HeldCode { record: ConsentRecord; pending: PendingAuthorisation; code: string; at: number }

export function heldCode(world: ConformanceWorld): Promise<HeldCode> {
  return sharedSetup(world, `${world.variant}:oidf:held-code`, async () => {
    const auth = await fapi(world);
    need(world, fapi2(auth.security), `FAPI 2.0 limits an authorization code to 60 seconds (5.3.2.1); the bank runs ${profileWords(auth.security)}, which sets no such limit`);
    const record = await createConsent(world, 'ais', aisBody(['ReadAccountsBasic'], { expiresInMs: 86_400_000 }));
    // First in the queue of journeys: its minute starts with the run.
    const { pending, journey } = await walk(world, record, {}, { priority: 1 });
    const at = Date.now();
    const code = await auth.codeOf(pending, journey.callbackUrl);
    if (!code) throw world.blocked('SEC-18', `the bank's redirect back for consent ${record.id} carried no code`);
    return { record, pending, code, at };
  });
}

/** A PAR request_uri pushed at the start of the run and kept unused, with its lifetime (expires_in). */
interface HeldUri { pending: PendingAuthorisation; at: number; expiresIn: number; record: ConsentRecord }

export function heldRequestUri(world: ConformanceWorld): Promise<HeldUri> {
  return sharedSetup(world, `${world.variant}:oidf:held-request-uri`, async () => {
    const auth = await fapi(world);
    need(world, auth.security.par, `the bank's security profile (${profileWords(auth.security)}) does not push its authorization requests: there is no request_uri to let expire`);
    const record = await createConsent(world, 'ais', aisBody(['ReadAccountsBasic'], { expiresInMs: 86_400_000 }));
    const seen: Exchange[] = [];
    const stop = world.lane.record(seen);
    let pending: PendingAuthorisation;
    try {
      pending = await auth.begin(record.id, record.fn);
    } finally {
      stop();
    }
    const at = Date.now();
    const pushed = seen.filter((e) => e.method === 'POST' && e.url === auth.parEndpoint).at(-1);
    const expiresIn = (pushed?.response?.body as { expires_in?: unknown } | undefined)?.expires_in;
    if (typeof expiresIn !== 'number' || expiresIn <= 0) throw world.violation(`the pushed-request endpoint's answer carries no expires_in (RFC 9126 §2.2: REQUIRED)`);
    return { pending, at, expiresIn, record };
  });
}


/** The set-ups above by the Given step that asks for them, for the run to start ahead. */
export const OIDF_GIVENS: Array<[RegExp, (world: ConformanceWorld) => Promise<unknown>]> = [
  [/^the PSU has authorised a consent whose code the TPP holds back, under FAPI 2\.0$/, (w) => heldCode(w)],
  [/^the TPP has pushed an authorisation request ahead, and kept its request_uri unused$/, (w) => heldRequestUri(w)],
];
