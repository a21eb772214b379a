/**
 * Balance movements of the engine on the balance limbs (core/portfolio/limb-amount.ts): amounts
 * are products of the engine's scaled integers (price int * lots on 10^-(pd+qd), lots on
 * 10^-qd) and move as numbers while they are safe integers, as bigint units otherwise. Both
 * give the same exact values; the number path allocates nothing, which is what keeps a fill
 * cheap.
 *
 * `Held` is what an order locks: a number on its side's scale (BUY: pd + qd, SELL: qd), or
 * bigint units (amount.ts) for a quote-sized BUY or a product beyond 2^53.
 */
import { floorDivPow10 } from '../../money/safe-int.ts';
import { AMOUNT_SCALE } from '../../portfolio/amount.ts';
import type { BalanceEntry } from '../../portfolio/balances.ts';
import type { LimbAmount } from '../../portfolio/limb-amount.ts';
import type { FeeRate, SymbolSpec } from './symbol-spec.ts';
import { commissionUnits } from './symbol-spec.ts';

export type Held = number | bigint;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const K = (s: number): bigint => 10n ** BigInt(AMOUNT_SCALE - s);

/** t += x * y * 10^-s. */
export function addProduct(t: LimbAmount, x: number, y: number, s: number): void {
  const n = x * y;
  if (n <= MAX_SAFE && n >= -MAX_SAFE) t.add(n, s);
  else t.units += BigInt(x) * BigInt(y) * K(s);
}

/** The price * lots a BUY at `price` holds for `lots` (side scale pd + qd). */
export function quoteHeld(spec: SymbolSpec, price: number, lots: number): Held {
  const n = price * lots;
  return n <= MAX_SAFE ? n : BigInt(price) * BigInt(lots) * spec.notionalK;
}

/** Side scale of what a BUY (quote) or SELL (base) order holds. */
export function heldScale(spec: SymbolSpec, isBuy: boolean): number {
  return isBuy ? spec.pd + spec.qd : spec.qd;
}

/** free -> locked (`sign` 1) or locked -> free (-1) of a held amount. */
export function moveHeld(e: BalanceEntry, h: Held, s: number, sign: 1 | -1): void {
  if (typeof h === 'number') {
    if (sign === 1) e.f.moveTo(e.l, h, s);
    else e.l.moveTo(e.f, h, s);
  } else {
    const d = sign === 1 ? h : -h;
    e.free -= d;
    e.locked += d;
  }
}

export const heldIsZero = (h: Held): boolean => (typeof h === 'number' ? h === 0 : h === 0n);

/** free >= h. */
export function covers(e: BalanceEntry, h: Held, s: number): boolean {
  return typeof h === 'number' ? e.f.covers(h, s) : e.free >= h;
}

/**
 * Commission on x * y * 10^-s at `rate`, rounded down to 1e-18 (as commissionUnits), taken from
 * `payer` and given to `fees`. False when it is zero.
 */
export function charge(payer: LimbAmount, fees: LimbAmount, x: number, y: number, s: number, rate: FeeRate): boolean {
  if (rate.n === 0) return false;
  const fs = s + rate.d;
  let n = x * y * rate.n;
  if (n <= MAX_SAFE && fs - AMOUNT_SCALE <= 9) {
    let scale = fs;
    if (fs > AMOUNT_SCALE) {
      n = floorDivPow10(n, fs - AMOUNT_SCALE);
      scale = AMOUNT_SCALE;
    }
    if (n === 0) return false;
    payer.moveTo(fees, n, scale);
    return true;
  }
  const fee = commissionUnits(BigInt(x) * BigInt(y) * K(s), rate);
  if (fee === 0n) return false;
  payer.units -= fee;
  fees.units += fee;
  return true;
}
