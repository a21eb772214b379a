/**
 * The live market-data pipeline (issue 21 deliverable 1; protocol notes 4 kline `x` closed flag,
 * spec 4.4 klines): shared closed bars, trades and book tops, REST gap fill and polling inside the
 * weight budget, warm-up from the journal.
 */
export { createMarketData } from './market-data.ts';
export type * from './types.ts';
