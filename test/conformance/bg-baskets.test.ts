// Issue 28, signing baskets (BG-60): a bank whose profile does not list createSigningBasket in
// `implements` is not judged on BG-60 ("not applicable", naming the operation), decided before any
// set-up (no consent, no payment, no PSU journey). That BG-60 passes on the
// sandbox and fails under each of its faults is shown by test/conformance/conform.test.ts (every
// fault of the registry) and, at the bank, by test/sandbox/bg-baskets.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { conformWarm } from '../helpers/warm-cli.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';

let sb: Sandbox;
let dir: string;
before(async () => {
  sb = await startSandbox({ dialect: 'berlin-group', quiet: true });
  dir = await mkdtemp(join(tmpdir(), 'obtpp-bg-baskets-'));
});
after(async () => {
  await sb?.stop();
  await rm(dir, { recursive: true, force: true });
});

test('BG-60 is not applicable to a bank whose implements lacks createSigningBasket, with that reason, and nothing is set up for it', async () => {
  const profile = sb.profile('all') as { implements: Record<string, string[]> };
  const without = { ...profile, implements: { ...profile.implements, A: profile.implements.A!.filter((op) => !op.includes('SigningBasket')) } };
  assert.ok(profile.implements.A!.includes('createSigningBasket'), 'the sandbox offers signing baskets');
  const file = join(dir, 'bank.json');
  await writeFile(file, JSON.stringify(without), { mode: 0o600 });
  const { summary, exitCode } = await conformWarm({ profile: file, variant: 'A', tags: '@BG-60', reportDir: join(dir, 'reports') });
  const rule = summary.variants.find((x: any) => x.variant === 'A')?.rules.find((r: any) => r.id === 'BG-60');
  assert.equal(rule?.status, 'not-applicable', JSON.stringify(rule));
  assert.match(rule.reason, /createSigningBasket|signing basket/, JSON.stringify(rule));
  assert.equal(rule.sequences?.length ?? 0, 0, `no scenario talked to the bank: ${JSON.stringify(rule.sequences)?.slice(0, 400)}`);
  assert.equal(exitCode, 0);
});
