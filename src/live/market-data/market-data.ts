/**
 * createMarketData: the composition of the pipeline (issue 21 deliverable 1). Placeholder until
 * the pieces land; the interface in types.ts is what callers code against.
 */
import type { MarketData, MarketDataOptions } from './types.ts';

export function createMarketData(_options: MarketDataOptions): MarketData {
  throw new Error('createMarketData: not implemented yet');
}
