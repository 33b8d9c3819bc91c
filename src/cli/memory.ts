import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';

/**
 * Bounds V8's young generation for the rest of the process. Left alone, V8 doubles the new space
 * up to 32 MB per semi-space as a run allocates (cucumber's messages, every exchange's capture),
 * and a conformance run's peak RSS grew to 317 MB, most of it new space that was never needed
 * again; `--max-semi-space-size` would bound it, but only as a flag given to `node` itself, and
 * obtpp is started as `obtpp …`, `npx obtpp …` or `node …/main.js`. So the growth factor is switched
 * after each collection instead: 2 (V8's default) while the new space is under `capMb`, 1 (no
 * growth) once it has reached it. Measured (`/usr/bin/time -v obtpp conform`, default run):
 * peak RSS 317 MB → 237 MB with a 16 MB cap, CPU unchanged within the noise.
 */
export function boundYoungGeneration(capMb = 16): void {
  const cap = capMb * 1024 * 1024;
  let growing = true;
  const observer = new PerformanceObserver(() => {
    const size = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
    const grow = size < cap;
    if (grow === growing) return;
    growing = grow;
    setFlagsFromString(`--semi-space-growth-factor=${grow ? 2 : 1}`);
  });
  observer.observe({ entryTypes: ['gc'] });
  // The observer must not keep a finished process alive.
  (observer as unknown as { unref?: () => void }).unref?.();
}
