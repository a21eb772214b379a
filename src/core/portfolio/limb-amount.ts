/**
 * An exact amount on the 1e-18 grid of amount.ts held in three safe-integer numbers ("limbs"):
 * whole units, then two blocks of nine decimals. The matching engine settles every fill through
 * these with plain number arithmetic: a bigint per balance movement allocated on the heap and
 * cost a runtime call, about half of an order's time in the engine benchmark.
 *
 *   value = w + a * 1e-9 + b * 1e-18,   w a safe integer (may be negative), 0 <= a, b < 1e9
 *
 * Deltas come in as a safe integer `n` counting 10^-s (s <= 18: a price * quantity product, a
 * quantity, a commission), which is how the engine holds prices and quantities (scaled.ts).
 * Whole parts beyond 2^53 (9,007,199,254,740,991 units of an asset) cannot be held and throw a
 * RangeError rather than lose precision. `units` converts to and from the bigint units of
 * amount.ts for everyone off the hot path.
 */
import { floorDivPow10, POW10 } from '../money/safe-int.ts';
import { AMOUNT_SCALE, formatAmount } from './amount.ts';

const E9 = 1e9;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const B18 = 10n ** 18n;
const B9 = 10n ** 9n;
const ZEROS9 = '000000000';

// Results of split(): module scratch, so the hot path allocates nothing.
let sw = 0;
let sa = 0;
let sb = 0;

/** n * 10^-s as limbs into sw / sa / sb. Every divisor stays <= 1e9, so each step is exact. */
function split(n: number, s: number): void {
  if (s === 0) {
    sw = n;
    sa = sb = 0;
    return;
  }
  if (s <= 9) {
    const w = floorDivPow10(n, s);
    sw = w;
    sa = (n - w * (POW10[s] as number)) * (POW10[9 - s] as number);
    sb = 0;
    return;
  }
  // n = hi * 10^(s-9) + lo: hi counts 1e-9 units, lo the rest.
  const hi = floorDivPow10(n, s - 9);
  sb = (n - hi * (POW10[s - 9] as number)) * (POW10[AMOUNT_SCALE - s] as number);
  const w = floorDivPow10(hi, 9);
  sw = w;
  sa = hi - w * E9;
}

/** n as exactly `width` digits (n < 10^width). */
function padded(n: number, width: number): string {
  const t = String(n);
  return t.length < width ? ZEROS9.slice(0, width - t.length) + t : t;
}

function checkSafe(n: number, s: number): void {
  if (!(n <= MAX_SAFE && n >= -MAX_SAFE) || !Number.isInteger(n) || !(s >= 0 && s <= AMOUNT_SCALE)) {
    throw new AmountRangeError(`amount delta ${n} at 10^-${s} is not a safe integer on a scale of at most ${AMOUNT_SCALE} decimals`);
  }
}

/** An amount the limbs cannot hold exactly: beyond 2^53 whole units, or a delta that is not a safe integer. */
export class AmountRangeError extends RangeError {
  override readonly name = 'AmountRangeError';
}

export class LimbAmount {
  // The limbs are public for reading; change them only through add(), moveTo() and units.
  /** Whole units. */
  w = 0;
  /** Units of 1e-9 below the whole, 0 <= a < 1e9. */
  a = 0;
  /** Units of 1e-18 below that, 0 <= b < 1e9. */
  b = 0;
  /**
   * format()'s last text and the limbs it was made from: it serves while the value is the same
   * again (balance events format both sides of every touched entry; one side often did not move,
   * or moved and came back, as a market order's lock does).
   */
  private text = '0';
  private tw = 0;
  private ta = 0;
  private tb = 0;

  /** Add n * 10^-s (n a safe integer of any sign, 0 <= s <= 18). */
  add(n: number, s: number): void {
    if (n === 0) return;
    if (!(n <= MAX_SAFE && n >= -MAX_SAFE && s >= 0 && s <= AMOUNT_SCALE) || Math.trunc(n) !== n) checkSafe(n, s);
    // split(), written out with locals: a dozen of these per fill.
    let dw: number;
    let da: number;
    let db = 0;
    if (s <= 9) {
      dw = floorDivPow10(n, s);
      da = (n - dw * (POW10[s] as number)) * (POW10[9 - s] as number);
    } else {
      const hi = floorDivPow10(n, s - 9);
      db = (n - hi * (POW10[s - 9] as number)) * (POW10[AMOUNT_SCALE - s] as number);
      dw = floorDivPow10(hi, 9);
      da = hi - dw * E9;
    }
    let b = this.b + db;
    let a = this.a + da;
    let w = this.w + dw;
    if (b >= E9) {
      b -= E9;
      a += 1;
    }
    if (a >= E9) {
      a -= E9;
      w += 1;
    }
    if (w > MAX_SAFE || w < -MAX_SAFE) throw new AmountRangeError(`amount beyond ${MAX_SAFE} whole units`);
    this.w = w;
    this.a = a;
    this.b = b;
  }

  /**
   * Move n * 10^-s from this amount to `to` (same domain as add): `this.add(-n, s)` and
   * `to.add(n, s)` with one split of n (a lock, an unlock and every commission move this way).
   * Neither changes if either would leave the range.
   */
  moveTo(to: LimbAmount, n: number, s: number): void {
    if (n === 0) return;
    if (!(n <= MAX_SAFE && n >= -MAX_SAFE && s >= 0 && s <= AMOUNT_SCALE) || Math.trunc(n) !== n) checkSafe(n, s);
    split(n, s);
    const dw = sw;
    const da = sa;
    const db = sb;
    // to + (dw, da, db)
    let tb = to.b + db;
    let ta = to.a + da;
    let tw = to.w + dw;
    if (tb >= E9) {
      tb -= E9;
      ta += 1;
    }
    if (ta >= E9) {
      ta -= E9;
      tw += 1;
    }
    // this - (dw, da, db)
    let fb = this.b - db;
    let fa = this.a - da;
    let fw = this.w - dw;
    if (fb < 0) {
      fb += E9;
      fa -= 1;
    }
    if (fa < 0) {
      fa += E9;
      fw -= 1;
    }
    if (tw > MAX_SAFE || tw < -MAX_SAFE || fw > MAX_SAFE || fw < -MAX_SAFE) throw new AmountRangeError(`amount beyond ${MAX_SAFE} whole units`);
    to.w = tw;
    to.a = ta;
    to.b = tb;
    this.w = fw;
    this.a = fa;
    this.b = fb;
  }

  /** value >= n * 10^-s (same domain as add). */
  covers(n: number, s: number): boolean {
    if (!(n <= MAX_SAFE && n >= -MAX_SAFE && s >= 0 && s <= AMOUNT_SCALE) || Math.trunc(n) !== n) checkSafe(n, s);
    split(n, s);
    const w = this.w;
    if (w !== sw) return w > sw;
    const a = this.a;
    return a !== sa ? a > sa : this.b >= sb;
  }

  /** floor(value * 10^s) as a number (0 <= s <= 18), or -1 when the value is negative or that is beyond 2^53. */
  floorAt(s: number): number {
    const w = this.w;
    if (w < 0) return -1;
    let n: number;
    if (s <= 9) n = w * (POW10[s] as number) + Math.floor(this.a / (POW10[9 - s] as number));
    else n = w * (POW10[s] as number) + this.a * (POW10[s - 9] as number) + Math.floor(this.b / (POW10[AMOUNT_SCALE - s] as number));
    return n <= MAX_SAFE ? n : -1;
  }

  isZero(): boolean {
    return this.w === 0 && this.a === 0 && this.b === 0;
  }

  /** The value in bigint units of 1e-18 (amount.ts). */
  get units(): bigint {
    return BigInt(this.w) * B18 + BigInt(this.a) * B9 + BigInt(this.b);
  }

  set units(v: bigint) {
    let w = v / B18;
    let r = v - w * B18;
    if (r < 0n) {
      w -= 1n;
      r += B18;
    }
    const whole = Number(w);
    if (whole > MAX_SAFE || whole < -MAX_SAFE) throw new AmountRangeError(`${formatAmount(v)} is beyond the ${MAX_SAFE} whole units a balance can hold`);
    this.w = whole;
    this.a = Number(r / B9);
    this.b = Number(r % B9);
  }

  /** Plain decimal text, as formatAmount(units) gives, without a bigint for non-negative values. */
  format(): string {
    const w = this.w;
    const a = this.a;
    const b = this.b;
    if (w !== this.tw || a !== this.ta || b !== this.tb) {
      this.text = this.render();
      this.tw = w;
      this.ta = a;
      this.tb = b;
    }
    return this.text;
  }

  private render(): string {
    const w = this.w;
    if (w < 0) return formatAmount(this.units);
    // Trailing zeros come off the numbers, not the text: one string per block. The limbs are
    // below 1e9, so `| 0` keeps them int32: `x /= 10` made them doubles, and each `%` a call.
    let a = this.a | 0;
    let b = this.b | 0;
    if (b === 0) {
      if (a === 0) return String(w);
      let digits = 9;
      for (let q = (a / 10) | 0; q * 10 === a; q = (a / 10) | 0) {
        a = q;
        digits--;
      }
      return `${w}.${padded(a, digits)}`;
    }
    let digits = 9;
    for (let q = (b / 10) | 0; q * 10 === b; q = (b / 10) | 0) {
      b = q;
      digits--;
    }
    return `${w}.${padded(a, 9)}${padded(b, digits)}`;
  }

}
