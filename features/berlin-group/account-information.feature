@ais @dialect-berlin-group
Feature: Account information (Berlin Group NextGenPSD2)

  The account-information rules in NextGenPSD2 words: POST /v1/consents with access,
  recurringIndicator, validUntil and frequencyPerDay; the PSU's SCA (the scaRedirect link, or the
  authorisation server with the consent in the scope); data calls under Consent-ID. Data calls
  carry PSU-IP-Address (the PSU is present) unless a scenario says otherwise, so that
  frequencyPerDay does not count them.

  @AIS-01 @level-MUST @source-spec
  Rule: AIS-01 — A consent is created with its access, validity and frequency, gets a consentId and awaits authorisation

    @A @B
    Scenario: The bank creates the consent and it awaits the PSU's authorisation
      When the TPP asks for a NextGenPSD2 consent to the PSU's accounts, balances and transactions
      Then the bank creates the NextGenPSD2 consent with a consentId and a way to start the PSU's SCA
      And the NextGenPSD2 consent's status in the answer is "received"
      And the answer's ASPSP-SCA-Approach header, where given, names one of the standard's SCA approaches

    @A @B
    Scenario: A consent without access is refused
      When the TPP asks for a NextGenPSD2 consent without access
      Then the bank refuses the NextGenPSD2 request with 400

  @AIS-02 @level-MUST @source-spec
  Rule: AIS-02 — The consent's contents are not changed during the authorisation step

    @A @B @recurring-consent
    Scenario: A consent naming its accounts reads back unchanged after the PSU's authorisation
      Given a NextGenPSD2 consent to the PSU's first account by IBAN, which the PSU authorised
      When the TPP reads the NextGenPSD2 consent
      Then the NextGenPSD2 consent reads back with the access, recurringIndicator and frequencyPerDay asked

  @AIS-04 @level-MUST @source-spec
  Rule: AIS-04 — The PSU selects the accounts, and GET /v1/accounts returns exactly those

    @A @B @recurring-consent
    Scenario: Only the account the PSU selected is returned
      Given a NextGenPSD2 consent the PSU authorised for the first of their accounts
      When the TPP lists the accounts under the NextGenPSD2 consent
      Then the bank lists exactly the accounts the PSU selected

    @A @B @recurring-consent
    Scenario: An account the PSU did not select is refused
      Given a NextGenPSD2 consent the PSU authorised for the first of their accounts
      When the TPP reads an account the PSU did not select under the NextGenPSD2 consent
      Then the bank refuses the NextGenPSD2 request with 401, 403 or 404

  @AIS-05 @level-MUST @source-spec
  Rule: AIS-05 — Account data needs the PSU's authorised consent, named in Consent-ID

    @A @B
    Scenario: Without Consent-ID the accounts are refused
      Given the PSU's full NextGenPSD2 consent
      When the TPP lists the accounts without Consent-ID
      Then the bank refuses the NextGenPSD2 request with 400, 401 or 403

    @A @B
    Scenario: A consent awaiting the PSU's authorisation opens no account
      Given a NextGenPSD2 consent the PSU has not authorised yet
      When the TPP lists the accounts under the NextGenPSD2 consent
      Then the bank refuses the NextGenPSD2 request with 401 or 403

  @AIS-09 @level-MUST @source-spec
  Rule: AIS-09 — The consent's access is enforced: no balances or transactions beyond it

    @A @B @recurring-consent
    Scenario: A consent to the accounts alone gives no balances
      Given a NextGenPSD2 consent the PSU authorised for the accounts alone
      When the TPP reads the balances of the consented account
      Then the bank refuses the NextGenPSD2 request with 401 or 403

    @A @B @recurring-consent
    Scenario: A consent to the accounts alone gives no transactions
      Given a NextGenPSD2 consent the PSU authorised for the accounts alone
      When the TPP reads the transactions of the consented account
      Then the bank refuses the NextGenPSD2 request with 401 or 403

  @AIS-10 @level-MUST @source-spec
  Rule: AIS-10 — Account detail and transaction detail are read on their own paths

    @A @B
    Scenario: One account in detail
      Given the PSU's full NextGenPSD2 consent
      When the TPP reads the first consented account in detail
      Then the bank answers 200 with a valid "accountDetailsResponse" for that account

    @A
    Scenario: One transaction in detail
      Given the PSU's full NextGenPSD2 consent
      When the TPP reads the first booked transaction of the first consented account in detail
      Then the bank answers 200 with a valid "transactionDetailsResponse"

  @AIS-11 @level-MUST @source-official-schema
  Rule: AIS-11 — Accounts, balances and transactions carry the standard's mandatory fields in the standard's formats

    @A @B
    Scenario: Every account, balance and transaction is well formed
      Given the PSU's full NextGenPSD2 consent
      When the TPP reads every consented account's balances and booked transactions
      Then every NextGenPSD2 answer is valid against its schema

  @AIS-12 @level-MUST @source-standard
  Rule: AIS-12 — The TPP can delete the consent, and a deleted consent opens nothing

    @A @B @recurring-consent
    Scenario: A deleted consent opens no account
      Given a NextGenPSD2 consent the PSU authorised for all of their accounts
      When the TPP deletes the NextGenPSD2 consent
      Then the bank answers the NextGenPSD2 request with 204
      When the TPP lists the accounts under the NextGenPSD2 consent
      Then the bank refuses the NextGenPSD2 request with 401 or 403

  @BG-09 @level-MUST @source-official-schema
  Rule: BG-09 — dateFrom and dateTo bound the transactions returned

    @A @B
    Scenario: Booked transactions outside dateFrom and dateTo are not returned
      Given the PSU's full NextGenPSD2 consent
      When the TPP reads the booked transactions of the first consented account from 60 to 30 days ago
      Then every booked transaction is dated within those days

  @BG-21 @level-MUST @source-official-schema
  Rule: BG-21 — bookingStatus selects the transactions returned: booked, pending, or both

    @A @B
    Scenario: A report of booked transactions holds no pending one
      Given the PSU's full NextGenPSD2 consent
      When the TPP reads the transactions of the first consented account with bookingStatus booked
      Then the report of booked transactions holds no pending one

    @A @B
    Scenario: Pending gives the pending transactions alone, and both gives the booked and the pending
      Given the PSU's full NextGenPSD2 consent
      When the TPP reads the transactions of the first consented account with bookingStatus booked,pending,both
      Then the pending report holds only pending transactions, and the report of both holds the booked and the pending ones
