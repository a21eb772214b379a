/**
 * The backtester's fill model, stated once (docs/concepts/fill-model.md says the same):
 *
 * 1. A strategy only ever sees closed bars. Bar N is delivered at its close (clock =
 *    closeTime + 1, which is bar N+1's open time); the intents it returns become commands after.
 * 2. Commands reach the simulated venue at the next price the market shows. A command sent at bar
 *    N's close is executed at bar N+1's open, at that open's time. So a MARKET order decided on bar
 *    N fills at bar N+1's OPEN, moved against it by `slippageBps` (a BUY pays more, a SELL gets
 *    less; the price is rounded onto the tick against the taker). A command sent in reaction to a
 *    fill inside a bar is executed at the next point of that bar's path.
 * 3. Each bar is played as a path of four prices: open -> low -> high -> close for an up bar
 *    (close >= open), open -> high -> low -> close for a down bar, at the open time, a third and
 *    two thirds into the bar, and the close time. At each point the queued commands run first,
 *    then the price moves there from the previous point and is printed as an outside trade. The
 *    move is continuous: each waiting stop whose stop price lies strictly between the two points
 *    is printed at its stop price first, in the order the move reaches them. The open arrives from
 *    the previous bar's close as a gap: nothing is printed between them.
 * 4. A resting LIMIT order fills as maker at its own limit price when a print trades through it
 *    (`limitFill: 'through'`, the default: strictly beyond the limit) or reaches it ('touch').
 * 5. A marketable LIMIT order arriving at a point fills at once as taker at that point's price
 *    (no slippage: its limit protects it); LIMIT_MAKER orders that would take are rejected, as at
 *    the venue.
 * 6. Stops trigger when a print reaches their stop price. A triggered stop-market (STOP_LOSS,
 *    TAKE_PROFIT) fills at the price of the print that triggered it, which is its stop price when
 *    the path moved through it and the open when the bar gapped past it, moved against it by
 *    `slippageBps` as a MARKET order is (its own fill only: the last price and every other order
 *    stay at the print). A stop-limit becomes a LIMIT order there: taker at that print when its
 *    limit allows, else resting.
 * 7. With `volumeShare`, every fill of a bar (taker fills at its points, resting orders its prints
 *    reach, triggered stops) draws on one cap: that share of the bar's volume. What the cap leaves
 *    unfilled of a GTC LIMIT order rests (later prints and bars fill it, within their caps); a
 *    MARKET order, a triggered stop-market and an IOC order expire it; a FOK order fills nothing.
 *    Without it, fills are unlimited.
 * 8. The market's liquidity stands at its price: the engine's book holds only the account's own
 *    orders, and a taker reaches one of them only where it is strictly better for the taker than
 *    the price it takes the market at (an ask below it for a BUY, a bid above it for a SELL: an
 *    order the prints have not reached yet, or one between the market and a MARKET order's or
 *    stop's slipped price). There it meets self-trade prevention (both orders cancelled,
 *    `self-trade prevention`), as at the venue. An own order at the market's price or beyond it is
 *    never reached: the market's orders at its price come first (at a tie too), so a MARKET BUY
 *    fills at the open while the account's SELL LIMIT rests above it, and a triggered stop fills at
 *    its price beside an own LIMIT beyond it. What `volumeShare` leaves unfilled does not go on to
 *    the account's own orders either; it rests or expires as in 7.
 * 9. Every order passes the same pre-trade checks and the same matching engine as live and
 *    sandbox orders: filters, balances, fees (maker / taker rates, charged in the asset received).
 * 10. Orders still queued after the last bar run at its close time with no market price: MARKET
 *    orders expire unfilled, cancels take effect.
 */
import { D } from '../../core/money/decimal.ts';

export interface FillModel {
  /** Adverse move of MARKET and triggered stop-market fill prices, in basis points; default 0. */
  readonly slippageBps?: number;
  /** How a print fills a resting LIMIT order; default 'through'. */
  readonly limitFill?: 'through' | 'touch';
  /** Share (0, 1] of a bar's volume that all fills of that bar may take together; default unlimited. */
  readonly volumeShare?: number;
}

export interface ResolvedFillModel {
  readonly marketFill: 'next-open';
  readonly slippageBps: number;
  readonly limitFill: 'through' | 'touch';
  readonly volumeShare: number | null;
}

export function resolveFillModel(m: FillModel = {}): ResolvedFillModel {
  const slippageBps = m.slippageBps ?? 0;
  if (!Number.isFinite(slippageBps) || slippageBps < 0 || slippageBps >= 10_000) throw new RangeError(`fill model: slippageBps must be in [0, 10000), got ${String(m.slippageBps)}`);
  const limitFill = m.limitFill ?? 'through';
  if (limitFill !== 'through' && limitFill !== 'touch') throw new RangeError(`fill model: limitFill must be 'through' or 'touch', got ${JSON.stringify(m.limitFill)}`);
  const share = m.volumeShare;
  if (share !== undefined && !(share > 0 && share <= 1)) throw new RangeError(`fill model: volumeShare must be in (0, 1], got ${String(share)}`);
  return { marketFill: 'next-open', slippageBps, limitFill, volumeShare: share ?? null };
}

/** Prices (as decimal strings) and times of a bar's path. */
export interface PathPoint {
  price: string;
  time: number;
}

/** Fill `out` (4 reusable points) with the path of a bar: open, the two extremes, close. */
export function barPath(openTime: number, closeTime: number, open: string, high: string, low: string, close: string, openNum: number, closeNum: number, out: PathPoint[]): void {
  const len = closeTime - openTime + 1;
  const up = closeNum >= openNum;
  set(out, 0, open, openTime);
  set(out, 1, up ? low : high, openTime + Math.floor(len / 3));
  set(out, 2, up ? high : low, openTime + Math.floor((2 * len) / 3));
  set(out, 3, close, closeTime);
}

function set(out: PathPoint[], i: number, price: string, time: number): void {
  const p = out[i];
  if (p) {
    p.price = price;
    p.time = time;
  } else out[i] = { price, time };
}

/** The quantity a bar's fills may take in total, or undefined for no cap. */
export function volumeCap(volume: string, share: number | null): InstanceType<typeof D> | undefined {
  return share === null ? undefined : new D(volume).times(share);
}
