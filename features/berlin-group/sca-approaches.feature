@bg @dialect-berlin-group
Feature: The decoupled and embedded SCA approaches (Berlin Group NextGenPSD2 only)

  In the decoupled approach the TPP follows the authorisation by its scaStatus while the PSU
  approves in the bank's app; in the embedded approach the TPP carries the PSU's password, the
  chosen SCA method and the one-time password to the authorisation (PUT …/authorisations/{id}).
  Either way the scaStatus (received, psuIdentified, psuAuthenticated, scaMethodSelected, started,
  unconfirmed, then finalised, failed or exempted) is what the TPP knows of the SCA. These rules
  apply to a bank whose sca.approaches offers decoupled or embedded; the profile's first of the two
  is walked.

  @SCA-01 @level-MUST @source-official-schema
  Rule: SCA-01 — The scaStatus of an authorisation takes the standard's values, moves only forward, and a final one stays

    @A @B @recurring-consent
    Scenario: The scaStatus of an authorisation the bank started with the consent
      Given a NextGenPSD2 consent the PSU authorised by the decoupled or embedded SCA approach
      Then the authorisation's scaStatus moved only forward through the standard's values and stayed final

    @A @B @recurring-consent
    Scenario: The scaStatus of an authorisation the TPP started
      Given a NextGenPSD2 consent the PSU authorised by the decoupled or embedded SCA approach, the TPP starting the authorisation
      Then the TPP started the authorisation explicitly
      And the authorisation's scaStatus moved only forward through the standard's values and stayed final
      And the consent's authorisations are listed with the one the TPP started

  @SCA-02 @level-MUST @source-official-schema
  Rule: SCA-02 — An authorisation is finalised only once the PSU has given every factor, and the consent is then authorised

    @A @B @recurring-consent
    Scenario: A finalised authorisation of a consent
      Given a NextGenPSD2 consent the PSU authorised by the decoupled or embedded SCA approach
      Then the authorisation was finalised only after the PSU had given every factor
      And the NextGenPSD2 consent was valid once its authorisation was finalised

    @A @B
    Scenario: An authorisation the PSU does not complete
      Given a NextGenPSD2 consent the PSU rejected by the decoupled or embedded SCA approach
      Then the authorisation's scaStatus ended "failed"
