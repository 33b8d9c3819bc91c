@ais @dialect-berlin-group
Feature: Global consents (Berlin Group NextGenPSD2)

  A consent's access may be a global form instead of account lists: availableAccounts (the list
  of the PSU's accounts), availableAccountsWithBalance (and their balances) or allPsd2 (the
  accounts, their balances and their transactions). The forms are the bank's to offer: a refusal
  of one (4xx) leaves its scenario not judged. The consents are one-off, so that they expire no
  recurring one.

  @BG-33 @level-MUST @source-official-schema
  Rule: BG-33 — A global consent reaches what its form names, and no more

    @A @B
    Scenario: A consent to the available accounts lists them and opens none of their balances
      Given a one-off NextGenPSD2 consent to the PSU's available accounts, which the PSU authorised
      When the TPP lists the accounts under the NextGenPSD2 consent
      Then the bank lists the PSU's accounts as a valid accountList
      When the TPP reads the balances of the consented account
      Then the bank refuses the NextGenPSD2 request with 401 or 403

    @A @B
    Scenario: A consent to all PSD2 services opens the accounts, their balances and their transactions
      Given a one-off NextGenPSD2 consent to all PSD2 services of the PSU's accounts (allPsd2), which the PSU authorised
      When the TPP reads each account the NextGenPSD2 consent lists: its balances and its booked transactions
      Then every NextGenPSD2 answer is valid against its schema
