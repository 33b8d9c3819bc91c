@cof @uk-3.1 @uk-4.0
Feature: Confirmation of funds at UK Read/Write v3.1.11's and v4.0's paths, as its conformance suite judges it
  A bank that serves the UK standard's CBPII API (…/open-banking/v3.1/cbpii or …/v4.0/cbpii) is judged
  here on what the official Functional Conformance Suite (v3.1 and v4.0) checks of it, call for call
  (a status the rules name in v3.1.11's words is judged in v4.0's code at v4.0: AWAU, AUTH): each scenario makes
  the suite's request, with the same token and inputs, and judges at least every assertion of the
  suite's test (its ids are the scenario's @fcs: tags). Every answer is judged on its status, on the
  x-fapi-interaction-id the CBPII sent coming back, on its Content-Type and on the official schema.
  Each FCS test has a scenario of its own; the consent the PSU authorises is one for the run, created,
  read, used and deleted by the scenarios in this order. These scenarios run only for a profile with
  standard uk-3.1 or uk-4.0.

  @UKCOF-01 @level-MUST @source-standard
  Rule: UKCOF-01 — The funds-confirmation consent is created, read, used and deleted at the standard's paths, each answer with its status, the TPP's x-fapi-interaction-id, application/json and its official schema

    @A @fcs:OB-301-CBPII-000001 @fcs:OB-400-CBPII-000001
    Scenario: A consent is created under the CBPII's client-credentials token and awaits authorisation
      When the CBPII creates a funds-confirmation consent for the PSU's first account, expiring tomorrow
      Then the bank answers 201 Created, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBFundsConfirmationConsentResponse1"
      And the consent has a ConsentId
      And the consent's status is "AwaitingAuthorisation"

    @A @fcs:OB-312-CBPII-000100
    Scenario: A consent is created without x-fapi-financial-id, which the standard no longer has
      When the CBPII creates a funds-confirmation consent for the PSU's first account, expiring tomorrow, without x-fapi-financial-id
      Then the request carried no x-fapi-financial-id header
      And the bank answers 201 Created, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBFundsConfirmationConsentResponse1"
      And the consent has a ConsentId
      And the consent's status is "AwaitingAuthorisation"

    @A @fcs:OB-301-CBPII-000002 @fcs:OB-400-CBPII-000002
    Scenario: The consent the PSU will authorise is created awaiting authorisation
      When the CBPII creates the funds-confirmation consent "lifecycle" for the PSU's first account, expiring tomorrow
      Then the bank answers 201 Created, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBFundsConfirmationConsentResponse1"
      And the consent has a ConsentId
      And the consent's status is "AwaitingAuthorisation"

    @A @fcs:OB-301-CBPII-000003 @fcs:OB-400-CBPII-000003
    Scenario: The consent the PSU authorised reads as Authorised
      Given the PSU has authorised the funds-confirmation consent "lifecycle"
      When the CBPII reads that consent
      Then the bank answers 200 OK, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBFundsConfirmationConsentResponse1"
      And the consent's status is "Authorised"

    @A @fcs:OB-301-CBPII-000004 @fcs:OB-400-CBPII-000004
    Scenario: The consent the PSU authorised confirms funds
      Given the PSU has authorised the funds-confirmation consent "lifecycle"
      When the CBPII asks whether 1.00 in the account's currency is available
      Then the bank answers 201 Created, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBFundsConfirmationResponse1"

    @A @fcs:OB-301-CBPII-000005 @fcs:OB-400-CBPII-000005
    Scenario: The consent the PSU authorised is deleted
      Given the PSU has authorised the funds-confirmation consent "lifecycle"
      When the CBPII deletes that consent
      Then the bank answers 204 No Content, with the x-fapi-interaction-id the CBPII sent

  @UKCOF-02 @level-MUST @source-official-schema
  Rule: UKCOF-02 — A funds-confirmation consent whose DebtorAccount breaks the official schema, or names a scheme no namespace defines, is refused with 400 and an OBErrorResponse1

    @A
    Scenario Outline: A consent whose debtor account has <defect> is refused
      When the CBPII creates a funds-confirmation consent for the PSU's first account, whose debtor account has <defect>
      Then the bank answers 400 Bad Request, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBErrorResponse1"

      @fcs:OB-301-CBPII-000006 @fcs:OB-400-CBPII-000006
      Examples: a Name over the schema's 350 characters
        | defect                    |
        | a Name of 351 characters  |

      @fcs:OB-301-CBPII-000007 @fcs:OB-400-CBPII-000007
      Examples: an Identification over the schema's 256 characters
        | defect                              |
        | an Identification of 257 characters |

      @fcs:OB-301-CBPII-000008 @fcs:OB-400-CBPII-000008
      Examples: a SchemeName outside every namespace
        | defect                                |
        | the SchemeName TestingAnInvalidSchemeName |

  @UKCOF-03 @level-MUST @source-official-schema
  Rule: UKCOF-03 — ExpirationDateTime is an ISODateTime: with or without fractional seconds, in UTC (Z) or with an offset, the consent is created

    @A
    Scenario Outline: A consent expiring tomorrow written as <form> is created
      When the CBPII creates a funds-confirmation consent for the PSU's first account, expiring tomorrow written as <form>
      Then the bank answers 201 Created, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBFundsConfirmationConsentResponse1"
      And the consent's status is "AwaitingAuthorisation"

      @fcs:OB-301-CBPII-000009 @fcs:OB-400-CBPII-000009
      Examples: fractional seconds, UTC
        | form                     |
        | 2006-01-02T15:04:05.999Z |

      @fcs:OB-301-CBPII-000010 @fcs:OB-400-CBPII-000010
      Examples: fractional seconds, an offset
        | form                          |
        | 2006-01-02T15:04:05.999-07:00 |

      @fcs:OB-301-CBPII-000011 @fcs:OB-400-CBPII-000011
      Examples: whole seconds, UTC
        | form                 |
        | 2006-01-02T15:04:05Z |

      @fcs:OB-301-CBPII-000012 @fcs:OB-400-CBPII-000012
      Examples: whole seconds, an offset
        | form                      |
        | 2006-01-02T15:04:05-07:00 |

  @UKCOF-04 @level-MUST @source-standard
  Rule: UKCOF-04 — A ConsentId the bank never issued is a 400 (not a 404) with an OBErrorResponse1, and a funds confirmation without a token is a 401

    @A @fcs:OB-301-CBPII-000009 @fcs:OB-400-CBPII-000009
    Scenario: Deleting a consent that does not exist is a 400
      When the CBPII deletes the funds-confirmation consent "42"
      Then the bank answers 400 Bad Request, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBErrorResponse1"

    @A
    Scenario: Reading a consent that does not exist is a 400
      When the CBPII reads the funds-confirmation consent "42"
      Then the bank answers 400 Bad Request, with the x-fapi-interaction-id the CBPII sent, as application/json
      And the body is a valid "OBErrorResponse1"

    @A
    Scenario: A funds confirmation without an access token is a 401
      Given the PSU has authorised the "main" funds-confirmation consent for their first account
      When the CBPII asks without an access token whether 1.00 in the account's currency is available
      Then the bank answers 401 Unauthorized, with the x-fapi-interaction-id the CBPII sent
