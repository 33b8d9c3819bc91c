@pis @dialect-berlin-group
Feature: Multilevel SCA (Berlin Group NextGenPSD2)

  Some payments need more than one PSU's SCA: a payment from an account two PSUs hold together,
  or a company's account with two signatories. The official file ("Single and multilevel SCA
  Processes") says the payment initiation's answer then carries no scaRedirect or scaOAuth, only
  the link to start an authorisation: the TPP starts one for each PSU (POST
  …/{paymentId}/authorisations with that PSU's PSU-ID). Until every PSU has authorised, the
  payment reads PATC ("needs multiple authentications, where some but not yet all have been
  performed") and is not executed. The profile's sca.multilevel names such an account of the PSU
  and the second PSU; without it the rule is not applicable. Each PSU's SCA goes by the profile's
  first approach of redirect, decoupled and embedded (two PSU journeys).

  @SCA-03 @level-MUST @source-official-schema
  Rule: SCA-03 — A payment two PSUs must authorise is started explicitly for each, reads PATC and is not executed after the first, and moves on once the second has authorised it

    @A
    Scenario: Both PSUs authorise a payment from their joint account
      Given a NextGenPSD2 payment from the account whose payments need a second PSU's SCA
      Then the bank leaves the start of each PSU's authorisation to the TPP
      When the first PSU authorises the payment in an authorisation the TPP starts
      Then the payment reads PATC, not executed
      When the second PSU authorises the payment in an authorisation the TPP starts
      Then the second PSU's authorisation is finalised, its scaStatus moving only forward through the standard's values
      And the payment has moved on from PATC to an accepted status
      And the payment's authorisations are listed, both PSUs' among them
