@ais @dialect-berlin-group
Feature: One-off consents (Berlin Group NextGenPSD2)

  recurringIndicator "false" is a consent "for one access to the account data" (POST /v1/consents,
  consents.recurringIndicator), frequencyPerDay 1. One access is one session of reads: the
  accounts, then their balances and transactions. When the TPP comes back for a new access (the
  account list again, the PSU present, so that frequencyPerDay is not what refuses it), the bank
  refuses it: 401 CONSENT_EXPIRED (the consent has served its access) or 429 ACCESS_EXCEEDED (the
  access is counted against the consent). Where a session ends is the bank's to say, so a bank that
  still answers is warned, not failed.

  @BG-52 @level-SHOULD @source-official-schema
  Rule: BG-52 — A one-off consent serves one access session: a new access is refused (401 CONSENT_EXPIRED or 429 ACCESS_EXCEEDED)

    @A @B
    Scenario: After the accounts, balances and transactions were read, a new access under the one-off consent is refused
      Given a one-off NextGenPSD2 consent the PSU authorised
      When the TPP reads under the NextGenPSD2 consent the account list, then the first account's balances and booked transactions
      And the TPP comes back for a new access: the account list under the same NextGenPSD2 consent
      Then the bank should refuse the new access with 401 CONSENT_EXPIRED or 429 ACCESS_EXCEEDED
