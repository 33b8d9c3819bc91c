@ais
Feature: Account information
  An AISP reads consolidated information on the PSU's payment accounts — the account list, balances
  and transactions — within the bounds of an account-access consent that the PSU authorised at the
  bank. The consent carries Permissions, an Expiration Date and a Transaction Validity Period.

  @AIS-01 @level-MUST @source-spec
  Rule: AIS-01 — A consent is created with Permissions, Expiration Date and Transaction Validity Period, gets a ConsentId and awaits authorisation

    @A @B
    Scenario: The bank creates the consent and echoes what was asked
      When the AISP creates an account-access consent with every permission of the accounts, balances and transactions clusters, expiring in 30 days, for the transactions of the last 180 days
      Then the bank answers 201 Created
      And the body is a valid "OBReadConsentResponse1"
      And the consent has a ConsentId
      And the consent's status is "AwaitingAuthorisation"
      And the consent's permissions, expiration date and transaction period are exactly those requested

    @A @B
    Scenario: A consent without permissions is refused
      When the AISP creates an account-access consent without permissions
      Then the bank refuses the request with 400

    @A @B
    Scenario: A consent with an empty list of permissions is refused
      When the AISP creates an account-access consent with an empty list of permissions
      Then the bank refuses the request with 400

  @AIS-02 @level-MUST @source-spec
  Rule: AIS-02 — The consent's contents are not changed during the authorisation step

    @A @B
    Scenario: The access granted is exactly what the consent asked for
      Given the PSU has authorised the "basic credits" consent: permissions "ReadAccountsBasic, ReadTransactionsBasic, ReadTransactionsCredits", transactions from 150 to 30 days ago
      When the AISP reads the transactions of the first account
      Then every transaction was booked inside the consent's transaction period
      And no transaction carries a field that only ReadTransactionsDetail unlocks
      And every transaction is a credit
      When the AISP reads the balances of the first account
      Then the bank refuses the request because the consent does not cover it

    @A @B
    Scenario: The consent reads back unchanged after the PSU's authorisation
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP reads that account-access consent
      Then the bank answers 200 OK
      And the body is a valid "OBReadConsentResponse1"
      And the consent's status is "Authorised"
      And the consent's permissions, expiration date and transaction period are exactly those requested

  @AIS-03 @level-MUST @source-spec
  Rule: AIS-03 — The PSU authorises the consent only as a whole

    @A @B
    Scenario: An approved consent grants every permission it lists
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      Then the AISP can read the accounts, each account's detail, its balances and its transactions

  @AIS-04 @level-MUST @source-spec
  Rule: AIS-04 — The PSU selects the accounts, and GET /accounts returns exactly those

    @A @B
    Scenario: Only the selected account is returned
      Given the PSU has authorised the "one account" consent: permissions "ReadAccountsDetail, ReadBalances", only the first account selected
      When the AISP lists the accounts
      Then the bank answers 200 OK
      And the list holds exactly the accounts the PSU selected

    @A @B
    Scenario: The accounts the PSU did not select are refused
      Given the PSU has authorised the "one account" consent: permissions "ReadAccountsDetail, ReadBalances", only the first account selected
      And the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP reads, with the "one account" consent, each account that the PSU did not select for it
      Then the bank refuses every such request

    @A @B
    Scenario: An account id the bank does not know is refused
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP reads the account "no-such-account-0000"
      Then the bank refuses the request with 400, 403 or 404

  @AIS-05 @level-MUST @source-spec
  Rule: AIS-05 — GET /accounts is the first data call and needs a valid access token from the PSU's authorisation

    @A @B
    Scenario: The AccountIds returned by GET /accounts are the ones the account endpoints accept
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP lists the accounts
      Then the bank answers 200 OK
      And every AccountId listed can be read on its own

    @A @B
    Scenario: Without an access token the accounts are refused
      When the AISP lists the accounts without an access token
      Then the bank refuses the request with 401

    @A @B
    Scenario: A client-credentials token does not open the accounts
      When the AISP lists the accounts with a client-credentials token
      Then the bank refuses the request with 401 or 403

  @AIS-06 @level-MUST @source-spec
  Rule: AIS-06 — Several consents of one PSU for the same accounts live side by side, each with its own parameters

    @A @B
    Scenario: A broad and a narrow consent for the same accounts keep their own permissions
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      And the PSU has authorised the "accounts only" consent: permissions "ReadAccountsBasic", all accounts selected
      When the AISP reads the balances of the first account with the "full" consent
      Then the bank answers 200 OK
      When the AISP reads the balances of the first account with the "accounts only" consent
      Then the bank refuses the request because the consent does not cover it
      When the AISP lists the accounts with the "accounts only" consent
      Then the bank answers 200 OK
      And the list holds the same accounts as the "full" consent

  @AIS-07 @level-MUST @source-spec
  Rule: AIS-07 — The Transaction Validity Period bounds the transactions returned

    @A @B
    Scenario: Transactions outside the period are not returned
      Given the PSU has authorised the "basic credits" consent: permissions "ReadAccountsBasic, ReadTransactionsBasic, ReadTransactionsCredits", transactions from 150 to 30 days ago
      When the AISP reads the transactions of the first account
      Then the bank answers 200 OK
      And every transaction was booked inside the consent's transaction period

    @A @B
    Scenario: A booking-date filter wider than the period still stays inside it
      Given the PSU has authorised the "basic credits" consent: permissions "ReadAccountsBasic, ReadTransactionsBasic, ReadTransactionsCredits", transactions from 150 to 30 days ago
      When the AISP reads the transactions of the first account booked from 400 days ago until today
      Then the bank answers 200 OK
      And every transaction was booked inside the consent's transaction period

    @A
    Scenario: A transaction outside the period cannot be read in detail
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      And the PSU has authorised the "basic credits" consent: permissions "ReadAccountsBasic, ReadTransactionsBasic, ReadTransactionsCredits", transactions from 150 to 30 days ago
      When the AISP reads in detail, with the "basic credits" consent, a transaction booked outside its period
      Then the bank refuses the request with 400, 403 or 404

  @AIS-08 @level-MUST @source-spec
  Rule: AIS-08 — After the Expiration Date the AISP no longer has access

    @A @B @waits
    Scenario: The accounts are refused once the consent has expired
      Given the PSU has authorised a consent that expires a few seconds later, and the AISP read the accounts before it expired
      When the consent's expiration date has passed
      And the AISP lists the accounts
      Then the bank refuses the request with 401 or 403

  @AIS-09 @level-MUST @source-standard
  Rule: AIS-09 — Permission clusters are enforced

    @A @B
    Scenario: No ReadBalances, no balances
      Given the PSU has authorised the "accounts only" consent: permissions "ReadAccountsBasic", all accounts selected
      When the AISP reads the balances of the first account
      Then the bank refuses the request because the consent does not cover it

    @A @B
    Scenario: No ReadTransactions permission, no transactions
      Given the PSU has authorised the "accounts only" consent: permissions "ReadAccountsBasic", all accounts selected
      When the AISP reads the transactions of the first account
      Then the bank refuses the request because the consent does not cover it

    @A @B
    Scenario: ReadAccountsBasic does not disclose the account identification
      Given the PSU has authorised the "accounts only" consent: permissions "ReadAccountsBasic", all accounts selected
      When the AISP lists the accounts
      Then the bank answers 200 OK
      And no account carries a field that only ReadAccountsDetail unlocks

    @A @B
    Scenario: ReadTransactionsCredits without ReadTransactionsDebits returns no debits
      Given the PSU has authorised the "basic credits" consent: permissions "ReadAccountsBasic, ReadTransactionsBasic, ReadTransactionsCredits", transactions from 150 to 30 days ago
      When the AISP reads the transactions of the first account
      Then every transaction is a credit

  @AIS-10 @level-MUST @source-spec
  Rule: AIS-10 — Account detail and transaction detail are read on their own paths

    @A @B
    Scenario: One account in detail
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP reads the first account on its own
      Then the bank answers 200 OK
      And the body is a valid "OBReadAccount6"
      And the body holds exactly that one account

    @A
    Scenario: One transaction in detail
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP reads in detail the first transaction of the first account
      Then the bank answers 200 OK
      And the body is a valid "OBReadTransaction6"
      And the body holds exactly that one transaction

    @A
    Scenario: A transaction id the bank does not know is refused
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP reads in detail the transaction "no-such-transaction-0000" of the first account
      Then the bank refuses the request with 400, 403 or 404

  @AIS-11 @level-MUST @source-official-schema
  Rule: AIS-11 — Accounts, balances and transactions carry the standard's mandatory fields in the standard's formats

    @A @B
    Scenario: Every account, balance and transaction is well formed
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP reads every resource the consent opens: the account list, and each account's detail, balances and transactions
      Then every answer is 200 OK with a body valid against the standard's schema for it

  @AIS-12 @level-MUST @source-standard
  Rule: AIS-12 — The AISP can delete the account-access consent, and a deleted consent opens nothing

    @A @B
    Scenario: A deleted consent is gone and its token opens no account
      Given the PSU has authorised the "to delete" consent: permissions "ReadAccountsDetail, ReadBalances", all accounts selected
      And the AISP could list the accounts with that consent
      When the AISP deletes that account-access consent
      Then the bank answers 204 No Content
      When the AISP reads that account-access consent
      Then the consent is no longer usable
      When the AISP lists the accounts
      Then the bank refuses the request with 400, 401 or 403
      When the AISP reads the balances of the first account
      Then the bank refuses the request with 400, 401 or 403

    @A @B
    Scenario: An unknown account-access consent cannot be read
      When the AISP reads the account-access consent "no-such-consent-0000"
      Then the bank refuses the request with 400, 403 or 404
