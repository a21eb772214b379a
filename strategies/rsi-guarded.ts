/**
 * rsi-exits (an RSI entry, exits() guarding the position) with protections()
 * (src/strategy/exits/protections.ts), Freqtrade's protections: after a trade closes no entry for
 * `cooldownBars` bars; `stoplossGuard` losing stop-loss exits within `guardLookbackMinutes` lock
 * entries for `guardLockMinutes`; optionally, the equity falling more than `maxDrawdown` under its
 * high within `drawdownLookbackMinutes` locks them for `drawdownLockMinutes`. In a market that keeps
 * falling, the RSI keeps signalling "oversold, turning up" and rsi-exits keeps buying into the fall,
 * each entry stopped out; the locks sit most of those out. A 0 turns a protection off (all 0: rsi-exits).
 *
 * The protections only answer whether an entry may go out; exits are never held back. A signal
 * skipped because of a lock is logged with the lock's reason.
 */
import { crossover, decimalParam, defineStrategy, exits, intervalParam, place, protections, TERMINAL_STATUSES, warmupFor, z } from '../src/strategy/index.ts';
import type { ProtectionsConfig } from '../src/strategy/index.ts';

const MINUTE = 60_000;

export default defineStrategy({
  name: 'rsi-guarded',
  description: 'rsi-exits with protections(): a cooldown after each trade, a lock after repeated stop-losses and, optionally, after a drawdown of the equity.',
  params: z.object({
    symbol: z.string().min(1).default('BTCPHP'),
    interval: intervalParam().default('1m'),
    rsiPeriod: z.number().int().min(2).default(14),
    buyLevel: z.number().gt(0).lt(100).default(30),
    quoteAmount: decimalParam().default('1000'),
    stopLoss: z.number().gt(0).lt(1).default(0.02),
    takeProfit: z.number().gt(0).default(0.01),
    cooldownBars: z.number().int().min(0).default(30), //            bars after a trade before the next entry
    stoplossGuard: z.number().int().min(0).default(2), //            losing stop-loss exits that lock...
    guardLookbackMinutes: z.number().int().min(1).default(180), //  ... within this long
    guardLockMinutes: z.number().int().min(1).default(240), //      ... for this long
    maxDrawdown: z.number().min(0).lt(1).default(0), //             a fraction of the equity under its high; 0: off
    drawdownLookbackMinutes: z.number().int().min(1).default(1440),
    drawdownLockMinutes: z.number().int().min(1).default(720),
  }),
  symbols: (p) => [p.symbol],
  intervals: (p) => [p.interval],
  warmup: (p) => warmupFor.rsi(p.rsiPeriod),
  state: (p) => {
    const config: ProtectionsConfig = {
      ...(p.cooldownBars > 0 ? { cooldown: { bars: p.cooldownBars } } : {}),
      ...(p.stoplossGuard > 0 ? { stoplossGuard: { tradeLimit: p.stoplossGuard, lookbackMs: p.guardLookbackMinutes * MINUTE, lockMs: p.guardLockMinutes * MINUTE } } : {}),
      ...(p.maxDrawdown > 0 ? { maxDrawdown: { maxDrawdown: p.maxDrawdown, lookbackMs: p.drawdownLookbackMinutes * MINUTE, lockMs: p.drawdownLockMinutes * MINUTE } } : {}),
    };
    return { entering: false, exit: exits({ stopLoss: p.stopLoss, takeProfit: p.takeProfit }), guard: protections(config) };
  },

  onBar(ctx, bar) {
    ctx.state.guard.onBar(ctx, bar); // the drawdown is measured on every bar
    const out = ctx.state.exit.onBar(ctx, bar);
    const rsi = ctx.bars().rsi(ctx.params.rsiPeriod);
    ctx.plot('RSI', rsi.value, { pane: 'below' });
    if (out.length) return out;
    if (ctx.state.entering || !ctx.state.exit.flat(ctx) || !crossover(rsi, ctx.params.buyLevel)) return;
    if (ctx.state.guard.locked(ctx)) {
      ctx.log(`entry skipped: ${ctx.state.guard.reason(ctx) ?? ''}`);
      return;
    }
    ctx.state.entering = true;
    return [place({ symbol: ctx.symbol, side: 'BUY', type: 'MARKET', quoteOrderQty: ctx.params.quoteAmount, tag: 'entry' })];
  },
  onFill(ctx, fill) {
    ctx.state.guard.onFill(ctx, fill); // a fill that closes a trade may lock
    return ctx.state.exit.onFill(ctx, fill);
  },
  onOrderUpdate(ctx, update) {
    if (update.tag === 'entry' && TERMINAL_STATUSES.includes(update.status)) ctx.state.entering = false;
    return ctx.state.exit.onOrderUpdate(ctx, update);
  },
  onDenial: (ctx, denial) => ctx.state.exit.onDenial(ctx, denial),
});
