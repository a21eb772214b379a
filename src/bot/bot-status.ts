/**
 * The running bot's status snapshot (issue 21 deliverable 4; the shape is src/bot/status/types.ts,
 * helper G's, which renders it): per strategy its position, open orders, realised and unrealised
 * PnL (strategy-book.ts, from its own fills) and last signal; the user stream's and market data's
 * health; the weight used as a share of each pool; the server clock offset; the run's counts.
 * Plain data (decimal strings, epoch ms), made on demand from what the bot holds.
 */
import type { OrderManager } from '../core/orders/order-manager.ts';
import type { Kernel } from '../engine/kernel.ts';
import type { BudgetSnapshot } from '../exchange/rate/weight-budget.ts';
import type { StreamHealth } from '../exchange/ws/stream-health.ts';
import type { MarketDataHealth } from '../live/market-data/types.ts';
import type { BotCounts, BotExitReason, BotStatusSnapshot, LastSignal, StrategyStatus, StreamStatus, WeightPoolStatus } from './status/types.ts';
import type { StrategyBook } from './strategy-book.ts';
import type { BotStrategy } from './strategies.ts';
import { failureReason, STOPPED_WITH_THE_BOT } from './strategy-journal.ts';

export interface StatusSources {
  readonly runId: string;
  readonly kind: 'live' | 'sandbox';
  readonly startedAt: number;
  readonly now: number;
  readonly ended?: { readonly at: number; readonly reason: BotExitReason; readonly detail: string | null } | undefined;
  readonly strategies: readonly BotStrategy[];
  readonly kernel: Kernel;
  readonly orders: OrderManager;
  readonly books: ReadonlyMap<string, StrategyBook>;
  readonly lastSignals: ReadonlyMap<string, LastSignal>;
  /** Strategies stopped on purpose (the bot's stop), with why. */
  readonly userStream: StreamHealth | undefined;
  readonly marketData: MarketDataHealth | undefined;
  readonly budget: BudgetSnapshot | undefined;
  readonly clockOffsetMs: number | undefined;
  readonly counts: BotCounts;
  readonly quoteOf: (symbol: string) => string | undefined;
}

export function statusSnapshot(s: StatusSources): BotStatusSnapshot {
  const quotes = new Set(s.strategies.flatMap((x) => x.setup.symbols.map((sym) => s.quoteOf(sym) ?? '?')));
  return {
    runId: s.runId,
    kind: s.kind,
    state: s.ended === undefined ? 'running' : 'stopped',
    startedAt: s.startedAt,
    endedAt: s.ended?.at ?? null,
    exitReason: s.ended?.reason ?? null,
    exitDetail: s.ended?.detail ?? null,
    asOf: s.now,
    quoteAsset: quotes.size === 1 && !quotes.has('?') ? ([...quotes][0] as string) : null,
    strategies: s.strategies.map((x) => strategyStatus(s, x)),
    streams: streams(s.userStream, s.marketData),
    weight: weight(s.budget),
    clockOffsetMs: s.clockOffsetMs ?? null,
    counts: { ...s.counts },
  };
}

function strategyStatus(s: StatusSources, x: BotStrategy): StrategyStatus {
  const book = s.books.get(x.name);
  const runner = s.kernel.runner(x.name);
  const views = x.setup.symbols.map((sym) => book?.view(sym));
  const totals = book?.totals(x.setup.symbols) ?? { realised: '0', unrealised: '0', fees: '0' };
  const open = s.orders.orders.view(x.name);
  const failed = runner?.status === 'failed';
  const stopped = runner?.status === 'stopped';
  return {
    name: x.name,
    symbols: [...x.setup.symbols],
    positions: x.setup.symbols.map((symbol, i) => {
      const v = views[i];
      return {
        symbol,
        quantity: v?.quantity ?? '0',
        averageEntryPrice: v?.averageEntryPrice ?? null,
        markPrice: v?.markPrice ?? null,
        markSource: v?.markSource ?? null,
        markTime: v?.markTime ?? null,
        unrealisedPnl: v?.unrealisedPnl ?? '0',
        realisedPnl: v?.realisedPnl ?? '0',
      };
    }),
    openOrderCount: open.length,
    openOrders: open.map((o) => ({
      clientOrderId: o.clientOrderId,
      orderId: o.orderId ?? null,
      symbol: o.symbol,
      side: o.side,
      type: o.type,
      price: o.price ?? null,
      quantity: o.origQty ?? '0',
      executedQuantity: o.executedQty,
      status: o.status === 'PENDING_NEW' ? 'PENDING' : o.status,
      createdAt: o.time,
    })),
    realisedPnl: totals.realised,
    unrealisedPnl: totals.unrealised,
    fees: totals.fees,
    lastSignal: s.lastSignals.get(x.name) ?? null,
    health: failed ? 'failed' : stopped ? 'stopped' : 'active',
    // The same text the journal's strategy-failed / strategy-stopped intents carry (strategy-journal.ts).
    healthReason: failed ? (runner?.failure ? failureReason(runner.failure) : 'failed') : stopped ? STOPPED_WITH_THE_BOT : null,
  };
}

function streams(user: StreamHealth | undefined, md: MarketDataHealth | undefined): StreamStatus {
  const polling = md?.streams.find((x) => x.mode === 'polling');
  const since = md === undefined || md.streams.length === 0 ? null : Math.max(...md.streams.map((x) => x.since));
  return {
    userStream: user === undefined ? null : { state: user.state, since: user.since, reason: user.reason || null },
    marketData:
      md === undefined || md.streams.length === 0
        ? { mode: 'unknown', since: null, reason: null }
        : polling !== undefined
          ? { mode: 'polling', since: polling.since, reason: `${polling.stream}: ${polling.reason}` }
          : { mode: 'stream', since, reason: null },
  };
}

function weight(b: BudgetSnapshot | undefined): WeightPoolStatus[] {
  if (b === undefined) return [];
  return b.pools
    .filter((p): p is typeof p & { pool: 'IP' | 'UID' | 'ORDERS' } => p.pool === 'IP' || p.pool === 'UID' || p.pool === 'ORDERS')
    .map((p) => ({ pool: p.pool, used: p.usage, limit: p.limit, share: p.limit > 0 ? p.usage / p.limit : 0, windowMs: p.windowMs }));
}
