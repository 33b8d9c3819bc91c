/**
 * Berlin Group consents prepared ahead of their scenario, one per scenario that asks for one.
 *
 * Only consents whose authorisation changes nothing for any other consent are prepared: one-off
 * consents and consents the PSU rejects. Authorising a recurring consent expires the PSU's former
 * recurring consent (POST /v1/consents, "Side Effects"), so those stay in their scenario's own
 * Given step, made the moment the scenario needs them (the scenarios that make one are tagged
 * @recurring-consent and run first, one after another: src/conformance/order-plugin.ts).
 *
 * The run's plan (RunParameters.scenarios, in the order the scenarios run) says which scenario
 * will ask for which Given; each such Given gets its own consent, made on a set-up world of its
 * own (its exchanges kept as the scenario's evidence) a bounded number at a time, in run order,
 * its PSU journey yielding to the journeys a running scenario waits for. The scenario's Given step
 * then takes the consent made for it, or, when its turn has not come yet, makes it itself, exactly
 * as without preparation. What the preparation met (an answer, an error) is what the Given step
 * would have met: it is handed over as is, and the scenario is judged on it.
 */
import { isMainThread } from 'node:worker_threads';
import type { Exchange } from '../../src/client/exchange.ts';
import { planOf, type Lane, type RunContext } from '../../src/conformance/context.ts';
import type { Profile, Variant } from '../../src/profile/types.ts';
import { ruleIdOf } from '../../src/conformance/rule-id.ts';
import { Given } from '../support/define.ts';
import { ConformanceWorld } from '../support/world.ts';
import { PREWARMS } from '../support/setups.ts';
import { bg, preparedAhead } from './support.ts';

/** Makes on a world what a Given step makes (a consent through the PSU's SCA, and what it keeps). */
type Make = (world: ConformanceWorld) => Promise<unknown>;

/** A Given step whose consent may be prepared: its text in the features, and how it is made. */
const preparable = new Map<string, Make>();

/**
 * A step that may come before a prepared Given in a scenario (e.g. `the bank offers the delta
 * report …`): `offered` says from the profile alone whether it lets the scenario go on. A scenario
 * that would stop there gets nothing prepared.
 */
const guards: Array<{ pattern: RegExp; offered: (profile: Profile, ...args: string[]) => boolean }> = [];

/** Copies what a prepared set-up kept in a step file's own state into the scenario's world. */
const adopters: Array<(from: ConformanceWorld, to: ConformanceWorld) => void> = [];

/**
 * Defines a Given step (no parameters) whose consent is prepared ahead of its scenario. `make`
 * does on the world it is given what the step prepares; `then`, what the step does after, in the
 * scenario (what cannot be prepared: a recurring consent).
 */
export function givenAhead(expression: string, make: Make, then?: Make): void {
  // The step's text in a pickle: the cucumber expression without its escapes.
  const text = expression.replace(/\\(.)/g, '$1');
  preparable.set(text, make);
  Given(expression, async function (this: ConformanceWorld) {
    await takeOrMake(this, text, make);
    await then?.(this);
  });
}

/** Registers a step that may come before a prepared Given (see {@link guards}). */
export function guardAhead(pattern: RegExp, offered: (profile: Profile, ...args: string[]) => boolean): void {
  guards.push({ pattern, offered });
}

/** Registers how a step file's own state moves from a prepared set-up's world to its scenario's. */
export function adoptAhead(adopt: (from: ConformanceWorld, to: ConformanceWorld) => void): void {
  adopters.push(adopt);
}

/** What a prepared set-up met: its world (what it kept), its exchanges, and the error it ended with. */
interface Prepared {
  setup: ConformanceWorld;
  exchanges: Exchange[];
  error?: unknown;
}

interface Entry {
  variant: Variant;
  ruleId: string;
  make: Make;
  result?: Promise<Prepared>;
}

/** One run's prepared set-ups: every entry in run order, those not yet taken by step text. */
interface Queue {
  ctx: RunContext;
  parameters: ConformanceWorld['parameters'];
  waiting: Entry[];
  byStep: Map<string, Entry[]>;
  running: number;
  /** Scenarios waiting for the set-up prepared for them (each leaves its journey slot to preparing). */
  waited: number;
  /** Lanes of finished set-ups, free for the next (one set-up at a time each, so that its exchanges are its own). */
  lanes: Lane[];
}

const queues = new WeakMap<RunContext, Queue>();

const keyOf = (variant: Variant, text: string) => `${variant}|${text}`;

/** The Given step: the consent prepared for this scenario, or, when none was started, its own. */
async function takeOrMake(world: ConformanceWorld, text: string, make: Make): Promise<void> {
  const queue = queues.get(world.ctx);
  const entry = queue?.byStep.get(keyOf(world.variant, text))?.shift();
  if (!entry) return void (await make(world));
  if (!entry.result) {
    // Its turn had not come: the scenario makes it itself, as without preparation.
    queue!.waiting.splice(queue!.waiting.indexOf(entry), 1);
    return void (await make(world));
  }
  // The scenario waits for its set-up: its own journey slot is free for preparing meanwhile.
  queue!.waited++;
  pump(queue!);
  const prepared = await entry.result.finally(() => queue!.waited--);
  // What its lane sent, and what it took as its own evidence from a set-up shared with others.
  for (const ex of [...prepared.exchanges, ...prepared.setup.exchanges]) if (!world.exchanges.includes(ex)) world.exchanges.push(ex);
  if (prepared.setup.last) world.last = prepared.setup.last;
  adoptBg(prepared.setup, world);
  for (const adopt of adopters) adopt(prepared.setup, world);
  if (prepared.error !== undefined) throw prepared.error;
}

function adoptBg(from: ConformanceWorld, to: ConformanceWorld): void {
  const s = bg(from);
  const t = bg(to);
  for (const c of s.consents) if (!t.consents.includes(c)) t.consents.push(c);
  if (s.consent) t.consent = s.consent;
  if (s.full) t.full = s.full;
  if (s.payment) t.payment = s.payment;
  if (s.requestId) t.requestId = s.requestId;
  if (s.askedValidUntil) t.askedValidUntil = s.askedValidUntil;
}

/**
 * Starts waiting set-ups while fewer than the run's journeys at once less one are being prepared:
 * one journey is left to the running scenario, which would otherwise wait for a prepared one to
 * end, unless the scenario is itself waiting for a prepared one.
 */
function pump(queue: Queue): void {
  const limit = Math.max(1, queue.parameters.journeys - (queue.waited > 0 ? 0 : 1));
  while (queue.running < limit && queue.waiting.length && !queue.ctx.closed) start(queue, queue.waiting.shift()!);
}

function start(queue: Queue, entry: Entry): void {
  queue.running++;
  const setup = ConformanceWorld.forSetup(queue.ctx, entry.variant, queue.parameters, entry.ruleId, queue.lanes.pop());
  preparedAhead.add(setup);
  const exchanges: Exchange[] = [];
  const stop = setup.lane.record(exchanges);
  entry.result = entry.make(setup).then(
    () => ({ setup, exchanges }),
    (error: unknown) => ({ setup, exchanges, error }),
  ).finally(() => {
    stop();
    queue.lanes.push(setup.lane);
    queue.running--;
    pump(queue);
  });
}

/** With the run's first scenario: every prepared Given of the plan, queued in run order. */
function prepare(world: ConformanceWorld): void {
  const ctx = world.ctx;
  // A worker thread of a parallel run runs only some of the scenarios: it prepares nothing.
  if (ctx.profile.dialect !== 'berlin-group' || queues.has(ctx) || !isMainThread) return;
  const queue: Queue = { ctx, parameters: world.parameters, waiting: [], byStep: new Map(), running: 0, waited: 0, lanes: [] };
  queues.set(ctx, queue);
  for (const scenario of planOf(world.parameters).scenarios) {
    if (!scenario.tags.includes('@dialect-berlin-group')) continue;
    const variant: Variant = scenario.tags.includes('@variant-B') ? 'B' : 'A';
    for (const text of scenario.steps) {
      const make = preparable.get(text);
      if (make) {
        const entry: Entry = { variant, ruleId: ruleIdOf(scenario.tags) ?? '', make };
        queue.waiting.push(entry);
        const key = keyOf(variant, text);
        queue.byStep.set(key, [...(queue.byStep.get(key) ?? []), entry]);
        continue;
      }
      const guard = guards.map((g) => ({ g, m: g.pattern.exec(text) })).find((x) => x.m);
      // Any other step (or a guard that stops the scenario) ends what is prepared for this scenario.
      if (!guard || !guard.g.offered(ctx.profile, ...guard.m!.slice(1))) break;
    }
  }
  pump(queue);
}

PREWARMS.push(prepare);
