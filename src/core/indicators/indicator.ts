/**
 * The shape every incremental indicator shares, and the batch helper built on it. Indicators run
 * on `number` (design rule 4); a value that becomes a price goes through the rounding helpers.
 * Pure: no I/O, no clock.
 */

export interface Indicator<In = number, Out = number> {
  /** Feed the next input (oldest first); returns the new output, or undefined while warming up. */
  update(input: In): Out | undefined;
  /** The latest output, undefined while warming up. */
  readonly value: Out | undefined;
  /** True once an output exists. */
  readonly ready: boolean;
  /** Forget every input. */
  reset(): void;
}

/** Run an indicator over a whole input array: one output per input, undefined during warm-up. */
export function runSeries<In, Out>(indicator: Indicator<In, Out>, inputs: Iterable<In>): (Out | undefined)[] {
  const out: (Out | undefined)[] = [];
  for (const input of inputs) out.push(indicator.update(input));
  return out;
}

/** Periods are whole bars: reject 0, negatives, fractions and NaN early with the indicator's name. */
export function checkPeriod(name: string, period: number, min = 1): number {
  if (!Number.isInteger(period) || period < min) {
    throw new RangeError(`${name}: period must be an integer >= ${min}, got ${String(period)}`);
  }
  return period;
}
