/**
 * Seeded synthetic 1-minute (by default) OHLCV bars with regimes, for backtests, benchmarks and
 * strategy tests. Same options and seed give identical bars on every run.
 *
 * Each bar draws its log return from the regime's model (regimes.ts), then its high and low from
 * the exact distribution of the maximum and minimum of a Brownian bridge between open and close:
 * for a move x with variance s^2, P(max > m) = exp(-2 m (m - x) / s^2), sampled by inversion as
 * m = (x + sqrt(x^2 - 2 s^2 ln U)) / 2. One normal and two uniforms per bar instead of a sub-step
 * walk, which is what lets a year of 1-minute bars generate in well under a second. Open is the
 * previous close, so bars join up; high >= max(open, close), low <= min(open, close) and
 * volume > 0 hold by construction. Prices are rounded to the tick (never below one tick) as
 * integer units and written as fixed-decimal strings (grid.ts); the numbers are those strings'
 * values. Pure: no I/O, no clock, no Math.random.
 */
import type { Candle } from '../indicators/candle.ts';
import { formatUnits, toUnits, unitGrid } from './grid.ts';
import type { UnitGrid } from './grid.ts';
import { mulberry32 } from './prng.ts';
import type { Seed } from './prng.ts';
import { regimeParams } from './regimes.ts';
import type { Segment } from './regimes.ts';

/** 2024-01-01T00:00:00Z: a fixed, minute-aligned default so runs are reproducible. */
export const DEFAULT_START_TIME = 1_704_067_200_000;

export interface GenerateOptions {
  /** Regimes in order; the bar count is their sum. */
  readonly segments: readonly Segment[];
  readonly seed?: Seed;
  /** Default "1000". */
  readonly startPrice?: string | number;
  /** Price grid as a decimal string; default "0.01". */
  readonly tick?: string;
  /** Volume grid; default "0.0001". */
  readonly volumeStep?: string;
  /** Typical volume of a quiet bar; default 5. */
  readonly baseVolume?: number;
  /** Open time of the first bar; default 2024-01-01T00:00Z. */
  readonly startTime?: number;
  /** Bar length; default 60 000 (1 minute). */
  readonly intervalMs?: number;
  /** Multiplies every regime's volatility; default 1. */
  readonly volatilityScale?: number;
  /**
   * Give each bar a 4-point intra-bar `path` for fill simulation: open, the extreme nearer the
   * open, the other extreme, close (the usual OHLC ordering heuristic).
   */
  readonly withPath?: boolean;
}

export interface SyntheticCandle extends Candle {
  /** The regime's name, or "custom" for inline parameters. */
  readonly regime: string;
  /** Present with `withPath`: [open, high, low, close] or [open, low, high, close]. */
  readonly path?: readonly number[];
}

function checkInt(name: string, v: number, min: number): number {
  if (!Number.isInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${String(v)}`);
  return v;
}

/**
 * A generated market held as columns of integer units (about 40 bytes a bar, no objects), so a
 * year of 1-minute bars costs ~20 MB and no garbage collection. Bars are materialised on demand
 * by `at(i)` or iteration; materialising is the expensive part, so a consumer that streams (the
 * backtester) should iterate rather than call `toArray()`.
 */
export class SyntheticSeries implements Iterable<SyntheticCandle> {
  /** @internal use generateSeries */
  constructor(
    private readonly cols: Columns,
    readonly length: number,
    readonly startTime: number,
    readonly intervalMs: number,
    private readonly price: UnitGrid,
    private readonly vol: UnitGrid,
    private readonly labels: readonly string[],
    private readonly withPath: boolean,
  ) {}

  /** Bar i (0 = first), or undefined outside [0, length). */
  at(i: number): SyntheticCandle | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    const { open, high, low, close, volume, segment } = this.cols;
    const o = open[i] as number;
    const h = high[i] as number;
    const l = low[i] as number;
    const c = close[i] as number;
    const v = volume[i] as number;
    const { scale, decimals } = this.price;
    const openTime = this.startTime + i * this.intervalMs;
    return {
      openTime,
      closeTime: openTime + this.intervalMs - 1,
      open: o / scale,
      high: h / scale,
      low: l / scale,
      close: c / scale,
      volume: v / this.vol.scale,
      exact: {
        open: formatUnits(o, decimals),
        high: formatUnits(h, decimals),
        low: formatUnits(l, decimals),
        close: formatUnits(c, decimals),
        volume: formatUnits(v, this.vol.decimals),
      },
      regime: this.labels[segment[i] as number] ?? 'custom',
      path: this.withPath ? pathOf(o, h, l, c, scale) : undefined,
    };
  }

  /** Close prices as numbers (for quick checks and indicator runs without materialising bars). */
  closes(): Float64Array {
    const out = new Float64Array(this.length);
    const { scale } = this.price;
    for (let i = 0; i < this.length; i++) out[i] = (this.cols.close[i] as number) / scale;
    return out;
  }

  *[Symbol.iterator](): Iterator<SyntheticCandle> {
    for (let i = 0; i < this.length; i++) yield this.at(i) as SyntheticCandle;
  }

  toArray(): SyntheticCandle[] {
    const out = new Array<SyntheticCandle>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.at(i) as SyntheticCandle;
    return out;
  }
}

interface Columns {
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  readonly segment: Uint32Array;
}

/** Generate bars as a columnar series (the fast path: a year of 1-minute bars in well under a second). */
export function generateSeries(options: GenerateOptions): SyntheticSeries {
  const price = unitGrid(options.tick ?? '0.01', 'tick');
  const vol = unitGrid(options.volumeStep ?? '0.0001', 'volumeStep');
  const intervalMs = checkInt('intervalMs', options.intervalMs ?? 60_000, 1);
  const startTime = checkInt('startTime', options.startTime ?? DEFAULT_START_TIME, 0);
  const baseVolume = options.baseVolume ?? 5;
  const volScale = options.volatilityScale ?? 1;
  if (!(baseVolume > 0) || !Number.isFinite(baseVolume)) throw new RangeError(`baseVolume must be > 0, got ${String(baseVolume)}`);
  if (!(volScale >= 0) || !Number.isFinite(volScale)) throw new RangeError(`volatilityScale must be >= 0, got ${String(volScale)}`);
  const startPrice = Number(options.startPrice ?? '1000');
  if (!(startPrice > 0) || !Number.isFinite(startPrice)) throw new RangeError(`startPrice must be > 0, got ${String(options.startPrice)}`);
  if (options.segments.length === 0) throw new RangeError('segments: at least one segment is needed');

  const rng = mulberry32(options.seed ?? 1);
  const total = options.segments.reduce((n, s, i) => n + checkInt(`segments[${i}].bars`, s.bars, 1), 0);
  const cols: Columns = {
    open: new Float64Array(total),
    high: new Float64Array(total),
    low: new Float64Array(total),
    close: new Float64Array(total),
    volume: new Float64Array(total),
    segment: new Uint32Array(total),
  };
  const labels: string[] = [];
  const minLog = Math.log(price.value);
  // Integer units must stay exact doubles for the strings to be right.
  const maxLog = Math.log((Number.MAX_SAFE_INTEGER / 4 / price.scale) * 0.99);

  let closeUnits = toUnits(startPrice, price);
  // The walk runs on an unrounded log price so the tick does not bias small prices.
  let logp = Math.log(closeUnits / price.scale);
  let k = 0;

  options.segments.forEach((segment, segIndex) => {
    const p = regimeParams(segment.regime);
    labels.push(typeof segment.regime === 'string' ? segment.regime : 'custom');
    const anchor = logp;
    const sigma = p.volatility * volScale;
    const twoVar = 2 * sigma * sigma;
    const pull = p.meanReversion ?? 0;
    const volumeBase = baseVolume * (p.volumeFactor ?? 1);
    const sigmaForVolume = sigma || 1e-9;

    for (let b = 0; b < segment.bars; b++) {
      const openUnits = closeUnits;
      const openLog = logp;
      logp += p.drift + pull * (anchor - logp) + sigma * rng.normal();
      if (logp < minLog) logp = minLog;
      if (logp > maxLog) throw new RangeError(`price grew past ${Math.exp(maxLog).toExponential(2)} at bar ${k}: lower the drift or the bar count`);
      const move = logp - openLog;
      // 1 - U keeps the log argument in (0, 1].
      const up = (move + Math.sqrt(move * move - twoVar * Math.log(1 - rng.next()))) / 2;
      const down = (move - Math.sqrt(move * move - twoVar * Math.log(1 - rng.next()))) / 2;
      const units = toUnits(Math.exp(logp), price);
      const top = openUnits > units ? openUnits : units;
      const bottom = openUnits < units ? openUnits : units;
      const hi = toUnits(Math.exp(openLog + up), price);
      const lo = toUnits(Math.exp(openLog + down), price);
      // Busier bars move more: volume grows with the size of the bar's move.
      const volume = volumeBase * Math.exp(0.35 * rng.normal()) * (1 + (0.5 * Math.abs(move)) / sigmaForVolume);
      cols.open[k] = openUnits;
      cols.high[k] = hi > top ? hi : top;
      cols.low[k] = lo < bottom ? lo : bottom;
      cols.close[k] = units;
      cols.volume[k] = toUnits(volume, vol);
      cols.segment[k] = segIndex;
      closeUnits = units;
      k++;
    }
  });
  return new SyntheticSeries(cols, total, startTime, intervalMs, price, vol, labels, options.withPath === true);
}

/** Generate bars as an array of objects (convenient up to a few hundred thousand bars). */
export function generateCandles(options: GenerateOptions): SyntheticCandle[] {
  return generateSeries(options).toArray();
}

/** The extreme nearer the open is visited first. */
function pathOf(open: number, hi: number, lo: number, close: number, scale: number): readonly number[] {
  const highFirst = hi - open <= open - lo;
  return highFirst ? [open / scale, hi / scale, lo / scale, close / scale] : [open / scale, lo / scale, hi / scale, close / scale];
}
