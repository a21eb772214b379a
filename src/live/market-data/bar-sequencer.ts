/**
 * Order and once-only for one series of closed bars (issue 21 deliverable 1: "closed bars reach
 * strategies in order and once each; a bar that comes twice or late is dropped"). A kline is
 * identified by its open time (spec 4.4), so the rule is one comparison: a bar is delivered only
 * when it opens after the last one delivered. Whether bars are missing in between is a different
 * question (`gapBefore`): the venue has no kline for a period without trades (the sandbox too), so
 * a jump in open times is only a possible gap, settled by asking REST for the range.
 *
 * Pure: no I/O, no clock.
 */
import { nextOpen, periodOpen, type KlineInterval } from '../../core/market/intervals.ts';

export type Verdict = 'deliver' | 'duplicate' | 'late';

export class BarSequencer {
  /** Open time of the last bar delivered (before the first: 1 ms before the first bar wanted). */
  private lastOpen: number;

  /** `first`: open time of the first bar the series wants. */
  constructor(
    private readonly interval: KlineInterval,
    first: number,
  ) {
    this.lastOpen = first - 1;
  }

  get last(): number {
    return this.lastOpen;
  }

  /** Open time of the next bar expected if none is missing. */
  get next(): number {
    // The first aligned open after lastOpen: also right before the first delivery, when lastOpen
    // is not an open time itself.
    return nextOpen(this.interval, periodOpen(this.interval, this.lastOpen));
  }

  /** `duplicate`: that bar was delivered; `late`: a later one was, so it can no longer be in order. */
  judge(openTime: number): Verdict {
    if (openTime > this.lastOpen) return 'deliver';
    return openTime === this.lastOpen ? 'duplicate' : 'late';
  }

  /** Bars may be missing before a bar opening at `openTime` (it is not the next one expected). */
  gapBefore(openTime: number): boolean {
    return openTime > this.next;
  }

  /** Record a delivery; callers deliver only what `judge` said `deliver`. */
  delivered(openTime: number): void {
    if (openTime <= this.lastOpen) throw new RangeError(`bar ${openTime} is not after the last delivered ${this.lastOpen}`);
    this.lastOpen = openTime;
  }
}
