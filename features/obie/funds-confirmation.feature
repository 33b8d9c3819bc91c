@cof
Feature: Confirmation of funds
  A CBPII asks whether a given amount is available on the PSU's account. The answer is only true or
  false, never a balance. The PSU's explicit consent is required first: the CBPII creates a
  funds-confirmation consent for a Debtor Account, the PSU authorises it at the bank, and only then
  may the CBPII ask, with the token of that authorisation.

  @COF-01 @level-MUST @source-spec
  Rule: COF-01 — Debtor Account is mandatory on the funds-confirmation consent

    @A @B
    Scenario: A consent for the PSU's account is created and awaits authorisation
      When the CBPII creates a funds-confirmation consent for the PSU's first account, expiring in 30 days
      Then the bank answers 201 Created
      And the body is a valid "OBFundsConfirmationConsentResponse1"
      And the consent has a ConsentId
      And the consent's status is "AwaitingAuthorisation"
      And the consent's debtor account is the one requested

    @A @B
    Scenario: A consent without Expiration Date Time is accepted
      When the CBPII creates a funds-confirmation consent for the PSU's first account, with no expiration
      Then the bank answers 201 Created
      And the consent has a ConsentId

    @A @B
    Scenario: A consent without Debtor Account is refused
      When the CBPII creates a funds-confirmation consent without a debtor account
      Then the bank refuses the request with 400

  @COF-02 @level-MUST @source-spec
  Rule: COF-02 — Consents under a client-credentials grant; confirmations only under an authorization-code grant, after the PSU authorised

    @A @B
    Scenario: Funds are confirmed with the token of the PSU's authorisation
      Given the PSU has authorised the "main" funds-confirmation consent for their first account
      When the CBPII asks whether 1.00 in the account's currency is available
      Then the bank answers 201 Created
      And the body is a valid "OBFundsConfirmationResponse1"

    @A @B
    Scenario: A consent the PSU has not authorised confirms nothing
      Given the CBPII has created a funds-confirmation consent for the PSU's first account that the PSU has not authorised
      When the CBPII asks, with a client-credentials token, whether 1.00 is available under that consent
      Then the bank refuses the request with 400, 401 or 403

    @A @B
    Scenario: A funds-confirmation consent cannot be created without the TPP's token
      When the CBPII creates a funds-confirmation consent for the PSU's first account without an access token
      Then the bank refuses the request with 401

  @COF-03 @level-MUST @source-spec
  Rule: COF-03 — The ConsentId in the request must be the intent id of the consent the token was authorised for

    @A @B
    Scenario: Another consent's ConsentId is refused
      Given the PSU has authorised the "main" funds-confirmation consent for their first account
      And the PSU has authorised the "other" funds-confirmation consent for their first account
      When the CBPII asks with the "main" consent's token whether 1.00 is available, naming the "other" consent's ConsentId
      Then the bank refuses the request with 400 or 403

  @COF-04 @level-MUST @source-spec
  Rule: COF-04 — The answer is only whether funds are available, never a balance

    @A @B
    Scenario: The answer discloses no balance
      Given the PSU has authorised the "main" funds-confirmation consent for their first account
      When the CBPII asks whether 1.00 in the account's currency is available
      Then the answer is only whether funds are available, and no balance is disclosed

  @COF-05 @level-MUST @source-spec
  Rule: COF-05 — The answer is true exactly when the account holds the amount

    @A @B
    Scenario: An amount the account covers is available, one it does not cover is not
      Given the PSU has authorised the "main" funds-confirmation consent for their first account
      And the AISP knows the available balance of that account
      When the CBPII asks whether an amount well below the available balance is available
      Then the funds are available
      When the CBPII asks whether an amount far above the available balance is available
      Then the funds are not available

  @COF-06 @level-MUST @source-spec
  Rule: COF-06 — Expiration Date Time is optional and ends confirmations

    @A @B @waits
    Scenario: An expired consent confirms nothing
      Given the PSU has authorised a funds-confirmation consent that expires a few seconds later, and the CBPII confirmed funds before it expired
      When the consent's expiration date has passed
      And the CBPII asks whether 1.00 in the account's currency is available
      Then the bank refuses the request with 400, 401 or 403

  @COF-07 @level-MUST @source-spec
  Rule: COF-07 — The consent can be read and deleted, and a deleted consent confirms nothing

    @A
    Scenario: The consent reads as authorised after the PSU's authorisation
      Given the PSU has authorised the "main" funds-confirmation consent for their first account
      When the CBPII reads that consent
      Then the bank answers 200 OK
      And the body is a valid "OBFundsConfirmationConsentResponse1"
      And the consent's status is "Authorised"

    @A
    Scenario: A deleted consent is gone and confirms nothing
      Given the PSU has authorised the "to delete" funds-confirmation consent for their first account
      When the CBPII deletes that consent
      Then the bank answers 204 No Content
      When the CBPII reads that consent
      Then the consent is no longer usable
      When the CBPII asks whether 1.00 in the account's currency is available
      Then the bank refuses the request with 400, 401 or 403

    @A
    Scenario: An unknown consent cannot be read
      When the CBPII reads the funds-confirmation consent "no-such-consent-0000"
      Then the bank refuses the request with 400, 403 or 404
