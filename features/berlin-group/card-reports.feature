@ais @dialect-berlin-group
Feature: Card account reports (Berlin Group NextGenPSD2)

  GET /v1/card-accounts/{account-id}/transactions with bookingStatus (`bookingStatusCard`: booked,
  pending, both) and the period dateFrom … dateTo, and GET /v1/card-accounts?withBalance=true. The
  consents are one-off, so that they expire no recurring one. A profile that does not implement the
  card-account reads leaves these rules not applicable; a PSU without a card account leaves them not
  judged.

  @BG-34 @level-MUST @source-official-schema
  Rule: BG-34 — bookingStatus selects a card account's transactions: booked, pending, or both

    @A @B
    Scenario: Booked gives no pending card transaction, pending no booked one, and both gives the two reports
      Given a one-off NextGenPSD2 consent to the balances and transactions of the PSU's first card account, named by its masked PAN, which the PSU authorised
      When the TPP reads the consented card account's transactions of the last 89 days with bookingStatus booked, pending and both, following _links.next
      Then the booked card report holds no pending transaction, the pending one no booked transaction, and the report of both the booked and the pending ones

  @BG-35 @level-MUST @source-official-schema
  Rule: BG-35 — dateFrom and dateTo bound a card account's transactions

    @A @B
    Scenario: Booked card transactions outside dateFrom and dateTo are not returned
      Given a one-off NextGenPSD2 consent to the balances and transactions of the PSU's first card account, named by its masked PAN, which the PSU authorised
      When the TPP reads the consented card account's booked transactions from 20 to 5 days ago
      Then every booked card transaction is dated within those days

  @BG-36 @level-SHOULD @source-standard
  Rule: BG-36 — withBalance lists a card account with the balances the consent grants

    @A @B
    Scenario: A consent to a card account's balances lists it with its balances under withBalance
      Given a one-off NextGenPSD2 consent to the balances and transactions of the PSU's first card account, named by its masked PAN, which the PSU authorised
      When the TPP lists the card accounts with withBalance=true under the NextGenPSD2 consent
      Then the bank lists the card accounts as a valid cardAccountList, and the consented card account should carry its balances
