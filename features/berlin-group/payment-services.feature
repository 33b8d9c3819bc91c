@pis @dialect-berlin-group
Feature: The periodic and bulk payment services (Berlin Group NextGenPSD2)

  POST /v1/periodic-payments/{payment-product} (a standing order: startDate, endDate, frequency,
  executionRule, dayOfExecution) and POST /v1/bulk-payments/{payment-product} (one debtor account,
  several payments, batchBookingPreferred), their GET and /status. A profile whose `implements`
  leaves a service out (the bank does not offer it) has its scenarios not applicable. No PSU
  journey: what is judged is the initiation, the read-back and the status.

  @BG-42 @level-MUST @source-official-schema
  Rule: BG-42 — A standing order is initiated and reads back as initiated, and its frequency is one of the standard's

    @A
    Scenario: A monthly standing order reads back its dates, frequency, execution rule and day of execution
      When the TPP initiates a NextGenPSD2 standing order from the PSU's first account, "Monthly", "following", on day 5
      Then the bank answers 201 with a valid "paymentInitiationRequestResponse-201"
      And the answer gives a way to start the PSU's SCA of the payment
      When the TPP reads the NextGenPSD2 standing order
      Then the bank answers 200 with a valid "periodicPaymentInitiationWithStatusResponse"
      And the standing order reads back its startDate, endDate, frequency, executionRule and dayOfExecution as initiated
      When the TPP reads the NextGenPSD2 standing order's status
      Then the bank answers 200 with a valid "paymentInitiationStatusResponse-200_json"
      And the NextGenPSD2 payment's transaction status is an ISO 20022 code

    @A
    Scenario: A standing order whose frequency is not one of the standard's is refused
      When the TPP initiates a NextGenPSD2 standing order from the PSU's first account, "Fortnightly", "following", on day 5
      Then the bank refuses the NextGenPSD2 request with 400

  @BG-43 @level-MUST @source-official-schema
  Rule: BG-43 — A bulk payment is initiated and reads back with each of its payments

    @A
    Scenario: A bulk of two payments reads back both, and its status
      When the TPP initiates a NextGenPSD2 bulk of 2 payments from the PSU's first account
      Then the bank answers 201 with a valid "paymentInitiationRequestResponse-201"
      And the answer gives a way to start the PSU's SCA of the payment
      When the TPP reads the NextGenPSD2 bulk payment
      Then the bank answers 200 with a valid "bulkPaymentInitiationWithStatusResponse"
      And the bulk payment reads back each of its payments as initiated
      When the TPP reads the NextGenPSD2 bulk payment's status
      Then the bank answers 200 with a valid "paymentInitiationStatusResponse-200_json"
      And the NextGenPSD2 payment's transaction status is an ISO 20022 code

  @BG-44 @level-MUST @source-official-schema
  Rule: BG-44 — Each JSON payment product the bank offers takes a single payment, readable under its product

    @A
    Scenario Outline: A single payment of <product>
      When the TPP initiates a NextGenPSD2 payment of the product "<product>" from the PSU's first account
      Then the bank answers 201 with a valid "paymentInitiationRequestResponse-201"
      And the answer gives a way to start the PSU's SCA of the payment
      When the TPP reads the NextGenPSD2 payment under its product
      Then the bank answers 200 with a valid "paymentInitiationWithStatusResponse"
      And the payment reads back its amount and accounts as initiated

      Examples:
        | product                       |
        | sepa-credit-transfers         |
        | instant-sepa-credit-transfers |
        | target-2-payments             |
        | cross-border-credit-transfers |
