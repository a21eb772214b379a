/**
 * Spacing checks on a series of strictly increasing open times: the most common spacing (to infer
 * an interval), and the gaps, i.e. runs of missing bars given the interval.
 */
import { intervalMs, nextOpenTime, type KlineInterval } from './intervals.ts';

/** Missing bars between two present ones: open times of the first and last missing bar (inclusive). */
export interface KlineGap {
  from: number;
  to: number;
  missing: number;
}

/** The most frequent difference between consecutive open times (ties: the smaller), or undefined. */
export function commonSpacing(openTimes: ArrayLike<number>): number | undefined {
  const counts = new Map<number, number>();
  for (let i = 1; i < openTimes.length; i++) {
    const d = openTimes[i]! - openTimes[i - 1]!;
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best: number | undefined;
  let bestCount = 0;
  for (const [d, c] of counts) {
    if (c > bestCount || (c === bestCount && best !== undefined && d < best)) {
      best = d;
      bestCount = c;
    }
  }
  return best;
}

export type SpacingProblem = { index: number; kind: 'too-close' | 'off-grid'; expected: number };

/**
 * Gaps given the interval, or the first bar that does not sit on the series' grid: closer than one
 * interval to the one before (wrong interval, or a bar that does not belong), or between two slots.
 */
export function findGaps(openTimes: ArrayLike<number>, interval: KlineInterval): { gaps: KlineGap[]; problem?: SpacingProblem } {
  const gaps: KlineGap[] = [];
  const ms = intervalMs(interval);
  for (let i = 1; i < openTimes.length; i++) {
    const prev = openTimes[i - 1]!;
    const t = openTimes[i]!;
    const expected = nextOpenTime(prev, interval);
    if (t === expected) continue;
    if (t < expected) return { gaps, problem: { index: i, kind: 'too-close', expected } };
    if (ms !== undefined) {
      if ((t - prev) % ms !== 0) return { gaps, problem: { index: i, kind: 'off-grid', expected } };
      gaps.push({ from: expected, to: t - ms, missing: (t - prev) / ms - 1 });
    } else {
      let last = expected;
      let missing = 0;
      let slot = expected;
      while (slot < t) {
        last = slot;
        missing++;
        slot = nextOpenTime(slot, interval);
      }
      if (slot !== t) return { gaps, problem: { index: i, kind: 'off-grid', expected } };
      gaps.push({ from: expected, to: last, missing });
    }
  }
  return { gaps };
}
