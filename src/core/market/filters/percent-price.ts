/**
 * PERCENT_PRICE (spec 2.3): weightedAvgPrice * multiplierDown <= price <= weightedAvgPrice * multiplierUp, where
 * weightedAvgPrice is the volume-weighted average price of the previous avgPriceMins minutes of trades. The caller
 * supplies it in the market context; without it the check is skipped.
 * No listed 7.5 text: `Filter failure: PERCENT_PRICE`.
 */
import type { RawObject } from '../parse-fields.ts';
import { readOptionalInt } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import type { Multipliers } from './percent-band.ts';
import { checkPercentBand, parseMultipliers } from './percent-band.ts';

export interface PercentPrice extends Multipliers {
  readonly filterType: 'PERCENT_PRICE';
  /** Minutes the average spans; informational here, since the caller computes the average. */
  readonly avgPriceMins: number | undefined;
}

export function parsePercentPrice(raw: RawObject, path: string): PercentPrice {
  return { filterType: 'PERCENT_PRICE', ...parseMultipliers(raw, path), avgPriceMins: readOptionalInt(raw, 'avgPriceMins', path) };
}

export function checkPercentPrice(f: PercentPrice, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  return checkPercentBand(f.filterType, f, order, 'weightedAvgPrice', market.weightedAvgPrice, skipped);
}
