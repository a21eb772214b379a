/**
 * Shared pieces of the spec 2.3 filter checkers: violation records with the spec 7.5 text, and
 * bound checks with readable details.
 *
 * Convention (not in the spec, common on venues of this lineage): a zero upper bound, tick or
 * step means that constraint is disabled; a zero lower bound is naturally no constraint.
 */
import { toWire } from '../../money/decimal.ts';
import type { Dec } from '../../money/decimal.ts';
import { filterFailureMessage } from '../messages.ts';
import type { FilterField, FilterViolation, OrderCheckInput, ViolationReason } from '../types.ts';
import { hasLimitPrice } from '../types.ts';

export const w = (d: Dec): string => toWire(d);

export function violation(filterType: string, field: FilterField, reason: ViolationReason, detail: string): FilterViolation {
  return { filterType, field, reason, message: filterFailureMessage(filterType), detail };
}

/** A limit with the text that explains where it came from, e.g. `minPrice 0.01`. */
export interface Bound {
  readonly value: Dec;
  readonly text: string;
}

export const bound = (name: string, value: Dec): Bound => ({ value, text: `${name} ${w(value)}` });

/** `reference * multiplier`, explained: `lastPrice 100 * multiplierUp 1.1 = 110`. */
export function scaled(refName: string, ref: Dec, multName: string, mult: Dec): Bound {
  const value = ref.times(mult);
  return { value, text: `${refName} ${w(ref)} * ${multName} ${w(mult)} = ${w(value)}` };
}

/**
 * Inclusive bounds: value >= lower and value <= upper. A zero upper bound is disabled.
 * `subject` names the value in the detail (default `price 0.5`).
 */
export function checkBounds(
  filterType: string,
  field: FilterField,
  value: Dec,
  lower: Bound | undefined,
  upper: Bound | undefined,
  subject = `${field} ${w(value)}`,
): FilterViolation[] {
  const out: FilterViolation[] = [];
  if (lower && value.lt(lower.value)) {
    out.push(violation(filterType, field, 'below-min', `${subject} is below ${lower.text}`));
  }
  if (upper && !upper.value.isZero() && value.gt(upper.value)) {
    out.push(violation(filterType, field, 'above-max', `${subject} is above ${upper.text}`));
  }
  return out;
}

/** The order's own limit price, only for types that carry one (MARKET and stop-market have none). */
export function limitPrice(order: OrderCheckInput): Dec | undefined {
  return hasLimitPrice(order.type) ? order.price : undefined;
}
