/**
 * RSI entry with the exits helper (src/strategy/exits/exits.ts), long only. Buys `quoteAmount` at
 * MARKET when flat and the RSI crosses up through `buyLevel` (out of oversold); from the entry
 * fill on, `exits()` keeps ONE exit order for the position: a protective STOP_LOSS `stopLoss`
 * under the average entry, replaced by a MARKET exit at the `takeProfit` target or after
 * `timeLimitMinutes`, and raised behind the highest close once `trailActivation` is reached (when
 * `trailDistance` is given). The backtest summary's Exits line separates the tags sl, tp, trail
 * and time.
 *
 * The helper answers first on each bar: an exit it sends is the bar's whole answer. The strategy
 * only tracks its own entry in flight (so one crossover is not bought twice).
 */
import { crossover, decimalParam, defineStrategy, exits, intervalParam, place, TERMINAL_STATUSES, warmupFor, z } from '../src/strategy/index.ts';

export default defineStrategy({
  name: 'rsi-exits',
  description: 'RSI crossing up through buyLevel buys at MARKET; exits() guards the position: stop-loss, take-profit, optional trailing stop and time limit.',
  params: z
    .object({
      symbol: z.string().min(1).default('BTCPHP'),
      interval: intervalParam().default('1m'),
      rsiPeriod: z.number().int().min(2).default(14),
      buyLevel: z.number().gt(0).lt(100).default(30),
      quoteAmount: decimalParam().default('1000'),
      stopLoss: z.number().gt(0).lt(1).default(0.02), //  the stop 2% under the entry
      takeProfit: z.number().gt(0).default(0.01), //     leave at MARKET 1% over it
      trailActivation: z.number().min(0).optional(), //  trail once a close is this far over the entry
      trailDistance: z.number().gt(0).lt(1).optional(), // ... this far under the highest close since
      timeLimitMinutes: z.number().int().min(1).optional(),
    })
    .refine((p) => (p.trailActivation === undefined) === (p.trailDistance === undefined), { message: 'give trailActivation and trailDistance together', path: ['trailDistance'] }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  warmup: (p) => warmupFor.rsi(p.rsiPeriod),
  state: (p) => ({
    entering: false,
    exit: exits({
      stopLoss: p.stopLoss,
      takeProfit: p.takeProfit,
      ...(p.trailActivation !== undefined && p.trailDistance !== undefined ? { trailingStop: { activation: p.trailActivation, distance: p.trailDistance } } : {}),
      ...(p.timeLimitMinutes !== undefined ? { timeLimitMs: p.timeLimitMinutes * 60_000 } : {}),
    }),
  }),

  onBar(ctx, bar) {
    const out = ctx.state.exit.onBar(ctx, bar); // take-profit, time limit, trailing: before anything else
    const rsi = ctx.bars().rsi(ctx.params.rsiPeriod);
    ctx.plot('RSI', rsi.value, { pane: 'below' });
    if (out.length) return out;
    if (ctx.state.entering || !ctx.state.exit.flat(ctx) || !crossover(rsi, ctx.params.buyLevel)) return; // flat, or dust no exit can sell
    ctx.state.entering = true;
    return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quoteAmount, tag: 'entry' })];
  },
  onFill: (ctx, fill) => ctx.state.exit.onFill(ctx, fill), // an entry fill places (or re-sizes) the stop
  onOrderUpdate(ctx, update) {
    if (update.tag === 'entry' && TERMINAL_STATUSES.includes(update.status)) ctx.state.entering = false;
    return ctx.state.exit.onOrderUpdate(ctx, update);
  },
  onDenial: (ctx, denial) => ctx.state.exit.onDenial(ctx, denial),
});
