/**
 * Grid: `levels` prices spread evenly from `lower` to `upper` (rounded to the tick). On the first
 * closed bar it places a LIMIT BUY at every level below the price and a LIMIT SELL at every level
 * above it (as many sells as the position covers, nearest first); the level nearest the price
 * stays empty. When a level's order fills completely it re-arms the grid one step away: a filled
 * BUY at level i places a SELL at level i+1, a filled SELL at level i a BUY at level i-1, so each
 * round trip earns one grid step. Each level is tagged `L<i>`. onStop cancels what is live.
 *
 * A BUY whose commission is taken in the base asset (the venue's default) delivers less than it
 * bought: the SELL that re-arms after it offers what was delivered (rounded down to the step),
 * not the level's quantity, which the account would not hold. A `quantity` below the symbol's
 * LOT_SIZE step is refused on the first bar with the reason (the strategy stops).
 */
import type { Dec } from '../src/strategy/index.ts';
import { cancel, D, decimalParam, defineStrategy, intervalParam, place, TERMINAL_STATUSES, z } from '../src/strategy/index.ts';
import type { IntentInput, StrategyContext } from '../src/strategy/index.ts';

interface GridState {
  /** Level prices as decimal strings, once armed. */
  prices: string[] | undefined;
  /** Levels with a live (or in-flight) order. */
  live: Set<number>;
  /** Base commission paid so far by each level's live BUY (what its SELL will not have). */
  baseFees: Map<number, Dec>;
}

const levelTag = (i: number) => `L${i}`;
const levelOf = (tag: string | undefined): number | undefined => (tag && /^L\d+$/.test(tag) ? Number(tag.slice(1)) : undefined);

export default defineStrategy({
  name: 'grid',
  description: 'Evenly spaced LIMIT buys below and sells above the price; a filled level re-arms the next one.',
  params: z
    .object({
      symbol: z.string().min(1).default('BTCPHP'),
      interval: intervalParam().default('1m'),
      lower: decimalParam(),
      upper: decimalParam(),
      levels: z.number().int().min(2).max(200).default(10),
      /** Base quantity of each level's order. */
      quantity: decimalParam(),
    })
    .refine((p) => new D(p.upper).gt(p.lower), { message: 'upper must be greater than lower', path: ['upper'] }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  warmup: 1,
  state: (): GridState => ({ prices: undefined, live: new Set(), baseFees: new Map() }),

  onBar(ctx, bar) {
    if (ctx.state.prices) return;
    const { lower, upper, levels } = ctx.params;
    const inst = ctx.instrument();
    const step = new D(upper).minus(lower).div(levels - 1);
    const prices = Array.from({ length: levels }, (_, i) => inst.roundPrice(new D(lower).plus(step.times(i))));
    ctx.state.prices = prices;
    const close = new D(bar.exact.close);
    // The level nearest the price stays empty: it is where the price is.
    let nearest = 0;
    prices.forEach((p, i) => {
      if (new D(p).minus(close).abs().lt(new D(prices[nearest] as string).minus(close).abs())) nearest = i;
    });
    const quantity = inst.roundQty(ctx.params.quantity);
    if (!new D(quantity).gt(0)) throw new Error(`quantity ${ctx.params.quantity} is below ${ctx.symbol}'s LOT_SIZE step ${inst.stepSize ?? ''}: set a larger quantity`);
    let sellable: Dec = ctx.position().base;
    const out: IntentInput[] = [];
    for (let i = nearest - 1; i >= 0; i--) out.push(order(ctx, i, 'BUY', quantity));
    for (let i = nearest + 1; i < levels && sellable.gte(quantity); i++) {
      out.push(order(ctx, i, 'SELL', quantity));
      sellable = sellable.minus(quantity);
    }
    return out;
  },

  onFill(ctx, fill) {
    const i = levelOf(fill.tag);
    if (i === undefined) return;
    const inst = ctx.instrument();
    const fees = ctx.state.baseFees;
    if (fill.side === 'BUY' && fill.commissionAsset === inst.baseAsset && !fill.commission.isZero()) fees.set(i, (fees.get(i) ?? new D(0)).plus(fill.commission));
    if (fill.orderStatus !== 'FILLED') return;
    ctx.state.live.delete(i);
    const paid = fees.get(i);
    fees.delete(i);
    const next = fill.side === 'BUY' ? i + 1 : i - 1;
    if (next < 0 || next >= ctx.params.levels || ctx.state.live.has(next)) return;
    const quantity = inst.roundQty(ctx.params.quantity);
    // A BUY delivered its quantity less the base commission: sell that, down to the step.
    const delivered = fill.side === 'BUY' && paid !== undefined ? inst.roundQty(new D(quantity).minus(paid)) : quantity;
    if (!new D(delivered).gt(0)) return;
    return [order(ctx, next, fill.side === 'BUY' ? 'SELL' : 'BUY', delivered)];
  },

  onOrderUpdate(ctx, update) {
    const i = levelOf(update.tag);
    if (i !== undefined && update.status !== 'FILLED' && TERMINAL_STATUSES.includes(update.status)) {
      ctx.state.live.delete(i);
      ctx.state.baseFees.delete(i);
      if (update.status === 'DENIED' || update.status === 'REJECTED') ctx.log(`level ${i} order ${update.status}`, { reason: update.reason });
    }
  },

  onStop(ctx) {
    return [...ctx.state.live].sort((a, b) => a - b).map((i) => cancel({ symbol: ctx.symbol, tag: levelTag(i) }));
  },
});

function order(ctx: StrategyContext<{ readonly symbol: string }, GridState>, i: number, side: 'BUY' | 'SELL', quantity: string): IntentInput {
  ctx.state.live.add(i);
  return place({ symbol: ctx.symbol, side, type: 'LIMIT', quantity, price: ctx.state.prices?.[i] as string, timeInForce: 'GTC', tag: levelTag(i) });
}
