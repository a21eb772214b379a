/**
 * MAX_NUM_ORDERS (spec 2.3): open orders per account per symbol, normal and algo orders both
 * counted. The new order makes count + 1; above maxNumOrders it fails. A zero maximum is treated
 * as disabled. Skipped without the count. Spec 7.5 text: `Filter failure: MAX_NUM_ORDERS`.
 */
import type { RawObject } from '../parse-fields.ts';
import { readInt } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { violation } from './common.ts';

export interface MaxNumOrders {
  readonly filterType: 'MAX_NUM_ORDERS';
  readonly maxNumOrders: number;
}

export function parseMaxNumOrders(raw: RawObject, path: string): MaxNumOrders {
  return { filterType: 'MAX_NUM_ORDERS', maxNumOrders: readInt(raw, 'maxNumOrders', path) };
}

export function checkMaxNumOrders(f: MaxNumOrders, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  const open = market.openOrders;
  if (open === undefined) {
    skipped.push('openOrders unknown');
    return [];
  }
  if (f.maxNumOrders === 0 || open + 1 <= f.maxNumOrders) return [];
  const detail = `${open} open orders on ${order.symbol} + this one = ${open + 1} is above maxNumOrders ${f.maxNumOrders}`;
  return [violation(f.filterType, 'openOrders', 'too-many', detail)];
}
