/**
 * The market-data pipeline (src/live/market-data, issue 21 deliverable 1) into the kernel
 * (deliverable 2): per (symbol, interval) the strategies ask for, the warm-up bars first (the
 * largest count any of them needs: a strategy that needs fewer just keeps more history), then the
 * live closed bars after the last warm-up bar, each handed to `kernel.bar` as the backtest hands
 * them; trades and book tops of the symbols whose strategies have handlers for them. Each bar and
 * trade also sets the order manager's last price (MARKET and quote-sized orders are checked at it)
 * and goes to the host (`onBar`, `onTrade`: the strategies' marks).
 *
 * One subscription per series whatever the number of strategies (the pipeline shares them too).
 *
 * A bar reaches the kernel only once the bot's clock is past its close (the runner refuses it
 * otherwise): when the venue's close event comes before that (the venue's clock a little ahead of
 * the bot's), it waits on the scheduler until then, its series' later bars behind it. A bar or
 * trade the kernel refuses is logged, never thrown into the stream (that would end the process).
 */
import { Subscription, type SchedulerLike } from 'rxjs';
import type { Candle } from '../core/indicators/candle.ts';
import type { OrderManager } from '../core/orders/order-manager.ts';
import type { Kernel } from '../engine/kernel.ts';
import type { MarketData } from '../live/market-data/types.ts';
import { warmupOf } from '../strategy/define.ts';
import type { Interval } from '../strategy/types.ts';
import type { BotStrategy } from './strategies.ts';

export interface FeedPlan {
  /** Per `symbol interval`: the bars to warm up with. */
  readonly bars: Map<string, { readonly symbol: string; readonly interval: Interval; readonly warmup: number }>;
  readonly trades: ReadonlySet<string>;
  readonly bookTops: ReadonlySet<string>;
}

/** What the strategies need: bars where one has onBar or a warm-up, trades and book tops where one has the handler. */
export function feedPlan(strategies: readonly BotStrategy[]): FeedPlan {
  const bars = new Map<string, { symbol: string; interval: Interval; warmup: number }>();
  const trades = new Set<string>();
  const bookTops = new Set<string>();
  for (const s of strategies) {
    const d = s.definition;
    for (const symbol of s.setup.symbols) {
      if (d.onTrade !== undefined) trades.add(symbol);
      if (d.onBookTop !== undefined) bookTops.add(symbol);
      for (const interval of s.setup.intervals) {
        const warmup = warmupOf(s.setup, interval);
        if (d.onBar === undefined && warmup === 0) continue;
        const key = `${symbol} ${interval}`;
        const prev = bars.get(key);
        bars.set(key, { symbol, interval, warmup: Math.max(prev?.warmup ?? 0, warmup) });
      }
    }
  }
  return { bars, trades, bookTops };
}

export const planIsEmpty = (p: FeedPlan): boolean => p.bars.size === 0 && p.trades.size === 0 && p.bookTops.size === 0;

export interface FeedHooks {
  /** Something the kernel refused (a bar, a trade, a book top), for the log. */
  onError?(what: string, error: unknown): void;
  onBar?(symbol: string, interval: Interval, candle: Candle): void;
  onTrade?(symbol: string, price: string, time: number): void;
  onWarmup?(symbol: string, interval: Interval, bars: number, wanted: number): void;
}

/** Hand each series' warm-up bars to the kernel; the open time of the last one per series. */
export async function warmUp(md: MarketData, kernel: Kernel, om: OrderManager, plan: FeedPlan, hooks: FeedHooks = {}): Promise<Map<string, number>> {
  const last = new Map<string, number>();
  for (const [key, s] of plan.bars) {
    if (s.warmup === 0) continue;
    const bars = await md.warmup(s.symbol, s.interval, s.warmup);
    hooks.onWarmup?.(s.symbol, s.interval, bars.length, s.warmup);
    for (const c of bars) {
      kernel.bar(s.symbol, s.interval, c);
      last.set(key, c.openTime);
    }
    const close = bars.at(-1)?.exact.close;
    if (close !== undefined) om.setLastPrice(s.symbol, close);
  }
  return last;
}

/** Live bars (after the warm-up's last), trades and book tops into the kernel; unsubscribe to stop. */
export function subscribeFeed(
  md: MarketData,
  kernel: Kernel,
  om: OrderManager,
  plan: FeedPlan,
  warmedTo: ReadonlyMap<string, number>,
  time: { readonly now: () => number; readonly scheduler: SchedulerLike },
  hooks: FeedHooks = {},
): Subscription {
  const sub = new Subscription();
  const guarded = (what: string, f: () => void) => {
    try {
      f();
    } catch (e) {
      hooks.onError?.(what, e);
    }
  };
  for (const [key, s] of plan.bars) {
    const warmed = warmedTo.get(key);
    let after = warmed ?? -Infinity;
    const deliver = (c: Candle) =>
      guarded(`${s.symbol} ${s.interval} bar ${c.openTime}`, () => {
        om.setLastPrice(s.symbol, c.exact.close);
        hooks.onBar?.(s.symbol, s.interval, c);
        kernel.bar(s.symbol, s.interval, c);
      });
    // From the bar after the last warm-up bar: the pipeline fills what closed in between from REST.
    sub.add(
      md.closedBars(s.symbol, s.interval, warmed === undefined ? {} : { after: warmed }).subscribe((b) => {
        // The warm-up's REST bars and the stream's first may overlap: each bar once.
        if (b.candle.openTime <= after) return;
        after = b.candle.openTime;
        const early = b.candle.closeTime + 1 - time.now();
        if (early <= 0) deliver(b.candle);
        else sub.add(time.scheduler.schedule(() => deliver(b.candle), early));
      }),
    );
  }
  for (const symbol of plan.trades) {
    sub.add(
      md.trades(symbol).subscribe((t) =>
        guarded(`${symbol} trade ${t.id}`, () => {
          om.setLastPrice(symbol, t.price);
          hooks.onTrade?.(symbol, t.price, t.time);
          kernel.trade(t);
        }),
      ),
    );
  }
  for (const symbol of plan.bookTops) sub.add(md.bookTops(symbol).subscribe((t) => guarded(`${symbol} book top`, () => kernel.bookTop(t))));
  return sub;
}
