/**
 * The berlin-group scenarios of message signing (features/berlin-group/message-signing.feature):
 * the NextGenPSD2 HTTP signature the tpp client puts on every request where the profile gives a
 * signing certificate, refused when missing or false, and the bank's signed answers verified
 * (the client checks them against bank.signingCertificate; the rule reads the outcome).
 */
import { createHash, randomUUID } from 'node:crypto';
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectRefusal, quote, WARNING_MEDIA_TYPE } from '../support/judge.ts';
import { bgHeaders, consentIdOf, errorMessagesOf } from '../../src/dialects/berlin-group/index.ts';
import type { CallOptions } from '../../src/client/operations.ts';
import { approachOf, BgNotApplicable, consentRequest, plain, postConsent } from './support.ts';

/** The codes the file gives a refused signature (401, or 400 FORMAT_ERROR for a malformed one). */
const SIGNATURE_CODES = ['SIGNATURE_MISSING', 'SIGNATURE_INVALID', 'CERTIFICATE_MISSING', 'CERTIFICATE_INVALID', 'FORMAT_ERROR'];

Given('the bank requires signed NextGenPSD2 requests', function (this: ConformanceWorld) {
  const p = this.ctx.profile;
  if (p.bank.requiresSignedRequests !== true) throw new BgNotApplicable('createAccountAccessConsent', this.variant, 'the profile does not say the bank requires signed requests (bank.requiresSignedRequests)');
  if (!p.signing?.certificate || p.signing.enabled === false) throw new BgNotApplicable('createAccountAccessConsent', this.variant, 'the profile gives no signing certificate (signing.certificate): obtpp cannot sign, so a refusal of what it does not sign says nothing');
});

Given('the bank signs its NextGenPSD2 answers', function (this: ConformanceWorld) {
  if (!this.ctx.profile.bank.signingCertificate) throw new BgNotApplicable('createAccountAccessConsent', this.variant, 'the profile names no certificate the bank signs its answers with (bank.signingCertificate)');
});

/** POST /v1/consents for all the PSU's accounts, with the approach's headers and these signature options. */
function createConsent(world: ConformanceWorld, httpSignature?: CallOptions['httpSignature']) {
  const body = consentRequest({ availableAccounts: 'allAccounts' } as never, { recurringIndicator: false, frequencyPerDay: 1 });
  return postConsent(world, body, approachOf(world), undefined, httpSignature !== undefined ? { httpSignature } : {});
}

When('the TPP creates a NextGenPSD2 consent without signing the request', async function (this: ConformanceWorld) {
  await createConsent(this, false);
});

When('the TPP creates a NextGenPSD2 consent with a Digest that is not its body\'s', async function (this: ConformanceWorld) {
  // Signed over a Digest of another body: the signature itself verifies, the Digest does not.
  await createConsent(this, { digestOf: `{"tampered":"${createHash('sha256').update(randomUUID()).digest('hex')}"}` });
});

Then('the bank refuses the NextGenPSD2 request with 400 or 401, naming the signature', function (this: ConformanceWorld) {
  const r = this.answer();
  expectRefusal(this, r, [400, 401], 'a request not signed over its body');
  const codes = errorMessagesOf(r.body).map((m) => m.code);
  // The codes are the file's words for it; a bank that refuses with another says less than it could: a warning.
  if (!codes.some((c) => SIGNATURE_CODES.includes(c))) {
    this.attach(JSON.stringify({
      level: 'SHOULD', source: 'official-schema',
      message: `the refusal of a request not signed over its body names no signature code: ${describeAnswer(r)}`,
      problems: [`expected a code among ${SIGNATURE_CODES.join(', ')}; got ${quote(codes)}`],
    }), WARNING_MEDIA_TYPE);
  }
});

When('the TPP creates a NextGenPSD2 consent and reads its status', async function (this: ConformanceWorld) {
  this.batch = [];
  const created = await createConsent(this);
  this.batch.push(created);
  const id = consentIdOf(created.body);
  if ((created.status !== 201 && created.status !== 200) || !id) throw this.blocked('AIS-01', `the bank did not create the consent: ${describeAnswer(created)}`);
  this.batch.push(await this.call('reading the consent\'s status', (c) => c.getConsentStatus(id, plain(this, bgHeaders()))));
});

Then('each NextGenPSD2 answer carries the Digest of its body and a Signature by the bank\'s certificate', function (this: ConformanceWorld) {
  const problems = this.batch.flatMap((r) => (r.httpSignature && !r.httpSignature.valid ? [`${describeAnswer(r)}: ${r.httpSignature.problem}`] : []));
  if (problems.length) throw this.violation(`the bank's signed answers do not verify: ${problems.join('; ')}`);
});
