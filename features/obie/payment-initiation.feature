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

  @PIS-04 @level-MUST @source-standard
  Rule: PIS-04 — After the PSU authorised the consent, the PISP submits the payment order; the consent becomes Consumed

    @A
    Scenario: The payment order of an authorised consent is accepted and consumes the consent
      Given the PSU has authorised a fresh payment-order consent for 3.10 in the account's currency to a creditor, from the PSU's first account
      When the PISP submits the payment order with the consent's Initiation and Risk
      Then the bank answers 201 Created
      And the body is a valid "OBWriteDomesticResponse5"
      And the payment order has a DomesticPaymentId and names the consent
      When the PISP reads the payment by its PaymentId
      Then the payment's status is "Consumed"

    @A
    Scenario: The payment order and its status can be read
      Given the PISP has submitted the payment order of a fresh authorised consent for 3.20
      When the PISP reads the payment order
      Then the bank answers 200 OK
      And the body is a valid "OBWriteDomesticResponse5"
      And the body is the same payment order

    @A
    Scenario: The details of the payment order can be read, where the bank offers them
      Given the PISP has submitted the payment order of a fresh authorised consent for 3.30
      When the PISP reads the details of the payment order
      Then the bank answers 200 OK
      And the body is a valid "OBWritePaymentDetailsResponse1"

  @PIS-05 @level-MUST @source-standard
  Rule: PIS-05 — A payment-order consent pays once

    @A
    Scenario: The same payment order sent twice under one idempotency key is one payment order
      Given the PSU has authorised a fresh payment-order consent for 3.40 in the account's currency to a creditor, from the PSU's first account
      When the PISP submits the payment order with the consent's Initiation and Risk with a fresh idempotency key
      And the first submission was accepted
      And the PISP submits the same payment order again with the same idempotency key
      Then both answers carry the same DomesticPaymentId

    @A
    Scenario: A second payment order on a consent already used is refused
      Given the PSU has authorised a fresh payment-order consent for 3.50 in the account's currency to a creditor, from the PSU's first account
      When the PISP submits the payment order with the consent's Initiation and Risk
      And the first submission was accepted
      And the PISP submits the payment order with the consent's Initiation and Risk again, with a new idempotency key
      Then the bank refuses the request with 400 or 403

    @A
    Scenario: A payment order whose Initiation differs from the consent's is refused
      Given the PSU has authorised a fresh payment-order consent for 3.60 in the account's currency to a creditor, from the PSU's first account
      When the PISP submits the payment order with a different instructed amount
      Then the bank refuses the request with 400 or 403

    @A
    Scenario: A payment order for a consent the PSU rejected is refused
      Given the PISP has created a payment-order consent for 3.70 in the account's currency to a creditor, from the PSU's first account
      When the PSU rejects the payment
      And the PISP submits the payment order for the rejected consent
      Then the bank refuses the request with 400, 401 or 403

  @PIS-06 @level-MUST @source-standard
  Rule: PIS-06 — The funds check of a payment-order consent answers for an authorised consent only

    @A
    Scenario: The funds check of an authorised payment consent says whether funds are available
      Given the PSU has authorised a payment-order consent for 5.00 in the account's currency to a creditor, from the PSU's first account
      When the PISP checks the funds of the payment consent with the PSU's token
      Then the bank answers 200 OK
      And the body is a valid "OBWriteFundsConfirmationResponse1"
      And the answer says whether funds are available

    @A
    Scenario: A payment consent awaiting authorisation gets no funds check
      Given the PISP has created a payment-order consent for 5.00 in the account's currency to a creditor, from the PSU's first account
      When the PISP checks the funds of the payment consent with its client-credentials token
      Then the bank refuses the request with 400, 401 or 403
