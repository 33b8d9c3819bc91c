import { Before, After, AfterAll, Status } from '@cucumber/cucumber';
import { readFile } from 'node:fs/promises';
import { RunContext } from '../src/conformance/context.ts';
import { NotApplicableError } from '../src/client/operations.ts';
import { ConformanceWorld } from './support/world.ts';
import { expiringConsent } from './support/setups.ts';

/** Media type of the evidence attached to a failed scenario (read back by the summary writer). */
export const EVIDENCE_MEDIA_TYPE = 'application/vnd.obtpp.evidence+json';

const started = new Set<string>();

Before(async function (this: ConformanceWorld, { pickle }) {
  const tags = pickle.tags.map((t) => t.name);
  this.variant = tags.includes('@variant-B') ? 'B' : 'A';
  this.ruleId = tags.map((t) => /^@((?:AIS|COF|PIS|SEC)-\d{2})$/.exec(t)?.[1]).find(Boolean) ?? '';
  this.ctx = await RunContext.get(this.parameters);
  this.stopRecording = this.ctx.record(this.exchanges);
  // Slow set-ups start in the background with the first scenario of their variant.
  if (!started.has(this.variant)) {
    started.add(this.variant);
    const prewarm = this.parameters.prewarm ?? [];
    if (prewarm.includes(`${this.variant}:AIS-08`)) void expiringConsent(this, 'ais', 'AIS-08').catch(() => undefined);
    if (prewarm.includes(`${this.variant}:COF-06`)) void expiringConsent(this, 'cof', 'COF-06').catch(() => undefined);
  }
});

After(async function (this: ConformanceWorld, { result, error }) {
  this.stopRecording?.();
  if (error instanceof NotApplicableError) return;
  if (result?.status !== Status.FAILED) return;
  const exchanges = this.exchanges.slice(-8);
  const evidence = {
    rule: this.ruleId,
    variant: this.variant,
    message: result.message?.split('\n')[0],
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
