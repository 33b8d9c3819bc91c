@dcr
Feature: Dynamic client registration
  A TPP onboards itself at the bank (OBIE DCR 3.3, RFC 7591): it sends a registration request, a JWT
  signed with its own key, carrying the software statement assertion its directory issued, the
  token endpoint auth method and its redirect URIs; the bank checks the statement and issues a
  client. Where the bank offers RFC 7592, the registration is read and deleted with the registration
  access token it issued. Judged when the profile has a registration block (not applicable otherwise).

  @DCR-01 @level-MUST @source-standard
  Rule: DCR-01 — A registration without a valid software statement is refused

    @A @B
    Scenario: A registration request without a software statement is refused
      Given a registration with the profile's software statement is accepted
      When the TPP registers with a request that carries no software statement
      Then the bank refuses the registration

    @A @B
    Scenario: A software statement no trusted directory signed is refused
      Given a registration with the profile's software statement is accepted
      When the TPP registers with a software statement it signed itself
      Then the bank refuses the registration

  @DCR-02 @level-MUST @source-standard
  Rule: DCR-02 — A registration with a valid software statement gives a client that works

    @A @B
    Scenario: The registered client obtains a client-credentials token
      When the TPP registers with the profile's software statement
      Then the bank answers 201 Created
      And the registration names the client it issued
      And the registered client can obtain a client-credentials token

    @A @B
    Scenario: The registration is read and deleted with its registration access token, where the bank offers it
      Given the TPP has registered with the profile's software statement
      When the TPP reads the registration with its registration access token
      Then the bank answers 200 OK
      And the registration reads back the client it issued
      When the TPP deletes the registration with its registration access token
      Then the bank answers 204 No Content
      And the deleted client can no longer obtain a client-credentials token

  @DCR-03 @level-MUST @source-standard
  Rule: DCR-03 — Where the bank offers RFC 7592, the registration is updated with its registration access token, and never without it

    @A @B
    Scenario: The registration is updated with the profile's metadata and reads back updated
      Given the TPP has registered with the profile's software statement
      When the TPP updates the registration with its registration access token, as the profile describes the client
      Then the bank answers 200 OK
      And the registration reads back with the redirect URIs and scope of the update

    @A @B
    Scenario: The registration is neither read nor updated without its registration access token
      Given the TPP has registered with the profile's software statement
      When the TPP reads the registration without its registration access token
      Then the bank refuses the registration request
      When the TPP updates the registration without its registration access token
      Then the bank refuses the registration request
