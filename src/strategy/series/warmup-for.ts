/**
 * How many closed bars an indicator needs before its value no longer depends on where the history
 * started: what a strategy's `warmup` should be (Freqtrade's `startup_candle_count`).
 *
 * Windowed indicators (SMA, highest, lowest, stddev, Bollinger) are exact once their window is
 * full. Recursive ones (EMA, RSI, ATR, ADX, MACD) carry every bar they were fed: two runs that
 * start at different bars hold different values, and the difference shrinks by a constant factor
 * a bar (1 - alpha for an EMA, 1 - 1/period for Wilder's smoothing). So their warm-up is the bars
 * that seed them plus the bars that shrink a start difference of up to ten times the value itself
 * below `tolerance`, the relative difference `halyard check` accepts by default (1e-6). With
 * RSI(14), a warmup of period + 2 (its first value) left the value 6% off on the demo's bars;
 * this one is 233.
 *
 * The counts are bounds for such start differences: a line that crosses
 * zero (MACD) has relative differences no count can bound near the crossing; `halyard check`
 * measures what a strategy really needs on real bars.
 */

/** The relative difference `halyard check` accepts by default. */
export const WARMUP_TOLERANCE = 1e-6;

function checkPeriodArg(name: string, period: number): void {
  if (!Number.isInteger(period) || period < 1) throw new RangeError(`warmupFor.${name}: period must be an integer >= 1, got ${String(period)}`);
}

function checkTolerance(name: string, tolerance: number): void {
  if (!(tolerance > 0 && tolerance < 1)) throw new RangeError(`warmupFor.${name}: tolerance must be in (0, 1), got ${String(tolerance)}`);
}

/**
 * A start difference up to this many times the value itself is covered: an RSI or ATR near its
 * low end has a relative difference larger than its absolute one.
 */
const START_DIFFERENCE = 10;

/** Bars for a difference shrinking by `factor` a bar to fall from START_DIFFERENCE below `tolerance` (0 when it vanishes at once). */
function decayBars(factor: number, tolerance: number): number {
  return factor <= 0 ? 0 : Math.ceil(Math.log(tolerance / START_DIFFERENCE) / Math.log(factor));
}

/** Bars before a difference shrinking by `factor` a bar through two smoothings in a row (n * factor^n) falls below `tolerance`. */
function doubleDecayBars(factor: number, tolerance: number): number {
  let n = decayBars(factor, tolerance);
  while (START_DIFFERENCE * n * factor ** n > tolerance) n++;
  return n;
}

const windowed = (name: string) => (period: number): number => {
  checkPeriodArg(name, period);
  return period;
};

export const warmupFor = Object.freeze({
  /** SMA: exact once `period` bars are in. */
  sma: windowed('sma'),
  highest: windowed('highest'),
  lowest: windowed('lowest'),
  stddev: windowed('stddev'),
  bollinger: windowed('bollinger'),

  /** EMA seeded with the SMA of its first `period` inputs, alpha 2 / (period + 1). */
  ema(period: number, tolerance = WARMUP_TOLERANCE): number {
    checkPeriodArg('ema', period);
    checkTolerance('ema', tolerance);
    return period + decayBars(1 - 2 / (period + 1), tolerance);
  },

  /** Wilder's RSI: a first value after period + 1 closes, then smoothed by 1 - 1/period a bar. */
  rsi(period: number, tolerance = WARMUP_TOLERANCE): number {
    checkPeriodArg('rsi', period);
    checkTolerance('rsi', tolerance);
    return period + 1 + decayBars(1 - 1 / period, tolerance);
  },

  /** Wilder's ATR: a first value at the period-th bar, then smoothed by 1 - 1/period a bar. */
  atr(period: number, tolerance = WARMUP_TOLERANCE): number {
    checkPeriodArg('atr', period);
    checkTolerance('atr', tolerance);
    return period + decayBars(1 - 1 / period, tolerance);
  },

  /** ADX: Wilder-smoothed DIs, their DX smoothed again: the first ADX at bar 2 * period, two smoothings to settle. */
  adx(period: number, tolerance = WARMUP_TOLERANCE): number {
    checkPeriodArg('adx', period);
    checkTolerance('adx', tolerance);
    return 2 * period + doubleDecayBars(1 - 1 / period, tolerance);
  },

  /** MACD: the signal EMA of the MACD line is seeded after the slow EMA's first value; the slowest of the three EMAs sets the decay. */
  macd(fast = 12, slow = 26, signal = 9, tolerance = WARMUP_TOLERANCE): number {
    checkPeriodArg('macd', fast);
    checkPeriodArg('macd', slow);
    checkPeriodArg('macd', signal);
    checkTolerance('macd', tolerance);
    const longest = Math.max(fast, slow);
    const slowest = Math.max(longest, signal);
    return longest + signal - 1 + decayBars(1 - 2 / (slowest + 1), tolerance);
  },
});
