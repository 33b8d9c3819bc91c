@pis @dialect-berlin-group
Feature: Payment initiation and confirmation of funds (Berlin Group NextGenPSD2)

  POST /v1/payments/{payment-product} with its SCA, GET of the payment and its /status, and
  POST /v1/funds-confirmations (PIIS, consent out of band).

  @PIS-01 @level-MUST @source-spec
  Rule: PIS-01 — Initiating the payment returns a paymentId usable in the path

    @A
    Scenario: The payment is initiated and can be read by its paymentId
      When the TPP initiates a NextGenPSD2 payment from the PSU's first account
      Then the bank answers 201 with a valid "paymentInitiationRequestResponse-201"
      And the answer's ASPSP-SCA-Approach header, where given, names one of the standard's SCA approaches
      And the answer gives a way to start the PSU's SCA of the payment
      When the TPP reads the NextGenPSD2 payment
      Then the bank answers 200 with a valid "paymentInitiationWithStatusResponse"

    @A
    Scenario: A payment without an amount is refused
      When the TPP initiates a NextGenPSD2 payment without instructedAmount
      Then the bank refuses the NextGenPSD2 request with 400

  @PIS-03 @level-MUST @source-spec
  Rule: PIS-03 — The payment and its status can be read

    @A
    Scenario: The status of a payment is an ISO 20022 code
      When the TPP initiates a NextGenPSD2 payment from the PSU's first account
      And the TPP reads the NextGenPSD2 payment's status
      Then the bank answers 200 with a valid "paymentInitiationStatusResponse-200_json"
      And the NextGenPSD2 payment's transaction status is an ISO 20022 code

    @A
    Scenario: An unknown payment cannot be read
      When the TPP reads a NextGenPSD2 payment the bank never created
      Then the bank refuses the NextGenPSD2 request with 400, 403 or 404

  @COF-04 @level-MUST @source-spec
  Rule: COF-04 — The answer is only whether funds are available, never a balance

    @A @B
    Scenario: The answer discloses no balance
      Given the PSU's full NextGenPSD2 consent
      When the TPP asks whether the PSU's first account holds 0.01
      Then the bank answers 200 with a valid "fundsConfirmationResponse200"
      And the funds-confirmation answer holds fundsAvailable alone

  @COF-05 @level-MUST @source-spec
  Rule: COF-05 — The answer is true exactly when the account holds the amount

    @A @B
    Scenario: An amount the account covers is available, one it does not cover is not
      Given the PSU's full NextGenPSD2 consent
      When the TPP asks whether the PSU's first account holds 0.01
      Then the funds-confirmation answer says fundsAvailable true
      When the TPP asks whether the PSU's first account holds 99999999999.00
      Then the funds-confirmation answer says fundsAvailable false
