/**
 * Positions per symbol built from fills (base held, average entry price): the arithmetic behind
 * AccountState's account-wide positions and each strategy's own (account.ts). One class, so the
 * account and a strategy, live and in a backtest, count a fill the same way.
 *
 * A BUY adds its quantity less any commission charged in the base asset, a SELL takes its
 * quantity (plus any base commission) away. The average entry is the quantity-weighted price of
 * what is held; sells leave it unchanged; it is forgotten when nothing is held. The view objects
 * handed out are cached and replaced on change, so reading them every bar costs no allocation.
 */
import type { Dec } from '../money/decimal.ts';
import { X40 } from '../money/exact40.ts';
import { parsedDecimal } from './decimal-cache.ts';
import type { OrderSide, PositionOut } from './types.ts';

interface Holding {
  base: Dec;
  avg: Dec | undefined;
  view: PositionOut;
  /** The same amounts on BigInts (exact40.ts), kept for the next fill's arithmetic. */
  baseX: X40 | undefined;
  avgX: X40 | undefined;
}

const XZERO = X40.ZERO;

/**
 * The frozen position a strategy's context reads: one shape whether or not there is an average
 * entry (`avgEntryPrice` undefined when nothing is held), so the code reading it sees one map.
 */
function positionView(symbol: string, base: Dec, avg: Dec | undefined): PositionOut {
  return Object.freeze({ symbol, base, avgEntryPrice: avg });
}

export class Holdings {
  private readonly held = new Map<string, Holding>();
  /** The position asked for last, until the holdings change (a strategy's context asks every bar). */
  private lastSymbol: string | undefined;
  private last: PositionOut | undefined;

  position(symbol: string): PositionOut | undefined {
    if (symbol !== this.lastSymbol) {
      this.last = this.held.get(symbol)?.view;
      this.lastSymbol = symbol;
    }
    return this.last;
  }

  baseOf(symbol: string): Dec | undefined {
    return this.held.get(symbol)?.base;
  }

  /** Set what is held (initial holdings, reconciliation). */
  set(symbol: string, base: Dec, avg: Dec | undefined): void {
    this.held.set(symbol, { base, avg, view: positionView(symbol, base, avg), baseX: undefined, avgX: undefined });
    this.lastSymbol = undefined;
  }

  /**
   * A BUY adds qty - fee at the price (the held quantity's weighted average), a SELL takes qty + fee
   * away. As Decimal computed it: got = qty - fee; avg = (avg * base + price * got) / next.
   * The price comes as a Decimal or as the venue's text (parsed only when needed).
   */
  move(symbol: string, side: OrderSide, qty: X40, fee: X40, priceDec: Dec | undefined, priceText: string | undefined): void {
    const h = this.held.get(symbol);
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
    const base = baseX.toDec();
    const avg = avgDec ?? (avgX === undefined ? undefined : avgX.toDec());
    this.held.set(symbol, { base, avg, view: positionView(symbol, base, avg), baseX, avgX });
    this.lastSymbol = undefined;
  }
}
