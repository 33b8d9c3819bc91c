/**
 * The berlin-group scenario of withBalance (features/berlin-group/with-balance.feature): the
 * consent, not the query parameter, decides whether balances are shown with the account list.
 */
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { accountsOf } from '../../src/dialects/berlin-group/index.ts';
import { bankOffered, consentRequest, consentThroughSca, dataOptions, expectBgSchema, theConsent } from './support.ts';

Given('a one-off NextGenPSD2 consent the PSU authorised for the accounts alone', async function (this: ConformanceWorld) {
  await consentThroughSca(this, consentRequest(bankOffered({ balances: false, transactions: false }), { recurringIndicator: false, frequencyPerDay: 1 }), { accounts: { pick: 'all' } });
});

When('the TPP lists the accounts with withBalance=true under the NextGenPSD2 consent', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  await this.call('listing the accounts with their balances', (client) => client.listAccounts({ ...dataOptions(this, c), query: { withBalance: 'true' } }));
});

Then('the bank lists the accounts as a valid accountList, and no account carries a balance', function (this: ConformanceWorld) {
  const r = this.answer();
  // The parameter is optional for the bank ("might be ignored"); a refusal of it says nothing about the consent.
  if (r.status >= 400 && r.status < 500) throw this.blocked(undefined, `the bank refused withBalance: ${describeAnswer(r)}`);
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'accountList');
  const shown = accountsOf(r.body).filter((a) => a.balances !== undefined).map((a) => String(a.resourceId ?? a.iban ?? '?'));
  if (shown.length) throw this.violation(`GET /v1/accounts?withBalance=true shows balances of ${quote(shown)} under a consent to the accounts alone (no balances granted)`);
});
