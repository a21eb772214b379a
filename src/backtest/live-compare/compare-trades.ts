/**
 * One strategy's live trades against its replay's: paired (match.ts), each pair's differences
 * explained (explain-pair.ts, explain-missing.ts) in time order, so a difference that changed
 * what the strategy held (a quantity, a trade one side lacks, a base commission) is known when a
 * later trade follows from it (knock-on: explained when it is).
 */
import type { ExplainContext } from './explain-context.ts';
import { missingInBacktest, missingLive, type EarlierDifference } from './explain-missing.ts';
import { pairDifferences } from './explain-pair.ts';
import { matchTrades } from './match.ts';
import { filled } from './trade-summary.ts';
import type { Difference, Trade, TradePair } from './types.ts';

/** Differences that change the strategy's position, balance or state for the trades after. */
const CARRIES: readonly Difference['kind'][] = ['missing-in-backtest', 'missing-live', 'quantity', 'fees', 'price'];

export interface CompareTradesOptions {
  readonly strategy: string;
  readonly live: readonly Trade[];
  readonly backtest: readonly Trade[];
  /** How far apart in time two trades of another client order id may be and still pair. */
  readonly toleranceMs: number;
  readonly ctx: ExplainContext;
  /** Why a live order ended without a fill (its reject or deny reason), by client order id. */
  readonly liveReasons?: ReadonlyMap<string, string>;
}

export function compareTrades(o: CompareTradesOptions): TradePair[] {
  const out: TradePair[] = [];
  const earlier = new Map<string, EarlierDifference>();
  for (const p of matchTrades(o.live, o.backtest, o.toleranceMs)) {
    const symbol = (p.live ?? p.backtest)!.symbol;
    const before = earlier.get(symbol);
    let differences: Difference[];
    if (filled(p.live) && filled(p.backtest)) differences = pairDifferences(p.live!, p.backtest!, o.ctx, before);
    else if (filled(p.live)) differences = [missingInBacktest(p.live!, p.backtest, o.ctx, before)];
    else differences = [missingLive(p.backtest!, p.live, o.ctx, before, p.live === undefined ? undefined : o.liveReasons?.get(p.live.clientOrderId))];
    out.push({ strategy: o.strategy, symbol, live: p.live, backtest: p.backtest, pairedBy: p.pairedBy, differences });
    const carried = differences.filter((d) => CARRIES.includes(d.kind));
    if (carried.length > 0) {
      const ok = carried.every((d) => d.explanation !== undefined);
      // The first carrying difference is named; one unexplained anywhere since makes the chain unexplained.
      earlier.set(symbol, { index: before?.index ?? out.length, explained: (before?.explained ?? true) && ok });
    }
  }
  return out;
}
