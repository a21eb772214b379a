/**
 * External liquidity (backtester and replay; see the model notes in engine-core.ts).
 *
 * applyPrint: an outside trade at `price` fills the engine's resting LIMIT orders it reaches, as
 * maker at their own limit price: a BUY when the print is below its limit ('through') or at or
 * below it ('touch'), a SELL mirrored; best price first, then time priority, capped in total by
 * `maxQty`. Then the print is the symbol's last price and triggers stops, which may fill at the
 * print price what the book cannot give them (stop-market orders at `stopPrices` for their side
 * when given: a backtest's slippage; the last price stays the print's).
 *
 * Outside liquidity cap (capExternal): a symbol may limit the quantity all its external fills
 * take together until the cap is set again (a backtest's volume share per bar). Resting orders
 * reached by a print, stops it triggers and marketable orders placed with an externalPrice all
 * draw on it; a GTC LIMIT the cap stops short rests with the rest, other orders expire it.
 *
 * Off-scale external prices (more decimals than the symbol's price scale) are rounded onto it:
 * against the taker for placeOrder's externalPrice (up for a BUY, down for a SELL), to the nearest
 * for a print. Real prints of the same symbol are on its tick and need no rounding.
 */
import { dec } from '../money/decimal.ts';
import type { OpContext } from './op-context.ts';
import type { BookSide } from './book/book-side.ts';
import type { EngineCore } from './engine-core.ts';
import { setLastPrice } from './matcher.ts';
import { formatScaled, INEXACT, LastParse, MALFORMED, parseScaled } from './numbers/scaled.ts';
import { fill } from './settle.ts';
import type { SymbolBook } from './book/symbol-book.ts';
import type { SymbolSpec } from './numbers/symbol-spec.ts';
import type { EngineEvent, StopPrices } from './types.ts';

export interface Print {
  readonly price: string;
  readonly time: number;
  /** Total quantity the print may fill across the engine's orders (default unlimited). */
  readonly maxQty?: string | undefined;
  readonly mode: 'through' | 'touch';
  /** Where the stop-market orders the print triggers take outside liquidity, by side (default the print price). */
  readonly stopPrices?: StopPrices | undefined;
}

export interface PrintResult {
  /** Quantity filled from resting orders (stops triggered afterwards not included). */
  readonly filledQty: string;
  readonly fills: number;
  readonly events: EngineEvent[];
}

// A backtest prints a bar's close, then prices the next order at the next bar's open, which is
// mostly the same text: parsed once.
const lastPrice = new LastParse();

/** A price as the symbol's price int, rounded onto the scale when needed. Throws on text that is no price. */
export function externalPriceInt(spec: SymbolSpec, text: string, mode: 'up' | 'down' | 'nearest'): number {
  const v = lastPrice.parse(text, spec.pd);
  if (v === MALFORMED || v === 0) throw new RangeError(`external price ${JSON.stringify(text)} is not a positive decimal`);
  if (v !== INEXACT) return v;
  const d = dec(text).times(`1e${spec.pd}`);
  const r = mode === 'up' ? d.ceil() : mode === 'down' ? d.floor() : d.round();
  if (r.gt(Number.MAX_SAFE_INTEGER) || r.lte(0)) throw new RangeError(`external price ${text} is out of range for ${spec.symbol}`);
  return Number(r.toFixed());
}

/** A quantity as the symbol's lots, rounded down onto its scale. Throws on text that is no quantity. */
export function externalQtyInt(spec: SymbolSpec, text: string, what: string): number {
  const q = parseScaled(text, spec.qd);
  if (q === MALFORMED) throw new RangeError(`${what} ${JSON.stringify(text)} is not a quantity`);
  return q === INEXACT ? Number(dec(text).times(`1e${spec.qd}`).floor().toFixed()) : q;
}

/** Set a PlaceOptions' or Print's stop prices on the operation (rounded against the taker). */
export function setStopPrices(ctx: OpContext, spec: SymbolSpec, p: StopPrices | undefined): void {
  if (p === undefined) return;
  ctx.stopBuy = externalPriceInt(spec, p.BUY, 'up');
  ctx.stopSell = externalPriceInt(spec, p.SELL, 'down');
}

/** A print that reached nothing (frozen: shared). */
const NOTHING_FILLED: PrintResult = Object.freeze({ filledQty: '0', fills: 0, events: Object.freeze([]) as unknown as EngineEvent[] });

interface Sweep {
  left: number;
  filled: number;
  fills: number;
}

/** Whether a print at `price` reaches a resting level at `level` of the bid or ask side. */
function reaches(price: number, level: number, isBid: boolean, through: boolean): boolean {
  if (isBid) return through ? price < level : price <= level;
  return through ? price > level : price >= level;
}

// (A plain predicate, not a closure per side: a backtest prints before nearly every order.)
function sweep(core: EngineCore, ctx: OpContext, sb: SymbolBook, side: BookSide, price: number, through: boolean, w: Sweep): void {
  for (let lv = side.best(); lv !== undefined && w.left > 0 && reaches(price, lv.price, side.isBid, through); lv = side.best()) {
    for (let m = lv.head; m !== null && w.left > 0; ) {
      const next = m.next;
      const lots = m.remaining < w.left ? m.remaining : w.left;
      fill(core.st, ctx, sb, null, m, lv.price, lots);
      w.left -= lots;
      w.filled += lots;
      w.fills++;
      m = next;
    }
  }
}

export function applyPrint(core: EngineCore, symbol: string, print: Print): PrintResult {
  const sb = core.books.get(symbol);
  if (sb === undefined) throw new RangeError(`unknown symbol ${symbol}`);
  const spec = sb.spec;
  const price = externalPriceInt(spec, print.price, 'nearest');
  let cap = print.maxQty === undefined ? Infinity : externalQtyInt(spec, print.maxQty, 'print maxQty');
  if (sb.extLeft < cap) cap = sb.extLeft;
  // Nothing resting and no stop waiting (a backtest between its market orders): the print only
  // sets the last price; the operation would have had no event.
  if (sb.stops.size === 0 && sb.bids.best() === undefined && sb.asks.best() === undefined) {
    sb.lastPrice = price;
    return NOTHING_FILLED;
  }
  const ctx = core.context(print.time);
  ctx.ext = price;
  setStopPrices(ctx, spec, print.stopPrices);
  const through = print.mode === 'through';
  const w: Sweep = { left: cap, filled: 0, fills: 0 };
  sweep(core, ctx, sb, sb.bids, price, through, w);
  sweep(core, ctx, sb, sb.asks, price, through, w);
  if (sb.extLeft !== Infinity) sb.extLeft -= w.filled;
  setLastPrice(ctx, sb, price);
  core.runTriggered(ctx);
  return { filledQty: formatScaled(w.filled, spec.qd), fills: w.fills, events: core.end(ctx) };
}
