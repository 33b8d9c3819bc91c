// The evidence of a failed PSU step never holds the verdict: a page whose screenshot does not come
// (a hanging bank page, a browser out of breath) gives its URL and step without the picture, within
// the screenshot's bound, instead of hanging the journey until the run's own time-out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer';
import { PageJourney, SCREENSHOT_MS } from '../../src/psu/page-journey.ts';
import type { JourneyOptions } from '../../src/psu/types.ts';

const options: JourneyOptions = {
  redirectUri: 'https://tpp.example/cb',
  driver: { kind: 'sandbox' },
  username: 'alice',
  password: 'correct-horse',
  stepTimeoutMs: 1000,
  totalTimeoutMs: 60_000,
};

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Just enough of a puppeteer Page: its screenshot answers as `shot` says. */
function pageWhoseScreenshot(shot: () => Promise<unknown>): Page {
  return { url: () => 'https://bank.example/login?x=1', isClosed: () => false, screenshot: shot } as unknown as Page;
}

test('a screenshot that does not come in time: the evidence has the step and URL, without it, within the bound, and no file is left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obtpp-evidence-'));
  try {
    // Like puppeteer's: when asked to, it writes the file itself, when the picture comes.
    const late = (o?: { path?: string }) => new Promise((resolve) => setTimeout(() => {
      if (o?.path) writeFileSync(o.path, PNG);
      resolve(PNG);
    }, SCREENSHOT_MS + 300));
    const j = new PageJourney(pageWhoseScreenshot(late), { ...options, evidenceDir: dir });
    const started = Date.now();
    const error = await j.step(3, 'click [data-testid="login"]', async () => {
      throw new Error('boom');
    }).catch((e: unknown) => e);
    const took = Date.now() - started;
    assert.ok(took >= SCREENSHOT_MS - 50 && took < SCREENSHOT_MS + 2000, `took ${took} ms`);
    const evidence = (error as { evidence?: Record<string, unknown> }).evidence;
    assert.equal(evidence?.step, 3);
    assert.equal(evidence?.url, 'https://bank.example/login?x=1');
    assert.equal(evidence?.screenshot, undefined);
    // The picture that came after the bound is dropped, not written beside the evidence.
    await new Promise((r) => setTimeout(r, 600));
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a screenshot that comes: the evidence names its file, which holds the picture', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obtpp-evidence-'));
  try {
    const j = new PageJourney(pageWhoseScreenshot(async () => PNG), { ...options, evidenceDir: dir });
    const error = await j.step(1, 'fill [data-testid="username"] with {username}', async () => {
      throw new Error('boom');
    }).catch((e: unknown) => e);
    const shot = (error as { evidence?: Record<string, unknown> }).evidence?.screenshot as string | undefined;
    assert.ok(shot?.startsWith(dir), String(shot));
    assert.match(shot!, /step1\.png$/);
    assert.deepEqual([...readFileSync(shot!)], [...PNG]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
