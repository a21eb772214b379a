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

// Bound texts are only read when a check fails: built on demand, so a passing check formats nothing.
class NamedBound implements Bound {
  constructor(
    private readonly name: string,
    readonly value: Dec,
  ) {}

  get text(): string {
    return `${this.name} ${w(this.value)}`;
  }
}

class ScaledBound implements Bound {
  readonly value: Dec;

  constructor(
    private readonly refName: string,
    private readonly ref: Dec,
    private readonly multName: string,
    private readonly mult: Dec,
  ) {
    this.value = ref.times(mult);
  }

  get text(): string {
    return `${this.refName} ${w(this.ref)} * ${this.multName} ${w(this.mult)} = ${w(this.value)}`;
  }
}

export const bound = (name: string, value: Dec): Bound => new NamedBound(name, value);

/** `reference * multiplier`, explained: `lastPrice 100 * multiplierUp 1.1 = 110`. */
export function scaled(refName: string, ref: Dec, multName: string, mult: Dec): Bound {
  return new ScaledBound(refName, ref, multName, mult);
}

/**
 * Inclusive bounds: value >= lower and value <= upper. A zero upper bound is disabled.
 * `subject` names the value in the detail (default `price 0.5`); an object's `text` is read only on a violation.
 */
export function checkBounds(
  filterType: string,
  field: FilterField,
  value: Dec,
  lower: Bound | undefined,
  upper: Bound | undefined,
  subject?: string | { readonly text: string },
): FilterViolation[] {
  const out: FilterViolation[] = [];
  if (lower && value.lt(lower.value)) {
    out.push(violation(filterType, field, 'below-min', `${subjectText(field, value, subject)} is below ${lower.text}`));
  }
  if (upper && !upper.value.isZero() && value.gt(upper.value)) {
    out.push(violation(filterType, field, 'above-max', `${subjectText(field, value, subject)} is above ${upper.text}`));
  }
  return out;
}

/** The order's own limit price, only for types that carry one (MARKET and stop-market have none). */
function subjectText(field: FilterField, value: Dec, subject: string | { readonly text: string } | undefined): string {
  return subject === undefined ? `${field} ${w(value)}` : typeof subject === 'string' ? subject : subject.text;
}

export function limitPrice(order: OrderCheckInput): Dec | undefined {
  return hasLimitPrice(order.type) ? order.price : undefined;
}
