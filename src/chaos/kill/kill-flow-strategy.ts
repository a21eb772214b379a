/**
 * The strategy the `--kill` runs trade with (issue 22 deliverable 3): no market data, a timer every
 * `everyMs` of venue time, so a short run passes every kill point of the order flow many times:
 *
 *   tick % 3 == 0: a MARKET SELL (the parent's resting bids fill it at once: a FULL answer with fills);
 *   tick % 3 == 1: slot r<k>: a resting LIMIT SELL above the book, or, when the slot is open, a
 *                  cancelReplace of it to another price (the parent's taker lifts these: stream fills);
 *   tick % 3 == 2: a cancel of the next slot, when it is open.
 *
 * Prices sit above `askFrom` (nothing of the parent's rests there), so the strategy never trades
 * with itself. Not a trading idea: an order flow with every command kind in it.
 */
import { cancel, cancelReplace, defineStrategy, place, z } from '../../strategy/index.ts';
import type { IntentInput } from '../../strategy/index.ts';

const SLOTS = 3;

export default defineStrategy({
  name: 'kill-flow',
  params: z.object({
    symbol: z.string().default('BTCPHP'),
    everyMs: z.number().int().positive().default(150),
    quantity: z.string().default('0.001'),
    marketQuantity: z.string().default('0.0005'),
    /** Resting sells are placed at askFrom + a step of 1000 per tick. */
    askFrom: z.number().int().positive().default(3_100_000),
  }),
  symbols: (p) => [p.symbol],
  timerMs: (p) => p.everyMs,
  state: () => ({ ticks: 0 }),
  onTimer(ctx) {
    const t = ctx.state.ticks++;
    const p = ctx.params;
    const open = ctx.openOrders(p.symbol);
    const slot = (k: number) => `r${((k % SLOTS) + SLOTS) % SLOTS}`;
    const round = Math.floor(t / 3);
    const out: IntentInput[] = [];
    if (t % 3 === 0) {
      out.push(place({ symbol: p.symbol, side: 'SELL', type: 'MARKET', quantity: p.marketQuantity }));
    } else if (t % 3 === 1) {
      const tag = slot(round);
      const price = String(p.askFrom + 1000 * (1 + (t % 50)));
      const order = { side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: p.quantity, price } as const;
      const live = open.find((o) => o.tag === tag);
      if (live === undefined) out.push(place({ symbol: p.symbol, ...order, tag }));
      else if (live.status === 'NEW' || live.status === 'PARTIALLY_FILLED') out.push(cancelReplace({ symbol: p.symbol, tag, order }));
    } else {
      const tag = slot(round + 1);
      const live = open.find((o) => o.tag === tag);
      if (live !== undefined && (live.status === 'NEW' || live.status === 'PARTIALLY_FILLED')) out.push(cancel({ symbol: p.symbol, tag }));
    }
    return out;
  },
});
