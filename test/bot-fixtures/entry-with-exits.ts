/**
 * A test strategy for the bot's exits test (test/bot-exits.test.ts): on its first live bar it buys
 * `quoteAmount` at market; `exits()` (src/strategy/exits/exits.ts, the backtest's helper) then keeps a
 * protective STOP_LOSS at the venue and, once a bar closes `timeLimitMinutes` after the entry
 * fill, turns it into a MARKET exit by cancel-replace: the same intents as in a backtest.
 */
import { decimalParam, defineStrategy, exits, place, TERMINAL_STATUSES, z } from '../../src/strategy/index.ts';

export default defineStrategy({
  name: 'entry-with-exits',
  params: z.object({
    symbol: z.string().default('BTCPHP'),
    quoteAmount: decimalParam().default('1000'),
    stopLoss: z.number().gt(0).lt(1).default(0.5),
    timeLimitMinutes: z.number().int().min(1).default(2),
  }),
  symbols: (p) => [p.symbol],
  warmup: 1,
  state: (p) => ({ entered: false, exit: exits({ stopLoss: p.stopLoss, takeProfit: 100, timeLimitMs: p.timeLimitMinutes * 60_000 }) }),
  onBar(ctx, bar) {
    const out = ctx.state.exit.onBar(ctx, bar);
    if (out.length) return out;
    if (ctx.state.entered) return;
    ctx.state.entered = true;
    return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quoteAmount, tag: 'entry' })];
  },
  onFill: (ctx, fill) => ctx.state.exit.onFill(ctx, fill),
  onOrderUpdate(ctx, update) {
    if (update.tag === 'entry' && TERMINAL_STATUSES.includes(update.status) && update.status !== 'FILLED') ctx.log(`entry ended ${update.status}`);
    return ctx.state.exit.onOrderUpdate(ctx, update);
  },
  onDenial: (ctx, denial) => ctx.state.exit.onDenial(ctx, denial),
});
