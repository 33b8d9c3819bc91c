// Calls to a Berlin Group bank as a TPP makes them, the official file's judgement of an answer, and
// a sandbox consent authorised as its first PSU would at the bank's pages (the forms posted by
// fetch, no browser): for the tests of the bank's side.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { judgeBg, type BgSchemaName } from '../../src/dialects/berlin-group/index.ts';
import { bgSkip, officialErrors, officialValidator } from '../dialects/berlin-group-official.ts';

/** POST /v1/consents (a recurring global consent, `allPsd2` unless given) and the PSU's approval on its scaRedirect page; answers its consentId. */
export async function authorisedConsent(sb: Sandbox, o: { access?: Record<string, unknown>; validUntil: string }): Promise<string> {
  const created = await fetch(`${sb.baseUrls.A}/v1/consents`, {
    method: 'POST',
    headers: { 'X-Request-ID': randomUUID(), 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': sb.clients[0]!.redirectUri, 'content-type': 'application/json' },
    body: JSON.stringify({ access: o.access ?? { allPsd2: 'allAccounts' }, recurringIndicator: true, validUntil: o.validUntil, frequencyPerDay: 4, combinedServiceIndicator: false }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const body = await created.json() as { consentId: string; _links: { scaRedirect: { href: string } } };
  const sca = body._links.scaRedirect.href;
  const form = (url: string, fields: Record<string, string>) => fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const alice = sb.psus[0]!;
  assert.equal((await form(`${sca}/login`, { username: alice.username, password: alice.password })).status, 303);
  assert.equal((await form(`${sca}/confirm`, { decision: 'approve' })).status, 303);
  return body.consentId;
}

/** An answer of the bank, its body parsed (undefined when empty). */
export interface BgAnswer { status: number; headers: Headers; body: any }

/**
 * One call to a Berlin Group bank as a TPP makes it: a fresh X-Request-ID, `PSU-IP-Address` (the
 * PSU present; `psuIp: false` leaves it out), a JSON body where given; redirects are not followed.
 */
export async function bgCall(method: string, url: string, o: { headers?: Record<string, string>; body?: unknown; psuIp?: string | false } = {}): Promise<BgAnswer> {
  const psuIp = o.psuIp === undefined ? '192.0.2.10' : o.psuIp;
  const res = await fetch(url, {
    method, redirect: 'manual',
    headers: { 'X-Request-ID': randomUUID(), ...(psuIp ? { 'PSU-IP-Address': psuIp } : {}), ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}), ...o.headers },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

/** Asserts `body` is valid against a schema of the official NextGenPSD2 file (by name, or a schema of its refs); nothing where the file is absent. */
export function assertOfficial(target: string | Record<string, unknown>, body: unknown): void {
  if (bgSkip) return;
  const fn = officialValidator(typeof target === 'string' ? { $ref: `#/components/schemas/${target}` } : target);
  assert.ok(fn(body), `${typeof target === 'string' ? target : JSON.stringify(target)}: ${officialErrors(fn)}\n${JSON.stringify(body).slice(0, 400)}`);
}

/** Valid against the official file, and the dialect's judge finds no MUST failure and no SHOULD warning. */
export function assertValid(name: BgSchemaName, body: unknown): void {
  const j = judgeBg(name, body);
  assert.deepEqual([...j.must, ...j.should], [], `${name}: ${JSON.stringify(body)}`);
  assertOfficial(name, body);
}
