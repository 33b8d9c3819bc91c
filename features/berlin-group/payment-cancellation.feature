@pis @dialect-berlin-group
Feature: Payment cancellation (Berlin Group NextGenPSD2)

  DELETE /v1/{payment-service}/{payment-product}/{paymentId} cancels a payment: 204 when the DELETE
  is enough, 202 when the bank wants the PSU to authorise the cancellation, which the TPP then
  starts at …/{paymentId}/cancellation-authorisations (POST; GET lists them, GET
  …/{authorisationId} reads the scaStatus). A payment the bank can no longer cancel answers 405
  CANCELLATION_INVALID: which payments can be cancelled is the bank's to decide, so such a refusal
  leaves the scenario not judged. One payment a scenario, no PSU journey for the payment itself; the
  cancellation's SCA goes by the profile's first approach of redirect, decoupled and embedded (PUT
  …/cancellation-authorisations/{authorisationId}).

  @BG-40 @level-MUST @source-official-schema
  Rule: BG-40 — A payment the TPP cancels reads CANC, unless the bank asks the PSU to authorise the cancellation

    @A
    Scenario: A payment not yet authorised is cancelled
      When the TPP initiates a NextGenPSD2 payment from the PSU's first account
      And the TPP cancels the NextGenPSD2 payment
      Then the cancellation is done (204, the payment then reads CANC) or awaits the PSU's authorisation (a valid 202 with the link to start it)

  @BG-41 @level-MUST @source-official-schema
  Rule: BG-41 — The authorisation of a cancellation is started, listed and read as the standard says, and once the PSU authorised it the payment reads CANC

    @A
    Scenario: The PSU authorises the cancellation of a scheduled payment
      When the TPP initiates a NextGenPSD2 payment from the PSU's first account, due in 7 days
      And the TPP cancels the NextGenPSD2 payment
      Then the bank asks the PSU to authorise the cancellation
      When the TPP starts the authorisation of the cancellation
      Then the bank answers 201 with a valid "startScaprocessResponse"
      And the cancellation's authorisations are listed with it, and its scaStatus read, as the standard says
      When the PSU authorises the cancellation
      Then the NextGenPSD2 payment reads CANC
