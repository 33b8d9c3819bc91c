// The evidence of a failed PSU step never holds the verdict: a page whose screenshot does not come
// (a hanging bank page, a browser out of breath) gives its URL and step without the picture, within
// the screenshot's bound, instead of hanging the journey until the run's own time-out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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

/** Just enough of a puppeteer Page: its screenshot answers as `shot` says. */
function pageWhoseScreenshot(shot: () => Promise<unknown>): Page {
  return { url: () => 'https://bank.example/login?x=1', isClosed: () => false, screenshot: shot } as unknown as Page;
}

test('a screenshot that never comes: the evidence has the step and URL, without it, within the bound', async () => {
  const j = new PageJourney(pageWhoseScreenshot(() => new Promise(() => undefined)), options);
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
});

test('a screenshot that comes: the evidence names its file', async () => {
  let path: string | undefined;
  const j = new PageJourney(pageWhoseScreenshot(async (o?: unknown) => (path = (o as { path: string }).path)), options);
  const error = await j.step(1, 'fill [data-testid="username"] with {username}', async () => {
    throw new Error('boom');
  }).catch((e: unknown) => e);
  const evidence = (error as { evidence?: Record<string, unknown> }).evidence;
  assert.ok(path && evidence?.screenshot === path);
  assert.match(path, /step1\.png$/);
});
