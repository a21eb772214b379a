/**
 * A test strategy for the bot's end-to-end bar test (test/bot-bars.test.ts): it logs every closed
 * bar it is handed (`bar <openTime> <close>`), needs `warmup` bars first, and on its `buyOnBar`-th
 * live bar buys `quoteAmount` of quote at market, so a fill comes back through the live venue.
 */
import { decimalParam, defineStrategy, place, z } from '../../src/strategy/index.ts';

export default defineStrategy({
  name: 'bar-buyer',
  params: z.object({
    symbol: z.string().default('BTCPHP'),
    warmup: z.number().int().min(0).default(5),
    buyOnBar: z.number().int().min(1).default(2),
    quoteAmount: decimalParam().default('1000'),
  }),
  symbols: (p) => [p.symbol],
  warmup: (p) => p.warmup,
  state: () => ({ live: 0 }),
  onBar(ctx, bar) {
    ctx.state.live++;
    ctx.log(`bar ${bar.openTime} ${bar.exact.close} history ${ctx.bars().length}`);
    if (ctx.state.live === ctx.params.buyOnBar) return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quoteAmount, tag: 'buy' })];
  },
});
