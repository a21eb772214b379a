/**
 * A test strategy for test/bot-fill-tells.test.ts: a resting LIMIT order at start, and a log line
 * per fill its onFill is told of (`onFill <trade id>`), so a test counts what the strategy itself
 * heard, not what the bot applied.
 */
import { defineStrategy, place, z } from '../../src/strategy/index.ts';

export default defineStrategy({
  name: 'told-fills',
  params: z.object({
    symbol: z.string().default('BTCPHP'),
    side: z.enum(['BUY', 'SELL']).default('BUY'),
    price: z.string().default('2000000'),
    quantity: z.string().default('0.001'),
  }),
  symbols: (p) => [p.symbol],
  onStart: (ctx) => [place({ symbol: ctx.params.symbol, side: ctx.params.side, type: 'LIMIT', timeInForce: 'GTC', quantity: ctx.params.quantity, price: ctx.params.price, tag: 'o' })],
  onFill(ctx, fill) {
    ctx.log(`onFill ${fill.tradeId}`, { clientOrderId: fill.clientOrderId, tradeId: fill.tradeId, orderStatus: fill.orderStatus, tag: fill.tag ?? null });
  },
});
