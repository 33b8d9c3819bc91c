@ais @dialect-berlin-group
Feature: withBalance (Berlin Group NextGenPSD2)

  GET /v1/accounts?withBalance=true reads the accounts "including the booking balance, if granted
  by the PSU in the related consent": the consent bounds the balances shown. The bank may ignore
  the parameter (an account list without balances passes); a refusal of it (4xx) leaves the rule
  not judged. The same for the card accounts (GET /v1/card-accounts?withBalance=true; 1.3.12 names
  the parameter on accounts only, so a card-account list without balances passes too). The consent
  is one-off, so that it expires no recurring one.

  @BG-31 @level-MUST @source-official-schema
  Rule: BG-31 — withBalance shows no balance the consent does not grant

    @A @B
    Scenario: A consent to the accounts alone lists no balances, even with withBalance
      Given a one-off NextGenPSD2 consent the PSU authorised for the accounts alone
      When the TPP lists the accounts with withBalance=true under the NextGenPSD2 consent
      Then the bank lists the accounts as a valid accountList, and no account carries a balance

    @A @B
    Scenario: A consent to the available accounts lists the card accounts with no balances, even with withBalance
      Given a one-off NextGenPSD2 consent to the PSU's available accounts, which the PSU authorised
      When the TPP lists the card accounts with withBalance=true under the NextGenPSD2 consent
      Then the bank lists the card accounts as a valid cardAccountList, and no card account carries a balance
