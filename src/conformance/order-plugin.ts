/**
 * A cucumber plugin that runs the scenarios tagged @waits last. They judge what time does to a
 * consent (expiry); their consents are prepared when the run starts, so by the time they come,
 * the wait has passed while everything else ran.
 */
const plugin = {
  type: 'plugin' as const,
  coordinator({ transform }: { transform: (key: 'pickles:order', fn: (pickles: ReadonlyArray<any>) => any[]) => void }) {
    transform('pickles:order', (pickles) => {
      const waits = (p: any) => p.pickle.tags.some((t: { name: string }) => t.name === '@waits');
      return [...pickles.filter((p) => !waits(p)), ...pickles.filter(waits)];
    });
  },
};

export default plugin;
