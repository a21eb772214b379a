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

/**
 * What every indicator here keeps besides its arithmetic: the latest output (`current`,
 * undefined while warming up) with `value` and `ready` read from it, and `reset` forgetting it
 * along with the subclass's inputs. A subclass states `update` (setting `current`) and `restart`
 * (forget its own inputs). Sma and Ema use SteppedIndicator instead (a NaN-valued number field).
 */
export abstract class BaseIndicator<In = number, Out = number> implements Indicator<In, Out> {
  protected current: Out | undefined = undefined;

  abstract update(input: In): Out | undefined;

  get value(): Out | undefined {
    return this.current;
  }

  get ready(): boolean {
    return this.current !== undefined;
  }

  reset(): void {
    this.current = undefined;
    this.restart();
  }

  /** Forget every input (the subclass's own state; `current` is already cleared). */
  protected abstract restart(): void;
}

/**
 * The base of Sma and Ema: the latest output is `out`, a number that is NaN while warming up (a
 * field that only ever holds numbers is updated in place: no heap number per update on the bar
 * series' path, bar-series.ts StepStore), and `update`, `value` and `ready` are read from it. It
 * declares no field, so a subclass's object shape is its own fields alone, as before this base.
 */
export abstract class SteppedIndicator implements Indicator {
  /** The value after the last update, NaN until ready. */
  abstract out: number;

  /** `update` answering NaN while warming up: a number either way. */
  abstract step(input: number): number;

  /** `step(values[i])`, the result left in `out`: only an array and an index cross the call. */
  abstract stepAt(values: Float64Array, i: number): void;

  abstract reset(): void;

  update(input: number): number | undefined {
    const v = this.step(input);
    return v === v ? v : undefined;
  }

  get value(): number | undefined {
    const v = this.out;
    return v === v ? v : undefined;
  }

  get ready(): boolean {
    return this.out === this.out;
  }
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
