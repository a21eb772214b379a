/**
 * Pair rotation, long only, two symbols quoted in the same asset: holds whichever of them has
 * the stronger momentum (its close over its close `lookback` bars before), or nothing when both
 * fell over that span, deciding again at most every `rebalance` bars. A run of several symbols
 * (`halyard backtest --symbol BTCPHP,ETHPHP`) gives it both; they share the one quote balance.
 *
 * It decides once a period, when both symbols' bars of that period are in (the second to arrive
 * of the two; a period where one symbol has no bar is skipped). A rotation sells the symbol held
 * first (MARKET, the whole position rounded to the step) and buys the other once that sale has
 * filled (its quote is then free): the buy reaches the venue at the other symbol's next bar. A buy
 * spends `spend` of the free quote at the last close (MARKET, sized in base), leaving room for the
 * fee and a move to the next open. What no order can sell (below the symbol's minimums at its last
 * close) counts as not held.
 */
import { defineStrategy, intervalParam, place, TERMINAL_STATUSES, z } from '../src/strategy/index.ts';
import type { BarSeries, PlaceIntentInput, StrategyContext } from '../src/strategy/index.ts';

interface Params {
  readonly symbols: readonly string[];
  readonly interval: string;
  readonly lookback: number;
  readonly rebalance: number;
  readonly spend: number;
}

interface State {
  /** Open time of the last period decided on (a period is decided once, not once per symbol). */
  decided: number;
  /** Periods seen since the start, and the one of the last rotation. */
  periods: number;
  rotatedAt: number;
  /** The tag of the order waited for, and the symbol to buy once the sale filled. */
  pending: string | undefined;
  next: string | undefined;
}

type Ctx = StrategyContext<Params, State>;

/** Close over the close `lookback` bars before, minus 1; undefined while the series is shorter. */
function momentum(bars: BarSeries, lookback: number): number | undefined {
  const now = bars.close();
  const then = bars.close(lookback);
  return now === undefined || then === undefined || !(then > 0) ? undefined : now / then - 1;
}

/** Whether an order could sell what is held of `symbol` (at least its minimums at its last close). */
function holds(ctx: Ctx, symbol: string): boolean {
  const base = ctx.position(symbol).base;
  const last = ctx.bars(symbol).last;
  if (!base.gt(0) || last === undefined) return false;
  const inst = ctx.instrument(symbol);
  return inst.meetsMinimums(inst.capQty(base), last.exact.close);
}

function sell(ctx: Ctx, symbol: string): PlaceIntentInput {
  ctx.state.pending = 'rotate-out';
  return place({ symbol, side: 'SELL', type: 'MARKET', quantity: ctx.instrument(symbol).capQty(ctx.position(symbol).base), tag: 'rotate-out' });
}

/** A MARKET buy of `symbol` for `spend` of the free quote at its last close; undefined when that buys less than its minimums. */
function buy(ctx: Ctx, symbol: string): PlaceIntentInput | undefined {
  const inst = ctx.instrument(symbol);
  const last = ctx.bars(symbol).last;
  if (last === undefined) return undefined;
  const quote = ctx.balance(inst.quoteAsset).free.times(ctx.params.spend);
  const quantity = inst.capQty(inst.qtyForQuote(quote, last.exact.close));
  if (!inst.meetsMinimums(quantity, last.exact.close)) return undefined;
  ctx.state.pending = 'rotate-in';
  return place({ symbol, side: 'BUY', type: 'MARKET', quantity, tag: 'rotate-in' });
}

export default defineStrategy({
  name: 'pair-rotation',
  description: 'Holds whichever of two symbols has the stronger N-bar momentum (none when both fell), rotating at most every K bars.',
  params: z
    .object({
      symbols: z.array(z.string().min(1)).length(2).default(['BTCPHP', 'ETHPHP']),
      interval: intervalParam().default('1h'),
      /** Bars the momentum spans. */
      lookback: z.number().int().min(1).default(24),
      /** Least bars between two rotations. */
      rebalance: z.number().int().min(1).default(12),
      /** Share of the free quote a buy spends. */
      spend: z.number().gt(0).max(1).default(0.98),
    })
    .refine((p) => p.symbols[0] !== p.symbols[1], { message: 'the two symbols must differ', path: ['symbols'] }),
  symbols: (p) => p.symbols,
  intervals: (p) => [p.interval],
  // The close `lookback` bars before the current one.
  warmup: (p) => p.lookback + 1,
  state: (): State => ({ decided: Number.NEGATIVE_INFINITY, periods: 0, rotatedAt: Number.NEGATIVE_INFINITY, pending: undefined, next: undefined }),

  onBar(ctx) {
    const [a, b] = ctx.params.symbols as [string, string];
    const lastA = ctx.bars(a).last;
    const lastB = ctx.bars(b).last;
    if (lastA === undefined || lastB === undefined || lastA.openTime !== lastB.openTime || ctx.state.decided === lastA.openTime) return;
    ctx.state.decided = lastA.openTime;
    const period = ctx.state.periods++;
    const ma = momentum(ctx.bars(a), ctx.params.lookback);
    const mb = momentum(ctx.bars(b), ctx.params.lookback);
    if (ma === undefined || mb === undefined) return;
    ctx.plot(`${a} momentum %`, ma * 100, { pane: 'below' });
    ctx.plot(`${b} momentum %`, mb * 100, { pane: 'below' });
    if (ctx.state.pending !== undefined || period - ctx.state.rotatedAt < ctx.params.rebalance) return;
    const best = ma >= mb ? a : b;
    const target = Math.max(ma, mb) > 0 ? best : undefined;
    const held = holds(ctx, a) ? a : holds(ctx, b) ? b : undefined;
    if (held === target) return;
    ctx.state.rotatedAt = period;
    if (held !== undefined) {
      ctx.state.next = target;
      return [sell(ctx, held)];
    }
    const order = target === undefined ? undefined : buy(ctx, target);
    return order === undefined ? undefined : [order];
  },

  onOrderUpdate(ctx, update) {
    if (update.tag !== ctx.state.pending || !TERMINAL_STATUSES.includes(update.status)) return;
    ctx.state.pending = undefined;
    const next = ctx.state.next;
    ctx.state.next = undefined;
    if (update.status !== 'FILLED') {
      ctx.log(`${update.tag} order of ${update.symbol} ended ${update.status}`, { reason: update.reason });
      return;
    }
    if (update.tag === 'rotate-out' && next !== undefined) {
      const order = buy(ctx, next);
      return order === undefined ? undefined : [order];
    }
  },
});
