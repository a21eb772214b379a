/**
 * Integer arithmetic on doubles, exact below 2^53: the scaled prices, quantities and amount limbs
 * of the matching engine and the balances (core/matching/scaled.ts, core/portfolio/limb-amount.ts).
 */

/** 10^i for i in 0..22: every one exact as a double. */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * floor(n / d) for a safe integer n (any sign) and a positive safe integer d. The double quotient
 * can round across an integer when n is near 2^53; the remainder check corrects it.
 */
export function floorDiv(n: number, d: number): number {
  const q = Math.floor(n / d);
  const r = n - q * d;
  return r < 0 ? q - 1 : r >= d ? q + 1 : q;
}
