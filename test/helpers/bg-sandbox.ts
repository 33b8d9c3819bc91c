// A Berlin Group sandbox's consent, authorised as its first PSU would at the bank's pages (the
// forms posted by fetch, no browser): for tests of the bank's side that need data under a consent.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../../src/sandbox/index.ts';

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
