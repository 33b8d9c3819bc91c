@bg @dialect-berlin-group
Feature: Consent and payment lifecycle (Berlin Group NextGenPSD2 only)

  Rules NextGenPSD2 makes and UK Open Banking has no words for: the consent's statuses (received,
  valid, rejected, terminatedByTpp), recurringIndicator and frequencyPerDay, validUntil, the
  binding of Consent-ID to the PSU's authorisation, and a payment's ISO 20022 transaction status
  through its life.

  @BG-01 @level-MUST @source-official-schema
  Rule: BG-01 — A consent becomes valid once the PSU has authorised it: its status and the consent read back agree

    @A @B @recurring-consent
    Scenario: The status of an authorised consent is valid
      Given a NextGenPSD2 consent the PSU authorised for all of their accounts
      When the TPP reads the NextGenPSD2 consent's status
      Then the NextGenPSD2 consent's status is "valid"
      When the TPP reads the NextGenPSD2 consent
      Then the NextGenPSD2 consent reads back with status "valid"

  @BG-02 @level-MUST @source-official-schema
  Rule: BG-02 — A consent the PSU rejects is rejected

    @A @B
    Scenario: The status of a rejected consent is rejected
      Given a NextGenPSD2 consent the PSU rejected
      When the TPP reads the NextGenPSD2 consent's status
      Then the NextGenPSD2 consent's status is "rejected"

  @BG-03 @level-MUST @source-official-schema
  Rule: BG-03 — A consent the TPP deletes is terminatedByTpp

    @A @B @recurring-consent
    Scenario: The status of a deleted consent is terminatedByTpp
      Given a NextGenPSD2 consent the PSU authorised for all of their accounts
      When the TPP deletes the NextGenPSD2 consent
      And the TPP reads the NextGenPSD2 consent's status
      Then the NextGenPSD2 consent's status is "terminatedByTpp"

  @BG-04 @level-MUST @source-official-schema
  Rule: BG-04 — The consent reads back with the recurringIndicator and frequencyPerDay asked

    @A @B
    Scenario: A one-off consent reads back as one-off, once a day
      Given a one-off NextGenPSD2 consent the PSU authorised
      When the TPP reads the NextGenPSD2 consent
      Then the NextGenPSD2 consent reads back with recurringIndicator false and frequencyPerDay 1

  @BG-05 @level-SHOULD @source-official-schema
  Rule: BG-05 — The bank holds the TPP to frequencyPerDay for accesses without the PSU (429 ACCESS_EXCEEDED)

    @A @B
    Scenario: A one-off consent gives one access a day without the PSU
      Given a one-off NextGenPSD2 consent the PSU authorised
      When the TPP lists the accounts under the NextGenPSD2 consent twice without the PSU
      Then the bank should refuse the second access with 429 ACCESS_EXCEEDED

  @BG-06 @level-MUST @source-official-schema
  Rule: BG-06 — validUntil reads back as asked, or earlier where the bank shortened it

    @A @B @recurring-consent
    Scenario: The consent reads back with the validUntil asked
      Given a NextGenPSD2 consent the PSU authorised for all of their accounts
      When the TPP reads the NextGenPSD2 consent
      Then the NextGenPSD2 consent reads back with a validUntil no later than the one asked

  @BG-07 @level-MUST @source-official-schema
  Rule: BG-07 — Data calls are answered only under the consent named in Consent-ID, with the PSU's authorisation for that consent

    @A @B
    Scenario: A Consent-ID the bank never issued is refused
      When the TPP lists the accounts under a Consent-ID the bank never issued
      Then the bank refuses the NextGenPSD2 request with 400, 401, 403 or 404

    @A @B @recurring-consent
    Scenario: The token of one consent does not open another consent's accounts
      Given two NextGenPSD2 consents the PSU authorised through the bank's OAuth2 SCA
      When the TPP lists the accounts under the second consent with the first consent's token
      Then the bank refuses the NextGenPSD2 request with 401 or 403

  @BG-08 @level-MUST @source-official-schema
  Rule: BG-08 — A payment's transaction status follows its life: received at initiation, accepted after the PSU's SCA, RJCT when the PSU rejects it

    @A
    Scenario: A payment is received, then accepted once the PSU authorised it
      When the TPP initiates a NextGenPSD2 payment from the PSU's first account
      Then the NextGenPSD2 payment's transaction status is not yet final
      When the PSU authorises the NextGenPSD2 payment
      And the TPP reads the NextGenPSD2 payment
      Then the NextGenPSD2 payment's transaction status is an accepted one

    @A
    Scenario: A payment the PSU rejects is RJCT
      When the TPP initiates a NextGenPSD2 payment from the PSU's first account
      And the PSU rejects the NextGenPSD2 payment
      And the TPP reads the NextGenPSD2 payment
      Then the NextGenPSD2 payment's transaction status is "RJCT"

  @BG-20 @level-MUST @source-official-schema
  Rule: BG-20 — Once the PSU authorises a new recurring consent, the former recurring consent expires

    @A @B @recurring-consent
    Scenario: The former recurring consent reads expired and opens no account
      Given a NextGenPSD2 consent the PSU authorised for all of their accounts
      And a second recurring NextGenPSD2 consent the PSU authorised for all of their accounts
      When the TPP reads the former NextGenPSD2 consent's status
      Then the NextGenPSD2 consent's status is "expired"
      When the TPP lists the accounts under the former NextGenPSD2 consent
      Then the bank refuses the NextGenPSD2 request with 401 or 403
      When the TPP lists the accounts under the NextGenPSD2 consent
      Then the bank answers the NextGenPSD2 request with 200
