/**
 * PERCENT_PRICE_INDEX (spec 2.3): price <= indexPrice * multiplierUp and
 * price >= indexPrice * multiplierDown. Skipped without an index price.
 * No listed 7.5 text: `Filter failure: PERCENT_PRICE_INDEX`.
 */
import type { RawObject } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import type { Multipliers } from './percent-band.ts';
import { checkPercentBand, parseMultipliers } from './percent-band.ts';

export interface PercentPriceIndex extends Multipliers {
  readonly filterType: 'PERCENT_PRICE_INDEX';
}

export function parsePercentPriceIndex(raw: RawObject, path: string): PercentPriceIndex {
  return { filterType: 'PERCENT_PRICE_INDEX', ...parseMultipliers(raw, path) };
}

export function checkPercentPriceIndex(f: PercentPriceIndex, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  return checkPercentBand(f.filterType, f, order, 'indexPrice', market.indexPrice, skipped);
}
