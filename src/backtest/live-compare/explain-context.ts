/**
 * What the explanations read: the recorded bars, the fill model and fee rates the replay ran with,
 * each symbol's base asset, and when the live run stopped.
 */
import type { ResolvedFillModel } from '../run/fill-model.ts';
import type { BarIndex } from './bars.ts';
import type { Difference, Explanation } from './types.ts';

export interface ExplainContext {
  readonly bars: BarIndex;
  readonly fillModel: ResolvedFillModel;
  readonly fees: { readonly maker: string; readonly taker: string };
  readonly baseAsset: (symbol: string) => string | undefined;
  /**
   * The strategy's handlers that run between bars live (onTrade, onBookTop): the backtest's
   * strategy only ever sees closed bars (fill model rule 1), so what they decided has no twin.
   */
  readonly betweenBars?: readonly string[] | undefined;
  /** When the live run stopped (its last record when it crashed); undefined while it runs. */
  readonly liveEnd?: number | undefined;
}

export const explained = (kind: Difference['kind'], detail: string, explanation: Explanation): Difference => ({ kind, detail, explanation });
export const unexplained = (kind: Difference['kind'], detail: string, why: string): Difference => ({ kind, detail, unexplained: why });
