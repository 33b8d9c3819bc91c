/**
 * cucumber's formatter for its stdout, which the runner sends nowhere (the run's console is
 * obtpp's own, fed by the message stream). Without one, cucumber formats every step for that
 * stdout with its default `progress` formatter and the text is dropped: about 4 ms of CPU per
 * scoped run, thrown away. Loaded by the runner as a formatter plugin (compiled, like the
 * JUnit formatter).
 */
const plugin = {
  type: 'formatter' as const,
  formatter(): void {
    // Listens to nothing and writes nothing.
  },
};

export default plugin;
