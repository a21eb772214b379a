/**
 * A trade one side made and the other did not: explained by the data's edges (a decision on the
 * last recorded bar has no next bar to fill at in the replay, fill model rule 10; a live run that
 * stopped before the replay's fill), by a limit the price touched without trading through (rule
 * 4: live filled at the touch, or the model filled at a touch live's queue never reached), or by
 * an earlier difference the trade follows from (a position, a balance, the strategy's state);
 * otherwise unexplained, with what the other side's twin order did.
 */
import { fmtMs } from './time-text.ts';
import { limitReach } from './bars.ts';
import { explained, unexplained, type ExplainContext } from './explain-context.ts';
import { priceText, summarize } from './trade-summary.ts';
import type { Difference, Explanation, Trade } from './types.ts';

/** The earliest difference before this trade that changed what the strategy held or knew, if any. */
export interface EarlierDifference {
  /** 1-based place of its pair in the strategy's list. */
  readonly index: number;
  readonly explained: boolean;
}

function describe(t: Trade, ctx: ExplainContext): string {
  const s = summarize(t, ctx.baseAsset(t.symbol));
  return `${t.side} ${s.qty.toFixed()} ${t.symbol} at ${priceText(s.price)} (${t.type ?? 'order'} ${t.clientOrderId}, ${fmtMs(s.firstTime ?? 0)})`;
}

const knockOn = (earlier: EarlierDifference): Explanation => ({ rule: 'knock-on', text: `follows from the difference at trade #${earlier.index}: the strategy's position, balance or state differed from then on` });

export function missingInBacktest(live: Trade, twin: Trade | undefined, ctx: ExplainContext, earlier: EarlierDifference | undefined): Difference {
  const detail = `live ${describe(live, ctx)}; the backtest ${twin === undefined ? 'placed no such order' : `placed it and it ended ${twin.status ?? 'unfilled'}`}`;
  const last = ctx.bars.last(live.symbol);
  const first = ctx.bars.first(live.symbol);
  const placed = live.placedAt ?? live.fills[0]?.time ?? 0;
  const firstFill = live.fills[0]?.time ?? 0;
  if (last !== undefined && (placed > last.closeTime || firstFill > last.closeTime)) {
    // Placed after the data ends (nothing to decide on), or placed within it and filled after it (nothing to fill on).
    const when = placed > last.closeTime ? `placed ${fmtMs(placed)}` : `placed ${fmtMs(placed)} and filled ${fmtMs(firstFill)}`;
    return explained('missing-in-backtest', detail, { rule: 'end-of-data', text: `${when}, after the last recorded bar closed (${fmtMs(last.closeTime)}): the replay has no bar to decide or fill it on` });
  }
  if (first !== undefined && placed < first.openTime) {
    return explained('missing-in-backtest', detail, { rule: 'end-of-data', text: `placed ${fmtMs(placed)}, before the first recorded bar of the run (${fmtMs(first.openTime)}): not replayed` });
  }
  if (twin !== undefined && live.limitPrice !== undefined && (live.type ?? '').includes('LIMIT')) {
    const bars = ctx.bars.between(live.symbol, twin.placedAt ?? placed, last?.closeTime ?? placed);
    const reach = limitReach(bars, live.side, live.limitPrice);
    if (reach === 'touch' && ctx.fillModel.limitFill === 'through') {
      return explained('missing-in-backtest', detail, { rule: 'limit-touched', text: `the price touched ${live.limitPrice} but never traded through it: live filled at the touch, the model (limitFill: through) fills only when a print goes beyond the limit` });
    }
  }
  const between = betweenBars(placed, live.symbol, ctx);
  if (between !== undefined) return explained('missing-in-backtest', detail, between);
  if (earlier !== undefined) return earlier.explained ? explained('missing-in-backtest', detail, knockOn(earlier)) : unexplained('missing-in-backtest', detail, `${knockOn(earlier).text}, which is unexplained`);
  return unexplained('missing-in-backtest', detail, twin === undefined ? 'the replayed strategy did not place this order on the same bars' : `the replay's twin order ended ${twin.status ?? 'unfilled'} where live filled`);
}

/**
 * A live order of a strategy with handlers that run between bars, placed where no bar's close can
 * have decided it (in the run's first bar, or past the first 2% of a bar and at least a second
 * after the last close): a reaction to a trade or book top.
 */
function betweenBars(placed: number, symbol: string, ctx: ExplainContext): Explanation | undefined {
  const handlers = ctx.betweenBars ?? [];
  const bar = ctx.bars.at(symbol, placed);
  if (handlers.length === 0 || bar === undefined) return undefined;
  const acts = `live the strategy also acts on ${handlers.join(' and ')}, the backtest's strategy only ever sees closed bars (fill model rule 1)`;
  // Before the run's first bar closed no live bar had reached the strategy: not a bar's decision.
  if (bar === ctx.bars.first(symbol)) return { rule: 'between-bars', text: `placed ${fmtMs(placed)}, before the run's first bar closed: ${acts}` };
  const into = placed - bar.openTime;
  if (into < Math.max(1000, (bar.closeTime + 1 - bar.openTime) * 0.02)) return undefined;
  return { rule: 'between-bars', text: `placed ${Math.round(into / 1000)} s into a bar, between closes: ${acts}` };
}

export function missingLive(bt: Trade, twin: Trade | undefined, ctx: ExplainContext, earlier: EarlierDifference | undefined, liveReason?: string): Difference {
  const detail = `backtest ${describe(bt, ctx)}; live ${twin === undefined ? 'placed no such order' : `placed it and it ended ${twin.status ?? 'unfilled'}${liveReason === undefined ? '' : ` (${liveReason})`}`}`;
  const fillTime = bt.fills[0]?.time ?? 0;
  if (ctx.liveEnd !== undefined && fillTime > ctx.liveEnd) {
    return explained('missing-live', detail, { rule: 'end-of-data', text: `the backtest filled it at ${fmtMs(fillTime)}, after the live run stopped (${fmtMs(ctx.liveEnd)})` });
  }
  if (twin !== undefined && bt.limitPrice !== undefined && (bt.type ?? '').includes('LIMIT')) {
    const bars = ctx.bars.between(bt.symbol, bt.placedAt ?? fillTime, fillTime);
    const reach = limitReach(bars, bt.side, bt.limitPrice);
    if (reach === 'touch') {
      return explained('missing-live', detail, { rule: 'limit-touched', text: `the price only touched ${bt.limitPrice}: the model (limitFill: ${ctx.fillModel.limitFill}) filled at the touch, live the orders ahead in the queue took what traded there` });
    }
  }
  if (earlier !== undefined) return earlier.explained ? explained('missing-live', detail, knockOn(earlier)) : unexplained('missing-live', detail, `${knockOn(earlier).text}, which is unexplained`);
  return unexplained('missing-live', detail, twin === undefined ? 'the live strategy did not place this order on the same bars' : `the live order ended ${twin.status ?? 'unfilled'}${liveReason === undefined ? '' : ` (${liveReason})`} where the backtest filled`);
}
