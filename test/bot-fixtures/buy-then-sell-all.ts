/**
 * A test strategy for test/bot-shared-symbol.test.ts: on its `buyOnBar`-th live bar it buys
 * `quoteAmount` of quote at market, and on the first bar after that fill it sells its whole
 * position at market (rounded down to the step, as sma-crossover's exit sells it), once.
 */
import { decimalParam, defineStrategy, place, z } from '../../src/strategy/index.ts';

export default defineStrategy({
  name: 'buy-then-sell-all',
  params: z.object({
    symbol: z.string().default('BTCPHP'),
    buyOnBar: z.number().int().min(1).default(2),
    quoteAmount: decimalParam().default('1000'),
  }),
  symbols: (p) => [p.symbol],
  warmup: () => 1,
  state: () => ({ live: 0, bought: false, sold: false }),
  onBar(ctx) {
    ctx.state.live++;
    if (ctx.state.live === ctx.params.buyOnBar) return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quoteAmount, tag: 'entry' })];
    if (ctx.state.bought && !ctx.state.sold) {
      ctx.state.sold = true;
      const base = ctx.position().base;
      ctx.log(`exit ${base.toFixed()}`);
      return [place({ symbol: ctx.symbol, side: 'SELL', type: 'MARKET', quantity: ctx.instrument().capQty(base), tag: 'exit' })];
    }
  },
  onFill(ctx, fill) {
    if (fill.tag === 'entry') ctx.state.bought = true;
  },
});
