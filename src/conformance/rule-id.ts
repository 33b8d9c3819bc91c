/**
 * A rule's id as the features tag it: a prefix of capitals naming its area (AIS, COF, PIS, SEC, or
 * any later one such as DCR) and a two- or three-digit number. Every reader of rule ids uses this
 * one pattern, so a new area needs no other change.
 */
export const RULE_ID = /^[A-Z]{2,5}-\d{2,3}$/;

/** The rule id among a scenario's or rule's tags (`@AIS-02` → `AIS-02`), if any. */
export function ruleIdOf(tags: readonly string[]): string | undefined {
  for (const t of tags) {
    const id = t.startsWith('@') ? t.slice(1) : t;
    if (RULE_ID.test(id)) return id;
  }
  return undefined;
}
