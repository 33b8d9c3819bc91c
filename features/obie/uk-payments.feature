@pis @uk-3.1 @uk-4.0
Feature: Payment initiation of UK Read/Write v3.1.11, every payment family
  A bank that serves UK Read/Write v3.1.11 at its official paths offers, beside the domestic
  payment, domestic scheduled payments, domestic standing orders, international payments
  (scheduled and standing orders too) and file payments: a consent the PSU authorises, and the
  order that pays it. The scenarios make the calls of the Functional Conformance Suite's v3.1
  payment scripts, with their inputs (the minimal consents: no debtor account, the PSU chooses it
  at the bank; Risk {}), and judge every assertion of each script they name in an @fcs tag.
  Each family's authorised consent is shared by its scenarios, in the order they are written here:
  what it must refuse first, then its order, then what a consumed consent must refuse. Each FCS test
  has a scenario or an Examples row of its own, judging that test's call only (its verdict is its own
  in the reports); what obtpp judges beyond the suite has scenarios of its own.

  @UKPIS-10 @level-MUST @source-standard
  Rule: UKPIS-10 — A payment request of any family without a valid x-jws-signature is refused

    @A @fcs:OB-316-DOP-100310
    Scenario: A domestic payment consent without a signature is refused with UK.OBIE.Signature.Missing
      When the PISP creates a domestic payment consent without an x-jws-signature
      Then the bank refuses the request with 400
      And the body is a valid "OBErrorResponse1"
      And the refusal's error code is UK.OBIE.Signature.Missing

    @A @fcs:OB-301-DOP-100110 @fcs:OB-400-DOP-100110
    Scenario: A domestic payment consent whose signature lacks a critical claim is refused
      When the PISP creates a domestic payment consent with an x-jws-signature whose header lacks the claim http://openbanking.org.uk/iss
      Then the bank refuses the request with 400
      And the refusal's error code is UK.OBIE.Signature.InvalidClaim, UK.OBIE.Signature.MissingClaim or UK.OBIE.Signature.Malformed

    @A
    Scenario: A domestic scheduled payment consent without a signature is refused
      When the PISP creates a domestic scheduled payment consent without an x-jws-signature
      Then the bank refuses the request with 400
      And the refusal's error code is UK.OBIE.Signature.Missing

    # Every family's consent and order is a payment request that must be signed (the PIS file:
    # x-jws-signature is required on all fifteen POSTs).
    @A
    Scenario Outline: A <family> consent without a signature is refused
      When the PISP creates a <family> consent without an x-jws-signature
      Then the bank refuses the request with 400
      And the refusal's error code is UK.OBIE.Signature.Missing

      Examples:
        | family                          |
        | domestic standing order         |
        | international payment           |
        | international scheduled payment |
        | international standing order    |
        | file payment                    |

    @A
    Scenario Outline: A <family> order without a signature is refused
      Given the PSU has authorised the shared <family> consent
      And its order has not been submitted yet
      When the PISP submits the order without an x-jws-signature
      Then the bank refuses the request with 400
      And the refusal's error code is UK.OBIE.Signature.Missing

      Examples:
        | family                          |
        | domestic payment                |
        | domestic scheduled payment      |
        | domestic standing order         |
        | international payment           |
        | international scheduled payment |
        | international standing order    |
        | file payment                    |

  @UKPIS-02 @level-MUST @source-standard
  Rule: UKPIS-02 — A scheduled payment's RequestedExecutionDateTime is any ISO 8601 date-time with its offset, kept as the same instant

    @A @fcs:OB-301-DOP-100810 @fcs:OB-400-DOP-100810
    Scenario: A domestic scheduled payment consent dated with a negative UTC offset is accepted as asked
      When the PISP creates a domestic scheduled payment consent to be executed tomorrow at 15:04 -07:00
      Then the bank answers 201 Created
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is a valid "OBWriteDomesticScheduledConsentResponse5"
      And the payment consent has a ConsentId and the status "AwaitingAuthorisation"
      And the consent keeps that RequestedExecutionDateTime

    @A @fcs:OB-301-DOP-100820 @fcs:OB-400-DOP-100820
    Scenario: A domestic scheduled payment consent dated in UTC is accepted as asked
      When the PISP creates a domestic scheduled payment consent to be executed tomorrow at 15:04 UTC
      Then the bank answers 201 Created
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is a valid "OBWriteDomesticScheduledConsentResponse5"
      And the payment consent has a ConsentId and the status "AwaitingAuthorisation"
      And the consent keeps that RequestedExecutionDateTime

    @A
    Scenario: An international scheduled payment consent dated with a positive UTC offset is accepted as asked
      When the PISP creates an international scheduled payment consent to be executed tomorrow at 09:30 +01:00
      Then the bank answers 201 Created
      And the body is a valid "OBWriteInternationalScheduledConsentResponse6"
      And the consent keeps that RequestedExecutionDateTime

  @UKPIS-04 @level-MUST @source-official-schema
  Rule: UKPIS-04 — A standing order's Frequency follows the standard's grammar; one that does not is refused

    @A
    Scenario Outline: A standing order consent with a Frequency of the grammar is accepted
      When the PISP creates a <family> consent with the Frequency "<frequency>"
      Then the bank answers 201 Created
      And the answer carries the consent's Initiation unchanged

      Examples:
        | family                       | frequency            |
        | domestic standing order      | IntrvlMnthDay:01:-01 |
        | domestic standing order      | QtrDay:ENGLISH       |
        | international standing order | WkInMnthDay:02:03    |

    # v4.0's Frequency.Type is an ISO 20022 code (OBFrequency6Code) or v3.1.11's grammar; at uk-3.1
    # this scenario is not applicable (v3.1.11 has only the grammar).
    @A
    Scenario Outline: A v4.0 standing order consent with an ISO 20022 frequency code is accepted
      When the PISP creates a <family> consent with the ISO 20022 frequency "<code>" at point "<point>"
      Then the bank accepts the ISO 20022 frequency, keeping the consent's Initiation unchanged

      Examples:
        | family                       | code | point |
        | domestic standing order      | MNTH | 15    |
        | international standing order | WEEK | 01    |

    @A
    Scenario Outline: A standing order consent with a Frequency outside the grammar is refused
      When the PISP creates a <family> consent with the Frequency "<frequency>"
      Then the bank refuses the request with 400
      And the body is a valid "OBErrorResponse1"

      Examples:
        | family                       | frequency         |
        | domestic standing order      | EvryMonth         |
        | domestic standing order      | IntrvlMnthDay:07:15 |
        | international standing order | IntrvlWkDay:10:01 |

  @UKPIS-05 @level-MUST @source-standard
  Rule: UKPIS-05 — An international payment's exchange rate: an Agreed rate is the payment's, under its contract; the CurrencyOfTransfer is kept

    @A
    Scenario: An Agreed rate comes back as agreed
      When the PISP creates an international payment consent with an Agreed exchange rate
      Then the bank answers 201 Created
      And the body is a valid "OBWriteInternationalConsentResponse6"
      And the answer keeps the CurrencyOfTransfer
      And the answer gives the agreed rate under its contract

    @A
    Scenario: An Actual rate is left to the bank
      When the PISP creates an international payment consent with an Actual exchange rate
      Then the bank answers 201 Created
      And the body is a valid "OBWriteInternationalConsentResponse6"
      And the answer keeps the CurrencyOfTransfer
      And the answer's rate, where it gives one, is Actual

    @A
    Scenario: An Indicative rate is quoted by the bank
      When the PISP creates an international payment consent with an Indicative exchange rate
      Then the bank answers 201 Created
      And the body is a valid "OBWriteInternationalConsentResponse6"
      And the answer keeps the CurrencyOfTransfer
      And the answer's rate, where it gives one, is Indicative, with the bank's quoted rate

    # The standard's International Payment Consents page: with an Actual or Indicative RateType the
    # PISP names neither ExchangeRate nor ContractIdentification; a consent that does is refused.
    @A
    Scenario Outline: An <rate> rate naming <what> of its own is refused
      When the PISP creates an international payment consent with an <rate> exchange rate naming <what>
      Then the bank refuses the request with 400
      And the body is a valid "OBErrorResponse1"

      Examples:
        | rate       | what                     |
        | Indicative | a ContractIdentification |
        | Actual     | a ContractIdentification |
        | Indicative | an ExchangeRate          |

  @UKPIS-06 @level-MUST @source-standard
  Rule: UKPIS-06 — A file payment's file matches its consent: FileHash, NumberOfTransactions and ControlSum; it reads back as uploaded

    @A
    Scenario: The file its FileHash names is accepted and reads back byte for byte
      When the PISP creates a file payment consent for a file of two payments
      Then the bank answers 201 Created
      And the body is a valid "OBWriteFileConsentResponse4"
      And the payment consent has a ConsentId and the status "AwaitingUpload"
      When the PISP uploads its file
      Then the bank answers 200 OK
      When the PISP reads the file back
      Then the bank answers 200 OK
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And it is the file uploaded, byte for byte
      When the PISP reads the file payment consent
      Then the payment's status is "AwaitingAuthorisation"

    @A
    Scenario: A file that is not the one its FileHash names is refused
      When the PISP creates a file payment consent for a file of two payments
      And the PISP uploads another file than the one its FileHash names
      Then the bank refuses the request with 400

    @A
    Scenario: A file whose payments are not its consent's NumberOfTransactions and ControlSum is refused
      When the PISP creates a file payment consent whose NumberOfTransactions and ControlSum are not its file's
      And the PISP uploads its file
      Then the bank refuses the request with 400

    @A
    Scenario Outline: A file whose payments do not match the consent's <total> alone is refused
      When the PISP creates a file payment consent whose <total> is not its file's
      And the PISP uploads its file
      Then the bank refuses the request with 400

      Examples:
        | total                |
        | NumberOfTransactions |
        | ControlSum           |

  @UKPIS-07 @level-MUST @source-standard
  Rule: UKPIS-07 — Every consent create is idempotent: the same request under the same x-idempotency-key is the same consent

    @A
    Scenario Outline: A <family> consent sent twice under one idempotency key is one consent
      When the PISP creates a <family> consent under a fresh idempotency key, then sends it again under the same key
      Then both answers name the same consent

      Examples:
        | family                          |
        | domestic scheduled payment      |
        | domestic standing order         |
        | international payment           |
        | international scheduled payment |
        | international standing order    |
        | file payment                    |

  @UKPIS-03 @level-MUST @source-standard
  Rule: UKPIS-03 — The order carries its consent's Initiation and Risk unchanged; any other order on the consent is refused

    @A
    Scenario Outline: A <family> order that is not its consent's is refused
      Given the PSU has authorised the shared <family> consent
      And its order has not been submitted yet
      When the PISP submits the order with a different amount instead of the consent's
      Then the bank refuses it with 400 or 403 and an OBIE error body
      When the PISP submits the order with a different creditor account instead of the consent's
      Then the bank refuses it with 400 or 403 and an OBIE error body
      When the PISP submits the order with a different Risk instead of the consent's
      Then the bank refuses it with 400 or 403 and an OBIE error body

      Examples:
        | family                          |
        | domestic payment                |
        | domestic scheduled payment      |
        | international payment           |
        | international scheduled payment |
        | international standing order    |

    @A @fcs:OB-301-DOP-101400 @fcs:OB-400-DOP-101400
    Scenario: A domestic standing order whose Frequency is not its consent's (nor the grammar's) is refused
      Given the PSU has authorised the shared domestic standing order consent
      And its order has not been submitted yet
      When the PISP submits the order with the Frequency "foobar" instead of the consent's
      Then the bank refuses the request with 400
      And the body is a valid "OBErrorResponse1"
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A
    Scenario: A domestic standing order whose amount or Risk is not its consent's is refused
      Given the PSU has authorised the shared domestic standing order consent
      And its order has not been submitted yet
      When the PISP submits the order with a different amount instead of the consent's
      Then the bank refuses it with 400 or 403 and an OBIE error body
      When the PISP submits the order with a different Risk instead of the consent's
      Then the bank refuses it with 400 or 403 and an OBIE error body

    @A
    Scenario: A file payment order whose Initiation is not its consent's is refused
      Given the PSU has authorised the shared file payment consent
      And its order has not been submitted yet
      When the PISP submits the order with a different creditor account instead of the consent's
      Then the bank refuses it with 400 or 403 and an OBIE error body

  @UKPIS-01 @level-MUST @source-official-schema
  Rule: UKPIS-01 — Every payment family: the consent is created awaiting authorisation, reads back authorised, and its order is accepted and can be read, every answer signed and valid

    @A
    Scenario Outline: A <family> consent is created awaiting authorisation
      When the PISP creates a <family> consent
      Then the bank answers 201 Created
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is a valid "<consent schema>"
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And the payment consent has a ConsentId and the status "<status>"

      @fcs:OB-301-DOP-100100 @fcs:OB-400-DOP-100100
      Examples: a domestic payment consent
        | family           | consent schema                  | status                |
        | domestic payment | OBWriteDomesticConsentResponse5 | AwaitingAuthorisation |

      @fcs:OB-301-DOP-100300 @fcs:OB-400-DOP-100300
      Examples: the minimal data set, with additional schema checks
        | family           | consent schema                  | status                |
        | domestic payment | OBWriteDomesticConsentResponse5 | AwaitingAuthorisation |

      @fcs:OB-301-DOP-100800 @fcs:OB-400-DOP-100800
      Examples: a domestic scheduled payment consent
        | family                     | consent schema                           | status                |
        | domestic scheduled payment | OBWriteDomesticScheduledConsentResponse5 | AwaitingAuthorisation |

      @fcs:OB-301-DOP-101000 @fcs:OB-400-DOP-101000
      Examples: the minimal data set, with additional schema checks
        | family                     | consent schema                           | status                |
        | domestic scheduled payment | OBWriteDomesticScheduledConsentResponse5 | AwaitingAuthorisation |

      @fcs:OB-301-DOP-101200 @fcs:OB-400-DOP-101200
      Examples: a domestic standing order consent
        | family                  | consent schema                               | status                |
        | domestic standing order | OBWriteDomesticStandingOrderConsentResponse6 | AwaitingAuthorisation |

      @fcs:OB-301-DOP-101600 @fcs:OB-400-DOP-101600
      Examples: an international payment consent
        | family                | consent schema                       | status                |
        | international payment | OBWriteInternationalConsentResponse6 | AwaitingAuthorisation |

      @fcs:OB-301-DOP-102000 @fcs:OB-400-DOP-102000
      Examples: an international scheduled payment consent
        | family                          | consent schema                                | status                |
        | international scheduled payment | OBWriteInternationalScheduledConsentResponse6 | AwaitingAuthorisation |

      Examples: the families the suite does not test
        | family                       | consent schema                                    | status                |
        | international standing order | OBWriteInternationalStandingOrderConsentResponse7 | AwaitingAuthorisation |
        | file payment                 | OBWriteFileConsentResponse4                       | AwaitingUpload        |

    @A @fcs:OB-313-DOP-100100
    Scenario: A domestic payment consent is created without x-fapi-financial-id, which the standard no longer has
      When the PISP creates a domestic payment consent, without x-fapi-financial-id
      Then the request carried no x-fapi-financial-id header
      And the bank answers 201 Created
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is a valid "OBWriteDomesticConsentResponse5"
      And the payment consent has a ConsentId and the status "AwaitingAuthorisation"

    @A
    Scenario Outline: The authorised <family> consent reads back Authorised
      Given the PSU has authorised the shared <family> consent
      When the PISP reads the <family> consent
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is a valid "<consent schema>"
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And the payment's status is "Authorised"

      @fcs:OB-301-DOP-100400 @fcs:OB-400-DOP-100400
      Examples: a domestic payment consent
        | family           | consent schema                  |
        | domestic payment | OBWriteDomesticConsentResponse5 |

      @fcs:OB-301-DOP-100900 @fcs:OB-400-DOP-100900
      Examples: a domestic scheduled payment consent
        | family                     | consent schema                           |
        | domestic scheduled payment | OBWriteDomesticScheduledConsentResponse5 |

      @fcs:OB-301-DOP-101100 @fcs:OB-400-DOP-101100
      Examples: a domestic scheduled payment consent, under the PISP's client-credentials token
        | family                     | consent schema                           |
        | domestic scheduled payment | OBWriteDomesticScheduledConsentResponse5 |

      @fcs:OB-301-DOP-101300 @fcs:OB-400-DOP-101300
      Examples: a domestic standing order consent
        | family                  | consent schema                               |
        | domestic standing order | OBWriteDomesticStandingOrderConsentResponse6 |

      @fcs:OB-301-DOP-101700 @fcs:OB-400-DOP-101700
      Examples: an international payment consent
        | family                | consent schema                       |
        | international payment | OBWriteInternationalConsentResponse6 |

      @fcs:OB-301-DOP-102100 @fcs:OB-400-DOP-102100
      Examples: an international scheduled payment consent
        | family                          | consent schema                                |
        | international scheduled payment | OBWriteInternationalScheduledConsentResponse6 |

      Examples: the families the suite does not test
        | family                       | consent schema                                    |
        | international standing order | OBWriteInternationalStandingOrderConsentResponse7 |
        | file payment                 | OBWriteFileConsentResponse4                       |

    @A
    Scenario Outline: The funds of the authorised <family> consent are available
      Given the PSU has authorised the shared <family> consent
      When the PISP checks the funds of the <family> consent with the PSU's token
      Then the bank answers 200 OK
      And the body is a valid "OBWriteFundsConfirmationResponse1"
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And funds are available for the payment

      @fcs:OB-301-DOP-100500 @fcs:OB-400-DOP-100500
      Examples: a domestic payment
        | family           |
        | domestic payment |

      Examples: the families the suite does not test
        | family                          |
        | international payment           |
        | international scheduled payment |

    @A
    Scenario Outline: The order of the authorised <family> consent is accepted
      Given the PSU has authorised the shared <family> consent
      And its order has not been submitted yet
      When the PISP submits the order of the <family> consent with the consent's Initiation and Risk
      Then the bank answers 201 Created
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is a valid "<order schema>"
      And the answer carries an x-jws-signature that verifies with the bank's keys
      And the answer names the order's id in Data.<order id>

      @fcs:OB-301-DOP-100600 @fcs:OB-400-DOP-100600
      Examples: a domestic payment
        | family           | order schema              | order id          |
        | domestic payment | OBWriteDomesticResponse5  | DomesticPaymentId |

      @fcs:OB-301-DOP-101101 @fcs:OB-400-DOP-101101
      Examples: a domestic scheduled payment
        | family                     | order schema                      | order id                   |
        | domestic scheduled payment | OBWriteDomesticScheduledResponse5 | DomesticScheduledPaymentId |

      @fcs:OB-301-DOP-101401 @fcs:OB-400-DOP-101401
      Examples: a domestic standing order
        | family                  | order schema                          | order id                |
        | domestic standing order | OBWriteDomesticStandingOrderResponse6 | DomesticStandingOrderId |

      @fcs:OB-301-DOP-101800 @fcs:OB-400-DOP-101800
      Examples: an international payment
        | family                | order schema                  | order id               |
        | international payment | OBWriteInternationalResponse5 | InternationalPaymentId |

      @fcs:OB-301-DOP-102200 @fcs:OB-400-DOP-102200
      Examples: an international scheduled payment
        | family                          | order schema                           | order id                        |
        | international scheduled payment | OBWriteInternationalScheduledResponse6 | InternationalScheduledPaymentId |

      Examples: the families the suite does not test
        | family                       | order schema                               | order id                     |
        | international standing order | OBWriteInternationalStandingOrderResponse7 | InternationalStandingOrderId |
        | file payment                 | OBWriteFileResponse3                       | FilePaymentId                |

    @A
    Scenario Outline: The order of the <family> consent reads back
      Given the PSU has authorised the shared <family> consent
      And its order has been submitted
      When the PISP reads the order of the <family> consent
      Then the bank answers 200 OK
      And the body is a valid "<order schema>"
      And the answer carries an x-jws-signature that verifies with the bank's keys

      @fcs:OB-301-DOP-100700 @fcs:OB-400-DOP-100700
      Examples: a domestic payment
        | family           | order schema             |
        | domestic payment | OBWriteDomesticResponse5 |

      @fcs:OB-301-DOP-101500 @fcs:OB-400-DOP-101500
      Examples: a domestic standing order
        | family                  | order schema                          |
        | domestic standing order | OBWriteDomesticStandingOrderResponse6 |

      @fcs:OB-301-DOP-101900 @fcs:OB-400-DOP-101900
      Examples: an international payment
        | family                | order schema                  |
        | international payment | OBWriteInternationalResponse5 |

      @fcs:OB-301-DOP-102300 @fcs:OB-400-DOP-102300
      Examples: an international scheduled payment
        | family                          | order schema                           |
        | international scheduled payment | OBWriteInternationalScheduledResponse6 |

      Examples: the families the suite does not test
        | family                       | order schema                               |
        | domestic scheduled payment   | OBWriteDomesticScheduledResponse5          |
        | international standing order | OBWriteInternationalStandingOrderResponse7 |
        | file payment                 | OBWriteFileResponse3                       |

    # OB-301-DOP-1015002 (and OB-400-DOP-1015002) is not applicable: its assertion reads
    # FirstPaymentAmount where its text says FinalPaymentAmount, so it demands 403 for every
    # open-ended standing order (docs/fcs-3.1.md says why).
    @A @fcs:OB-301-DOP-1015001
    Scenario: A domestic standing order ends by NumberOfPayments or by FinalPaymentDateTime, never both
      Given the PSU has authorised the shared domestic standing order consent
      And its order has been submitted
      When the PISP reads the order of the domestic standing order consent
      Then the standing order ends by NumberOfPayments or by FinalPaymentDateTime, never both, unless the bank refuses it with 403
      And the body of the answer, whatever its status, is valid against the standard's schema for that status
      And the answer carries an x-jws-signature that verifies with the bank's keys

    @A
    Scenario Outline: The <family> order names its consent, keeps the consent's Initiation, and its details read back
      Given the PSU has authorised the shared <family> consent
      And its order has been submitted
      Then the order's answer named its consent and carried its own id
      When the PISP reads the order of the <family> consent
      Then the answer carries the consent's Initiation unchanged
      When the PISP reads the details of the order of the <family> consent
      Then the bank answers 200 OK
      And the body is a valid "OBWritePaymentDetailsResponse1"
      And the answer carries an x-jws-signature that verifies with the bank's keys

      Examples:
        | family                          |
        | domestic payment                |
        | domestic scheduled payment      |
        | domestic standing order         |
        | international payment           |
        | international scheduled payment |
        | international standing order    |
        | file payment                    |

    @A
    Scenario: The file payment's report file reads back signed
      Given the PSU has authorised the shared file payment consent
      And its order has been submitted
      When the PISP reads the report file of the file payment
      Then the bank answers 200 OK
      And the answer carries an x-jws-signature that verifies with the bank's keys

  @UKPIS-08 @level-MUST @source-standard
  Rule: UKPIS-08 — A consent pays once: a consumed consent refuses a second order, and the same order under the same x-idempotency-key is the same order

    @A
    Scenario Outline: A consumed <family> consent
      Given the PSU has authorised the shared <family> consent
      And its order has been submitted
      When the PISP reads the <family> consent
      Then the payment's status is "Consumed"
      When the PISP submits the same order again under the same x-idempotency-key
      Then both answers carry the same order
      When the PISP submits the order again under a new x-idempotency-key
      Then the bank refuses the request with 400 or 403

      Examples:
        | family                          |
        | domestic scheduled payment      |
        | domestic standing order         |
        | international payment           |
        | international scheduled payment |
        | international standing order    |
        | file payment                    |

  @UKPIS-09 @level-MUST @source-standard
  Rule: UKPIS-09 — A consent the PSU rejected refuses everything: it reads Rejected, and no order or funds check is made on it

    @A
    Scenario: A rejected international payment consent
      When the PISP creates an international payment consent
      And the PSU rejects the international payment consent
      When the PISP reads the international payment consent
      Then the payment's status is "Rejected"
      When the PISP submits its order under its client-credentials token
      Then the bank refuses the request with 400, 401 or 403
      When the PISP checks the funds of the international payment consent with its client-credentials token
      Then the bank refuses the request with 400, 401 or 403

  @UKPIS-11 @level-MUST @source-official-schema
  Rule: UKPIS-11 — An answer about a payment says something: a file payment's report file is never empty, and an order's payment details name its status

    @A
    Scenario: A file payment's report file has content
      Given the PSU has authorised the shared file payment consent
      And its order has been submitted
      When the PISP reads the report file of the file payment
      Then the bank answers 200 OK
      And the report file is not empty

    # The standard lets Data.PaymentStatus be empty (0..n): details naming no status are a warning.
    @A
    Scenario Outline: The payment details of the order of the <family> consent name where the payment stands
      Given the PSU has authorised the shared <family> consent
      And its order has been submitted
      When the PISP reads the details of the order of the <family> consent
      Then the bank answers 200 OK
      And the payment details name at least one status of the payment

      Examples:
        | family                          |
        | domestic payment                |
        | domestic scheduled payment      |
        | domestic standing order         |
        | international payment           |
        | international scheduled payment |
        | international standing order    |
        | file payment                    |
