/**
 * LOT_SIZE (spec 2.3): quantity >= minQty, <= maxQty and (quantity - minQty) % stepSize == 0.
 * Zero maxQty or stepSize disables that part. Orders sized only by quoteOrderQty carry no
 * quantity and are not checked. Spec 7.5 text: `Filter failure: LOT_SIZE`.
 */
import type { Dec } from '../../money/decimal.ts';
import { onGrid } from '../decimal-grid.ts';
import type { RawObject } from '../parse-fields.ts';
import { readDecimal } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { bound, checkBounds, violation, w } from './common.ts';

export interface LotSize {
  readonly filterType: 'LOT_SIZE';
  readonly minQty: Dec;
  readonly maxQty: Dec;
  readonly stepSize: Dec;
}

export function parseLotSize(raw: RawObject, path: string): LotSize {
  return {
    filterType: 'LOT_SIZE',
    minQty: readDecimal(raw, 'minQty', path),
    maxQty: readDecimal(raw, 'maxQty', path),
    stepSize: readDecimal(raw, 'stepSize', path),
  };
}

export function checkLotSize(f: LotSize, order: OrderCheckInput, _market: MarketContext = {}, _skipped: SkipSink = []): FilterViolation[] {
  const qty = order.quantity;
  if (!qty) return [];
  const out = checkBounds(f.filterType, 'quantity', qty, bound('minQty', f.minQty), bound('maxQty', f.maxQty));
  if (!f.stepSize.isZero() && !onGrid(qty, f.stepSize, f.minQty)) {
    const detail = `quantity ${w(qty)} is not a multiple of stepSize ${w(f.stepSize)} above minQty ${w(f.minQty)}`;
    out.push(violation(f.filterType, 'quantity', 'off-step', detail));
  }
  return out;
}
