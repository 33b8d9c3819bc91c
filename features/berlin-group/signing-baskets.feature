@pis @dialect-berlin-group
Feature: Signing baskets (Berlin Group NextGenPSD2)

  POST /v1/signing-baskets names consents and payments the PSU has not authorised yet; one SCA of
  the basket authorises them all. GET /v1/signing-baskets/{basketId} reads the basket back (its
  `consents` and `payments`), …/status its transactionStatus (transactionStatus_SBS); DELETE removes
  it only while no authorisation has been applied. A bank without signing baskets (its profile's
  `implements` without createSigningBasket) is not judged here; nor is a bank that does not take a
  consent and a payment in one basket (400 REFERENCE_MIX_INVALID: which mix it takes is its own).
  obtpp walks the basket's SCA by the profile's first approach of redirect, decoupled and embedded
  (PUT …/authorisations/{authorisationId}), one PSU journey.

  @BG-60 @level-MUST @source-official-schema
  Rule: BG-60 — One SCA of a signing basket authorises every consent and payment in it; the basket reads as the standard says, refuses members unknown or already authorised, and is deleted only before its authorisation

    @A
    Scenario: One SCA of a basket authorises the consent and the payment in it
      Given a NextGenPSD2 consent and a NextGenPSD2 payment the PSU has not authorised yet
      When the TPP puts the consent and the payment in a signing basket, preferring to start its authorisation itself
      Then the bank creates the signing basket: 201 with a valid "signingBasketResponse-201" and a way to start the PSU's SCA
      And the signing basket reads back with the consent and the payment
      When the PSU authorises the signing basket
      Then the signing basket's authorisations are listed with the one the PSU authorised
      And the signing basket reads an authorised transactionStatus
      And the consent in the basket reads "valid" and the payment in it is authorised
      And the authorised signing basket can no longer be deleted
      And a new signing basket naming the authorised payment is refused

    @A
    Scenario: A basket naming a payment the bank never made is refused; a basket not yet authorised is deleted
      Given a NextGenPSD2 payment the PSU has not authorised yet
      When the TPP puts the payment and a payment the bank never made in a signing basket
      Then the bank refuses the signing basket with a NextGenPSD2 error
      When the TPP puts the payment alone in a signing basket
      And the TPP deletes the signing basket
      Then the signing basket is gone and the payment in it still reads RCVD
