@pis @dialect-berlin-group
Feature: The pain.001 payment products (Berlin Group NextGenPSD2)

  POST /v1/payments/{payment-product} and /v1/bulk-payments/{payment-product} with the pain.001
  products (pain.001-sepa-credit-transfers, pain.001-instant-sepa-credit-transfers,
  pain.001-target-2-payments, pain.001-cross-border-credit-transfers): the body is an ISO 20022
  pain.001.001.03 document (application/xml), the 201 answer is JSON, GET of the payment answers the
  document (application/xml) and its status is asked as JSON, and as XML: a pain.002.001.03 status
  report of the pain.001 sent, with the status the JSON answer gives. A standing order
  (/v1/periodic-payments/pain.001-…) is the file's multipart/form-data: the document (xml_sct) and
  its terms in JSON (json_standingorderType), read back as both parts. A product the profile's
  paymentProducts does not list is not applicable. No PSU journey.

  @BG-45 @level-MUST @source-official-schema
  Rule: BG-45 — Each pain.001 product the bank offers takes a pain.001 document, and reads it back as sent

    @A
    Scenario Outline: A single payment of <product> as a pain.001 document
      When the TPP initiates a NextGenPSD2 payment of the pain.001 product "<product>" from the PSU's first account
      Then the bank answers 201 with a valid "paymentInitiationRequestResponse-201"
      And the answer gives a way to start the PSU's SCA of the payment
      When the TPP reads the pain.001 payment under its product
      Then the bank reads back the pain.001 document as sent: well-formed, with the same MsgId, counts, amounts and IBANs
      When the TPP reads the pain.001 payment's status as JSON
      Then the bank answers 200 with a valid "paymentInitiationStatusResponse-200_json"
      And the NextGenPSD2 payment's transaction status is an ISO 20022 code

      Examples:
        | product                                |
        | pain.001-sepa-credit-transfers         |
        | pain.001-instant-sepa-credit-transfers |
        | pain.001-target-2-payments             |
        | pain.001-cross-border-credit-transfers |

    @A
    Scenario: A bulk of two payments as one pain.001 document reads back both
      When the TPP initiates a NextGenPSD2 bulk of 2 payments as one pain.001 of the bank's first pain.001 product
      Then the bank answers 201 with a valid "paymentInitiationRequestResponse-201"
      And the answer gives a way to start the PSU's SCA of the payment
      When the TPP reads the pain.001 payment under its product
      Then the bank reads back the pain.001 document as sent: well-formed, with the same MsgId, counts, amounts and IBANs
      When the TPP reads the pain.001 payment's status as JSON
      Then the bank answers 200 with a valid "paymentInitiationStatusResponse-200_json"

    @A
    Scenario: A standing order as a pain.001 and its terms in JSON reads back both parts
      When the TPP initiates a NextGenPSD2 standing order as a pain.001 with its terms in JSON, of the bank's first pain.001 product
      Then the bank answers 201 with a valid "paymentInitiationRequestResponse-201"
      And the answer gives a way to start the PSU's SCA of the payment
      When the TPP reads the pain.001 payment under its product
      Then the bank reads back the standing order as sent: its pain.001 document and its terms, as multipart/form-data
      When the TPP reads the pain.001 payment's status as JSON
      Then the bank answers 200 with a valid "paymentInitiationStatusResponse-200_json"

    @A
    Scenario: A pain.001 payment's status asked as XML is a pain.002 report of that pain.001, with the status read as JSON
      When the TPP initiates a NextGenPSD2 payment of the bank's first pain.001 product from the PSU's first account
      Then the bank answers 201 with a valid "paymentInitiationRequestResponse-201"
      When the TPP reads the pain.001 payment's status as XML, and as JSON just before and just after it
      Then the bank answers the status as a pain.002 report of the pain.001 sent, its status the transaction status read as JSON

    @A
    Scenario: A pain.001 whose NbOfTxs and CtrlSum do not match its transactions is refused
      When the TPP initiates a NextGenPSD2 bulk of 2 payments as one pain.001 whose NbOfTxs and CtrlSum count 3
      Then the bank refuses the NextGenPSD2 request with 400
