/**
 * SMA crossover, long only. Buys with a MARKET order on a golden cross (fast SMA crosses above
 * the slow one) when flat, and sells the whole position on a death cross. Sizes by `quantity`
 * (base) when given, else spends `quoteAmount` (quote) with quoteOrderQty.
 *
 * Decisions only: the engine sizes nothing, the strategy returns intents. It waits for its own
 * order to finish before acting again (a MARKET order may still be in flight when the next bar
 * closes), tracked through onOrderUpdate. A position larger than the symbol's LOT_SIZE maxQty
 * (a quote-sized entry can buy more than one order may sell) leaves in pieces of maxQty, one a
 * bar, until flat; an exit the venue refuses ends the exit until the next death cross.
 *
 * Dust: what an exit leaves (the part below the step, a commission taken in base) can add up to
 * more than LOT_SIZE minQty yet be worth less than the minimum notional, so no exit can sell it
 * and `position.flat` stays false: the strategy would never enter again. An exit refused while
 * the position cannot be sold (below the minimums at the last close) marks that position as dust,
 * and the strategy counts it as flat until the position changes (the next entry's exit sells the
 * dust with it).
 */
import { crossover, crossunder, decimalParam, defineStrategy, intervalParam, place, TERMINAL_STATUSES, z } from '../src/strategy/index.ts';
import type { Dec, PlaceIntentInput, Position, StrategyContext } from '../src/strategy/index.ts';

/** SELL the position at market, at most maxQty of it. */
function exitOrder(ctx: StrategyContext<{ symbol: string }, { pending: string | undefined; exiting: boolean }>, base: Dec): PlaceIntentInput {
  // Rounded down to the step, at most LOT_SIZE maxQty (a larger position leaves in pieces, one a bar).
  const quantity = ctx.instrument().capQty(base);
  ctx.state.pending = 'exit';
  ctx.state.exiting = true;
  return place({ symbol: ctx.symbol, side: 'SELL', type: 'MARKET', quantity, tag: 'exit' });
}

export default defineStrategy({
  name: 'sma-crossover',
  description: 'Long-only SMA crossover: buy on a golden cross when flat, sell the position on a death cross.',
  params: z
    .object({
      symbol: z.string().min(1).default('BTCPHP'),
      interval: intervalParam().default('1m'),
      fast: z.number().int().min(2).default(10),
      slow: z.number().int().min(3).default(30),
      /** Base quantity per entry; when absent, quoteAmount is spent instead. */
      quantity: decimalParam().optional(),
      /** Quote amount per entry (used when quantity is absent). */
      quoteAmount: decimalParam().default('1000'),
    })
    .refine((p) => p.slow > p.fast, { message: 'slow must be greater than fast', path: ['slow'] }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  // One extra bar so the slow SMA has a previous value to cross from.
  warmup: (p) => p.slow + 1,
  state: () => ({ pending: undefined as string | undefined, exiting: false, dust: undefined as Position | undefined }),

  onBar(ctx) {
    const bars = ctx.bars();
    const fast = bars.sma(ctx.params.fast);
    const slow = bars.sma(ctx.params.slow);
    // Drawn over the candles in the backtest report.
    ctx.plot('fast SMA', fast.value);
    ctx.plot('slow SMA', slow.value);
    if (ctx.state.pending) return;
    const position = ctx.position();
    // The engine hands out one position object until it changes: dust stays dust until then.
    const flat = position.flat || position === ctx.state.dust;
    if (ctx.state.exiting && !flat) return [exitOrder(ctx, position.base)];
    ctx.state.exiting = false;
    if (crossover(fast, slow) && flat) {
      ctx.state.pending = 'entry';
      const size = ctx.params.quantity ? { quantity: ctx.instrument().roundQty(ctx.params.quantity) } : { quoteOrderQty: ctx.params.quoteAmount };
      return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', ...size, tag: 'entry' })];
    }
    if (crossunder(fast, slow) && !flat) return [exitOrder(ctx, position.base)];
  },

  onOrderUpdate(ctx, update) {
    if (update.tag === ctx.state.pending && TERMINAL_STATUSES.includes(update.status)) {
      if (update.status !== 'FILLED') {
        ctx.log(`${update.tag} order ended ${update.status}`, { reason: update.reason });
        if (update.tag === 'exit') {
          ctx.state.exiting = false;
          if (isDust(ctx)) ctx.state.dust = ctx.position();
        }
      }
      ctx.state.pending = undefined;
    }
  },
});

/** Whether the position cannot be sold: on the step, below LOT_SIZE minQty or the minimum notional at the last close. */
function isDust(ctx: StrategyContext<{ symbol: string }, unknown>): boolean {
  const inst = ctx.instrument();
  const last = ctx.bars().last;
  return last !== undefined && !inst.meetsMinimums(inst.roundQty(ctx.position().base), last.exact.close);
}
