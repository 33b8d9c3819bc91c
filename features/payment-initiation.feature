@pis
Feature: Payment initiation
  A PISP initiates a transfer of funds from the PSU's account with the PSU's consent and
  authentication (variant A only). The payment-order consent is created at /{payment-product}; its
  identifier, the PaymentId, is the intent id and the id in the path. The debtor account is optional:
  when the PISP does not give it, the PSU chooses it at the bank during authorisation.

  @PIS-01 @level-MUST @source-spec
  Rule: PIS-01 — Creating the payment-order consent returns a PaymentId usable in the path

    @A
    Scenario: The payment-order consent is created and can be read by its PaymentId
      When the PISP creates a payment-order consent for 10.50 in the account's currency to a creditor, from the PSU's first account
      Then the bank answers 201 Created
      And the body is a valid "OBWriteDomesticConsentResponse5"
      And the payment has a PaymentId
      And the payment's status is "AwaitingAuthorisation"
      When the PISP reads the payment by its PaymentId
      Then the bank answers 200 OK
      And the body is the same payment

    @A
    Scenario: A payment order without an amount is refused
      When the PISP creates a payment-order consent without an instructed amount
      Then the bank refuses the request with 400

  @PIS-02 @level-MUST @source-spec
  Rule: PIS-02 — The debtor account is optional; when absent, the PSU chooses it during authorisation

    @A
    Scenario: Without a debtor account the PSU chooses one, and the payment carries it
      Given the PISP has created a payment-order consent for 5.00 in the account's currency to a creditor, without a debtor account
      When the PSU authorises the payment choosing their second account as the debtor
      Then the bank asked the PSU to choose the debtor account
      When the PISP reads the payment by its PaymentId
      Then the payment's status is "Authorised"
      And the payment's debtor is the account the PSU chose

    @A
    Scenario: With a debtor account the PSU is not asked for one
      Given the PSU has authorised a payment-order consent for 5.00 in the account's currency to a creditor, from the PSU's first account
      Then the bank did not ask the PSU to choose a debtor account
      When the PISP reads the payment by its PaymentId
      Then the payment's status is "Authorised"

  @PIS-03 @level-MUST @source-spec
  Rule: PIS-03 — The payment and its status can be read

    @A
    Scenario: The status of an authorised payment can be read
      Given the PSU has authorised a payment-order consent for 5.00 in the account's currency to a creditor, from the PSU's first account
      When the PISP reads the status of the payment
      Then the bank answers 200 OK
      And the body is a valid "PaymentStatusResponse"
      And the payment's status is "Authorised"

    @A
    Scenario: The status of a payment awaiting authorisation can be read
      Given the PISP has created a payment-order consent for 5.00 in the account's currency to a creditor, from the PSU's first account
      When the PISP reads the status of the payment
      Then the bank answers 200 OK
      And the payment's status is "AwaitingAuthorisation"

    @A
    Scenario: An unknown payment cannot be read
      When the PISP reads the payment "no-such-payment-0000"
      Then the bank refuses the request with 400, 403 or 404
