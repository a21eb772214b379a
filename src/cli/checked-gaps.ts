/**
 * A series' gaps marked with what `record` learnt of them: `noTrades` where the exchange was asked
 * and had no bar (the journal's kline_checked ranges: a minute without a trade makes no kline), not
 * data missing. For `data --gaps` and the backtest summary's Range line.
 */
import { markNoTrades } from '../data/kline-gaps.ts';
import type { CheckedGap, KlineGap } from '../data/kline-gaps.ts';
import { nextOpenTime } from '../data/intervals.ts';
import type { KlineInterval } from '../data/intervals.ts';
import type { Journal } from '../journal/journal.ts';

/** `gaps` (oldest first) of the series, each marked against the ranges the journal has checked. */
export function checkedGaps(journal: Journal, symbol: string, interval: KlineInterval, gaps: readonly KlineGap[]): CheckedGap[] {
  if (gaps.length === 0) return [];
  const checked = journal.klineChecked.within(symbol, interval, gaps[0]!.from, nextOpenTime(gaps[gaps.length - 1]!.to, interval));
  return markNoTrades(gaps, checked, interval);
}
