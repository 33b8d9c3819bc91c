@security @dialect-berlin-group
Feature: Security and the standard's plumbing (Berlin Group NextGenPSD2)

  @SEC-04 @level-MUST @source-spec
  Rule: SEC-04 — A consent the PSU rejects gives no access

    @A @B
    Scenario: A rejected consent opens no account
      Given a NextGenPSD2 consent the PSU rejected
      When the TPP lists the accounts under the NextGenPSD2 consent
      Then the bank refuses the NextGenPSD2 request with 401 or 403

  @SEC-05 @level-MUST @source-standard
  Rule: SEC-05 — Status codes of the standard: 201 for a create, 200 for a read, 204 for a delete

    @A @B
    Scenario: Creating, reading and deleting a consent answer 201, 200 and 204
      When the TPP asks for a NextGenPSD2 consent to the PSU's accounts, balances and transactions
      Then the bank answers the NextGenPSD2 request with 201
      When the TPP reads the NextGenPSD2 consent
      Then the bank answers the NextGenPSD2 request with 200
      When the TPP deletes the NextGenPSD2 consent
      Then the bank answers the NextGenPSD2 request with 204

  @SEC-06 @level-MUST @source-official-schema
  Rule: SEC-06 — Error responses carry the standard's error body

    @A @B
    Scenario: A malformed consent gets tppMessages
      When the TPP asks for a NextGenPSD2 consent without access
      Then the bank refuses the NextGenPSD2 request with 400
      And the refusal carries the standard's error body

    @A @B
    Scenario: A TPP that accepts application/problem+json gets either error shape
      When the TPP asks for a NextGenPSD2 consent without access, accepting application/problem+json
      Then the bank refuses the NextGenPSD2 request with 400
      And the refusal carries the standard's error body

  @SEC-07 @level-MUST @source-official-schema
  Rule: SEC-07 — Every response carries the X-Request-ID of its request

    @A @B
    Scenario: The X-Request-ID comes back on a create
      When the TPP asks for a NextGenPSD2 consent to the PSU's accounts, balances and transactions
      Then the answer carries the request's X-Request-ID

    @A @B
    Scenario: The X-Request-ID comes back on an error too
      When the TPP asks for a NextGenPSD2 consent without access
      Then the answer carries the request's X-Request-ID
