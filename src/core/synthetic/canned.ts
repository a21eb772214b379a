/**
 * Canned markets for the strategy testing kit: one call, one regime (or a short story of them),
 * deterministic per seed. Each is `(seed = 1, bars = 1000, options?) => bars`; the options are
 * the generator's (start price, tick, start time, ...). Pure.
 */
import { generateCandles, generateSeries } from './generate.ts';
import type { GenerateOptions, SyntheticCandle, SyntheticSeries } from './generate.ts';
import type { Seed } from './prng.ts';
import type { RegimeName, RegimeParams, Segment } from './regimes.ts';

export type CannedOptions = Omit<GenerateOptions, 'segments' | 'seed'>;
export type CannedMarket = (seed?: Seed, bars?: number, options?: CannedOptions) => SyntheticCandle[];

const single =
  (regime: RegimeName): CannedMarket =>
  (seed = 1, bars = 1000, options = {}) =>
    generateCandles({ ...options, seed, segments: [{ regime, bars }] });

/** Split `bars` by weights into whole segments that add up exactly. */
function story(parts: readonly (readonly [RegimeName | RegimeParams, number])[]): CannedMarket {
  return (seed = 1, bars = 1000, options = {}) => {
    const weight = parts.reduce((s, [, w]) => s + w, 0);
    let used = 0;
    const segments: Segment[] = parts.map(([regime, w], i) => {
      const n = i === parts.length - 1 ? bars - used : Math.max(1, Math.round((bars * w) / weight));
      used += n;
      return { regime, bars: n };
    });
    return generateCandles({ ...options, seed, segments: segments.filter((s) => s.bars > 0) });
  };
}

export const slowUp = single('slowUp');
export const sharpUp = single('sharpUp');
export const flat = single('flat');
export const slowDown = single('slowDown');
export const sharpDown = single('sharpDown');

/** A clear rise (about +28% over 500 bars) then a clear fall back: a trend follower's round trip. */
export const upThenDown = story([
  [{ drift: 0.0005, volatility: 0.0008 }, 1],
  [{ drift: -0.0005, volatility: 0.0008 }, 1],
]);

/** The mirror of upThenDown: a fall then a recovery. */
export const downThenUp = story([
  [{ drift: -0.0005, volatility: 0.0008 }, 1],
  [{ drift: 0.0005, volatility: 0.0008 }, 1],
]);

/** Calm range, a crash over a tenth of the bars, calm range at the new level. */
export const crash = story([
  ['flat', 45],
  ['crash', 10],
  ['flat', 45],
]);

export const CANNED_MARKETS = { slowUp, sharpUp, flat, slowDown, sharpDown, upThenDown, downThenUp, crash } as const satisfies Record<string, CannedMarket>;
export type CannedMarketName = keyof typeof CANNED_MARKETS;

/** 365 days of 1-minute bars. */
export const MINUTES_PER_YEAR = 525_600;

/** A trend that moves the log price by `move` over `bars` bars (0.1 = about +10.5%). */
const trend = (move: number, bars: number, volatility = 0.0008): Segment => ({ regime: { drift: move / bars, volatility }, bars });
const range = (bars: number): Segment => ({ regime: { drift: 0, volatility: 0.0008, meanReversion: 0.002, volumeFactor: 0.7 }, bars });

/**
 * A year of 1-minute bars (525,600) telling a plausible story at yearly strengths: rallies, ranges,
 * a 25% crash inside ten hours, slow bleeds, recoveries. Columnar (see SyntheticSeries): iterate it
 * rather than materialising an array. For the backtest acceptance test and the benchmarks.
 */
export function minuteYear(seed: Seed = 1, options: CannedOptions = {}): SyntheticSeries {
  const m = 43_800; // one twelfth of a year
  const segments: Segment[] = [
    trend(0.14, m),
    range(m),
    trend(0.34, 20_000, 0.0012),
    range(m - 20_000),
    trend(-0.29, 600, 0.004),
    trend(-0.1, m - 600),
    range(m),
    trend(-0.16, m),
    trend(0.18, m),
    range(m),
    trend(-0.36, m, 0.0012),
    trend(0.1, m),
    range(m),
  ];
  const used = segments.reduce((n, s) => n + s.bars, 0);
  segments.push(trend(0.05, MINUTES_PER_YEAR - used));
  return generateSeries({ ...options, seed, segments });
}
