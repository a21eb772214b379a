/**
 * MAX_NUM_ALGO_ORDERS (spec 2.3): untriggered STOP_LOSS, STOP_LOSS_LIMIT, TAKE_PROFIT and
 * TAKE_PROFIT_LIMIT orders per account per symbol. Only a new algo order is checked: count + 1
 * above maxNumAlgoOrders fails. A zero maximum is treated as disabled. Spec 7.5 text is
 * `Filter failure: MAX_ALGO_ORDERS` (not the filterType's name).
 */
import type { RawObject } from '../parse-fields.ts';
import { readInt } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { isAlgoOrder } from '../types.ts';
import { violation } from './common.ts';

export interface MaxNumAlgoOrders {
  readonly filterType: 'MAX_NUM_ALGO_ORDERS';
  readonly maxNumAlgoOrders: number;
}

export function parseMaxNumAlgoOrders(raw: RawObject, path: string): MaxNumAlgoOrders {
  return { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: readInt(raw, 'maxNumAlgoOrders', path) };
}

export function checkMaxNumAlgoOrders(f: MaxNumAlgoOrders, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  if (!isAlgoOrder(order.type)) return [];
  const open = market.openAlgoOrders;
  if (open === undefined) {
    skipped.push('openAlgoOrders unknown');
    return [];
  }
  if (f.maxNumAlgoOrders === 0 || open + 1 <= f.maxNumAlgoOrders) return [];
  const detail = `${open} open algo orders on ${order.symbol} + this one = ${open + 1} is above maxNumAlgoOrders ${f.maxNumAlgoOrders}`;
  return [violation(f.filterType, 'openAlgoOrders', 'too-many', detail)];
}
