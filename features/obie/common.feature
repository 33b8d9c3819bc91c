@security
Feature: What every function shares: authorisation binding, tokens and grants, headers and errors
  Every function follows one flow: the TPP creates a consent and gets its intent id; it redirects the
  PSU to the bank with that id; the bank authenticates the PSU on its own pages; the PSU authorises
  or rejects; the PSU comes back to the TPP, which then uses the consent. These rules hold for all of
  it, and so do the standard's status codes, error body and interaction id.

  @SEC-01 @level-MUST @source-spec
  Rule: SEC-01 — The redirect carries the intent id and the bank binds the authorisation to that consent

    @A @B @oidf @oidf:fapi1-advanced-final-refresh-token @oidf:fapi2-security-profile-final-refresh-token
    Scenario: The authorisation is bound to the consent named in the redirect, not to another
      Given the AISP has created a consent "named" with permissions "ReadAccountsBasic, ReadBalances"
      And the AISP has then created a consent "later" with permissions "ReadAccountsBasic"
      When the PSU authorises the consent "named" with all accounts selected
      Then the ID token names the consent "named" in openbanking_intent_id
      And with that token the AISP can read the balances of the first account
      And a token refreshed from that authorisation, if the bank issues refresh tokens, still reads the balances of the first account

  @SEC-02 @level-MUST @source-spec
  Rule: SEC-02 — The TPP never handles the PSU's credentials

    @A @B
    Scenario: The PSU logs in on the bank's own pages
      Given the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      Then the PSU typed their credentials only on a page of the bank's authorisation server
      And that page was served over HTTPS, or from the local machine

  @SEC-03 @level-MUST @source-spec
  Rule: SEC-03 — Consent resources are created only by an authenticated TPP

    @A @B
    Scenario: A consent request without a token is refused
      When the AISP creates an account-access consent without an access token
      Then the bank refuses the request with 401

    @A @B
    Scenario: A consent request with a forged token is refused
      When the AISP creates an account-access consent with the token "forged-token-0000"
      Then the bank refuses the request with 401

  @SEC-04 @level-MUST @source-spec
  Rule: SEC-04 — A consent the PSU rejects yields no authorisation code and no token

    @A @B @oidf @oidf:fapi1-advanced-final-user-rejects-authentication @oidf:fapi2-security-profile-final-user-rejects-authentication
    Scenario: The PSU rejects an account-access consent
      Given the AISP has created a consent "refused" with permissions "ReadAccountsBasic"
      When the PSU rejects the consent "refused"
      Then the PSU comes back to the TPP with the error "access_denied" and no authorisation code

    @A
    Scenario: A rejected payment stays rejected
      Given the PISP has created a payment-order consent for 5.00 in the account's currency to a creditor, from the PSU's first account
      When the PSU rejects the payment
      Then the PSU comes back to the TPP with the error "access_denied" and no authorisation code
      When the PISP reads the payment by its PaymentId
      Then the payment's status is "Rejected"

  @SEC-05 @level-MUST @source-standard
  Rule: SEC-05 — Status codes of the standard: 201 for a create, 200 for a read, 204 for a delete

    @A @B
    Scenario: Creating an account-access consent answers 201
      When the AISP creates an account-access consent with every permission of the accounts, balances and transactions clusters, expiring in 30 days, for the transactions of the last 180 days
      Then the bank answers 201 Created

    @A @B
    Scenario: Creating a funds-confirmation consent answers 201
      When the CBPII creates a funds-confirmation consent for the PSU's first account, expiring in 30 days
      Then the bank answers 201 Created

    @A
    Scenario: Creating a payment-order consent answers 201
      When the PISP creates a payment-order consent for 10.50 in the account's currency to a creditor, from the PSU's first account
      Then the bank answers 201 Created

  @SEC-06 @level-MUST @source-official-schema
  Rule: SEC-06 — Error responses carry the standard's error body

    @A @B
    Scenario: A malformed consent gets an OBErrorResponse1
      When the AISP creates an account-access consent without permissions
      Then the bank refuses the request with 400
      And the body is a valid "OBErrorResponse1"

    @A @B
    Scenario: A funds-confirmation consent without debtor account gets an OBErrorResponse1
      When the CBPII creates a funds-confirmation consent without a debtor account
      Then the bank refuses the request with 400
      And the body is a valid "OBErrorResponse1"

  @SEC-07 @level-MUST @source-standard
  Rule: SEC-07 — Every response carries x-fapi-interaction-id: the TPP's echoed, or the bank's own

    @A @B
    Scenario: The interaction id the TPP sends comes back
      When the AISP creates an account-access consent with every permission of the accounts, balances and transactions clusters, expiring in 30 days, for the transactions of the last 180 days
      Then the response carries the x-fapi-interaction-id the TPP sent

    @A @B
    Scenario: The interaction id comes back on an error too
      When the AISP creates an account-access consent without permissions
      Then the response carries the x-fapi-interaction-id the TPP sent

    @A @B
    Scenario: Without an interaction id the bank gives its own
      When the AISP creates an account-access consent without an x-fapi-interaction-id
      Then the response carries an x-fapi-interaction-id that is a UUID

  @SEC-08 @level-MUST @source-standard
  Rule: SEC-08 — A create repeated with the same x-idempotency-key returns the same resource

    @A
    Scenario: The same payment order sent twice with one key is created once
      When the PISP creates a payment-order consent for 7.25 in the account's currency to a creditor, from the PSU's first account, with a fresh idempotency key
      And the PISP sends the same request again with the same idempotency key
      Then the bank answers 201 Created
      And both answers carry the same PaymentId

  @SEC-09 @level-MUST @source-standard
  Rule: SEC-09 — The bank signs its payment-initiation answers with x-jws-signature

    @A
    Scenario: The answer to a new payment-order consent is signed with a key of the bank's JWKS
      Given the profile signs payment messages
      When the PISP creates a payment-order consent for 4.10 in the account's currency to a creditor, from the PSU's first account
      Then the bank answers 201 Created
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A
    Scenario: The payment read back is signed too
      Given the profile signs payment messages
      And the PISP has created a payment-order consent for 4.20 in the account's currency to a creditor, from the PSU's first account
      When the PISP reads the payment by its PaymentId
      Then the bank answers 200 OK
      And the answer carries an x-jws-signature that verifies with the bank's keys

  @SEC-10 @level-MUST @source-standard
  Rule: SEC-10 — A payment request without a valid x-jws-signature is refused

    @A
    Scenario: A payment request without a signature is refused
      Given the profile signs payment messages
      When the PISP creates a payment-order consent for 4.30 in the account's currency to a creditor, from the PSU's first account, without an x-jws-signature
      Then the bank refuses the request with 400

    @A
    Scenario: A payment request whose signature covers another body is refused
      Given the profile signs payment messages
      When the PISP creates a payment-order consent for 4.40 in the account's currency to a creditor, from the PSU's first account, with an x-jws-signature over another body
      Then the bank refuses the request with 400

    @A
    Scenario: A payment request signed with a key the TPP never registered is refused
      Given the profile signs payment messages
      When the PISP creates a payment-order consent for 4.50 in the account's currency to a creditor, from the PSU's first account, with an x-jws-signature made with a key the TPP never registered
      Then the bank refuses the request with 400
  @SEC-11 @level-MUST @source-standard
  Rule: SEC-11 — The bank refuses a bad request object in the authorisation request (FAPI, as UK banks enforce it)

    @A @B @oidf
    Scenario Outline: A request object <defect> is refused
      Given the AISP has created a consent "<name>" with permissions "ReadAccountsBasic"
      When the TPP sends the PSU to the bank for the consent "<name>" with a request object <defect>
      Then the bank refuses the authorisation request with an OAuth error, without showing a login page

      @oidf:fapi1-advanced-final-ensure-request-object-signature-algorithm-is-not-none @oidf:fapi2-security-profile-final-ensure-request-object-signature-algorithm-is-not-none
      Examples: unsigned
        | defect                  | name        |
        | unsigned (alg none)     | unsigned    |

      @oidf:fapi1-advanced-final-ensure-request-object-without-exp-fails @oidf:fapi2-security-profile-final-ensure-request-object-without-exp-fails
      Examples: without exp
        | defect                  | name        |
        | without exp             | no exp      |

      @oidf:fapi1-advanced-final-ensure-expired-request-object-fails @oidf:fapi2-security-profile-final-ensure-expired-request-object-fails
      Examples: expired
        | defect                  | name        |
        | with an exp in the past | expired exp |

    @A @B
    Scenario: A request object naming a consent the PSU already authorised is refused
      Given the AISP has created a consent "probe" with permissions "ReadAccountsBasic"
      And a well-formed request object for the consent "probe" is not refused
      And the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the TPP sends the PSU to the bank with a well-formed request object naming the "full" consent, which the PSU already authorised
      Then the bank refuses the authorisation request with an OAuth error, without showing a login page

  @SEC-12 @level-MUST @source-standard
  Rule: SEC-12 — Where the bank offers pushed authorization requests, it refuses one without client authentication (RFC 9126)

    @A @B
    Scenario: A pushed authorization request that carries only a client_id is refused
      Given the AISP has created a consent "pushed" with permissions "ReadAccountsBasic"
      And the bank accepts a pushed authorization request for the consent "pushed" from the authenticated TPP
      When the TPP pushes an authorization request for the consent "pushed" without client authentication
      Then the bank refuses the pushed authorization request

  @SEC-13 @level-MUST @source-standard
  Rule: SEC-13 — Where the bank requires PKCE, an authorisation request without it is refused, and the plain method too

    @A @B @oidf @oidf:fapi1-advanced-final-par-ensure-pkce-required @oidf:fapi2-security-profile-final-par-ensure-pkce-required
    Scenario: An authorisation request without a code_challenge is refused
      Given the AISP has created a consent "no pkce" with permissions "ReadAccountsBasic"
      And the bank requires PKCE
      When the TPP sends the PSU to the bank for the consent "no pkce" without a code_challenge
      Then the bank refuses the authorisation request, or the token request without a code_verifier

    @A @B @oidf @oidf:fapi1-advanced-final-par-ensure-plain-pkce-rejected @oidf:fapi2-security-profile-final-par-ensure-plain-pkce-rejected
    Scenario: An authorisation request with the plain code_challenge_method is refused
      Given the AISP has created a consent "plain pkce" with permissions "ReadAccountsBasic"
      And the bank requires PKCE
      When the TPP sends the PSU to the bank for the consent "plain pkce" with the plain code_challenge_method
      Then the bank refuses the plain method, as FAPI asks

  @SEC-14 @level-MUST @source-standard
  Rule: SEC-14 — The authorization response comes back protected as the bank's security profile says, and is checked before the code is used

    @A @B
    Scenario: The PSU's authorisation comes back protected as the bank's security profile says
      Given the bank's authorisation server runs a FAPI security profile
      And the AISP has created a consent "protected" with permissions "ReadAccountsBasic"
      When the PSU authorises the consent "protected", and the TPP checks the authorization response before it uses the code
      Then the authorization response was checked as the security profile says before the code was used

  @SEC-15 @level-MUST @source-standard
  Rule: SEC-15 — A DPoP-bound access token is honoured only with a proof of the key it is bound to

    @A @B @oidf @oidf:fapi2-security-profile-final-dpop-negative-tests
    Scenario: A DPoP-bound access token sent as a bearer token, without a proof, is refused
      Given the bank binds its access tokens to the TPP's DPoP key
      And the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP lists the accounts with that consent's DPoP-bound token sent as a bearer token, without a DPoP proof
      Then the bank refuses the request with 401
