/**
 * The chaos run's seeded randomness (issue 22 deliverable 1: "a seeded random schedule of faults";
 * deliverable 2: "A seed that fails replays the same schedule"). One seed, split into named streams
 * (`streamOf(seed, 'faults')`, `streamOf(seed, 'strategy:chaos-market')`), so the fault schedule
 * does not shift when a strategy draws one number more, and each strategy's intents depend only on
 * the seed and its own tick count. mulberry32 (src/core/synthetic/prng.ts): 32-bit integer
 * arithmetic only, so the same seed gives the same numbers on every platform.
 */
import { mulberry32, type Prng } from '../../core/synthetic/prng.ts';

export type { Prng };

export function streamOf(seed: string, name: string): Prng {
  return mulberry32(`${seed}:${name}`);
}

/** A fresh seed to print and replay: 8 hex digits from the system's randomness. */
export function freshSeed(): string {
  return Math.floor(Math.random() * 0x1_0000_0000)
    .toString(16)
    .padStart(8, '0');
}

/** One element of `items`, uniformly. */
export function pick<T>(prng: Prng, items: readonly T[]): T {
  const item = items[Math.floor(prng.next() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}
