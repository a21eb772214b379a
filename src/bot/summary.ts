/**
 * What a bot run hands back when it stops (issue 21 deliverable 5: `npm start` prints it): per
 * strategy its orders, fills, rejections, denials, realised and unrealised PnL and fees (from its
 * own fills, strategy-book.ts), whether it failed and why; the run's totals, exit reason and
 * where its journal is. Plain data: decimal strings, epoch ms. Also kept in the journal's runs row
 * (`result`), so `halyard status --journal` can show it for a stopped run.
 */
import { D, toWire } from '../core/money/decimal.ts';
import type { OrderManager } from '../core/orders/order-manager.ts';
import type { ExitReason } from '../journal/runs/live-run-store.ts';
import { intervalMs } from '../core/market/intervals.ts';
import { warmupOf } from '../strategy/define.ts';
import type { StrategyBook } from './strategy-book.ts';
import type { BotStrategy } from './strategies.ts';

export interface StrategySummary {
  readonly name: string;
  readonly strategy: string;
  readonly symbols: readonly string[];
  /** Orders sent (places and cancel-replaces the strategy asked for). */
  readonly orders: number;
  readonly fills: number;
  /** Refused by the venue. */
  readonly rejected: number;
  /** Refused by the pre-trade checks (capital, filters, funds): never sent. */
  readonly denied: number;
  /** Still open at stop (left on the book with onStop `leave`). */
  readonly openOrders: number;
  readonly realisedPnl: string;
  readonly unrealisedPnl: string;
  readonly fees: string;
  /** Per symbol: position (base) at stop. */
  readonly positions: Readonly<Record<string, string>>;
  /** Why it was stopped early, when it failed. */
  readonly failure: string | null;
  /** The longest of its warm-ups as a span of time (bars x interval): a backtest of the run's bars starts this much earlier. */
  readonly warmupMs: number;
}

export interface BotSummary {
  readonly runId: string;
  readonly journal: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly exitReason: ExitReason;
  readonly exitDetail: string | null;
  readonly orders: number;
  readonly fills: number;
  readonly rejected: number;
  readonly bars: number;
  readonly realisedPnl: string;
  readonly strategies: readonly StrategySummary[];
}

export interface SummaryInput {
  readonly runId: string;
  readonly journal: string;
  readonly startedAt: number;
  readonly ended: { readonly at: number; readonly reason: ExitReason; readonly detail: string | null };
  readonly strategies: readonly BotStrategy[];
  readonly books: ReadonlyMap<string, StrategyBook>;
  readonly perStrategy: ReadonlyMap<string, { orders: number; fills: number; rejected: number; denied: number }>;
  readonly failures: readonly { strategy: string; message: string }[];
  readonly counts: { orders: number; fills: number; rejected: number; bars: number };
  readonly orders: OrderManager;
}

export function summaryOf(i: SummaryInput): BotSummary {
  let realised = new D(0);
  const strategies = i.strategies.map((s): StrategySummary => {
    const book = i.books.get(s.name);
    const totals = book?.totals(s.setup.symbols) ?? { realised: '0', unrealised: '0', fees: '0' };
    realised = realised.plus(totals.realised);
    const n = i.perStrategy.get(s.name) ?? { orders: 0, fills: 0, rejected: 0, denied: 0 };
    return {
      name: s.name,
      strategy: s.definition.name === s.name ? s.name : s.file,
      symbols: [...s.setup.symbols],
      orders: n.orders,
      fills: n.fills,
      rejected: n.rejected,
      denied: n.denied,
      openOrders: [...i.orders.orders.openOrders(s.name)].length,
      realisedPnl: totals.realised,
      unrealisedPnl: totals.unrealised,
      fees: totals.fees,
      positions: Object.fromEntries(s.setup.symbols.map((sym) => [sym, book?.view(sym).quantity ?? '0'])),
      failure: i.failures.find((f) => f.strategy === s.name)?.message ?? null,
      warmupMs: Math.max(0, ...s.setup.intervals.map((iv) => warmupOf(s.setup, iv) * (intervalMs(iv) ?? 0))),
    };
  });
  return {
    runId: i.runId,
    journal: i.journal,
    startedAt: i.startedAt,
    endedAt: i.ended.at,
    exitReason: i.ended.reason,
    exitDetail: i.ended.detail,
    orders: i.counts.orders,
    fills: i.counts.fills,
    rejected: i.counts.rejected,
    bars: i.counts.bars,
    realisedPnl: toWire(realised),
    strategies,
  };
}

/** The summary as lines for a terminal (`halyard run` and `npm start` print it at stop). */
export function summaryLines(s: BotSummary): string[] {
  const out = [`Run ${s.runId} ${s.exitReason}${s.exitDetail ? ` (${s.exitDetail})` : ''}: ${s.orders} orders, ${s.fills} fills, ${s.rejected} rejected, ${s.bars} bars`];
  for (const x of s.strategies) {
    out.push(
      `  ${x.name} [${x.symbols.join(', ')}]: ${x.orders} orders, ${x.fills} fills${x.rejected ? `, ${x.rejected} rejected` : ''}${x.denied ? `, ${x.denied} denied` : ''}; realised PnL ${x.realisedPnl}, unrealised ${x.unrealisedPnl} (fees ${x.fees})${x.openOrders ? `; ${x.openOrders} orders left open` : ''}${x.failure ? `; FAILED: ${x.failure}` : ''}`,
    );
  }
  out.push(`Journal: ${s.journal}`);
  return out;
}
