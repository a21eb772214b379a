/**
 * DCA (dollar-cost averaging) on a timer: every `everyMinutes` minutes it buys `quoteAmount` of
 * the quote asset's worth at market, until `maxBuys` buys (0: no limit) or the quote balance
 * cannot pay for one more. An example of `timerMs` / `onTimer`: the timer is aligned to multiples
 * of its period (UTC), and a backtest fires it at each due time inside the bars, so with 1-minute
 * bars a buy at 06:00 fills at the 06:00 bar's open. It never sells: what it bought is the open
 * position at the end of a backtest (the summary's `Open` line), not a trade.
 */
import { decimalParam, defineStrategy, intervalParam, place, z } from '../src/strategy/index.ts';

export default defineStrategy({
  name: 'dca',
  description: 'Buys a fixed quote amount at market every N minutes (a timer), up to maxBuys.',
  params: z.object({
    symbol: z.string().min(1).default('BTCPHP'),
    interval: intervalParam().default('1m'),
    everyMinutes: z.number().int().min(1).default(60),
    quoteAmount: decimalParam().default('100'),
    /** 0: no limit. */
    maxBuys: z.number().int().min(0).default(0),
  }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  timerMs: (p) => p.everyMinutes * 60_000,
  state: () => ({ buys: 0, short: false }),

  onTimer(ctx, time) {
    const { quoteAmount, maxBuys } = ctx.params;
    if (maxBuys > 0 && ctx.state.buys >= maxBuys) return;
    const free = ctx.balance(ctx.instrument().quoteAsset).free;
    if (free.lt(quoteAmount)) {
      if (!ctx.state.short) ctx.log('quote balance below quoteAmount: no more buys', { free: free.toFixed(), time });
      ctx.state.short = true;
      return;
    }
    ctx.state.buys++;
    return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: quoteAmount, tag: 'dca' })];
  },
});
