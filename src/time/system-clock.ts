import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../ports/clock.ts';

/** Wall-clock time for live runs. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => delay(Math.max(0, ms), undefined, signal ? { signal } : undefined),
};
