/**
 * Integer arithmetic on doubles, exact below 2^53: the scaled prices, quantities and amount limbs
 * of the matching engine and the balances (core/matching/numbers/scaled.ts, core/portfolio/limb-amount.ts)
 * and the number paths of exact40 and plain-decimal.
 */

/** 10^i for i in 0..22: every one exact as a double. */
export const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Decimal digits of a safe integer a >= 0 (1 for 0). */
export function digitCount(a: number): number {
  let k = 1;
  while (k < 16 && a >= (POW10[k] as number)) k++;
  return k;
}

/**
 * floor(n / d) for a safe integer n (any sign) and a positive safe integer d. The double quotient
 * can round across an integer when n is near 2^53; the remainder check corrects it.
 */
export function floorDiv(n: number, d: number): number {
  const q = Math.floor(n / d);
  const r = n - q * d;
  return r < 0 ? q - 1 : r >= d ? q + 1 : q;
}

const INV10: readonly number[] = POW10.map((p) => 1 / p);
const TWO52 = 2 ** 52;

/**
 * floor(n / 10^k) for a safe integer n (any sign), 0 <= k <= 22: as floorDiv, multiplying by the
 * reciprocal instead of dividing (a division costs several multiplications, and the balance limbs
 * split every delta this way, a dozen times per fill). The product is within one of the quotient
 * and the remainder check corrects it; that check is exact while |n| < 2^52 and 10^k <= 10^15
 * (q * 10^k stays a safe integer), so larger n take floorDiv. From 10^16 on, every safe n is
 * smaller than the divisor.
 */
export function floorDivPow10(n: number, k: number): number {
  if (k > 15) return n >= 0 ? 0 : -1;
  if (n >= TWO52 || n <= -TWO52) return floorDiv(n, POW10[k] as number);
  const p = POW10[k] as number;
  const q = Math.floor(n * (INV10[k] as number));
  const r = n - q * p;
  return r < 0 ? q - 1 : r >= p ? q + 1 : q;
}
