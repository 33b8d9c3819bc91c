@ais @dialect-berlin-group
Feature: Delta reports of an account's transactions (Berlin Group NextGenPSD2)

  GET /v1/accounts/{account-id}/transactions offers two delta reports, each "optional if
  supported by API provider": entryReferenceFrom ("all transactions after the transaction with
  identification entryReferenceFrom", the period then ignored) and deltaList ("all transactions
  after the last report access for this PSU on the addressed account"). The profile says which the
  bank offers (deltaReports); one it does not offer is not applicable, never failed. Both read
  the booked transactions of the PSU's first account under the PSU's full consent; where the
  profile says the bank offers them on card accounts too (deltaReports.cards: GET
  /v1/card-accounts/{account-id}/transactions lists both parameters), those of the PSU's first card
  account under a one-off consent to it (entryReferenceFrom naming a cardTransactionId).

  @BG-53 @level-MUST @source-official-schema
  Rule: BG-53 — entryReferenceFrom returns the transactions after the one it names, and no earlier one

    @A @B
    Scenario: A delta report from a transaction's entryReference holds only the later transactions
      Given the bank offers the delta report "entryReferenceFrom"
      And the PSU's full NextGenPSD2 consent
      When the TPP reads the first account's booked transactions of the last 89 days
      And the TPP reads the first account's booked transactions after one of them, by its entryReference
      Then the delta report holds every transaction booked after the one named, none booked before it, and not the one named

    @A
    Scenario: A card account's delta report from a transaction's cardTransactionId holds only the later transactions
      Given the bank offers the delta report "entryReferenceFrom" on card accounts
      And a one-off NextGenPSD2 consent to the balances and transactions of the PSU's first card account, named by its masked PAN, which the PSU authorised
      When the TPP reads the consented card account's booked transactions of the last 89 days, then those after one of them, by its cardTransactionId
      Then the card delta report holds every transaction booked after the one named, none booked before it, and not the one named

  @BG-54 @level-MUST @source-official-schema
  Rule: BG-54 — deltaList returns only the transactions since the last report access

    @A @B
    Scenario: A delta report right after a report repeats none of its transactions
      Given the bank offers the delta report "deltaList"
      And the PSU's full NextGenPSD2 consent
      When the TPP reads the first account's booked transactions of the last 89 days
      And the TPP reads the first account's booked transactions since that report access (deltaList)
      Then the delta report holds none of the booked transactions the report before it held

    @A
    Scenario: A card account's delta report right after a report repeats none of its transactions
      Given the bank offers the delta report "deltaList" on card accounts
      And a one-off NextGenPSD2 consent to the balances and transactions of the PSU's first card account, named by its masked PAN, which the PSU authorised
      When the TPP reads the consented card account's booked transactions of the last 89 days, then those since that report access (deltaList)
      Then the card delta report holds none of the booked transactions the report before it held
