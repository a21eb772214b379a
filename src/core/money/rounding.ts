/**
 * Rounding to the venue's price and quantity grids (spec 2.3 PRICE_FILTER and LOT_SIZE).
 *
 * Spec 2.3 measures the grid from the filter's minimum, not from zero:
 * `(price - minPrice) % tickSize == 0` and `(quantity - minQty) % stepSize == 0`. With minPrice
 * 0.005 and tickSize 0.01 the valid prices are 0.005, 0.015, ..., so rounding must use the same
 * origin or an order "rounded to the tick" still fails the filter.
 *
 * A step of 0 means "no constraint" (the venue convention for a disabled tick or step): the value
 * comes back unchanged. The grid extends below the origin too; rounding never clamps into
 * [min, max], the filter checks report that. Pure: no I/O, no clock.
 */
import { D, dec } from './decimal.ts';
import type { Dec, DecimalLike } from './decimal.ts';

/** `down` toward -infinity, `up` toward +infinity, `nearest` with ties going up. */
export type RoundMode = 'down' | 'up' | 'nearest';

const ZERO = new D(0);
/**
 * Grid arithmetic runs at 200 significant digits: `D` keeps 40, and 1e24 over a step of 6e-17 is
 * already a 41-digit step count. The result is copied back into `D` exactly (no rounding on construction).
 */
const Wide = D.clone({ precision: 200 });
const wide = (d: Dec) => new Wide(d.toFixed());

function positiveStep(step: DecimalLike, field: string): Dec {
  const s = dec(step, field);
  if (s.isNegative()) throw new RangeError(`${field}: ${s.toFixed()} is negative`);
  return s;
}

/**
 * Round `value` onto the grid `origin + n * step` (n an integer). Exact: uses integer division
 * and the remainder rather than a rounded quotient, so 18-decimal values stay exact.
 */
export function roundToGrid(value: DecimalLike, step: DecimalLike, origin: DecimalLike = ZERO, mode: RoundMode = 'nearest'): Dec {
  const v = dec(value, 'value');
  const s = positiveStep(step, 'step');
  if (s.isZero()) return v;
  const o = wide(dec(origin, 'origin'));
  const ws = wide(s);
  const diff = wide(v).minus(o);
  // divToInt truncates toward zero; shift to the floor so the remainder is in [0, step).
  let n = diff.divToInt(ws);
  let rem = diff.minus(n.times(ws));
  if (rem.isNegative()) {
    n = n.minus(1);
    rem = rem.plus(ws);
  }
  if (!rem.isZero()) {
    if (mode === 'up' || (mode === 'nearest' && rem.times(2).gte(ws))) n = n.plus(1);
  }
  return new D(o.plus(n.times(ws)).toFixed());
}

/** Round a price onto the PRICE_FILTER grid measured from `minPrice` (default 0). */
export function roundToTick(price: DecimalLike, tickSize: DecimalLike, minPrice: DecimalLike | undefined = undefined, mode: RoundMode = 'nearest'): Dec {
  return roundToGrid(price, tickSize, minPrice ?? ZERO, mode);
}

/** Round a quantity onto the LOT_SIZE grid measured from `minQty` (default 0); down by default so it never buys or sells more than asked. */
export function roundToStep(qty: DecimalLike, stepSize: DecimalLike, minQty: DecimalLike | undefined = undefined, mode: RoundMode = 'down'): Dec {
  return roundToGrid(qty, stepSize, minQty ?? ZERO, mode);
}

/** True when `value` lies on `origin + n * step`; always true for a zero step. */
export function isOnStep(value: DecimalLike, step: DecimalLike, origin: DecimalLike = ZERO): boolean {
  const s = positiveStep(step, 'step');
  if (s.isZero()) return true;
  return wide(dec(value, 'value')).minus(wide(dec(origin, 'origin'))).mod(wide(s)).isZero();
}

/** Number of decimals a step implies: 0.01 -> 2, 0.000001 -> 6, 1 and 10 -> 0, 0.0050 -> 3. */
export function decimalsOf(step: DecimalLike): number {
  return dec(step, 'step').decimalPlaces();
}
