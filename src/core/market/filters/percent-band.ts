/**
 * The band shared by PERCENT_PRICE, PERCENT_PRICE_SA and PERCENT_PRICE_INDEX (spec 2.3):
 * reference * multiplierDown <= price <= reference * multiplierUp, inclusive.
 * Only orders with a limit price are checked (MARKET and stop-market orders carry none).
 */
import type { Dec } from '../../money/decimal.ts';
import type { RawObject } from '../parse-fields.ts';
import { readDecimal } from '../parse-fields.ts';
import type { FilterViolation, OrderCheckInput, SkipSink } from '../types.ts';
import { checkBounds, limitPrice, scaled } from './common.ts';

export interface Multipliers {
  readonly multiplierUp: Dec;
  readonly multiplierDown: Dec;
}

export function parseMultipliers(raw: RawObject, path: string): Multipliers {
  return { multiplierUp: readDecimal(raw, 'multiplierUp', path), multiplierDown: readDecimal(raw, 'multiplierDown', path) };
}

export function checkPercentBand(
  filterType: string,
  f: Multipliers,
  order: OrderCheckInput,
  refName: string,
  ref: Dec | undefined,
  skipped: SkipSink,
): FilterViolation[] {
  const price = limitPrice(order);
  if (!price) return [];
  if (!ref) {
    skipped.push(`${refName} unknown`);
    return [];
  }
  const lower = scaled(refName, ref, 'multiplierDown', f.multiplierDown);
  const upper = scaled(refName, ref, 'multiplierUp', f.multiplierUp);
  return checkBounds(filterType, 'price', price, lower, upper);
}
