/**
 * Crossings of two lines (or a line and a level), as Freqtrade's qtpylib defines them: `a` crosses
 * above `b` when a > b now and a <= b one bar before; below when a < b now and a >= b before. A
 * missing value (warm-up) is never a crossing. Pure.
 */

type Maybe = number | undefined;

/** a crossed above b between the previous and the current bar. */
export function crossedAbove(aPrev: Maybe, aNow: Maybe, bPrev: Maybe, bNow: Maybe): boolean {
  if (aPrev === undefined || aNow === undefined || bPrev === undefined || bNow === undefined) return false;
  return aNow > bNow && aPrev <= bPrev;
}

/** a crossed below b between the previous and the current bar. */
export function crossedBelow(aPrev: Maybe, aNow: Maybe, bPrev: Maybe, bNow: Maybe): boolean {
  if (aPrev === undefined || aNow === undefined || bPrev === undefined || bNow === undefined) return false;
  return aNow < bNow && aPrev >= bPrev;
}

export type Crossing = 'above' | 'below';

/** Incremental form: feed both values each bar; returns the crossing of `a` over `b`, if any. */
export class CrossDetector {
  private prevA: Maybe;
  private prevB: Maybe;
  private last: Crossing | undefined;

  update(a: Maybe, b: Maybe): Crossing | undefined {
    const out = crossedAbove(this.prevA, a, this.prevB, b) ? 'above' : crossedBelow(this.prevA, a, this.prevB, b) ? 'below' : undefined;
    this.prevA = a;
    this.prevB = b;
    this.last = out;
    return out;
  }

  /** The crossing reported by the last update. */
  get value(): Crossing | undefined {
    return this.last;
  }

  reset(): void {
    this.prevA = undefined;
    this.prevB = undefined;
    this.last = undefined;
  }
}
