/**
 * PERCENT_PRICE_ORDER_SIZE (spec 2.3): limits how far one order may move the market.
 * BUY: price after the fill < askPrice * multiplierUp; SELL: price after the fill >
 * bidPrice * multiplierDown. Both strict, as the spec states them. Applies to orders that can
 * take liquidity on arrival (MARKET, LIMIT); LIMIT_MAKER never takes and stop orders wait for
 * their trigger. An order that would not trade passes. No listed 7.5 text:
 * `Filter failure: PERCENT_PRICE_ORDER_SIZE`.
 */
import type { Dec } from '../../money/decimal.ts';
import { estimatePriceAfterFill } from '../book-walk.ts';
import type { RawObject } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { scaled, violation, w } from './common.ts';
import type { Multipliers } from './percent-band.ts';
import { parseMultipliers } from './percent-band.ts';

export interface PercentPriceOrderSize extends Multipliers {
  readonly filterType: 'PERCENT_PRICE_ORDER_SIZE';
}

export function parsePercentPriceOrderSize(raw: RawObject, path: string): PercentPriceOrderSize {
  return { filterType: 'PERCENT_PRICE_ORDER_SIZE', ...parseMultipliers(raw, path) };
}

export function checkPercentPriceOrderSize(f: PercentPriceOrderSize, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  if (order.type !== 'MARKET' && order.type !== 'LIMIT') return [];
  const buy = order.side === 'BUY';
  const refName = buy ? 'bestAsk' : 'bestBid';
  const ref: Dec | undefined = buy ? (market.bestAsk ?? market.asks?.[0]?.[0]) : (market.bestBid ?? market.bids?.[0]?.[0]);
  if (!ref) {
    skipped.push(`${refName} unknown`);
    return [];
  }
  const estimate = estimatePriceAfterFill(order, market);
  if (estimate.kind === 'unknown') {
    skipped.push(estimate.why);
    return [];
  }
  if (estimate.kind === 'no-fill') return [];
  const after = estimate.price;
  if (buy) {
    const upper = scaled(refName, ref, 'multiplierUp', f.multiplierUp);
    if (f.multiplierUp.isZero() || after.lt(upper.value)) return [];
    return [violation(f.filterType, 'priceAfterFill', 'above-max', `price after the fill ${w(after)} is not below ${upper.text}`)];
  }
  const lower = scaled(refName, ref, 'multiplierDown', f.multiplierDown);
  if (after.gt(lower.value)) return [];
  return [violation(f.filterType, 'priceAfterFill', 'below-min', `price after the fill ${w(after)} is not above ${lower.text}`)];
}
