/**
 * A test strategy for the bot's end-to-end tests (test/bot-*.test.ts): no market data needed. It
 * places a resting LIMIT order at start and another on every timer tick (virtual time in the
 * tests), so what it sent, what was denied and what is open can be checked at the sandbox. With
 * `throwOnTick` it throws on that tick (counted from 1): the bot must stop it and keep the others.
 */
import { defineStrategy, place, z } from '../../src/strategy/index.ts';

export default defineStrategy({
  name: 'timed-orders',
  params: z.object({
    symbol: z.string().default('BTCPHP'),
    side: z.enum(['BUY', 'SELL']).default('BUY'),
    price: z.string().default('2000000'),
    quantity: z.string().default('0.001'),
    everyMs: z.number().int().positive().default(60_000),
    /** Throw on this timer tick (0: never). */
    throwOnTick: z.number().int().min(0).default(0),
    /** Place at start (default) or only on ticks. */
    placeOnStart: z.boolean().default(true),
  }),
  symbols: (p) => [p.symbol],
  timerMs: (p) => p.everyMs,
  state: () => ({ ticks: 0 }),
  onStart: (ctx) => (ctx.params.placeOnStart ? [order(ctx.params)] : []),
  onTimer(ctx) {
    ctx.state.ticks++;
    if (ctx.params.throwOnTick > 0 && ctx.state.ticks >= ctx.params.throwOnTick) throw new Error(`tick ${ctx.state.ticks}: thrown on purpose`);
    return [order(ctx.params)];
  },
});

function order(p: { symbol: string; side: 'BUY' | 'SELL'; price: string; quantity: string }) {
  return place({ symbol: p.symbol, side: p.side, type: 'LIMIT', timeInForce: 'GTC', quantity: p.quantity, price: p.price, tag: 'o' });
}
