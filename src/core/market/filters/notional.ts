/**
 * NOTIONAL (spec 2.3): minNotional <= price * quantity <= maxNotional; a zero maxNotional is
 * disabled. See notional-of.ts for orders without a limit price. Text: `Filter failure: NOTIONAL`
 * (7.5 lists only MIN_NOTIONAL's text; the venue may use that one for a low NOTIONAL too).
 */
import type { Dec } from '../../money/decimal.ts';
import type { RawObject } from '../parse-fields.ts';
import { readDecimal } from '../parse-fields.ts';
import type { FilterViolation, MarketContext, OrderCheckInput, SkipSink } from '../types.ts';
import { bound, checkBounds } from './common.ts';
import { notionalOf } from './notional-of.ts';

export interface NotionalFilter {
  readonly filterType: 'NOTIONAL';
  readonly minNotional: Dec;
  readonly maxNotional: Dec;
}

export function parseNotional(raw: RawObject, path: string): NotionalFilter {
  return { filterType: 'NOTIONAL', minNotional: readDecimal(raw, 'minNotional', path), maxNotional: readDecimal(raw, 'maxNotional', path) };
}

export function checkNotional(f: NotionalFilter, order: OrderCheckInput, market: MarketContext = {}, skipped: SkipSink = []): FilterViolation[] {
  const n = notionalOf(order, market);
  if ('skip' in n) {
    skipped.push(n.skip);
    return [];
  }
  return checkBounds(f.filterType, 'notional', n.value, bound('minNotional', f.minNotional), bound('maxNotional', f.maxNotional), n);
}
