/**
 * Moving average convergence/divergence, as TA-Lib's MACD (Freqtrade's `ta.MACD`): macd = EMA(fast)
 * - EMA(slow) of the input, signal = EMA(signal) of the macd line, histogram = macd - signal. The
 * EMAs are Ema's (alpha 2 / (n + 1), seeded with an SMA), and as in TA-Lib both are seeded on the
 * same bar: the slow one with the mean of the first `slow` inputs, the fast one with the mean of
 * the `fast` inputs ending there (not from the first input), so the values equal TA-Lib's.
 *
 * Warm-up: macd has a value from input `slow` on (slow - 1 undefined); signal and histogram from
 * input slow + signal - 1 on. TA-Lib outputs all three only from that later input; where it does,
 * the values are the same. fast must not exceed slow. Pure.
 */
import { BaseIndicator, checkPeriod, runSeries } from './indicator.ts';
import { Ema } from './ema.ts';

export interface MacdValue {
  readonly macd: number;
  /** Undefined for the first signal - 1 macd values. */
  readonly signal: number | undefined;
  readonly histogram: number | undefined;
}

export class Macd extends BaseIndicator<number, MacdValue> {
  private readonly fastEma: Ema;
  private readonly slowEma: Ema;
  private readonly signalEma: Ema;
  private seen = 0;

  constructor(
    readonly fast = 12,
    readonly slow = 26,
    readonly signal = 9,
  ) {
    super();
    checkPeriod('macd fast', fast);
    checkPeriod('macd slow', slow);
    checkPeriod('macd signal', signal);
    if (fast > slow) throw new RangeError(`macd: fast (${fast}) must not exceed slow (${slow})`);
    this.fastEma = new Ema(fast);
    this.slowEma = new Ema(slow);
    this.signalEma = new Ema(signal);
  }

  update(input: number): MacdValue | undefined {
    const slow = this.slowEma.step(input);
    // The fast EMA starts slow - fast inputs late, so its seed ends on the slow one's (TA-Lib).
    const fast = ++this.seen > this.slow - this.fast ? this.fastEma.step(input) : NaN;
    if (slow !== slow) return undefined;
    const macd = fast - slow;
    const s = this.signalEma.step(macd);
    this.current = s === s ? { macd, signal: s, histogram: macd - s } : { macd, signal: undefined, histogram: undefined };
    return this.current;
  }

  protected restart(): void {
    this.fastEma.reset();
    this.slowEma.reset();
    this.signalEma.reset();
    this.seen = 0;
  }
}

/** MACD over a whole array: one value per input, undefined for the first slow - 1. */
export function macd(values: readonly number[], fast = 12, slow = 26, signal = 9): (MacdValue | undefined)[] {
  return runSeries(new Macd(fast, slow, signal), values);
}
