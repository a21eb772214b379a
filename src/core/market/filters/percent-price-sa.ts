/**
 * PERCENT_PRICE_SA (spec 2.3): simpleAvgPrice * multiplierDown <= price <= simpleAvgPrice * multiplierUp, where
 * simpleAvgPrice is the simple average price of the previous avgPriceMins minutes of trades. The caller
 * supplies it in the market context; without it the check is skipped.
 * No listed 7.5 text: `Filter failure: PERCENT_PRICE_SA`.
 */
import type { RawObject } from '../parse-fields.ts';
import { readOptionalInt } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import type { Multipliers } from './percent-band.ts';
import { checkPercentBand, parseMultipliers } from './percent-band.ts';

export interface PercentPriceSa extends Multipliers {
  readonly filterType: 'PERCENT_PRICE_SA';
  /** Minutes the average spans; informational here, since the caller computes the average. */
  readonly avgPriceMins: number | undefined;
}

export function parsePercentPriceSa(raw: RawObject, path: string): PercentPriceSa {
  return { filterType: 'PERCENT_PRICE_SA', ...parseMultipliers(raw, path), avgPriceMins: readOptionalInt(raw, 'avgPriceMins', path) };
}

export function checkPercentPriceSa(f: PercentPriceSa, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  return checkPercentBand(f.filterType, f, order, 'simpleAvgPrice', market.simpleAvgPrice, skipped);
}
