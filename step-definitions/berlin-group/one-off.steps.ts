/**
 * The berlin-group scenario of one-off consents (features/berlin-group/one-off-consent.feature):
 * one access session under a one-off consent, then a new access, which the bank should refuse.
 */
import { When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, quote, WARNING_MEDIA_TYPE } from '../support/judge.ts';
import { accountsOf, errorMessagesOf, transactionsQuery } from '../../src/dialects/berlin-group/index.ts';
import { dataOptions, theConsent } from './support.ts';

/** The refusals the standard gives a used-up one-off consent: expired, or its accesses exceeded. */
const REFUSALS: ReadonlyArray<readonly [number, string]> = [[401, 'CONSENT_EXPIRED'], [429, 'ACCESS_EXCEEDED']];

When('the TPP reads under the NextGenPSD2 consent the account list, then the first account\'s balances and booked transactions', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  const list = await this.call('listing the accounts', (client) => client.listAccounts(dataOptions(this, c)));
  const id = accountsOf(list.body).map((a) => a.resourceId).find((x): x is string => typeof x === 'string');
  if (list.status !== 200 || !id) throw this.blocked('AIS-04', `the one-off consent opens no account to read: ${describeAnswer(list)}`);
  const balances = await this.call('reading the balances', (client) => client.getBalances(id, dataOptions(this, c)));
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', dateFrom: new Date(Date.now() - 89 * 86_400_000) }).entries());
  const transactions = await this.call('reading the transactions', (client) => client.getTransactions(id, { ...dataOptions(this, c), query }));
  // The first access must be served in full for the second to say anything (AIS-11 judges these reads).
  for (const r of [balances, transactions]) if (r.status !== 200) throw this.blocked('AIS-11', `the one-off consent's first access was not served: ${describeAnswer(r)}`);
});

When('the TPP comes back for a new access: the account list under the same NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  await this.call('listing the accounts again', (client) => client.listAccounts(dataOptions(this, c)));
});

Then('the bank should refuse the new access with 401 CONSENT_EXPIRED or 429 ACCESS_EXCEEDED', function (this: ConformanceWorld) {
  const r = this.answer();
  const codes = errorMessagesOf(r.body).map((m) => m.code);
  if (REFUSALS.some(([status, code]) => r.status === status && codes.includes(code))) return;
  // The file says "one access"; where the access session ends is the bank's: a warning, not a failure.
  this.attach(JSON.stringify({
    level: 'SHOULD', source: 'official-schema',
    message: `a one-off consent (recurringIndicator false) served a new access after its accounts, balances and transactions were read: ${describeAnswer(r)}`,
    problems: [`expected 401 CONSENT_EXPIRED or 429 ACCESS_EXCEEDED, got ${r.status}${codes.length ? ` ${quote(codes)}` : ''}`],
  }), WARNING_MEDIA_TYPE);
});
