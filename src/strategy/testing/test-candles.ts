/**
 * Hand-made bars for tests: from a list of closes, each bar opening at the previous close with
 * high/low spanning both, so a test states only the numbers its assertion depends on.
 */
import type { Candle } from '../../core/indicators/candle.ts';
import { DEFAULT_START_TIME } from '../../core/synthetic/generate.ts';

export interface CandleListOptions {
  readonly startTime?: number;
  readonly intervalMs?: number;
  readonly volume?: string;
}

export function candlesFromCloses(closes: readonly (number | string)[], options: CandleListOptions = {}): Candle[] {
  const start = options.startTime ?? DEFAULT_START_TIME;
  const step = options.intervalMs ?? 60_000;
  const volume = options.volume ?? '1';
  return closes.map((c, i) => {
    const close = String(c);
    const open = i === 0 ? close : String(closes[i - 1]);
    const [o, cl] = [Number(open), Number(close)];
    const high = o >= cl ? open : close;
    const low = o <= cl ? open : close;
    return {
      openTime: start + i * step,
      closeTime: start + (i + 1) * step - 1,
      open: o,
      high: Number(high),
      low: Number(low),
      close: cl,
      volume: Number(volume),
      exact: { open, high, low, close, volume },
    };
  });
}
