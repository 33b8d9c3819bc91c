@bg @dialect-berlin-group
Feature: Message signing (Berlin Group NextGenPSD2 HTTP signature)

  A bank may require the TPP to sign every request on the application level: a Digest of the
  body (SHA-256), a Signature over Digest, X-Request-ID (and PSU-ID, PSU-Corporate-ID,
  TPP-Redirect-URI and Date where sent) naming the signing certificate by serial number and CA,
  and the certificate itself in TPP-Signature-Certificate. Where the profile says the bank
  requires it (bank.requiresSignedRequests), the bank must refuse what is not signed, or not
  signed over the body it came with. Where the bank signs its answers (bank.signingCertificate),
  each answer's Digest is its body's and its Signature verifies with the bank's certificate.

  @BG-50 @level-MUST @source-official-schema
  Rule: BG-50 — A bank that requires signed requests refuses a request not signed, or signed over another body

    @A @B
    Scenario: A consent request without the signature is refused
      Given the bank requires signed NextGenPSD2 requests
      When the TPP creates a NextGenPSD2 consent without signing the request
      Then the bank refuses the NextGenPSD2 request with 400 or 401, naming the signature

    @A @B
    Scenario: A consent request whose Digest is not its body's is refused
      Given the bank requires signed NextGenPSD2 requests
      When the TPP creates a NextGenPSD2 consent with a Digest that is not its body's
      Then the bank refuses the NextGenPSD2 request with 400 or 401, naming the signature

  @BG-51 @level-MUST @source-official-schema
  Rule: BG-51 — A bank that signs its answers signs them over their body with its certificate

    @A @B
    Scenario: The answers to a consent's creation and status read carry a valid Digest and Signature
      Given the bank signs its NextGenPSD2 answers
      When the TPP creates a NextGenPSD2 consent and reads its status
      Then each NextGenPSD2 answer carries the Digest of its body and a Signature by the bank's certificate
