/**
 * Bars from a kline CSV (the 6-, 11- and 12-column layouts readKlineCsv accepts: pandas/ccxt dumps,
 * REST arrays, archive files). The file is read and checked once, when the source opens, so a bad
 * file stops the sandbox at start with the line and the reason rather than mid-run.
 */
import { intervalMs, type KlineInterval } from '../../../data/intervals.ts';
import { readKlineCsv } from '../../../data/kline-files/kline-csv.ts';
import type { BarSource, SourceBar } from './types.ts';

export interface CsvSourceOptions {
  readonly file: string;
  readonly interval?: KlineInterval | undefined;
  /** Open time range [from, to). */
  readonly from?: number | undefined;
  readonly to?: number | undefined;
}

/** About a month: what a `1M` bar plays as in real time. */
const MONTH_MS = 30 * 86_400_000;

export function csvBarSource(options: CsvSourceOptions): BarSource {
  const read = readKlineCsv(options.file, options.interval === undefined ? {} : { interval: options.interval });
  const from = options.from ?? Number.MIN_SAFE_INTEGER;
  const to = options.to ?? Number.MAX_SAFE_INTEGER;
  const bars: SourceBar[] = read.bars
    .filter((b) => b.openTime >= from && b.openTime < to)
    .map((b) => ({ openTime: b.openTime, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume }));
  if (bars.length === 0) throw new RangeError(`${options.file}: no bars in the requested time range`);
  return {
    label: `csv:${options.file}`,
    intervalMs: intervalMs(read.interval) ?? MONTH_MS,
    bars: () => bars,
    close: () => undefined,
  };
}
