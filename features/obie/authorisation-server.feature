@security @oidf
Feature: The bank's authorisation server, judged as the OpenID Foundation's FAPI test plans judge it
  A bank certifies its authorisation server against the OpenID Foundation's plans: FAPI 1.0 Advanced
  (the UK runs it with the hybrid flow, a signed request object by value and tokens bound to the
  client certificate) and FAPI 2.0 (pushed requests, PKCE, tokens bound by mTLS or DPoP; Message
  Signing adds signed request objects and JARM). Each module of those plans that applies to the bank's
  security profile is a scenario here, or one row of an outline, tagged with the module's name: the
  well-behaved requests must succeed and their tokens work, and each broken request must be refused
  where the module expects it, with the error it expects. A check whose footing the bank's profile
  does not give (DPoP in a bank that binds tokens by mTLS, pushed requests in a UK bank) is not
  applicable there, with the reason. `obtpp rules --oidf fapi1-advanced` and `--oidf fapi2` print
  the map from every module to these scenarios (docs/oidf.md).

  @SEC-16 @level-MUST @source-standard
  Rule: SEC-16 — The discovery document advertises what the bank's security profile needs

    @A @oidf:fapi1-advanced-final-discovery-endpoint-verification @oidf:fapi2-security-profile-final-discovery-endpoint-verification
    Scenario: The discovery document is the issuer's, and names the endpoints, flows, algorithms and sender constraint of its profile
      Given the bank's authorisation server runs a FAPI security profile
      When the TPP reads the bank's discovery document
      Then it names the issuer, its endpoints and keys, and the response types, algorithms and sender constraint its security profile needs

  @SEC-17 @level-MUST @source-standard
  Rule: SEC-17 — A request object FAPI forbids is refused

    @A
    Scenario Outline: A request object <defect> is refused
      Given the bank's authorisation server takes signed request objects under a FAPI security profile
      And the AISP has created a consent "<name>" with permissions "ReadAccountsBasic"
      When the TPP sends the PSU to the bank for the consent "<name>" with a request object <defect>
      Then the bank refuses it with invalid_request_object or invalid_request, before any login page

      @oidf:fapi1-advanced-final-ensure-request-object-without-nbf-fails @oidf:fapi2-security-profile-final-ensure-request-object-without-nbf-fails
      Examples: without nbf
        | defect      | name   |
        | without nbf | no nbf |

      @oidf:fapi1-advanced-final-ensure-request-object-without-scope-fails
      Examples: without scope
        | defect        | name     |
        | without scope | no scope |

      @oidf:fapi1-advanced-final-ensure-request-object-without-nonce-fails
      Examples: without nonce
        | defect        | name     |
        | without nonce | no nonce |

      @oidf:fapi1-advanced-final-ensure-request-object-with-bad-aud-fails @oidf:fapi2-security-profile-final-ensure-request-object-with-bad-aud-fails @oidf:fapi1-advanced-final-par-reject-invalid-audience-in-request-object
      Examples: bad aud
        | defect                                         | name    |
        | whose aud is not the authorisation server      | bad aud |

      @oidf:fapi1-advanced-final-ensure-request-object-with-exp-over60-fails @oidf:fapi2-security-profile-final-ensure-request-object-with-exp-over60-fails
      Examples: exp over 60 minutes
        | defect                                      | name        |
        | whose exp is more than 60 minutes after nbf | exp over 60 |

      @oidf:fapi1-advanced-final-ensure-request-object-with-nbf-over60-fails @oidf:fapi2-security-profile-final-ensure-request-object-with-nbf-over60-fails
      Examples: nbf over 60 minutes
        | defect                                    | name        |
        | whose nbf is more than 60 minutes in the past | nbf over 60 |

      @oidf:fapi1-advanced-final-ensure-signed-request-object-with-rs256-fails @oidf:fapi2-security-profile-final-ensure-signed-request-object-with-rs256-fails
      Examples: RS256
        | defect           | name  |
        | signed with RS256 | rs256 |

      @oidf:fapi1-advanced-final-ensure-request-object-with-invalid-signature-fails @oidf:fapi2-security-profile-final-ensure-request-object-with-invalid-signature-fails
      Examples: invalid signature
        | defect                              | name          |
        | whose signature does not verify     | bad signature |

      @oidf:fapi1-advanced-final-ensure-matching-key-in-authorization-request @oidf:fapi2-security-profile-final-ensure-matching-key-in-authorization-request
      Examples: a key not registered
        | defect                                          | name      |
        | signed with a key the client never registered   | other key |

      @oidf:fapi1-advanced-final-par-reject-request-uri-in-par-authorization-request @oidf:fapi2-security-profile-final-par-reject-request-uri-in-par-authorization-request
      Examples: a request_uri inside, pushed
        | defect                            | name            |
        | carrying a request_uri, pushed    | request_uri in  |

      @oidf:fapi2-security-profile-final-ensure-unsigned-request-at-par-endpoint-fails
      Examples: no request object, pushed (FAPI 2.0 Message Signing)
        | defect                                      | name     |
        | left out, the parameters pushed unsigned    | unsigned |

  @SEC-18 @level-MUST @source-standard
  Rule: SEC-18 — The well-behaved authorisation requests FAPI allows succeed, and their tokens work

    @A
    Scenario Outline: The PSU authorises a consent asked <how>, and its token works
      Given the bank's authorisation server runs a FAPI security profile
      And the AISP has created a consent "<name>" with permissions "ReadAccountsBasic"
      When the PSU authorises the consent "<name>", asked <how>
      Then the TPP gets its tokens, checked as the security profile says, and the access token lists the accounts

      @oidf:fapi1-advanced-final @oidf:fapi2-security-profile-final-happy-flow @oidf:fapi1-advanced-final-par-without-duplicate-parameters @oidf:fapi2-security-profile-final-par-without-duplicate-parameters
      Examples: as obtpp asks it
        | how                 | name  |
        | as obtpp asks it    | happy |

      @oidf:fapi1-advanced-final-ensure-authorization-request-without-state-success @oidf:fapi2-security-profile-final-ensure-authorization-request-without-state-success
      Examples: without a state
        | how             | name     |
        | without a state | no state |

      @oidf:fapi2-security-profile-final-ensure-authorization-request-without-nonce-success
      Examples: without a nonce
        | how             | name     |
        | without a nonce | no nonce |

      @oidf:fapi2-security-profile-final-ensure-authorization-request-with64-char-nonce-success
      Examples: a nonce of 64 characters
        | how                           | name        |
        | with a nonce of 64 characters | nonce of 64 |

      @oidf:fapi1-advanced-final-ensure-other-scope-order-succeeds @oidf:fapi2-security-profile-final-ensure-other-scope-order-succeeds
      Examples: the scopes in another order
        | how                             | name        |
        | with the scopes in another order | scope order |

      @oidf:fapi2-security-profile-final-test-claims-parameter-identity-claims
      Examples: identity claims in the claims parameter
        | how                                                | name            |
        | with identity claims asked in the claims parameter | identity claims |

      @oidf:fapi1-advanced-final-ensure-valid-pkce-succeeds
      Examples: PKCE S256
        | how            | name |
        | with PKCE S256 | pkce |

      @oidf:fapi1-advanced-final-ensure-server-accepts-request-object-with-multiple-aud @oidf:fapi2-security-profile-final-ensure-server-accepts-request-object-with-multiple-aud
      Examples: a request object for several audiences
        | how                                                               | name         |
        | with a request object whose aud names the issuer and another one  | multiple aud |

      @oidf:fapi2-security-profile-final-ensure-request-object-with-nbf8-seconds-in-the-future-is-accepted
      Examples: a request object valid from 8 seconds on
        | how                                                 | name        |
        | with a request object whose nbf is 8 seconds ahead  | nbf ahead 8 |

      @oidf:fapi1-advanced-final-ensure-request-object-without-state @oidf:fapi2-security-profile-final-state-only-outside-request-object-not-used
      Examples: a state only outside
        | how                                                                  | name          |
        | with its state only outside its request object or pushed request     | state outside |

      @oidf:fapi2-security-profile-final-par-ensure-server-accepts-reused-request-uri-before-authentication-completion
      Examples: a request_uri opened twice before the PSU signs in
        | how                                                      | name           |
        | with its request_uri opened twice before the PSU signs in | request_uri x2 |

    @A
    Scenario Outline: A request <how> is refused with an OAuth error, or completed as the request itself says
      Given the bank's authorisation server runs a FAPI security profile
      And the AISP has created a consent "<name>" with permissions "ReadAccountsBasic"
      When the TPP sends the PSU to the bank for the consent "<name>" with a request <how>
      Then the bank refuses it with an OAuth error, or the PSU's authorisation completes as the request itself says

      @oidf:fapi1-advanced-final-ensure-request-object-with-long-nonce @oidf:fapi2-security-profile-final-ensure-authorization-request-with-long-nonce
      Examples: a long nonce
        | how                              | name       |
        | carrying a nonce of 384 characters | long nonce |

      @oidf:fapi1-advanced-final-ensure-request-object-with-long-state @oidf:fapi2-security-profile-final-ensure-authorization-request-with-long-state
      Examples: a long state
        | how                               | name       |
        | carrying a state of 384 characters | long state |

      @oidf:fapi1-advanced-final-ensure-different-nonce-inside-and-outside-request-object @oidf:fapi2-security-profile-final-ensure-different-nonce-inside-and-outside-request-object
      Examples: another nonce outside
        | how                                                                   | name          |
        | carrying another nonce outside its request object or pushed request   | nonce outside |

      @oidf:fapi2-security-profile-final-ensure-different-state-inside-and-outside-request-object
      Examples: another state outside
        | how                                                                   | name           |
        | carrying another state outside its request object or pushed request   | states differ  |

      @oidf:fapi1-advanced-final-ensure-response-mode-query
      Examples: response_mode=query in the hybrid flow
        | how                                       | name       |
        | for the hybrid flow with response_mode=query | mode query |

    @A @oidf:fapi2-security-profile-final-access-token-type-header-case-sensitivity
    Scenario: The resource server takes the access token's scheme whatever its case
      Given the bank's authorisation server runs a FAPI security profile
      And the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP lists the accounts with that consent's token, its scheme written in lower case
      Then the bank answers 200 OK

  @SEC-19 @level-MUST @source-standard
  Rule: SEC-19 — An authorisation request the bank's FAPI profile forbids is refused

    @A
    Scenario Outline: An authorisation request <defect> is refused
      Given the bank's authorisation server runs a FAPI security profile
      And the AISP has created a consent "<name>" with permissions "ReadAccountsBasic"
      When the TPP sends the PSU to the bank for the consent "<name>" with an authorisation request <defect>
      Then the bank refuses it with <errors>, and sends the PSU to no redirect URI it was not given

      @oidf:fapi1-advanced-final-ensure-response-type-code-fails
      Examples: response_type=code without JARM (FAPI 1.0)
        | defect                                    | name     | errors                                         |
        | of response_type=code without JARM        | code     | unsupported_response_type or invalid_request   |

      @oidf:fapi2-security-profile-final-ensure-response-type-code-id-token-fails
      Examples: response_type=code id_token (FAPI 2.0)
        | defect                          | name     | errors                                        |
        | of response_type=code id_token  | hybrid   | unsupported_response_type or invalid_request  |

      @oidf:fapi2-security-profile-final-ensure-response-type-token-fails
      Examples: response_type=token (FAPI 2.0)
        | defect                   | name  | errors                                        |
        | of response_type=token   | token | unsupported_response_type or invalid_request  |

      @oidf:fapi1-advanced-final-ensure-authorization-request-without-request-object-fails
      Examples: no request object (FAPI 1.0)
        | defect                     | name       | errors                                      |
        | without a request object   | no request | invalid_request or invalid_request_object   |

      @oidf:fapi2-security-profile-final-ensure-unsigned-authorization-request-without-using-par-fails
      Examples: not pushed (FAPI 2.0)
        | defect                         | name       | errors                                      |
        | sent by value, not pushed      | not pushed | invalid_request or invalid_request_object   |

      @oidf:fapi1-advanced-final-ensure-redirect-uri-in-authorization-request @oidf:fapi2-security-profile-final-ensure-redirect-uri-in-authorization-request
      Examples: no redirect_uri
        | defect                  | name        | errors                                      |
        | without a redirect_uri  | no redirect | invalid_request or invalid_request_object   |

      @oidf:fapi1-advanced-final-ensure-request-object-without-redirect-uri-fails @oidf:fapi2-security-profile-final-ensure-request-object-without-redirect-uri-fails
      Examples: redirect_uri only outside
        | defect                                                                   | name             | errors                                      |
        | whose redirect_uri is only outside its request object or pushed request  | redirect outside | invalid_request or invalid_request_object   |

      @oidf:fapi1-advanced-final-ensure-registered-redirect-uri @oidf:fapi1-advanced-final-par-reject-invalid-redirect-uri @oidf:fapi2-security-profile-final-ensure-registered-redirect-uri @oidf:fapi2-security-profile-final-tolerate-unregistered-redirect-uri
      Examples: a redirect_uri never registered
        | defect                                        | name            | errors                                      |
        | with a redirect_uri the client never registered | unregistered uri | invalid_request or invalid_request_object   |

  @SEC-20 @level-MUST @source-standard
  Rule: SEC-20 — At the token endpoint, a code is used once, by its own client, with its PKCE verifier and the sender constraint

    @A
    Scenario Outline: The code of a PSU's authorisation <how> is refused
      Given the bank's authorisation server runs a FAPI security profile
      And the AISP has created a consent "<name>" with permissions "ReadAccountsBasic"
      When the PSU authorises the consent "<name>", and the TPP sends its code to the token endpoint <how>
      Then the token endpoint refuses it with <errors>

      @oidf:fapi1-advanced-final-attempt-reuse-authorization-code-after-one-second @oidf:fapi2-security-profile-final-attempt-reuse-authorization-code-after-one-second
      Examples: used twice
        | how                                           | name        | errors        |
        | a second time, a second after the first use   | code reused | invalid_grant |

      @oidf:fapi1-advanced-final-ensure-authorization-code-is-bound-to-client @oidf:fapi2-security-profile-final-ensure-authorization-code-is-bound-to-client
      Examples: another client's
        | how                           | name         | errors                          |
        | as another client of the TPP  | other client | invalid_grant or invalid_client |

      @oidf:fapi1-advanced-final-ensure-client-id-in-token-endpoint @oidf:fapi2-security-profile-final-ensure-client-id-in-token-endpoint
      Examples: another client's client_id
        | how                                                     | name            | errors                          |
        | naming another client's client_id with its own key      | other client_id | invalid_client or invalid_grant |

      @oidf:fapi1-advanced-final-par-ensure-pkce-code-verifier-required @oidf:fapi2-security-profile-final-par-ensure-pkce-code-verifier-required
      Examples: no code_verifier
        | how                        | name        | errors        |
        | without its code_verifier  | no verifier | invalid_grant |

      @oidf:fapi1-advanced-final-par-incorrect-pkce-code-verifier-rejected @oidf:fapi2-security-profile-final-par-incorrect-pkce-code-verifier-rejected
      Examples: another code_verifier
        | how                          | name           | errors        |
        | with another code_verifier   | wrong verifier | invalid_grant |

      @oidf:fapi1-advanced-final-ensure-mtls-holder-of-key-required @oidf:fapi2-security-profile-final-ensure-holder-of-key-required
      Examples: without the sender constraint
        | how                                                                    | name        | errors                                                                   |
        | without the sender constraint (no TLS client certificate, or no DPoP proof) | not bound | invalid_client, invalid_request, invalid_grant or invalid_dpop_proof     |

    @A @waits @oidf:fapi2-security-profile-final-attempt-to-use-expired-auth-code
    Scenario: A code sent to the token endpoint after its 60 seconds (FAPI 2.0) is refused
      Given the PSU has authorised a consent whose code the TPP holds back, under FAPI 2.0
      When the TPP sends that code to the token endpoint 62 seconds after the bank issued it
      Then the token endpoint refuses it with invalid_grant

  @SEC-21 @level-MUST @source-standard
  Rule: SEC-21 — The token and pushed-request endpoints refuse a client assertion FAPI forbids

    @A
    Scenario Outline: A client assertion <defect> is refused at the <endpoint> endpoint
      Given the TPP authenticates with private_key_jwt at a bank under a FAPI security profile
      When the TPP sends the <endpoint> endpoint a client assertion <defect>
      Then the <endpoint> endpoint refuses it with <errors>

      @oidf:fapi1-advanced-final-ensure-signed-client-assertion-with-rs256-fails @oidf:fapi2-security-profile-final-ensure-signed-client-assertion-with-rs256-fails
      Examples: RS256
        | defect             | endpoint | errors         |
        | signed with RS256  | token    | invalid_client |

      @oidf:fapi1-advanced-final-ensure-client-assertion-in-token-endpoint @oidf:fapi2-security-profile-final-ensure-client-assertion-in-token-endpoint
      Examples: none at all
        | defect                             | endpoint | errors                             |
        | left out (only the client_id sent) | token    | invalid_client or invalid_request  |

      @oidf:fapi1-advanced-final-ensure-client-assertion-with-exp-is5-minutes-in-past-fails @oidf:fapi2-security-profile-final-ensure-client-assertion-with-exp-is5-minutes-in-past-fails
      Examples: expired 5 minutes ago
        | defect                               | endpoint | errors         |
        | whose exp is 5 minutes in the past   | token    | invalid_client |

      @oidf:fapi1-advanced-final-ensure-client-assertion-with-wrong-aud-fails @oidf:fapi2-security-profile-final-ensure-client-assertion-with-wrong-aud-fails
      Examples: wrong aud
        | defect                                     | endpoint | errors         |
        | whose aud is not the authorisation server  | token    | invalid_client |

      @oidf:fapi1-advanced-final-ensure-client-assertion-with-no-sub-fails @oidf:fapi2-security-profile-final-ensure-client-assertion-with-no-sub-fails
      Examples: no sub
        | defect       | endpoint | errors         |
        | without sub  | token    | invalid_client |

      @oidf:fapi2-security-profile-final-par-ensure-jwt-client-assertion-with-iat-nbf-over60-seconds-in-the-future-fails
      Examples: iat and nbf over 60 seconds ahead
        | defect                                             | endpoint          | errors         |
        | whose iat and nbf are 70 seconds in the future     | pushed-request    | invalid_client |

      @oidf:fapi2-security-profile-final-par-endpoint-as-audience-fails
      Examples: aud the PAR endpoint (FAPI 2.0)
        | defect                                            | endpoint       | errors         |
        | whose aud is the pushed-request endpoint (FAPI 2.0) | pushed-request | invalid_client |

      @oidf:fapi2-security-profile-final-par-endpoint-as-array-audience-fails
      Examples: aud an array of the PAR endpoint (FAPI 2.0)
        | defect                                                       | endpoint       | errors         |
        | whose aud is an array holding the pushed-request endpoint     | pushed-request | invalid_client |

      @oidf:fapi2-security-profile-final-par-token-endpoint-as-audience-fails
      Examples: aud the token endpoint at the PAR endpoint (FAPI 2.0)
        | defect                                         | endpoint       | errors         |
        | whose aud is the token endpoint (FAPI 2.0)     | pushed-request | invalid_client |

    @A
    Scenario Outline: A client assertion <variation> is taken at the pushed-request endpoint
      Given the TPP authenticates with private_key_jwt at a bank under a FAPI security profile
      When the TPP sends the pushed-request endpoint a client assertion <variation>
      Then the pushed-request endpoint takes it and answers with a request_uri

      @oidf:fapi2-security-profile-final-par-ensure-jwt-client-assertion-with-iat-nbf8-seconds-in-the-future-is-accepted
      Examples: iat and nbf 8 seconds ahead
        | variation                                     |
        | whose iat and nbf are 8 seconds in the future |

      @oidf:fapi1-advanced-final-par-check-audience-for-jwt-client-assertion
      Examples: aud the PAR endpoint (FAPI 1.0)
        | variation                                               |
        | whose aud is the pushed-request endpoint (FAPI 1.0)      |

  @SEC-22 @level-MUST @source-standard
  Rule: SEC-22 — A pushed request's request_uri is used once, lives briefly and belongs to its client; the PAR endpoint takes only POSTs without a request_uri

    @A
    Scenario Outline: The bank refuses <what>
      Given the TPP pushes its authorisation requests to the bank under a FAPI security profile
      And the AISP has created a consent "<name>" with permissions "ReadAccountsBasic"
      When the TPP sends the bank, for the consent "<name>", <what>
      Then the bank refuses it with <errors>

      @oidf:fapi1-advanced-final-par-attempt-reuse-request-uri @oidf:fapi2-security-profile-final-par-attempt-reuse-request-uri
      Examples: a request_uri used again
        | what                                                             | name       | errors                                          |
        | a request_uri again, after the PSU's authorisation completed     | uri reused | invalid_request_uri or invalid_request          |

      @oidf:fapi1-advanced-final-par-ensure-request-uri-is-bound-to-client @oidf:fapi2-security-profile-final-par-ensure-request-uri-is-bound-to-client
      Examples: another client's request_uri
        | what                                           | name      | errors                                                         |
        | a request_uri pushed by another client          | uri other | invalid_request_uri, invalid_request or invalid_request_object |

      @oidf:fapi1-advanced-final-par-reject-request-uri-in-par-authorization-form-params @oidf:fapi2-security-profile-final-par-reject-request-uri-in-par-authorization-form-params
      Examples: a request_uri pushed
        | what                                        | name       | errors                                                        |
        | a pushed request that carries a request_uri  | uri pushed | invalid_request, invalid_request_object or request_uri_not_supported |

      @oidf:fapi1-advanced-final-par-reject-invalid-http-verb @oidf:fapi2-security-profile-final-par-reject-invalid-http-verb
      Examples: GET to the PAR endpoint
        | what                                          | name    | errors                       |
        | its pushed request as a GET, not a POST        | par get | an HTTP 405 or another 4xx   |

    @A @waits @oidf:fapi1-advanced-final-par-attempt-to-use-expired-request-uri @oidf:fapi2-security-profile-final-par-attempt-to-use-expired-request-uri
    Scenario: A request_uri used after it expired is refused
      Given the TPP has pushed an authorisation request ahead, and kept its request_uri unused
      When the TPP sends the PSU to the bank with that request_uri a second after it expired
      Then the bank refuses it with invalid_request_uri or invalid_request

  @SEC-23 @level-MUST @source-standard
  Rule: SEC-23 — Where tokens are DPoP-bound, every proof is checked and every binding honoured, at the token endpoint and the resource server

    @A @oidf:fapi2-security-profile-final-dpop-negative-tests
    Scenario Outline: The resource server refuses a DPoP-bound token whose proof <defect>
      Given the bank binds its access tokens to the TPP's DPoP key
      And the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP lists the accounts with that consent's DPoP-bound token and a proof that <defect>
      Then the bank refuses the request with 400 or 401

      Examples:
        | defect                                             |
        | has no typ                                          |
        | has another typ than dpop+jwt                       |
        | is not signed (alg none)                            |
        | carries a signature that does not verify            |
        | carries the private key in its jwk                  |
        | has no jwk                                          |
        | has no jti                                          |
        | has no htm                                          |
        | names another method in htm                          |
        | has no htu                                          |
        | names another URL in htu                             |
        | has no iat                                          |
        | was issued an hour from now                          |
        | was issued an hour ago                               |
        | has no ath                                          |
        | hashes another access token in ath                   |
        | is signed with another key than the token's          |
        | comes twice in one DPoP header                       |
        | is not a JWT                                         |

    @A @oidf:fapi2-security-profile-final-dpop-negative-tests
    Scenario: A DPoP proof used a second time (its jti seen before) should be refused
      Given the bank binds its access tokens to the TPP's DPoP key
      And the PSU has authorised the "full" consent: every permission of the accounts, balances and transactions clusters, all accounts selected
      When the AISP lists the accounts twice with that consent's DPoP-bound token and the same proof
      Then the bank should refuse the second request with 400 or 401

    @A
    Scenario Outline: The token endpoint and the resource server take a DPoP proof <variation>
      Given the bank binds its access tokens to the TPP's DPoP key
      When the TPP asks the token endpoint for a client-credentials token, and creates a consent with it, each with a DPoP proof <variation>
      Then both take it

      @oidf:fapi2-security-profile-final-dpop-negative-tests
      Examples: extra claims, and an htu with a query
        | variation                                                   |
        | carrying claims and header parameters the bank does not know |
        | whose htu carries a query                                    |

      @oidf:fapi2-security-profile-final-ensure-dpop-proof-with-iat10-seconds-before-succeeds
      Examples: iat 10 seconds ago
        | variation                  |
        | issued 10 seconds ago      |

      @oidf:fapi2-security-profile-final-ensure-dpop-proof-with-iat10-seconds-after-succeeds
      Examples: iat 10 seconds ahead
        | variation                     |
        | issued 10 seconds from now    |

      @oidf:fapi2-security-profile-final-check-dpop-proof-nbf-exp
      Examples: nbf and exp
        | variation                                              |
        | with nbf now and exp 5 minutes from now                 |

    @A
    Scenario Outline: A code bound to a DPoP key <how>
      Given the bank binds its access tokens to the TPP's DPoP key
      And the AISP has created a consent "<name>" with permissions "ReadAccountsBasic"
      When the TPP pushes the authorisation request of the consent "<name>" <how>
      Then <outcome>

      @oidf:fapi2-security-profile-final-ensure-mismatched-dpop-jkt-fails
      Examples: dpop_jkt and the proof of two keys
        | how                                                              | name       | outcome                                                                         |
        | with dpop_jkt of one key and a DPoP proof of another              | jkt x2     | the pushed-request endpoint refuses it with invalid_dpop_proof or invalid_request |

      @oidf:fapi2-security-profile-final-ensure-token-endpoint-fails-with-mismatched-dpop-jkt
      Examples: bound by dpop_jkt, exchanged with another key
        | how                                                                         | name      | outcome                                                                          |
        | with dpop_jkt, and the PSU authorises it, and the code is sent with another key's proof | jkt other | the token endpoint refuses it with invalid_dpop_proof, invalid_grant or invalid_request |

      @oidf:fapi2-security-profile-final-ensure-token-endpoint-fails-with-mismatched-dpop-proof-jkt
      Examples: bound by the pushed request's proof, exchanged with another key
        | how                                                                                       | name        | outcome                                                                          |
        | with a DPoP proof, and the PSU authorises it, and the code is sent with another key's proof | proof other | the token endpoint refuses it with invalid_dpop_proof, invalid_grant or invalid_request |

      @oidf:fapi2-security-profile-final-ensure-dpop-proof-at-par-endpoint-binding-success
      Examples: bound by the pushed request's proof only
        | how                                                                                | name       | outcome                                        |
        | with a DPoP proof only, and the PSU authorises it, and the code is sent with that key's proof | proof same | the token endpoint grants a DPoP-bound token |

      @oidf:fapi2-security-profile-final-ensure-dpop-auth-code-binding-success
      Examples: bound by dpop_jkt only
        | how                                                                             | name     | outcome                                        |
        | with dpop_jkt only, and the PSU authorises it, and the code is sent with that key's proof | jkt same | the token endpoint grants a DPoP-bound token |

  @SEC-24 @level-MUST @source-standard
  Rule: SEC-24 — UK Open Banking: an authorisation names only its own client's consent, and the essential acr asked comes back

    @A @oidf:fapi1-advanced-final-ensure-server-handles-non-matching-intent-id
    Scenario: An authorisation request naming a consent another client created is refused
      Given the bank binds the authorisation to the consent named in openbanking_intent_id
      And the AISP has created a consent "not theirs" with permissions "ReadAccountsBasic"
      When another client of the TPP sends the PSU to the bank naming the consent "not theirs"
      Then the bank refuses it with invalid_request, invalid_request_object, invalid_request_uri or access_denied

    @A @oidf:fapi1-advanced-final-test-essential-acr-sca-claim
    Scenario: The acr asked as essential comes back in the ID token
      Given the bank binds the authorisation to the consent named in openbanking_intent_id
      And the AISP has created a consent "sca" with permissions "ReadAccountsBasic"
      When the PSU authorises the consent "sca", asked with acr urn:openbanking:psd2:sca as essential
      Then both ID tokens carry acr urn:openbanking:psd2:sca
