@pis @dialect-berlin-group
Feature: Multilevel SCA (Berlin Group NextGenPSD2)

  Some payments need more than one PSU's SCA: a payment from an account two PSUs hold together,
  or a company's account with two signatories. The official file ("Single and multilevel SCA
  Processes") says the payment initiation's answer then carries no scaRedirect or scaOAuth, only
  the link to start an authorisation: the TPP starts one for each PSU (POST
  …/{paymentId}/authorisations with that PSU's PSU-ID). Until every PSU has authorised, the
  payment reads PATC ("needs multiple authentications, where some but not yet all have been
  performed") and is not executed. A consent naming such an account likewise needs both PSUs:
  until the second has authorised it, it reads partiallyAuthorised ("some but not all mandated
  authorisations have been performed yet") and opens no data (the file requires no explicit start
  for a consent: the first PSU's authorisation may be the one the bank started with it). The
  profile's sca.multilevel names such an account of the PSU and the second PSU; without it the rule
  is not applicable. Where its cancellation flag says the bank needs both PSUs to cancel a payment
  from that account, a scheduled payment both authorised is cancelled only once both have
  authorised the cancellation (not applicable without the flag). Each PSU's SCA goes by the
  profile's first approach of redirect, decoupled and embedded (two PSU journeys a scenario, four
  for the cancellation's).

  @SCA-03 @level-MUST @source-official-schema
  Rule: SCA-03 — A payment, consent or cancellation two PSUs must authorise awaits the second (a payment started explicitly for each, PATC and not executed; a consent partiallyAuthorised, opening no data; a cancellation not applied) and moves on once the second has authorised it

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

    @A @ais
    Scenario: Both PSUs authorise a consent to their joint account
      Given a NextGenPSD2 one-off consent to the account whose access needs a second PSU's SCA
      When the first PSU authorises the consent
      Then the consent reads partiallyAuthorised and opens no data
      When the second PSU authorises the consent in an authorisation the TPP starts
      Then the second PSU's authorisation of the consent is finalised, its scaStatus moving only forward through the standard's values
      And the consent reads valid and opens the joint account
      And the consent's authorisations are listed, both PSUs' among them

    @A
    Scenario: Both PSUs authorise the cancellation of a scheduled payment from their joint account
      Given a NextGenPSD2 payment from the joint account, due in 7 days, that both PSUs authorised and whose cancellation needs both
      When the TPP cancels the payment from the joint account
      And the first PSU authorises the cancellation in an authorisation the TPP starts
      Then the payment from the joint account is not cancelled yet
      When the second PSU authorises the cancellation in an authorisation the TPP starts
      Then the second PSU's authorisation of the cancellation is finalised, its scaStatus moving only forward through the standard's values
      And the payment from the joint account reads CANC
      And the cancellation's authorisations are listed, both PSUs' among them
