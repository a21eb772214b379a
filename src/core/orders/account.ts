/**
 * The account as the order manager sees it: balances per asset (free and locked, as the venue
 * last reported them: outboundAccountPosition, notes 4.1, moved meanwhile by the fills it has
 * not reported yet: fill-funds.ts) and a position per symbol built from
 * the account's fills (base held, average entry price). Strategies read both through their
 * context; the objects handed out are cached and replaced on change, so reading them every bar
 * costs no allocation. `version` moves on every change (hosts cache derived numbers on it).
 *
 * Position: a BUY adds its quantity less any commission charged in the base asset, a SELL takes
 * its quantity (plus any base commission) away. The average entry is the quantity-weighted price
 * of what is held; sells leave it unchanged; it is forgotten when nothing is held.
 */
import type { Dec } from '../money/decimal.ts';
import { D, dec } from '../money/decimal.ts';
import { X40 } from '../money/exact40.ts';
import { parsedDecimal } from './decimal-cache.ts';
import type { BalanceOut, OrderSide, PositionOut } from './types.ts';

interface Holding {
  base: Dec;
  avg: Dec | undefined;
  view: PositionOut;
  /** The same amounts on BigInts (exact40.ts), kept for the next fill's arithmetic. */
  baseX: X40 | undefined;
  avgX: X40 | undefined;
}

export interface FillEffect {
  readonly symbol: string;
  readonly baseAsset: string;
  readonly side: OrderSide;
  readonly price: Dec;
  readonly qty: Dec;
  readonly commission: Dec;
  readonly commissionAsset: string;
}

/** A fill as the venue printed it (decimal strings it checked): what `applyFillText` reads. */
export interface FillText {
  readonly symbol: string;
  readonly baseAsset: string;
  readonly side: OrderSide;
  readonly price: string;
  readonly qty: string;
  readonly commission: string;
  readonly commissionAsset: string;
}

const ZERO = new D(0);
const XZERO = X40.ZERO;
/** A Decimal of an exact40 value (the same number, built from its digits). */
const toDec = (x: X40): Dec => x.toDec();

/**
 * One asset's balance. Venue balance events set it as text and most are never read as Decimals
 * (a backtest reads the total as a number per change): the texts are parsed on first read.
 */
class Balance {
  private printed: string | undefined = undefined;

  constructor(
    private freeDec: Dec | undefined,
    private lockedDec: Dec | undefined,
    readonly freeText: string | undefined,
    readonly lockedText: string | undefined,
  ) {}

  get free(): Dec {
    return (this.freeDec ??= parsedDecimal(this.freeText as string));
  }

  get locked(): Dec {
    return (this.lockedDec ??= parsedDecimal(this.lockedText as string));
  }

  /** The free amount as text: the venue's, or the Decimal's printed once. */
  get text(): string {
    return this.freeText ?? (this.printed ??= (this.freeDec as Dec).toFixed());
  }
}

/** Up to 40 characters: at most 40 significant digits, which Decimal arithmetic keeps exact. */
const SHORT = 40;

/**
 * The frozen position a strategy's context reads: one shape whether or not there is an average
 * entry (`avgEntryPrice` undefined when nothing is held), so the code reading it sees one map.
 */
function positionView(symbol: string, base: Dec, avg: Dec | undefined): PositionOut {
  return Object.freeze({ symbol, base, avgEntryPrice: avg });
}

export class AccountState {
  private readonly free = new Map<string, Balance>();
  /** Per asset, the venue time of the last balance event (fill-funds.ts: a later one already includes a fill). */
  private readonly balanceTimes = new Map<string, number>();
  private readonly holdings = new Map<string, Holding>();
  private balanceView: readonly BalanceOut[] | undefined;
  /** The position asked for last, until the holdings change (a strategy's context asks every bar). */
  private lastPositionSymbol: string | undefined;
  private lastPosition: PositionOut | undefined;
  /** Moves on every balance or position change. */
  version = 0;

  constructor(balances: Readonly<Record<string, string>> = {}) {
    for (const [asset, amount] of Object.entries(balances)) this.setBalance(asset, dec(amount, `balance ${asset}`), ZERO);
  }

  setBalance(asset: string, free: Dec, locked: Dec): void {
    this.put(asset, new Balance(free, locked, undefined, undefined));
  }

  /** The venue's texts (decimal strings it checked), parsed only when read; `time` is the venue's (balance event time). */
  setBalanceText(asset: string, free: string, locked: string, time?: number): void {
    this.put(asset, new Balance(undefined, undefined, free, locked));
    if (time !== undefined) this.balanceTimes.set(asset, time);
  }

  /** The venue time of the last balance event of `asset` (undefined: none yet). */
  balanceTimeOf(asset: string): number | undefined {
    return this.balanceTimes.get(asset);
  }

  /**
   * Move free and locked of `asset` by the amounts given: a fill's effect the venue's balance
   * event has not reported yet (fill-funds.ts). The next balance event replaces it.
   */
  moveFunds(asset: string, freeBy: Dec, lockedBy: Dec): void {
    if (freeBy.isZero() && lockedBy.isZero()) return;
    const b = this.free.get(asset);
    this.setBalance(asset, (b?.free ?? ZERO).plus(freeBy), (b?.locked ?? ZERO).plus(lockedBy));
  }

  private put(asset: string, b: Balance): void {
    this.free.set(asset, b);
    this.balanceView = undefined;
    this.version++;
  }

  /** Free amount of an asset (zero when none). */
  freeOf(asset: string): Dec {
    return this.free.get(asset)?.free ?? ZERO;
  }

  /** Locked amount of an asset (zero when none). */
  lockedOf(asset: string): Dec {
    return this.free.get(asset)?.locked ?? ZERO;
  }

  /** `freeOf(asset)` as text (the venue's own when it set it): the pre-trade fast path compares it without a Decimal. */
  freeTextOf(asset: string): string {
    const b = this.free.get(asset);
    return b === undefined ? '0' : b.text;
  }

  /** free + locked of an asset. */
  totalOf(asset: string): Dec {
    const b = this.free.get(asset);
    return b ? b.free.plus(b.locked) : ZERO;
  }

  /**
   * `Number(totalOf(asset).toFixed())` (for charts and metrics), without Decimals when nothing is
   * locked and the free text is short: the same decimal value, so the same number.
   */
  totalNumberOf(asset: string): number {
    const b = this.free.get(asset);
    if (b === undefined) return 0;
    const t = b.freeText;
    if (t !== undefined && b.lockedText === '0' && t.length <= SHORT) return Number(t);
    return Number(b.free.plus(b.locked).toFixed());
  }

  balances(): readonly BalanceOut[] {
    if (!this.balanceView) this.balanceView = Object.freeze([...this.free].map(([asset, b]) => Object.freeze({ asset, free: b.free, locked: b.locked })));
    return this.balanceView;
  }

  /** Balances as decimal strings, assets sorted (reports). */
  balanceTexts(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const asset of [...this.free.keys()].sort()) out[asset] = this.totalOf(asset).toFixed();
    return out;
  }

  position(symbol: string): PositionOut | undefined {
    if (symbol !== this.lastPositionSymbol) {
      this.lastPosition = this.holdings.get(symbol)?.view;
      this.lastPositionSymbol = symbol;
    }
    return this.lastPosition;
  }

  /** Base held for the symbol (zero when none). */
  baseOf(symbol: string): Dec {
    return this.holdings.get(symbol)?.base ?? ZERO;
  }

  /** Set what is held (initial holdings, reconciliation). */
  setPosition(symbol: string, base: Dec, avgEntryPrice?: Dec): void {
    this.storeDec(symbol, base, base.gt(0) ? avgEntryPrice : undefined);
  }

  applyFill(f: FillEffect): void {
    const fee = f.commissionAsset === f.baseAsset && !f.commission.isZero() ? X40.of(f.commission) : XZERO;
    this.move(f.symbol, f.side, X40.of(f.qty), fee, f.price, undefined);
  }

  /**
   * `applyFill` on the venue's texts: the arithmetic is Decimal's (precision 40, half up) done on
   * BigInts (exact40.ts), so the same digits without parsing the amounts into Decimals.
   */
  applyFillText(f: FillText): void {
    const fee = f.commissionAsset === f.baseAsset && f.commission !== '0' ? X40.parse(f.commission) : XZERO;
    this.move(f.symbol, f.side, X40.parse(f.qty), fee, undefined, f.price);
  }

  /**
   * A BUY adds qty - fee at `price` (the held quantity's weighted average), a SELL takes qty + fee
   * away. As Decimal computed it: got = qty - fee; avg = (avg * base + price * got) / next.
   */
  private move(symbol: string, side: OrderSide, qty: X40, fee: X40, priceDec: Dec | undefined, priceText: string | undefined): void {
    const h = this.holdings.get(symbol);
    const base = h === undefined ? XZERO : (h.baseX ??= X40.of(h.base));
    if (side === 'BUY') {
      const got = qty.minus(fee);
      const next = base.plus(got);
      if (!next.gt(XZERO)) return this.store(symbol, next, undefined, undefined);
      if (!base.gt(XZERO)) {
        const price = priceDec ?? parsedDecimal(priceText as string);
        return this.store(symbol, next, undefined, price);
      }
      if (h === undefined || h.avg === undefined) return this.store(symbol, next, undefined, undefined);
      const price = priceDec !== undefined ? X40.of(priceDec) : X40.parse(priceText as string);
      const avgX = (h.avgX ??= X40.of(h.avg));
      return this.store(symbol, next, avgX.times(base).plus(price.times(got)).div(next), undefined);
    }
    const next = base.minus(qty).minus(fee);
    if (!next.gt(XZERO) || h === undefined || h.avg === undefined) return this.store(symbol, next, undefined, undefined);
    this.store(symbol, next, h.avgX, h.avg);
  }

  private store(symbol: string, baseX: X40, avgX: X40 | undefined, avgDec: Dec | undefined): void {
    const base = toDec(baseX);
    const avg = avgDec ?? (avgX === undefined ? undefined : toDec(avgX));
    const view: PositionOut = positionView(symbol, base, avg);
    this.holdings.set(symbol, { base, avg, view, baseX, avgX });
    this.lastPositionSymbol = undefined;
    this.version++;
  }

  private storeDec(symbol: string, base: Dec, avg: Dec | undefined): void {
    const view: PositionOut = positionView(symbol, base, avg);
    this.holdings.set(symbol, { base, avg, view, baseX: undefined, avgX: undefined });
    this.lastPositionSymbol = undefined;
    this.version++;
  }
}
