@ais @uk-3.1 @uk-4.0
Feature: Account information of UK Read/Write v3.1.11 and v4.0
  Every read of the standard's account-information API, per account and in bulk, at its official
  paths, with the cases of the UK Functional Conformance Suite (FCS v3.1 and v4.0, accounts and
  transactions: each scenario names the FCS tests it covers in its @fcs: tags, OB-301- for v3.1 and
  OB-400- for v4.0) and the rules the standard makes beyond them. The rules are written in v3.1.11's
  words; a bank at v4.0 (standard: uk-4.0) is judged by v4.0's schemas and codes (an error code
  "UK.OBIE.Field.Invalid" is U002 there). Two consents serve every scenario, each over the PSU's
  first account only, for the transactions of the last 100 days and the 60 days ahead:
    "uk full"  — every permission of the standard (Basic and Detail);
    "uk basic" — ReadAccountsBasic, ReadBeneficiariesBasic, ReadScheduledPaymentsBasic,
                 ReadStandingOrdersBasic, ReadStatementsBasic, ReadTransactionsBasic,
                 ReadTransactionsCredits and ReadTransactionsDebits (no Detail, no other resource).
  Each FCS test has a scenario or an Examples row of its own (its verdict is its own in the reports).
  OB-301-PRO-103403 is not covered: it calls /product, a path v3.1.11 does not define (the bulk read
  of products is /products, whose x-fapi-interaction-id play-back the UKAIS-14 scenarios judge);
  nor is its v4.0 twin OB-400-PRO-103403, for the same reason (v4.0 defines no /product either).

  @UKAIS-01 @level-MUST @source-standard
  Rule: UKAIS-01 — The consent's permissions bound the resources: a read whose permission the consent lacks is refused with 403 (or 400), never answered

    @A
    Scenario Outline: Without its permission, <what> is refused
      Given the PSU has authorised the "uk basic" consent of UK Read/Write
      When the AISP requests <what> under the "uk basic" consent
      Then the bank refuses the request with 400 or 403

      @fcs:OB-301-BAL-101400 @fcs:OB-400-BAL-101400
      Examples:
        | what |
        | the balances of the first account |

      Examples:
        | what |
        | the balances of every account |

      Examples:
        | what |
        | the direct debits of the first account |

      Examples:
        | what |
        | the direct debits of every account |

      Examples:
        | what |
        | the offers of every account |

      Examples:
        | what |
        | the PSU's own party |

      Examples:
        | what |
        | the party of the first account |

      Examples:
        | what |
        | the parties of the first account |

      Examples:
        | what |
        | the product of the first account |

      Examples:
        | what |
        | the products of every account |

      Examples:
        | what |
        | the file of the first statement of the first account |

  @UKAIS-02 @level-MUST @source-standard
  Rule: UKAIS-02 — Basic permissions disclose no detail: no payee account or agent with standing orders, scheduled payments or beneficiaries, no Detail fields of accounts or transactions

    @A
    Scenario: Under Basic permissions no payee's account or agent is disclosed, per account or in bulk
      Given the PSU has authorised the "uk basic" consent of UK Read/Write
      When the AISP requests the standing orders, the scheduled payments and the beneficiaries of the first account and of every account under the "uk basic" consent
      Then every answer is 200 OK and none of them names a payee's CreditorAccount or CreditorAgent

    @A
    Scenario: Under Basic permissions the bulk transactions carry no Detail field
      Given the PSU has authorised the "uk basic" consent of UK Read/Write
      When the AISP requests the transactions of every account under the "uk basic" consent
      Then the bank answers 200 OK
      And no transaction carries a field that only ReadTransactionsDetail unlocks

    # Every read of the standard's catalogue that the consent's permissions open (per account, in
    # bulk, a statement and its transactions), each judged by the permission table of the Account and
    # Transaction API profile (FACTS §2.3): Account and Servicer of an account, the Detail fields of a
    # transaction, a payee's account and agent, a statement's StatementAmount.
    @A
    Scenario: Under Basic permissions no read carries a field that only a Detail permission opens
      Given the PSU has authorised the "uk basic" consent of UK Read/Write
      When the AISP makes every read the "uk basic" consent permits
      Then every answer is 200 OK and none carries a field that only a Detail permission opens

  @UKAIS-03 @level-MUST @source-standard
  Rule: UKAIS-03 — The consent's TransactionFromDateTime and TransactionToDateTime bound statements and scheduled payments

    @A
    Scenario Outline: <what> lie inside the consent's transaction period
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests <what> under the "uk full" consent
      Then the bank answers 200 OK
      And every statement's period and every ScheduledPaymentDateTime in the answer fall inside the consent's transaction period

      Examples:
        | what |
        | the statements of every account |
        | the statements of the first account |
        | the scheduled payments of every account |
        | the scheduled payments of the first account |

    @A
    Scenario: Each statement's transactions lie inside the consent's transaction period
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP reads the transactions of each statement of the first account under the "uk full" consent
      Then every answer is 200 OK and every transaction's BookingDateTime falls inside the consent's transaction period

  @UKAIS-04 @level-MUST @source-standard
  Rule: UKAIS-04 — The bulk reads cover exactly the accounts the PSU selected for the consent

    @A
    Scenario: Every bulk read lists resources of the selected account only
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests every bulk read of the standard under the "uk full" consent
      Then every resource listed belongs to an account of the consent's account list

  @UKAIS-05 @level-MUST @source-standard
  Rule: UKAIS-05 — Without ReadPAN every PAN comes back masked, in whatever read it appears

    # A card's number (a transaction's CardInstrument.Identification, an account identified by
    # UK.OBIE.PAN) in the clear is 12 to 19 digits ending in its Luhn check digit. A bank whose reads
    # carry no PAN at all gives nothing to judge.
    @A
    Scenario: Under a consent without ReadPAN no read names a card number in the clear
      Given the PSU has authorised the "uk basic" consent of UK Read/Write
      When the AISP makes every read the "uk basic" consent permits
      Then no answer carries a PAN in the clear

  @UKAIS-10 @level-MUST @source-official-schema
  Rule: UKAIS-10 — Every read of the standard answers 200 with a body valid against its official schema, and an x-fapi-interaction-id

    @A
    Scenario Outline: <what> under the "<consent>" consent answers 200 with the standard's schema
      Given the PSU has authorised the "<consent>" consent of UK Read/Write
      When the AISP requests <what> under the "<consent>" consent
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is valid against the standard's schema of that read

      @fcs:OB-301-ACC-100000 @fcs:OB-400-ACC-100000
      Examples:
        | what | consent |
        | the first account | uk basic |

      @fcs:OB-301-ACC-100200 @fcs:OB-400-ACC-100200
      Examples:
        | what | consent |
        | the first account | uk full |

      @fcs:OB-301-ACC-100300 @fcs:OB-400-ACC-100300
      Examples:
        | what | consent |
        | the account list | uk basic |

      @fcs:OB-301-ACC-100400 @fcs:OB-400-ACC-100400
      Examples:
        | what | consent |
        | the account list | uk full |

      @fcs:OB-301-BAL-101200 @fcs:OB-400-BAL-101200
      Examples:
        | what | consent |
        | the balances of the first account | uk full |

      @fcs:OB-301-BAL-101300 @fcs:OB-400-BAL-101300
      Examples:
        | what | consent |
        | the balances of every account | uk full |

      @fcs:OB-301-BEN-101800 @fcs:OB-400-BEN-101800
      Examples:
        | what | consent |
        | the beneficiaries of the first account | uk full |

      @fcs:OB-301-BEN-101900 @fcs:OB-400-BEN-101900
      Examples:
        | what | consent |
        | the beneficiaries of every account | uk full |

      @fcs:OB-301-DIR-102300 @fcs:OB-400-DIR-102300
      Examples:
        | what | consent |
        | the direct debits of the first account | uk full |

      @fcs:OB-301-DIR-102400 @fcs:OB-400-DIR-102400
      Examples:
        | what | consent |
        | the direct debits of every account | uk full |

      @fcs:OB-301-OFF-102600 @fcs:OB-400-OFF-102600
      Examples:
        | what | consent |
        | the offers of the first account | uk full |

      @fcs:OB-301-OFF-102700 @fcs:OB-400-OFF-102700
      Examples:
        | what | consent |
        | the offers of every account | uk full |

      @fcs:OB-301-PAR-102900 @fcs:OB-400-PAR-102900
      Examples: the party, with additional schema checks
        | what | consent |
        | the party of the first account | uk full |

      @fcs:OB-301-PAR-103000 @fcs:OB-400-PAR-103000
      Examples: the party, all data with ReadParty
        | what | consent |
        | the party of the first account | uk full |

      @fcs:OB-301-PAR-102901 @fcs:OB-400-PAR-102901
      Examples:
        | what | consent |
        | the PSU's own party | uk full |

      @fcs:OB-301-PAR-102902 @fcs:OB-400-PAR-102902
      Examples:
        | what | consent |
        | the parties of the first account | uk full |

      @fcs:OB-301-PRO-103200 @fcs:OB-400-PRO-103200
      Examples:
        | what | consent |
        | the product of the first account | uk full |

      @fcs:OB-301-PRO-103300 @fcs:OB-400-PRO-103300
      Examples:
        | what | consent |
        | the products of every account | uk full |

      @fcs:OB-301-SCP-103500 @fcs:OB-400-SCP-103500
      Examples:
        | what | consent |
        | the scheduled payments of the first account | uk full |

      @fcs:OB-301-SCP-103600 @fcs:OB-400-SCP-103600
      Examples:
        | what | consent |
        | the scheduled payments of every account | uk full |

      @fcs:OB-301-STO-103800 @fcs:OB-400-STO-103800
      Examples:
        | what | consent |
        | the standing orders of the first account | uk full |

      @fcs:OB-301-STO-103900 @fcs:OB-400-STO-103900
      Examples: every standing order, with ReadStandingOrdersDetail
        | what | consent |
        | the standing orders of every account | uk full |

      @fcs:OB-301-STO-103901 @fcs:OB-400-STO-103901
      Examples: every standing order, once more
        | what | consent |
        | the standing orders of every account | uk full |

      @fcs:OB-301-TRA-105000 @fcs:OB-400-TRA-105000
      Examples:
        | what | consent |
        | the transactions of the first account | uk basic |

      @fcs:OB-301-TRA-105100 @fcs:OB-400-TRA-105100
      Examples:
        | what | consent |
        | the transactions of the first account | uk full |

      @fcs:OB-301-TRA-105200 @fcs:OB-400-TRA-105200
      Examples:
        | what | consent |
        | the transactions of every account | uk basic |

      Examples:
        | what | consent |
        | the transactions of every account | uk full |

      Examples:
        | what | consent |
        | the statements of the first account | uk full |

      Examples:
        | what | consent |
        | the statements of every account | uk full |

      Examples:
        | what | consent |
        | the first statement of the first account | uk full |

      Examples:
        | what | consent |
        | the transactions of the first statement of the first account | uk full |

      Examples:
        | what | consent |
        | the file of the first statement of the first account | uk full |

    @A @fcs:OB-313-ACC-000100
    Scenario: The account list is read without x-fapi-financial-id, which the standard no longer has
      Given the PSU has authorised the "uk basic" consent of UK Read/Write
      When the AISP requests the account list under the "uk basic" consent, without x-fapi-financial-id
      Then the request carried no x-fapi-financial-id header
      And the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is valid against the standard's schema of that read

    @A
    Scenario Outline: The booking-date filters are accepted in the standard's date-time forms
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests <what> under the "uk full" consent, with the query "<query>"
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is valid against the standard's schema of that read

      @fcs:OB-301-TRA-105110 @fcs:OB-400-TRA-105110
      Examples: whole seconds
        | what | query |
        | the transactions of the first account | fromBookingDateTime=2020-04-23T15:47:00&toBookingDateTime=2020-04-23T15:48:00 |

      @fcs:OB-301-TRA-105120 @fcs:OB-400-TRA-105120
      Examples: fractional seconds
        | what | query |
        | the transactions of the first account | fromBookingDateTime=2020-04-23T15:47:00.999&toBookingDateTime=2020-04-23T15:48:00.999 |

  @UKAIS-11 @level-MUST @source-standard
  Rule: UKAIS-11 — A read without the PSU's access token is refused with 401: no token, or a client-credentials token

    @A
    Scenario Outline: <what> without an access token is refused with 401
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests <what> without an access token
      Then the bank refuses the request with 401

      @fcs:OB-301-ACC-100500 @fcs:OB-400-ACC-100500
      Examples: the suite's incorrect-permissions case, which asserts 401
        | what |
        | the first account |

      @fcs:OB-301-ACC-101000 @fcs:OB-400-ACC-101000
      Examples: the suite's no-token case
        | what |
        | the first account |

      @fcs:OB-301-ACC-100600 @fcs:OB-400-ACC-100600
      Examples: the suite's incorrect-permissions case, which asserts 401
        | what |
        | the account list |

      @fcs:OB-301-ACC-101100 @fcs:OB-400-ACC-101100
      Examples: the suite's no-token case
        | what |
        | the account list |

      @fcs:OB-301-BAL-101500 @fcs:OB-400-BAL-101500
      Examples:
        | what |
        | the balances of every account |

      @fcs:OB-301-BEN-102000 @fcs:OB-400-BEN-102000
      Examples: the suite's incorrect-permissions case for beneficiaries, which asserts 401
        | what |
        | the beneficiaries of every account |

      @fcs:OB-301-PAR-103103 @fcs:OB-400-PAR-103103
      Examples: the suite's incorrect-permissions case for party, which asserts 401
        | what |
        | the beneficiaries of every account |

      @fcs:OB-301-BEN-102100 @fcs:OB-400-BEN-102100
      Examples:
        | what |
        | the beneficiaries of the first account |

      @fcs:OB-301-TRA-105300 @fcs:OB-400-TRA-105300
      Examples:
        | what |
        | the transactions of the first account |

      @fcs:OB-301-TRA-105400 @fcs:OB-400-TRA-105400
      Examples:
        | what |
        | the transactions of every account |

      Examples:
        | what |
        | the direct debits of every account |

      Examples:
        | what |
        | the standing orders of every account |

      Examples:
        | what |
        | the statements of every account |

    @A
    Scenario Outline: <what> with a client-credentials token is refused with 401
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests <what> with a client-credentials token
      Then the bank refuses the request with 401

      @fcs:OB-301-BAL-101700 @fcs:OB-400-BAL-101700
      Examples:
        | what |
        | the balances of every account |

      @fcs:OB-301-BEN-102203 @fcs:OB-400-BEN-102203
      Examples:
        | what |
        | the beneficiaries of every account |

      @fcs:OB-301-DIR-102502 @fcs:OB-400-DIR-102502
      Examples:
        | what |
        | the direct debits of every account |

      @fcs:OB-301-OFF-102802 @fcs:OB-400-OFF-102802
      Examples:
        | what |
        | the offers of every account |

      @fcs:OB-301-PAR-103102 @fcs:OB-400-PAR-103102
      Examples:
        | what |
        | the PSU's own party |

      @fcs:OB-301-PRO-102802 @fcs:OB-400-PRO-102802
      Examples:
        | what |
        | the products of every account |

      @fcs:OB-301-SCP-103702 @fcs:OB-400-SCP-103702
      Examples:
        | what |
        | the scheduled payments of every account |

      @fcs:OB-301-STO-104101 @fcs:OB-400-STO-104101
      Examples:
        | what |
        | the standing orders of every account |

  @UKAIS-12 @level-MUST @source-standard
  Rule: UKAIS-12 — An account the consent does not cover is refused (400 or 403), never answered

    @A
    Scenario Outline: The <resource> of an account outside the consent are refused
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests the <resource> of the account "foobar" under the "uk full" consent
      Then the bank refuses the request with 400 or 403

      @fcs:OB-301-BAL-101600 @fcs:OB-400-BAL-101600
      Examples:
        | resource |
        | balances |

      @fcs:OB-301-DIR-102500 @fcs:OB-400-DIR-102500
      Examples:
        | resource |
        | direct debits |

      @fcs:OB-301-PAR-103100 @fcs:OB-400-PAR-103100
      Examples:
        | resource |
        | party |

      @fcs:OB-301-PAR-103106 @fcs:OB-400-PAR-103106
      Examples:
        | resource |
        | parties |

      @fcs:OB-301-PRO-103400 @fcs:OB-400-PRO-103400
      Examples:
        | resource |
        | product |

      @fcs:OB-301-TRA-105700 @fcs:OB-400-TRA-105700
      Examples:
        | resource |
        | transactions |

    @A
    Scenario Outline: The <resource> of an account outside the consent are refused with 403, or 400 and the standard's error code
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests the <resource> of the account "foobar" under the "uk full" consent
      Then the bank refuses the request with 403, or with 400 and the error code "UK.OBIE.Field.Invalid" or "UK.OBIE.Resource.NotFound"

      @fcs:OB-301-BEN-102200 @fcs:OB-400-BEN-102200
      Examples:
        | resource |
        | beneficiaries |

      @fcs:OB-301-OFF-102800 @fcs:OB-400-OFF-102800
      Examples:
        | resource |
        | offers |

      @fcs:OB-301-SCP-103700 @fcs:OB-400-SCP-103700
      Examples:
        | resource |
        | scheduled payments |

      @fcs:OB-301-STO-104000 @fcs:OB-400-STO-104000
      Examples:
        | resource |
        | standing orders |

  @UKAIS-13 @level-MUST @source-standard
  Rule: UKAIS-13 — A path the standard does not define answers 404 Not Found

    @A @fcs:OB-301-ACC-001000 @fcs:OB-400-ACC-001000
    Scenario: An undefined endpoint of the account-information API answers 404
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests the undefined path "/foobar" of the account-information API under the "uk full" consent
      Then the bank refuses the request with 404

    @A
    Scenario Outline: An undefined sub-resource below <what> answers 404
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests the undefined sub-resource "foobar" below <what> under the "uk full" consent
      Then the bank refuses the request with 404

      @fcs:OB-301-ACC-101101 @fcs:OB-400-ACC-101101
      Examples:
        | what |
        | the first account |

      @fcs:OB-301-BAL-101701 @fcs:OB-400-BAL-101701
      Examples:
        | what |
        | the balances of the first account |

      @fcs:OB-301-BEN-102201 @fcs:OB-400-BEN-102201
      Examples:
        | what |
        | the beneficiaries of the first account |

      @fcs:OB-301-DIR-102501 @fcs:OB-400-DIR-102501
      Examples:
        | what |
        | the direct debits of the first account |

      @fcs:OB-301-OFF-102801 @fcs:OB-400-OFF-102801
      Examples:
        | what |
        | the offers of the first account |

      @fcs:OB-301-PAR-103101 @fcs:OB-400-PAR-103101
      Examples:
        | what |
        | the party of the first account |

      @fcs:OB-301-PAR-103107 @fcs:OB-400-PAR-103107
      Examples:
        | what |
        | the parties of the first account |

      @fcs:OB-301-PRO-103401 @fcs:OB-400-PRO-103401
      Examples:
        | what |
        | the product of the first account |

      @fcs:OB-301-SCP-103701 @fcs:OB-400-SCP-103701
      Examples:
        | what |
        | the scheduled payments of the first account |

      @fcs:OB-301-STO-104100 @fcs:OB-400-STO-104100
      Examples:
        | what |
        | the standing orders of the first account |

  @UKAIS-14 @level-MUST @source-standard
  Rule: UKAIS-14 — The x-fapi-interaction-id the TPP sends is played back on every read

    @A
    Scenario Outline: <what> plays back the x-fapi-interaction-id sent
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests <what> under the "uk full" consent, sending the x-fapi-interaction-id "<id>"
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent

      @fcs:OB-301-ACC-100700 @fcs:OB-400-ACC-100700
      Examples: an account
        | what | id |
        | the first account | f5a10e5e-0c46-41c5-a7b7-c8f56020520c |

      @fcs:OB-301-ACC-100800 @fcs:OB-400-ACC-100800
      Examples: an account, the id given
        | what | id |
        | the first account | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

      @fcs:OB-301-BAL-101702 @fcs:OB-400-BAL-101702
      Examples:
        | what | id |
        | the balances of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-BAL-101703 @fcs:OB-400-BAL-101703
      Examples:
        | what | id |
        | the balances of every account | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

      @fcs:OB-301-BEN-102204 @fcs:OB-400-BEN-102204
      Examples:
        | what | id |
        | the beneficiaries of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-BEN-102205 @fcs:OB-400-BEN-102205
      Examples:
        | what | id |
        | the beneficiaries of every account | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

      @fcs:OB-301-DIR-102503 @fcs:OB-400-DIR-102503
      Examples:
        | what | id |
        | the direct debits of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-DIR-102504 @fcs:OB-400-DIR-102504
      Examples:
        | what | id |
        | the direct debits of every account | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

      @fcs:OB-301-OFF-102803 @fcs:OB-400-OFF-102803
      Examples:
        | what | id |
        | the offers of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-OFF-102804 @fcs:OB-400-OFF-102804
      Examples:
        | what | id |
        | the offers of every account | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

      @fcs:OB-301-PAR-103104 @fcs:OB-400-PAR-103104
      Examples:
        | what | id |
        | the party of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-PAR-103105 @fcs:OB-400-PAR-103105
      Examples:
        | what | id |
        | the PSU's own party | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

      @fcs:OB-301-PAR-103108 @fcs:OB-400-PAR-103108
      Examples:
        | what | id |
        | the parties of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-PRO-103402 @fcs:OB-400-PRO-103402
      Examples:
        | what | id |
        | the product of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-SCP-103703 @fcs:OB-400-SCP-103703
      Examples:
        | what | id |
        | the scheduled payments of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-SCP-103704 @fcs:OB-400-SCP-103704
      Examples:
        | what | id |
        | the scheduled payments of every account | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

      @fcs:OB-301-STO-104102 @fcs:OB-400-STO-104102
      Examples:
        | what | id |
        | the standing orders of the first account | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-STO-104103 @fcs:OB-400-STO-104103
      Examples:
        | what | id |
        | the standing orders of every account | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

      @fcs:OB-301-TRA-105500 @fcs:OB-400-TRA-105500
      Examples:
        | what | id |
        | the transactions of the first account | f5a10e5e-0c46-41c5-a7b7-c8f56020520c |

      @fcs:OB-301-TRA-105600 @fcs:OB-400-TRA-105600
      Examples:
        | what | id |
        | the transactions of every account | f5a10e5e-0c46-41c5-a7b7-c8f560205200 |

    @A
    Scenario Outline: The statements filtered from a date-time in one of the standard's ISO 8601 forms play back the x-fapi-interaction-id
      Given the PSU has authorised the "uk full" consent of UK Read/Write
      When the AISP requests the statements of every account under the "uk full" consent, sending the x-fapi-interaction-id "<id>", with the query "<query>"
      Then the bank answers 200 OK
      And the response carries the x-fapi-interaction-id the TPP sent
      And the body is valid against the standard's schema of that read

      @fcs:OB-301-STA-105900 @fcs:OB-400-STA-105900
      Examples: 2016-01-01T10:40:00
        | query | id |
        | fromStatementDateTime=2016-01-01T10:40:00 | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-STA-106000 @fcs:OB-400-STA-106000
      Examples: 20160101T104012.345Z
        | query | id |
        | fromStatementDateTime=20160101T104012.345Z | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-STA-106100 @fcs:OB-400-STA-106100
      Examples: 2016-01-01T10:40:12.34567Z
        | query | id |
        | fromStatementDateTime=2016-01-01T10:40:12.34567Z | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-STA-106200 @fcs:OB-400-STA-106200
      Examples: 2016-01-01T10:40:12.34567+01
        | query | id |
        | fromStatementDateTime=2016-01-01T10:40:12.34567+01 | 93bac548-d2de-4546-b106-880a5018460d |

      @fcs:OB-301-STA-106300 @fcs:OB-400-STA-106300
      Examples: 20160101T104012.567+01
        | query | id |
        | fromStatementDateTime=20160101T104012.567+01 | 93bac548-d2de-4546-b106-880a5018460d |
