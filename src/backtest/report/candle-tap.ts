/**
 * The report's candles gathered while the backtest reads its bars, so the report need not read
 * them again (issue 25, deliverable 4: the report draws from what it needs). A year of 1-minute
 * bars read a second time from the journal cost about a tenth of the simulation's time and 30 MB
 * of peak memory (its blocks decoded again) for 4,380 candles.
 *
 * A CandleTap is the bars' source for both: the run iterates it first (each bar passes through
 * to the run, and into the candles of the bucket chosen before the run); the report
 * (chart-data.ts gatherCandles) then asks it for the candles of the bucket it chose from the run
 * (runBucket: the run's bar count and span). When the run read every bar and the two buckets are
 * the same, the candles are those the report would have made, bar for bar; otherwise (a run
 * stopped early, a bar count that moved the choice) the report reads the bars again, from
 * `reread`, as it did before.
 */
import { INTERVAL_MS } from '../../data/intervals.ts';
import { CandleScratch } from '../sources/bar-input.ts';
import type { BarInput } from '../sources/bar-input.ts';
import { bucketFor, CandleBuckets, decimalsOf, DEFAULT_MAX_POINTS, PRECISION_SAMPLE } from './chart-data.ts';
import type { CandlePoint, TappedBars } from './chart-data.ts';

export interface Bucket {
  readonly ms: number;
  readonly name: string;
}

/**
 * The bucket the report will choose for a run of a standard `interval` over bars opening from
 * `first` to `last` (`count` of them when known, else as many as the span holds), as runBucket
 * chooses it from the run; undefined for an interval that is not a standard one.
 */
export function bucketForRange(interval: string, range: { readonly first: number; readonly last: number; readonly count?: number | undefined }, maxPoints = DEFAULT_MAX_POINTS): Bucket | undefined {
  const base = (INTERVAL_MS as Readonly<Record<string, number>>)[interval];
  if (base === undefined) return undefined;
  const count = range.count ?? Math.floor((range.last - range.first) / base) + 1;
  return bucketFor(interval, base, count, range.last + base - range.first, maxPoints);
}

/** The run's pass over the bars: each one handed on, and added to the candles. */
class TapIterator implements Iterator<BarInput> {
  constructor(
    private readonly tap: CandleTap,
    private readonly inner: Iterator<BarInput>,
  ) {}

  next(): IteratorResult<BarInput> {
    const r = this.inner.next();
    if (r.done === true) this.tap.ended();
    else this.tap.add(r.value);
    return r;
  }

  return(value?: unknown): IteratorResult<BarInput> {
    this.inner.return?.(value);
    return { done: true, value: undefined };
  }
}

export class CandleTap implements Iterable<BarInput>, TappedBars {
  private readonly buckets: CandleBuckets;
  private readonly scratch = new CandleScratch();
  private count = 0;
  private precision = 0;
  private complete = false;
  private tapped = false;

  /** `source`: the bars, read once by the run; `reread`: the same bars again, for a report the tap cannot serve. */
  constructor(
    private readonly source: Iterable<BarInput>,
    private readonly reread: () => Iterable<BarInput>,
    private readonly bucket: Bucket,
  ) {
    this.buckets = new CandleBuckets(bucket.ms);
  }

  /** The source's size hint (journalBars), which the run sizes its columns by. */
  get sizeHint(): unknown {
    return (this.source as { readonly sizeHint?: unknown }).sizeHint;
  }

  /** The first pass taps the source; any later one reads the bars again. */
  [Symbol.iterator](): Iterator<BarInput> {
    if (this.tapped) return this.reread()[Symbol.iterator]();
    this.tapped = true;
    return new TapIterator(this, this.source[Symbol.iterator]());
  }

  add(bar: BarInput): void {
    const c = this.scratch.of(bar);
    this.buckets.add(c.openTime, c.open, c.high, c.low, c.close);
    if (this.count < PRECISION_SAMPLE) this.precision = Math.max(this.precision, decimalsOf(c.exact.close));
    this.count++;
  }

  ended(): void {
    this.complete = true;
  }

  tappedCandles(bucket: Bucket): { candles: CandlePoint[]; precision: number; count: number } | undefined {
    if (!this.complete || bucket.ms !== this.bucket.ms || bucket.name !== this.bucket.name) return undefined;
    return { candles: this.buckets.candles, precision: this.precision, count: this.count };
  }
}
