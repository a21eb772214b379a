/**
 * MIN_NOTIONAL (spec 2.3): only its name and minNotional are given; read, as spec 7.5 does
 * ("price * quantity too low"), as price * quantity >= minNotional. Notional of orders without a
 * limit price as in notional-of.ts. Spec 7.5 text: `Filter failure: MIN_NOTIONAL`.
 */
import type { Dec } from '../../money/decimal.ts';
import type { RawObject } from '../parse-fields.ts';
import { readDecimal } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { bound, checkBounds } from './common.ts';
import { notionalOf } from './notional-of.ts';

export interface MinNotional {
  readonly filterType: 'MIN_NOTIONAL';
  readonly minNotional: Dec;
}

export function parseMinNotional(raw: RawObject, path: string): MinNotional {
  return { filterType: 'MIN_NOTIONAL', minNotional: readDecimal(raw, 'minNotional', path) };
}

export function checkMinNotional(f: MinNotional, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  const n = notionalOf(order, market);
  if ('skip' in n) {
    skipped.push(n.skip);
    return [];
  }
  return checkBounds(f.filterType, 'notional', n.value, bound('minNotional', f.minNotional), undefined, n);
}
