@pis @vrp @uk-3.1 @uk-4.0
Feature: Variable Recurring Payments
  A PISP sets up a domestic VRP consent once: its control parameters bound every payment (the
  maximum individual amount, the periodic limits, the validity window, the VRP type and the
  authentication method). The PSU authorises it at the bank once; then the PISP pays many times
  without the PSU, each payment signed both ways. UK Read/Write v3.1.11 (the VRP file, below
  /pisp), and v4.0 (the same rules, judged in v4.0's code values); judged with `standard: uk-3.1` or `uk-4.0`.
  Each FCS test has a scenario of its own, judging that test's call only; the consents, payments and
  the deletion they share are made once for the run, in the order the scenarios are written. The
  v3.1 suite's OB-301-VRP-100100, -100600 and -100700 run only below v3.1.11 (their -100101, -100601
  and -100701 twins are v3.1.11's): not applicable to a bank at v3.1.11.

  @VRP-01 @level-MUST @source-standard
  Rule: VRP-01 — A VRP consent is created with its control parameters, awaits authorisation and reads back unchanged

    @A @fcs:OB-301-VRP-100101 @fcs:OB-400-VRP-100100
    Scenario: The bank creates the VRP consent awaiting authorisation
      When the PISP creates a VRP consent with at most 5.00 per payment and 20.00 per day
      Then the bank answers 201 Created
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is a valid "OBDomesticVRPConsentResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And the payment consent has a ConsentId and the status "AwaitingAuthorisation"

    @A
    Scenario: The bank echoes the VRP consent's control parameters, and reads them back unchanged
      When the PISP creates a VRP consent with at most 5.00 per payment and 20.00 per day
      Then the bank answers 201 Created
      And the VRP consent's control parameters are exactly those requested
      When the PISP reads the VRP consent
      Then the bank answers 200 OK
      And the body is a valid "OBDomesticVRPConsentResponse"
      And the VRP consent's control parameters are exactly those requested

    @A
    Scenario: A VRP consent without periodic limits is refused
      When the PISP creates a VRP consent without periodic limits
      Then the bank refuses the request with 400

    @A
    Scenario: A VRP consent without control parameters is refused
      When the PISP creates a VRP consent without control parameters
      Then the bank refuses the request with 400

  @VRP-02 @level-MUST @source-standard
  Rule: VRP-02 — An authorised VRP consent pays many times without the PSU, and stays authorised

    @A @fcs:OB-301-VRP-100601 @fcs:OB-400-VRP-100600
    Scenario: The first payment under the authorised VRP consent is accepted
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP makes the first payment of 2.00 under the VRP consent
      Then the bank answers 201 Created
      And the body is a valid "OBDomesticVRPResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A @fcs:OB-301-VRP-10670 @fcs:OB-400-VRP-10170
    Scenario: The first VRP payment reads back
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      And the first payment of 2.00 under the VRP consent was accepted
      When the PISP reads the last VRP payment
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the answer comes as application/json
      And the body is a valid "OBDomesticVRPResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A @fcs:OB-301-VRP-100701 @fcs:OB-400-VRP-100700
    Scenario: A second payment under the same VRP consent is accepted
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP makes the second payment of 2.00 under the VRP consent
      Then the bank answers 201 Created
      And the body is a valid "OBDomesticVRPResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A @fcs:OB-301-VRP-101100 @fcs:OB-400-VRP-101100
    Scenario: The second VRP payment reads back
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      And the second payment of 2.00 under the VRP consent was accepted
      When the PISP reads the last VRP payment
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the answer comes as application/json
      And the body is a valid "OBDomesticVRPResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A @fcs:OB-301-VRP-101200 @fcs:OB-400-VRP-101200
    Scenario: The second VRP payment's details read back
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      And the second payment of 2.00 under the VRP consent was accepted
      When the PISP reads the details of the last VRP payment
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the answer comes as application/json
      And the body is a valid "OBDomesticVRPDetails"
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A @fcs:OB-301-VRP-100610 @fcs:OB-400-VRP-100610
    Scenario: The VRP consent still reads back Authorised after its payments
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      And the second payment of 2.00 under the VRP consent was accepted
      When the PISP reads the VRP consent
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the answer comes as application/json
      And the body is a valid "OBDomesticVRPConsentResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And the VRP consent's status is "Authorised"

    @A
    Scenario: The two payments under one consent are two payments
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      And the first payment of 2.00 under the VRP consent was accepted
      And the second payment of 2.00 under the VRP consent was accepted
      Then the two VRP payments are distinct

  @VRP-03 @level-MUST @source-standard
  Rule: VRP-03 — A payment above the maximum individual amount is refused

    @A
    Scenario: A payment above MaximumIndividualAmount is refused for failing the control parameters
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP pays 6.00 under the VRP consent
      Then the bank refuses the payment for failing the control parameters

  @VRP-04 @level-MUST @source-standard
  Rule: VRP-04 — The payments of a period stay within the consent's periodic limits

    @A
    Scenario: The payment that would pass the daily limit is refused
      Given the PSU has authorised the VRP consent "daily limit" with at most 5.00 per payment and 8.00 per day
      When the PISP pays 5.00 under the VRP consent
      Then the bank answers 201 Created
      When the PISP pays 4.00 under the VRP consent
      Then the bank refuses the payment for failing the control parameters

  @VRP-05 @level-MUST @source-standard
  Rule: VRP-05 — No payment outside the consent's validity window

    @A
    Scenario: A payment before ValidFromDateTime is refused
      Given the PSU has authorised a VRP consent valid only from tomorrow, with at most 5.00 per payment and 100.00 per day
      When the PISP pays 1.00 under the VRP consent
      Then the bank refuses the payment for failing the control parameters

    # The consent is made valid for a few seconds, ahead of the scenario: by the time the scenario
    # comes, its ValidToDateTime has passed (else it waits for it).
    @A
    Scenario: A payment after ValidToDateTime is refused
      Given the PSU has authorised a VRP consent valid for a few seconds only, and the PISP has paid 1.00 under it while it was valid
      When the PISP pays 1.00 under the VRP consent once its ValidToDateTime has passed
      Then the bank refuses the payment for failing the control parameters

  @VRP-06 @level-MUST @source-standard
  Rule: VRP-06 — A VRP consent the PISP deleted pays no more

    @A @fcs:OB-301-VRP-102100 @fcs:OB-400-VRP-102100
    Scenario: The PISP deletes the VRP consent
      Given the PSU has authorised the VRP consent "to revoke" with at most 5.00 per payment and 100.00 per day
      When the PISP deletes the VRP consent after a first payment under it
      Then the bank answers 204 No Content
      And the response carries the x-fapi-interaction-id the TPP sent

    @A @fcs:OB-301-VRP-102150 @fcs:OB-400-VRP-102150
    Scenario: A deleted VRP consent can no longer be read
      Given the PSU has authorised the VRP consent "to revoke" with at most 5.00 per payment and 100.00 per day
      And the PISP has deleted the VRP consent after a first payment under it
      When the PISP reads the VRP consent
      Then the bank refuses the request with 400
      And the body is a valid "OBErrorResponse1"

    @A @fcs:OB-301-VRP-102200 @fcs:OB-400-VRP-102200
    Scenario: A deleted VRP consent deleted again is refused, or the delete is a no-op
      Given the PSU has authorised the VRP consent "to revoke" with at most 5.00 per payment and 100.00 per day
      And the PISP has deleted the VRP consent after a first payment under it
      When the PISP deletes the VRP consent
      Then the bank answers 400 or 204
      And the body of the answer, whatever its status, is valid against the standard's schema for that status

    @A
    Scenario: A deleted VRP consent pays no more and confirms no funds
      Given the PSU has authorised the VRP consent "to revoke" with at most 5.00 per payment and 100.00 per day
      And the PISP has deleted the VRP consent after a first payment under it
      Then the payment made before the deletion was accepted
      When the PISP pays 1.00 under the VRP consent
      Then the bank refuses the request with 400, 401 or 403
      When the PISP confirms funds of 1.00 under the VRP consent
      Then the bank refuses the request with 400, 401 or 403

  @VRP-07 @level-MUST @source-standard
  Rule: VRP-07 — The funds check of a VRP consent answers Available or NotAvailable

    @A @fcs:OB-301-VRP-100650 @fcs:OB-400-VRP-100650
    Scenario: The funds check of an authorised VRP consent answers
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP confirms funds of 1.00 under the VRP consent
      Then the bank answers 201 Created
      And the body is a valid "OBVRPFundsConfirmationResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A
    Scenario: The funds check answers with the VRP code, not a boolean
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP confirms funds of 1.00 under the VRP consent
      Then the bank answers 201 Created
      And the funds check answers "Available"
      When the PISP confirms funds of 9999999.00 under the VRP consent
      Then the bank answers 201 Created
      And the funds check answers "NotAvailable"

    # The answer is "the availability of funds given the Amount in the request" (the VRP file's
    # FundsAvailableResult), never a balance (the spec's rule for every funds check).
    @A
    Scenario: The funds check says only whether the amount is available, and discloses no balance
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP confirms funds of 1.00 under the VRP consent
      Then the funds check answers only whether the amount is available, and discloses no balance

  @VRP-08 @level-MUST @source-standard
  Rule: VRP-08 — A VRP payment request without a valid x-jws-signature is refused

    @A
    Scenario: An unsigned VRP payment is refused
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP pays 1.00 under the VRP consent without an x-jws-signature
      Then the bank refuses the request with 400, 401 or 403

    @A
    Scenario: A VRP payment whose signature covers another body is refused
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP pays 1.00 under the VRP consent with an x-jws-signature over another body
      Then the bank refuses the request with 400, 401 or 403

  @VRP-09 @level-MUST @source-standard
  Rule: VRP-09 — A VRP payment repeated with the same x-idempotency-key is the same payment

    @A
    Scenario: The same payment request twice under one key gives one payment
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP pays 1.50 under the VRP consent with a fresh idempotency key
      And the PISP sends the same VRP payment again with the same idempotency key
      Then both VRP answers name the same payment

  @VRP-10 @level-MUST @source-standard
  Rule: VRP-10 — A VRP payment carries the consent's Initiation and Risk unchanged

    @A
    Scenario: A payment whose Initiation differs from the consent's is refused
      Given the PSU has authorised the VRP consent "everyday" with at most 5.00 per payment and 100.00 per day
      When the PISP pays 1.00 under the VRP consent to another creditor than the consent's
      Then the bank refuses the request with 400 or 403

  @VRP-11 @level-MUST @source-official-schema
  Rule: VRP-11 — UK v4.0: a VRP consent updated by PUT or PATCH (which the file reserves for migrating a consent between versions) answers 200 with that same consent, as updated, valid and signed

    # v3.1.11 has no such update: at uk-3.1 this scenario is not applicable.
    @A
    Scenario: The VRP consent's request is put again in v4.0's shape, then its remittance is patched
      When the PISP creates a VRP consent with at most 5.00 per payment and 20.00 per day
      Then the bank answers 201 Created
      When the PISP updates the VRP consent by PUT with its request in this version's shape
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is a valid "OBDomesticVRPConsentResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And the answer is the same VRP consent
      And the VRP consent's status is "AwaitingAuthorisation"
      And the VRP consent's control parameters are exactly those requested
      And the VRP consent's Initiation is the one sent
      When the PISP patches the VRP consent's remittance information by JSON Patch
      Then the bank answers 200 OK
      And the body is a valid "OBDomesticVRPConsentResponse"
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And the answer is the same VRP consent
      And the VRP consent's control parameters are exactly those requested
      And the VRP consent's Initiation is the one sent
