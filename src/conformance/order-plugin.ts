/**
 * A cucumber plugin that orders the scenarios of a run:
 * - those tagged @recurring-consent first: each has the PSU authorise a recurring consent of its
 *   own, and in NextGenPSD2 that expires the PSU's former recurring consent (POST /v1/consents,
 *   "Side Effects"). Run one after another before the rest, they leave the consent the other
 *   scenarios read through (the PSU's full consent) to be made once per variant after them, and
 *   meanwhile the set-ups that expire nothing (one-off and rejected consents) are prepared. Among
 *   them, those with the same first step run together: the consent it makes may then serve the
 *   next one too, before another recurring consent expires it.
 * - those tagged @waits last. They judge what time does to a consent (expiry); their consents are
 *   prepared when the run starts, so by the time they come, the wait has passed while everything
 *   else ran.
 * Otherwise the features' order. The runner orders its plan of the run the same way
 * ({@link runOrder}), so that the set-ups prepared ahead are prepared in the order they are needed.
 */
export function runOrder<T>(items: readonly T[], tagsOf: (item: T) => readonly string[], firstStepOf: (item: T) => string | undefined): T[] {
  const rank = (item: T) => {
    const tags = tagsOf(item);
    return tags.includes('@recurring-consent') ? 0 : tags.includes('@waits') ? 2 : 1;
  };
  const first = items.filter((item) => rank(item) === 0);
  const groups = [...new Set(first.map(firstStepOf))];
  return [
    ...groups.flatMap((step) => first.filter((item) => firstStepOf(item) === step)),
    ...[1, 2].flatMap((r) => items.filter((item) => rank(item) === r)),
  ];
}

const plugin = {
  type: 'plugin' as const,
  coordinator({ transform }: { transform: (key: 'pickles:order', fn: (pickles: ReadonlyArray<any>) => any[]) => void }) {
    transform('pickles:order', (pickles) => runOrder(pickles, (p: any) => p.pickle.tags.map((t: { name: string }) => t.name), (p: any) => p.pickle.steps[0]?.text));
  },
};

export default plugin;
