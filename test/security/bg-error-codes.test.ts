// The bank's error codes are its words, not secrets (issue 28): a NextGenPSD2 tppMessage's `code`
// and an RFC 7807 problem's survive redaction, and are not learnt as secrets to scrub elsewhere;
// an OAuth authorization `code` is still redacted. No server: the redactor alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, REDACTED } from '../../src/client/redact.ts';

test('tppMessages[].code, an RFC 7807 code and its additionalErrors stay; an authorization code does not', () => {
  const r = new Redactor(['s3cret-password']);
  const tpp = r.json({ tppMessages: [{ category: 'ERROR', code: 'CONSENT_EXPIRED', text: 'the consent has expired' }] });
  assert.deepEqual(tpp, { tppMessages: [{ category: 'ERROR', code: 'CONSENT_EXPIRED', text: 'the consent has expired' }] });
  const problem = r.json({ type: 'https://berlin-group.org/problems/FORMAT_ERROR', title: 'Format error', code: 'FORMAT_ERROR', additionalErrors: [{ title: 'x', code: 'PERIOD_INVALID' }] });
  assert.deepEqual(problem, { type: 'https://berlin-group.org/problems/FORMAT_ERROR', title: 'Format error', code: 'FORMAT_ERROR', additionalErrors: [{ title: 'x', code: 'PERIOD_INVALID' }] });
  // Nothing learnt from them: the words still read in free text.
  assert.equal(r.text('401 CONSENT_EXPIRED: the consent has expired (FORMAT_ERROR)'), '401 CONSENT_EXPIRED: the consent has expired (FORMAT_ERROR)');
  // An authorization code in JSON is still a secret, and is scrubbed wherever it is echoed.
  assert.deepEqual(r.json({ code: 'auth-code-4711', state: 'x' }), { code: REDACTED, state: 'x' });
  assert.equal(r.text('got auth-code-4711 back'), `got ${REDACTED} back`);
  // A message code that carries a known secret is not shown.
  assert.deepEqual(r.json({ tppMessages: [{ category: 'ERROR', code: 's3cret-password' }] }), { tppMessages: [{ category: 'ERROR', code: REDACTED }] });
});
