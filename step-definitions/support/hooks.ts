import { Before, After, AfterAll, Status } from '@cucumber/cucumber';
import { readFile } from 'node:fs/promises';
import { RunContext, planOf } from '../../src/conformance/context.ts';
import { NotApplicableError, type Operation } from '../../src/client/operations.ts';
import { NOT_APPLICABLE_MEDIA_TYPE, NOT_JUDGED_MEDIA_TYPE } from './define.ts';
import { ConformanceWorld } from './world.ts';
import { ruleIdOf } from '../../src/conformance/rule-id.ts';
import { PREWARMS, SHARED_GIVENS } from './setups.ts';
import { OIDF_GIVENS } from '../obie/oidf-setups.ts';
import { SEQUENCE_MEDIA_TYPE, sequenceItems } from '../../src/conformance/sequence.ts';
import { baseUrlFor } from '../../src/profile/load.ts';

/** Media type of the evidence attached to a failed scenario (read back by the summary writer). */
export const EVIDENCE_MEDIA_TYPE = 'application/vnd.obtpp.evidence+json';

/** The runs whose shared set-ups have been started (a program may run several, one after another). */
const prewarmed = new WeakSet<RunContext>();

/**
 * Starts every shared set-up the selected scenarios will ask for, each on a lane of its own, the
 * "full" consents first (the others read the PSU's accounts through them). The browser runs a
 * bounded number of PSU journeys at once; scenarios then mostly find their consent ready.
 */
function prewarm(world: ConformanceWorld): void {
  const entries = planOf(world.parameters).prewarm.map((e) => ({ variant: e.slice(0, 1) as 'A' | 'B', text: e.slice(2) }));
  const rank = (t: string) => (t.includes('"full"') ? 0 : t.includes('expires a few seconds later') ? 1 : 2);
  entries.sort((a, b) => rank(a.text) - rank(b.text));
  for (const { variant, text } of entries) {
    for (const [pattern, run] of [...SHARED_GIVENS, ...OIDF_GIVENS]) {
      const m = pattern.exec(text);
      if (!m) continue;
      const setup = ConformanceWorld.forSetup(world.ctx, variant, world.parameters);
      // A consent of an API the bank does not offer is never prepared (its scenarios are not applicable).
      if (operationsNeeded([], [text]).some((op) => !setup.client.supports(op))) break;
      void run(setup, ...m.slice(1)).catch(() => undefined);
      break;
    }
  }
  for (const start of PREWARMS) start(world);
}

/**
 * The operations a scenario of the UK dialect needs, from its function tag and its steps' words: a
 * funds-confirmation consent (the CBPII's), a payment-order consent (the PISP's), and the few
 * operations a step names outright (a transaction in detail, a payment order submitted).
 */
export function operationsNeeded(tags: readonly string[], steps: readonly string[]): Operation[] {
  const ops = new Set<Operation>();
  if (tags.includes('@cof')) ops.add('createFundsConsent');
  if (tags.includes('@pis')) ops.add('createPaymentConsent');
  for (const text of steps) {
    if (/\bfunds-confirmation consent\b|\bCBPII\b|\bconfirm(s|ing)? funds\b/i.test(text)) ops.add('createFundsConsent');
    if (/\bpayment-order consent\b|\bPISP\b|\bpayment\b/i.test(text)) ops.add('createPaymentConsent');
    if (/\breads in detail\b.*\btransaction\b/i.test(text)) ops.add('getTransaction');
    if (/\b(submits|submitted) the (same )?payment order\b/i.test(text)) ops.add('submitPayment');
    // UK v4.0's update of a VRP consent (v3.1.11 has none: not applicable there).
    if (/\bupdates the VRP consent by PUT\b/.test(text)) ops.add('updateVrpConsent');
    if (/\bpatches the VRP consent\b/.test(text)) ops.add('patchVrpConsent');
  }
  return [...ops];
}

Before(async function (this: ConformanceWorld, { pickle }) {
  const tags = pickle.tags.map((t) => t.name);
  this.variant = tags.includes('@variant-B') ? 'B' : 'A';
  this.ruleId = ruleIdOf(tags) ?? '';
  this.ctx = await RunContext.get(this.parameters);
  this.lane = this.ctx.main;
  this.stopRecording = this.lane.record(this.exchanges);
  if (!prewarmed.has(this.ctx)) {
    prewarmed.add(this.ctx);
    prewarm(this);
  }
  // A set-up error found on the first journey stops the run: nothing more is judged.
  if (this.ctx.setupProblem) {
    this.notJudged = { message: this.ctx.setupProblem.message };
    this.attach(JSON.stringify(this.notJudged), NOT_JUDGED_MEDIA_TYPE);
    return 'skipped';
  }
  // Not offered is decided first: a scenario needing an operation the profile says the bank does
  // not offer is not applicable before any set-up (the debtor account, a journey) runs.
  if (!tags.some((t) => t.startsWith('@dialect-'))) {
    const missing = operationsNeeded(tags, pickle.steps.map((s) => s.text))
      .find((op) => this.client.inVariant(op) && !this.client.supports(op));
    if (missing) {
      this.attach(this.client.unsupported(missing).message, NOT_APPLICABLE_MEDIA_TYPE);
      return 'skipped';
    }
    // A bank that says, under a waiver, that it does not sign its answers: SEC-09 is not judged on it.
    const bank = this.client.profile.bank;
    if (this.ruleId === 'SEC-09' && bank.signsAnswers === false) {
      this.attach(`the profile says the bank does not sign its answers (bank.signsAnswers: false), under the waiver ${JSON.stringify(bank.signingWaiver ?? '')}`, NOT_APPLICABLE_MEDIA_TYPE);
      return 'skipped';
    }
  }
  return undefined;
});

/** The bank's resource base URLs of a run (every variant and API), which tell its calls from the authorisation server's. */
const bankBases = new WeakMap<RunContext, string[]>();
function bankBasesOf(ctx: RunContext): string[] {
  let bases = bankBases.get(ctx);
  if (!bases) {
    const p = ctx.profile;
    bases = [...new Set((['A', 'B'] as const).flatMap((v) => (['ais', 'cof', 'pis'] as const).map((fn) => baseUrlFor(p, v, fn))))].sort((a, b) => b.length - a.length);
    bankBases.set(ctx, bases);
  }
  return bases;
}

After(async function (this: ConformanceWorld, { result, error }) {
  this.stopRecording?.();
  if (error instanceof NotApplicableError) return;
  // Every scenario that talked to the bank carries its sequence, for the report's picture and time split.
  if (this.ctx && (this.exchanges.length || this.pauses.length)) {
    const items = sequenceItems(this.exchanges, this.ctx.journeys, bankBasesOf(this.ctx), this.pauses);
    this.attach(JSON.stringify({ items }), SEQUENCE_MEDIA_TYPE);
  }
  // A failed scenario, and one not judged, carry what was exchanged (a blocked precondition's too).
  if (result?.status !== Status.FAILED && !this.notJudged) return;
  const exchanges = this.exchanges.slice(-8);
  const evidence = {
    rule: this.ruleId,
    variant: this.variant,
    message: this.notJudged ? `not judged${this.notJudged.blockedBy ? ` (blocked by ${this.notJudged.blockedBy})` : ''}: ${this.notJudged.message}` : result?.message?.split('\n')[0],
    interactionIds: exchanges.map((e) => e.interactionId?.received ?? e.interactionId?.sent).filter(Boolean),
    exchanges,
    screenshots: this.screenshots,
  };
  this.attach(JSON.stringify(evidence, null, 2), EVIDENCE_MEDIA_TYPE);
  for (const shot of this.screenshots) {
    const png = await readFile(shot).catch(() => undefined);
    if (png) this.attach(png, 'image/png');
  }
});

AfterAll(async function () {
  await RunContext.closeCurrent();
});
