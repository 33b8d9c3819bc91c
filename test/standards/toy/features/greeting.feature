@dialect-toy
Feature: The toy bank greets

  @TOY-01 @level-MUST
  Rule: TOY-01 — the bank answers GET /greeting with its greeting

    @A @B
    Scenario: the greeting is read
      When the toy bank is asked for its greeting
      Then the toy bank greets with "hello"
