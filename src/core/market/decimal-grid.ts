/**
 * Fast paths for the step grids of LOT_SIZE and PRICE_FILTER (spec 2.2 filters): when the step is
 * a power of ten (0.01, 0.000001: what the venue lists) and the grid's origin (minQty, minPrice)
 * lies on it, the grid is "every value with at most k decimals", so "is on the grid" is a count
 * of decimal places and rounding onto it is `toDecimalPlaces(k, mode)`. Same answers as
 * money/rounding.ts (isOnStep, roundToGrid), which every other grid still goes through, without
 * its 200-digit round trip through text. Pure.
 */
import { D } from '../money/decimal.ts';
import type { Dec } from '../money/decimal.ts';
import type { RoundMode } from '../money/rounding.ts';
import { isOnStep, roundToGrid } from '../money/rounding.ts';

const decimalsCache = new WeakMap<Dec, number>();
const ONE = new D(1);
const TEN = new D(10);

/** k when `step` is 10^-k (k >= 0), else -1. Cached per step object (filters keep theirs). */
export function powerOfTenDecimals(step: Dec): number {
  let k = decimalsCache.get(step);
  if (k === undefined) {
    const dp = step.decimalPlaces();
    k = step.gt(0) && step.times(TEN.pow(dp)).eq(ONE) ? dp : -1;
    decimalsCache.set(step, k);
  }
  return k;
}

/** The fast grid's decimals for (step, origin), or -1 when the general path must answer. */
function gridDecimals(step: Dec, origin: Dec): number {
  const k = powerOfTenDecimals(step);
  return k >= 0 && origin.decimalPlaces() <= k ? k : -1;
}

/** isOnStep(value, step, origin) of money/rounding.ts. */
export function onGrid(value: Dec, step: Dec, origin: Dec): boolean {
  const k = gridDecimals(step, origin);
  return k >= 0 ? value.decimalPlaces() <= k : isOnStep(value, step, origin);
}

/** Floor for 'down', ceiling for 'up', ties up for 'nearest': roundToGrid's modes. */
const MODES = { down: D.ROUND_FLOOR, up: D.ROUND_CEIL, nearest: D.ROUND_HALF_CEIL } as const;

/** roundToGrid(value, step, origin, mode) of money/rounding.ts. */
export function roundOnGrid(value: Dec, step: Dec, origin: Dec, mode: RoundMode): Dec {
  const k = gridDecimals(step, origin);
  return k >= 0 ? value.toDecimalPlaces(k, MODES[mode]) : roundToGrid(value, step, origin, mode);
}
