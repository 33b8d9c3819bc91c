@ais @dialect-berlin-group
Feature: Card accounts (Berlin Group NextGenPSD2)

  GET /v1/card-accounts, …/{account-id}, …/balances and …/transactions: a card account is named by
  its masked PAN, in a consent's access as in the bank's answers. The consents here are one-off
  (recurringIndicator false), so that they leave the PSU's recurring consent valid. A bank whose
  profile does not implement the card-account reads has these scenarios not applicable; a PSU
  without a card account leaves them not judged. BG-32 (paging by _links.next) also follows a year
  of each account's booked transactions under the PSU's full consent.

  @BG-30 @level-MUST @source-official-schema
  Rule: BG-30 — Card accounts are shown only as far as the consent reaches, and as the standard writes them

    @A @B
    Scenario: A consent to the PSU's available accounts lists the card accounts and opens none of their data
      Given a one-off NextGenPSD2 consent to the PSU's available accounts, which the PSU authorised
      When the TPP lists the card accounts under the NextGenPSD2 consent
      Then the bank lists the PSU's card accounts as a valid cardAccountList
      When the TPP reads the first card account's balances under the NextGenPSD2 consent
      Then the bank refuses the NextGenPSD2 request with 401 or 403

    @A @B
    Scenario: A consent to one card account by its masked PAN opens that card account alone
      Given a one-off NextGenPSD2 consent to the balances and transactions of the PSU's first card account, named by its masked PAN, which the PSU authorised
      When the TPP reads the consented card account: the list, the card account, its balances and its booked transactions
      Then every NextGenPSD2 answer is valid against its schema
      And the card account list holds only the card account the consent names

    @A @B
    Scenario: A card account the consent does not name is refused
      Given a one-off NextGenPSD2 consent to the balances and transactions of the PSU's first card account, named by its masked PAN, which the PSU authorised
      When the TPP reads the balances of another of the PSU's card accounts under the NextGenPSD2 consent
      Then the bank refuses the NextGenPSD2 request with 401, 403 or 404

  @BG-32 @level-MUST @source-official-schema
  Rule: BG-32 — A paged report is followed by _links.next: every page is valid, and the pages hold each transaction once

    @A @B
    Scenario: The TPP follows _links.next through the card accounts' booked transactions
      Given a one-off NextGenPSD2 consent to the transactions of every card account of the PSU, named by their masked PANs, which the PSU authorised
      When the TPP reads every card account's booked transactions of the last 89 days, following _links.next
      Then every page is valid against its schema, and the pages hold each transaction once

    @A @B
    Scenario: The TPP follows _links.next through an account's booked transactions of a year
      Given the PSU's full NextGenPSD2 consent
      When the TPP reads each consented account's booked transactions of the last 365 days, following _links.next
      Then every page of the account reports is valid against its schema and holds booked transactions only, and the pages hold each transaction once
