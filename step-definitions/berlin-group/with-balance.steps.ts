/**
 * The berlin-group scenarios of withBalance (features/berlin-group/with-balance.feature: the
 * consent, not the query parameter, decides whether balances are shown with the account list) and
 * of the global consents (global-consents.feature: what each form reaches).
 */
import { Given, When, Then } from '../support/define.ts';
import type { ConformanceWorld } from '../support/world.ts';
import { describeAnswer, expectStatus, quote } from '../support/judge.ts';
import { accountsOf, transactionsQuery } from '../../src/dialects/berlin-group/index.ts';
import { bankOffered, consentRequest, consentThroughSca, dataOptions, expectBgSchema, theConsent } from './support.ts';
import { givenAhead } from './ahead.ts';

givenAhead('a one-off NextGenPSD2 consent the PSU authorised for the accounts alone', async (world) => {
  await consentThroughSca(world, consentRequest(bankOffered({ balances: false, transactions: false }), { recurringIndicator: false, frequencyPerDay: 1 }), { accounts: { pick: 'all' } });
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

// Global consents (features/berlin-group/global-consents.feature)

Then('the bank lists the PSU\'s accounts as a valid accountList', function (this: ConformanceWorld) {
  const r = this.answer();
  expectStatus(this, r, [200]);
  expectBgSchema(this, r, 'accountList');
  if (!accountsOf(r.body).some((a) => typeof a.resourceId === 'string')) throw this.blocked(undefined, 'the consent lists no account with a resourceId: nothing to read under it');
});

When('the TPP reads each account the NextGenPSD2 consent lists: its balances and its booked transactions', async function (this: ConformanceWorld) {
  const c = theConsent(this);
  const list = await this.call('listing the accounts', (client) => client.listAccounts(dataOptions(this, c)));
  const query = Object.fromEntries(transactionsQuery({ bookingStatus: 'booked', dateFrom: new Date(Date.now() - 89 * 86_400_000) }).entries());
  this.batch = [list];
  const ids = accountsOf(list.body).map((a) => a.resourceId).filter((x): x is string => typeof x === 'string');
  if (list.status === 200 && !ids.length) throw this.blocked(undefined, 'the consent lists no account with a resourceId: nothing to read under it');
  for (const id of ids) {
    this.batch.push(await this.call('reading the balances', (client) => client.getBalances(id, dataOptions(this, c))));
    this.batch.push(await this.call('reading the transactions', (client) => client.getTransactions(id, { ...dataOptions(this, c), query })));
  }
});
