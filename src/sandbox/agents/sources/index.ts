/** Opens the bar source a market's config names (see ../config.ts `source`). */
import { dec } from '../../../core/money/decimal.ts';
import type { ResolvedMarket } from '../config.ts';
import type { MarketRules } from '../market-rules.ts';
import { csvBarSource } from './csv-source.ts';
import { journalBarSource } from './journal-source.ts';
import { syntheticBarSource } from './synthetic-source.ts';
import type { BarSource } from './types.ts';

export type { BarSource, SourceBar } from './types.ts';
export { DEFAULT_CYCLE } from './synthetic-source.ts';

/** Synthetic start price when neither a resumed market's last trade nor the config gives one. */
export const DEFAULT_START_PRICE = '100';
/** Synthetic base volume, in minimum orders. */
const BASE_VOLUME_IN_MIN_ORDERS = 10;

/**
 * `resumeFrom`: the market's last trade when it is resumed (a sandbox restarted with its `--state`
 * file): a synthetic path continues from it rather than from its configured start price, so the
 * restored book and the new prices agree. Replayed bars (CSV, journal) are what they are.
 */
export function openBarSource(market: ResolvedMarket, rules: MarketRules, resumeFrom?: string): BarSource {
  const s = market.source;
  switch (s.type) {
    case 'csv':
      return csvBarSource({ file: s.file, interval: s.interval, from: s.from, to: s.to });
    case 'journal':
      return journalBarSource({ file: s.file, symbol: s.symbol ?? market.symbol, interval: s.interval, from: s.from, to: s.to });
    case 'synthetic': {
      const startPrice = rules.price(rules.units(resumeFrom ?? s.startPrice ?? DEFAULT_START_PRICE));
      const step = rules.inst.filter('LOT_SIZE')?.stepSize;
      const volumeStep = step && step.gt(0) && step.decimalPlaces() <= 12 ? step.toFixed() : '0.0001';
      const baseVolume = s.baseVolume ?? rules.minQty(startPrice).times(BASE_VOLUME_IN_MIN_ORDERS).toNumber();
      const tick = rules.tick.decimalPlaces() <= 12 ? rules.tick.toFixed() : '0.01';
      return syntheticBarSource({
        seed: market.seed,
        startPrice: dec(startPrice).toFixed(),
        tick,
        volumeStep,
        baseVolume,
        segments: s.regimes,
        intervalMs: s.intervalMs,
        volatilityScale: s.volatilityScale,
      });
    }
  }
}
