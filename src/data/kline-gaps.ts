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
  const counts = new SpacingCounts();
  for (let i = 1; i < openTimes.length; i++) counts.add(openTimes[i]! - openTimes[i - 1]!);
  return counts.common();
}

/**
 * The differences between consecutive open times counted as they come, for a reader that sees the
 * bars one at a time (kline-csv-rows.ts): one entry per distinct spacing, however long the file.
 */
export class SpacingCounts {
  private readonly counts = new Map<number, number>();

  add(spacing: number): void {
    this.counts.set(spacing, (this.counts.get(spacing) ?? 0) + 1);
  }

  /** The most frequent spacing (ties: the smaller), or undefined when none was added. */
  common(): number | undefined {
    let best: number | undefined;
    let bestCount = 0;
    for (const [d, c] of this.counts) {
      if (c > bestCount || (c === bestCount && best !== undefined && d < best)) {
        best = d;
        bestCount = c;
      }
    }
    return best;
  }
}

export type SpacingProblem = { index: number; kind: 'too-close' | 'off-grid'; expected: number };

/**
 * Gaps given the interval, or the first bar that does not sit on the series' grid: closer than one
 * interval to the one before (wrong interval, or a bar that does not belong), or between two slots.
 */
export function findGaps(openTimes: ArrayLike<number>, interval: KlineInterval): { gaps: KlineGap[]; problem?: SpacingProblem } {
  const gaps: KlineGap[] = [];
  for (let i = 1; i < openTimes.length; i++) {
    const step = gapBefore(openTimes[i - 1]!, openTimes[i]!, interval);
    if (step === undefined) continue;
    if ('kind' in step) return { gaps, problem: { index: i, ...step } };
    gaps.push(step);
  }
  return { gaps };
}

/**
 * What lies between two consecutive open times `prev` < `t`: nothing (undefined: `t` is the next
 * slot), a gap of missing bars, or a problem (`t` too close to `prev`, or off its grid). One step
 * of `findGaps`, for readers that see the bars one at a time.
 */
export function gapBefore(prev: number, t: number, interval: KlineInterval): KlineGap | Omit<SpacingProblem, 'index'> | undefined {
  const expected = nextOpenTime(prev, interval);
  if (t === expected) return undefined;
  if (t < expected) return { kind: 'too-close', expected };
  const ms = intervalMs(interval);
  if (ms !== undefined) {
    if ((t - prev) % ms !== 0) return { kind: 'off-grid', expected };
    return { from: expected, to: t - ms, missing: (t - prev) / ms - 1 };
  }
  let last = expected;
  let missing = 0;
  let slot = expected;
  while (slot < t) {
    last = slot;
    missing++;
    slot = nextOpenTime(slot, interval);
  }
  if (slot !== t) return { kind: 'off-grid', expected };
  return { from: expected, to: last, missing };
}

/** A gap, and whether the exchange was asked for it and had no bar there (`halyard record`'s checked ranges). */
export interface CheckedGap extends KlineGap {
  readonly noTrades: boolean;
}

/**
 * `gaps` (oldest first) each marked `noTrades` when it lies wholly inside one of `checked`, the
 * ranges [start, end) of open times the exchange answered for (journal `kline_checked`, merged
 * and disjoint, oldest first): a minute without a trade makes no kline, so such a gap is a quiet
 * market, not data missing.
 */
export function markNoTrades(gaps: readonly KlineGap[], checked: readonly (readonly [number, number])[], interval: KlineInterval): CheckedGap[] {
  let k = 0;
  return gaps.map((g) => {
    const end = nextOpenTime(g.to, interval);
    while (k < checked.length && (checked[k] as readonly [number, number])[1] <= g.from) k++;
    const r = checked[k];
    return { ...g, noTrades: r !== undefined && r[0] <= g.from && r[1] >= end };
  });
}
