/**
 * The shape in which a route module declares the faults that bend it (next to its routes); the fault
 * registries (faults.ts, berlin-group/faults.ts) collect them. A type only: no code, no imports.
 */
export interface FaultDeclaration {
  /** The `--fault` value. */
  readonly name: string;
  /** The rule it breaks (`CHAOS` for chaos faults). */
  readonly rule: string;
  readonly description: string;
  readonly kind: 'rule' | 'chaos' | 'data';
  /** SHOULD: breaks only what the harness demands beyond the official schema (a warning, not a failure). */
  readonly level?: 'SHOULD';
  /** The published standard whose layout the rule is judged in (its scenarios run only there). */
  readonly standard?: string;
  /**
   * berlin-group: the SCA approaches the bank must offer for the fault to show (a fault of the
   * decoupled or embedded SCA bends nothing in a redirect run); default the sandbox's own.
   */
  readonly sca?: readonly string[];
  /** berlin-group: the fault shows only in a bank that signs (the sandbox's `signatures` option). */
  readonly signatures?: boolean;
  /** The sandbox security profile (`--security`) whose flow the fault bends (a fault of DPoP shows only where tokens are DPoP-bound). */
  readonly security?: string;
}

/**
 * The faults switched on, as a route module reads them. Structural, so that the modules do not
 * import the registry that collects their declarations (that would be an import circle); the
 * names they ask for are checked by test/sandbox/fault-placement.test.ts.
 */
export interface SwitchedFaults {
  has(name: string): boolean;
}
